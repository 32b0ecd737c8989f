"""robots.txt rules per origin, cached (SPEC §6).

200 → the file's rules (protego); 4xx → allow everything; 5xx, timeout or a
broken connection → disallow for now and ask again after `retry_after` seconds.
A redirect is treated like a missing file (allow), a simplification of RFC 9309.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_ROBOTS_BYTES = 500_000


@dataclass
class RobotsRules:
    """What one origin's robots.txt says for our user agent."""

    parser: Any | None  # protego.Protego, or None for "allow all" / "disallow all"
    allow_all: bool
    expires: float

    @property
    def unreachable(self) -> bool:
        """robots.txt could not be read (5xx, timeout): everything waits until `expires`."""
        return self.parser is None and not self.allow_all

    def allowed(self, url: str, user_agent: str) -> bool:
        if self.parser is None:
            return self.allow_all
        return bool(self.parser.can_fetch(url, user_agent))

    def crawl_delay(self, user_agent: str) -> float:
        if self.parser is None:
            return 0.0
        return float(self.parser.crawl_delay(user_agent) or 0.0)


class RobotsCache:
    """One RobotsRules per origin; `load` is called with the robots.txt URL when needed.

    `load(url)` returns (status, body) or raises OSError for timeouts and broken connections.
    """

    def __init__(
        self,
        load: Callable[[str], tuple[int, bytes]],
        retry_after: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self._retry_after = retry_after
        self._clock = clock
        self._rules: dict[str, RobotsRules] = {}
        self._lock = threading.Lock()

    def rules(self, origin: str) -> RobotsRules:
        """The rules for `scheme://host[:port]`, fetching robots.txt when absent or expired."""
        with self._lock:
            cached = self._rules.get(origin)
        now = self._clock()
        if cached is not None and cached.expires > now:
            return cached
        rules = self._fetch(origin, now)
        with self._lock:
            self._rules[origin] = rules
        return rules

    def _fetch(self, origin: str, now: float) -> RobotsRules:
        from protego import Protego

        forever = float("inf")
        try:
            status, body = self._load(origin + "/robots.txt")
        except OSError:
            return RobotsRules(None, allow_all=False, expires=now + self._retry_after)
        if status >= 500:
            return RobotsRules(None, allow_all=False, expires=now + self._retry_after)
        if status != 200:
            return RobotsRules(None, allow_all=True, expires=forever)
        text = body[:MAX_ROBOTS_BYTES].decode("utf-8", "replace")
        return RobotsRules(Protego.parse(text), allow_all=True, expires=forever)
