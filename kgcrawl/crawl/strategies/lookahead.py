"""Probing: downloading the children of a page before deciding on them (SPEC §5.8).

FCOSA and MOACO judge a link partly by the relevance R(P_u) of the page it
points to, which only a download reveals; as SPEC §5.8 says, that page is
downloaded and counts in DP. A crawler downloads one page per `select`, so a
strategy that "evaluates the children of page P" queues P's children that wait
in Q_wait (P > β, the common loop's admission), highest P first, and hands them
out one per `select`; R(P_u) of each arrives with `observe`. A queued child that
left Q_wait meanwhile (downloaded through another page, re-scored into the
discarded pool) is skipped.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from kgcrawl.crawl.frontier import Frontier


class Probes:
    """Links waiting to be probed, in the order they will be handed out."""

    def __init__(self) -> None:
        self._pending: deque[int] = deque()

    def __len__(self) -> int:
        return len(self._pending)

    def add(self, links: list[int]) -> None:
        self._pending.extend(links)

    def add_children(
        self, frontier: Frontier, page: int, keep: Callable[[int], bool] | None = None
    ) -> int:
        """Queue `page`'s children in Q_wait (those `keep` accepts), highest P first; how many."""
        children = children_by_priority(frontier, page)
        if keep is not None:
            children = [link for link in children if keep(link)]
        self._pending.extend(children)
        return len(children)

    def next(self, frontier: Frontier) -> int | None:
        """The next queued link still in Q_wait (not taken out of it); None when none is left."""
        pending = self._pending
        while pending:
            link = pending.popleft()
            if frontier.is_queued(link):
                return link
        return None


def children_by_priority(frontier: Frontier, page: int) -> list[int]:
    """The links of `page` waiting in Q_wait, highest P first (the older link on a tie)."""
    return sorted(frontier.queued_children(page), key=lambda link: (-frontier.priority(link), link))


def edge_anchor_relevance(frontier: Frontier, link: int, page: int) -> float:
    """R(A) of `link`'s anchor on `page` alone (Eq. 6), 0 if `page` does not contain it."""
    parents, relevances = frontier.edges.in_links(link)
    return max((r for p, r in zip(parents, relevances, strict=True) if p == page), default=0.0)
