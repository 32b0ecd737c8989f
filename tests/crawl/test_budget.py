"""A run's page budget raised on resume: recorded, crawled to, replayed at the same point."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.budget import Budget, change_budget, recorded_budgets
from kgcrawl.crawl.engine import Engine
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError
from kgcrawl.graph.sync import run_settings
from tests.crawl.crawls import BASE, DEADLINE, quick_sandbox, sigkill_at, start_crawl


def test_a_finished_run_goes_on_to_a_larger_budget_and_replays_through_the_change(tmp_path):
    """FCITS_OH brings in pool links of new hosts while DP / budget < early_fraction (0.3):
    12 pages of 40, 30 of 100. On the sparse web, whose Q_wait spans few hosts, it does,
    and a crawl to 100 pages parts from one to 40 at outcome 23: a replay under the
    wrong budget stops with a mismatch."""
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path), "COLUMNS": "120"}
    settings = {**BASE, "crawl.max_pages": 40}
    sets = [a for k, v in settings.items() for a in ("--set", f"{k}={v}")]
    state_file = tmp_path / "runs" / "b" / "state.sqlite"
    errors = (tmp_path / "stderr.txt").open("wb")
    with quick_sandbox("sparse") as web, errors:
        resolve = ["--resolve", web[0]]
        first = [*resolve, "tourism", "--strategy", "fcits_oh", "--run-id", "b", *sets]
        assert start_crawl(first, env, errors).wait(DEADLINE) == 0
        state = RunState(state_file)
        raised_at = state.count() + 1
        state.close()
        more = start_crawl([*resolve, "--resume", "b", "--max-pages", "100"], env, errors)
        sigkill_at(more, state_file, raised_at + 30)  # killed under the new budget
        assert start_crawl([*resolve, "--resume", "b"], env, errors).wait(DEADLINE) == 0, (
            tmp_path / "stderr.txt"
        ).read_text()

    state = RunState(state_file)
    try:
        meta = state.meta()
        assert recorded_budgets(meta) == [Budget(1, 40), Budget(raised_at, 100)]
        assert meta["dp"] == 100 and meta["ended"] == "budget"
        engine = Engine(run_settings(state), state)
        assert engine.replay() == state.count(), "the log replays through the change"
        assert engine.crawl.counters.max_pages == 100
        assert engine.crawl.counters.dp == 100
    finally:
        state.close()
    shown = subprocess.run([sys.executable, "-m", "kgcrawl", "runs", "show", "b"],
                           env=env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert f"budget from outcome {raised_at}" in shown.stdout


def test_a_budget_the_run_has_reached_is_refused_and_nothing_is_recorded(tmp_path):
    state = RunState(tmp_path / "state.sqlite")
    state.set_meta({"run_id": "r", "dp": 30, "settings": {"crawl.max_pages": 30}})
    state.checkpoint()
    shipped = load_settings("tourism")
    settings = replace(shipped, crawl=replace(shipped.crawl, max_pages=30))
    with pytest.raises(KgcrawlError, match="run r has 30 pages already"):
        change_budget(state, settings, 30 - 1)
    assert change_budget(state, settings, 30) is settings, "the same budget: no change"
    assert recorded_budgets(state.meta()) == []
    raised = change_budget(state, settings, 50)
    assert raised.crawl.max_pages == 50 and state.meta()["settings"]["crawl.max_pages"] == 50
    assert recorded_budgets(state.meta()) == [Budget(1, 50)], "no outcome yet: replaced"
    state.close()
