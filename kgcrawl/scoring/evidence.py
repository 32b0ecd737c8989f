"""A link's anchor evidence: anchor text, URL words and context, weighted (SPEC §4.3 turn 2).

Each parent j of a link gives three sources of topic words: its anchor text, the
words of the link's URL (`text.url_words`) and the words around the link in its
enclosing block (`text.html.link_context`). Their counts are merged into one
term frequency per topic word before BM25 (Eq. 5):

    f_{i,j} = Σ_s w_s · f_{i,j,s}   over the sources s in `anchors.evidence`,

the weighted-field form of BM25 (BM25F, Robertson, Zaragoza & Taylor 2004): a
word seen in the anchor and the URL counts more than in one of them, but the
saturation of Eq. 5 still bounds it. With `evidence = ["anchor"]` and the
anchor's weight 1, f_{i,j} is the anchor count and R(A_l) is the paper's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

SOURCES = ("anchor", "url", "context")  # the order of `anchors.weights`


def source_weights(evidence: Sequence[str], weights: Sequence[float]) -> tuple[float, ...]:
    """The weight of each of SOURCES: its `anchors.weights` entry when in `evidence`, else 0."""
    return tuple(w if s in evidence else 0.0 for s, w in zip(SOURCES, weights, strict=True))


def combine(counts: Sequence[Mapping[int, int]], weights: Sequence[float]) -> dict[int, float]:
    """f_{i,j} = Σ_s w_s · f_{i,j,s}: one parent's topic-word counts per source, merged.

    >>> combine([{0: 1}, {0: 2, 3: 1}, {}], (1.0, 0.5, 0.3))
    {0: 2.0, 3: 0.5}
    >>> combine([{0: 1}, {0: 2}, {1: 4}], (1.0, 0.0, 0.0))
    {0: 1.0}
    """
    out: dict[int, float] = {}
    for source, w in zip(counts, weights, strict=True):
        if w == 0:
            continue
        for i, f in source.items():
            out[i] = out.get(i, 0.0) + w * f
    return out
