"""The curated ontologies in ontologies/: the shape the paper gives them, and loadable OWL.

Users edit these files in Protégé; these tests say what an edit must keep
(SPEC §3.1: 61 concepts / 7 levels / 7 branches, 50 / 6 / 3) and that the
OWL stays readable by our reader, owlready2 and HermiT.
"""

from __future__ import annotations

import functools
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from kgcrawl.ontology.model import Edge, Ontology
from kgcrawl.ontology.owl import read_ontology

ONTOLOGIES = Path(__file__).resolve().parents[2] / "ontologies"


@dataclass(frozen=True)
class Shipped:
    name: str
    topic: str
    concepts: int
    levels: int
    branches: frozenset[str]
    edge_types: frozenset[Edge]
    # (child zh label, edge, parent zh label): tree edges that must read this way
    edges: tuple[tuple[str, Edge, str], ...]

    @property
    def iri(self) -> str:
        return f"https://w3id.org/kgcrawl/ontologies/{self.name}"


TOURISM = Shipped(
    name="tourism",
    topic="旅游",
    concepts=61,
    levels=7,
    branches=frozenset(
        {
            "tourist attractions",
            "tourism purpose",
            "accommodation",
            "service agencies",
            "tourism routes",
            "means of transportation",
            "tourist",
        }
    ),
    edge_types=frozenset({Edge.IS_A, Edge.SYNONYM}),
    edges=(
        ("旅游景点", Edge.IS_A, "旅游"),
        ("高铁", Edge.IS_A, "动车组"),
        ("5A级旅游景区", Edge.IS_A, "A级旅游景区"),
        ("自由行", Edge.SYNONYM, "自助游"),
        ("驴友", Edge.SYNONYM, "背包客"),
    ),
)
RAINSTORM = Shipped(
    name="rainstorm",
    topic="暴雨灾害",
    concepts=50,
    levels=6,
    branches=frozenset({"disaster management", "secondary disaster", "disaster grade"}),
    edge_types=frozenset({Edge.IS_A, Edge.INDUCED_BY, Edge.SYNONYM}),
    edges=(
        ("次生灾害", Edge.INDUCED_BY, "暴雨灾害"),
        ("洪水", Edge.IS_A, "次生灾害"),
        ("溃坝", Edge.INDUCED_BY, "洪水"),
        ("堰塞湖", Edge.INDUCED_BY, "山体滑坡"),
        ("内涝", Edge.SYNONYM, "城市内涝"),
        ("山洪泥石流", Edge.SYNONYM, "泥石流"),
        ("暴雨红色预警信号", Edge.IS_A, "暴雨预警信号"),
        ("特大暴雨", Edge.IS_A, "降雨强度等级"),
    ),
)
SHIPPED = pytest.mark.parametrize("shipped", [TOURISM, RAINSTORM], ids=lambda s: s.name)


@functools.cache
def load(name: str, suffix: str = ".owl") -> Ontology:
    return read_ontology(ONTOLOGIES / f"{name}{suffix}")


def tree_facts(onto: Ontology) -> dict[str, tuple]:
    """Everything the crawler uses, with altLabels as sets (RDF has no order)."""
    return {
        iri: (
            c.parent,
            c.edge,
            c.labels,
            {lang: sorted(texts) for lang, texts in c.alt_labels.items()},
            sorted(c.extra_parents),
        )
        for iri, c in onto.concepts.items()
    }


@SHIPPED
def test_size_levels_and_branches_are_the_papers(shipped: Shipped) -> None:
    onto = load(shipped.name)
    assert onto.iri == shipped.iri
    assert len(onto) == shipped.concepts
    assert onto.levels == shipped.levels
    branches = [onto.concepts[c].labels["en"] for c in onto.children[onto.root]]
    assert len(branches) == len(shipped.branches)
    assert set(branches) == shipped.branches


@SHIPPED
def test_the_pipeline_topic_is_the_root(shipped: Shipped) -> None:
    onto = load(shipped.name)
    assert onto.find(shipped.topic).iri == onto.root


@SHIPPED
def test_every_concept_has_a_chinese_and_an_english_label(shipped: Shipped) -> None:
    onto = load(shipped.name)
    unlabelled = [
        iri
        for iri, c in onto.concepts.items()
        if not (c.labels.get("zh", "").strip() and c.labels.get("en", "").strip())
    ]
    assert unlabelled == []


@SHIPPED
def test_no_label_names_two_concepts(shipped: Shipped) -> None:
    owner: dict[str, str] = {}
    clashes = []
    for iri, concept in load(shipped.name).concepts.items():
        for text in concept.all_labels():
            first = owner.setdefault(text.casefold(), iri)
            if first != iri:
                clashes.append((text, first, iri))
    assert clashes == []


@SHIPPED
def test_class_iris_are_readable_names_in_the_ontology_namespace(shipped: Shipped) -> None:
    for iri in load(shipped.name).concepts:
        namespace, _, local = iri.partition("#")
        assert namespace == shipped.iri
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]+", local), iri


@SHIPPED
def test_owl_and_turtle_give_the_same_tree(shipped: Shipped) -> None:
    owl, ttl = load(shipped.name, ".owl"), load(shipped.name, ".ttl")
    assert list(owl.concepts) == list(ttl.concepts)
    assert tree_facts(owl) == tree_facts(ttl)


@SHIPPED
def test_relation_types_and_key_edges(shipped: Shipped) -> None:
    onto = load(shipped.name)
    assert {c.edge for c in onto.concepts.values() if c.edge} == shipped.edge_types
    for child, edge, parent in shipped.edges:
        concept = onto.find(child)
        assert (concept.edge, onto.concepts[concept.parent].labels["zh"]) == (edge, parent)


@SHIPPED
def test_owlready2_loads_every_class_with_its_labels(shipped: Shipped) -> None:
    import owlready2

    onto = load(shipped.name)
    world = owlready2.World()
    try:
        loaded = world.get_ontology(f"file://{ONTOLOGIES / shipped.name}.owl").load()
        classes = {c.iri: c for c in loaded.classes()}
        assert set(classes) == set(onto.concepts)
        root = classes[onto.root]
        assert {(str(x), x.lang) for x in root.label} == {
            (text, lang) for lang, text in onto.concepts[onto.root].labels.items()
        }
    finally:
        world.close()


@pytest.mark.reasoner
@pytest.mark.skipif(shutil.which("java") is None, reason="HermiT needs java on PATH")
@SHIPPED
def test_hermit_finds_the_ontology_consistent(shipped: Shipped) -> None:
    import owlready2

    world = owlready2.World()
    try:
        loaded = world.get_ontology(f"file://{ONTOLOGIES / shipped.name}.owl").load()
        # Raises OwlReadyInconsistentOntologyError when the whole ontology is inconsistent.
        owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=0)
        assert list(world.inconsistent_classes()) == []
        assert len(list(loaded.classes())) == shipped.concepts
    finally:
        world.close()
