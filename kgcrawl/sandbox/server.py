"""The sandbox web served on loopback: one threaded HTTP server for every host.

The `Host` header picks the host (its port is ignored); the scheme is ignored
too, so an `https://` seed is served like any other host — the crawler's
`--resolve "*=127.0.0.1:PORT"` map sends every sandbox host plain HTTP to this
server. The server binds 127.0.0.1 only.

Timing hazards live here, the pages in `world.py`: slow hosts wait
`slow_delay` seconds before answering, `/live/` pages stall `hang_seconds`
after their first kilobyte, robots.txt of crawl-delay hosts asks for
`crawl_delay` seconds, reset pages close the connection with a TCP RST,
and transient errors answer 503 the first time a URL is asked for (the last
`TRANSIENT_MEMORY` such URLs are remembered).

Every request is logged as (host, path, start, end, status, bytes) in a bounded
in-memory log, with `time.monotonic()` stamps, so tests can check politeness on
the server side: no two requests in flight to one host, delays respected.
"""

from __future__ import annotations

import socket
import struct
import sys
import threading
import time
import traceback
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from kgcrawl.sandbox.hazards import CRAWL_DELAY_SECONDS, LIVE_HEAD_BYTES, Hazard
from kgcrawl.sandbox.world import Reply, World
from kgcrawl.stop_flag import StopFlag, stopped_by_signals
from kgcrawl.text.urls import request_target

TRANSIENT_MEMORY = 10_000


@dataclass(frozen=True)
class Access:
    """One request as the server saw it; status 0 = connection reset."""

    host: str
    path: str
    start: float
    end: float
    status: int
    bytes: int


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # idle keep-alive connections must not hold up a stop
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], sandbox: SandboxServer):
        self.sandbox = sandbox
        self.reset_fds: set[int] = set()
        super().__init__(address, _Handler)

    def handle_error(self, request: socket.socket, client_address: tuple) -> None:
        """A client that goes away (a reset, a broken pipe) is what crawlers do when they stop
        or drop an idle connection: no traceback for it, one for anything else."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def shutdown_request(self, request: socket.socket) -> None:
        # A reset connection must not send FIN first: close it with linger 0 only.
        if request.fileno() in self.reset_fds:
            self.reset_fds.discard(request.fileno())
            request.close()
            return
        super().shutdown_request(request)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sandbox/1.0"
    # Headers and body go out in separate writes; with Nagle on, the client's delayed ACK
    # would hold every response ~40 ms.
    disable_nagle_algorithm = True
    server: _HTTPServer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the sandbox keeps its own access log."""

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    def _serve(self, send_body: bool) -> None:
        sandbox = self.server.sandbox
        start = time.monotonic()
        host, target = (self.headers.get("Host") or "").rsplit(":", 1)[0].lower(), self.path
        if target.startswith(("http://", "https://")):  # absolute form, as proxies send it
            host = (urlsplit(target).hostname or host).lower()
            target = request_target(target)
        sandbox.begin(host)
        try:
            reply = sandbox.world.respond(host, target, sandbox.crawl_delay)
        except Exception:  # a bug in the world: answer like a broken server, and say why
            traceback.print_exc()
            reply = Reply(500, (("Content-Type", "text/plain"),), b"sandbox error")
        status, sent = reply.status, 0
        try:
            if reply.slow and sandbox.stopping.wait(sandbox.slow_delay):
                self.close_connection = True
                return
            if reply.fault is Hazard.RESET:
                self._reset()
                return
            headers = reply.headers
            body = reply.body
            if reply.fault is Hazard.TRANSIENT_ERROR and sandbox.first_attempt(host, target):
                status, body = 503, b"<html><body><h1>503</h1></body></html>"
                headers = (("Content-Type", "text/html"), ("Retry-After", "1"))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if reply.stream is not None:
                sent = self._stream(reply, send_body)
                return
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not send_body:
                return
            if reply.fault is Hazard.STALL:
                self.wfile.write(body[:LIVE_HEAD_BYTES])
                self.wfile.flush()
                sent = LIVE_HEAD_BYTES
                if sandbox.stopping.wait(sandbox.hang_seconds):
                    self.close_connection = True
                    return
                body = body[LIVE_HEAD_BYTES:]
            self.wfile.write(body)
            sent += len(body)
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        finally:
            sandbox.record(Access(host, target, start, time.monotonic(), status, sent))

    def _stream(self, reply, send_body: bool) -> int:
        if reply.length is None:
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(reply.length))
        self.end_headers()
        sent = 0
        if send_body:
            for chunk in reply.stream():
                self.wfile.write(chunk)
                sent += len(chunk)
        return sent

    def _reset(self) -> None:
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.server.reset_fds.add(self.connection.fileno())
        self.close_connection = True


