"""At most one request in flight per host, and a pause between requests to a host (SPEC §6)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class HostGate:
    """Serialises requests per host; the pause runs from the end of one to the start of the next."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._next: dict[str, float] = {}

    @contextmanager
    def request(self, host: str, delay: float) -> Iterator[None]:
        """Hold the host for one request, after waiting out its pause."""
        with self._guard:
            lock = self._locks.setdefault(host, threading.Lock())
        with lock:
            wait = self._next.get(host, 0.0) - self._clock()
            if wait > 0:
                self._sleep(wait)
            try:
                yield
            finally:
                self._next[host] = self._clock() + delay

    def defer(self, host: str, seconds: float) -> None:
        """The host asked for a pause (Retry-After): no request to it for `seconds`."""
        with self._guard:
            self._next[host] = max(self._next.get(host, 0.0), self._clock() + seconds)

    def ready_at(self, host: str) -> float:
        """When the host may next be asked (the clock's time; 0 when never asked)."""
        return self._next.get(host, 0.0)
