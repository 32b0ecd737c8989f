"""The one worker interface of the engine: fetch and analyse this URL → Outcome.

The scheduler (crawl/engine.py, crawl/dispatch.py) decides which URL goes out
and when; a worker only fetches the URL it is handed and analyses the page. Two
implementations: `LocalWorkers` (fetch threads and analyser processes in this
machine) and `RayWorkers` (crawl/ray_workers.py: Ray actors on any number of
nodes). Both answer with a `Done`: the outcome, and the pause the page's host
needs before its next request (the fetch delay, or robots.txt's Crawl-delay,
which only the worker that read robots.txt knows).

Robots.txt is read and honoured by the worker (each worker process keeps its own
cache): the file says the same to every worker, so a URL it disallows is refused
wherever it goes, and a worker fetches it inside its host's turn, so even that
request keeps to one in flight per host cluster-wide.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from kgcrawl.crawl.analyse import StageTimes, analyse_in_process, analyse_result, failed_outcome
from kgcrawl.crawl.analysers import analyser_count, start_analysers
from kgcrawl.crawl.exchange import Exchange
from kgcrawl.crawl.fetch import Fetcher, FetchResult
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.errors import KgcrawlError
from kgcrawl.text.analysis import LinkOptions
from kgcrawl.text.matching import TopicMatcher

log = logging.getLogger("kgcrawl.crawl")

Analyse = Callable[[str, FetchResult, str], Outcome]  # url, fetch, main-text extractor


Archived = tuple[str, Exchange]  # the final URL and the exchange as received, for the WARC


class WorkersUnavailable(KgcrawlError):
    """The workers could not start (a Ray cluster that cannot be reached or cannot place
    them): the crawl stops before its first page, and a run it had just begun is removed."""


@dataclass
class Done:
    """A worker's answer: the outcome, and the seconds its host rests before its next request.

    `exchange` is kept when the crawl archives: the engine writes it to the WARC when it
    folds the outcome in, so the archive at a checkpoint holds what the log committed.
    """

    outcome: Outcome
    delay: float
    exchange: Archived | None = None


class Workers(Protocol):
    """Fetch and analyse one URL at a time per slot; `capacity` slots in all."""

    capacity: int

    def submit(self, url: str, extractor: str) -> Future[Done]:
        """Start on `url`, its main text by `extractor` (`text.main_text.EXTRACTORS`); the
        future holds its Done (a failed fetch is an outcome too)."""
        ...

    def close(self) -> None:
        """Stop: work not started is dropped (its URLs stay unlogged), running work ends first."""
        ...


def host_delay(fetcher: Fetcher, url: str) -> float:
    """The pause after a request to `url`'s host: fetch.delay, or a longer robots Crawl-delay
    (capped at fetch.max_wait, as the fetcher caps it)."""
    settings = fetcher.settings
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return settings.delay
    rules = fetcher.robots.rules(f"{parts.scheme}://{parts.netloc}")  # the fetch cached it
    return max(settings.delay, min(rules.crawl_delay(settings.user_agent), settings.max_wait))


def fetch_and_analyse(
    fetcher: Fetcher,
    url: str,
    extractor: str,
    analyse: Analyse,
    times: StageTimes,
    archive: bool = False,
) -> Done:
    """Fetch one URL and analyse the page, its main text by `extractor`; a page no parser
    survives is a failed outcome."""
    with times.stage("fetch"):
        result = fetcher.fetch(url)
    exchange = (result.final_url, result.exchange) if archive and result.exchange else None
    try:
        outcome = analyse(url, result, extractor)
    except Exception as exc:  # a page no parser survives must not stop the crawl
        log.warning("analysis of %s failed: %r", url, exc)
        result.reason = f"parse: {type(exc).__name__}"
        outcome = failed_outcome(url, result)
    if result.status is None:  # no answer from the host (or no request): the plain delay
        return Done(outcome, fetcher.settings.delay, exchange)
    return Done(outcome, host_delay(fetcher, url), exchange)


class LocalWorkers:
    """`capacity` fetch threads; with more than one, pages are analysed in processes.

    With one slot the work runs in the caller's thread and `submit` returns a
    finished future: the sequential crawl stays one thread, as deterministic as before.
    """

    def __init__(
        self,
        capacity: int,
        matcher: TopicMatcher,
        options: LinkOptions,
        fetcher: Fetcher,
        times: StageTimes,
        archive: bool = False,
    ) -> None:
        self.capacity = capacity
        self.matcher = matcher
        self.options = options  # link evidence and the link cap, as the crawl reads links
        self.fetcher = fetcher
        self.times = times
        self.archive = archive  # keep each exchange for the WARC
        self._threads: ThreadPoolExecutor | None = None
        self._analysers: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()  # one restart of a broken pool, whoever meets it first
        self._closed = False
        self._processes = analyser_count()
        if capacity > 1:
            # pages are analysed in processes: parsing is CPU work under the GIL
            self._analysers = start_analysers(self._processes, matcher.words, options)
            self._threads = ThreadPoolExecutor(capacity, thread_name_prefix="fetch")

    def submit(self, url: str, extractor: str) -> Future[Done]:
        if self._threads is not None:
            return self._threads.submit(self.work, url, extractor)
        future: Future[Done] = Future()
        future.set_result(self.work(url, extractor))
        return future

    def work(self, url: str, extractor: str) -> Done:
        return fetch_and_analyse(
            self.fetcher, url, extractor, self._analyse, self.times, self.archive
        )

    def _analyse(self, url: str, result: FetchResult, extractor: str) -> Outcome:
        """In an analyser process. A pool broken under the page (an analyser killed, say by
        the OOM killer) is started again and the page tried once more; if the page breaks
        the new pool too, the pool is started again for the next page and this one fails
        (`fetch_and_analyse` records it): no single page stops the crawl's analysis."""
        if self._analysers is None or not result.ok:
            return analyse_result(url, result, self.matcher, self.times, self.options, extractor)
        for attempt in (1, 2):
            pool = self._analysers
            try:
                outcome, seconds = pool.submit(analyse_in_process, url, result, extractor).result()
                break
            except BrokenProcessPool:
                self._restart(pool, url)
                if attempt == 2:
                    raise
        for stage, spent in seconds.items():
            self.times.add(stage, spent)
        return outcome

    def _restart(self, broken: ProcessPoolExecutor, url: str) -> None:
        """A new pool for `broken`, unless another fetch thread has made one already."""
        with self._pool_lock:
            if self._closed or self._analysers is not broken:
                return
            log.warning("an analyser process died (on %s or beside it): analysers restarted", url)
            broken.shutdown(wait=False, cancel_futures=True)
            self._analysers = start_analysers(self._processes, self.matcher.words, self.options)

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(cancel_futures=True)
        with self._pool_lock:
            self._closed = True
            if self._analysers is not None:
                self._analysers.shutdown(cancel_futures=True)
