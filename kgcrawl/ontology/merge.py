"""A taxonomy of FCA classes as an ontology, alone or merged into a hand-built one.

Without a base, the result is a fresh tree under one topic concept. With a base
(SPEC §3.1.8) the hand-built ontology is authoritative: a class one of whose
terms equals a base label (or altLabel, compared as `normalise_label` writes
them) joins that concept, which keeps its place and gains the class's other
terms as altLabels; every other class becomes a new concept, and classes
without a parent go under the topic concept. New concepts point only at base
concepts or at classes with strictly larger extents, so no cycle can arise.

New IRIs live in the output namespace; their local names must be XML NCNames
for RDF/XML: a Chinese term already is one, other text is sanitised (invalid
characters to `_`, a `t_` prefix before a leading digit or `-`/`.`), and a
clash gets `_2`, `_3`, … in rank order, so the names are unique and the same
on every run. All FCA edges are Is-a.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from kgcrawl.ontology.model import Concept, Edge, Ontology, OntologyError
from kgcrawl.ontology.taxonomy import Taxonomy
from kgcrawl.text.tokenize import lang_of, normalise_label

_START = (
    "A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_NOT_NAME_CHAR = re.compile(f"[^{_START}\\-.0-9\u00b7\u0300-\u036f\u203f-\u2040]")
_NAME_START = re.compile(f"[{_START}]")


@dataclass(frozen=True)
class Merged:
    """The ontology, its topic concept, and which FCA classes joined base concepts."""

    ontology: Ontology
    topic: str
    joined: dict[str, str]  # first term of the class → IRI of the base concept it joined
    new: int  # concepts added


def ncname(text: str) -> str:
    """`text` as an XML NCName: 自然景观 stays, "natural scenery" → natural_scenery."""
    name = _NOT_NAME_CHAR.sub("_", text.strip()) or "_"
    return name if _NAME_START.match(name) else "t_" + name


def topic_root(iri: str, topic: str) -> Ontology:
    """A one-concept ontology: what the taxonomy goes under when there is no base."""
    namespace = _namespace(iri)
    root = Concept(iri=namespace + ncname(topic), labels={lang_of(topic): topic})
    return Ontology(iri=iri, concepts={root.iri: root})


def merge_taxonomy(
    taxonomy: Taxonomy,
    base: Ontology,
    iri: str,
    topic: str | None = None,
    variants: Mapping[str, Sequence[str]] | None = None,
) -> Merged:
    """`base` plus the taxonomy's classes, as the ontology `iri` (module docstring).

    `variants` maps a term to its other written forms ("tomatoes" for "tomato"),
    added as altLabels of the term's concept.
    """
    spelled = variants or {}
    topic_concept = base.find(topic) if topic else base.concepts[base.root]
    if topic_concept is None:
        raise OntologyError(f"{base.iri}: no concept labelled {topic!r} to be the topic")
    label_owner: dict[str, str] = {}
    for concept in base.concepts.values():
        for text in concept.all_labels():
            label_owner.setdefault(normalise_label(text), concept.iri)

    namespace = _namespace(iri)
    taken = {_local(c) for c in base.concepts if c.startswith(namespace)}
    class_iri: list[str] = []
    joined: dict[str, str] = {}
    for cls in taxonomy.classes:
        owner = next((label_owner[t] for t in cls.labels if t in label_owner), None)
        if owner is not None:
            joined[cls.labels[0]] = owner
            class_iri.append(owner)
            continue
        name = ncname(cls.labels[0])
        unique, n = name, 1
        while unique in taken:
            n += 1
            unique = f"{name}_{n}"
        taken.add(unique)
        class_iri.append(namespace + unique)

    concepts = dict(base.concepts)
    for cls, cls_iri in zip(taxonomy.classes, class_iri, strict=True):
        forms = [v for t in cls.labels for v in spelled.get(t, ())]
        if cls_iri in base.concepts:
            extra = [t for t in cls.labels if t not in label_owner] + forms
            concepts[cls_iri] = _with_alt_labels(concepts[cls_iri], extra)
            continue
        parent = topic_concept.iri if cls.parent is None else class_iri[cls.parent]
        extras = dict.fromkeys(class_iri[p] for p in cls.extra_parents)
        extras.pop(parent, None)
        first, rest = cls.labels[0], cls.labels[1:]
        alt: dict[str, list[str]] = {}
        for text in dict.fromkeys((*rest, *forms)):
            alt.setdefault(lang_of(text), []).append(text)
        concepts[cls_iri] = Concept(
            iri=cls_iri,
            labels={lang_of(first): first},
            alt_labels={lang: tuple(texts) for lang, texts in alt.items()},
            parent=parent,
            edge=Edge.IS_A,
            extra_parents=tuple(extras),
        )
    ontology = Ontology(iri=iri, concepts=concepts)
    return Merged(ontology, topic_concept.iri, joined, len(ontology) - len(base))


def _with_alt_labels(concept: Concept, texts: list[str]) -> Concept:
    alt = {lang: list(t) for lang, t in concept.alt_labels.items()}
    for text in texts:
        alt.setdefault(lang_of(text), []).append(text)
    return replace(concept, alt_labels={lang: tuple(dict.fromkeys(t)) for lang, t in alt.items()})


def _namespace(iri: str) -> str:
    return iri if iri.endswith(("#", "/")) else iri + "#"


def _local(iri: str) -> str:
    return iri[max(iri.rfind("#"), iri.rfind("/")) + 1 :]
