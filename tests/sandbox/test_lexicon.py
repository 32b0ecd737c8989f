"""The generator's own vocabularies, and how little of them the shipped ontologies cover."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from kgcrawl.sandbox.lexicon import (
    CHANNELS,
    DOMAIN_TOPICS,
    LANGS,
    OFF_TOPICS,
    TOPICS,
    filler,
    topic_words,
    vocabulary,
)

ONTOLOGIES = Path(__file__).resolve().parents[2] / "ontologies"


def test_two_domains_and_at_least_six_off_topic_themes():
    assert DOMAIN_TOPICS == ("tourism", "rainstorm")
    assert len(OFF_TOPICS) >= 6
    assert set(TOPICS) == set(CHANNELS)


@pytest.mark.parametrize("topic", TOPICS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_topic_speaks_both_languages_with_zipf_weights(topic, lang):
    vocab = vocabulary(topic, lang)
    assert len(vocab.words) >= 30
    assert len(set(vocab.words)) == len(vocab.words)
    steps = [b - a for a, b in zip((0.0, *vocab.cum_weights), vocab.cum_weights, strict=False)]
    assert all(x > y for x, y in itertools.pairwise(steps))  # most frequent first


def test_domain_vocabularies_are_richer_than_off_topic_ones():
    for domain in DOMAIN_TOPICS:
        assert len(topic_words(domain)) >= 150


def test_neighbouring_themes_share_a_few_words():
    """Weather pages say 降水 and 气象 too, so a word count alone cannot find rainstorm pages."""
    assert {"降水", "气象", "precipitation"} <= topic_words("weather") & topic_words("rainstorm")
    assert "特产" in topic_words("food") & topic_words("tourism")


def test_english_phrases_are_spaced_and_filler_has_no_topic():
    assert "travel agency" in vocabulary("tourism", "en").words
    assert all("_" not in w for t in TOPICS for w in vocabulary(t, "en").words)
    assert not set(filler("zh").words) & set().union(*(topic_words(t) for t in TOPICS))


def _ontology_labels(domain: str) -> set[str]:
    import rdflib
    from rdflib.namespace import RDFS, SKOS

    graph = rdflib.Graph()
    graph.parse(ONTOLOGIES / f"{domain}.ttl", format="turtle")
    return {
        str(label).strip().lower()
        for prop in (RDFS.label, SKOS.altLabel)
        for label in graph.objects(None, prop)
    }


@pytest.mark.parametrize("domain", DOMAIN_TOPICS)
def test_shipped_ontology_labels_cover_only_part_of_the_lexicon(domain):
    """Read from the .ttl directly: the sandbox package itself never looks at the ontologies."""
    if not (ONTOLOGIES / f"{domain}.ttl").exists():
        pytest.skip(f"ontologies/{domain}.ttl is not there yet")
    labels = _ontology_labels(domain)
    lexicon = {w.lower() for w in topic_words(domain)}
    covered = lexicon & labels
    assert len(covered) >= 20  # enough shared words for an ontology-driven crawler to work
    assert 0.15 <= len(covered) / len(lexicon) <= 0.75  # ≥ 25 % of the words are unknown to it
