"""Taxonomy from attribute extents (SPEC §3.1.6 turn 2, after Cimiano et al. 2005).

Each term t has an attribute extent t′, the documents that contain it: its
attribute concept in the lattice. Terms with the same extent are synonyms and
make one class (labels in rank order, the first names it). Strict inclusion
t′ ⊂ u′ almost never holds between frequent words of real text, so inclusion
is read with a confidence (Sanderson–Croft subsumption):

    t ⊑ u  when  |t′ ∩ u′| / |t′| ≥ θ,  |u′| > |t′|  and  (|t′ ∩ u′| / |t′|) / (|u′| / N) ≥ λ,

"most documents with t also have u, u is the more general (it has more
documents), and t's documents have u clearly more often than documents in
general do". θ = 1, λ = 1 is the strict order of the attribute concepts (the
lattice's attribute concepts are the candidate pairs; the confidences are
computed straight from their extents, so the full lattice is never needed).
A class's parents are its minimal subsumers: u is dropped when another
subsumer w of t lies between (w ⊑ u). A class with no parent goes under the
topic concept.

**Interpretation** (θ and the lift λ). Sanderson–Croft's θ alone lets a term
found in most documents subsume everything: on the shipped tourism corpus 交通
(transport) became the parent of 景区 and through it of 100 classes (3 of 119
classes under the root). The lift λ asks that the parent be *associated*
with t, not merely common. Measured with `benchmarks/ontology_quality.py`
(classes under the root, depth; for the two English corpora also the share
of their hand-written is-a pairs kept, all with is-a precision 1.00):

| θ, λ | gardening-en | tourism-en | tourism (zh) | rainstorm (zh) |
| --- | --- | --- | --- | --- |
| 1.0, 1.0 (strict) | 60 %, 3, 11/17 | — | — | — |
| 0.8, 1.0 (SPEC) | 38 %, 4, 12/17 | 39 %, 5, 12/15 | 3 %, 6 | 14 %, 5 |
| 0.8, 1.5 | 42 %, 4, 12/17 | 42 %, 5, 12/15 | 23 %, 6 | 23 %, 5 |
| 0.75, 1.5 | 36 %, 5, 12/17 | 33 %, 6, 10/15 | 18 %, 6 | 12 %, 6 |
| 0.7, 1.5 | 33 %, 5, 10/17 | 33 %, 6, 10/15 | — | — |

(turn 1, strict inclusion without terms by termhood: tourism 38 %, depth 3;
rainstorm 58 %, depth 4.) θ = 0.75, λ = 1.5 keeps every corpus under 40 % at
the root with depth ≥ 5 and the reference pairs of θ = 0.8.

Tree parent and second parents: **Interpretation** (the SPEC keeps the parent
with the smallest extent and all others as extra is-a parents; on a coffee
corpus that gave 26 of 70 classes several parents, mostly wrong): the tree
parent is the minimal subsumer that is the class's lexical head ("tomato" for
"cherry tomato", Cimiano's head matching), else the one with the highest
confidence (ties: smaller extent, then rank); another minimal subsumer is
asserted as a second parent only when it is well supported: confidence ≥
`second` (default 0.95) over at least `MIN_SECOND_DOCS` documents of t.

>>> tax = build_taxonomy(["a", "b", "c"], [0b111, 0b011, 0b011], n_docs=8)
>>> [(c.labels, c.parent) for c in tax.classes]
[(('a',), None), (('b', 'c'), 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kgcrawl.errors import KgcrawlError

DEFAULT_THETA = 0.75
DEFAULT_SECOND = 0.95
DEFAULT_LIFT = 1.5
MIN_SECOND_DOCS = 3


class TaxonomyError(KgcrawlError):
    """A subsumption option that cannot work."""


def check_taxonomy_options(theta: float, second: float, lift: float) -> None:
    """Raise TaxonomyError naming the option that cannot work."""
    if not 0 < theta <= 1:
        raise TaxonomyError(f"--subsumption is a share of documents in (0, 1], got {theta}")
    if not 0 < second <= 1:
        raise TaxonomyError(f"the second-parent confidence must lie in (0, 1], got {second}")
    if lift < 0:
        raise TaxonomyError(f"--lift must not be negative, got {lift}")


@dataclass(frozen=True)
class TermClass:
    """One class: synonym terms, their shared extent, and parents as class indexes."""

    labels: tuple[str, ...]
    extent: int
    parent: int | None  # None: under the topic concept
    extra_parents: tuple[int, ...] = ()


@dataclass(frozen=True)
class Taxonomy:
    """Classes in the rank order of their first term."""

    classes: tuple[TermClass, ...]

    def depth(self, index: int) -> int:
        """Tree edges from the class up to the topic concept (a top class has depth 1)."""
        depth = 1
        parent = self.classes[index].parent
        while parent is not None:
            depth += 1
            parent = self.classes[parent].parent
        return depth


def confidence(extent: int, other: int) -> float:
    """|t′ ∩ u′| / |t′|: the share of t's documents that also have u."""
    size = extent.bit_count()
    return (extent & other).bit_count() / size if size else 0.0


def _head_of(parent: Sequence[str], child: Sequence[str]) -> bool:
    """Does a child label end with a parent label as its last words ("cherry tomato", "tomato")?"""
    return any(c.endswith(" " + p) for c in child for p in parent)


def build_taxonomy(
    terms: Sequence[str],
    extents: Sequence[int],
    theta: float = DEFAULT_THETA,
    second: float = DEFAULT_SECOND,
    lift: float = DEFAULT_LIFT,
    n_docs: int = 0,
) -> Taxonomy:
    """Classes, tree parents and second parents from terms (best first) and their extents."""
    groups: dict[int, list[str]] = {}
    for term, extent in zip(terms, extents, strict=True):
        groups.setdefault(extent, []).append(term)
    ranked = list(groups.items())  # dicts keep first-seen order: the rank of each first term
    sizes = [extent.bit_count() for extent, _ in ranked]
    n_docs = n_docs or max((e.bit_length() for e, _ in ranked), default=0)

    def subsumes(c: int, u: int) -> bool:
        if sizes[u] <= sizes[c]:
            return False
        conf = confidence(ranked[c][0], ranked[u][0])
        return conf >= theta and conf * n_docs >= lift * sizes[u]

    classes = []
    for c, (extent, labels) in enumerate(ranked):
        above = [u for u in range(len(ranked)) if subsumes(c, u)]
        minimal = [u for u in above if not any(subsumes(w, u) for w in above if w != u)]
        conf = {u: confidence(extent, ranked[u][0]) for u in minimal}
        minimal.sort(key=lambda u: (not _head_of(ranked[u][1], labels), -conf[u], sizes[u], u))
        well_supported = sizes[c] >= MIN_SECOND_DOCS
        extra = [u for u in minimal[1:] if well_supported and conf[u] >= second]
        classes.append(
            TermClass(
                labels=tuple(labels),
                extent=extent,
                parent=minimal[0] if minimal else None,
                extra_parents=tuple(sorted(extra)),
            )
        )
    return Taxonomy(tuple(classes))
