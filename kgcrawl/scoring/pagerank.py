"""Topic PageRank over the downloaded pages (Eq. 8 normalised, SPEC §4.4).

PR(p) = (1 − d) + d · Σ_{q→p} PR(q) · w_{q→p},
w_{q→p} = (1 + ω·R(A_{q→p})) / Σ_{q→x} (1 + ω·R(A_{q→x})).

**Interpretation** (SPEC §4.4): the weights are normalised per source page, so
rank cannot grow without bound; with every R = 0 this is Eq. 7. A page with no
out-link to a downloaded page hands its rank to every page alike (the usual
treatment of dangling pages, as networkx does), so ranks sum to the number of
pages and average 1: `PR · n` of networkx's normalised form. Solved by sparse
power iteration (scipy CSR), warm-started from the previous solution.

>>> graph = PageRankGraph()
>>> a, b = graph.add_page(), graph.add_page()
>>> graph.add_edges([a, b], [b, a], [0.0, 0.0])
>>> graph.solve().ranks.tolist()
[1.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PageRankResult:
    """Ranks by page id (mean 1), and the iterations the solve took."""

    ranks: np.ndarray
    iterations: int
    converged: bool


def topic_pagerank(
    pages: int,
    src: np.ndarray,
    dst: np.ndarray,
    anchor_relevance: np.ndarray,
    damping: float = 0.85,
    omega: float = 0.6,
    start: np.ndarray | None = None,
    tol: float = 1e-10,
    max_iter: int = 1000,
) -> PageRankResult:
    """Power iteration of Eq. 8 (normalised) until the mean change per page is below `tol`."""
    from scipy import sparse

    if pages == 0:
        return PageRankResult(np.zeros(0), 0, True)
    weight = 1.0 + omega * np.asarray(anchor_relevance, dtype=np.float64)  # Eq. 8
    out_total = np.bincount(src, weights=weight, minlength=pages)
    dangling = out_total == 0
    share = weight / out_total[src]
    matrix = sparse.csr_matrix((share, (dst, src)), shape=(pages, pages))
    x = np.ones(pages) if start is None else np.asarray(start, dtype=np.float64).copy()
    for iteration in range(1, max_iter + 1):
        spread = x[dangling].sum() / pages
        new = (1 - damping) + damping * (matrix @ x + spread)
        change = np.abs(new - x).sum() / pages
        x = new
        if change < tol:
            return PageRankResult(x, iteration, True)
    return PageRankResult(x, max_iter, False)


def normalised(ranks: np.ndarray) -> np.ndarray:
    """PR divided by its current maximum, as Eq. 9 uses it (SPEC §4.4)."""
    peak = ranks.max() if len(ranks) else 0.0
    return ranks / peak if peak > 0 else ranks.copy()


class PageRankGraph:
    """The link graph of downloaded pages, grown by appending; solves warm-start.

    Page ids are 0, 1, 2, … in the order pages are added. Edges live in
    amortised-doubling arrays, so adding one costs O(1); the sparse matrix is
    built at each solve (≈ 10 ms for 300 000 links).
    """

    def __init__(self) -> None:
        self.pages = 0
        self.edges = 0
        self._src = np.zeros(1024, dtype=np.int32)
        self._dst = np.zeros(1024, dtype=np.int32)
        self._relevance = np.zeros(1024, dtype=np.float64)
        self._last: np.ndarray | None = None

    def add_page(self) -> int:
        self.pages += 1
        return self.pages - 1

    def add_edges(
        self,
        src: Sequence[int] | np.ndarray,
        dst: Sequence[int] | int | np.ndarray,
        anchor_relevance: Sequence[float] | np.ndarray,
    ) -> None:
        """Links src → dst between downloaded pages, with R(A) of each link's anchor."""
        src = np.asarray(src, dtype=np.int32)
        count = len(src)
        if count == 0:
            return
        end = self.edges + count
        if end > len(self._src):
            size = max(end, 2 * len(self._src))
            self._src = _resized(self._src, size)
            self._dst = _resized(self._dst, size)
            self._relevance = _resized(self._relevance, size)
        self._src[self.edges : end] = src
        self._dst[self.edges : end] = dst
        self._relevance[self.edges : end] = anchor_relevance
        self.edges = end

    def solve(
        self, damping: float = 0.85, omega: float = 0.6, tol: float = 1e-10, warm: bool = True
    ) -> PageRankResult:
        """Ranks of every page so far, started from the last solution (new pages at 1)."""
        start = None
        if warm and self._last is not None:
            start = np.ones(self.pages)
            start[: len(self._last)] = self._last
        result = topic_pagerank(
            self.pages,
            self._src[: self.edges],
            self._dst[: self.edges],
            self._relevance[: self.edges],
            damping,
            omega,
            start,
            tol,
        )
        self._last = result.ranks
        return result


def _resized(array: np.ndarray, size: int) -> np.ndarray:
    grown = np.zeros(size, dtype=array.dtype)
    grown[: len(array)] = array
    return grown
