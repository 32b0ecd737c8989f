"""Runs in the graph: each crawl keeps its own judgement, a reused run id replaces, queries read."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest

from kgcrawl.graph.errors import GraphQueryError
from kgcrawl.graph.queries import load_saved, run_query
from kgcrawl.graph.writer import GraphWriter
from tests.graph.world import CRAWL, PAGES


def summary(store) -> dict[str, tuple[int, int]]:
    query = load_saved("crawl_summary")
    rows = store.run(query.cypher, query.bind({})).records()
    return {r["crawl"]: (r["pages"], r["relevant"]) for r in rows}


def test_a_later_crawl_does_not_rewrite_an_earlier_ones_judgement(graph_store) -> None:
    """Crawl 2 judges page a off-topic; crawl 1's summary still counts it relevant (§8 turn 2)."""
    writer = GraphWriter(graph_store)
    writer.write_crawl(CRAWL)
    writer.write(PAGES)  # run-1: a 0.9 ✓, b 0.8 ✓, c 0.2 ✗
    later = replace(CRAWL, id="run-2", started_at=CRAWL.started_at + 1)
    writer.write_crawl(later)
    writer.write([replace(PAGES[0], crawl="run-2", relevance=0.1, relevant=False)])
    assert summary(graph_store) == {"run-1": (3, 2), "run-2": (1, 0)}
    (page,) = graph_store.run("MATCH (p:Page {url: 'http://h1/a'}) RETURN p.relevance").rows
    assert page == [pytest.approx(0.1)]  # the Page keeps the latest judgement
    query = load_saved("relevant_pages")
    rows = graph_store.run(query.cypher, query.bind({"crawl": "run-1"})).records()
    assert [r["url"] for r in rows] == ["http://h1/a", "http://h1/b"]


def test_a_reused_run_id_replaces_what_the_crawl_fetched(graph_store) -> None:
    writer = GraphWriter(graph_store)
    writer.write_crawl(CRAWL)
    writer.write(PAGES)
    again = replace(CRAWL, started_at=CRAWL.started_at + 60_000)  # the id used by a new run
    writer.write_crawl(again)
    writer.write(PAGES[:1])
    assert summary(graph_store) == {"run-1": (1, 1)}
    assert writer.forget_fetched("run-1", keep=set()) == 1  # a sync whose state names none
    assert summary(graph_store) == {}


def test_query_is_read_only_unless_write(graph_server) -> None:
    uri = graph_server.uri(f"t_{uuid.uuid4().hex[:12]}")
    with pytest.raises(GraphQueryError, match="the graph is empty"):
        run_query("MATCH (n) RETURN n", uri=uri)
    run_query("CREATE (:Other)", uri=uri, write=True)
    with pytest.raises(GraphQueryError, match="--write"):
        run_query("CREATE (:Probe {n: 1})", uri=uri)
    count = "MATCH (p:Probe) RETURN count(p)"
    assert run_query(count, uri=uri).rows == [[0]]
    run_query("CREATE (:Probe {n: 1})", uri=uri, write=True)
    assert run_query(count, uri=uri).rows == [[1]]


def test_a_read_only_statement_reads_on_every_backend(any_store) -> None:
    """The Neo4j adapter reads in a read transaction; FalkorDB with GRAPH.RO_QUERY."""
    GraphWriter(any_store.store).write_crawl(CRAWL)
    result = any_store.store.run("MATCH (c:Crawl) RETURN c.id", read_only=True)
    assert result.rows == [["run-1"]]
