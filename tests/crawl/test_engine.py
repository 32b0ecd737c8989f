"""Whole crawls over real HTTP against the sandbox web (served by a child process).

Every strategy crawls 300 pages of the small world twice with the same seed and
must visit the same pages in the same order; a crawl killed with SIGKILL at
random moments and resumed each time must end exactly as an uninterrupted one;
traps, mirrors and session ids must not eat or inflate the crawl.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.state import RunState
from kgcrawl.runner import CrawlRequest, crawl, sandbox_process

PAGES = 300
STRATEGIES = ("bfs", "ops", "fcsa", "fcts", "fcits", "fcoits", "fcits_oh")
BASE = {
    "crawl.max_pages": PAGES,
    "fetch.delay": 0.0,
    "fetch.read_timeout": 5.0,
    "graph.uri": "none",
    "crawl.checkpoint_every": 20,
}


@pytest.fixture(scope="module")
def web() -> list[str]:
    """The small sandbox world in a child process, timing hazards shortened."""
    with sandbox_process(0, "small", slow_delay=0.1, hang=2.0) as resolve:
        yield resolve


def crawl_sequence(home: str, resolve: list[str], strategy: str, seed: int) -> list[str]:
    """One sequential crawl in a fresh process state; the URLs in the order selected."""
    os.environ["KGCRAWL_HOME"] = home
    settings = load_settings("tourism", {**BASE, "crawl.strategy": strategy, "crawl.seed": seed})
    result = crawl(settings, CrawlRequest(resolve=tuple(resolve)))
    state = RunState.open(result.run_id)
    urls = [o.url for o in state.outcomes()]
    state.close()
    assert result.dp == PAGES
    return urls


def test_every_strategy_is_deterministic(web, tmp_path) -> None:
    jobs = [(s, run) for s in STRATEGIES for run in (1, 2)]
    with ProcessPoolExecutor(max_workers=7) as pool:  # the waits are politeness, not CPU
        futures = {
            job: pool.submit(crawl_sequence, str(tmp_path / f"{job[0]}-{job[1]}"), web, job[0], 7)
            for job in jobs
        }
        sequences = {job: future.result(timeout=600) for job, future in futures.items()}
    for strategy in STRATEGIES:
        first, second = sequences[(strategy, 1)], sequences[(strategy, 2)]
        assert first == second, f"{strategy}: same seed, different sequence"
        assert len(first) >= PAGES
    orders = {tuple(sequences[(s, 1)][:60]) for s in STRATEGIES}
    assert len(orders) >= 5, "strategies should differ in what they visit first"


def _outcomes_committed(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT count(*) FROM outcomes").fetchone()[0]
    except sqlite3.Error:
        return 0


def _crawl_command(resolve: list[str], run_id: str | None, resume: bool) -> list[str]:
    command = [sys.executable, "-m", "kgcrawl", "crawl"]
    if resume:
        return [*command, "--resume", run_id, "--resolve", resolve[0]]
    sets = [arg for key, value in BASE.items() for arg in ("--set", f"{key}={value}")]
    return [*command, "tourism", "--resolve", resolve[0], "--strategy", "fcits_oh",
            "--seed", "3", "--run-id", run_id, *sets]  # fmt: skip


def test_resume_after_sigkill_matches_an_uninterrupted_run(web, tmp_path) -> None:
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path / "home"), "COLUMNS": "120"}
    state_file = tmp_path / "home" / "runs" / "killed" / "state.sqlite"
    rng = random.Random(11)
    kill_points = sorted(rng.sample(range(30, PAGES - 20), 3))
    pool = ProcessPoolExecutor(max_workers=1)  # the uninterrupted run, meanwhile
    reference = pool.submit(crawl_sequence, str(tmp_path / "reference"), web, "fcits_oh", 3)
    resume = False
    for point in kill_points:
        process = subprocess.Popen(
            _crawl_command(web, "killed", resume), env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 180
        while _outcomes_committed(state_file) < point and process.poll() is None:
            assert time.monotonic() < deadline, "the crawl made no progress"
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        resume = True
    finished = subprocess.run(
        _crawl_command(web, "killed", True), env=env, capture_output=True, text=True, timeout=300
    )
    assert finished.returncode == 0, finished.stderr
    expected = reference.result(timeout=600)
    pool.shutdown()

    state = RunState(state_file)
    outcomes = list(state.outcomes())
    meta = state.meta()
    state.close()
    assert [o.url for o in outcomes] == expected
    assert [o.seq for o in outcomes] == list(range(1, len(outcomes) + 1)), "none counted twice"
    assert sum(o.downloaded for o in outcomes) == PAGES == meta["dp"]
    assert meta["finished"] is True


def test_traps_mirrors_and_session_ids(web, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = load_settings("tourism", {**BASE, "crawl.strategy": "bfs", "crawl.workers": 4})
    result = crawl(settings, CrawlRequest(resolve=tuple(web)))
    state = RunState.open(result.run_id)
    outcomes = list(state.outcomes())
    state.close()
    pages = [o for o in outcomes if o.downloaded]
    assert len(pages) == PAGES
    finals = [o.final_url for o in pages]
    assert len(set(finals)) == len(finals), "a page counted twice"
    trap_pages = [u for u in finals if "/calendar/" in u or "/doc/" in u]
    assert len(trap_pages) < PAGES * 0.2, "traps ate the crawl"
    assert not any("sid=" in o.url or "jsessionid" in o.url for o in outcomes)
    reasons = {o.reason.split(" of ")[0] for o in outcomes if o.reason}
    assert reasons & {"duplicate", "not html", "http 404", "robots", "too large", "reset"}
