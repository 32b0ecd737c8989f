"""The connection one fetch uses: to the address that was checked, within a wall-clock deadline.

DNS rebinding (SPEC §6, turn 2): checking a name's addresses and then letting
`requests` resolve it again to connect lets a name answer a public address to the
check and 127.0.0.1 to the connection. `PinnedAdapter` connects to the `Pin` the
fetcher checked (or the `--resolve` address) while the URL keeps the name, so the
`Host` header, TLS SNI and the certificate check still use the name.

Deadline: urllib3's read timeout bounds each `recv`, not the exchange, so a server
that drips one byte a second holds a worker for hours. `Watchdog` cuts the socket
of an exchange whose wall-clock deadline has passed, or of every exchange when the
crawl is asked to stop: the blocked read returns at once and the fetch fails with
`timeout` (or `stopped`). One watchdog thread runs while exchanges are open and
ends with the last one.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from kgcrawl.crawl.addresses import Pin
from kgcrawl.stop_flag import StopFlag

TICK = 0.05  # seconds between the watchdog's looks: a cut comes at most this late
TIMEOUT, STOPPED = "timeout", "stopped"

_current = threading.local()  # the exchange the calling thread has open


class Exchange:
    """One HTTP exchange: its deadline, the sockets it opened, and why it was cut (if it was)."""

    def __init__(self, expires: float) -> None:
        self.expires = expires
        self.cut: str | None = None
        self.opened = 0  # connections opened for it (none: it went out on a pooled one)
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()

    def watch(self, sock: socket.socket | None) -> None:
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            if self.cut is None:
                return
        _shut(sock)  # cut before the socket existed: end it now

    def cut_off(self, why: str) -> None:
        with self._lock:
            if self.cut is not None:
                return
            self.cut = why
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    """Wake a thread blocked on the socket: shut the descriptor down (TLS or not)."""
    with suppress(OSError):  # already closed, or detached into the TLS socket (watched too)
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class Watchdog:
    """Cuts exchanges past their deadline, and all of them once `stop` is set."""

    def __init__(self, stop: StopFlag, tick: float = TICK) -> None:
        self.stop = stop
        self.tick = tick
        self._open: set[Exchange] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @contextmanager
    def exchange(self, seconds: float) -> Iterator[Exchange]:
        """An exchange of the calling thread that may last `seconds` of wall-clock time."""
        exchange = Exchange(time.monotonic() + seconds)
        with self._lock:
            self._open.add(exchange)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="fetch-watchdog")
                self._thread.daemon = True
                self._thread.start()
        _current.exchange = exchange
        try:
            yield exchange
        finally:
            _current.exchange = None
            with self._lock:
                self._open.discard(exchange)

    def _loop(self) -> None:
        while True:
            with self._lock:
                if not self._open:
                    self._thread = None
                    return
                open_now = list(self._open)
            now = time.monotonic()
            for exchange in open_now:
                if self.stop.is_set():
                    exchange.cut_off(STOPPED)
                elif now >= exchange.expires:
                    exchange.cut_off(TIMEOUT)
            self.stop.wait(self.tick)


def _watch_current(sock: socket.socket | None, new: bool = False) -> None:
    exchange = getattr(_current, "exchange", None)
    if exchange is not None:
        exchange.opened += new
        exchange.watch(sock)


class _Watched:
    """Registers its socket with the calling thread's exchange (new or reused connection)."""

    sock: socket.socket | None

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()  # type: ignore[misc]
        _watch_current(sock, new=True)  # covers the TLS handshake too
        return sock

    def getresponse(self, *args, **kwargs):
        _watch_current(self.sock)
        return super().getresponse(*args, **kwargs)  # type: ignore[misc]


class _WatchedHTTPConnection(_Watched, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_Watched, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class PinnedAdapter(HTTPAdapter):
    """Sends each request to `self.pin` (set by the fetcher before it), watched by its exchange.

    One adapter per session and one session per thread, so `pin` is the calling thread's.
    """

    def __init__(self) -> None:
        self.pin: Pin | None = None
        super().__init__(pool_connections=32, pool_maxsize=1)

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}

    def get_connection_with_tls_context(self, request, verify, proxies=None, cert=None):
        host_params, pool_kwargs = self.build_connection_pool_key_attributes(request, verify, cert)
        pin = self.pin
        if pin is None:
            raise ValueError("a fetch sets the pin before it sends")
        name = host_params["host"]
        if pin.scheme == "https":
            pool_kwargs["server_hostname"] = name  # SNI and the certificate: the name
            pool_kwargs["assert_hostname"] = name
        else:
            pool_kwargs = {}  # plain HTTP to a --resolve address: no TLS settings
        host_params = {"scheme": pin.scheme, "host": pin.address, "port": pin.port}
        return self.poolmanager.connection_from_host(**host_params, pool_kwargs=pool_kwargs)
