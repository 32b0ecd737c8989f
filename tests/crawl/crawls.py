"""Whole crawls of the sandbox web for crawl tests, each in its own `kgcrawl crawl` process.

`quick_sandbox` serves the small world with its timing hazards cut short; `serving`
serves a hand-made site (a `Site` handler) for a test that needs one exact web.
`killed_and_resumed` crawls PAGES pages of it twice with one seed: once
uninterrupted, once killed with SIGKILL at the given numbers of committed
outcomes and resumed each time. Both run at once (two processes). `judged_crawl`
crawls the small world in this process and scores its own judgement against the truth.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from kgcrawl.config import Settings
from kgcrawl.crawl.engine import CrawlResult
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState, committed_count
from kgcrawl.evaluate.judge import sandbox_judge, score_run
from kgcrawl.runner import CrawlRequest, crawl
from kgcrawl.sandbox.server import SandboxServer
from kgcrawl.sandbox.world import World
from kgcrawl.scoring.thresholds import best_separation

PAGES = 300
BASE = {
    "crawl.max_pages": PAGES,
    "crawl.workers": 1,  # sequential: the same pages in the same order every run
    "fetch.delay": 0.0,
    "fetch.read_timeout": 5.0,
    "graph.uri": "none",
    "crawl.checkpoint_every": 20,
}
DEADLINE = 240
# the sandbox's timing hazards, cut short: the waits of crawls that test something else
QUICK = {"slow_delay": 0.05, "hang_seconds": 1.0, "crawl_delay": 0.1}


class Site(BaseHTTPRequestHandler):
    """A hand-made site: `page(path)` gives a path's HTML, or None for a 404."""

    def page(self, path: str) -> str | None:
        raise NotImplementedError

    def do_GET(self) -> None:
        body = self.page(self.path)
        if body is None:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@contextmanager
def serving(site: type[Site], host: str) -> Iterator[tuple[str, ...]]:
    """The site on 127.0.0.1 while the block runs; yields the --resolve for `host`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield (f"{host}=127.0.0.1:{server.server_address[1]}",)
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def quick_sandbox(profile: str = "default") -> Iterator[list[str]]:
    """The small world (seed 0) on 127.0.0.1, slow hosts 0.05 s, stalls 1 s, Crawl-delay 0.1 s;
    yields --resolve."""
    with SandboxServer(World(0, "small", profile), **QUICK) as server:
        yield server.resolve


@dataclass
class Runs:
    """The outcomes of the uninterrupted run, of the killed-and-resumed one, and its meta."""

    uninterrupted: list[Outcome]
    resumed: list[Outcome]
    resumed_meta: dict


def _command(
    resolve: str, run_id: str, strategy: str, seed: int, overrides: dict, extra: tuple[str, ...]
) -> list[str]:
    sets = [
        arg for key, value in {**BASE, **overrides}.items() for arg in ("--set", f"{key}={value}")
    ]
    return [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve", resolve,
            "--strategy", strategy, "--seed", str(seed), "--run-id", run_id, *sets,
            *extra]  # fmt: skip


def _resume(resolve: str, run_id: str, extra: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "kgcrawl", "crawl", "--resume", run_id, "--resolve", resolve,
            *extra]  # fmt: skip


def _outcomes(home: Path, run_id: str) -> tuple[list[Outcome], dict]:
    state = RunState(home / "runs" / run_id / "state.sqlite")
    try:
        return list(state.outcomes()), state.meta()
    finally:
        state.close()


def killed_and_resumed(
    resolve: list[str],
    home: Path,
    strategy: str,
    seed: int,
    kill_at: list[int],
    overrides: dict | None = None,
    extra: tuple[str, ...] = (),
) -> Runs:
    """Run both crawls (see the module docstring) and return their outcomes.

    `extra` are more `kgcrawl crawl` options for every command (e.g. the executor).
    """
    overrides = overrides or {}
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "KGCRAWL_HOME": str(home), "COLUMNS": "120"}
    errors = home / "stderr.txt"
    with errors.open("wb") as stderr:
        # each crawl in its own process group, so SIGKILL takes its helper processes too
        run = {"env": env, "stdout": subprocess.DEVNULL, "stderr": stderr,
               "start_new_session": True}  # fmt: skip
        whole = _command(resolve[0], "whole", strategy, seed, overrides, extra)
        reference = subprocess.Popen(whole, **run)
        state_file = home / "runs" / "killed" / "state.sqlite"
        command = _command(resolve[0], "killed", strategy, seed, overrides, extra)
        try:
            for point in kill_at:
                process = subprocess.Popen(command, **run)
                deadline = time.monotonic() + DEADLINE
                while committed_count(state_file) < point and process.poll() is None:
                    assert time.monotonic() < deadline, f"{strategy}: the crawl made no progress"
                    time.sleep(0.05)
                assert process.poll() is None, f"{strategy}: the crawl ended before the kill"
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
                command = _resume(resolve[0], "killed", extra)
            finished = subprocess.run(command, timeout=DEADLINE, **run).returncode
            assert finished == 0 and reference.wait(DEADLINE) == 0, errors.read_text()
        finally:
            if reference.poll() is None:
                os.killpg(reference.pid, signal.SIGKILL)
                reference.wait(10)
    uninterrupted, _ = _outcomes(home, "whole")
    resumed, meta = _outcomes(home, "killed")
    return Runs(uninterrupted, resumed, meta)


def start_crawl(args: list[str], env: dict, stderr) -> subprocess.Popen:
    """`kgcrawl crawl ARGS` in its own process group (SIGKILL takes its helpers too)."""
    command = [sys.executable, "-m", "kgcrawl", "crawl", *args]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
    )


def sigkill_at(process: subprocess.Popen, state_file: Path, outcomes: int) -> int:
    """SIGKILL the crawl once `outcomes` outcomes are in its state; how many there are."""
    deadline = time.monotonic() + DEADLINE
    while process.poll() is None:
        assert time.monotonic() < deadline, "the crawl made no progress"
        if committed_count(state_file) >= outcomes:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
            return committed_count(state_file)
        time.sleep(0.05)
    raise AssertionError("the crawl ended before the kill")


def judged_crawl(
    settings: Settings, run_id: str, profile: str = "default"
) -> tuple[CrawlResult, float, float]:
    """A crawl of the small sandbox world of the settings' domain (seed 0, `profile`, its
    waits cut short as in `quick_sandbox`), the F1 of its own judgement against the truth,
    and the best threshold's.

    With one worker the waits change no page of the crawl but a stalled one, which answers
    after 1 s instead of timing out (BFS of default tourism: 1 of 303 outcomes, the 296th);
    they took 160 of the 190 s of tests/crawl/test_navigation_floor_crawl.py.
    """
    with SandboxServer(World(0, "small", profile), **QUICK) as server:
        result = crawl(settings, CrawlRequest(resolve=tuple(server.resolve), run_id=run_id))
    judge = sandbox_judge((0, "small", profile), settings.domain)
    scores = score_run(result.run_id, judge, settings.crawl.strategy, settings.domain, 0,
                       settings.crawl.max_pages).truth_scores  # fmt: skip
    best = best_separation(scores.relevant, scores.irrelevant)
    return result, scores.own(settings.relevance.alpha).f1, best.f1
