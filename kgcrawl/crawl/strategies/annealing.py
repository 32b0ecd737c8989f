"""FCSA: simulated-annealing selection (SPEC §5.4)."""

from __future__ import annotations

import math

from kgcrawl.crawl.frontier import Frontier

from kgcrawl.crawl.strategies.base import Strategy


class SimulatedAnnealing(Strategy):
    """Best link h against a uniform draw g: g wins if better, or with exp((P(g) − P(h)) / T)."""

    name = "fcsa"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.temperature = self.settings.tabu.sa_t0

    def select(self, frontier: Frontier) -> int | None:
        best = frontier.best()
        if best is None:
            return None
        drawn = frontier.random_queued(self.rng)
        gap = frontier.priority(drawn) - frontier.priority(best)
        accept = gap >= 0 or self.rng.random() < math.exp(gap / self.temperature)
        tabu = self.settings.tabu
        self.temperature = max(tabu.sa_floor, self.temperature * tabu.sa_cooling)
        link = drawn if accept else best
        frontier.take(link)
        return link
