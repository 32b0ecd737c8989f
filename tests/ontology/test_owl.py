"""OWL and Turtle round trips of the tree model, and broken ontologies."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kgcrawl.ontology.model import Concept, Edge, Ontology, OntologyError
from kgcrawl.ontology.owl import read_ontology, write_ontology

NS = "http://example.org/rt#"


def concept(name: str, parent: str | None = None, edge: Edge | None = None, **kw) -> Concept:
    return Concept(
        NS + name,
        {"en": name.lower(), "zh": "概念" + name},
        parent=parent and NS + parent,
        edge=edge,
        **kw,
    )


@pytest.fixture
def tree() -> Ontology:
    return Ontology(
        NS,
        {
            c.iri: c
            for c in [
                concept("Root"),
                concept("A", "Root", Edge.IS_A),
                concept("B", "Root", Edge.INDUCED_BY),
                concept("A1", "A", Edge.IS_A, extra_parents=(NS + "B",)),
                concept(
                    "A2", "A", Edge.SYNONYM, alt_labels={"zh": ("别名", "又名"), "en": ("alias",)}
                ),
                concept("B1", "B", Edge.IS_A),
            ]
        },
    )


@pytest.mark.parametrize("suffix", [".owl", ".ttl"])
def test_round_trip_keeps_tree_edges_and_labels(tmp_path, tree, suffix) -> None:
    write_ontology(tree, tmp_path / "t.owl", tmp_path / "t.ttl")
    back = read_ontology(tmp_path / f"t{suffix}")
    assert back.concepts == tree.concepts
    assert back.root == NS + "Root"
    assert back.depth[NS + "B1"] == 2
    assert back.find("alias").iri == NS + "A2"
    assert back.find("概念B").iri == NS + "B"


def test_owl_encodes_edges_as_the_spec_says(tmp_path, tree) -> None:
    import rdflib
    from rdflib.namespace import OWL, RDFS

    write_ontology(tree, tmp_path / "t.owl")
    g = rdflib.Graph().parse(tmp_path / "t.owl", format="xml")
    kg = rdflib.Namespace("https://w3id.org/kgcrawl#")
    a, b, a1, a2 = (rdflib.URIRef(NS + n) for n in ("A", "B", "A1", "A2"))
    assert (a1, RDFS.subClassOf, a) in g and (a1, RDFS.subClassOf, b) in g
    assert (a2, kg.synonymOf, a) in g
    restriction = next(o for o in g.objects(b, RDFS.subClassOf) if isinstance(o, rdflib.BNode))
    assert g.value(restriction, OWL.onProperty) == kg.inducedBy
    assert g.value(restriction, OWL.someValuesFrom) == rdflib.URIRef(NS + "Root")


def test_two_roots_are_refused_by_name() -> None:
    with pytest.raises(OntologyError, match=r"exactly one root concept, found 2: x, y; make"):
        Ontology(NS, {c.iri: c for c in [concept("X"), concept("Y")]})
    with pytest.raises(OntologyError, match=r"no root concept: every class has a parent"):
        Ontology(
            NS, {c.iri: c for c in [concept("X", "Y", Edge.IS_A), concept("Y", "X", Edge.IS_A)]}
        )


PROTEGE = """@prefix : <http://example.org/coffee#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
:Coffee a owl:Class ; rdfs:label "coffee" ; rdfs:subClassOf owl:Thing .
:ColdBrew a owl:Class ; rdfs:subClassOf :Coffee .
:Espresso a owl:Class ; rdfs:subClassOf :Coffee ; rdfs:label "espresso"@en .
:FlatWhite a owl:Class ; rdfs:subClassOf :Coffee ; rdfs:label ""@en ; skos:altLabel " " .
"""


def test_a_class_without_a_label_is_named_by_the_words_of_its_iri(tmp_path) -> None:
    """As Protégé leaves a class unless given a label: it names a topic word still."""
    path = tmp_path / "coffee.ttl"
    path.write_text(PROTEGE, encoding="utf-8")
    onto = read_ontology(path)
    cold = onto.concepts["http://example.org/coffee#ColdBrew"]
    assert cold.all_labels() == ("cold brew",) and cold.parent == onto.root
    assert onto.concepts[onto.root].all_labels() == ("coffee",)
    blank = onto.concepts["http://example.org/coffee#FlatWhite"]  # a blank label names nothing
    assert blank.all_labels() == ("flat white",)


OWL_XML = """<?xml version="1.0"?>
<Ontology xmlns="http://www.w3.org/2002/07/owl#" xml:base="http://example.org/coffee"
     ontologyIRI="http://example.org/coffee">
    <Prefix name="rdfs" IRI="http://www.w3.org/2000/01/rdf-schema#"/>
    <Declaration><Class IRI="#Coffee"/></Declaration>
    <Declaration><Class IRI="#ColdBrew"/></Declaration>
    <SubClassOf><Class IRI="#ColdBrew"/><Class IRI="#Coffee"/></SubClassOf>
    <AnnotationAssertion>
        <AnnotationProperty abbreviatedIRI="rdfs:label"/>
        <IRI>#Coffee</IRI>
        <Literal xml:lang="en">coffee</Literal>
    </AnnotationAssertion>
