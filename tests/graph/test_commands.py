"""`kgcrawl query` and `kgcrawl graph start|status|stop` through the command line."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from kgcrawl.cli import app, main
from kgcrawl.graph.store import FalkorStore
from kgcrawl.runs import iso_time
from tests.fixtures.graph import Backend
from tests.graph.world import CRAWL, write_world

runner = CliRunner()


@pytest.fixture(scope="module")
def world_home(graph_server):
    """The session server's default graph holds the hand-built world."""
    store = FalkorStore("127.0.0.1", graph_server.port)
    store.ensure_schema()
    store.run("MATCH (n) DETACH DELETE n")
    write_world(Backend("falkordb", store))
    store.close()
    return graph_server.home


@pytest.fixture
def env(world_home, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(world_home))
    monkeypatch.delenv("KGCRAWL_GRAPH_URI", raising=False)


def test_query_prints_a_table(env) -> None:
    result = runner.invoke(app, ["query", "MATCH (p:Page) RETURN p.url AS url ORDER BY url"])
    assert result.exit_code == 0, result.output
    assert "http://x/never-fetched" in result.output and "4 rows" in result.output


def test_a_narrow_result_keeps_its_row_count_on_one_line(env) -> None:
    result = runner.invoke(app, ["query", "UNWIND range(1, 3) AS n RETURN n"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "3 rows"  # not folded to the table's width


def test_query_param_and_json(env) -> None:
    result = runner.invoke(app, ["query", "RETURN $x + 1 AS y, $s AS s", "-p", "x=41", "--param",
                                 "s=旅游", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"y": 42, "s": "旅游"}]


def test_saved_query_with_param_as_json(env) -> None:
    args = ["query", "--saved", "pages_for_concept", "--param", "concept=景区", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert [r["url"] for r in json.loads(result.output)] == ["http://h1/a", "http://h1/b"]


def test_saved_query_as_csv(env) -> None:
    result = runner.invoke(app, ["query", "--saved", "hosts_by_harvest", "--csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.output)))
    assert rows == [
        ["host", "pages", "relevant", "harvest_rate", "mean_relevance"],
        ["h1", "2", "2", "1.0", "0.85"],
        ["h2", "1", "0", "0.0", "0.2"],
    ]


def test_saved_query_table_is_titled_and_shows_times_as_people_read_them(env) -> None:
    result = runner.invoke(app, ["query", "--saved", "crawl_summary"])
    assert result.exit_code == 0, result.output
    assert "crawl_summary" in result.output and "1 row\n" in result.output
    assert iso_time(CRAWL.started_at) in result.output  # 2023-11-14T…, not 1700000000000
    assert str(CRAWL.started_at) not in result.output
    as_json = runner.invoke(app, ["query", "--saved", "crawl_summary", "--json"]).output
    assert json.loads(as_json)[0]["started_at"] == CRAWL.started_at  # programs get the number


def test_lists_and_maps_show_whole_and_only_long_text_is_cut(env) -> None:
    """A path of URLs (saved query `crawl_path`) or a node shows every item; a page's text
    inside is cut, as a text column is."""
    urls = [f"http://example.org/{i}/a-long-path-of-the-site/page.html" for i in range(6)]
    cypher = "RETURN $urls AS urls, {text: $text, url: 'http://h1/a', seen_at: $at} AS page"
    params = [f"urls={json.dumps(urls)}", "text=" + "旅游" * 200, "at=1700000000000"]
    result = runner.invoke(app, ["query", cypher, *(a for p in params for a in ("-p", p))])
    assert result.exit_code == 0, result.output
    assert all(url in result.output for url in urls)
    assert '"http://h1/a"' in result.output and iso_time(1_700_000_000_000) in result.output
    assert 50 < result.output.count("旅") < 70 and "…" in result.output


@pytest.mark.parametrize("layout", ["table", "key: value"])
def test_text_from_the_web_shows_as_written(env, layout) -> None:
    """Titles are data, not rich markup: `[travel]` stays, `[/b]` does not stop the
    command, `:thumbs_up:` is no emoji; a null inside a list says so."""
    titles = ["[travel] Best beaches", "[/b] forum :thumbs_up:"]
    wide = ", 'x' AS padding" if layout == "table" else ", '" + "long words " * 12 + "' AS v"
    cypher = f"RETURN $a AS a, $b AS b, [true, null] AS l{wide}"
    result = runner.invoke(app, ["query", cypher, "-p", f"a={titles[0]}", "-p", f"b={titles[1]}"])
    assert result.exit_code == 0, result.output
    assert ("a: " in result.output) == (layout == "key: value")
    assert all(title in result.output for title in titles) and "[true, null]" in result.output


def test_explicit_graph_uri(graph_server, world_home) -> None:
    uri = graph_server.uri("kgcrawl")
    result = runner.invoke(app, ["query", "MATCH (h:Host) RETURN count(h) AS n", "--graph", uri])
    assert result.exit_code == 0, result.output
    assert "2" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["query", "--saved", "nope"], "no saved query 'nope'"),
        (["query", "--saved", "pages_for_concept"], "needs --param concept=VALUE"),
        (["query", "MATCH (n RETURN n"], "Invalid input"),
        (["query", "RETURN 1", "--graph", "none"], "graph is disabled"),
        (["query", "RETURN 1", "--param", "oops"], "expected NAME=VALUE"),
        (
            ["query", "RETURN $x, '$y', $z", "--param", "x=1"],
            "Missing parameters: $z (give each with --param NAME=VALUE)",
        ),
        (["query"], "give either a Cypher statement or --saved NAME"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(env, capsys, args, message) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and err.startswith("error:")
    assert len(err.splitlines()) == 1


def test_json_and_csv_together_are_refused(env) -> None:
    result = runner.invoke(app, ["query", "RETURN 1", "--json", "--csv"])
    assert result.exit_code == 2


def test_graph_status_says_what_the_graph_holds(env) -> None:
    status = runner.invoke(app, ["graph", "status"])
    assert status.exit_code == 0, status.output
    said = " ".join(status.output.split())  # c, b and a; a link target never fetched
    assert "holds 1 crawl (tourism 1): 3 pages downloaded (1 more linked or failed) on 2" in said


def test_graph_start_status_stop(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    try:
        first = runner.invoke(app, ["graph", "start"])
        assert first.exit_code == 0 and "started" in first.output
        again = runner.invoke(app, ["graph", "start"])
        assert again.exit_code == 0 and "already running" in again.output
        status = runner.invoke(app, ["graph", "status"])
        assert status.exit_code == 0 and "running" in status.output
        assert "holds nothing yet" in status.output
        # The schema is in place for later commands.
        result = runner.invoke(app, ["query", "CALL db.constraints() YIELD label RETURN label"])
        assert "4 rows" in result.output
        assert all(label in result.output for label in ("Page", "Concept", "Host", "Crawl"))
    finally:
        stopped = runner.invoke(app, ["graph", "stop"])
    assert stopped.exit_code == 0 and "stopped" in stopped.output
    status = runner.invoke(app, ["graph", "status"])
    assert status.exit_code == 1 and "not running" in status.output
    assert "not running" in runner.invoke(app, ["graph", "stop"]).output
