"""A crawl recalibrates α on the topic words its first pages name and goes on with it
where it is lower (crawl/core.py `_judge_pending`): through real crawls of the sandbox's
flat profile with the demo's kind of ontology, and of its default profile with an
ontology built from a corpus alone."""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections import Counter
from pathlib import Path

import pytest

from kgcrawl.calibrate import composed_for, resolve_thresholds
from kgcrawl.config import load_settings
from kgcrawl.crawl.engine import CrawlResult, Engine
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.trials import OutcomeCache, run_trial
from kgcrawl.crawl.view import relevance_line, run_details
from kgcrawl.evaluate.judge import sandbox_judge, score_run
from kgcrawl.graph.store import connect
from kgcrawl.graph.sync import run_settings
from kgcrawl.ontology.build import BuildOptions, build_ontology
from kgcrawl.runner import CrawlRequest, crawl
from kgcrawl.scoring.thresholds import best_separation
from tests.crawl.crawls import judged_crawl

CHECKOUT = Path(__file__).resolve().parents[2]
PAGES, PROBE = 300, 100
# Each builds an ontology from a corpus: how jieba cuts it must not depend on the labels
# earlier tests in this process added (the corpora's α then judged well in one order).
pytestmark = pytest.mark.usefixtures("jieba_words")


def test_on_a_narrow_register_web_the_crawl_recalibrates_alpha_on_the_words_it_names(
    tmp_path, monkeypatch, graph_server
) -> None:
    """The flat profile's pages name few topic words, and few of the 142 of an ontology
    built from corpus/tourism into the shipped one (as `kgcrawl demo` builds it): α
    calibrated on that corpus judged none of them relevant (F1 0; the best threshold's
    0.94). After PROBE pages the crawl recalibrates α on the words they named and judges
    those pages again by it, in the run log, the graph (some of them written there
    before the probe), LP and FCITS_OH's host counts; the summary and `runs show` say
    so, and a replay of the log does the same."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    options = BuildOptions(domain="tourism", base=CHECKOUT / "ontologies" / "tourism.owl",
                           out=tmp_path / "tourism.fca.owl", lattice_dir=tmp_path)  # fmt: skip
    owl = build_ontology(CHECKOUT / "corpus" / "tourism", options).files[-2]
    overrides = {"ontology": str(owl), "crawl.max_pages": PAGES, "crawl.workers": 1,
                 "fetch.delay": 0, "graph.uri": graph_server.uri(f"t_{uuid.uuid4().hex[:12]}"),
                 "crawl.checkpoint_every": 20, "calibration.probe_pages": PROBE}  # fmt: skip
    settings = resolve_thresholds(load_settings("tourism", overrides))
    result = crawl(settings, CrawlRequest(sandbox=True, sandbox_size="small",
                                          sandbox_profile="flat"))  # fmt: skip

    judge = sandbox_judge((0, "small", "flat"), "tourism")
    scores = score_run(result.run_id, judge, "fcits_oh", "tourism", 0, PAGES).truth_scores
    best = best_separation(scores.relevant, scores.irrelevant)
    assert scores.own(settings.relevance.alpha).f1 >= 0.9 * best.f1 > 0

    # every page is judged by the α the crawl found, the first PROBE too
    web = result.web_alpha
    db = sqlite3.connect(result.state_path)
    pages = db.execute("SELECT relevance, lang, relevant, host FROM outcomes "
                       "WHERE reason IS NULL ORDER BY seq").fetchall()  # fmt: skip
    db.close()
    assert [bool(r) for _, _, r, _ in pages] == [x > web.alpha(lang) for x, lang, _, _ in pages]
    assert web.passed <= 1 and web.rejudged > PROBE // 2
    assert sum(r for _, _, r, _ in pages) == result.lp
    with connect(settings.graph.uri) as store:
        graph = store.run("MATCH (:Crawl)-[f:FETCHED]->(p:Page) WHERE p.relevant "
                          "AND f.relevant RETURN count(p)").rows[0][0]  # fmt: skip
    assert graph == result.lp
    said = (
        rf"judged [01] of the first {PROBE} pages relevant: recalibrated on the \d+ topic "
        rf"words they name, α = .*, and judged them again by it \({web.rejudged} changed\)"
    )
    assert re.search(said, relevance_line(result))
    details = run_details(result.run_id)  # `kgcrawl runs show`
    cells = zip(details.columns[0].cells, details.columns[1].cells, strict=True)
    shown = {str(key): str(value) for key, value in cells}
    assert re.match(said, " ".join(shown["α recalibrated on the web"].split()))

    state = RunState.open(result.run_id)
    try:
        engine = Engine(run_settings(state), state)
        engine.replay()
        logged = {o.url: o for o in state.outcomes()}
    finally:
        state.close()
    # a trial (the benchmarks' crawl) over the same outcomes judges as the run log does
    trial = run_trial(settings, engine.crawl.topic, OutcomeCache(lambda url, _: logged[url]), PAGES,
                      composed_for(settings))  # fmt: skip
    assert [o.relevant for o in trial.outcomes] == [logged[o.url].relevant for o in trial.outcomes]
    assert engine.crawl.web_alpha == result.web_alpha
    assert engine.crawl.counters.lp == result.lp > 0
    hosts = engine.crawl.strategy  # FCITS_OH: relevant pages per host, as the log has them
    assert hosts.events["host released"] == 0
    assert +hosts.relevant == Counter(host for _, _, r, host in pages if r)


def _crawl_default(ontology: Path, probe: int, run_id: str) -> tuple[CrawlResult, float, float]:
    """A rainstorm crawl of the small default world with `ontology`, probing α after
    `probe` pages (0: never), the F1 of its own judgement against the truth, and the
    best threshold's."""
    overrides = {"crawl.max_pages": PAGES, "crawl.workers": 1, "fetch.delay": 0,
                 "graph.uri": "none", "calibration.probe_pages": probe,
                 "ontology": str(ontology), "topic": "rainstorm"}  # fmt: skip
    return judged_crawl(resolve_thresholds(load_settings("rainstorm", overrides)), run_id)


@pytest.mark.slow
def test_an_alpha_lower_on_the_webs_words_is_taken_though_pages_pass_the_corpora_alpha(
    tmp_path, monkeypatch
) -> None:
    """An ontology built from corpus/rainstorm alone (a user's own topic, no `--base`) on
    the default web: the corpora's α passes many of the first pages, so nothing fails
    visibly, yet the α found on the words they name is lower. The crawl takes it, and
    its judgement reaches 0.9 × the best threshold's F1, which the corpora's α misses."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    options = BuildOptions(domain="rainstorm", out=tmp_path / "storm.fca.owl",
                           lattice_dir=tmp_path)  # fmt: skip
    owl = build_ontology(CHECKOUT / "corpus" / "rainstorm", options).files[-2]
    probed, f1, best = _crawl_default(owl, PROBE, "probed")
    web = probed.web_alpha
    assert web is not None and web.words and web.passed > PROBE // 100
    assert min(web.alphas.values()) < probed.alpha
    assert f1 >= 0.9 * best > 0
    unprobed, f1_corpora, best_corpora = _crawl_default(owl, 0, "corpora")
    assert unprobed.web_alpha is None  # β moved with α: a crawl of other pages
    assert f1_corpora < 0.9 * best_corpora
