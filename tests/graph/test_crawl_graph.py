"""Crawls of the sandbox web written to a real FalkorDB: parity with the run state, always.

The run state is the source of truth (SPEC §7–8). Every test here crawls the
session's sandbox web and holds the graph to counts computed straight from the
run's SQLite file — not through the code under test — whatever happened on the
way: a graph killed mid-crawl, a write the server rejects, a crawl killed and
resumed, a second `graph sync`, a SIGKILLed embedded server.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path

import pytest
import redis
from typer.testing import CliRunner

from kgcrawl.calibrate import resolve_thresholds
from kgcrawl.cli import app
from kgcrawl.config import Settings, load_settings
from kgcrawl.crawl.engine import CrawlResult
from kgcrawl.graph import server
from kgcrawl.graph.queries import load_saved, saved_queries
from kgcrawl.graph.store import FalkorStore, GraphStore, connect
from kgcrawl.graph.sync import sync_graph, sync_run
from kgcrawl.ontology.model import Edge
from kgcrawl.ontology.owl import read_ontology
from kgcrawl.runner import CrawlRequest, crawl, resume
from kgcrawl.text.urls import host_of
from tests.graph.test_queries import EXPECTED

# The columns each saved query must return, as the hand-built world's tests hold them.
SAVED_QUERY_COLUMNS = {name: columns for name, (_, columns, _) in EXPECTED.items()}

EDGE_TYPE = {Edge.IS_A: "SUBCLASS_OF", Edge.INDUCED_BY: "INDUCED_BY", Edge.SYNONYM: "SYNONYM_OF"}
PAGE_URL = "CASE WHEN reason IS NULL THEN final_url ELSE url END"


def settings_for(uri: str, max_pages: int, **more) -> Settings:
    values = {
        "crawl.max_pages": max_pages,
        "crawl.workers": 4,
        "crawl.checkpoint_every": 20,
        "fetch.delay": 0,
        "graph.uri": uri,
        **more,
    }
    return resolve_thresholds(load_settings("tourism", values, environ={}))  # α, β as numbers


@dataclass(frozen=True)
class Parity:
    """What the graph must hold for one run, and the figures its saved queries must show."""

    nodes: dict[str, int]
    relationships: dict[str, int]
    seeds: tuple[str, ...]
    dp: int
    lp: int
    hosts: int  # hosts with a downloaded page
    mentions: dict[str, tuple[int, int]]  # concept IRI → (pages naming it, times named)
    hops: dict[str, int]  # fetched page → fewest links from a fetched seed


def parity(result: CrawlResult, settings: Settings) -> Parity:
    """Counts from the run's SQLite file and the ontology, by the definitions of SPEC §8."""
    db = sqlite3.connect(result.state_path)
    try:
        fetched = {url for (url,) in db.execute(f"SELECT {PAGE_URL} FROM outcomes")}
        downloaded = db.execute(
            "SELECT final_url, mentions, relevant FROM outcomes WHERE reason IS NULL"
        ).fetchall()
        links = set(
            db.execute(
                "SELECT o.final_url, l.url FROM outlinks l JOIN outcomes o ON o.seq = l.seq "
                "WHERE o.reason IS NULL"
            )
        )
    finally:
        db.close()
    onto = read_ontology(settings.ontology)
    iris = list(onto.concepts)
    named = {url: {iris[int(i)]: n for i, n in json.loads(m).items()} for url, m, _ in downloaded}
    pairs = {pair for concepts in named.values() for pair in combinations(sorted(concepts), 2)}
    pages, times = Counter(), Counter()
    for concepts in named.values():
        pages.update(concepts.keys())
        times.update(concepts)
    edges = Counter(EDGE_TYPE[c.edge] for c in onto.concepts.values() if c.parent and c.edge)
    edges["SUBCLASS_OF"] += sum(len(c.extra_parents) for c in onto.concepts.values())
    relationships = {
        "FETCHED": len(fetched),
        "ON_HOST": len(fetched),
        "LINKS_TO": len(links),
        "MENTIONS": sum(len(c) for c in named.values()),
        "CO_OCCURS": len(pairs),
        **edges,
    }
    return Parity(
        nodes={
            "Crawl": 1,
            "Page": len(fetched | {target for _, target in links}),
            "Host": len({host_of(url) for url in fetched}),
            "Concept": len(iris),
        },
        relationships={k: v for k, v in relationships.items() if v},
        seeds=settings.seeds,
        dp=len(downloaded),
        lp=sum(relevant for *_, relevant in downloaded),
        hosts=len({host_of(url) for url, *_ in downloaded}),
        mentions={iri: (pages[iri], times[iri]) for iri in pages},
        hops=_hops(fetched & set(settings.seeds), links, fetched),
    )


