"""Workers on a Ray cluster: actors that fetch and analyse the URLs the scheduler hands out.

Each actor is one process holding the analyser state (the crawl's topic matcher,
jieba's dictionary once loaded) and a Fetcher, and runs its share of the N
fetches (`--workers N`) at once in threads, as one local analyser process serves
several fetch threads. There are ⌈N / SLOTS_PER_ACTOR⌉ actors of one CPU each,
spread over the nodes, but no more than the cluster has CPUs (`actor_count`).

The scheduler (frontier, strategy, PageRank, politeness, run log, graph writes)
stays in the process that runs `kgcrawl crawl`, on the head node or any machine
that can reach the cluster. An actor that dies (its node lost, its process
killed) is restarted by Ray, and the URLs it held are run again on it
(`max_task_retries`); a URL that kills its actor every time fails after those
retries as "worker lost", like a broken connection, and the crawl goes on.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from urllib.parse import urlsplit

from kgcrawl.config import Fetch
from kgcrawl.crawl.addresses import Mapping
from kgcrawl.crawl.analyse import StageTimes, analyse_result
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.workers import Done, WorkersUnavailable, fetch_and_analyse
from kgcrawl.stop_flag import handlers_kept
from kgcrawl.text.analysis import NO_CONTEXT, LinkOptions
from kgcrawl.text.matching import TopicMatcher

SLOTS_PER_ACTOR = 4
TASK_RETRIES = 3  # runs of a URL whose actor died, after the first
START_TIMEOUT = 120.0  # seconds for every actor to be placed and built
_TOKEN_NOTICE = "ray._private.authentication.authentication_token_setup"
INSTALL_HINT = "the ray executor needs Ray: pip install 'kgcrawl[ray]'"


class RayUnavailable(WorkersUnavailable):
    """Ray is not installed, the cluster cannot be reached, or it cannot place the actors."""


class PageWorker:
    """One actor: a Fetcher and a topic matcher, `fetch_and_analyse` per call (thread-safe)."""

    def __init__(
        self, settings: Fetch, labels: list[tuple[str, ...]], mappings: tuple, options: LinkOptions
    ) -> None:
        self.fetcher = Fetcher(settings, mappings)
        self.matcher = TopicMatcher(labels)
        self.options = options
        self.times = StageTimes()

    def work(self, url: str, extractor: str) -> Done:
        return fetch_and_analyse(self.fetcher, url, extractor, self._analyse, self.times)

    def _analyse(self, url, result, extractor):
        return analyse_result(url, result, self.matcher, self.times, self.options, extractor)

    def pid(self) -> int:
        """The actor's process id (tests kill it)."""
        return os.getpid()


def actor_count(capacity: int, cpus: float, own: bool = False) -> int:
    """Actors for `capacity` slots: one per `SLOTS_PER_ACTOR`, at most one per CPU of the
    cluster (`cpus`); on a Ray of the crawl's `own`, one per CPU, up to one per slot.

    An actor analyses on one CPU, and its fetches are threads that mostly wait: on
    a 2-CPU machine `--workers 16` asked for 4 actors of 1 CPU, which Ray could not
    place, and the crawl stopped after waiting `START_TIMEOUT` (120 s); 2 actors of 8
    slots crawl. A cluster with no CPU yet (an autoscaler's head) gets the actors it
    would need, and Ray places them as nodes come. A Ray the crawl started has no
    other work to leave CPUs to: with `--workers 4` on 2 CPUs, 1 000 sandbox pages,
    two actors crawled 65.2 and 67.7 pages/s, one 51.2 and 53.0 (interleaved).

    >>> actor_count(16, 2), actor_count(4, 8), actor_count(9, 8), actor_count(16, 0)
    (2, 1, 3, 4)
    >>> actor_count(4, 2, own=True), actor_count(4, 8, own=True), actor_count(1, 2, own=True)
    (2, 4, 1)
    """
    wanted = capacity if own else math.ceil(capacity / SLOTS_PER_ACTOR)
    return max(1, min(wanted, int(cpus))) if cpus >= 1 else wanted


def unreachable(address: str, timeout: float = 5.0) -> str | None:
    """Why nothing answers at a cluster's `address` (HOST:PORT or ray://HOST:PORT), or None
    (also for `auto`, which Ray looks up itself).

    Ray retries an address where nothing listens for minutes, printing a warning
    every few seconds (`--ray-address 127.0.0.1:9`: still retrying after 3 min): one TCP
    connection tells first.
    """
    parts = urlsplit(address if "://" in address else f"ray://{address}")
    try:
        port = parts.port
    except ValueError:
        return None  # not HOST:PORT: Ray's own message says what is wrong
    if parts.hostname is None or port is None:
        return None
    try:
        socket.create_connection((parts.hostname, port), timeout).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def _client_token(address: str | None) -> None:
    """Token authentication on for a ray:// client when a token exists, as `ray.init` turns
    it on for a cluster's own address (Ray 2.60: its client went without the token, the
    server refused it, and the crawl failed after 30 s with "ray client connection
    timeout"). Ray reads the mode once, so this comes before it is imported: once it is,
    the mode is left as Ray read it (a Ray started later in this process would otherwise
    run with a mode its driver does not use: "Failed to start GCS"), and so is an explicit
    RAY_AUTH_MODE."""
    if not (address or "").startswith("ray://") or "RAY_AUTH_MODE" in os.environ:
        return
    if "ray" in sys.modules:
        return
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or Path.home() / ".ray" / "auth_token"
    if os.environ.get("RAY_AUTH_TOKEN") or Path(path).is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


