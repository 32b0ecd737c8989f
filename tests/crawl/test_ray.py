"""The crawl on a real (local, loopback) Ray cluster: a valid run, politeness, retries, resume.

The scheduler stays in the crawl's process; Ray actors fetch and analyse. A Ray
crawl of the sandbox must be a valid run (DP = budget, no page twice, the graph
at parity with the run state), keep to one request per host with the delay
between them as the server saw it, survive a killed actor (its URL runs again),
and a scheduler killed with SIGKILL must resume to a valid end.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from itertools import pairwise
from urllib.parse import urlsplit

import pytest
from rich.console import Console

from kgcrawl.config import load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.ray_workers import RayWorkers, unreachable
from kgcrawl.crawl.state import RunState, committed_count
from kgcrawl.crawl.view import run_details
from kgcrawl.runner import CrawlRequest, crawl
from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.text.urls import host_of
from tests.crawl.crawls import BASE, killed_and_resumed, quick_sandbox
from tests.graph.test_crawl_graph import assert_parity, parity, settings_for

pytestmark = pytest.mark.slow

DELAY = 0.2  # seconds between requests to a host
SLACK = 0.05  # the server stamps a request's end when its last byte is written, before the client


def test_a_ray_crawl_is_valid_polite_and_at_parity(ray_cluster, sandbox, graph_store, tmp_path,
                                                   monkeypatch) -> None:  # fmt: skip
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    # 8 workers = two actors, each with its own fetcher: only the scheduler keeps them polite
    settings = settings_for(graph_store.uri, 120, **{"fetch.delay": DELAY, "crawl.workers": 8})
    sandbox.clear_log()
    request = CrawlRequest(resolve=tuple(sandbox.resolve), executor="ray")
    result = crawl(settings, request)
    log = sandbox.access_log()
    assert result.dp == 120 and result.ended == "budget"
    state = RunState.open(result.run_id)
    outcomes = list(state.outcomes())
    assert state.meta()["executors"] == [{"kind": "ray", "first": 1}]
    state.close()
    console = Console(width=100, record=True)
    console.print(run_details(result.run_id))
    assert re.search(r"│ executor +│ ray +│", console.export_text()), "runs show names it"
    assert [o.seq for o in outcomes] == list(range(1, len(outcomes) + 1))
    urls = [o.url for o in outcomes]
    assert len(set(urls)) == len(urls), "a URL fetched twice"
    pages = [o.final_url for o in outcomes if o.downloaded]
    assert len(pages) == len(set(pages)) == 120
    # an actor's threads share its matcher: none may find it half built on the first pages
    assert not [o.reason for o in outcomes if o.reason and o.reason.startswith("parse")]
    assert_parity(graph_store, parity(result, settings))
    by_host = defaultdict(list)
    for access in log:
        by_host[access.host].append(access)
    assert len(by_host) > 4, "the crawl should spread over hosts"
    for host, accesses in by_host.items():
        accesses.sort(key=lambda a: a.start)
        for before, after in pairwise(accesses):
            gap = after.start - before.end
            assert gap >= DELAY - SLACK, f"{host}: {before.path} then {after.path} {gap:.3f} s"


def test_a_killed_ray_worker_url_is_retried(ray_cluster, sandbox) -> None:
    url = sandbox.world.hazard_urls(Hazard.STALL)[0]  # a slow host; the page stalls 3 s mid-body
    host = host_of(url)
    settings = load_settings("tourism", {"fetch.delay": 0.0, "fetch.read_timeout": 10.0})
    workers = RayWorkers(settings.fetch, 1, [("旅游",)], parse_resolve(tuple(sandbox.resolve)))
    try:
        (pid,) = workers.pids()
        sandbox.clear_log()
        future = workers.submit(url, "resiliparse")
        deadline = time.monotonic() + 30
        while not any(a.path == "/robots.txt" for a in sandbox.access_log(host, settle=0)):
            assert time.monotonic() < deadline, "the worker never asked for robots.txt"
            time.sleep(0.05)
        time.sleep(1.0)  # the page request is now inside its 3 s stall
        os.kill(pid, signal.SIGKILL)
        done = future.result(timeout=60)
        assert workers.pids() != [pid], "Ray should have restarted the actor"
    finally:
        workers.close()
    assert done.outcome.url == url and done.outcome.downloaded
    page = urlsplit(url).path
    assert sum(a.path == page for a in sandbox.access_log(host)) >= 2, "asked once: not retried"


def test_more_workers_than_cpus_run_as_threads_of_fewer_actors(ray_cluster, sandbox) -> None:
    # the cluster has 2 CPUs: 16 workers at 4 a CPU would be 4 actors Ray cannot place
    settings = load_settings("tourism", {"fetch.delay": 0.0})
    urls = list(sandbox.world.seeds("tourism")[:16])
    workers = RayWorkers(settings.fetch, 16, [("旅游",)], parse_resolve(tuple(sandbox.resolve)))
    try:
        assert len(workers.actors) == 2
        done = [future.result(timeout=60) for future in [workers.submit(url, "resiliparse")
                                                         for url in urls]]  # fmt: skip
    finally:
        workers.close()
    assert [d.outcome.url for d in done] == urls and all(d.outcome.downloaded for d in done)


def test_a_killed_ray_scheduler_resumes_to_a_valid_run(ray_cluster, tmp_path) -> None:
    with quick_sandbox() as resolve:
        runs = killed_and_resumed(
            resolve, tmp_path, "fcits_oh", 3, kill_at=[60],
            overrides={"crawl.workers": 4, "crawl.max_pages": 150},
            extra=("--executor", "ray", "--ray-address", ray_cluster),
        )  # fmt: skip
    resumed = runs.resumed
    assert [o.seq for o in resumed] == list(range(1, len(resumed) + 1)), "counted twice"
    urls = [o.url for o in resumed]
    assert len(set(urls)) == len(urls), "a URL fetched twice"
    assert sum(o.downloaded for o in resumed) == 150 == runs.resumed_meta["dp"]
    assert runs.resumed_meta["ended"] == "budget"


def test_sigterm_stops_a_ray_crawl_as_it_stops_a_local_one(ray_cluster, tmp_path) -> None:
    """`ray.init` had put its own handler on SIGTERM: a stack dump, exit 15, "ended: error"."""
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path)}
    sets = [a for k, v in {**BASE, "crawl.workers": 4, "crawl.max_pages": 3000}.items()
            for a in ("--set", f"{k}={v}")]  # fmt: skip
    state_file = tmp_path / "runs" / "t" / "state.sqlite"
    with quick_sandbox() as resolve:
        command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve", resolve[0],
                   "--run-id", "t", "--executor", "ray", "--ray-address", ray_cluster,
                   "--delay", "0.2", *sets]  # fmt: skip
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)  # fmt: skip
        deadline = time.monotonic() + 120
        while committed_count(state_file) < 20 and process.poll() is None:
            assert time.monotonic() < deadline, "the crawl made no progress"
            time.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr[-2000:]
    assert "--resume t" in " ".join(stdout.split())
    state = RunState(state_file)
    assert state.meta()["ended"] == "signal"
    state.close()


# A Ray of the workers' own (though RAY_ADDRESS names another): one actor a CPU, up to one
# a slot. Two URLs in flight to a loopback server that listens and never answers, then
# the crawl ends and the workers close, as a crawl's do.
STOPPED_MID_TASK = """
import os, socket, time
import ray
from kgcrawl.config import load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.ray_workers import RayWorkers
server = socket.create_server(("127.0.0.1", 0))
resolve = parse_resolve((f"*=127.0.0.1:{server.getsockname()[1]}",))
workers = RayWorkers(load_settings("tourism").fetch, 2, [("旅游",)], resolve)
cpus = int(ray.cluster_resources()["CPU"])
spread = len(workers.actors) == min(2, cpus)
joined = ray.get_runtime_context().gcs_address == os.environ["RAY_ADDRESS"]
futures = [workers.submit(f"http://h{i}.test/", "resiliparse") for i in range(2)]
time.sleep(2)  # both asked: the server holds them
workers.close()
time.sleep(2)  # the crawl writes its summary: Ray's lines, if any, come meanwhile
print("closed", spread, joined)
"""


def test_workers_on_a_ray_of_their_own_spread_and_close_quietly(ray_cluster, tmp_path) -> None:
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path), "RAY_ADDRESS": ray_cluster}
    env.pop("RAY_AUTH_MODE", None)  # Ray's default, as a user has it
    done = subprocess.run([sys.executable, "-c", STOPPED_MID_TASK], env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    # a Ray of their own (not the cluster RAY_ADDRESS names), an actor on each of 2 CPUs;
    # neither Ray's notice that token authentication is on (its default), nor, for each
    # task in flight, that it would be retried (on stdout) or that the driver could not be told
    said = done.stdout + done.stderr
    assert done.returncode == 0 and said == "closed True False\n", said


def test_a_crawl_through_a_ray_client_address(tmp_path) -> None:
    """`--ray-address ray://HOST:PORT` to a cluster of `ray start --head` with its client
    server, token authentication on (Ray's default) and RAY_AUTH_MODE not set for the
    crawl. Before, the crawl hung at its first page (hashing a client's ref under the
    workers' lock), and without the mode the server refused the client until a 30 s
    timeout."""
    # a short folder for Ray: its sockets under pytest's tmp_path exceed AF_UNIX's 107 bytes
    with tempfile.TemporaryDirectory(prefix="kgray") as ray_tmp:
        done = _crawl_through_a_ray_client(tmp_path, ray_tmp)
    assert done.returncode == 0, done.stderr[-2000:]
    state = RunState(tmp_path / "runs" / "c" / "state.sqlite")
    assert (state.meta()["dp"], state.meta()["ended"]) == (40, "budget")
    state.close()


def _crawl_through_a_ray_client(tmp_path, ray_tmp: str) -> subprocess.CompletedProcess:
    from kgcrawl.graph.server import free_port

    gcs, port = free_port(), free_port()
    head = subprocess.Popen(["ray", "start", "--head", "--block", f"--port={gcs}",
                             f"--ray-client-server-port={port}", "--num-cpus=1",
                             "--include-dashboard=false", f"--temp-dir={ray_tmp}",
                             "--disable-usage-stats"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while unreachable(f"127.0.0.1:{port}", timeout=1) is not None:
            assert time.monotonic() < deadline and head.poll() is None, "no Ray client server"
            time.sleep(0.2)
        env = {**os.environ, "KGCRAWL_HOME": str(tmp_path)}
        env.pop("RAY_AUTH_MODE", None)
        sets = [a for k, v in {**BASE, "crawl.workers": 4, "crawl.max_pages": 40}.items()
                for a in ("--set", f"{k}={v}")]  # fmt: skip
        with quick_sandbox() as resolve:
            command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve",
                       resolve[0], "--run-id", "c", "--executor", "ray", "--ray-address",
                       f"ray://127.0.0.1:{port}", *sets]  # fmt: skip
            return subprocess.run(command, env=env, capture_output=True, text=True, timeout=90)
    finally:
        if head.poll() is None:
            os.killpg(head.pid, signal.SIGKILL)  # the cluster: its processes are in the group
        head.wait(timeout=60)
