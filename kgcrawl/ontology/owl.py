"""OWL/Turtle ⇄ the tree model.

Tree edges are encoded as SPEC §3.3 says: Is-a is `rdfs:subClassOf` a named
class, Induced-By is `rdfs:subClassOf [owl:onProperty kg:inducedBy;
owl:someValuesFrom Parent]`, Synonym is the annotation `kg:synonymOf Parent`.
A class with extra is-a parents names its tree parent with `kg:treeParent`, so
the tree survives a round trip. Writing goes through owlready2 (the RDF/XML that
Protégé and HermiT read), reading and Turtle through rdflib; an OWL/XML file is read
through owlready2, whatever the file is called (Protégé saves every syntax as `.owl`).
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote

from kgcrawl.ontology.model import Concept, Edge, Ontology, OntologyError

KG = "https://w3id.org/kgcrawl#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
# What an ontology file is called: RDF/XML, Turtle, OWL/XML (read), the functional and
# Manchester syntaxes (named, so that the reader can say what to do with them).
SUFFIXES = (".owl", ".rdf", ".xml", ".ttl", ".owx", ".ofn", ".omn")
# Without kg:treeParent, the one non-is-a edge (there is at most one) is the tree edge.
_PARENT_PREFERENCE = {Edge.SYNONYM: 0, Edge.INDUCED_BY: 1, Edge.IS_A: 2}


def _parse_error(exc: Exception) -> str:
    """What the parser said, on one line: rdflib's Turtle errors span four, quoting bytes,
    and their line number is off (5 for line 2); the offset into the text is right, give or
    take the blanks before the token it stopped at (or, at the end, after the last one). Its
    parser runs off the end of a text cut inside a statement (IndexError)."""
    from rdflib.plugins.parsers.notation3 import BadSyntax

    if isinstance(exc, BadSyntax):
        _, _, text, offset, why = exc.args
        rest = text[offset:]
        offset = len(text.rstrip()) if not rest.strip() else offset + len(rest) - len(rest.lstrip())
        return f"line {text.count(chr(10), 0, offset) + 1}: {why}"
    if isinstance(exc, IndexError):
        return f"the text ends inside a statement ({exc})"
    return " ".join(str(exc).split())


def read_ontology(path: str | Path) -> Ontology:
    """Load an OWL (RDF/XML) or Turtle file into the tree model."""
    import rdflib
    from rdflib.namespace import OWL, RDF, RDFS

    path = Path(path)
    graph = rdflib.Graph()
    try:
        with path.open("rb") as file:
            fmt = _syntax(file.read(4096), path.suffix)
        if fmt == "owlxml":
            graph.parse(data=_owl_xml_as_rdf_xml(path), format="xml")
        else:
            graph.parse(path, format=fmt)
    except FileNotFoundError:
        raise OntologyError(f"{path}: no such file") from None
    except OntologyError as exc:
        raise OntologyError(f"{path}: {exc}") from None
    except Exception as exc:  # rdflib and owlready2 raise many parser types
        raise OntologyError(f"{path}: not a readable ontology ({_parse_error(exc)})") from exc

    kg = rdflib.Namespace(KG)
    skos = rdflib.Namespace(SKOS)
    ontology_iri = next(iter(graph.subjects(RDF.type, OWL.Ontology)), None)
    classes = sorted(
        c for c in set(graph.subjects(RDF.type, OWL.Class)) if isinstance(c, rdflib.URIRef)
    )
    if not classes:
        raise OntologyError(f"{path}: no owl:Class in the file")

    concepts: dict[str, Concept] = {}
    for cls in classes:
        labels: dict[str, list[str]] = {}
        for literal in _named(graph.objects(cls, RDFS.label)):
            labels.setdefault(literal.language or "", []).append(str(literal))
        if not labels:  # a class Protégé made without a label: named by its IRI alone
            labels[""] = [name_words(str(cls))]
        alts: dict[str, list[str]] = {}
        for lang, texts in labels.items():
            texts.sort()
            alts.setdefault(lang, []).extend(texts[1:])
        for literal in _named(graph.objects(cls, skos.altLabel)):
            alts.setdefault(literal.language or "", []).append(str(literal))

        candidates: list[tuple[str, Edge]] = []
        for sup in graph.objects(cls, RDFS.subClassOf):
            if isinstance(sup, rdflib.URIRef):
                if sup != OWL.Thing:
                    candidates.append((str(sup), Edge.IS_A))
            elif graph.value(sup, OWL.onProperty) == kg.inducedBy:
                target = graph.value(sup, OWL.someValuesFrom)
                if isinstance(target, rdflib.URIRef):
                    candidates.append((str(target), Edge.INDUCED_BY))
        candidates += [(str(o), Edge.SYNONYM) for o in graph.objects(cls, kg.synonymOf)]
        candidates.sort(key=lambda pe: (_PARENT_PREFERENCE[pe[1]], pe[0]))

        tree_parent = graph.value(cls, kg.treeParent)
        chosen = None
        if tree_parent is not None:
            chosen = next((pe for pe in candidates if pe[0] == str(tree_parent)), None)
        elif candidates:
            chosen = candidates[0]
        concepts[str(cls)] = Concept(
            iri=str(cls),
            labels={lang: texts[0] for lang, texts in labels.items()},
            alt_labels={lang: tuple(sorted(set(t))) for lang, t in alts.items() if t},
            parent=chosen[0] if chosen else None,
            edge=chosen[1] if chosen else None,
            extra_parents=tuple(
                p for p, e in candidates if e is Edge.IS_A and (chosen is None or p != chosen[0])
            ),
        )
    try:
        return Ontology(iri=str(ontology_iri or path.stem), concepts=concepts)
    except OntologyError as exc:
        raise OntologyError(f"{path}: {exc}") from None


def write_ontology(
    onto: Ontology, owl_path: str | Path, ttl_path: str | Path | None = None
) -> None:
    """Write OWL 2 RDF/XML with owlready2 and, if asked, Turtle with rdflib."""
    import owlready2
    import rdflib

    owl_path = Path(owl_path)
    owl_path.parent.mkdir(parents=True, exist_ok=True)
    world = owlready2.World()
    base = onto.iri if onto.iri.endswith(("#", "/")) else onto.iri + "#"
    out = world.get_ontology(base)
    with out:
        kg = out.get_namespace(KG)
        skos = out.get_namespace(SKOS)

        class inducedBy(owlready2.ObjectProperty):
            namespace = kg

        class synonymOf(owlready2.AnnotationProperty):
            namespace = kg

        class treeParent(owlready2.AnnotationProperty):
            namespace = kg

        class altLabel(owlready2.AnnotationProperty):
            namespace = skos

        made: dict[str, owlready2.ThingClass] = {}
        for concept in onto.concepts.values():  # breadth-first: parents come first
            with out.get_namespace(_namespace_of(concept.iri)):
                made[concept.iri] = types.new_class(_local_name(concept.iri), (owlready2.Thing,))
        for concept in onto.concepts.values():
            cls = made[concept.iri]
            supers = []
            if concept.edge is Edge.IS_A:
                supers.append(made[concept.parent])
            supers += [made[p] for p in concept.extra_parents]
            if supers:
                _append_each(cls.is_a, supers)
                cls.is_a.remove(owlready2.Thing)
            if concept.edge is Edge.INDUCED_BY:
                cls.is_a.append(inducedBy.some(made[concept.parent]))
            elif concept.edge is Edge.SYNONYM:
                cls.synonymOf = [made[concept.parent]]
            if concept.extra_parents:
                cls.treeParent = [made[concept.parent]]
            _append_each(
                cls.label, [owlready2.locstr(t, lang=lang) for lang, t in concept.labels.items()]
            )
            _append_each(
                cls.altLabel,
                [
                    owlready2.locstr(t, lang=lang)
                    for lang, texts in concept.alt_labels.items()
                    for t in texts
                ],
            )
    out.save(file=str(owl_path), format="rdfxml")
    world.close()
    if ttl_path is not None:
        graph = rdflib.Graph()
        graph.parse(owl_path, format="xml")
        graph.bind("kg", KG)
        graph.bind("skos", SKOS)
        graph.serialize(destination=str(ttl_path), format="turtle")


def _append_each(values: list, items: list) -> None:
    """Add items to an owlready2 list one at a time, so they are written in this order.

    Assigned a whole list, owlready2 stores the new values in set order (string hashes,
    object ids): every rebuild of the same corpus wrote different bytes, and missed the
    calibration cache, which is keyed by the ontology file's SHA-256."""
    for item in items:
        values.append(item)


