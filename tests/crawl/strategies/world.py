"""Small hand-built crawl worlds for strategy tests: a real Frontier, pages made as the engine does.

The frontier scores with r = (0, 0, 1), so Eq. 9 gives P(l) = R(A_l) exactly and a
test writes each link's priority as the anchor relevance of its parent.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from kgcrawl.config import Settings
from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import CrawlCounters, Strategy, strategy_class

P_IS_ANCHOR = (0.0, 0.0, 1.0)


def changed(settings: Settings, section: str, **changes: Any) -> Settings:
    """The settings with some values of one section (`tabu`, `annealing`, …) changed."""
    return replace(settings, **{section: replace(getattr(settings, section), **changes)})


class World:
    """One strategy over a real frontier (β as the crawl sets it for that strategy)."""

    def __init__(
        self,
        name: str,
        settings: Settings,
        seed: int = 0,
        counters: CrawlCounters | None = None,
        discard_keep: int = 1000,
    ) -> None:
        cls = strategy_class(name)
        self.counters = counters or CrawlCounters(max_pages=1_000_000)
        self.rng = random.Random(seed)
        self.strategy: Strategy = cls(settings, self.rng, self.counters)
        self.frontier = Frontier(
            r=P_IS_ANCHOR,
            beta=settings.relevance.beta if cls.uses_beta else None,
            discard_keep=discard_keep,
        )
        self.pages = 0

    def seed(self, url: str, p: float = 1.0) -> int:
        """A link straight into Q_wait with priority p."""
        return self.frontier.add_seed(url, p)

    def link(self, page: int, url: str, p: float) -> int:
        """`page` contains `url` with an anchor that makes P = p."""
        child = self.frontier.intern(url)
        self.frontier.add_parent(child, page, 0.0, p, p)
        return child

    def links(self, page: int, priorities: dict[str, float]) -> list[int]:
        return [self.link(page, url, p) for url, p in priorities.items()]

    def select(self, waiting: set[str] = frozenset()) -> int | None:
        """The strategy's next link; `waiting`: hosts that cannot take a request now."""
        return self.strategy.select(self.frontier, waiting)

    def fetch(self, link: int, relevant: bool = False, failed: bool = False) -> int | None:
        """The engine's fold for a selected (taken) link: a new page, or None; then observe."""
        page = None if failed else self.pages
        if page is not None:
            self.pages += 1
            self.counters.dp += 1
            self.counters.lp += int(relevant)
        self.frontier.visited(link, page)
        self.strategy.observe(link, page, relevant, float(relevant))
        return page

    def step(self, relevant: bool = False) -> int:
        """Select, then fetch the link as a page; returns the link."""
        link = self.select()
        assert link is not None, "Q_wait is empty"
        self.fetch(link, relevant)
        return link

    def url(self, link: int | None) -> str | None:
        return None if link is None else self.frontier.url_of(link)

    def host(self, link: int) -> str:
        return self.frontier.host_of(link)
