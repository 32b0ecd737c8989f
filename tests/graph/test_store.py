"""GraphStore: URIs, errors the crawl can catch, schema, values through both adapters."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcrawl.errors import KgcrawlError
from kgcrawl.graph import schema, server
from kgcrawl.graph.errors import GraphError, GraphQueryError, GraphUnavailable
from kgcrawl.graph.store import FalkorStore, connect

CHECKOUT = Path(__file__).resolve().parents[2]


def test_none_disables_the_graph(monkeypatch) -> None:
    assert connect("none") is None
    monkeypatch.setenv("KGCRAWL_GRAPH_URI", "none")
    assert connect() is None


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("redis://127.0.0.1:6379", "unknown graph URI"),
        ("falkordb://127.0.0.1", "needs a host and a port"),
    ],
)
def test_bad_uri_is_one_clear_error(uri, message) -> None:
    with pytest.raises(GraphError, match=message) as info:
        connect(uri)
    assert not isinstance(info.value, GraphUnavailable)


@pytest.mark.parametrize("scheme", ["falkordb", "bolt"])
def test_unreachable_graph_raises_graph_unavailable(scheme) -> None:
    port = server.free_port()  # nothing listens there
    with pytest.raises(GraphUnavailable, match=f"127.0.0.1:{port}") as info:
        connect(f"{scheme}://127.0.0.1:{port}")
    assert isinstance(info.value, KgcrawlError)


def test_a_store_whose_server_went_away_raises_graph_unavailable(tmp_path) -> None:
    info, _ = server.start(tmp_path, persist=False)
    store = FalkorStore("127.0.0.1", info.port)
    assert store.run("RETURN 1 AS one").rows == [[1]]
    server.stop(tmp_path)
    with pytest.raises(GraphUnavailable):
        store.run("RETURN 1 AS one")
    store.close()


def test_bad_cypher_is_a_query_error(graph_store) -> None:
    with pytest.raises(GraphQueryError) as info:
        graph_store.run("MATCH (n RETURN n")
    assert not isinstance(info.value, GraphUnavailable)
    assert "\n" not in str(info.value)


def test_schema_unique_keys_and_idempotent_set_up(graph_store) -> None:
    graph_store.ensure_schema()  # a second time: existing indexes are not re-created
    rows = graph_store.run(schema.FALKORDB_CONSTRAINTS).rows
    assert {(label, props[0], status) for label, props, status in rows} == {
        (label, prop, "OPERATIONAL") for label, prop in schema.UNIQUE_KEYS
    }
    graph_store.run("CREATE (:Page {url: 'http://a/'})")
    with pytest.raises(GraphQueryError, match="unique constraint"):
        graph_store.run("CREATE (:Page {url: 'http://a/'})")


def test_neo4j_schema_file_matches_the_dialect_table() -> None:
    lines = (CHECKOUT / "neo4j" / "schema.cypher").read_text(encoding="utf-8").splitlines()
    cypher = " ".join(line for line in lines if not line.startswith("//"))
    assert [s.strip() for s in cypher.split(";") if s.strip()] == schema.NEO4J.statements()


def test_parameters_round_trip_exactly_through_the_native_client(graph_store) -> None:
    value = {
        "text": 'it\'s "quoted" \\ back\\slash\nnew line 旅游 🌧',
        "small": 1e-05,
        "third": 1 / 3,
        "big": 2**53,
        "flag": False,
        "none": None,
        "list": ["a", 1, 0.5, True],
    }
    row = graph_store.run(
        "RETURN $v.text AS text, $v.small AS small, $v.third AS third, $v.big AS big, "
        "$v.flag AS flag, $v.none AS none, $v.list AS list, $v.third = 0.3333333333333333 AS eq",
        {"v": value},
    ).records()[0]
    # Stored exactly (eq); FalkorDB prints doubles back with 15 significant digits.
    assert row.pop("eq") is True
    assert row.pop("third") == pytest.approx(1 / 3, rel=1e-14)
    assert row == {k: value[k] for k in row}


def test_entities_become_property_maps(any_store) -> None:
    store = any_store.store
    store.run("CREATE (:Page {url: 'http://a/'})-[:LINKS_TO {anchor: 'more'}]->(:Page {url: 'b'})")
    node, rel = store.run("MATCH (a:Page {url: 'http://a/'})-[r:LINKS_TO]->() RETURN a, r").rows[0]
    assert node == {"_labels": ["Page"], "url": "http://a/"}
    assert rel == {"_type": "LINKS_TO", "anchor": "more"}


@pytest.mark.parametrize("fixture", ["graph_store", "neo4j_store"])
def test_dates_times_and_durations_come_back_as_iso_text(fixture, request) -> None:
    """`query --json` wrote a FalkorDB duration as a traceback: the client's relativedelta
    is no JSON, and a table showed `relativedelta(days=+1, hours=+2)`. (FalkorDB's own
    Bolt endpoint drops the connection on a temporal value: not ours to mend.)"""
    store = request.getfixturevalue(fixture)
    (row,) = store.run(
        "RETURN date('2024-01-02') AS day, localdatetime('2024-01-02T03:04:05') AS at, "
        "localtime('03:04:05') AS clock, duration('P1DT2H') AS span, duration('P2Y3M') AS long"
    ).records()
    assert row == {
        "day": "2024-01-02",
        "at": "2024-01-02T03:04:05",
        "clock": "03:04:05",
        "span": "P1DT2H",
        "long": "P2Y3M",
    }


def test_paths_become_node_relationship_lists(graph_store) -> None:
    graph_store.run("CREATE (:Page {url: 'a'})-[:LINKS_TO {anchor: 'x'}]->(:Page {url: 'b'})")
    (path,) = graph_store.run("MATCH p = (:Page {url: 'a'})-[:LINKS_TO]->() RETURN p").rows[0]
    assert path == [
        {"_labels": ["Page"], "url": "a"},
        {"_type": "LINKS_TO", "anchor": "x"},
        {"_labels": ["Page"], "url": "b"},
    ]


def test_write_counters_are_reported(any_store) -> None:
    stats = any_store.store.run("CREATE (:Host {name: 'h'})-[:X]->(:Host {name: 'g'})").stats
    assert stats["nodes_created"] == 2 and stats["relationships_created"] == 1


def test_neo4j_driver_on_falkordb_bolt_gets_falkordb_indexes(bolt_store) -> None:
    rows = bolt_store.run(schema.FALKORDB.existing).rows
    assert schema.indexed(rows) == set(schema.UNIQUE_KEYS)
    bolt_store.ensure_schema()  # nothing left to create, and no error
