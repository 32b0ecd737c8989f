"""From taxonomy to ontology: IRIs, labels, extra parents, and merging into a base."""

from __future__ import annotations

import pytest

from kgcrawl.ontology.merge import merge_taxonomy, ncname, topic_root
from kgcrawl.ontology.model import Concept, Edge, Ontology, OntologyError
from kgcrawl.ontology.taxonomy import Taxonomy, TermClass
from kgcrawl.text.tokenize import lang_of
from tests.ontology.test_taxonomy import with_second_parents

OUT = "http://example.org/fca/tour"
NS = OUT + "#"
BASE = "http://example.org/base#"


def _taxonomy() -> Taxonomy:
    return with_second_parents()


def _tree(onto: Ontology) -> dict[str, tuple]:
    """label → (parent label, extra parent labels, alt labels): the shape a reader sees."""
    label = {iri: c.label() for iri, c in onto.concepts.items()}
    return {
        c.label(): (
            label.get(c.parent),
            tuple(label[p] for p in c.extra_parents),
            tuple(t for texts in c.alt_labels.values() for t in texts),
        )
        for c in onto.concepts.values()
    }


def test_fresh_ontology_under_the_topic() -> None:
    merged = merge_taxonomy(_taxonomy(), topic_root(OUT, "旅游"), OUT)
    onto = merged.ontology
    assert onto.root == NS + "旅游" and merged.topic == onto.root
    assert merged.joined == {} and merged.new == 10
    assert _tree(onto) == {
        "旅游": (None, (), ()),
        "景点": ("旅游", (), ()),
        "住宿": ("旅游", (), ()),
        "自驾": ("旅游", (), ()),
        "酒店": ("住宿", (), ("宾馆",)),
        "度假村": ("酒店", ("景点",), ()),
        "古镇": ("景点", (), ()),
        "博物馆": ("古镇", (), ()),
        "青旅": ("住宿", (), ()),
        "民宿": ("自驾", ("酒店",), ()),
        "古村": ("古镇", ("自驾",), ()),
    }
    hotel = onto.concepts[NS + "酒店"]
    assert hotel.labels == {"zh": "酒店"} and hotel.alt_labels == {"zh": ("宾馆",)}
    assert all(c.edge is Edge.IS_A for c in onto.concepts.values() if c.parent)
    assert onto.max_depth == 3


@pytest.fixture
def base() -> Ontology:
    concepts = [
        Concept(BASE + "Tourism", {"zh": "旅游", "en": "tourism"}),
        Concept(
            BASE + "Accommodation",
            {"zh": "住宿", "en": "accommodation"},
            parent=BASE + "Tourism",
            edge=Edge.IS_A,
        ),
        Concept(
            BASE + "Hotel",
            {"zh": "酒店", "en": "hotel"},
            alt_labels={"zh": ("饭店",)},
            parent=BASE + "Accommodation",
            edge=Edge.IS_A,
        ),
    ]
    return Ontology(BASE.rstrip("#"), {c.iri: c for c in concepts})


def test_terms_equal_to_base_labels_join_those_concepts(base: Ontology) -> None:
    merged = merge_taxonomy(_taxonomy(), base, OUT)
    onto = merged.ontology
    assert merged.joined == {"住宿": BASE + "Accommodation", "酒店": BASE + "Hotel"}
    assert merged.new == 8 and len(onto) == 11
    assert merged.topic == BASE + "Tourism"
    tree = _tree(onto)
    assert tree["住宿"] == ("旅游", (), ())  # the hand-built place is kept
    assert tree["酒店"] == ("住宿", (), ("饭店", "宾馆"))  # gains the FCA synonym
    assert tree["景点"] == ("旅游", (), ())
    assert tree["度假村"] == ("酒店", ("景点",), ())
    assert tree["青旅"] == ("住宿", (), ())
    assert tree["民宿"] == ("自驾", ("酒店",), ())
    assert onto.concepts[NS + "度假村"].parent == BASE + "Hotel"
    assert onto.concepts[BASE + "Hotel"].labels == {"zh": "酒店", "en": "hotel"}


def test_english_base_labels_match_case_insensitively(base: Ontology) -> None:
    taxonomy = Taxonomy((TermClass(("hotel", "inn"), 0b11, None), TermClass(("spa",), 0b1, 0)))
    merged = merge_taxonomy(taxonomy, base, OUT)
    assert merged.joined == {"hotel": BASE + "Hotel"}
    assert merged.ontology.concepts[BASE + "Hotel"].alt_labels == {"zh": ("饭店",), "en": ("inn",)}
    assert merged.ontology.concepts[NS + "spa"].parent == BASE + "Hotel"


def test_topic_chooses_where_orphans_go(base: Ontology) -> None:
    merged = merge_taxonomy(_taxonomy(), base, OUT, topic="accommodation")
    assert merged.topic == BASE + "Accommodation"
    assert merged.ontology.concepts[NS + "景点"].parent == BASE + "Accommodation"
    with pytest.raises(OntologyError, match="no concept labelled '海滩' to be the topic"):
        merge_taxonomy(_taxonomy(), base, OUT, topic="海滩")


def test_names_stay_unique_in_a_shared_namespace() -> None:
    root = topic_root(OUT, "tourism")
    taxonomy = Taxonomy(
        (
            TermClass(("natural scenery",), 0b01, None),
            TermClass(("natural_scenery",), 0b10, None),
            TermClass(("tourism-",), 0b11, None),
        )
    )
    onto = merge_taxonomy(taxonomy, root, OUT).ontology
    assert sorted(onto.concepts) == sorted(
        [NS + "tourism", NS + "natural_scenery", NS + "natural_scenery_2", NS + "tourism-"]
    )
    again = merge_taxonomy(taxonomy, root, OUT).ontology
    assert list(again.concepts) == list(onto.concepts)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("自然景观", "自然景观"),
        ("natural scenery", "natural_scenery"),
        ("5a", "t_5a"),
        ("-x", "t_-x"),
        ("a.b-c", "a.b-c"),
        ("café", "café"),
        ("children’s", "children_s"),
        ("a:b", "a_b"),
        ("", "_"),
    ],
)
def test_ncname(text: str, name: str) -> None:
    assert ncname(text) == name


def test_lang_of() -> None:
    assert (lang_of("酒店"), lang_of("hotel"), lang_of("5A级景区")) == ("zh", "en", "zh")
