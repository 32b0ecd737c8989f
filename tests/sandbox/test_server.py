"""The loopback server: Host-header routing, HTTP details, access log, concurrency, clean stop."""

from __future__ import annotations

import http.client
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.server import Access, SandboxServer, _HTTPServer
from kgcrawl.sandbox.world import World


def test_the_host_header_picks_the_host(sandbox):
    a = sandbox.fetch("http://www.cntour.cn/about.html")
    b = sandbox.fetch("http://www.nmc.cn/about.html")
    assert a.status_code == b.status_code == 200
    assert a.content != b.content
    assert "中国旅游网" in a.content.decode("gbk") and "中央气象台" in b.content.decode()


def test_scheme_and_port_in_the_host_header_are_ignored(sandbox):
    plain = sandbox.fetch("http://www.qyer.com/")
    assert sandbox.fetch("https://www.qyer.com/").content == plain.content
    with_port = sandbox.fetch("http://www.qyer.com/", headers={"Host": "www.qyer.com:443"})
    assert with_port.content == plain.content


def test_absolute_form_requests_are_understood(sandbox):
    conn = http.client.HTTPConnection("127.0.0.1", sandbox.port, timeout=5)
    conn.request("GET", "http://www.nmc.cn/about.html", headers={"Host": "ignored.example"})
    response = conn.getresponse()
    assert response.status == 200 and "中央气象台" in response.read().decode("utf-8")
    conn.close()


def test_keep_alive_and_head(sandbox):
    conn = http.client.HTTPConnection("127.0.0.1", sandbox.port, timeout=5)
    bodies = []
    for _ in range(3):
        conn.request("GET", "/", headers={"Host": "www.nmc.cn"})
        bodies.append(conn.getresponse().read())
    conn.request("HEAD", "/", headers={"Host": "www.nmc.cn"})
    head = conn.getresponse()
    assert head.read() == b"" and int(head.getheader("Content-Length")) == len(bodies[0])
    assert len(set(bodies)) == 1
    conn.close()


def test_the_access_log_records_every_request(sandbox):
    sandbox.clear_log()
    before = time.monotonic()
    sandbox.fetch("http://www.nmc.cn/")
    sandbox.fetch("http://www.nmc.cn/no-such-page")
    sandbox.fetch("http://www.cntour.cn/")
    log = sandbox.access_log("www.nmc.cn")
    assert [(a.path, a.status) for a in log] == [("/", 200), ("/no-such-page", 404)]
    assert all(before <= a.start <= a.end <= time.monotonic() for a in log)
    assert log[0].bytes > 1000
    assert len(sandbox.access_log()) == 3


def test_the_log_reads_oldest_first_though_a_later_request_was_recorded_first():
    server = SandboxServer(World(0, "small"))  # two handler threads, the later one quicker
    for _ in range(2):
        server.begin("h.test")
    server.record(Access("h.test", "/second", 2.0, 2.1, 200, 10))
    server.record(Access("h.test", "/first", 1.0, 2.2, 200, 10))
    assert [a.path for a in server.access_log("h.test", settle=0)] == ["/first", "/second"]


def test_a_request_in_flight_when_the_log_is_cleared_is_forgotten_when_it_ends():
    server = SandboxServer(World(0, "small"))
    server.begin("h.test")  # a page that hangs, asked for before the clear …
    server.clear_log()
    start = time.monotonic()
    server.record(Access("h.test", "/live", start - 3.0, start + 0.1, 200, 10))  # … ends after
    assert server.access_log(settle=0) == []


def test_a_client_that_resets_its_connection_leaves_no_traceback(capfd, monkeypatch):
    handled = threading.Event()  # set once the server has dealt with the reset
    handle_error = _HTTPServer.handle_error

    def noted(server, request, address):
        handle_error(server, request, address)
        handled.set()

    monkeypatch.setattr(_HTTPServer, "handle_error", noted)
    with SandboxServer(World(0, "small")) as server:
        client = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        client.sendall(b"GET / HTTP/1.1\r\n")  # the server is reading the request when …
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()  # … the client resets the connection
        assert handled.wait(5)
    assert "Traceback" not in capfd.readouterr().err


def test_the_log_is_bounded():
    with SandboxServer(World(0, "small"), log_size=5) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        for i in range(8):
            conn.request("GET", f"/images/{i}.png", headers={"Host": "www.nmc.cn"})
            conn.getresponse().read()
        conn.close()
        assert [a.path for a in server.access_log()] == [f"/images/{i}.png" for i in range(3, 8)]


def test_concurrent_clients_are_served_in_parallel(sandbox):
    """A slow host does not hold up the others: the server answers each connection in a thread."""
    slow = sandbox.world.hazard_urls(Hazard.SLOW)[0]
    urls = [slow] * 4 + [f"http://www.nmc.cn/images/{i}.png" for i in range(40)]
    start = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda u: sandbox.fetch(u).status_code, urls))
    assert statuses == [200] * len(urls)
    assert time.monotonic() - start < 4 * 0.3  # the four slow answers overlapped


def test_binds_loopback_only_and_stops_cleanly():
    server = SandboxServer(World(0, "small"), hang_seconds=30).start()
    port = server.port
    assert server.resolve == [f"*=127.0.0.1:{port}"]
    stall = World(0, "small").hazard_urls(Hazard.STALL)[0].split("://", 1)[1]
    host, path = stall.split("/", 1)
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(f"GET /{path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    time.sleep(0.2)
    start = time.monotonic()
    server.stop()
    assert time.monotonic() - start < 2  # a stalled handler does not hold the stop
    conn.close()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1)
    again = SandboxServer(World(0, "small"), port=port)  # the port is free again
    assert again.port == port
    again.stop()


SIGNALLED = """
import signal, threading
from kgcrawl.sandbox.server import serve
from kgcrawl.sandbox.world import World

def ready(server):
    (serving,) = [t for t in threading.enumerate() if t.name == "sandbox"]
    threading.Timer(0.2, signal.pthread_kill, (serving.ident, signal.SIGTERM)).start()

serve(World(0, "small"), ready=ready)
print("stopped")
"""


def test_serve_stops_on_a_sigterm_its_serving_thread_received():
    """The kernel may deliver a process's SIGTERM to any of its threads."""
    root = str(Path(__file__).resolve().parents[2])
    done = subprocess.run([sys.executable, "-c", SIGNALLED], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": root})  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "stopped", done.stderr


def test_only_loopback_is_listened_on():
    with SandboxServer(World(0, "small")) as server:
        assert server.address == "127.0.0.1"
        assert server.base_url == f"http://127.0.0.1:{server.port}"
        addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)}
        for address in addresses - {"127.0.0.1", "::1"}:
            with pytest.raises(OSError):
                socket.create_connection((address, server.port), timeout=1)
