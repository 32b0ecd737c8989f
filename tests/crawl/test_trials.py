"""A trial (crawl/trials.py) selects exactly what `kgcrawl crawl --workers 1` selects."""

from __future__ import annotations

from kgcrawl.calibrate import resolve_thresholds
from kgcrawl.config import load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.analyse import analyse_result
from kgcrawl.crawl.engine import topic_for
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.trials import OutcomeCache, run_trial
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
        cache = OutcomeCache(lambda url: analyse_result(url, fetcher.fetch(url), matcher))
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
