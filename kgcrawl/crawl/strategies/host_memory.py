"""FCITS_OH: ITS plus a memory of hosts (Algorithm 3 of the paper, SPEC §5.7).

A host that has been visited often and has not proved rich in relevant pages is
put on a host tabu list H2, so the crawl does not circle inside a few hosts; in
the first part of the crawl, links of new hosts are brought back from the
discarded pool while Q_wait spans few hosts. All numbers are settings
(`[tabu]` of the pipeline).

Turn 2 (SPEC §5.7 (a)–(e)), each measured as not acting in the turn-1 reading:
(a) "relevant" is R(p) > the calibrated α; (b) with `host_min_ratio = "auto"`
a host goes on while its relevant share is at least the crawl's running AC
(LP / DP) — the paper's fixed 0.8 with the 100-visit cut cut every host of a
held-out web at exactly 50 visits; (c) H2 also ticks every `host_tick_pages`
pages downloaded, so a tabu host comes back; (d) injected links are pinned in
Q_wait until selected; (e) step 4 retries count hosts: a host's link is set aside
once, a second link of a host already set aside ends the retries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from kgcrawl.config import AUTO
from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.tabu import ImprovedTabu, TabuList


class ImprovedTabuHostMemory(ImprovedTabu):
    """Steps 1–8 of SPEC §5.7 around ITS."""

    name = "fcits_oh"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.h2 = TabuList(self.settings.tabu.host_tenure)
        self.visits: Counter[str] = Counter()
        self.relevant: Counter[str] = Counter()
        self._host_of: dict[int, str] = {}
        self._injected: set[int] = set()

    def seed(self, frontier: Frontier, urls: list[str]) -> None:
        """Step 1: every seed with P = 1, at most `seeds_per_host` per host."""
        per_host: Counter[str] = Counter()
        for url in dict.fromkeys(urls):  # a repeated seed is one seed
            host = frontier.host_of_url(url)
            if per_host[host] < self.settings.tabu.seeds_per_host:
                per_host[host] += 1
                frontier.add_seed(url)

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        phead = self._not_tabu(frontier, self.its(frontier, waiting), waiting)  # steps 2–4
        if phead is None:
            return None
        self._inject(frontier)  # step 5
        host = frontier.host_of(phead)
        if self.h2.tenure and self._poor(host):  # steps 6–7 (host_tenure 0: no H2)
            self.h2.add(host)
            self.events["host tabu"] += 1
            self._tick_h2()
        if phead in self._injected:
            self.events["injected taken"] += 1
        self._in_flight[phead] = frontier.priority(phead)
        self._host_of[phead] = host
        frontier.take(phead)  # step 8: download phead
        return phead

    def _not_tabu(
        self, frontier: Frontier, phead: int | None, waiting: Collection[str]
    ) -> int | None:
        """Step 4: a tabu host's link is set aside and ITS asked again, once per host;
        then the best link of a host neither tabu nor waiting (the best link if none is)."""
        set_aside: list[int] = []
        hosts: set[str] = set()
        while phead is not None and frontier.host_of(phead) in self.h2:
            host = frontier.host_of(phead)
            if host in hosts:
                phead = None
                break
            hosts.add(host)
            self.events["host retry"] += 1
            frontier.take(phead)
            set_aside.append(phead)
            phead = self.its(frontier, waiting)
        for link in set_aside:
            frontier.put_back(link)
        if phead is None and frontier.queued_count():
            phead = frontier.best_outside(self.h2.terms.keys() | waiting)
            if phead is None:
                phead = frontier.best()
        return phead

    def judged_again(self, host: str, relevant: bool) -> None:
        """The host's count of relevant pages follows the new judgement: else, with LP / DP
        now counting the page, a host rich in such pages would look poor (b). A host H2 has
        released since counted its visits afresh, maybe without the page: kept in 0…visits."""
        if host in self.visits:
            count = self.relevant[host] + (1 if relevant else -1)
            self.relevant[host] = min(max(count, 0), self.visits[host])

    def _inject(self, frontier: Frontier) -> None:
        """Step 5: early, with few hosts waiting, the best pool links of new hosts, pinned."""
        tabu, counters = self.settings.tabu, self.counters
        if (
            counters.dp / counters.max_pages < tabu.early_fraction
            and frontier.queued_host_count() < tabu.min_hosts
        ):
            for link in frontier.pool_best_new_hosts(tabu.inject_links):
                frontier.promote(link, pin=True)
                self._injected.add(link)
                self.events["injected"] += 1

    def _poor(self, host: str) -> bool:
        """Steps 6–7: visited enough, and not rich enough in relevant pages to go on."""
        tabu = self.settings.tabu
        visits = self.visits[host]
        if visits < tabu.host_min_visits:
            return False
        ratio = self.relevant[host] / visits
        if tabu.host_min_ratio == AUTO:  # (b): as rich as the crawl so far
            counters = self.counters
            return ratio < (counters.lp / counters.dp if counters.dp else 0.0)
        return not (visits < tabu.host_max_visits and ratio > tabu.host_min_ratio)

    def _tick_h2(self) -> None:
        for released in self.h2.tick():
            self.visits.pop(released, None)
            self.relevant.pop(released, None)
            self.events["host released"] += 1

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        super().observe(link, page, relevant, relevance)
        self._injected.discard(link)
        host = self._host_of.pop(link, None)
        if host is not None and page is not None:
            self.visits[host] += 1
            self.relevant[host] += int(relevant)
            every = self.settings.tabu.host_tick_pages
            if every and self.counters.dp % every == 0:  # (c)
                self._tick_h2()
