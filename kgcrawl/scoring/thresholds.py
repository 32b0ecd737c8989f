"""Thresholds on R(p): how well "R(p) > α" separates two sets of pages, and β from α.

Used twice: calibration (SPEC §4.6) picks α from on-topic and off-topic
documents scored as pages, and the evaluation (§10) says how well a crawl's α
matched a world's truth. β follows from α (`admission_beta`).

>>> best_separation([0.5, 0.6, 0.7], [0.2, 0.45, 0.65]).alpha
0.45
>>> round(admission_beta(0.4, 0.25, 0.9), 4)
0.09
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

GRID = tuple(step / 100 for step in range(100))  # the α tried: 0.00, 0.01, …, 0.99


@dataclass(frozen=True)
class Separation:
    """How well "R(p) > α" picks the truly relevant pages out of those downloaded."""

    alpha: float
    above: int  # pages with R(p) > α
    precision: float | None  # truly relevant among them; None when none is above
    recall: float | None  # of the truly relevant pages; None when there is none

    @property
    def f1(self) -> float:
        p, r = self.precision or 0.0, self.recall or 0.0
        return 2 * p * r / (p + r) if p + r else 0.0


def separation(relevant: Sequence[float], irrelevant: Sequence[float], alpha: float) -> Separation:
    """α as the sandbox's truth sees it, from R(p) of truly relevant and of irrelevant pages."""
    return _separation(sorted(relevant), sorted(irrelevant), alpha)


def best_separation(relevant: Sequence[float], irrelevant: Sequence[float]) -> Separation:
    """The α of 0.00, 0.01, …, 0.99 with the best F1 (the smallest on a tie)."""
    rel, irr = sorted(relevant), sorted(irrelevant)
    candidates = [_separation(rel, irr, alpha) for alpha in GRID]
    return max(candidates, key=lambda s: (s.f1, -s.alpha))


def robust_separation(
    relevant: Sequence[float], irrelevant: Sequence[float], tolerance: float
) -> Separation:
    """The middle α of those whose F1 is within `tolerance` of the best (the median of them).

    Where F1 is flat over a wide range of α (the two sets overlap), its argmax is noise;
    the middle of the near-best range moves least when the pages a crawl meets differ
    from the ones calibrated on.

    >>> robust_separation([0.5, 0.6, 0.7], [0.2, 0.3], 0.0).alpha  # F1 = 1 for α = 0.30 … 0.49
    0.39
    """
    near = near_best(relevant, irrelevant, tolerance)
    return near[(len(near) - 1) // 2]


def nearest_separation(
    relevant: Sequence[float], irrelevant: Sequence[float], tolerance: float, alpha: float
) -> Separation:
    """Of the α whose F1 is within `tolerance` of the best, the one nearest `alpha`.

    Labelled pages correct an α chosen elsewhere only as far as they must: where F1
    is flat (a crawl nearly all relevant) the α stays, where it is not, it moves to
    the nearest end of the near-best range.

    >>> nearest_separation([0.5, 0.6, 0.7], [0.2, 0.3], 0.0, 0.45).alpha  # inside 0.30 … 0.49
    0.45
    >>> nearest_separation([0.5, 0.6, 0.7], [0.2, 0.3], 0.0, 0.55).alpha
    0.49
    """
    return min(near_best(relevant, irrelevant, tolerance), key=lambda s: abs(s.alpha - alpha))


def near_best(
    relevant: Sequence[float], irrelevant: Sequence[float], tolerance: float
) -> list[Separation]:
    """The separations at each α of GRID whose F1 is within `tolerance` of the best: the
    range calibration chooses α in (calibrate.py), and benchmarks/alpha_rules.py too."""
    rel, irr = sorted(relevant), sorted(irrelevant)
    candidates = [_separation(rel, irr, alpha) for alpha in GRID]
    best = max(s.f1 for s in candidates)
    return [s for s in candidates if s.f1 >= best - tolerance - 1e-12]


def precise_separation(
    relevant: Sequence[float], irrelevant: Sequence[float], precision: float
) -> Separation | None:
    """The smallest α of the grid whose precision is at least `precision`; None if none is."""
    rel, irr = sorted(relevant), sorted(irrelevant)
    for alpha in GRID:
        s = _separation(rel, irr, alpha)
        if s.precision is not None and s.precision >= precision:
            return s
    return None


def ranked_above(relevant: Sequence[float], irrelevant: Sequence[float]) -> float:
    """The share of (relevant, irrelevant) pairs in which the relevant page scores higher,
    a tie counting half: the area under the ROC curve of R(p) (Mann–Whitney U / n·m). 0.5
    is chance, below it the off-topic pages score higher; no α separates such pages.

    >>> ranked_above([0.9, 0.8], [0.1, 0.8])  # 0.9 > both, 0.8 > 0.1, 0.8 = 0.8: half
    0.875
    """
    irr = sorted(irrelevant)
    # below r: bisect_left; tied with r: bisect_right − bisect_left, each half a win
    wins = sum(bisect_left(irr, r) + bisect_right(irr, r) for r in relevant) / 2
    return wins / (len(relevant) * len(irr)) if len(relevant) and irr else 1.0


def _separation(relevant: list[float], irrelevant: list[float], alpha: float) -> Separation:
    hits = len(relevant) - bisect_right(relevant, alpha)
    above = hits + len(irrelevant) - bisect_right(irrelevant, alpha)
    return Separation(
        alpha,
        above,
        hits / above if above else None,
        hits / len(relevant) if relevant else None,
    )


def admission_beta(alpha: float, r2: float, margin: float) -> float:
    """β = r2·α·margin: a link on a page just judged relevant is admitted on that alone.

    With no PageRank and no anchor evidence such a link has P = r2·R(p) > r2·α
    (Eq. 9), so any margin below 1 lets it into Q_wait (SPEC §4.6).
    """
    return r2 * alpha * margin