def _init(ray, address: str | None) -> None:
    """Connect to the cluster at `address`, or start a Ray of the crawl's own (None: "local",
    not one that RAY_ADDRESS or the last `ray start` on this machine names).

    A ray:// client is refused now and then as its server starts the process that serves
    it (Ray 2.60's proxier reads the command line of a process that has just exited: 1 of
    7 connections to a fresh `ray start --head`); the next connection gets a new one.
    """
    for attempt in range(2):
        try:
            with handlers_kept():
                ray.init(address=address or "local", include_dashboard=False,
                         log_to_driver=False, configure_logging=False)  # fmt: skip
            return
        except ConnectionError as exc:
            if attempt or "Initialization failure from server" not in str(exc):
                raise


def import_ray(address: str | None = None):
    """The ray module, or one line saying how to install it; `address`: the cluster's."""
    _client_token(address)
    try:
        import ray
    except ImportError:
        raise RayUnavailable(INSTALL_HINT) from None
    return ray


class RayWorkers:
    """`capacity` slots over `actor_count` actors; a URL goes to the least busy."""

    def __init__(
        self,
        settings: Fetch,
        capacity: int,
        labels: list[tuple[str, ...]],
        mappings: tuple[Mapping, ...] = (),
        options: LinkOptions = NO_CONTEXT,
        address: str | None = None,
    ) -> None:
        ray = import_ray(address)
        self.ray = ray
        self.capacity = capacity
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            # Ray warns at each init, in a 180-character line among the crawl's, that token
            # authentication is on (its default): a cluster started for the crawl lives
            # only as long, and `ray start` told the owner of any other
            logging.getLogger(_TOKEN_NOTICE).setLevel(logging.ERROR)
            try:
                _init(ray, address)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"reach the Ray cluster at {address}" if address else "start a Ray here"
                raise RayUnavailable(f"cannot {where}: {exc}") from None
        own = self._owns_ray and address is None
        actors = actor_count(capacity, ray.cluster_resources().get("CPU", 0), own)
        per_actor = math.ceil(capacity / actors)
        remote = ray.remote(PageWorker).options(
            num_cpus=1,
            max_concurrency=per_actor,
            max_restarts=-1,
            max_task_retries=TASK_RETRIES,
            scheduling_strategy="SPREAD",
        )
        self.actors = [remote.remote(settings, labels, mappings, options) for _ in range(actors)]
        self._load = [0] * actors
        # by id(): hashing a ray:// client's ref waits on the thread that runs `_done`,
        # which waits on the lock (a deadlock at the first page, seen with Ray 2.60)
        self._running: dict[int, object] = {}
        self._lock = threading.Lock()
        self._wait_started(actors)

    def _wait_started(self, actors: int) -> None:
        ray = self.ray
        try:
            ray.get([actor.pid.remote() for actor in self.actors], timeout=START_TIMEOUT)
        except ray.exceptions.GetTimeoutError:
            cpus = ray.cluster_resources().get("CPU", 0)
            self.close()
            raise RayUnavailable(
                f"the Ray cluster ({cpus:g} CPUs) did not start {actors} actors of 1 CPU in "
                f"{START_TIMEOUT:g} s: lower --workers or add nodes"
            ) from None

    def submit(self, url: str, extractor: str) -> Future[Done]:
        with self._lock:
            index = min(range(len(self.actors)), key=self._load.__getitem__)
            self._load[index] += 1
        ref = self.actors[index].work.remote(url, extractor)
        with self._lock:
            self._running[id(ref)] = ref
        future = ref.future()
        future.add_done_callback(lambda _: self._done(index, ref))
        return future

    def _done(self, index: int, ref) -> None:
        with self._lock:
            self._load[index] -= 1
            self._running.pop(id(ref), None)

    def pids(self) -> list[int]:
        """The actors' process ids."""
        return self.ray.get([actor.pid.remote() for actor in self.actors])

    def close(self) -> None:
        """Cancel the URLs in flight, then disconnect, which ends this crawl's actors.

        Ended mid-task, an actor's tasks made Ray print that they would be retried, or
        that it could not tell the driver so: a line each, among the crawl's.
        """
        with self._lock:
            running, self._running = self._running, {}
        for ref in running.values():
            self.ray.cancel(ref)
        if self._owns_ray:
            self.ray.shutdown()
        else:
            for actor in self.actors:
                self.ray.kill(actor)
        self.actors = []
