"""The embedded FalkorDB's life: start, reuse, stop, stale files, SIGKILL and restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kgcrawl.graph import server
from kgcrawl.graph.errors import GraphUnavailable
from kgcrawl.graph.server import LOG_FILE, PID_FILE, PORT_FILE
from kgcrawl.graph.store import connect
from kgcrawl.graph.writer import GraphWriter, PageRow


@pytest.fixture
def home(tmp_path):
    yield tmp_path
    server.stop(tmp_path)


def test_start_status_reuse_stop(home) -> None:
    info, started = server.start(home)
    assert started and not info.loading
    folder = home / "graph"
    assert (folder / PID_FILE).read_text().strip() == str(info.pid)
    assert (folder / PORT_FILE).read_text().strip() == str(info.port)
    # Its own session: a signal to our process group does not reach it.
    assert os.getsid(info.pid) != os.getsid(0)
    assert server.status(home) == info
    again, started_again = server.start(home)
    assert again == info and not started_again
    assert server.stop(home) == info
    assert server.status(home) is None
    assert not (folder / PID_FILE).exists()
    assert server.stop(home) is None


def test_status_of_a_folder_never_used(tmp_path) -> None:
    assert server.status(tmp_path) is None
    assert not (tmp_path / "graph").exists()


@pytest.mark.parametrize("stale", ["dead", "not-redis", "garbage"])
def test_stale_pid_file_is_removed_and_a_new_server_starts(home, stale) -> None:
    folder = home / "graph"
    folder.mkdir()
    if stale == "dead":
        child = subprocess.Popen([sys.executable, "-c", "pass"])
        child.wait()
        pid = str(child.pid)
    else:
        pid = str(os.getpid()) if stale == "not-redis" else "not a pid"
    (folder / PID_FILE).write_text(pid)
    (folder / PORT_FILE).write_text("6379")
    assert server.status(home) is None
    assert not (folder / PID_FILE).exists()
    info, started = server.start(home)
    assert started and str(info.pid) != pid


def test_sigkill_restart_within_5s_with_data_back(home) -> None:
    """A 2 000-page crawl's worth of pages (2 KB of text each) survives SIGKILL."""
    running, _ = server.start(home)
    with connect("embedded", home=home) as store:
        GraphWriter(store).write(
            PageRow(
                "c",
                i,
                f"http://h{i % 9}/{i}",
                f"h{i % 9}",
                "t",
                "文本 text " * 200,
                0.5,
                True,
                0,
                "zh",
                "h",
                "ok",
            )
            for i in range(2000)
        )
    # A command that reused a running server leaves it running.
    assert server.status(home) == running
    os.kill(running.pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while server.status(home) is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    start = time.monotonic()
    info, started = server.start(home)
    with connect("embedded", home=home) as store:
        count = store.run("MATCH (p:Page) RETURN count(p) AS n").rows[0][0]
    elapsed = time.monotonic() - start
    assert started and info.pid != running.pid
    assert info.port == running.port  # the old port was free again: clients reconnect
    assert count == 2000
    assert elapsed < 5


def test_a_server_too_busy_to_answer_is_waited_for(home) -> None:
    """A server that accepts connections but answers nothing for 5 s (SIGSTOP) is busy.

    CI saw a restart after SIGKILL leave PING unanswered past the client's read
    timeout; `start` raised redis' TimeoutError instead of waiting for it.
    """
    running, _ = server.start(home)
    os.kill(running.pid, signal.SIGSTOP)
    began = time.monotonic()
    resume = threading.Timer(5.0, os.kill, (running.pid, signal.SIGCONT))
    resume.start()
    try:
        info, started = server.start(home)
        waited = time.monotonic() - began
    finally:
        resume.cancel()
        os.kill(running.pid, signal.SIGCONT)
    assert not started and info.pid == running.pid
    assert 5.0 <= waited < 10.0


def test_connect_owns_the_server_it_started(home) -> None:
    store = connect("embedded", home=home)
    assert server.status(home) is not None
    store.close()
    assert server.status(home) is None


def test_a_server_that_cannot_start_says_why(home) -> None:
    aof = home / "graph" / "appendonlydir"
    aof.mkdir(parents=True)
    (aof / "appendonly.aof.manifest").write_text("this is not a manifest\n")
    with pytest.raises(GraphUnavailable, match="FalkorDB did not start"):
        server.start(home)
    assert (home / "graph" / LOG_FILE).exists()
    assert server.status(home) is None


def test_free_port_below_the_bolt_limit() -> None:
    port = server.free_port(below=32768)
    assert 20000 <= port < 32768


def test_data_home_follows_kgcrawl_home(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    assert server.graph_folder() == tmp_path / "graph"
    monkeypatch.delenv("KGCRAWL_HOME")
    monkeypatch.chdir(tmp_path)
    assert server.graph_folder() == tmp_path / ".kgcrawl" / "graph"


def test_schema_lives_in_the_rdb_preamble_not_the_replayed_log(home) -> None:
    """An index created inside a replayed AOF is not used during the replay (NOTES.md)."""
    with connect("embedded", home=home) as store:
        store.run("MERGE (:Page {url: 'http://a/'})")
    folder = home / "graph" / "appendonlydir"
    assert len(list(folder.glob("*.base.rdb"))) == 1
    log = b"".join(path.read_bytes() for path in folder.glob("*.incr.aof"))
    assert b"http://a/" in log
    assert b"INDEX" not in log.upper() and b"CONSTRAINT" not in log.upper()


# A process that starts the server and goes on living without reaping it: a crawl waiting
# for the folder's lock, a notebook, a script that sleeps.
STARTER = """
import sys, time
from pathlib import Path
from kgcrawl.graph import server
info, _ = server.start(Path(sys.argv[1]))
print(info.pid, flush=True)
time.sleep(120)
"""


def test_a_server_whose_starter_lives_on_is_stopped_by_another_command(home) -> None:
    """Once stopped, the server is a zombie until its starter reaps it; `graph stop` waited
    for it to vanish, with the folder locked, and never returned (the starter, a crawl,
    waited for that lock to release its lease, so it never reaped it)."""
    starter = subprocess.Popen([sys.executable, "-c", STARTER, str(home)], stdout=subprocess.PIPE,
                               text=True)  # fmt: skip
    try:
        pid = int(starter.stdout.readline())
        env = {**os.environ, "KGCRAWL_HOME": str(home)}
        stop = [sys.executable, "-m", "kgcrawl", "graph", "stop"]
        done = subprocess.run(stop, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert server.status(home) is None
        stat = Path(f"/proc/{pid}/stat").read_text()
        assert stat.rpartition(")")[2].split()[0] == "Z"  # not reaped: its starter lives on
    finally:
        starter.kill()
        starter.wait(10)
