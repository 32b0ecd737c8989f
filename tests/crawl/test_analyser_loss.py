"""An analyser process killed during a real crawl (say by the OOM killer) costs one page at most.

The pool of analyser processes (crawl/workers.py) breaks as a whole when one of
its processes dies; the crawl starts a new pool, tries the page again, and goes
on to its budget.
"""

from __future__ import annotations

import multiprocessing
import os
import signal

from kgcrawl.config import load_settings
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE

PAGES = 40
KILL_AT = 10  # outcomes folded in before an analyser is killed


def test_a_killed_analyser_is_replaced_and_the_crawl_reaches_its_budget(
    sandbox, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    overrides = {**BASE, "crawl.max_pages": PAGES, "crawl.workers": 3, "crawl.strategy": "bfs",
                 "relevance.alpha": 0.5, "relevance.beta": 0.19}  # fmt: skip
    killed: list[int] = []

    def kill_an_analyser(outcome: Outcome) -> None:
        if outcome.seq == KILL_AT:
            analysers = multiprocessing.active_children()  # the pool's spawned processes
            assert analysers, "a crawl with 3 workers analyses pages in processes"
            os.kill(analysers[0].pid, signal.SIGKILL)
            killed.append(analysers[0].pid)

    settings = load_settings("tourism", overrides)
    request = CrawlRequest(resolve=tuple(sandbox.resolve), run_id="oom")
    result = crawl(settings, request, on_outcome=kill_an_analyser)
    assert killed
    assert result.ended == "budget" and result.dp == PAGES
    state = RunState(tmp_path / "runs" / "oom" / "state.sqlite")
    try:
        lost = [o for o in state.outcomes() if "BrokenProcessPool" in (o.reason or "")]
    finally:
        state.close()
    assert not lost, "a page analysed in the broken pool is tried again in the new one"
    assert killed[0] not in [p.pid for p in multiprocessing.active_children()]
