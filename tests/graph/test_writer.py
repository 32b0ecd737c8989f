"""GraphWriter: the SPEC §8 model from rows; idempotent, batched, patient with a dead graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgcrawl.graph import server
from kgcrawl.graph.errors import GraphUnavailable
from kgcrawl.graph.store import FalkorStore
from kgcrawl.graph.writer import GraphWriter, PageRow
from kgcrawl.ontology.model import Edge
from kgcrawl.ontology.owl import read_ontology
from kgcrawl.ontology.topic import build_topic_model
from tests.graph.world import (
    CRAWL,
    LINKS,
    MENTIONS,
    NODES,
    NS,
    PAGES,
    RELATIONSHIPS,
    tiny_ontology,
    write_world,
)

CHECKOUT = Path(__file__).resolve().parents[2]


def counts(store) -> tuple[dict[str, int], dict[str, int]]:
    nodes = store.run("MATCH (n) RETURN labels(n)[0] AS label, count(n) AS n").rows
    rels = store.run("MATCH ()-[r]->() RETURN type(r) AS type, count(r) AS n").rows
    return dict(map(tuple, nodes)), dict(map(tuple, rels))


def test_rows_become_the_model_and_rewriting_changes_nothing(any_store) -> None:
    write_world(any_store)
    assert counts(any_store.store) == (NODES, RELATIONSHIPS)
    writer = GraphWriter(any_store.store, chunk_rows=any_store.chunk_rows)
    again = writer.write_ontology(build_topic_model(tiny_ontology()), "tourism")
    again += writer.write_crawl(CRAWL)
    again += writer.write([*PAGES, *LINKS, *MENTIONS])
    again += writer.finish()
    assert (again.nodes_created, again.relationships_created) == (0, 0)
    assert (again.pages, again.links, again.mentions, again.concepts) == (3, 5, 5, 4)
    assert again.co_occurrences == 2
    assert counts(any_store.store) == (NODES, RELATIONSHIPS)


def test_properties_as_written(any_store) -> None:
    write_world(any_store)
    store = any_store.store
    page = store.run("MATCH (p:Page {url: 'http://h1/b'}) RETURN p").rows[0][0]
    assert page == {
        "_labels": ["Page"],
        "url": "http://h1/b",
        "host": "h1",
        "title": "B page",
        "text": "景点 景点 景区",
        "relevance": pytest.approx(0.8),
        "relevant": True,
        "fetched_at": 2,
        "lang": "zh",
        "hash": "hb",
        "status": "ok",
    }
    crawl = store.run("MATCH (c:Crawl) RETURN c").rows[0][0]
    assert json.loads(crawl.pop("settings")) == {"alpha": 0.7, "seeds": 2}
    assert crawl == {
        "_labels": ["Crawl"],
        "id": "run-1",
        "domain": "tourism",
        "strategy": "fcits_oh",
        "started_at": 1_700_000_000_000,
        "seeds": ["http://h1/a"],
    }
    orders = store.run("MATCH (:Crawl)-[f:FETCHED]->(p) RETURN p.url, f.order ORDER BY f.order")
    assert orders.rows == [["http://h1/a", 1], ["http://h1/b", 2], ["http://h2/c", 3]]
    link = store.run(
        "MATCH (:Page {url: 'http://h1/b'})-[l:LINKS_TO]->(t) RETURN t.url, l.anchor, "
        "l.anchor_relevance, l.priority"
    ).rows
    assert link == [["http://h2/c", "bus", 0.25, 0.5]]
    mention = store.run(
        "MATCH (:Page {url: 'http://h1/b'})-[m:MENTIONS]->(c) RETURN c.iri, m.count, m.weight"
    ).rows
    assert mention == [[NS + "A", 3, 0.75]]
    co = store.run(
        "MATCH (a:Concept)-[c:CO_OCCURS]->(b) RETURN a.iri, b.iri, c.pages ORDER BY a.iri"
    ).rows
    assert co == [[NS + "A", NS + "R", 1], [NS + "B", NS + "R", 1]]


def test_concepts_carry_labels_depth_and_topic_weight(any_store) -> None:
    write_world(any_store)
    rows = any_store.store.run(
        "MATCH (c:Concept) RETURN c.iri, c.label, c.labels, c.domain, c.depth, c.weight "
        "ORDER BY c.iri"
    ).rows
    # W_T for topic R (SPEC §3.3, τ = 1, every k = 0.2; Depth(O) = 2, Density(O) = 2):
    # R,A: (1/2 + 1 + 0 + 0 + 1/3)/5 = 11/30; R,B: (1/2 + 1 + 0 + 0 + 1/2)/5 = 2/5;
    # R,A2: (1/3 + 1 + 0 + 0 + mean(1/3, 1))/5 = 2/5; R,R = 1.
    assert rows == [
        [NS + "A", "景点", ["景点", "景区"], "tourism", 1, pytest.approx(11 / 30, abs=1e-6)],
        [NS + "A2", "名胜", ["名胜"], "tourism", 2, pytest.approx(2 / 5, abs=1e-6)],
        [NS + "B", "交通", ["交通"], "tourism", 1, pytest.approx(2 / 5, abs=1e-6)],
        [NS + "R", "旅游", ["旅游", "tourism"], "tourism", 0, 1.0],
    ]
    edges = any_store.store.run(
        "MATCH (c:Concept)-[e]->(p:Concept) WHERE type(e) <> 'CO_OCCURS' "
        "RETURN c.iri, type(e), p.iri ORDER BY c.iri"
    ).rows
    assert edges == [
        [NS + "A", "SUBCLASS_OF", NS + "R"],
        [NS + "A2", "SYNONYM_OF", NS + "A"],
        [NS + "B", "INDUCED_BY", NS + "R"],
    ]


def test_a_refreshed_ontology_moves_edges(graph_store) -> None:
    writer = GraphWriter(graph_store)
    writer.write_ontology(build_topic_model(tiny_ontology()), "tourism")
    writer.write_ontology(build_topic_model(tiny_ontology("B", Edge.IS_A)), "tourism")
    edges = graph_store.run(
        "MATCH (:Concept {iri: $iri})-[e]->(p) RETURN type(e), p.iri", {"iri": NS + "A2"}
    ).rows
    assert edges == [["SUBCLASS_OF", NS + "B"]]


def test_shipped_rainstorm_ontology_edges(graph_store) -> None:
    onto = read_ontology(CHECKOUT / "ontologies" / "rainstorm.owl")
    report = GraphWriter(graph_store).write_ontology(build_topic_model(onto), "rainstorm")
    expected = {"SUBCLASS_OF": 0, "INDUCED_BY": 0, "SYNONYM_OF": 0}
    for c in onto.concepts.values():
        if c.edge is not None:
            expected[
                {"is-a": "SUBCLASS_OF", "induced-by": "INDUCED_BY"}.get(c.edge, "SYNONYM_OF")
            ] += 1
        expected["SUBCLASS_OF"] += len(c.extra_parents)
    _, rels = counts(graph_store)
    assert rels == {k: v for k, v in expected.items() if v}
    assert expected["INDUCED_BY"] > 0 and expected["SYNONYM_OF"] > 0
    assert report.concepts == len(onto) and report.concept_edges == sum(expected.values())


def test_nul_and_non_finite_values_are_cleaned(graph_store) -> None:
    dirty = PageRow("r", 1, "http://h/n", "h", "ti\x00tle", "te\x00xt", float("nan"), False,
                    0, "zh", "h", "ok")  # fmt: skip
    GraphWriter(graph_store).write([dirty])
    row = graph_store.run("MATCH (p:Page) RETURN p.title, p.text, p.relevance").rows
    assert row == [["title", "text", None]]


def test_add_flushes_at_the_row_threshold(graph_store) -> None:
    writer = GraphWriter(graph_store, flush_rows=3, flush_every=3600)
    assert writer.add(PAGES[:2]) is None
    assert writer.pending == 2
    assert counts(graph_store)[0] == {}
    report = writer.add(LINKS[:1])
    assert report is not None and (report.pages, report.links) == (2, 1)
    assert writer.pending == 0
    assert counts(graph_store)[0]["Page"] == 2


def test_add_flushes_every_interval(graph_store) -> None:
    now = [0.0]
    writer = GraphWriter(graph_store, flush_rows=500, flush_every=2.0, clock=lambda: now[0])
    assert writer.add(PAGES[:1]) is None
    now[0] = 1.9
    assert writer.add(PAGES[1:2]) is None
    now[0] = 2.0
    report = writer.add(PAGES[2:])
    assert report is not None and report.pages == 3


@pytest.fixture
def own_server(tmp_path):
    info, _ = server.start(tmp_path)
    yield tmp_path, info
    server.stop(tmp_path)


def test_a_dead_graph_does_not_stop_the_crawl_and_rows_wait(own_server) -> None:
    home, info = own_server
    now = [0.0]
    store = FalkorStore("127.0.0.1", info.port)
    store.ensure_schema()
    writer = GraphWriter(
        store, flush_rows=1, retries=1, backoff=0.01, retry_after=10.0, clock=lambda: now[0]
    )
    server.stop(home)
    assert writer.add(PAGES[:1]) is None  # no exception: the crawl goes on
    assert isinstance(writer.last_error, GraphUnavailable)
    assert writer.pending == 1
    with pytest.raises(GraphUnavailable):
        writer.flush()
    server.start(home)  # the same port again: the store reconnects by itself
    now[0] = 5.0
    assert writer.add(PAGES[1:2]) is None  # still waiting out retry_after
    now[0] = 10.5
    report = writer.add(PAGES[2:])
    assert report is not None and report.pages == 3
    assert writer.last_error is None and writer.pending == 0
    assert store.run("MATCH (p:Page) RETURN count(p)").rows == [[3]]
    store.close()


def test_rows_beyond_max_pending_are_dropped_and_counted(own_server) -> None:
    home, info = own_server
    store = FalkorStore("127.0.0.1", info.port)
    writer = GraphWriter(store, flush_rows=1, retries=0, retry_after=0.0, max_pending=4)
    server.stop(home)
    writer.add(PAGES)
    assert (writer.pending, writer.dropped) == (3, 0)
    writer.add(LINKS[:2])
    assert (writer.pending, writer.dropped) == (0, 5)
    store.close()