</Ontology>
"""


@pytest.mark.parametrize(
    ("text", "name"),
    [(PROTEGE, "coffee.owl"), (OWL_XML, "coffee.owl"), (OWL_XML, "coffee.owx")],
    ids=["turtle saved as .owl", "OWL/XML saved as .owl", "OWL/XML"],
)
def test_each_syntax_protege_saves_as_owl_is_read(tmp_path, text, name) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    onto = read_ontology(path)
    labels = {c.iri.rsplit("#")[-1]: c.label("en") for c in onto.concepts.values()}
    assert onto.concepts[onto.root].label("en") == "coffee" and labels["ColdBrew"] == "cold brew"


def test_a_syntax_not_read_says_how_to_save_it(tmp_path) -> None:
    path = tmp_path / "coffee.owl"
    path.write_text("Prefix(:=<http://example.org/c#>)\nOntology(<http://example.org/c>)\n")
    with pytest.raises(OntologyError, match=r"coffee\.owl: OWL functional .* save the ontology"):
        read_ontology(path)


def test_missing_parent_is_refused() -> None:
    with pytest.raises(OntologyError, match="is not a concept"):
        Ontology(NS, {c.iri: c for c in [concept("X"), concept("Y", "Nope", Edge.IS_A)]})


def test_cycle_is_refused() -> None:
    with pytest.raises(OntologyError, match="not under the root"):
        Ontology(
            NS,
            {
                c.iri: c
                for c in [concept("X"), concept("Y", "Z", Edge.IS_A), concept("Z", "Y", Edge.IS_A)]
            },
        )


def test_unreadable_file_names_the_file(tmp_path) -> None:
    bad = tmp_path / "bad.owl"
    bad.write_text("<rdf:RDF this is not xml", encoding="utf-8")
    with pytest.raises(OntologyError, match=r"bad\.owl: not a readable ontology"):
        read_ontology(bad)
    with pytest.raises(OntologyError, match=r"missing\.ttl: no such file"):
        read_ontology(tmp_path / "missing.ttl")
    # rdflib says it in four lines, quoting the bytes read, with another line number (5, 4, 39)
    turtle = tmp_path / "bad.ttl"
    head = "@prefix : <http://x/> .\n"
    cases = {
        f"{head}:a a owl:Class ;\n": 'line 2: Prefix "owl:" not bound',
        f"{head}:a :b\n": "line 2: objectList expected",
        f"{head}:a :b :c .\n:d :e .\n": "line 3: objectList expected",
        (head + ":a :b :c .\n" * 30 + "garbage !!\n"): "line 32: expected directive or statement",
        f"{head}:a :b": "the text ends inside a statement (string index out of range)",
    }
    for text, said in cases.items():
        turtle.write_text(text, encoding="utf-8")
        with pytest.raises(OntologyError) as caught:
            read_ontology(turtle)
        assert str(caught.value) == f"{turtle}: not a readable ontology ({said})", text


def test_the_same_ontology_is_written_to_the_same_bytes(tmp_path) -> None:
    """A rebuild of the same corpus must give the same file: the calibration cache is
    keyed by its SHA-256, and users diff ontology versions. Each write runs in its own
    process with its own hash seed, since owlready2's set order follows string hashes
    and object ids; the ontology has many is-a parents and alt labels per concept."""
    tops = [concept(f"A{i}", "Root", Edge.IS_A) for i in range(8)]
    leaves = [
        Concept(
            f"{NS}B{i}",
            {"en": f"b{i}", "zh": f"乙{i}"},
            parent=f"{NS}A{i % 8}",
            edge=Edge.IS_A,
            extra_parents=(f"{NS}A{(i + 1) % 8}", f"{NS}A{(i + 2) % 8}"),
            alt_labels={"en": tuple(f"b{i} {w}" for w in "xyz"), "zh": ("别名", "又名", "亦称")},
        )
        for i in range(16)
    ]
    onto = Ontology(NS, {c.iri: c for c in [concept("Root"), *tops, *leaves]})
    write_ontology(onto, tmp_path / "in.owl")
    script = (
        "import sys; from kgcrawl.ontology.owl import read_ontology, write_ontology; "
        "write_ontology(read_ontology(sys.argv[1]), sys.argv[2])"
    )
    written = set()
    for seed in range(3):
        out = tmp_path / f"{seed}.owl"
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        subprocess.run(
            [sys.executable, "-c", script, tmp_path / "in.owl", out], env=env, check=True
        )
        written.add(out.read_bytes())
    assert len(written) == 1
    assert read_ontology(tmp_path / "0.owl").concepts == read_ontology(tmp_path / "in.owl").concepts
