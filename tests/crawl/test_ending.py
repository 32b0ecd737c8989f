"""How a crawl ends (SPEC §5.1 turn 2): at its budget, when it knows no unvisited link, or
by a signal — never because Q_wait ran dry while the discarded pool still held links."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from typing import ClassVar

import pytest
from rich.console import Console

from kgcrawl.config import load_settings
from kgcrawl.crawl.state import MIGRATIONS, RunState, committed_count
from kgcrawl.crawl.view import crawl_summary, run_details, runs_table
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE, Site, quick_sandbox, serving

FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19}  # no calibration: the tests fix α, β


def rendered(table) -> str:
    console = Console(width=200, record=True)
    console.print(table)
    return console.export_text()


def test_a_dry_q_wait_promotes_the_pool_and_the_crawl_reaches_its_budget(tmp_path, monkeypatch):
    # β = 0.9: almost no link clears it, so Q_wait runs dry after the seeds; before turn 2
    # the crawl stopped there with the pool full of links (switch the fallback in
    # Crawl.select off and this crawl ends "frontier exhausted" after about 30 pages)
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = load_settings(
        "tourism", {**BASE, **FIXED, "relevance.beta": 0.9, "crawl.max_pages": 80}
    )
    with quick_sandbox() as resolve:
        result = crawl(settings, CrawlRequest(resolve=tuple(resolve)))
    assert (result.dp, result.ended) == (80, "budget")
    assert result.promoted > 40  # most pages came through the fallback
    state = RunState.open(result.run_id)
    assert state.meta()["ended"] == "budget"
    state.close()
    assert "links promoted from the discarded pool" in rendered(crawl_summary(result))


@pytest.mark.parametrize("proxy", ["http://proxy.lab:3128", None])
def test_a_crawl_that_reached_no_site_says_it_went_round_the_proxy(tmp_path, monkeypatch, proxy):
    """Behind a proxy every site is unreachable to kgcrawl, which connects to each itself:
    the summary says so when the environment names one (here a port nothing listens on
    stands for the unreachable web; a robots.txt it cannot fetch disallows the site)."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    for name in ("https_proxy", "http_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    if proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy)
    settings = load_settings("tourism", {**BASE, **FIXED, "fetch.retries": 0})
    with socket.socket() as bound:  # bound and not listening: every connection is refused
        bound.bind(("127.0.0.1", 0))
        resolve = (f"*=127.0.0.1:{bound.getsockname()[1]}",)
        result = crawl(settings, CrawlRequest(resolve=resolve))
    said = " ".join(rendered(crawl_summary(result)).split())
    assert result.dp == 0 and "URLs gave no page" in said
    assert (f"this environment names a proxy ({proxy}), which kgcrawl does not use" in said) == (
        proxy is not None
    )


class _ThreePages(Site):
    """a → b → c, and c back to a: a world of three pages."""

    PAGES: ClassVar[dict[str, str]] = {"/": "/b.html", "/b.html": "/c.html", "/c.html": "/"}

    def page(self, path: str) -> str | None:
        link = self.PAGES.get(path)
        if link is None:
            return None
        return f"<html><title>旅游 {path}</title><p>景区 酒店</p><a href={link}>next</a>"


def test_a_world_smaller_than_the_budget_ends_exhausted_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = load_settings(
        "tourism", {**BASE, **FIXED, "seeds": "http://three.example/", "crawl.strategy": "ops"}
    )
    with serving(_ThreePages, "three.example") as resolve:
        result = crawl(settings, CrawlRequest(resolve=resolve, run_id="three"))
    assert (result.dp, result.ended) == (3, "frontier exhausted")
    listing = rendered(runs_table())
    assert "three" in listing and "frontier exhausted" in listing
    assert "frontier exhausted" in rendered(run_details("three"))


def test_a_signal_ends_the_run_as_stopped_and_resumable(tmp_path):
    env = {"KGCRAWL_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    with quick_sandbox() as resolve:
        sets = [a for k, v in {**BASE, **FIXED}.items() for a in ("--set", f"{k}={v}")]
        command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve", resolve[0],
                   "--run-id", "sig", "--delay", "0.2", "--max-pages", "5000", *sets]  # fmt: skip
        process = subprocess.Popen(command, env={**os.environ, **env}, stdout=subprocess.DEVNULL)
        state_file = tmp_path / "runs" / "sig" / "state.sqlite"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and committed_count(state_file) < 20:
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 130, "stopped, not done: a script's next step must not run"
    state = RunState(state_file)
    assert state.meta()["ended"] == "signal"
    state.close()


@pytest.mark.parametrize(("dp", "ended"), [(10, "budget"), (4, "frontier exhausted")])
def test_runs_from_before_turn_2_get_their_end_from_finished(tmp_path, dp, ended):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY)")
    db.executescript(MIGRATIONS[0][1])
    db.execute("INSERT INTO migrations VALUES (?)", (MIGRATIONS[0][0],))
    for key, value in (("finished", True), ("dp", dp), ("settings", {"crawl.max_pages": 10})):
        db.execute("INSERT INTO meta VALUES (?, ?)", (key, json.dumps(value)))
    db.close()
    meta = RunState(path).meta()
    assert meta["ended"] == ended and "finished" not in meta


def test_a_run_a_callback_broke_keeps_the_counts_of_the_pages_it_holds(tmp_path, monkeypatch):
    """An `on_progress` (an API's `on_page`) that raises ends the run in error; the pages
    folded until then are in the run, and its meta counts them, as `runs list` shows."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = load_settings("tourism", {**BASE, **FIXED, "crawl.max_pages": 60})

    def broken(progress) -> None:
        if progress.outcomes >= 33:  # between two checkpoints (every 20)
            raise RuntimeError("the caller's bug")

    with quick_sandbox() as resolve, pytest.raises(RuntimeError):
        crawl(settings, CrawlRequest(resolve=tuple(resolve), run_id="broken"), broken)
    state = RunState.open("broken")
    try:
        outcomes, meta = list(state.outcomes()), state.meta()
    finally:
        state.close()
    assert meta["ended"] == "error" and len(outcomes) >= 33
    assert meta["dp"] == sum(o.downloaded for o in outcomes) > 20
    assert meta["lp"] == sum(bool(o.relevant) for o in outcomes)
    assert "error" in rendered(runs_table())


def test_a_resumed_run_has_no_end_from_its_start(tmp_path, monkeypatch):
    """A resumed run is going on from its first page: killed before its first checkpoint
    (every 20 outcomes), `runs list` had shown its last session's end, "budget"."""
    from kgcrawl.runner import resume

    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = load_settings("tourism", {**BASE, **FIXED, "crawl.max_pages": 30})
    state_file = tmp_path / "runs" / "again" / "state.sqlite"
    committed: list[str] = []

    def read_end(progress) -> None:
        if progress.outcomes == 31:  # the resumed session's first
            db = sqlite3.connect(f"file:{state_file}?mode=ro", uri=True)
            committed.append(db.execute("SELECT value FROM meta WHERE key = 'ended'").fetchone())
            db.close()

    with quick_sandbox() as resolve:
        assert (
            crawl(settings, CrawlRequest(resolve=tuple(resolve), run_id="again")).ended == "budget"
        )
        resume("again", CrawlRequest(max_pages=40), read_end)
    assert committed == [("null",)]
