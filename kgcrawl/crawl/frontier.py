"""Q_wait and the discarded pool, with the indexes strategies select through (SPEC §4.5, §5).

Every discovered URL gets a link id, 0, 1, 2, … in discovery order, and a row in
numpy columns: priority P (Eq. 9), state, host, parent count, Σ R(p_j), Σ PR(p_j)
and R(A_l). A link is in exactly one state:

    new ─add_parent─▶ queued (P > β) ⇄ pool (P ≤ β, top `discard_keep` by P) ⇄ dropped
    queued ─take─▶ taken ─visited─▶ visited        taken ─put_back─▶ queued
    pool ─promote─▶ queued (pinned: stays queued until taken)   seeds: add_seed → queued, P = 1

Indexes, each O(log m) or better per operation:
  * best P in Q_wait: a heap of (−P, id) with lazy deletion (ties: the older link);
  * discovery order (BFS): a heap of ids with lazy deletion;
  * uniform random draw: an array of the queued ids with swap-removal;
  * by host: a heap per host and a heap of hosts by their best link (host_heaps.py),
    the count per host, and the number of hosts in Q_wait (FCITS_OH's H2);
  * by parent page: `edges` (parent_edges.py), the links each downloaded page
    contains and the parents of each link;
  * the pool: by host as Q_wait (the best pool link when Q_wait runs dry; FCITS_OH
    step 5), and a min-heap to evict the lowest P past `discard_keep`.

A new parent re-scores its link at once. `set_pagerank` re-scores every unvisited
link as array math (Σ PR by `np.bincount` over the parent edges) and rebuilds the
indexes from sorted arrays; links cross β both ways there (SPEC §4.5), and the
pool becomes the top `discard_keep` of every unvisited link at or below β.
**Interpretation**: a link a strategy promoted from the pool, or put back, stays
in Q_wait until its P is next computed; seeds (no parent) keep P = 1 until they
gain one. PR enters P on the scale `pagerank_scale` (scoring.priority.pagerank_term);
a page not yet in a PageRank solve counts as rank 1 (the mean of the (1 − d) + d·Σ
form), and before the first solve every page does.

`Crawl.fold` (crawl/core.py) feeds it: in-links for PageRank, children with R(p) and
R(A), and every `pagerank_every` pages a re-scoring; `unvisited` serves explore.py.
"""

from __future__ import annotations

import gc
import heapq
import random
from collections.abc import Collection, Iterable

import numpy as np

from kgcrawl.crawl.host_heaps import HostHeaps
from kgcrawl.crawl.parent_edges import ParentEdges, doubled
from kgcrawl.scoring.priority import DEFAULT_R, pagerank_term, priority
from kgcrawl.text.urls import host_of

NEW, QUEUED, POOL, DROPPED, TAKEN, VISITED = range(6)
STATE_NAMES = ("new", "queued", "pool", "dropped", "taken", "visited")
_UNVISITED = (QUEUED, POOL, DROPPED)


class FrontierError(ValueError):
    """A strategy or the engine moved a link from a state it is not in."""


