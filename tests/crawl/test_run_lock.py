"""One process per run: a second crawl of a run refuses while the first holds it, not after."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kgcrawl.cli import main
from kgcrawl.config import load_settings
from kgcrawl.crawl.engine import start_run
from kgcrawl.crawl.runlock import RunLock, RunLocked
from kgcrawl.crawl.state import RunState
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import quick_sandbox

FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.2, "graph.uri": "none", "fetch.delay": 0}
HOLD = """
import sys, time
from kgcrawl.crawl.state import RunState
state = RunState.open(sys.argv[1], lock=True)
print("holding", flush=True)
time.sleep(120)
"""


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    return tmp_path


def test_a_resume_refuses_while_another_process_holds_the_run(home, capsys) -> None:
    start_run(load_settings("tourism", FIXED), run_id="r1").close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    holder = subprocess.Popen([sys.executable, "-c", HOLD, "r1"], stdout=subprocess.PIPE,
                              text=True, env=env)  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(SystemExit) as ended:
            main(["crawl", "--resume", "r1"])
        assert ended.value.code == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert f"run r1 is being crawled by another process (pid {holder.pid})" in line
    finally:
        holder.send_signal(signal.SIGKILL)  # the kernel drops the lock with the process
        holder.wait(10)
    RunState.open("r1", lock=True).close()


def test_a_crawl_holds_its_run_until_it_ends(home) -> None:
    """While the crawl folds its outcomes in, nobody else can lock the run; afterwards anyone."""
    refused: list[bool] = []

    def try_lock(outcome) -> None:
        try:
            RunLock(home / "runs" / "held", "held").acquire().release()
            refused.append(False)
        except RunLocked:
            refused.append(True)

    settings = load_settings("tourism", {**FIXED, "crawl.max_pages": 4})
    with quick_sandbox() as resolve:
        result = crawl(settings, CrawlRequest(resolve=tuple(resolve), run_id="held"),
                       on_outcome=try_lock)  # fmt: skip
    assert result.dp == 4 and refused and all(refused)
    RunLock(home / "runs" / "held", "held").acquire().release()
