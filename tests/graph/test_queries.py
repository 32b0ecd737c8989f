"""Saved queries: documented headers, and every one answered right on the hand-built world."""

from __future__ import annotations

import re

import pytest

from kgcrawl.graph.errors import GraphError
from kgcrawl.graph.queries import load_saved, parse_params, saved_queries
from kgcrawl.graph.writer import CrawlRow, MentionRow, PageRow
from kgcrawl.ontology.model import Concept, Ontology
from kgcrawl.ontology.topic import build_topic_model
from tests.fixtures.graph import Backend
from tests.graph.world import CRAWL, NS, write_world

A, B, R = NS + "A", NS + "B", NS + "R"
APPROX = {"abs": 1e-6}  # FalkorDB's Bolt endpoint cuts float parameters to 6 decimals

# name → (parameters, columns, rows), worked out by hand from tests/graph/world.py.
EXPECTED = {
    "top_concepts": (
        {},
        ["concept", "iri", "domain", "pages", "mentions", "weight"],
        [
            ["景点", A, "tourism", 2, 4, 11 / 30],  # a: 1, b: 3
            ["旅游", R, "tourism", 2, 3, 1.0],  # a: 2, c: 1
            ["交通", B, "tourism", 1, 1, 2 / 5],
        ],
    ),
    "pages_for_concept": (
        {"concept": "景区"},  # an altLabel of A; A2 (synonym of A) is narrower
        ["url", "title", "relevance", "mentions", "concepts"],
        [["http://h1/a", "A page", 0.9, 1, ["景点"]], ["http://h1/b", "B page", 0.8, 3, ["景点"]]],
    ),
    "hosts_by_harvest": (
        {},
        ["host", "pages", "relevant", "harvest_rate", "mean_relevance"],
        [["h1", 2, 2, 1.0, (0.9 + 0.8) / 2], ["h2", 1, 0, 0.0, 0.2]],
    ),
    "concept_cooccurrence": (
        {},
        ["concept_a", "concept_b", "pages"],
        [["交通", "旅游", 1], ["景点", "旅游", 1]],  # 交 U+4EA4 sorts before 景 U+666F
    ),
    "crawl_path": (
        {"url": "http://h2/c"},
        ["crawl", "hops", "urls", "relevance"],
        [["run-1", 2, ["http://h1/a", "http://h1/b", "http://h2/c"], [0.9, 0.8, 0.2]]],
    ),
    "crawl_summary": (
        {},
        [
            "crawl",
            "domain",
            "strategy",
            "started_at",
            "pages",
            "relevant",
            "harvest_rate",
            "mean_relevance",
            "sd_relevance",
            "hosts",
        ],
        # AR = (0.9 + 0.8 + 0.2)/3 = 0.63333; SD = sqrt((0.26667² + 0.16667² + 0.43333²)/3)
        [["run-1", "tourism", "fcits_oh", 1_700_000_000_000, 3, 2, 2 / 3, 0.633333, 0.309121, 2]],
    ),
    "relevant_pages": (
        {},
        ["crawl", "fetched", "url", "title", "relevance", "host"],
        [
            ["run-1", 1, "http://h1/a", "A page", 0.9, "h1"],
            ["run-1", 2, "http://h1/b", "B page", 0.8, "h1"],
        ],
    ),
}


def test_every_saved_query_is_covered_and_documented() -> None:
    queries = saved_queries()
    assert set(queries) == set(EXPECTED)
    for name, query in queries.items():
        assert query.summary, f"{name}: no summary line"
        used = set(re.findall(r"\$(\w+)", query.cypher))
        assert used == set(query.params), f"{name}: parameters used ≠ declared"
        assert "//" not in query.cypher


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_saved_query_answers(any_store, name) -> None:
    write_world(any_store)
    params, columns, rows = EXPECTED[name]
    query = load_saved(name)
    result = any_store.store.run(query.cypher, query.bind(params))
    assert result.columns == columns
    assert result.rows == [[_approx(v) for v in row] for row in rows]


@pytest.mark.parametrize(
    ("params", "urls"),
    [
        ({"concept": "旅游"}, ["http://h1/a", "http://h1/b", "http://h2/c"]),  # the root: all
        ({"concept": B}, ["http://h2/c"]),  # by IRI
        ({"concept": "nowhere"}, []),
    ],
)
def test_pages_for_concept_includes_narrower_concepts(graph_store, params, urls) -> None:
    write_world(Backend("falkordb", graph_store))
    query = load_saved("pages_for_concept")
    records = graph_store.run(query.cypher, query.bind(params)).records()
    assert [r["url"] for r in records] == urls
    if params["concept"] == "旅游":
        assert [r["mentions"] for r in records] == [3, 3, 2]
        assert sorted(records[2]["concepts"]) == sorted(["旅游", "交通"])


@pytest.mark.parametrize(
    "params",
    [
        {"url": "http://h2/c", "crawl": "other"},  # no such crawl
        {"url": "http://h1/a"},  # the seed itself
        {"url": "http://x/never-fetched"},  # found, never fetched
    ],
)
def test_crawl_path_without_a_path_is_empty(graph_store, params) -> None:
    write_world(Backend("falkordb", graph_store))
    query = load_saved("crawl_path")
    assert graph_store.run(query.cypher, query.bind(params)).rows == []


