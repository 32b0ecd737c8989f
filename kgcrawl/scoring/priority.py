"""Comprehensive priority P(l) of an unvisited link (Eq. 9 of the FCITS_OH paper, SPEC §4.5).

P(l) = r1·mean_j PR'(p_j) + r2·mean_j R(p_j) + r3·R(A_l) over the m parents p_j
of l, where PR' is the parents' PageRank put on a scale in [0, 1]
(`pagerank_term`). **Interpretation** (SPEC §4.5): with several parents the PR
term is a mean, like the R term. The means come from running sums, so the
frontier keeps three numbers per link and re-scores every link at once with the
same function on arrays.

**Interpretation (turn 2): r = (0.1, 0.5, 0.4), PR as a percentile.** The paper's
r = (0.55, 0.25, 0.20) with PR / max PR made P a hub indicator and starved the
frontier. Two ablations over the sandbox profiles chose the scale and the weights
(benchmarks/bench_pagerank_scale.py; one worker, seed 0, calibrated α and β; true
harvest at 1 000 pages). First every candidate scale at the paper's r, 3 000 pages
(fcits_oh before its turn-2 rework):

| world | strategy | percentile | mean | log | max (paper) | r1 = 0 |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
| default tourism | ops | 83.8 % | 74.2 % | 63.6 % | 68.1 % | 95.0 % |
| default rainstorm | ops | 74.0 % | 75.4 % | 70.3 % | 73.7 % | 94.3 % |
| flat tourism | ops | 69.7 % | 43.6 % | 48.5 % | 76.6 % | 91.7 % |
| flat rainstorm | ops | 79.9 % | 63.2 % | 65.7 % | 81.0 % | 94.2 % |
| sparse tourism | ops | 30.4 % | 40.2 % | 43.6 % | 48.9 % | 35.0 % |
| sparse rainstorm | ops | 33.5 % | 40.2 % | 46.1 % | 57.3 % | 0.0 % |
| mean of six (ops) | | 61.9 % | 56.1 % | 56.3 % | 67.6 % | 68.4 % |
| mean of six (fcits_oh) | | 45.9 % | 36.6 % | 43.2 % | 58.9 % | 51.4 % |

With 55 % of the weight any scale of PageRank — how linked a page is, not whether
it is on the topic — ranks a hub's off-topic links above a relevant page's; with no
PR term the crawl cannot find the sparse web's relevant departments, which sit
behind hub pages whose anchors name no topic word. So a small PR weight, with the
rest split 5 : 4 like the paper's r2 : r3 (1 000 pages, every strategy reworked):

| r1, scale | ops mean | ops worst | fcits_oh mean | fcits_oh worst |
| --- | ---: | ---: | ---: | ---: |
| 0 | 81.2 % | 44.9 % | 80.8 % | 46.5 % |
| 0.1, percentile | 82.5 % | 57.0 % | 80.5 % | 48.2 % |
| 0.25, percentile | 80.7 % | 52.6 % | 80.2 % | 52.8 % |
| 0.1, max | 83.8 % | 62.8 % | 82.3 % | 57.7 % |
| 0.25, max | 81.6 % | 64.7 % | 76.0 % | 53.9 % |

(worst = the lowest of the six profile × domain crawls, always a sparse one). The
percentile keeps the spec's requirements — a median page at 0.5, no hub rescaling
the others — where `max` does not; at r1 = 0.1 it is within 1.3 points of `max` on
the mean and 12 points above r1 = 0 in the worst case, so the shipped pipelines use
r = (0.1, 0.5, 0.4) with `pagerank_scale = "percentile"`. `max` with the paper's r
reproduces the paper (`--set relevance.pagerank_scale=max --set relevance.r=…`).

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
