"""A stop flag that SIGINT / SIGTERM may set, and the handlers that set it.

Python runs a signal handler in the main thread between two bytecodes, possibly
inside `threading.Event.wait`, while that thread holds the Event's lock (a plain
Lock, not re-entrant). A handler that then calls `Event.set()` waits for that
lock forever: 3 of 15 sandbox servers of crawls killed with SIGKILL outlived
them, deaf to SIGTERM, the main thread blocked in the handler (gdb), and a crawl
waiting on its stop flag could hang on Ctrl-C the same way. `StopFlag.set` takes
no lock: it sets a bool and writes a byte to a socket pair that every `wait`
selects on, so a waiter in any thread wakes at once.
"""

from __future__ import annotations

import select
import signal
import socket
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopFlag:
    """`threading.Event`'s set / is_set / wait, safe to set from a signal handler.

    >>> flag = StopFlag()
    >>> flag.wait(0.01), flag.is_set()
    (False, False)
    >>> flag.set()
    >>> flag.wait(), flag.is_set()
    (True, True)
    """

    def __init__(self) -> None:
        self._set = False
        self._waker, self._woken = socket.socketpair()  # sockets: `select` takes them everywhere
        self._waker.setblocking(False)
        weakref.finalize(self, _close, self._waker, self._woken)

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        if self._set:
            return
        self._set = True
        with suppress(OSError):  # a full buffer is readable already
            self._waker.send(b"\0")  # never read: the socket stays readable for every wait

    def wait(self, timeout: float | None = None) -> bool:
        """True once set; False when `timeout` seconds passed first."""
        if not self._set:
            _readable(self._woken, timeout)
        return self._set


def _readable(sock: socket.socket, timeout: float | None) -> None:
    """Wait until `sock` is readable or `timeout` passed: poll where there is one (select
    refuses a descriptor numbered 1024 or more, which a busy process may hand out)."""
    if not hasattr(select, "poll"):  # Windows
        select.select([sock], [], [], timeout)
        return
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    poller.poll(None if timeout is None else timeout * 1000)


def _close(*sockets: socket.socket) -> None:
    for sock in sockets:
        sock.close()


@contextmanager
def stopped_by_signals(flag: StopFlag) -> Iterator[None]:
    """SIGINT and SIGTERM set `flag` meanwhile (in the main thread only: elsewhere Python
    takes no handler, and the caller's main thread keeps its own)."""
    with handlers_kept() as main:
        if main:
            for sig in _SIGNALS:
                signal.signal(sig, lambda *_: flag.set())
        yield


@contextmanager
def handlers_kept() -> Iterator[bool]:
    """SIGINT's and SIGTERM's handlers as they were before, whatever the block sets: `ray.init`
    puts its own C handler on SIGTERM, which printed a stack dump and killed a Ray crawl
    (exit 15, "ended: error") where the crawl's handler would have stopped it, resumable.
    Yields whether this is the main thread, the only one that can set handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    kept = {sig: signal.getsignal(sig) for sig in _SIGNALS}
    try:
        yield True
    finally:
        for sig, handler in kept.items():
            if handler is not None:  # None: set outside Python, nothing to put back
                signal.signal(sig, handler)
