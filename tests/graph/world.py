"""A small hand-built crawl world for the graph tests: every count and value known by hand."""

from __future__ import annotations

from kgcrawl.graph.writer import CrawlRow, GraphWriter, LinkRow, MentionRow, PageRow
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.topic import build_topic_model

NS = "http://example.org/w#"


def tiny_ontology(a2_parent: str = "A", a2_edge: Edge = Edge.SYNONYM) -> Ontology:
    """R ─is-a─ A, R ─induced-by─ B, A2 under A (synonym) or moved elsewhere."""
    concepts = [
        Concept(NS + "R", {"zh": "旅游", "en": "tourism"}),
        Concept(NS + "A", {"zh": "景点"}, {"zh": ("景区",)}, parent=NS + "R", edge=Edge.IS_A),
        Concept(NS + "B", {"zh": "交通"}, parent=NS + "R", edge=Edge.INDUCED_BY),
        Concept(NS + "A2", {"zh": "名胜"}, parent=NS + a2_parent, edge=a2_edge),
    ]
    return Ontology(NS, {c.iri: c for c in concepts})


CRAWL = CrawlRow(
    "run-1", "tourism", "fcits_oh", 1_700_000_000_000, {"alpha": 0.7, "seeds": 2}, ("http://h1/a",)
)
PAGES = [
    PageRow(
        "run-1", 1, "http://h1/a", "h1", "A page", "景点 景区 旅游", 0.9, True, 1, "zh", "ha", "ok"
    ),
    PageRow(
        "run-1", 2, "http://h1/b", "h1", "B page", "景点 景点 景区", 0.8, True, 2, "zh", "hb", "ok"
    ),
    PageRow(
        "run-1", 3, "http://h2/c", "h2", "C page", "交通 旅游", 0.2, False, 3, "en", "hc", "ok"
    ),
]
LINKS = [
    LinkRow("http://h1/a", "http://h1/b", "more", 0.5, 0.75),
    LinkRow("http://h1/a", "http://h1/b", "more", 0.5, 0.75),  # the same link seen twice
    LinkRow("http://h1/a", "http://x/never-fetched", "elsewhere", 0.0, 0.125),
    LinkRow("http://h1/b", "http://h2/c", "bus", 0.25, 0.5),
    LinkRow("http://h2/c", "http://h1/a", "home", 0.0, 0.25),
]
MENTIONS = [
    MentionRow("http://h1/a", NS + "R", 2, 0.5),
    MentionRow("http://h1/a", NS + "A", 1, 0.25),
    MentionRow("http://h1/b", NS + "A", 3, 0.75),
    MentionRow("http://h2/c", NS + "R", 1, 0.5),
    MentionRow("http://h2/c", NS + "B", 1, 0.5),
]
# Hand-counted from the rows above (targets may be unfetched: x is a Page too).
NODES = {"Concept": 4, "Crawl": 1, "Host": 2, "Page": 4}
RELATIONSHIPS = {
    "CO_OCCURS": 2,  # (R, A) on page a, (R, B) on page c
    "FETCHED": 3,
    "INDUCED_BY": 1,
    "LINKS_TO": 4,
    "MENTIONS": 5,
    "ON_HOST": 3,
    "SUBCLASS_OF": 1,
    "SYNONYM_OF": 1,
}


def write_world(backend) -> GraphWriter:
    writer = GraphWriter(backend.store, chunk_rows=backend.chunk_rows)
    writer.write_ontology(build_topic_model(tiny_ontology()), "tourism")
    writer.write_crawl(CRAWL)
    writer.write([*PAGES, *LINKS, *MENTIONS])
    writer.finish()
    return writer
