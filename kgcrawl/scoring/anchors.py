"""Anchor relevance R(A_l) by BM25 over the anchors of a link's parents (Eq. 5–6, SPEC §4.3).

w_{a_i} = IDF_i · Σ_j f_{i,j}(k+1) / (f_{i,j} + k(1 − b + b·dl_j/avgdl)), with
IDF_i = ln(N / max(N_i, 1) + 0.01) over the pages downloaded so far, and
R(A_l) = cos(W_T, W_A).

**Interpretation**: a crawl scores a link when a parent is downloaded, and N,
N_i and avgdl grow as it goes. Each parent's BM25 term is taken with avgdl as it
was when that parent was downloaded and kept as a running sum per link; IDF is
applied afresh from the current statistics every time the link is scored. So
adding a parent costs O(words in its anchor), not O(parents).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from kgcrawl.scoring.relevance import vector_norm


def idf(pages: int, doc_freq: int) -> float:
    """IDF_i = ln(N / max(N_i, 1) + 0.01).  # Eq. 5

    The C library's ln, not numpy's, which has SIMD code of its own for some CPUs
    (AVX-512), so its last bit may depend on the machine (scoring/relevance.py
    says why the bits matter).
    """
    return math.log(pages / max(doc_freq, 1) + 0.01)


def bm25_tf(f: float, dl: float, avgdl: float, k: float = 2.0, b: float = 0.75) -> float:
    """One parent's term of Eq. 5: f(k+1) / (f + k(1 − b + b·dl/avgdl)); dl/avgdl = 1 at avgdl 0."""
    ratio = dl / avgdl if avgdl > 0 else 1.0
    return f * (k + 1) / (f + k * (1 - b + b * ratio))


@dataclass
class CorpusStats:
    """N (pages downloaded), N_i (pages containing topic word i), total length for avgdl."""

    doc_freq: np.ndarray
    pages: int = 0
    total_length: int = 0
    # IDF_i as the statistics stand, by i: a page's ≈ 21 links ask for the same few words,
    # once per evidence source, ≈ 110 times a page. Remembered here, with W_T as floats
    # (`AnchorScorer`) and no lists of pairs in `EvidenceScorer.add`, folding a 3 000-page
    # run log took ≈ 0.1 ms a page less (0.69–0.89 against 0.80–1.01, 7 interleaved
    # pairs), the same decisions (issue 19)
    _idf: dict[int, float] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def empty(cls, words: int) -> CorpusStats:
        return cls(doc_freq=np.zeros(words, dtype=np.int64))

    def add_page(self, present: np.ndarray, length: int) -> None:
        """Count a downloaded page: `present[i]` when it contains topic word i."""
        self.pages += 1
        self.doc_freq += np.asarray(present, dtype=bool)
        self.total_length += length
        self._idf.clear()

    def idf_of(self, i: int) -> float:
        """`idf` of word i from N and N_i as they are now (Eq. 5), remembered until the next
        page."""
        value = self._idf.get(i)
        if value is None:
            value = self._idf[i] = idf(self.pages, int(self.doc_freq[i]))
        return value

    @property
    def avgdl(self) -> float:
        return self.total_length / self.pages if self.pages else 0.0


@dataclass
class AnchorScorer:
    """Running BM25 sums per link, and R(A) from them (Eq. 5–6).

    Only links whose anchors hold a topic word keep a sum; every other link has
    R(A) = 0. Add a page to `stats` before scoring its links, so N ≥ 1.
    """

    topic_vector: np.ndarray
    stats: CorpusStats
    k: float = 2.0
    b: float = 0.75
    sums: dict[int, dict[int, float]] = field(default_factory=dict)
    topic_norm: float = field(init=False)

    def __post_init__(self) -> None:
        self.topic_norm = vector_norm(self.topic_vector)
        self._weights = self.topic_vector.tolist()  # w_{t_i} as floats: no numpy scalar a term

    def add_anchor(self, link: int, counts: Mapping[int, int], dl: int) -> tuple[float, float]:
        """Add one parent's anchor (topic word → f_{i,j}, parent length dl_j) to `link`.

        Returns (R(A_l) over every parent so far, R(A) of this anchor alone): the
        first goes into P(l) (Eq. 9), the second weighs the edge in PageRank (Eq. 8).
        """
        if not counts:
            sums = self.sums.get(link)
            return (self.relevance(sums) if sums else 0.0), 0.0
        avgdl = self.stats.avgdl
        terms = {i: bm25_tf(f, dl, avgdl, self.k, self.b) for i, f in counts.items()}
        sums = self.sums.setdefault(link, {})
        for i, term in terms.items():
            sums[i] = sums.get(i, 0.0) + term
        return self.relevance(sums), self.relevance(terms)

    def relevance(self, terms: dict[int, float]) -> float:
        """cos(W_T, W_A) with w_{a_i} = IDF_i · terms[i] (zero elsewhere).  # Eq. 6"""
        idf_of, weights = self.stats.idf_of, self._weights
        dot = norm_a = 0.0
        for i, term in terms.items():
            w = idf_of(i) * term
            dot += weights[i] * w
            norm_a += w * w
        norm = math.sqrt(norm_a) * self.topic_norm
        return dot / norm if norm > 0 else 0.0