class Frontier:
    """Q_wait, the discarded pool and their indexes; see the module docstring."""

    # A page's queued links are sifted by host in Python up to this many, with np.isin
    # above, and only its queued links, not all its links: np.isin's set-up (≈ 40 µs)
    # outweighs a loop over a few dozen. In three interleaved 3 000-page fcits_oh crawls of
    # the default sandbox at 8 in flight (≈ 7 000 asks each), `_queued_of` took 0.08–0.11
    # ms a page instead of 0.39–0.46, the same links (issue 19).
    few_queued = 64

    def __init__(
        self,
        r: tuple[float, float, float] = DEFAULT_R,
        beta: float | None = 0.19,
        discard_keep: int = 200_000,
        pagerank_scale: str = "percentile",
    ) -> None:
        """`beta=None`: no β filter, every link waits in Q_wait (BFS)."""
        self.r = r
        self.beta = beta
        self.discard_keep = discard_keep
        self.pagerank_scale = pagerank_scale
        self._urls: list[str] = []
        self._ids: dict[str, int] = {}
        self._hosts: list[str] = []
        self._host_ids: dict[str, int] = {}
        self._size = 0
        capacity = 1024
        self._prio = np.zeros(capacity)
        self._state = np.zeros(capacity, dtype=np.uint8)
        self._host = np.zeros(capacity, dtype=np.int32)
        self._parents = np.zeros(capacity, dtype=np.int32)
        self._sum_r = np.zeros(capacity)
        self._sum_pr = np.zeros(capacity)
        self._anchor = np.zeros(capacity)
        self._page = np.full(capacity, -1, dtype=np.int64)
        self._qpos = np.full(capacity, -1, dtype=np.int64)
        self.edges = ParentEdges()
        self._pr, self._pr_unsolved = pagerank_term(np.zeros(0), pagerank_scale)
        # Q_wait
        self._heap: list[tuple[float, int]] = []
        self._fifo: list[int] = []
        self._queue = np.zeros(capacity, dtype=np.int64)
        self._queued = 0
        self._host_queued: list[int] = []
        self._by_host = HostHeaps(lambda key, link: self._live(link, key, QUEUED))
        self._pinned = np.zeros(capacity, dtype=bool)
        self._queued_hosts = 0
        # the discarded pool
        self._pool_size = 0
        self._pool_min: list[tuple[float, int]] = []
        self._pool_by_host = HostHeaps(lambda key, link: self._live(link, key, POOL))

    # ---- links -----------------------------------------------------------------

    def intern(self, url: str) -> int:
        """The id of a canonical URL, a new link (state new) if never seen."""
        link = self._ids.get(url)
        if link is not None:
            return link
        link = self._size
        if link == len(self._prio):
            self._grow_links()
        self._size += 1
        self._ids[url] = link
        self._urls.append(url)
        host = host_of(url)
        host_id = self._host_ids.get(host)
        if host_id is None:
            host_id = self._host_ids[host] = len(self._hosts)
            self._hosts.append(host)
            self._host_queued.append(0)
        self._host[link] = host_id
        return link

    def add_seed(self, url: str, priority: float = 1.0) -> int:
        """A seed goes to Q_wait with P = 1 (SPEC §5.7 step 1); a known URL is left alone."""
        link = self.intern(url)
        if self._state[link] == NEW:
            self._prio[link] = priority
            self._enqueue(link)
        return link

    def add_parent(
        self,
        link: int,
        page: int,
        page_relevance: float,
        anchor_relevance: float,
        edge_relevance: float = 0.0,
    ) -> float:
        """Downloaded `page` (R(p)) contains `link`; R(A_l) is now `anchor_relevance`.

        Re-scores the link (Eq. 9) and moves it across β; returns its new P.
        `edge_relevance` (R(A) of this page's anchor alone) is kept for PageRank.
        """
        self.edges.add(link, page, edge_relevance)
        self._parents[link] += 1
        self._sum_r[link] += page_relevance
        self._sum_pr[link] += self._pr_of(page)
        self._anchor[link] = anchor_relevance
        p = float(priority(self._sum_pr[link], self._sum_r[link], self._parents[link],
                           anchor_relevance, self.r))  # fmt: skip
        state = self._state[link]
        if state == NEW:
            self._prio[link] = p
            self._enter(link)
        elif state in _UNVISITED:
            self._reprioritise(link, p)
        else:
            self._prio[link] = p
        return p

    def link_id(self, url: str) -> int | None:
        return self._ids.get(url)

    def url_of(self, link: int) -> str:
        return self._urls[link]

    def host_of(self, link: int) -> str:
        return self._hosts[self._host[link]]

    @staticmethod
    def host_of_url(url: str) -> str:
        return host_of(url)

    def priority(self, link: int) -> float:
        return float(self._prio[link])

    def state(self, link: int) -> str:
        return STATE_NAMES[self._state[link]]

    def page_of(self, link: int | None) -> int | None:
        """The page id a downloaded link became; None if not downloaded (or no link)."""
        page = -1 if link is None else int(self._page[link])
        return page if page >= 0 else None

    def __len__(self) -> int:
        return self._size

    # ---- selection ---------------------------------------------------------------

    def queued_count(self) -> int:
        return self._queued

    def pool_count(self) -> int:
        return self._pool_size

    def queued_host_count(self) -> int:
        """How many hosts have links in Q_wait."""
        return self._queued_hosts

    def is_queued(self, link: int) -> bool:
        return self._state[link] == QUEUED

    def unvisited(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # ids, m, P: explore.py
        state = self._state[: self._size]  # QUEUED ≤ s ≤ DROPPED is _UNVISITED, 7× np.isin
        ids = np.flatnonzero((state >= QUEUED) & (state <= DROPPED))
        return ids, self._parents[ids], self._prio[ids]

    def best(self, exclude: Collection[int] = ()) -> int | None:
        """The highest-P link of Q_wait (the older one on a tie), not taking it out.

        Excluded links are skipped: the cost grows with those ahead of the answer.
        """
        heap, state, prio = self._heap, self._state, self._prio
        skipped = []
        found = None
        while heap:
            key, link = heap[0]
            if state[link] != QUEUED or prio[link] != -key:
                heapq.heappop(heap)
                continue
            if link in exclude:
                skipped.append(heapq.heappop(heap))
                continue
            found = link
            break
        for entry in skipped:
            heapq.heappush(heap, entry)
        return found

    def oldest(self) -> int | None:
        """The first-discovered link of Q_wait (BFS)."""
        fifo, state = self._fifo, self._state
        while fifo and state[fifo[0]] != QUEUED:
            heapq.heappop(fifo)
        return fifo[0] if fifo else None

    def random_queued(self, rng: random.Random) -> int | None:
        """A link of Q_wait drawn uniformly with the crawl's RNG."""
        if not self._queued:
            return None
        return int(self._queue[rng.randrange(self._queued)])

    def best_of(self, links: Iterable[int], exclude: Collection[int] = ()) -> int | None:
        """The highest-P queued link among `links` (the older one on a tie)."""
        best, best_key = None, None
        state, prio = self._state, self._prio
        for link in links:
            if state[link] != QUEUED or link in exclude:
                continue
            key = (prio[link], -link)
            if best_key is None or key > best_key:
                best, best_key = link, key
        return best

    def queued_children(self, page: int | None, skip_hosts: Collection[str] = ()) -> list[int]:
        """The links of `page` waiting in Q_wait, but those of `skip_hosts`, in the order the
        page gives them (a new list; none for page None)."""
        return list(dict.fromkeys(self._queued_of(page, skip_hosts).tolist()))

    def best_child(self, page: int | None, skip_hosts: Collection[str] = ()) -> int | None:
        """The highest-P link of `page` waiting in Q_wait (the older on a tie), but those of
        `skip_hosts`, or None."""
        queued = self._queued_of(page, skip_hosts)
        if not len(queued):
            return None
        prio = self._prio[queued]
        return int(queued[prio == prio.max()].min())  # the older (smaller id) on a tie

    def _queued_of(self, page: int | None, skip_hosts: Collection[str]) -> np.ndarray:
        """The links of `page` in Q_wait and not of `skip_hosts` (a repeated link repeats).

        ITS asks this of hubs with thousands of links at every selection: one vectorised
        look at their states and hosts, read in place (a Python loop over 5 000 ids
        costs about a millisecond).
        """
        if page is None:
            return np.zeros(0, dtype=np.int64)
        links = self.edges.child_ids(page)  # a view: not kept past here
        queued = links[self._state[links] == QUEUED]
        if not skip_hosts or not len(queued):
            return queued
        skip, hosts = self._host_id_set(skip_hosts), self._host[queued]
        if len(queued) <= self.few_queued:
            return queued[[host not in skip for host in hosts.tolist()]]
        return queued[~np.isin(hosts, np.fromiter(skip, dtype=np.int32))]

    def best_outside(self, hosts: Collection[str]) -> int | None:
        """The highest-P link of Q_wait whose host is not in `hosts` (the older on a tie).

        Walks hosts in the order of their best queued link: the cost grows with the
        excluded hosts ahead of the answer, not with their links. With no host to
        exclude it is `best`, whose one heap needs no walk.
        """
        if not hosts:
            return self.best()
        found = self._by_host.best(skip=self._host_id_set(hosts))
        return None if found is None else found[1]

    def _host_id_set(self, hosts: Collection[str]) -> set[int]:
        return {self._host_ids[h] for h in hosts if h in self._host_ids}

    def pool_best(self) -> int | None:
        """The highest-P link of the discarded pool: what a dry Q_wait falls back on (§5.1)."""
        found = self._pool_by_host.best()
        return None if found is None else found[1]

    def pool_best_new_hosts(self, n: int) -> list[int]:
        """Up to n pool links, highest P first, one per host, of hosts with nothing in Q_wait.

        Walks hosts in the order of their best pool link, so it skips at most the
        hosts that have links in Q_wait (FCITS_OH step 5).
        """
        return self._pool_by_host.best_per_host(n, lambda host: self._host_queued[host] == 0)

    # ---- moves -------------------------------------------------------------------

    def take(self, link: int) -> None:
        """Out of Q_wait (or the pool) and in flight: the strategy chose it."""
        state = self._state[link]
        if state not in _UNVISITED:
            raise FrontierError(f"link {link} is {STATE_NAMES[state]}, it cannot be taken")
        self._leave(link)
        self._state[link] = TAKEN
        self._pinned[link] = False

    def put_back(self, link: int) -> None:
        """A taken link back into Q_wait (FCITS_OH step 4 passes over a tabu host)."""
        self._require(link, TAKEN, "put back")
        self._enqueue(link)

    def promote(self, link: int, pin: bool = False) -> None:
        """A pool link into Q_wait whatever its P (FCITS_OH step 5, a dry Q_wait).

        A pinned link stays in Q_wait until it is taken, whatever re-scoring says
        (SPEC §5.7 turn 2 (d)).
        """
        if self._state[link] not in (POOL, DROPPED):
            raise FrontierError(f"link {link} is {self.state(link)}, not in the pool")
        self._leave(link)
        self._pinned[link] = pin
        self._enqueue(link)

    def is_pinned(self, link: int) -> bool:
        return bool(self._pinned[link])

    def visited(self, link: int, page: int | None) -> None:
        """A taken link was fetched: `page` is its page id, or None when the fetch failed."""
        self._require(link, TAKEN, "marked visited")
        self._state[link] = VISITED
        if page is not None:
            self._page[link] = page

    def claim(self, link: int, page: int) -> None:
        """`link` was downloaded under another URL (a redirect's target): visited with `page`,
        so a later direct link to it is not fetched again. A link in flight is left alone."""
        state = self._state[link]
        if state in _UNVISITED:
            self._leave(link)
            self._pinned[link] = False
        elif state != NEW:
            return
        self._state[link] = VISITED
        self._page[link] = page

    # ---- re-scoring --------------------------------------------------------------

    def set_pagerank(self, ranks: np.ndarray) -> None:
        """New PageRank (mean-1 form, by page id): re-score every unvisited link at once."""
        collecting = gc.isenabled()
        gc.disable()  # a million new tuples would set off full collections, for nothing
        try:
            self._rescore(ranks)
        finally:
            if collecting:
                gc.enable()

    def _rescore(self, ranks: np.ndarray) -> None:
        self._pr, self._pr_unsolved = pagerank_term(ranks, self.pagerank_scale)
        n = self._size
        self._sum_pr[:n] = self.edges.sum_by_link(self._pr, self._pr_unsolved, n)
        candidates = np.isin(self._state[:n], _UNVISITED)
        scored = candidates & (self._parents[:n] > 0)
        self._prio[:n][scored] = priority(self._sum_pr[:n][scored], self._sum_r[:n][scored],
                                          self._parents[:n][scored], self._anchor[:n][scored],
                                          self.r)  # fmt: skip
        self._partition(candidates)

    def set_beta(self, beta: float) -> None:
        """A new β (the crawl's α moved, crawl/core.py): every unvisited link admitted anew."""
        self.beta = beta
        self._partition(np.isin(self._state[: self._size], _UNVISITED))

    def _partition(self, candidates: np.ndarray) -> None:
        """Q_wait: the `candidates` with P > β (or pinned); the pool: the best of the rest."""
        prio, pinned = self._prio[: self._size], self._pinned[: self._size]
        queue = candidates if self.beta is None else candidates & ((prio > self.beta) | pinned)
        rest = np.flatnonzero(candidates & ~queue)
        rest = rest[np.lexsort((rest, -prio[rest]))]
        pool, dropped = rest[: self.discard_keep], rest[self.discard_keep :]
        self._rebuild(np.flatnonzero(queue), pool, dropped)

    # ---- internals ---------------------------------------------------------------

    def _pr_of(self, page: int) -> float:
        return float(self._pr[page]) if page < len(self._pr) else self._pr_unsolved

    def _require(self, link: int, state: int, verb: str) -> None:
        if self._state[link] != state:
            raise FrontierError(f"link {link} is {self.state(link)}, it cannot be {verb}")

    def _enter(self, link: int) -> None:
        """A scored, unplaced link goes to Q_wait or the pool by its P."""
        if self.beta is None or self._prio[link] > self.beta:
            self._enqueue(link)
        else:
            self._to_pool(link)

    def _reprioritise(self, link: int, p: float) -> None:
        state = self._state[link]
        queue = self.beta is None or p > self.beta or bool(self._pinned[link])
        if state == QUEUED and queue:
            self._prio[link] = p
            heapq.heappush(self._heap, (-p, link))
            self._by_host.push(-p, link, int(self._host[link]))
            self._compact()
        elif state == POOL and not queue:
            self._prio[link] = p
            self._push_pool(link)
        else:
            self._leave(link)
            self._prio[link] = p
            self._enter(link)

    def _enqueue(self, link: int) -> None:
        self._state[link] = QUEUED
        heapq.heappush(self._heap, (-float(self._prio[link]), link))
        heapq.heappush(self._fifo, link)
        self._queue[self._queued] = link
        self._qpos[link] = self._queued
        self._queued += 1
        host = int(self._host[link])
        if self._host_queued[host] == 0:
            self._queued_hosts += 1
        self._host_queued[host] += 1
        self._by_host.push(-float(self._prio[link]), link, host)
        self._compact()

    def _live(self, link: int, key: float, state: int) -> bool:
        """An index entry (−P, link) still holds: the link is in `state` with that P."""
        return self._state[link] == state and self._prio[link] == -key

    def _to_pool(self, link: int) -> None:
        self._state[link] = POOL
        self._pool_size += 1
        self._push_pool(link)
        while self._pool_size > self.discard_keep:
            p, negative_link = heapq.heappop(self._pool_min)
            evicted = -negative_link
            if self._state[evicted] == POOL and self._prio[evicted] == p:
                self._state[evicted] = DROPPED
                self._pool_size -= 1

    def _push_pool(self, link: int) -> None:
        p = float(self._prio[link])
        host = int(self._host[link])
        heapq.heappush(self._pool_min, (p, -link))
        self._pool_by_host.push(-p, link, host)
        self._compact()

    def _leave(self, link: int) -> None:
        state = self._state[link]
        if state == QUEUED:
            last = int(self._queue[self._queued - 1])
            pos = int(self._qpos[link])
            self._queue[pos] = last
            self._qpos[last] = pos
            self._qpos[link] = -1
            self._queued -= 1
            host = int(self._host[link])
            self._host_queued[host] -= 1
            if self._host_queued[host] == 0:
                self._queued_hosts -= 1
        elif state == POOL:
            self._pool_size -= 1
        self._state[link] = NEW

    def _compact(self) -> None:
        """Drop stale heap entries once they outnumber live ones (amortised O(1))."""
        if len(self._heap) > 2 * self._queued + 1024:
            state, prio = self._state, self._prio
            self._heap = [
                (key, link)
                for key, link in self._heap
                if state[link] == QUEUED and prio[link] == -key
            ]
            heapq.heapify(self._heap)
        if len(self._by_host) > 2 * self._queued + 1024:
            self._index_by_host(self._by_host, np.flatnonzero(self._state[: self._size] == QUEUED))
        if len(self._fifo) > 2 * self._queued + 1024:
            self._fifo = [link for link in self._fifo if self._state[link] == QUEUED]
            heapq.heapify(self._fifo)
        if len(self._pool_min) > 2 * self._pool_size + 1024:
            pool = np.flatnonzero(self._state[: self._size] == POOL)
            self._rebuild_pool(pool[np.lexsort((pool, -self._prio[pool]))])

    def _rebuild(self, queue: np.ndarray, pool: np.ndarray, dropped: np.ndarray) -> None:
        """Indexes from sorted arrays: a sorted list is already a heap."""
        n = self._size
        state, prio, host = self._state[:n], self._prio[:n], self._host[:n]
        state[np.isin(state, _UNVISITED)] = NEW
        state[queue] = QUEUED
        state[pool] = POOL
        state[dropped] = DROPPED
        # Q_wait: best-P heap, discovery-order heap, random-draw array, hosts
        order = queue[np.lexsort((queue, -prio[queue]))]
        self._heap = list(zip((-prio[order]).tolist(), order.tolist(), strict=True))
        self._fifo = queue.tolist()
        self._queued = len(queue)
        self._queue[: len(queue)] = queue
        self._qpos[:n] = -1
        self._qpos[queue] = np.arange(len(queue))
        counts = np.bincount(host[queue], minlength=len(self._hosts))
        self._host_queued = counts.tolist()
        self._queued_hosts = int(np.count_nonzero(counts))
        self._index_by_host(self._by_host, queue)
        self._rebuild_pool(pool)

    def _index_by_host(self, index: HostHeaps, links: np.ndarray) -> None:
        """Rebuild a by-host index from its links: sorted by host, then P (best first), then id."""
        prio, host = self._prio, self._host
        ordered = links[np.lexsort((links, -prio[links], host[links]))]
        index.rebuild(-prio[ordered], ordered, host[ordered])

    def _rebuild_pool(self, pool: np.ndarray) -> None:
        """The pool's indexes from its links: evict-lowest, and by host."""
        prio = self._prio
        self._pool_size = len(pool)
        self._pool_min = list(zip(prio[pool[::-1]].tolist(), (-pool[::-1]).tolist(), strict=True))
        heapq.heapify(self._pool_min)
        self._index_by_host(self._pool_by_host, pool)

    # the per-link columns and what a new slot holds
    _LINK_COLUMNS = (("_prio", 0), ("_state", NEW), ("_host", 0), ("_parents", 0), ("_sum_r", 0),
                     ("_sum_pr", 0), ("_anchor", 0), ("_page", -1), ("_qpos", -1),
                     ("_queue", 0), ("_pinned", False))  # fmt: skip

    def _grow_links(self) -> None:
        """Amortised doubling, one column at a time."""
        for name, fill in self._LINK_COLUMNS:
            setattr(self, name, doubled(getattr(self, name), fill))
