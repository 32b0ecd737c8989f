"""Weighted anchor evidence (SPEC §4.3 turn 2): merged frequencies into BM25, by hand."""

from __future__ import annotations

import numpy as np
import pytest

from kgcrawl.scoring.anchors import AnchorScorer, CorpusStats
from kgcrawl.scoring.evidence import combine, source_weights


def test_source_weights_zero_what_is_not_in_the_evidence() -> None:
    assert source_weights(["anchor"], (1.0, 0.5, 0.3)) == (1.0, 0.0, 0.0)
    assert source_weights(["context", "url"], (1.0, 0.5, 0.3)) == (0.0, 0.5, 0.3)


def test_anchor_only_evidence_is_the_anchor_count() -> None:
    anchor, url, context = {0: 2, 2: 1}, {1: 3}, {0: 5}
    assert combine([anchor, url, context], source_weights(["anchor"], (1.0, 0.5, 0.3))) == anchor


def test_url_and_context_evidence_by_hand() -> None:
    # W_T = (1, 0.5); N = 2 pages of 100 tokens each, word 0 on one of them, word 1 on none.
    stats = CorpusStats.empty(2)
    stats.add_page(np.array([True, False]), 100)
    stats.add_page(np.array([False, False]), 100)
    scorer = AnchorScorer(np.array([1.0, 0.5]), stats)
    # anchor "GEOG 341" names nothing; the URL names word 0 once, the context word 1 twice
    f = combine([{}, {0: 1}, {1: 2}], (1.0, 0.5, 0.25))
    assert f == {0: 0.5, 1: 0.5}
    # BM25 term at dl = avgdl: f·3 / (f + 2) = 1.5 / 2.5 = 0.6 for both words;
    # IDF_0 = ln(2/1 + 0.01), IDF_1 = ln(2/1 + 0.01) (N_1 = 0 counts as 1): W_A ∥ (1, 1),
    # R(A) = cos((1, 0.5), (1, 1)) = 1.5 / (√1.25 · √2) = 0.948683
    r_link, r_edge = scorer.add_anchor(7, f, 100)
    assert r_link == pytest.approx(0.948683, abs=1e-6) and r_edge == pytest.approx(r_link)
    # the anchor alone (the paper) gives this link nothing
    assert scorer.add_anchor(8, combine([{}, {0: 1}, {1: 2}], (1.0, 0.0, 0.0)), 100) == (0.0, 0.0)