def _hops(seeds: set[str], links: set[tuple[str, str]], fetched: set[str]) -> dict[str, int]:
    """Breadth-first from all seeds at once: the fewest links to each fetched page."""
    out = dict.fromkeys(seeds, 0)
    children: dict[str, list[str]] = {}
    for source, target in links:
        children.setdefault(source, []).append(target)
    level = sorted(seeds)
    while level:
        nxt = []
        for url in level:
            for child in children.get(url, ()):
                if child not in out:
                    out[child] = out[url] + 1
                    nxt.append(child)
        level = nxt
    return {url: n for url, n in out.items() if url in fetched}


def graph_counts(store: GraphStore) -> tuple[dict[str, int], dict[str, int]]:
    nodes = store.run("MATCH (n) RETURN labels(n)[0] AS label, count(n) AS n").rows
    rels = store.run("MATCH ()-[r]->() RETURN type(r) AS type, count(r) AS n").rows
    return dict(map(tuple, nodes)), dict(map(tuple, rels))


def assert_parity(store: GraphStore, expected: Parity) -> None:
    assert graph_counts(store) == (expected.nodes, expected.relationships)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    monkeypatch.delenv("KGCRAWL_GRAPH_URI", raising=False)
    return tmp_path


@pytest.fixture
def own_server(home) -> server.ServerInfo:
    """A FalkorDB of this test's own (under <home>/falkordb/graph/), to kill at will."""
    info, _ = server.start(home / "falkordb")
    yield info
    server.stop(home / "falkordb")


def at_outcome(n: int, action):
    """An on_progress callback that runs `action` once, when the crawl has made n outcomes."""
    done = []

    def callback(progress) -> None:
        if progress.outcomes >= n and not done:
            done.append(True)
            action()

    return callback


# -- a 2 000-page crawl into the embedded server ----------------------------------------


@dataclass(frozen=True)
class BigCrawl:
    home: Path
    result: CrawlResult
    settings: Settings
    expected: Parity


@pytest.fixture(scope="module")
def big_crawl(tmp_path_factory, sandbox):
    """2 000 pages into the embedded server, left running as `kgcrawl graph start` leaves it."""
    home = tmp_path_factory.mktemp("big-crawl")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGCRAWL_HOME", str(home))
        mp.delenv("KGCRAWL_GRAPH_URI", raising=False)
        server.start(home)
        settings = settings_for("embedded", 2000)
        result = crawl(settings, CrawlRequest(resolve=tuple(sandbox.resolve)))
    yield BigCrawl(home, result, settings, parity(result, settings))
    server.stop(home)


@pytest.fixture
def big(big_crawl, monkeypatch) -> BigCrawl:
    monkeypatch.setenv("KGCRAWL_HOME", str(big_crawl.home))
    monkeypatch.delenv("KGCRAWL_GRAPH_URI", raising=False)
    return big_crawl


@pytest.mark.slow  # its module's fixture crawls 2 000 pages into the graph
def test_a_crawl_is_written_at_parity_with_its_state(big) -> None:
    assert big.result.dp == 2000 and not big.result.stopped
    assert big.result.graph == "embedded"  # the summary's next line offers `kgcrawl query`
    assert big.expected.dp == 2000
    with connect("embedded") as store:
        assert_parity(store, big.expected)
        ok = store.run("MATCH (p:Page) WHERE p.status = 'ok' RETURN count(p)").rows[0][0]
        linked = store.run("MATCH (p:Page) WHERE p.status IS NULL RETURN count(p)").rows[0][0]
    assert ok == big.expected.dp  # no failure overwrote a downloaded page
    fetched = big.expected.relationships["FETCHED"]
    assert linked == big.expected.nodes["Page"] - fetched  # link targets never fetched


