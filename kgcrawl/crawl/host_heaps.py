"""Links grouped by host, best first, and hosts ordered by their best link (lazy heaps).

The frontier keeps two of these: one over Q_wait (FCITS_OH takes the best link
of a host that is not tabu, SPEC §5.7) and one over the discarded pool (the best
pool link when Q_wait runs dry, §5.1; the best of hosts new to Q_wait, §5.7
step 5). Entries are never removed in place: an entry is live while `live(key,
link)` says the link still has that priority in that set, and stale ones are
dropped when they reach a heap's top. So every change is one push, and a query
walks only the hosts it skips.

>>> prio = {1: 0.9, 2: 0.5, 3: 0.7}
>>> heaps = HostHeaps(lambda key, link: prio.get(link) == -key)
>>> for link, host in ((1, 0), (2, 0), (3, 1)):
...     heaps.push(-prio[link], link, host)
>>> heaps.best()[1], heaps.best(skip={0})[1]
(1, 3)
>>> del prio[1]
>>> heaps.best()[1], heaps.best_per_host(2)
(3, [3, 2])
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection

import numpy as np


class HostHeaps:
    """Per host a heap of (−P, link); a heap of (−P, link, host) of each host's best."""

    def __init__(self, live: Callable[[float, int], bool]) -> None:
        self.live = live
        self.heaps: dict[int, list[tuple[float, int]]] = {}
        self.hosts: list[tuple[float, int, int]] = []

    def push(self, key: float, link: int, host: int) -> None:
        heap = self.heaps.setdefault(host, [])
        heapq.heappush(heap, (key, link))
        if heap[0] == (key, link):  # the host's new best: it needs an entry at that key
            heapq.heappush(self.hosts, (key, link, host))

    def top(self, host: int) -> tuple[float, int] | None:
        """The host's best live entry."""
        heap = self.heaps.get(host)
        while heap:
            if self.live(*heap[0]):
                return heap[0]
            heapq.heappop(heap)
        return None

    def best(self, skip: Collection[int] = ()) -> tuple[float, int, int] | None:
        """(−P, link, host) of the best live link of a host not in `skip`."""
        found = self._walk(lambda host: host not in skip, 1)
        return found[0] if found else None

    def best_per_host(self, n: int, want: Callable[[int], bool] = lambda host: True) -> list[int]:
        """The best link of each of the `n` best hosts that `want` accepts, best first."""
        return [link for _, link, _ in self._walk(want, n)]

    def _walk(self, want: Callable[[int], bool], n: int) -> list[tuple[float, int, int]]:
        heap, passed, found, seen = self.hosts, [], [], set()
        while heap and len(found) < n:
            entry = heapq.heappop(heap)
            key, link, host = entry
            top = self.top(host)
            if top != (key, link):  # stale: the host's best moved; file it under its new best
                if top is not None and host not in seen:
                    heapq.heappush(heap, (*top, host))
                continue
            if host in seen:
                continue  # a second entry for the same best
            seen.add(host)
            passed.append(entry)
            if want(host):
                found.append(entry)
        for entry in passed:
            heapq.heappush(heap, entry)
        return found

    def rebuild(self, keys: np.ndarray, links: np.ndarray, hosts: np.ndarray) -> None:
        """From entries sorted by (host, key, link): a sorted list is already a heap."""
        self.heaps, self.hosts = {}, []
        cuts = (np.flatnonzero(hosts[1:] != hosts[:-1]) + 1).tolist() if len(hosts) else []
        keys_, links_ = keys.tolist(), links.tolist()
        for start, end in zip([0, *cuts], [*cuts, len(links_)], strict=True):
            if start == end:
                continue
            host = int(hosts[start])
            self.heaps[host] = list(zip(keys_[start:end], links_[start:end], strict=True))
            self.hosts.append((keys_[start], links_[start], host))
        heapq.heapify(self.hosts)

    def __len__(self) -> int:
        """Entries in the hosts heap (live or stale), for compaction."""
        return len(self.hosts)
