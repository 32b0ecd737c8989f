"""A link's anchor evidence: anchor text, URL words and context, weighted (SPEC §4.3 turn 2).

Each parent j of a link gives three sources of topic words: its anchor text, the
words of the link's URL (`text.url_words`) and the words around the link in its
enclosing block (`text.html.link_context`). Each source s is scored as the
paper scores anchors, BM25 over the parents and the cosine with W_T (Eq. 5–6),
giving R_s(A_l); the sources are then combined as independent evidence with
reliabilities w_s (`anchors.weights`, each in [0, 1]):

    R(A_l) = 1 − Π_s (1 − w_s · R_s(A_l))   over the sources s in `anchors.evidence`.

With `evidence = ["anchor"]` and the anchor's weight 1 this is the paper's R(A_l).

**Interpretation** (the spec says "each counted with its own weight, BM25 as
today"): the first reading, one BM25 over the weighted sum of the sources'
frequencies (BM25F, commit 51e2aff), was measured and dropped. The cosine of Eq. 6 does not
see a vector's length, so a link whose only evidence is one context word (weight
0.3) scored as high as one whose anchor names that word: on the default
sandbox, where anchors already name the topic (72 % of links to relevant pages),
OPS on tourism fell from 95.5 % true harvest @1 000 (anchor only) to 79.8 %
(anchor + URL) and 77.1 % (anchor + context), while it gained on `sparse`
(fcits_oh tourism 52.2 % → 67.6 %). Combined after the cosine, a weight is what
it says: a source with weight 0.3 lifts R(A) by at most 0.3, and a link that
the anchor alone already scores keeps at least that score.
The default, all three at (1.0, 0.5, 0.3), is chosen by the ablation in
benchmarks/bench_anchor_evidence.py (figures there): on the `sparse` web it lifts
fcits_oh's true harvest @1 000 by 18 % (tourism) and 3 % (rainstorm) and OPS's by
13 % and 6 %, and it costs at most 2 % on the default and flat webs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from kgcrawl.scoring.anchors import AnchorScorer, CorpusStats

SOURCES = ("anchor", "url", "context")  # the order of `anchors.weights`


def source_weights(evidence: Sequence[str], weights: Sequence[float]) -> tuple[float, ...]:
    """The weight of each of SOURCES: its `anchors.weights` entry when in `evidence`, else 0."""
    return tuple(w if s in evidence else 0.0 for s, w in zip(SOURCES, weights, strict=True))


def noisy_or(weights: Sequence[float], relevances: Sequence[float]) -> float:
    """R(A) = 1 − Π_s (1 − w_s · R_s): independent evidence with reliabilities w_s.

    >>> noisy_or((1.0, 0.0, 0.0), (0.4, 0.9, 0.9))
    0.4
    >>> round(noisy_or((1.0, 0.5, 0.3), (0.0, 0.8, 0.5)), 6)  # 1 − 0.6 · 0.85
    0.49
    """
    miss = 1.0
    for w, r in zip(weights, relevances, strict=True):
        miss *= 1.0 - w * r
    return 1.0 - miss


@dataclass
class EvidenceScorer:
    """One BM25 scorer (Eq. 5–6) per source with a weight, over the same corpus statistics."""

    topic_vector: np.ndarray
    stats: CorpusStats
    weights: tuple[float, ...]
    k: float = 2.0
    b: float = 0.75
    sums: dict[str, dict[int, dict[int, float]]] = field(default_factory=dict)
    scorers: dict[str, AnchorScorer] = field(init=False)

    def __post_init__(self) -> None:
        self.scorers = {
            s: AnchorScorer(self.topic_vector, self.stats, self.k, self.b, self.sums.get(s, {}))
            for s, w in zip(SOURCES, self.weights, strict=True)
            if w > 0
        }
        # (place in SOURCES, scorer) of each source scored, and their w_s
        self._scored = [(n, self.scorers[s]) for n, s in enumerate(SOURCES) if s in self.scorers]
        self._weights = tuple(w for w in self.weights if w > 0)

    def add(self, link: int, counts: Sequence[Mapping[int, int]], dl: int) -> tuple[float, float]:
        """Add one parent's evidence (topic-word counts per source, in SOURCES order) to `link`.

        Returns (R(A_l) over every parent so far, R(A) of this parent's evidence alone),
        as `AnchorScorer.add_anchor` does for the anchor.
        """
        pairs = [scorer.add_anchor(link, counts[n], dl) for n, scorer in self._scored]
        if self._weights == (1.0,):
            return pairs[0]  # the paper's R(A) itself, not 1 − (1 − R) rounded
        link_r, edge_r = zip(*pairs, strict=True) if pairs else ((), ())
        return noisy_or(self._weights, link_r), noisy_or(self._weights, edge_r)

    def all_sums(self) -> dict[str, dict[int, dict[int, float]]]:
        """Each source's running BM25 sums per link (to carry them to a new ontology)."""
        return {source: scorer.sums for source, scorer in self.scorers.items()}
