"""The topic model a crawl scores against: the ontology, its topic concept C and W_T."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kgcrawl.ontology.model import Ontology, OntologyError
from kgcrawl.ontology.similarity import (
    DEFAULT_K,
    Factors,
    factors,
    keyword_weights,
    topic_weights,
    weight_vector,
)

if TYPE_CHECKING:
    from kgcrawl.config import Settings


@dataclass(frozen=True)
class TopicModel:
    """W_T (Eq. 2) over every concept of the ontology, in the ontology's order."""

    ontology: Ontology
    topic: str
    weights: dict[str, Fraction]
    factors: dict[str, Factors]

    @property
    def vector(self) -> np.ndarray:
        return weight_vector(self.weights)


def build_topic_model(
    onto: Ontology,
    topic: str | None = None,
    k: tuple[float, ...] | tuple[Fraction, ...] = DEFAULT_K,
    tau: float | Fraction = 1,
    keywords: bool = False,
    source: str | Path | None = None,
) -> TopicModel:
    """W_T from the five factors, or every weight 1 for the `keywords` baselines. A topic no
    concept holds is named with `source`, the file the user can open, else the IRI."""
    concept = onto.find(topic) if topic else onto.concepts[onto.root]
    if concept is None:
        raise OntologyError(f"{source or onto.iri}: no concept labelled {topic!r}")
    k_exact = tuple(_exact(x) for x in k)
    tau_exact = _exact(tau)
    weights = (
        keyword_weights(onto) if keywords else topic_weights(onto, concept.iri, k_exact, tau_exact)
    )
    return TopicModel(
        ontology=onto,
        topic=concept.iri,
        weights=weights,
        factors={iri: factors(onto, concept.iri, iri, tau_exact) for iri in onto.concepts},
    )


def load_topic_model(
    domain_or_file: str, overrides: list[str] | tuple[str, ...] = ()
) -> TopicModel:
    """An ontology file (topic = its root, default k and τ) or a domain's pipeline settings.

    A file is an ontology unless it is a .toml: `read_ontology` tells its syntax by its
    content, whatever its name (it was read as a pipeline: "cannot read the pipeline")."""
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.ontology.owl import SUFFIXES, read_ontology

    path = Path(domain_or_file)
    if path.suffix.lower() in SUFFIXES or (path.is_file() and path.suffix.lower() != ".toml"):
        return build_topic_model(read_ontology(domain_or_file))
    return topic_model_for(load_settings(domain_or_file, parse_overrides(overrides)))


def topic_model_for(settings: Settings, keywords: bool = False) -> TopicModel:
    """The topic model a domain's settings describe (ontology file, topic, k, τ)."""
    from kgcrawl.ontology.owl import read_ontology

    rel = settings.relevance
    onto = read_ontology(settings.ontology)
    return build_topic_model(onto, settings.topic, rel.k, rel.tau, keywords, settings.ontology)


def _exact(x: float | Fraction) -> Fraction:
    """0.2 → 1/5: settings are decimals, the factors are exact fractions."""
    return x if isinstance(x, Fraction) else Fraction(repr(x))
