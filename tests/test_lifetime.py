"""Every process a crawl starts dies with it; the embedded graph server goes with its last user."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kgcrawl.graph import server
from kgcrawl.graph.store import connect

ROOT = str(Path(__file__).resolve().parents[1])
SANDBOX = """
from kgcrawl.runner import sandbox_process
with sandbox_process(0, "small") as resolve:
    print(resolve[0].rsplit(":", 1)[1], flush=True)
    input()
"""
LEASE = """
import sys
from pathlib import Path
from kgcrawl.graph.store import connect
store = connect("embedded", home=Path(sys.argv[1]))
print("leased", flush=True)
input()
"""


def _child(script: str, *args: str) -> tuple[subprocess.Popen, str]:
    """A parent process running `script`; its first line of output."""
    process = subprocess.Popen([sys.executable, "-c", script, *args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": ROOT})  # fmt: skip
    return process, process.stdout.readline().strip()


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _wait(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _refused(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_the_sandbox_server_dies_with_a_killed_crawl() -> None:
    parent, port = _child(SANDBOX)
    assert not _refused(int(port))
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    assert _wait(lambda: _refused(int(port))), "the sandbox server outlived its crawl"


@pytest.fixture
def graph_home(tmp_path):
    yield tmp_path
    server.stop(tmp_path)


def test_the_last_command_using_the_graph_stops_it(graph_home) -> None:
    first = connect("embedded", home=graph_home)
    second = connect("embedded", home=graph_home)  # a concurrent command reuses the server
    first.close()  # the one that started it ends first
    assert server.status(graph_home) is not None
    assert second.run("RETURN 1").rows == [[1]]
    second.close()
    assert server.status(graph_home) is None


def test_a_killed_commands_lease_does_not_keep_the_server(graph_home) -> None:
    holder, line = _child(LEASE, str(graph_home))
    assert line == "leased"
    mine = connect("embedded", home=graph_home)
    holder.send_signal(signal.SIGKILL)
    holder.wait(10)
    mine.close()
    assert server.status(graph_home) is None


def test_a_server_started_by_graph_start_stays_up(graph_home) -> None:
    server.start(graph_home)
    connect("embedded", home=graph_home).close()
    assert server.status(graph_home) is not None
