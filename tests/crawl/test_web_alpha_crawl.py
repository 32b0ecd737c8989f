"""A crawl whose corpus-calibrated α judges next to none of its first pages relevant
recalibrates α on the topic words those pages name (crawl/core.py `_probe`), through a
real crawl of the sandbox's flat profile with the demo's kind of ontology."""

from __future__ import annotations

import re
from pathlib import Path

from kgcrawl.calibrate import resolve_thresholds
from kgcrawl.config import load_settings
from kgcrawl.crawl.engine import Engine
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.view import relevance_line, run_details
from kgcrawl.evaluate.judge import sandbox_judge, score_run
from kgcrawl.graph.sync import run_settings
from kgcrawl.ontology.build import BuildOptions, build_ontology
from kgcrawl.runner import CrawlRequest, crawl
from kgcrawl.scoring.thresholds import best_separation

CHECKOUT = Path(__file__).resolve().parents[2]
PAGES, PROBE = 300, 100


def test_on_a_narrow_register_web_the_crawl_recalibrates_alpha_on_the_words_it_names(
    tmp_path, monkeypatch
) -> None:
    """The flat profile's pages name few topic words, and few of the 142 of an ontology
    built from corpus/tourism into the shipped one (as `kgcrawl demo` builds it): α
    calibrated on that corpus judged none of them relevant (F1 0; the best threshold's
    0.94). After PROBE pages the crawl recalibrates α on the words they named; the
    summary and `runs show` say so, and a replay of the log does the same."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    options = BuildOptions(domain="tourism", base=CHECKOUT / "ontologies" / "tourism.owl",
                           out=tmp_path / "tourism.fca.owl", lattice_dir=tmp_path)  # fmt: skip
    owl = build_ontology(CHECKOUT / "corpus" / "tourism", options).files[-2]
    overrides = {"ontology": str(owl), "crawl.max_pages": PAGES, "crawl.workers": 1,
                 "fetch.delay": 0, "graph.uri": "none",
                 "calibration.probe_pages": PROBE}  # fmt: skip
    settings = resolve_thresholds(load_settings("tourism", overrides))
    result = crawl(settings, CrawlRequest(sandbox=True, sandbox_size="small",
                                          sandbox_profile="flat"))  # fmt: skip

    judge = sandbox_judge((0, "small", "flat"), "tourism")
    scores = score_run(result.run_id, judge, "fcits_oh", "tourism", 0, PAGES).truth_scores
    best = best_separation(scores.relevant, scores.irrelevant)
    # the first PROBE pages were judged by the corpora's α, which passed at most one of them
    assert scores.own(settings.relevance.alpha).f1 >= 0.7 * best.f1 > 0
    assert re.search(rf"judged [01] of the first {PROBE} pages relevant: recalibrated on the "
                     r"\d+ topic words they name", relevance_line(result))  # fmt: skip
    details = run_details(result.run_id)  # `kgcrawl runs show`
    shown = dict(zip(details.columns[0].cells, details.columns[1].cells, strict=True))
    assert re.match(rf"judged [01] of the first {PROBE} pages relevant: recalibrated on ",
                    shown["α recalibrated on the web"])  # fmt: skip

    state = RunState.open(result.run_id)
    try:
        engine = Engine(run_settings(state), state)
        engine.replay()
    finally:
        state.close()
    assert engine.crawl.web_alpha == result.web_alpha
    assert engine.crawl.counters.lp == result.lp > 0
