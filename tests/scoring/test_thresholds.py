"""Thresholds on R(p): separation against two sets of scores, and β from α (hand-computed)."""

import pytest

from kgcrawl.scoring.thresholds import (
    admission_beta,
    best_separation,
    precise_separation,
    robust_separation,
    separation,
)

RELEVANT_R = [0.5, 0.6, 0.7]
IRRELEVANT_R = [0.2, 0.45, 0.65]


def test_separation_counts_pages_strictly_above_alpha():
    # α = 0.55: 0.6, 0.7 (relevant) and 0.65 (not) are above → precision 2/3, recall 2/3
    s = separation(RELEVANT_R, IRRELEVANT_R, 0.55)
    assert (s.above, s.precision, s.recall) == (3, pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert s.f1 == pytest.approx(2 / 3)
    # α = 0.7: nothing is above it (strictly), so no precision and F1 0
    top = separation(RELEVANT_R, IRRELEVANT_R, 0.7)
    assert (top.above, top.precision, top.recall, top.f1) == (0, None, 0.0, 0.0)
    assert separation([], IRRELEVANT_R, 0.3).recall is None


def test_best_separation_is_the_smallest_alpha_of_the_best_f1():
    # 0.45 ≤ α < 0.5 keeps the 3 relevant and 0.65: precision 3/4, recall 1, F1 6/7, the best
    # (F1 is 2/3 below 0.2, 0.75 from 0.2, 2/3 from 0.5, 0.4 from 0.6, 1/2 from 0.65, 0 from 0.7)
    best = best_separation(RELEVANT_R, IRRELEVANT_R)
    assert best.alpha == 0.45
    assert (best.above, best.f1) == (4, pytest.approx(6 / 7))


def test_precise_separation_is_the_smallest_alpha_reaching_the_precision():
    # precision of "R > α": 3/6 below 0.2, 3/5 from 0.2, 3/4 from 0.45, 2/3 from 0.5, 1/2 from
    # 0.6, 1/1 from 0.65, none above from 0.7
    assert precise_separation(RELEVANT_R, IRRELEVANT_R, 0.75).alpha == 0.45
    assert precise_separation(RELEVANT_R, IRRELEVANT_R, 0.6).alpha == 0.2
    assert precise_separation(RELEVANT_R, IRRELEVANT_R, 0.9).alpha == 0.65
    # the best-scored page is irrelevant: no α reaches precision 0.9
    assert precise_separation([0.5], [0.9], 0.9) is None


def test_robust_separation_is_the_middle_of_the_near_best_alphas():
    # F1 by α (see above): 2/3 below 0.2, 0.75 from 0.2, 6/7 from 0.45, 2/3 from 0.5, 0.4 from
    # 0.6, 1/2 from 0.65. Within 0: only 0.45–0.49 (5 values), the middle 0.47; within 0.15:
    # 0.2–0.49 (F1 ≥ 0.707), 30 values, the lower middle 0.34
    assert robust_separation(RELEVANT_R, IRRELEVANT_R, 0.0).alpha == 0.47
    assert robust_separation(RELEVANT_R, IRRELEVANT_R, 0.15).alpha == 0.34


def test_admission_beta_admits_a_link_of_a_page_just_above_alpha():
    alpha, r2, margin = 0.4, 0.25, 0.9
    beta = admission_beta(alpha, r2, margin)
    assert beta == pytest.approx(0.09)
    # Eq. 9 with no PageRank and no anchor evidence, parent R just above α
    assert r2 * (alpha + 1e-9) > beta
