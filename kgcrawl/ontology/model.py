"""The ontology as the crawler sees it: a tree of concepts with typed edges.

OWL is richer than this; the topic model needs only the tree (one parent per
concept, SPEC §3.1.6), the relation type of each tree edge (SPEC §3.3), the
labels by language, and any extra is-a parents kept for the graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from kgcrawl.errors import KgcrawlError


class Edge(StrEnum):
    """Relation type of a tree edge, child → parent."""

    IS_A = "is-a"
    INDUCED_BY = "induced-by"
    SYNONYM = "synonym"


# SPEC §3.3: Synonym 1, Induced-By 1/2, Is-a 1/3.
EDGE_VALUE: dict[Edge, Fraction] = {
    Edge.SYNONYM: Fraction(1),
    Edge.INDUCED_BY: Fraction(1, 2),
    Edge.IS_A: Fraction(1, 3),
}


@dataclass(frozen=True)
class Concept:
    """One class of the ontology; `parent` is None only for the root."""

    iri: str
    labels: dict[str, str]
    alt_labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    parent: str | None = None
    edge: Edge | None = None
    extra_parents: tuple[str, ...] = ()

    def label(self, lang: str = "zh") -> str:
        """Preferred label in `lang`, else any label, else the IRI's local name."""
        if lang in self.labels:
            return self.labels[lang]
        if self.labels:
            return next(iter(self.labels.values()))
        return self.iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]

    def all_labels(self) -> tuple[str, ...]:
        """Every label and altLabel in every language, without repeats."""
        seen: dict[str, None] = {}
        for text in self.labels.values():
            seen.setdefault(text, None)
        for texts in self.alt_labels.values():
            for text in texts:
                seen.setdefault(text, None)
        return tuple(seen)


class OntologyError(KgcrawlError):
    """The ontology is not a tree we can use (missing parent, cycle, no root)."""


@dataclass
class Ontology:
    """Concepts in breadth-first order from the root, with derived tree facts."""

    iri: str
    concepts: dict[str, Concept]
    root: str = field(init=False)
    children: dict[str, list[str]] = field(init=False, repr=False)
    depth: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        roots = [c.iri for c in self.concepts.values() if c.parent is None]
        if not roots:
            raise OntologyError("no root concept: every class has a parent (a cycle?)")
        if len(roots) > 1:
            names = ", ".join(self.concepts[iri].label("en") for iri in roots[:3])
            more = f" and {len(roots) - 3} more" if len(roots) > 3 else ""
            raise OntologyError(
                f"expected exactly one root concept, found {len(roots)}: {names}{more}; "
                "make the others subclasses of one of them (the topic) or of a new class"
            )
        self.root = roots[0]
        self.children = {iri: [] for iri in self.concepts}
        for concept in self.concepts.values():
            if concept.parent is None:
                continue
            if concept.parent not in self.concepts:
                raise OntologyError(f"{concept.iri}: parent {concept.parent} is not a concept")
            self.children[concept.parent].append(concept.iri)
        order = [self.root]
        self.depth = {self.root: 0}
        for iri in order:
            for child in self.children[iri]:
                self.depth[child] = self.depth[iri] + 1
                order.append(child)
        if len(order) != len(self.concepts):
            unreached = sorted(set(self.concepts) - set(order))
            raise OntologyError(f"concepts not under the root (a cycle?): {unreached[:3]}")
        self.concepts = {iri: self.concepts[iri] for iri in order}

    def __len__(self) -> int:
        return len(self.concepts)

    @property
    def max_depth(self) -> int:
        """Depth(O): the largest depth."""
        return max(self.depth.values())

    @property
    def levels(self) -> int:
        """Number of hierarchy levels, the root's included."""
        return self.max_depth + 1

    def ancestors(self, iri: str) -> list[str]:
        """Proper ancestors, nearest first (Up(C) of SPEC §3.3)."""
        out = []
        parent = self.concepts[iri].parent
        while parent is not None:
            out.append(parent)
            parent = self.concepts[parent].parent
        return out

    def find(self, label_or_iri: str) -> Concept | None:
        """The concept with this IRI, or with this label or altLabel."""
        if label_or_iri in self.concepts:
            return self.concepts[label_or_iri]
        wanted = label_or_iri.casefold()
        for concept in self.concepts.values():
            if any(text.casefold() == wanted for text in concept.all_labels()):
                return concept
        return None
