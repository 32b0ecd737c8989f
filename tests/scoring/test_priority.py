"""P(l) (Eq. 9) with several parents, for one link and as array math."""

from __future__ import annotations

import numpy as np
import pytest

from kgcrawl.scoring.priority import priority


def test_eq9_by_hand_with_two_parents() -> None:
    # parents: PR/max PR = 1.0 and 0.5 (mean 0.75), R = 0.8 and 0.4 (mean 0.6); R(A_l) = 0.6
    # P = 0.55·0.75 + 0.25·0.6 + 0.20·0.6 = 0.4125 + 0.15 + 0.12 = 0.6825
    assert priority(1.5, 1.2, 2, 0.6) == pytest.approx(0.6825)


def test_one_parent_and_other_weights() -> None:
    # r = (0.5, 0.3, 0.2): 0.5·0.2 + 0.3·0.9 + 0.2·0 = 0.37
    assert priority(0.2, 0.9, 1, 0.0, (0.5, 0.3, 0.2)) == pytest.approx(0.37)


def test_arrays_give_exactly_the_scalar_results() -> None:
    rng = np.random.default_rng(1)
    sum_pr, sum_r = rng.random(100) * 3, rng.random(100) * 3
    parents, anchor = rng.integers(1, 4, 100), rng.random(100)
    together = priority(sum_pr, sum_r, parents, anchor)
    one_by_one = [
        priority(float(a), float(b), int(c), float(d))
        for a, b, c, d in zip(sum_pr, sum_r, parents, anchor, strict=True)
    ]
    assert together.tolist() == one_by_one  # bit for bit: the frontier relies on it
