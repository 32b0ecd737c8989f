"""Scoring a built taxonomy against a hand-written one (issue 18's test corpora).

A reference is JSON: `{"topic": ..., "concepts": [...], "is_a": [[child, parent], ...]}`.
A reference concept is *found* when some class of the built ontology has it as
a label or altLabel. Precision of is-a: for every found concept whose nearest
built ancestor that is also a reference concept exists (the root does not
count), the pair (concept, that ancestor) is correct when the ancestor is an
ancestor of the concept in the reference. Taking the nearest reference
ancestor, not the direct parent, lets the builder put a term of its own
between two reference concepts ("cherry tomato" ⊑ "tomato plant" ⊑ "tomato")
without being penalised, while a reference concept under the wrong reference
concept still counts against it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kgcrawl.ontology.model import Ontology


@dataclass(frozen=True)
class Reference:
    """A hand-written taxonomy: concept names and child → parent."""

    concepts: tuple[str, ...]
    parent: dict[str, str]

    def ancestors(self, concept: str) -> set[str]:
        out = set()
        while concept in self.parent:
            concept = self.parent[concept]
            out.add(concept)
        return out


@dataclass(frozen=True)
class Score:
    """Found concepts and the is-a pairs judged, with the wrong ones for the report."""

    found: tuple[str, ...]
    missing: tuple[str, ...]
    correct: tuple[tuple[str, str], ...]
    wrong: tuple[tuple[str, str], ...]
    kept: int  # reference is-a pairs (child, parent) with parent an ancestor in the build
    pairs: int  # reference is-a pairs

    @property
    def recall(self) -> float:
        return len(self.found) / (len(self.found) + len(self.missing))

    @property
    def precision(self) -> float:
        judged = len(self.correct) + len(self.wrong)
        return len(self.correct) / judged if judged else 0.0

    def __str__(self) -> str:
        return (
            f"found {len(self.found)} of {len(self.found) + len(self.missing)} reference concepts "
            f"({self.recall:.0%}; missing: {', '.join(self.missing) or 'none'}); is-a precision "
            f"{self.precision:.2f} ({len(self.correct)} of {len(self.correct) + len(self.wrong)}; "
            f"wrong: {', '.join(f'{c} ⊑ {p}' for c, p in self.wrong) or 'none'}); "
            f"reference is-a pairs kept {self.kept} of {self.pairs}"
        )


def read_reference(path: str | Path) -> Reference:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return Reference(tuple(data["concepts"]), {c: p for c, p in data["is_a"]})


def score_taxonomy(onto: Ontology, reference: Reference) -> Score:
    """Found reference concepts and the precision of their nearest reference ancestors."""
    owner: dict[str, str] = {}
    for iri, concept in onto.concepts.items():
        if iri == onto.root:
            continue
        for text in concept.all_labels():
            owner.setdefault(text.casefold(), iri)
    where = {c: owner[c.casefold()] for c in reference.concepts if c.casefold() in owner}
    named = {}
    for concept, iri in where.items():
        named.setdefault(iri, concept)
    correct, wrong = [], []
    for concept, iri in where.items():
        above = next((named[a] for a in onto.ancestors(iri) if a in named), None)
        if above is None or above == concept:
            continue
        pair = (concept, above)
        (correct if above in reference.ancestors(concept) else wrong).append(pair)
    missing = tuple(c for c in reference.concepts if c not in where)
    kept = sum(
        1
        for c, p in reference.parent.items()
        if c in where and p in where and where[p] in onto.ancestors(where[c])
    )
    return Score(tuple(where), missing, tuple(correct), tuple(wrong), kept, len(reference.parent))
