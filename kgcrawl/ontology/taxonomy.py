"""Taxonomy from attribute extents (SPEC §3.1.6, after Cimiano et al. 2005).

Each term t has an attribute extent t′, the documents that contain it. Terms
with the same extent are synonyms and make one class (labels in rank order,
the first names it). Class c is a subclass of u when c′ ⊂ u′ and no class w
lies strictly between (c′ ⊂ w′ ⊂ u′): its parents are the minimal strict
supersets. The parent with the smallest extent becomes the tree parent (ties:
the better-ranked class), the others stay as extra is-a parents; a class with
no parent goes under the topic concept. This is the order of the attribute
concepts of the lattice, computed here straight from the extents, so it never
needs the full lattice.

>>> tax = build_taxonomy(["a", "b", "c"], [0b111, 0b011, 0b011])
>>> [(c.labels, c.parent) for c in tax.classes]
[(('a',), None), (('b', 'c'), 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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


def build_taxonomy(terms: Sequence[str], extents: Sequence[int]) -> Taxonomy:
    """Classes, tree parents and extra parents from terms (best first) and their extents."""
    groups: dict[int, list[str]] = {}
    for term, extent in zip(terms, extents, strict=True):
        groups.setdefault(extent, []).append(term)
    ranked = list(groups.items())  # dicts keep first-seen order: the rank of each first term
    sizes = [extent.bit_count() for extent, _ in ranked]
    by_size = sorted(range(len(ranked)), key=lambda i: (sizes[i], i))
    classes = []
    for c, (extent, labels) in enumerate(ranked):
        parents: list[int] = []  # minimal strict supersets, smallest extent first
        for u in by_size:
            bigger = ranked[u][0]
            if sizes[u] <= sizes[c] or extent & bigger != extent:
                continue
            if not any(ranked[p][0] & bigger == ranked[p][0] for p in parents):
                parents.append(u)
        classes.append(
            TermClass(
                labels=tuple(labels),
                extent=extent,
                parent=parents[0] if parents else None,
                extra_parents=tuple(sorted(parents[1:])),
            )
        )
    return Taxonomy(tuple(classes))
