"""What a resume and a late Ctrl-C say: this session's pages/s, a run that had ended already.

Before: pages/s divided every page of the run by this session's seconds (a resume
from 80 to 300 pages showed 14.8 where it fetched 10.9 a second, a resume of a run
at its budget 773.6), and a Ctrl-C after a run reached its budget offered to resume it.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from copy import copy
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import kgcrawl
from kgcrawl.cli import app
from kgcrawl.crawl.engine import Progress
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.view import crawl_summary
from kgcrawl.runner import CrawlRequest, resume

ROOT = Path(__file__).resolve().parents[2]
# `kgcrawl` as a terminal's foreground job runs it: Ctrl-C raises KeyboardInterrupt. A suite
# started as a background job of a non-interactive shell inherits SIGINT ignored (POSIX),
# Python keeps it so, and the resume below then never saw its Ctrl-C.
FOREGROUND = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "from kgcrawl.cli import main; main(sys.argv[1:])")  # fmt: skip
FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19, "graph.uri": "none", "fetch.delay": 0}


def _text(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return " ".join(console.export_text().split())


def _count(run_id: str) -> tuple[int, str]:
    state = RunState.open(run_id)
    try:
        return state.count(), state.meta("ended")["ended"]
    finally:
        state.close()


def test_a_resume_counts_pages_per_second_over_its_own_pages(sandbox, tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    first = kgcrawl.crawl("tourism", max_pages=10, resolve=sandbox.resolve, run_id="k2",
                          set=FIXED)  # fmt: skip
    assert (first.start_dp, first.dp) == (0, 10)
    shown: list[Progress] = []
    resumed = resume("k2", CrawlRequest(max_pages=30), on_progress=lambda p: shown.append(copy(p)))
    assert shown and {p.start_dp for p in shown} == {10}, "the live rate counts replayed pages"
    assert (resumed.start_dp, resumed.dp, resumed.ended) == (10, 30, "budget")
    own, whole = 20 / resumed.seconds, 30 / resumed.seconds
    assert f"{own:.1f}" != f"{whole:.1f}"
    wide = _text(crawl_summary(resumed), width=300)  # the table: one row of cells
    assert re.search(rf"│ {resumed.seconds:.1f} │ {own:.1f} │", wide), wide
    said = _text(crawl_summary(resumed))
    assert "resumed at 10 pages: 20 downloaded in this session" in said
    assert "page budget reached" in said


def test_a_resume_of_a_run_at_its_budget_says_so_and_crawls_nothing(sandbox, tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    kgcrawl.crawl("tourism", max_pages=8, resolve=sandbox.resolve, run_id="t1", set=FIXED)
    before = _count("t1")
    out = CliRunner().invoke(app, ["crawl", "--resume", "t1"])
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    assert "run t1 was at its page budget (8 pages) already: nothing crawled; " in said
    assert "`kgcrawl crawl --resume t1 --max-pages N` (N > 8) goes on" in said
    assert re.search(r"pages/s: - state: |│ [\d.]+ │ - │ ", said), said  # none fetched
    assert "resumed at" not in said
    assert _count("t1") == before == (before[0], "budget")


def test_ctrl_c_after_a_run_reached_its_budget_says_it_had_ended(sandbox, tmp_path, monkeypatch):
    """The Ctrl-C lands outside the crawl loop while the resume of a run at its budget waits
    on its graph (a server that accepts and never answers): the run is not resumable."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KGCRAWL_HOME": str(tmp_path)}
    with socket.socket() as graph:
        graph.bind(("127.0.0.1", 0))  # not listening yet: the crawl's graph is refused
        uri = f"falkordb://127.0.0.1:{graph.getsockname()[1]}"
        done = kgcrawl.crawl("tourism", max_pages=5, resolve=sandbox.resolve, run_id="end1",
                             set={**FIXED, "graph.uri": uri})  # fmt: skip
        assert done.ended == "budget"
        graph.listen()
        graph.settimeout(60)
        command = [sys.executable, "-c", FOREGROUND, "crawl", "--resume", "end1"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            connection = _accept_from(graph, process.pid)  # the resume waits on its graph now
            process.send_signal(signal.SIGINT)
            stdout, stderr = process.communicate(timeout=60)
            connection.close()
        finally:
            process.kill()
    assert "Traceback" not in stdout + stderr, stderr
    assert process.returncode == 130
    assert stdout.strip() == "stopped; run end1 had ended (budget)"
    assert _count("end1") == (5, "budget")


def _accept_from(listening: socket.socket, pid: int) -> socket.socket:
    """The next connection to `listening` that process `pid` opened.

    Other tests' processes run beside this one: a graph client whose server was killed
    may knock on the same port. A SIGINT sent on such a connection can reach the resume
    before Python has installed its handler (an xdist worker's children start with
    SIGINT ignored), and the resume then waits out its graph's 120 s read timeout: it
    hung this test once, under three workers.
    """
    for _ in range(20):  # each accept waits at most the socket's timeout
        connection, (_, port) = listening.accept()
        if _socket_of(pid, port, listening.getsockname()[1]):
            return connection
        connection.close()
    raise AssertionError(f"process {pid} never connected; 20 other connections came")


def _socket_of(pid: int, local: int, remote: int) -> bool:
    """True when process `pid` holds the loopback TCP socket from port `local` to `remote`."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        ports = (int(fields[1].rsplit(":", 1)[1], 16), int(fields[2].rsplit(":", 1)[1], 16))
        if ports == (local, remote):
            inodes.add(f"socket:[{fields[9]}]")
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd) in inodes:
                return True
        except OSError:  # closed since it was listed
            continue
    return False
