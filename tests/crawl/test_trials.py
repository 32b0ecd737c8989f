"""A trial (crawl/trials.py) selects exactly what `kgcrawl crawl --workers 1` selects."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kgcrawl.calibrate import resolve_thresholds
from kgcrawl.config import load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.analyse import link_options
from kgcrawl.crawl.engine import topic_for
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.trials import OutcomeCache, analysed_once, run_trial
from kgcrawl.runner import CrawlRequest, crawl
from kgcrawl.scoring.relevance import topic_matcher
from tests.crawl.crawls import BASE, quick_sandbox

PAGES = 150


def test_a_trial_follows_the_engine_sequence_and_a_cache_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = resolve_thresholds(
        load_settings("tourism", {**BASE, "crawl.max_pages": PAGES, "crawl.strategy": "fcits_oh"})
    )
    topic = topic_for(settings)
    with quick_sandbox() as resolve:
        result = crawl(settings, CrawlRequest(resolve=tuple(resolve)))
        fetcher = Fetcher(settings.fetch, parse_resolve(resolve))
        matcher = topic_matcher(topic)
        options = link_options(settings)  # as the engine analyses
        cache = analysed_once(fetcher, matcher, options)
        first = run_trial(settings, topic, cache, PAGES)
        fetched = len(cache)
        again = run_trial(settings, topic, cache, PAGES)  # every outcome from the cache
    state = RunState.open(result.run_id)
    logged = list(state.outcomes())
    state.close()
    assert [o.url for o in first.outcomes] == [o.url for o in logged]
    assert [o.relevance for o in first.outcomes] == [o.relevance for o in logged]
    assert [o.url for o in again.outcomes] == [o.url for o in logged]
    assert len(cache) == fetched == len(logged)


def test_anchor_only_evidence_scores_links_as_the_paper_and_url_and_context_add_to_it(
    tmp_path, monkeypatch
):
    """evidence = ["anchor"] gives every link the R(A) a crawl that never saw URL or context
    words gives it (the paper's Eq. 5–6, as before turn 2); all three sources find more."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    overrides = {**BASE, "crawl.max_pages": PAGES, "crawl.strategy": "ops"}
    full = resolve_thresholds(load_settings("tourism", overrides))
    paper = resolve_thresholds(
        load_settings("tourism", {**overrides, "anchors.evidence": "anchor"})
    )
    topic = topic_for(full)
    with quick_sandbox() as resolve:
        fetcher = Fetcher(full.fetch, parse_resolve(resolve))
        matcher = topic_matcher(topic)
        options = link_options(full)
        cache = analysed_once(fetcher, matcher, options)
        anchor_only = run_trial(paper, topic, cache, PAGES)
        every = run_trial(full, topic, cache, PAGES)
    blind = OutcomeCache(lambda *page: replace(cache(*page), url_counts=[], context_counts=[]))
    never_saw = run_trial(full, topic, blind, PAGES)  # all sources on, only anchors to read

    def scores(trial):
        return [x for o in trial.outcomes for pair in o.link_scores for x in pair]

    assert [o.url for o in anchor_only.outcomes] == [o.url for o in never_saw.outcomes]
    assert scores(anchor_only) == pytest.approx(scores(never_saw), abs=1e-12)
    assert any(o.url_counts and any(o.url_counts) for o in cache.outcomes.values())
    assert any(o.context_counts and any(o.context_counts) for o in cache.outcomes.values())

    def evidenced(trial):  # links scored with some anchor evidence
        return sum(ra > 0 for o in trial.pages for ra, _ in o.link_scores)

    assert evidenced(every) > evidenced(anchor_only)
    assert scores(every) != scores(anchor_only)
