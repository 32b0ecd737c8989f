"""Comprehensive priority P(l) of an unvisited link (Eq. 9 of the FCITS_OH paper, SPEC §4.5).

P(l) = r1·mean_j PR'(p_j) + r2·mean_j R(p_j) + r3·R(A_l) over the m parents p_j
of l, where PR' is the parents' PageRank put on a scale in [0, 1]
(`pagerank_term`). **Interpretation** (SPEC §4.5): with several parents the PR
term is a mean, like the R term. The means come from running sums, so the
frontier keeps three numbers per link and re-scores every link at once with the
same function on arrays.

**Interpretation (turn 2): r = (0, 5/9, 4/9), the PR term off.** The paper's
r = (0.55, 0.25, 0.20) with PR / max PR made P a hub indicator and starved the
frontier. An ablation over the sandbox profiles (benchmarks/bench_pagerank_scale.py:
3 000 pages, one worker, seed 0, calibrated α and β; true harvest at 1 000 pages)
put every scale of the PR term below no PR term at all, for every focused strategy
that ranks by P, on every world:

| world | strategy | percentile | mean | log | max (paper) | r1 = 0 |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
| default tourism | ops | 83.8 % | 74.2 % | 63.6 % | 68.1 % | 95.0 % |
| default rainstorm | ops | 74.0 % | 75.4 % | 70.3 % | 73.7 % | 94.3 % |
| default tourism | fcits_oh | 84.9 % | 79.9 % | 75.8 % | 76.5 % | 95.1 % |
| default rainstorm | fcits_oh | 77.5 % | 82.3 % | 76.2 % | 77.6 % | 94.1 % |
| flat tourism | ops | 69.7 % | 43.6 % | 48.5 % | 76.6 % | 91.7 % |
| flat rainstorm | ops | 79.9 % | 63.2 % | 65.7 % | 81.0 % | 94.2 % |
| flat tourism | fcits_oh | 79.1 % | 60.7 % | 57.2 % | 65.4 % | 91.8 % |

(FCOSA_LG, which ranks by its own filters, moved less than 1 point: 92.5–92.7 %.)
PageRank measures how linked a page is, not whether it is on the topic: with 55 % of
the weight it ranks a hub's off-topic links above a relevant page's. So the shipped
pipelines set r1 = 0 and keep r2 : r3 in the paper's ratio (0.25 : 0.20 = 5 : 4).
When r1 > 0 (`relevance.r`), `relevance.pagerank_scale` says how PR enters:
`percentile` (the default: the best scale above) keeps a median page at 0.5 and lets
no hub rescale the others; `max` is the paper's reading, for reproducing it.

>>> round(priority(1.5, 1.2, 2, 0.6), 4)   # PR' (1.0, 0.5), R (0.8, 0.4), R(A) 0.6
0.6825
"""

from __future__ import annotations

import numpy as np

DEFAULT_R = (0.55, 0.25, 0.20)
PAGERANK_SCALES = ("percentile", "mean", "log", "max")


def priority(
    sum_pr: float | np.ndarray,
    sum_r: float | np.ndarray,
    parents: int | np.ndarray,
    anchor_relevance: float | np.ndarray,
    r: tuple[float, float, float] = DEFAULT_R,
) -> float | np.ndarray:
    """r1·(Σ PR')/m + r2·(Σ R)/m + r3·R(A_l), for one link or arrays of links.  # Eq. 9"""
    return r[0] * (sum_pr / parents) + r[1] * (sum_r / parents) + r[2] * anchor_relevance


def pagerank_term(ranks: np.ndarray, scale: str = "percentile") -> tuple[np.ndarray, float]:
    """PR of each downloaded page on Eq. 9's scale, and the value of a page not yet solved.

    `ranks` are in the mean-1 form of scoring/pagerank.py; a page downloaded since
    the last solve counts as rank 1 (the mean). Scales (SPEC §4.5 turn 2):
    `percentile` — the share of pages ranked below (ties count half);
    `mean` — PR / (PR + mean PR); `log` — log(1 + PR) / log(1 + max PR);
    `max` — PR / max PR, the paper's reading, which leaves a median page ≈ 0.03.

    >>> ranks = np.array([0.5, 1.0, 1.0, 1.5])
    >>> terms, unsolved = pagerank_term(ranks, "percentile")
    >>> terms.tolist(), unsolved
    ([0.125, 0.5, 0.5, 0.875], 0.5)
    >>> pagerank_term(ranks, "max")[0].tolist()
    [0.3333333333333333, 0.6666666666666666, 0.6666666666666666, 1.0]
    """
    ranks = np.asarray(ranks, dtype=np.float64)
    if not len(ranks):  # before the first solve every page counts as rank 1
        return ranks.copy(), pagerank_term(np.ones(1), scale)[1]
    if scale == "percentile":
        ordered = np.sort(ranks)
        n = len(ordered)

        def share(values: np.ndarray) -> np.ndarray:
            below = np.searchsorted(ordered, values, "left")
            upto = np.searchsorted(ordered, values, "right")
            return (below + upto) / (2 * n)

        return share(ranks), float(share(np.array([1.0]))[0])
    if scale == "mean":
        mean = float(ranks.mean())
        return ranks / (ranks + mean), 1.0 / (1.0 + mean)
    peak = float(ranks.max())
    if scale == "log":
        return np.log1p(ranks) / np.log1p(peak), float(np.log1p(1.0) / np.log1p(peak))
    if scale == "max":
        return ranks / peak, 1.0 / peak
    raise ValueError(f"unknown PageRank scale {scale!r} (known: {', '.join(PAGERANK_SCALES)})")
