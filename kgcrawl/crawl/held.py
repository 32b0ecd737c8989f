"""Pages held back while their host's robots.txt cannot be read, until it may be read anew.

SPEC §6 says a robots.txt that answers 5xx or times out disallows its host "for now"
and is asked again later (`fetch.robots_retry` seconds, crawl/robots.py). A page
refused meanwhile is no page the host forbids, so it is not given up: the crawl holds
it (its link stays taken) until the robots.txt may be asked again, then puts it back
in Q_wait, at most `fetch.robots_tries` times in all; the last refusal is its outcome.

**Interpretation** (the spec is silent on the refused pages): before, each was a
final `robots` failure, so a relevant host whose robots.txt failed once lost every
page a focused crawl chose there within the next minute. When a page may go again is
read from the logged times of the outcomes (`fetched_at`), never from the clock, so
replay makes the same choices; a crawl with nothing else left lets the first held pages
go (`Crawl.release_next`) and waits until their time has come (`Engine`).

>>> held = Held(retry_ms=60_000, tries=3)
>>> held.hold(7, at=1_000), held.hold(9, at=2_000), held.due(60_999), held.due(61_000)
(True, True, [], [7])
>>> held.next_due(), held.due(held.next_due()), len(held)
(62000, [9], 0)
>>> held.hold(7, at=70_000), held.hold(7, at=140_000)  # its third refusal is final
(True, False)
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Held:
    """Links held per robots.txt outage: when each may go again, how often each was refused."""

    retry_ms: int
    tries: int
    _due: dict[int, int] = field(default_factory=dict)  # link → logged time it may go (ms)
    _order: list[tuple[int, int]] = field(default_factory=list)  # heap of (due, link)
    _refused: Counter[int] = field(default_factory=Counter)

    def __len__(self) -> int:
        return len(self._due)

    def hold(self, link: int, at: int) -> bool:
        """Hold `link`, refused at logged time `at`, for `retry_ms`; False when this was its
        last try (it is not held: the refusal is its outcome)."""
        self._refused[link] += 1
        if self._refused[link] >= self.tries:
            return False
        self._due[link] = due = at + self.retry_ms
        heapq.heappush(self._order, (due, link))
        return True

    def due(self, now: int) -> list[int]:
        """The held links whose wait ended by logged time `now`, let go, earliest first."""
        ready = []
        while self._order and self._order[0][0] <= now:
            due, link = heapq.heappop(self._order)
            if self._due.get(link) == due:
                del self._due[link]
                ready.append(link)
        return ready

    def next_due(self) -> int | None:
        """When the first held link may go (logged time, ms), or None when none is held."""
        while self._order and self._due.get(self._order[0][1]) != self._order[0][0]:
            heapq.heappop(self._order)  # taken by URL (`discard`)
        return self._order[0][0] if self._order else None

    def discard(self, link: int) -> None:
        """`link` goes out some other way (replay takes it by URL)."""
        self._due.pop(link, None)
