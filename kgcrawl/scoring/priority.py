"""Comprehensive priority P(l) of an unvisited link (Eq. 9 of the FCITS_OH paper, SPEC §4.5).

P(l) = r1·mean_j PR(p_j) + r2·mean_j R(p_j) + r3·R(A_l) over the m parents p_j
of l, PR divided by its current maximum. **Interpretation** (SPEC §4.5): with
several parents the PR term is a mean, like the R term. The means come from
running sums, so the frontier keeps three numbers per link and re-scores every
link at once with the same function on arrays.

>>> round(priority(1.5, 1.2, 2, 0.6), 4)   # PR (1.0, 0.5), R (0.8, 0.4), R(A) 0.6
0.6825
"""

from __future__ import annotations

import numpy as np

DEFAULT_R = (0.55, 0.25, 0.20)


def priority(
    sum_pr: float | np.ndarray,
    sum_r: float | np.ndarray,
    parents: int | np.ndarray,
    anchor_relevance: float | np.ndarray,
    r: tuple[float, float, float] = DEFAULT_R,
) -> float | np.ndarray:
    """r1·(Σ PR/max PR)/m + r2·(Σ R)/m + r3·R(A_l), for one link or arrays of links.  # Eq. 9"""
    return r[0] * (sum_pr / parents) + r[1] * (sum_r / parents) + r[2] * anchor_relevance