def test_saved_queries_answer_on_a_crawled_graph(big) -> None:
    """Every saved query: the columns the hand-built world holds it to, and the run's figures."""
    expected, run_id = big.expected, big.result.run_id
    everything = {"limit": 10_000}
    farthest = max(expected.hops.values())
    path_url = min(url for url, n in expected.hops.items() if n == farthest)
    with connect("embedded") as store:
        top_iri = max(expected.mentions, key=lambda iri: expected.mentions[iri][1])
        params = {
            "top_concepts": everything,
            "hosts_by_harvest": everything,
            "concept_cooccurrence": everything,
            "relevant_pages": everything,
            "pages_for_concept": {"concept": top_iri, **everything},
            "crawl_path": {"url": path_url},
        }
        languages = dict(store.run("MATCH (p:Page) RETURN p.url, p.lang").rows)
        answers = {}
        for name in saved_queries():
            query = load_saved(name)
            answer = store.run(query.cypher, query.bind(params.get(name, {})))
            assert answer.columns == SAVED_QUERY_COLUMNS[name]
            assert answer.rows, f"{name}: no rows"
            answers[name] = answer.records()
        links = set(map(tuple, store.run("MATCH (a)-[:LINKS_TO]->(b) RETURN a.url, b.url").rows))

    (summary,) = answers["crawl_summary"]
    assert (summary["crawl"], summary["domain"], summary["strategy"]) == (
        run_id, "tourism", "fcits_oh")  # fmt: skip
    assert (summary["pages"], summary["relevant"], summary["hosts"]) == (
        expected.dp, expected.lp, expected.hosts)  # fmt: skip
    assert summary["harvest_rate"] == pytest.approx(expected.lp / expected.dp)
    assert 0 <= summary["mean_relevance"] <= 1 and summary["sd_relevance"] > 0

    hosts = answers["hosts_by_harvest"]
    assert len(hosts) == expected.hosts
    assert sum(h["pages"] for h in hosts) == expected.dp
    assert sum(h["relevant"] for h in hosts) == expected.lp
    rates = [h["harvest_rate"] for h in hosts]
    assert rates == sorted(rates, reverse=True) and all(0 <= r <= 1 for r in rates)

    top = answers["top_concepts"]
    assert {r["iri"]: (r["pages"], r["mentions"]) for r in top} == expected.mentions
    assert top[0]["iri"] == top_iri and all(r["domain"] == "tourism" for r in top)

    pairs = answers["concept_cooccurrence"]
    assert len(pairs) == expected.relationships["CO_OCCURS"]
    assert all(1 <= p["pages"] <= expected.dp for p in pairs)

    relevant = answers["relevant_pages"]  # the pages the crawl judged relevant, by default
    web = big.result.web_alpha  # the α the crawl judged by (crawl/core.py `_judge_pending`)
    assert web is not None
    assert len(relevant) == expected.lp
    assert all(r["relevance"] > web.alpha(languages[r["url"]]) for r in relevant)
    assert all(r["crawl"] == run_id for r in relevant)

    best = answers["pages_for_concept"]
    assert len(best) >= expected.mentions[top_iri][0]  # and pages naming narrower concepts
    assert [r["relevance"] for r in best] == sorted((r["relevance"] for r in best), reverse=True)

    (path,) = answers["crawl_path"]
    assert path["urls"][0] in expected.seeds and path["urls"][-1] == path_url
    assert path["hops"] == len(path["urls"]) - 1 == farthest >= 2
    assert all(step in links for step in pairwise(path["urls"]))


def test_graph_sync_again_duplicates_nothing(big) -> None:
    result = CliRunner().invoke(app, ["graph", "sync", big.result.run_id])
    assert result.exit_code == 0, result.output
    fetched = big.expected.relationships["FETCHED"]  # a failed fetch is a Page too
    assert f"synced {big.result.run_id}: {fetched} outcomes (pages and failed" in result.output
    assert "created 0 nodes, 0 relationships" in result.output
    with connect("embedded") as store:
        assert_parity(store, big.expected)


def test_sigkill_after_the_crawl_back_within_5s_and_sync_restores(big) -> None:
    running = server.status(big.home)
    assert running is not None  # the crawl reused the running server and left it up
    os.kill(running.pid, signal.SIGKILL)
    start = time.monotonic()
    while server.status(big.home) is not None:  # until the killed process is reaped
        time.sleep(0.01)
    info, started = server.start(big.home)
    with connect("embedded") as store:
        store.run("MATCH (c:Crawl) RETURN count(c)")
        back = time.monotonic() - start
        assert started and info.pid != running.pid
        log = (big.home / "graph" / server.LOG_FILE).read_text().splitlines()
        assert back < 5, "\n".join(log[-25:])  # the restart's own lines say where it waited
        report = sync_run(store, big.result.run_id)
        assert report.pages == big.expected.relationships["FETCHED"]
        assert_parity(store, big.expected)


# -- failures on the way ----------------------------------------------------------------


