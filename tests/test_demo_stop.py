"""Ctrl-C stops `kgcrawl demo` at the stage it is in: one line, no report, exit code 130.

Before, the crawl caught the signal and returned, and the demo went on with the
next stages on part of a crawl (a BFS baseline cut at 87 pages, compared "at DP = 87")
and exited 0. Real demos on the small sandbox world, real signals.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from kgcrawl.crawl.engine import Progress
from kgcrawl.crawl.state import RunState, committed_count
from kgcrawl.demo import DemoOptions, run_demo, stopped_line
from kgcrawl.graph.server import status

ROOT = Path(__file__).resolve().parents[1]


def _ended(path: Path) -> str:
    state = RunState(path)
    try:
        return state.meta("ended")["ended"]
    finally:
        state.close()


def test_ctrl_c_in_the_crawl_stage_ends_the_demo_there_with_exit_130(tmp_path) -> None:
    home, out = tmp_path / "home", tmp_path / "demo"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KGCRAWL_HOME": str(home), "COLUMNS": "80"}
    env.pop("KGCRAWL_GRAPH_URI", None)
    command = [sys.executable, "-m", "kgcrawl", "demo", "--out", str(out), "--sandbox-size",
               "small", "--workers", "2", "--max-pages", "2000", "--set",
               "crawl.checkpoint_every=10"]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 120
    states: list[Path] = []
    while process.poll() is None and time.monotonic() < deadline:
        states = list((home / "runs").glob("tourism-fcits_oh-*/state.sqlite"))
        if states and committed_count(states[0]) >= 20:
            break
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: every process of the group
    stdout, stderr = process.communicate(timeout=120)
    assert "Traceback" not in stdout + stderr, stderr
    assert process.returncode == 130, stdout + stderr
    run_id = states[0].parent.name
    last = stdout.strip().splitlines()[-1]
    assert last == f"demo stopped at crawl; `kgcrawl crawl --resume {run_id}`"
    assert len(last) <= 80
    assert "▶ baseline" not in stdout and "crawl stopped" not in stdout  # no stage after it
    assert not (out / "report.md").exists()
    assert [p.name for p in (home / "runs").iterdir()] == [run_id]  # no baseline run
    assert _ended(states[0]) == "signal" and 20 <= committed_count(states[0]) < 2000
    assert status(home) is None  # the graph server the demo started is stopped


def test_run_demo_tells_its_caller_the_stage_a_signal_stopped_it_at(tmp_path, monkeypatch) -> None:
    """Through the library: a Ctrl-C in the BFS baseline leaves `stopped` = "baseline",
    both crawls' results, and no report comparing fcits_oh with part of BFS."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KGCRAWL_GRAPH_URI", raising=False)
    stages: list[str] = []
    sent: list[int] = []

    def ctrl_c_in_the_baseline(p: Progress) -> None:
        if stages[-1] == "baseline" and p.dp >= 10 and not sent:
            sent.append(p.dp)
            os.kill(os.getpid(), signal.SIGINT)  # the crawl loop catches it, and stops

    # an earlier demo's files in the folder: set aside while this one runs, and put back
    earlier = {"report.md": b"# kgcrawl demo\n", "tourism-lp.png": b"png",
               "ontology/tourism.v2.owl": b"<rdf/>"}  # fmt: skip
    for name, data in earlier.items():
        (tmp_path / "demo" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "demo" / name).write_bytes(data)
    options = DemoOptions(out=tmp_path / "demo", max_pages=30, baseline_pages=2000, workers=2,
                          sandbox_size="small")  # fmt: skip
    result = run_demo(options, stages.append, ctrl_c_in_the_baseline)
    assert {name: (tmp_path / "demo" / name).read_bytes() for name in earlier} == earlier
    assert not (tmp_path / "demo" / ".earlier-demo").exists()
    assert sent and result.stopped == "baseline"
    assert stages == ["ontology", "crawl", "baseline"]
    assert list(result.seconds) == stages
    assert result.crawl is not None and result.crawl.dp == 30 and not result.crawl.stopped
    baseline = result.baseline
    assert baseline is not None and baseline.stopped and 10 <= baseline.dp < 2000
    assert result.runs == {"crawl": result.crawl.run_id, "baseline": baseline.run_id}
    assert not result.rows and not result.queries  # and the report is the earlier one
    line = stopped_line(result)
    assert line == f"demo stopped at baseline; `kgcrawl crawl --resume {baseline.run_id}`"
    assert len(line) <= 80


def test_ctrl_c_in_a_command_without_its_own_stop_line_says_stopped(tmp_path) -> None:
    """Typer turns a Ctrl-C inside a command into exit code 130 and says nothing: an
    evaluation (or a build) stopped by Ctrl-C ended without a word."""
    lattice = tmp_path / "lattice"
    command = [sys.executable, "-m", "kgcrawl", "build-ontology", str(ROOT / "corpus" / "tourism"),
               "--out", str(tmp_path / "t.owl"), "--lattice-dir", str(lattice)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KGCRAWL_CACHE": str(tmp_path / "cache")}

    # SIGINT as a terminal leaves it: a test before may have set this worker to ignore it
    # (an analyser's set-up), which the child would inherit and keep
    def heard() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=heard)  # fmt: skip
    deadline = time.monotonic() + 60
    while not lattice.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)  # made before the corpus is read: the build is under way
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert (process.returncode, stdout.strip(), stderr) == (130, "stopped", "")
