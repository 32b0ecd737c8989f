"""The trap guard (crawl/trap_guard.py): URL templates, the cap, and real crawls entered at a trap.

Every strategy crawls the small sandbox world from its events calendar (an
endless trap: every month and day links onwards) and the calendar's home page.
With the guard, each crawl fetches at most `cap` + 1 calendar pages (the seed and
the links calendar pages bred themselves); without it, BFS, FCOSA_G and MOACO
fetch more (measured, cap 0: 77, 35 and 34 of 150; the other strategies 0–7).
The strategies' crawls share one cache of real fetches (crawl/trials.py), so
each follows the sequence `kgcrawl crawl --workers 1` gives.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.analyse import link_options
from kgcrawl.crawl.ended import EXHAUSTED
from kgcrawl.crawl.engine import start_run, topic_for
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.strategies.base import REGISTRY
from kgcrawl.crawl.trap_guard import TrapGuard, url_template
from kgcrawl.crawl.trials import OutcomeCache, analysed_once, run_trial
from kgcrawl.crawl.view import crawl_summary, run_details, stop_reason
from kgcrawl.graph.sync import run_settings
from kgcrawl.runner import CrawlRequest, crawl
from kgcrawl.scoring.relevance import topic_matcher
from tests.crawl.crawls import BASE
from tests.crawl.test_ending import rendered

PAGES = 150
CAP = 20
TRAP_HOST = "http://www.visitbeijing.com.cn"
SEEDS = f"{TRAP_HOST}/calendar/2024-06.html,{TRAP_HOST}/"
FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19, "fetch.delay": 0.0}
TRAPPED_UNGUARDED = ("bfs", "fcosa_g", "moaco")  # strategies the trap holds without the guard


def test_templates_join_urls_that_differ_in_their_numbers_only() -> None:
    assert url_template("http://a.cn/calendar/2024-06.html") == ("a.cn", "/calendar/#.html")
    assert url_template("http://a.cn/calendar/1999-01-31.html") == ("a.cn", "/calendar/#.html")
    assert url_template("http://a.cn/cal/2024/05/17") == url_template("http://a.cn/cal/1999/1/1")
    assert url_template("http://a.cn/show.php?id=12&p=3") == ("a.cn", "/show.php?id=#&p=#")
    assert url_template("http://a.cn/travel/") != url_template("http://a.cn/hotel/")
    assert url_template("http://b.cn/calendar/2024-06.html")[0] == "b.cn"


def test_the_cap_counts_only_links_a_template_breeds_itself() -> None:
    guard = TrapGuard(cap=2)
    day = "http://a.cn/calendar/2024-06-0{}.html"
    home, list_page = "http://a.cn/", "http://a.cn/events/"
    assert guard.admits(day.format(1), day.format(2)) and guard.admits(day.format(2), day.format(3))
    assert not guard.admits(day.format(3), day.format(4))  # a third bred by a calendar page
    assert guard.admits(home, day.format(5)) and guard.admits(list_page, day.format(6))
    assert guard.admits(day.format(3), "http://a.cn/about.html")  # another template
    assert guard.admits(day.format(3), "http://b.cn/calendar/2024-06-07.html")  # another host
    assert TrapGuard(cap=0).admits(day.format(1), day.format(9))  # 0: no guard


@pytest.fixture(scope="module")
def outcomes(sandbox) -> OutcomeCache:
    """Every URL fetched once from the sandbox and analysed as the engine does."""
    settings = load_settings("tourism", FIXED)
    fetcher = Fetcher(settings.fetch, parse_resolve(tuple(sandbox.resolve)))
    matcher, options = topic_matcher(topic_for(settings)), link_options(settings)
    return analysed_once(fetcher, matcher, options)


def calendar_pages(strategy: str, cap: int, outcomes: OutcomeCache) -> tuple[int, int]:
    """(calendar pages fetched, links the guard kept out) in a crawl of PAGES pages."""
    overrides = {**FIXED, "seeds": SEEDS, "crawl.strategy": strategy, "crawl.trap_cap": cap}
    settings = load_settings("tourism", overrides)
    trial = run_trial(settings, topic_for(settings), outcomes, PAGES)
    assert trial.crawl.counters.dp == PAGES, f"{strategy}: the crawl ended early"
    fetched = sum("/calendar/" in o.final_url for o in trial.pages)
    return fetched, trial.crawl.counters.trapped


@pytest.mark.slow  # ~60 s for the ten strategies on an idle machine, fetches shared
@pytest.mark.parametrize("strategy", list(REGISTRY))
def test_every_strategy_entered_at_a_calendar_trap_fetches_at_most_cap_pages_of_it(
    strategy, outcomes
) -> None:
    fetched, kept_out = calendar_pages(strategy, CAP, outcomes)
    assert fetched <= CAP + 1, f"{strategy}: {fetched} calendar pages of {PAGES}"
    if strategy in TRAPPED_UNGUARDED:
        unguarded, _ = calendar_pages(strategy, 0, outcomes)
        assert unguarded > 1.5 * (CAP + 1), f"{strategy}: the trap should hold it unguarded"
        assert kept_out > 0


def test_a_crawl_says_how_many_links_the_guard_kept_out(sandbox, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    overrides = {**BASE, **FIXED, "seeds": SEEDS, "crawl.strategy": "bfs", "crawl.max_pages": 40,
                 "crawl.workers": 2, "crawl.trap_cap": 5}  # fmt: skip
    result = crawl(
        load_settings("tourism", overrides), CrawlRequest(resolve=tuple(sandbox.resolve))
    )
    assert result.dp == 40 and result.trapped > 0
    assert f"{result.trapped} links kept out by the trap guard" in rendered(crawl_summary(result))
    # a frontier that ran dry had links left: those the guard kept out, and it says so
    dry = stop_reason(replace(result, ended=EXHAUSTED))
    left = f"frontier exhausted: no unvisited link left but {result.trapped} links kept out"
    assert dry.startswith(left)
    assert "--set crawl.trap_cap=0 for no cap" in dry
    details = rendered(run_details(result.run_id))
    assert "kept out by the trap guard" in details and f"{result.trapped} links" in details


def test_a_run_started_before_the_guard_existed_resumes_without_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    state = start_run(load_settings("tourism", FIXED), run_id="new")
    assert run_settings(state).crawl.trap_cap == 100  # a run keeps the cap it started with
    older = {k: v for k, v in state.meta()["settings"].items() if k != "crawl.trap_cap"}
    state.set_meta({"settings": older})  # what the runs of earlier versions hold
    state.checkpoint()
    assert run_settings(state).crawl.trap_cap == 0  # replayed as it was crawled: unguarded
    state.close()