def test_remote_graph_killed_mid_crawl_then_graph_sync_restores(
    home, own_server, sandbox, capsys
) -> None:
    """The crawl completes without the graph, says so, and `graph sync` restores parity."""
    uri = f"falkordb://127.0.0.1:{own_server.port}/crawl"
    settings = settings_for(uri, 100)
    kill = at_outcome(40, lambda: os.kill(own_server.pid, signal.SIGKILL))
    result = crawl(settings, CrawlRequest(resolve=tuple(sandbox.resolve)), on_progress=kill)
    assert result.dp == 100 and not result.stopped
    assert f"run `kgcrawl graph sync {result.run_id}`" in capsys.readouterr().err
    assert result.graph == "", "no graph holds the whole run: the summary offers no query"
    info, started = server.start(home / "falkordb")
    assert started and info.port == own_server.port
    sync_graph(result.run_id)  # into the graph the run names
    with FalkorStore("127.0.0.1", info.port, "crawl") as store:
        assert_parity(store, parity(result, settings))


def test_embedded_graph_killed_mid_crawl_is_restarted_at_the_end(home, sandbox, capsys) -> None:
    settings = settings_for("embedded", 80)
    kill = at_outcome(30, lambda: os.kill(server.status(home).pid, signal.SIGKILL))
    result = crawl(settings, CrawlRequest(resolve=tuple(sandbox.resolve)), on_progress=kill)
    assert result.dp == 80 and result.graph == "embedded"
    assert "graph sync" not in capsys.readouterr().err
    assert server.status(home) is None  # the crawl started the server: it stops it too
    with connect("embedded") as store:
        assert_parity(store, parity(result, settings))


def test_a_rejected_graph_write_never_stops_the_crawl(home, own_server, sandbox) -> None:
    """From outcome 20 to 50 the server refuses writes (over maxmemory: GraphQueryError)."""
    admin = redis.Redis(port=own_server.port)
    steps = {20: "1", 50: "0"}

    def set_maxmemory(progress) -> None:
        if progress.outcomes in steps:
            admin.config_set("maxmemory", steps.pop(progress.outcomes))

    uri = f"falkordb://127.0.0.1:{own_server.port}/rejected"
    settings = settings_for(uri, 80)
    result = crawl(settings, CrawlRequest(resolve=tuple(sandbox.resolve)), set_maxmemory)
    assert result.dp == 80 and not result.stopped and result.graph == uri
    assert not steps and admin.info("errorstats")["errorstat_OOM"]["count"] > 0
    admin.close()
    with FalkorStore("127.0.0.1", own_server.port, "rejected") as store:
        assert_parity(store, parity(result, settings))


def test_a_crawl_killed_and_resumed_is_at_parity_and_syncs_add_nothing(
    home, own_server, sandbox
) -> None:
    """`kgcrawl crawl` with its graph down, SIGKILLed; resumed once the graph is back."""
    uri = f"falkordb://127.0.0.1:{own_server.port}/resumed"
    server.stop(home / "falkordb")
    command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--max-pages", "120",
               "--workers", "4", "--delay", "0", "--graph", uri,
               "--set", "crawl.checkpoint_every=20",
               *(f"--resolve={r}" for r in sandbox.resolve)]  # fmt: skip
    errors = home / "crawl.err"
    with errors.open("wb") as err:
        # Its own process group: the kill takes its analysis processes too, as a kill of
        # the terminal's job or container would.
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err,
                                   start_new_session=True)  # fmt: skip
    try:
        state = _wait_for_outcomes(home, process, 60)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert "crawling without it" in errors.read_text()
    info, _ = server.start(home / "falkordb")
    assert info.port == own_server.port
    run_id = state.parent.name
    result = resume(run_id, CrawlRequest())
    assert result.dp == 120
    expected = parity(result, settings_for(uri, 120))
    with FalkorStore("127.0.0.1", own_server.port, "resumed") as store:
        assert_parity(store, expected)  # the killed session's outcomes too
        for _ in range(2):
            report = sync_run(store, run_id)
            assert (report.nodes_created, report.relationships_created) == (0, 0)
        assert_parity(store, expected)


def _wait_for_outcomes(home: Path, process: subprocess.Popen, n: int, timeout: float = 60) -> Path:
    """The run's state file once it holds at least n committed outcomes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the crawl ended before it could be killed"
        for path in (home / "runs").glob("*/state.sqlite"):
            db = sqlite3.connect(path)
            try:
                count = db.execute("SELECT count(*) FROM outcomes").fetchone()[0]
            except sqlite3.OperationalError:
                count = 0
            finally:
                db.close()
            if count >= n:
                return path
        time.sleep(0.1)
    raise AssertionError(f"no {n} outcomes within {timeout} s")
