"""FCITS_OH: ITS plus a memory of hosts (Algorithm 3 of the paper, SPEC §5.7).

A host that has been visited often and has not proved rich in relevant pages is
put on a host tabu list H2, so the crawl does not circle inside a few hosts; in
the first part of the crawl, links of new hosts are brought back from the
discarded pool while Q_wait spans few hosts. All numbers are settings
(`[tabu]` of the pipeline).
"""

from __future__ import annotations

from collections import Counter

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

    def seed(self, frontier: Frontier, urls: list[str]) -> None:
        """Step 1: every seed with P = 1, at most `seeds_per_host` per host."""
        per_host: Counter[str] = Counter()
        for url in dict.fromkeys(urls):  # a repeated seed is one seed
            host = frontier.host_of_url(url)
            if per_host[host] < self.settings.tabu.seeds_per_host:
                per_host[host] += 1
                frontier.add_seed(url)

    def select(self, frontier: Frontier) -> int | None:
        tabu = self.settings.tabu
        phead = self.its(frontier)  # step 2
        if phead is None:
            return None
        # step 4: a tabu host's link is set aside (put back below) and ITS asked again, as
        # many times as there are hosts in Q_wait; then the best link of a host not tabu
        attempts, rejected = frontier.queued_host_count(), []
        while phead is not None and frontier.host_of(phead) in self.h2:
            if len(rejected) >= attempts:
                phead = None
                break
            frontier.take(phead)
            rejected.append(phead)
            phead = self.its(frontier)
        for link in rejected:
            frontier.put_back(link)
        if phead is None:  # if every host is tabu: the best link
            phead = frontier.best(exclude_hosts=self.h2.terms)
            if phead is None:
                phead = frontier.best()
        host = frontier.host_of(phead)
        counters = self.counters
        if (
            counters.dp / counters.max_pages < tabu.early_fraction
            and frontier.queued_host_count() < tabu.min_hosts
        ):  # step 5
            for link in frontier.pool_best_new_hosts(tabu.inject_links):
                frontier.promote(link)
        visits = self.visits[host]
        if visits >= tabu.host_min_visits:  # step 6
            ratio = self.relevant[host] / visits  # step 7
            if not (visits < tabu.host_max_visits and ratio > tabu.host_min_ratio):
                self.h2.add(host)
                for released in self.h2.tick():
                    self.visits.pop(released, None)
                    self.relevant.pop(released, None)
        self._in_flight[phead] = frontier.priority(phead)
        self._host_of[phead] = host
        frontier.take(phead)  # step 8: download phead
        return phead

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        super().observe(link, page, relevant, relevance)
        host = self._host_of.pop(link, None)
        if host is not None and page is not None:
            self.visits[host] += 1
            self.relevant[host] += int(relevant)
