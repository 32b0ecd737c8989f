"""The two classic baselines: breadth-first (BFS) and best-first (OPS)."""

from __future__ import annotations

from collections.abc import Collection

from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import Strategy


class BreadthFirst(Strategy):
    """BFS: discovery order, and no β filter, so every discovered link waits its turn."""

    name = "bfs"
    uses_beta = False

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        link = frontier.oldest()
        if link is not None:
            frontier.take(link)
        return link


class BestFirst(Strategy):
    """OPS: the highest priority P(l) in Q_wait (Eq. 9)."""

    name = "ops"

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        link = frontier.best()
        if link is not None:
            frontier.take(link)
        return link