def _rainstorm_crawl_too(backend) -> None:
    """The world, then a later rainstorm crawl that judges page c relevant and fetches d."""
    writer = write_world(backend)
    rain = Ontology(NS, {NS + "Rain": Concept(NS + "Rain", {"zh": "暴雨"})})
    writer.write_ontology(build_topic_model(rain), "rainstorm")
    writer.write_crawl(CrawlRow("run-2", "rainstorm", "ops", CRAWL.started_at + 1, {}))
    writer.write([
        PageRow("run-2", 1, "http://h2/c", "h2", "C page", "暴雨", 0.6, True, 4, "zh", "hc", "ok"),
        PageRow("run-2", 2, "http://h3/d", "h3", "D page", "雨", 0.1, False, 5, "zh", "hd", "ok"),
        MentionRow("http://h2/c", NS + "Rain", 5, 1.0),
    ])  # fmt: skip
    writer.finish()


@pytest.mark.parametrize(
    ("domain", "hosts"),
    [
        ("tourism", [["h1", 2, 2], ["h2", 1, 0]]),  # c as the tourism crawl judged it
        ("rainstorm", [["h2", 1, 1], ["h3", 1, 0]]),
        ("", [["h1", 2, 2], ["h2", 1, 1], ["h3", 1, 0]]),  # c once, as the last crawl judged it
    ],
)
def test_the_summary_hosts_and_concepts_of_one_domain_in_a_graph_of_two(
    graph_store, domain, hosts
) -> None:
    _rainstorm_crawl_too(Backend("falkordb", graph_store))
    query = load_saved("hosts_by_harvest")
    rows = graph_store.run(query.cypher, query.bind({"domain": domain})).rows
    assert [row[:3] for row in rows] == hosts
    for name, column in (("top_concepts", 2), ("crawl_summary", 1)):
        query = load_saved(name)
        rows = graph_store.run(query.cypher, query.bind({"domain": domain})).rows
        assert {row[column] for row in rows} == ({domain} if domain else {"tourism", "rainstorm"})


@pytest.mark.parametrize(
    ("crawl", "hosts", "concepts"),
    [
        # c as run-1 judged it; the concepts a page names are the page's, whoever fetched it
        ("run-1", [["h1", 2, 2], ["h2", 1, 0]], {"景点", "旅游", "交通", "暴雨"}),
        ("run-2", [["h2", 1, 1], ["h3", 1, 0]], {"旅游", "交通", "暴雨"}),  # not a's and b's 景点
    ],
)
def test_the_summary_hosts_and_concepts_of_one_crawl(graph_store, crawl, hosts, concepts) -> None:
    _rainstorm_crawl_too(Backend("falkordb", graph_store))
    answers = {}
    for name in ("crawl_summary", "hosts_by_harvest", "top_concepts"):
        query = load_saved(name)
        answers[name] = graph_store.run(query.cypher, query.bind({"crawl": crawl})).records()
    assert [row["crawl"] for row in answers["crawl_summary"]] == [crawl]
    hosts_found = answers["hosts_by_harvest"]
    assert [[h["host"], h["pages"], h["relevant"]] for h in hosts_found] == hosts
    assert {row["concept"] for row in answers["top_concepts"]} == concepts


def test_parameters_from_the_command_line() -> None:
    assert parse_params(
        ["limit=5", "concept=旅游", "a=0.7", 'quoted="20"', "url=http://x/?q=1"]
    ) == {
        "limit": 5,
        "concept": "旅游",
        "a": 0.7,
        "quoted": "20",
        "url": "http://x/?q=1",
    }
    for bad in ["limit", "=5", "no space=1"]:
        with pytest.raises(GraphError, match="NAME=VALUE"):
            parse_params([bad])


def test_binding_checks_names_and_fills_defaults() -> None:
    query = load_saved("pages_for_concept")
    assert query.bind({"concept": "景点"}) == {"concept": "景点", "limit": 20}
    with pytest.raises(GraphError, match="needs --param concept"):
        query.bind({})
    with pytest.raises(GraphError, match="no parameter 'colour'"):
        query.bind({"concept": "x", "colour": "red"})
    with pytest.raises(GraphError, match=r"no saved query 'nope'.*top_concepts"):
        load_saved("nope")
    with pytest.raises(
        GraphError, match=r"no saved query 'top_concept' \(did you mean 'top_concepts'\?\)"
    ):
        load_saved("top_concept")


def test_a_query_of_ones_own_saved_with_a_bom_reads_as_written(tmp_path) -> None:
    path = tmp_path / "mine.cypher"
    path.write_text("// Mine.\n// @param n = 1  how many\nRETURN $n AS n\n", "utf-8-sig")
    query = load_saved("mine", tmp_path)
    assert (query.summary, query.params, query.cypher) == ("Mine.", {"n": 1}, "RETURN $n AS n")
    path.write_text("// Mine.\nRETURN 1\n", "utf-16")
    with pytest.raises(GraphError, match=r"mine\.cypher: not UTF-8 text"):
        load_saved("mine", tmp_path)


def _approx(value):
    if isinstance(value, float):
        return pytest.approx(value, **APPROX)
    if isinstance(value, list):
        return [_approx(v) for v in value]
    return value
