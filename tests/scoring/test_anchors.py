"""Anchor BM25 and R(A_l) (Eq. 5–6): hand-computed examples and running statistics."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kgcrawl.scoring.anchors import AnchorScorer, CorpusStats, bm25_tf, idf

W_T = np.array([1.0, 0.5, 0.25])


def stats_of_four_pages() -> CorpusStats:
    # N = 4 pages of 50, 100, 150, 100 tokens → avgdl = 100; N_i = (2, 1, 0)
    stats = CorpusStats.empty(3)
    for present, length in [([1, 1, 0], 50), ([1, 0, 0], 100), ([0, 0, 0], 150), ([0, 0, 0], 100)]:
        stats.add_page(np.array(present, dtype=bool), length)
    return stats


def test_corpus_statistics() -> None:
    stats = stats_of_four_pages()
    assert (stats.pages, stats.avgdl, stats.doc_freq.tolist()) == (4, 100.0, [2, 1, 0])
    assert CorpusStats.empty(3).avgdl == 0.0


def test_idf_and_the_bm25_term() -> None:
    # IDF = ln(N / max(N_i, 1) + 0.01): ln(2.01), ln(4.01), and ln(4.01) for an unseen word
    assert [idf(4, n) for n in (2, 1, 0)] == pytest.approx([0.698135, 1.388791, 1.388791], abs=1e-6)
    # f = 1, dl = avgdl: 1·3 / (1 + 2·(0.25 + 0.75)) = 1
    assert bm25_tf(1, 100, 100) == pytest.approx(1.0)
    # f = 2, dl = 2·avgdl: 2·3 / (2 + 2·(0.25 + 1.5)) = 6 / 5.5
    assert bm25_tf(2, 200, 100) == pytest.approx(6 / 5.5)
    assert bm25_tf(1, 0, 0.0) == pytest.approx(1.0)  # no lengths yet: dl/avgdl taken as 1


def test_eq5_and_eq6_by_hand_with_two_parents() -> None:
    scorer = AnchorScorer(W_T, stats_of_four_pages())
    # parent 1: dl = 100, anchor has word 0 once        → term_0 = 3 / 3 = 1
    first = scorer.add_anchor(7, {0: 1}, dl=100)
    # alone: W_A = (ln 2.01 · 1, 0, 0) → cos = 1 / ‖W_T‖ = 1 / 1.145644 = 0.872872
    assert first == pytest.approx((0.872872, 0.872872), abs=1e-6)
    # parent 2: dl = 200, word 0 once, word 1 twice     → 1 − b + b·2 = 1.75, k·1.75 = 3.5
    #   term_0 = 3 / 4.5 = 0.666667, term_1 = 6 / 5.5 = 1.090909
    # W_A = (0.698135 · 1.666667, 1.388791 · 1.090909, 0) = (1.163558, 1.515045, 0)
    # W_T·W_A = 1.163558 + 0.5 · 1.515045 = 1.921080; ‖W_A‖ = 1.910295
    # R(A_l) = 1.921080 / (1.145644 · 1.910295) = 0.877800
    # this anchor alone: W_A = (0.465423, 1.515045, 0) → cos = 0.673518
    link_relevance, edge_relevance = scorer.add_anchor(7, {0: 1, 1: 2}, dl=200)
    assert link_relevance == pytest.approx(0.877800, abs=1e-6)
    assert edge_relevance == pytest.approx(0.673518, abs=1e-6)


def test_an_anchor_without_topic_words() -> None:
    scorer = AnchorScorer(W_T, stats_of_four_pages())
    assert scorer.add_anchor(1, {}, dl=100) == (0.0, 0.0)
    scorer.add_anchor(1, {0: 1}, dl=100)
    # a later empty anchor adds nothing to the link and weighs its own edge 0
    assert scorer.add_anchor(1, {}, dl=100) == pytest.approx((0.872872, 0.0), abs=1e-6)
    assert 2 not in scorer.sums


def test_idf_is_applied_from_the_current_statistics() -> None:
    stats = stats_of_four_pages()
    scorer = AnchorScorer(W_T, stats)
    scorer.add_anchor(3, {0: 1, 1: 1}, dl=100)
    before = scorer.relevance(scorer.sums[3])
    # word 1 becomes common: its IDF falls from ln 4.01 to ln(5/2 + 0.01), word 0's rises
    stats.add_page(np.array([0, 1, 0], dtype=bool), 100)
    w0, w1 = math.log(5 / 2 + 0.01), math.log(5 / 2 + 0.01)
    expected = (w0 + 0.5 * w1) / (math.hypot(w0, w1) * math.sqrt(1.3125))
    assert scorer.relevance(scorer.sums[3]) == pytest.approx(expected)
    assert scorer.relevance(scorer.sums[3]) != pytest.approx(before)
