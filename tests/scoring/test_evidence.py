"""Anchor evidence (SPEC §4.3 turn 2): BM25 per source, combined as independent evidence."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kgcrawl.scoring.anchors import AnchorScorer, CorpusStats
from kgcrawl.scoring.evidence import EvidenceScorer, noisy_or, source_weights

W_T = np.array([1.0, 0.5])


def two_pages() -> CorpusStats:
    # N = 2 pages of 100 tokens each, word 0 on one of them, word 1 on none → avgdl = 100
    stats = CorpusStats.empty(2)
    stats.add_page(np.array([True, False]), 100)
    stats.add_page(np.array([False, False]), 100)
    return stats


def test_source_weights_zero_what_is_not_in_the_evidence() -> None:
    assert source_weights(["anchor"], (1.0, 0.5, 0.3)) == (1.0, 0.0, 0.0)
    assert source_weights(["context", "url"], (1.0, 0.5, 0.3)) == (0.0, 0.5, 0.3)


def test_anchor_only_evidence_is_the_papers_r_of_a() -> None:
    paper = AnchorScorer(W_T, two_pages())
    ours = EvidenceScorer(W_T, two_pages(), source_weights(["anchor"], (1.0, 0.5, 0.3)))
    for link, (anchor, url, context) in enumerate(
        [({0: 1}, {1: 2}, {}), ({0: 2, 1: 1}, {}, {1: 1}), ({}, {0: 1}, {0: 3})]
    ):
        assert ours.add(link, (anchor, url, context), 80) == paper.add_anchor(link, anchor, 80)


def test_url_and_context_evidence_by_hand() -> None:
    scorer = EvidenceScorer(W_T, two_pages(), (1.0, 0.5, 0.25))
    # anchor "GEOG 341" names nothing; the URL names word 0 once, the context word 1 once.
    # One word each, so each source's W_A points along its word: R_url = cos(W_T, e_0) =
    # 1 / √1.25 = 0.894427, R_context = cos(W_T, e_1) = 0.5 / √1.25 = 0.447214;
    # R(A) = 1 − (1 − 0.5 · 0.894427)(1 − 0.25 · 0.447214) = 0.509017
    r_link, r_edge = scorer.add(7, ({}, {0: 1}, {1: 1}), 100)
    assert r_link == pytest.approx(0.509017, abs=1e-6) and r_edge == pytest.approx(r_link)
    # the same word in the anchor too: R_anchor = 0.894427, R(A) ≥ the anchor's alone
    r_both, _ = scorer.add(8, ({0: 1}, {0: 1}, {1: 1}), 100)
    assert r_both == pytest.approx(1 - (1 - 0.894427) * (1 - 0.447214) * (1 - 0.111803), abs=1e-6)
    # a second parent: its own evidence alone for the edge; for the link, each source's
    # BM25 sums grow (Eq. 5's Σ_j), here along the same word, which the cosine does not see
    r_again, r_second = scorer.add(7, ({}, {0: 1}, {}), 100)
    assert r_second == pytest.approx(0.5 * 0.894427, abs=1e-6)
    assert r_again == pytest.approx(r_link)
    # a context that names word 0 too turns the context's W_A towards W_T: R(A) rises
    assert scorer.add(7, ({}, {}, {0: 1}), 100)[0] > r_again


def test_noisy_or_stays_in_the_unit_interval_and_grows_with_each_source() -> None:
    assert noisy_or((1.0, 1.0, 1.0), (1.0, 1.0, 1.0)) == 1.0
    assert noisy_or((1.0, 0.5, 0.3), (0.0, 0.0, 0.0)) == 0.0
    low, high = noisy_or((1.0, 0.5), (0.4, 0.0)), noisy_or((1.0, 0.5), (0.4, 0.6))
    assert math.isclose(low, 0.4) and high == pytest.approx(1 - 0.6 * 0.7)