class SandboxServer:
    """A world on 127.0.0.1:port (0 = any free port), served from a background thread."""

    def __init__(
        self,
        world: World,
        port: int = 0,
        *,
        slow_delay: float = 0.5,
        hang_seconds: float = 30.0,
        crawl_delay: float = CRAWL_DELAY_SECONDS,
        log_size: int = 20_000,
    ):
        self.world = world
        self.slow_delay = slow_delay
        self.hang_seconds = hang_seconds
        self.crawl_delay = crawl_delay
        self.stopping = threading.Event()
        self._log: deque[Access] = deque(maxlen=log_size)
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()
        self._settled = threading.Condition()
        self._in_flight: Counter[str] = Counter()
        self._cleared = float("-inf")  # requests that started before it are forgotten
        self._httpd = _HTTPServer(("127.0.0.1", port), self)
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> str:
        """The address the listening socket is bound to."""
        return self._httpd.socket.getsockname()[0]

    @property
    def port(self) -> int:
        return self._httpd.socket.getsockname()[1]

    @property
    def base_url(self) -> str:
        return f"http://{self.address}:{self.port}"

    @property
    def resolve(self) -> list[str]:
        """The crawler's `--resolve` entries that send every host here."""
        return [f"*={self.address}:{self.port}"]

    def start(self) -> SandboxServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="sandbox", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, wake sleeping handlers, release the port."""
        self.stopping.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
        self._httpd.server_close()

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def begin(self, host: str) -> None:
        with self._settled:
            self._in_flight[host] += 1

    def record(self, access: Access) -> None:
        with self._settled:
            if access.start >= self._cleared:
                self._log.append(access)
            self._in_flight[access.host] -= 1
            self._settled.notify_all()

    def access_log(self, host: str | None = None, settle: float = 1.0) -> list[Access]:
        """Requests so far (the last `log_size`), oldest first, optionally of one host.

        Waits up to `settle` seconds for requests in flight (of that host) to be logged: a
        client may hold its response a moment before the server thread records it. A thread
        records its request after the response has gone, so one that started later may be
        recorded first: the log is read in order of start.
        """

        with self._settled:
            self._settled.wait_for(lambda: self._idle(host), timeout=settle)
            entries = sorted(self._log, key=lambda access: access.start)
        return [a for a in entries if host is None or a.host == host]

    def clear_log(self) -> None:
        """Forget the requests so far, those still in flight too (a page that hangs is
        recorded when it ends, seconds after it started)."""
        with self._settled:
            self._log.clear()
            self._cleared = time.monotonic()

    def _idle(self, host: str | None) -> bool:
        counts = self._in_flight
        return (counts[host] if host is not None else sum(counts.values())) == 0

    def first_attempt(self, host: str, target: str) -> bool:
        """True the first time a transient-error URL is asked for (bounded memory)."""
        key = (host, target)
        with self._lock:
            if key in self._seen:
                return False
            self._seen[key] = None
            if len(self._seen) > TRANSIENT_MEMORY:
                self._seen.popitem(last=False)
            return True


SIGNAL_POLL = 0.5  # seconds: how long a signal may wait for `serve` to see it


def serve(
    world: World,
    port: int = 0,
    *,
    slow_delay: float = 0.5,
    hang_seconds: float = 30.0,
    crawl_delay: float = CRAWL_DELAY_SECONDS,
    ready: Callable[[SandboxServer], None] | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM, then stop cleanly; `ready` is told the bound server."""
    stop = StopFlag()
    with (
        stopped_by_signals(stop),
        SandboxServer(
            world, port, slow_delay=slow_delay, hang_seconds=hang_seconds, crawl_delay=crawl_delay
        ) as server,
    ):
        if ready is not None:
            ready(server)
        # The kernel may hand SIGTERM (a crawl's parent-death signal too) to the serving
        # thread; Python then runs the handler only when the main thread next runs
        # bytecode, which a wait without timeout never does: 2 of 8 sandboxes of killed
        # crawls outlived them on a loaded machine (tests/test_lifetime.py failed in CI).
        while not stop.wait(SIGNAL_POLL):
            pass