def _named(literals: Iterable) -> list:
    """The labels that name something: an empty or blank one (`rdfs:label ""`) does not."""
    return [literal for literal in literals if str(literal).strip()]


def _syntax(head: bytes, suffix: str) -> str:
    """The syntax of an ontology file, told by its first bytes: Protégé saves each of
    them under `.owl`. RDF/XML and Turtle are read by rdflib, OWL/XML by owlready2."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith((b"Prefix(", b"Ontology(", b"Prefix:", b"Ontology:")):
        raise OntologyError(
            "OWL functional or Manchester syntax is not read: save the ontology as RDF/XML "
            "or Turtle (in Protégé: File › Save as)"
        )
    if text.startswith((b"@prefix", b"@base", b"PREFIX", b"BASE")):
        return "turtle"
    if _OWL_XML_ROOT.search(text):
        return "owlxml"
    return "turtle" if suffix == ".ttl" and not text.startswith(b"<") else "xml"


# OWL/XML's root element, `<Ontology xmlns="http://www.w3.org/2002/07/owl#" …>` (or prefixed)
_OWL_XML_ROOT = re.compile(rb"<(?:\w+:)?Ontology[\s>][^>]*http://www\.w3\.org/2002/07/owl#")


def _owl_xml_as_rdf_xml(path: Path) -> bytes:
    """An OWL/XML file as RDF/XML, through owlready2 (in a world of its own)."""
    import io

    import owlready2

    world = owlready2.World()
    try:
        onto = world.get_ontology(path.resolve().as_uri()).load()
        out = io.BytesIO()
        onto.save(file=out, format="rdfxml")
        return out.getvalue()
    finally:
        world.close()


def name_words(iri: str) -> str:
    """The words of an IRI's local name, the label of a class that has none.

    **Interpretation** (SPEC §3.3 names classes by their labels): a class without
    `rdfs:label`, common in ontologies made in Protégé, would otherwise name no topic
    word at all, and pages say "cold brew", not "ColdBrew".

    >>> name_words("http://ex.org/c#ColdBrew"), name_words("http://ex.org/c#URLShortener")
    ('cold brew', 'url shortener')
    >>> name_words("http://ex.org/c/cold_brew-bar"), name_words("http://ex.org/t#%E7%BC%86%E8%BD%A6")
    ('cold brew bar', '缆车')
    """
    spaced = _CAMEL_CASE.sub(" ", unquote(_local_name(iri)))
    return " ".join(spaced.replace("_", " ").replace("-", " ").split()).lower()


# where a word of a CamelCase name begins: "Cold|Brew", "URL|Shortener", "Area51|Park"
_CAMEL_CASE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _namespace_of(iri: str) -> str:
    cut = max(iri.rfind("#"), iri.rfind("/"))
    return iri[: cut + 1]


def _local_name(iri: str) -> str:
    cut = max(iri.rfind("#"), iri.rfind("/"))
    return iri[cut + 1 :]
