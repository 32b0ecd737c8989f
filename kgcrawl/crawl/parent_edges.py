"""Which downloaded page contains which link: the crawl's parent edges (SPEC §4.5, §5.7).

An edge is link ← page, with the R(A) of that page's anchor for the link. The
frontier reads them for Eq. 9's Σ PR(p_j) over a link's parents; the crawl for the
PageRank in-edges of a page it downloads; ITS for E(Plink), the page a link was
first found on, and the links of a page. Links and pages are the frontier's ids.

>>> edges = ParentEdges()
>>> edges.add(link=7, page=0, anchor_relevance=0.5)
>>> edges.add(link=7, page=2, anchor_relevance=0.0)
>>> edges.in_links(7), edges.first_parent(7), edges.children(2)
(([0, 2], [0.5, 0.0]), 0, [7])
>>> float(edges.sum_by_link(np.array([0.1, 0.2]), unsolved=1.0, links=8)[7])  # 0.1 + 1.0
1.1
"""

from __future__ import annotations

from array import array

import numpy as np


class ParentEdges:
    """Edges in numpy columns, in the order found; a page's links as an int64 array each."""

    def __init__(self) -> None:
        self._count = 0
        self._link = np.zeros(1024, dtype=np.int32)
        self._page = np.zeros(1024, dtype=np.int32)
        self._anchor = np.zeros(1024)
        self._first = np.full(1024, -1, dtype=np.int64)  # by link: its first edge
        self._more: dict[int, list[int]] = {}  # by link: its later edges
        # by page: its links, as found; int64, so numpy reads one in place (`child_ids`)
        self._children: list[array] = []

    def __len__(self) -> int:
        return self._count

    def add(self, link: int, page: int, anchor_relevance: float) -> None:
        """Downloaded `page` contains `link`, whose anchor there has R(A) `anchor_relevance`."""
        edge = self._count
        if edge == len(self._link):  # amortised doubling, one column at a time
            self._link = doubled(self._link, 0)
            self._page = doubled(self._page, 0)
            self._anchor = doubled(self._anchor, 0)
        self._count += 1
        self._link[edge] = link
        self._page[edge] = page
        self._anchor[edge] = anchor_relevance
        while link >= len(self._first):
            self._first = doubled(self._first, -1)
        if self._first[link] < 0:
            self._first[link] = edge
        else:
            self._more.setdefault(link, []).append(edge)
        while len(self._children) <= page:
            self._children.append(array("q"))
        self._children[page].append(link)

    def parents(self, link: int) -> list[int]:
        """The downloaded pages that contain `link`, in the order they were found."""
        return self._page[self._edges_of(link)].tolist()

    def in_links(self, link: int) -> tuple[list[int], list[float]]:
        """(parent pages, R(A) of each one's anchor): the PageRank in-edges of link's page."""
        edges = self._edges_of(link)
        return self._page[edges].tolist(), self._anchor[edges].tolist()

    def first_parent(self, link: int) -> int | None:
        """The page `link` was first found on (ITS's E(Plink)); None for a seed."""
        edges = self._edges_of(link)
        return int(self._page[edges[0]]) if edges else None

    def children(self, page: int) -> list[int]:
        """Every link found on `page`, whatever its state (a repeated link repeats)."""
        return list(self._children[page]) if 0 <= page < len(self._children) else []

    def child_ids(self, page: int) -> np.ndarray:
        """The links of `page` as a read-only view (no copy): do not keep it past the call.

        ITS asks for the links of hubs with thousands of them; a list → array of 5 000
        ids cost 0.08 ms, reading the array in place nothing.
        """
        if not 0 <= page < len(self._children):
            return np.zeros(0, dtype=np.int64)
        return np.frombuffer(self._children[page], np.int64)

    def sum_by_link(self, by_page: np.ndarray, unsolved: float, links: int) -> np.ndarray:
        """Σ over each link's parents of `by_page[page]` (`unsolved` for pages past its end),
        for link ids 0 … links − 1: Eq. 9's Σ PR(p_j) as one `np.bincount`."""
        pages = self._page[: self._count]
        values = np.full(self._count, unsolved)
        solved = pages < len(by_page)
        values[solved] = by_page[pages[solved]]
        return np.bincount(self._link[: self._count], weights=values, minlength=links)

    def _edges_of(self, link: int) -> list[int]:
        first = int(self._first[link]) if link < len(self._first) else -1
        return [] if first < 0 else [first, *self._more.get(link, ())]


def doubled(column: np.ndarray, fill: int) -> np.ndarray:
    """`column` copied into one twice its size, the new half `fill`."""
    return np.concatenate([column, np.full(len(column), fill, dtype=column.dtype)])
