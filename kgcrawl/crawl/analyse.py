"""From a fetched response to the Outcome the crawl folds in and the run log stores.

This is the per-page work a fetch worker does after the download: one lxml pass
(tag groups, links, anchors), topic-word counts per group, the main text for the
knowledge graph (`text.main_text`, by the extractor the crawl names) with its
concept mentions, the page length, and the content fingerprints for dedup. Nothing
else depends on the crawl's state, so workers run it in parallel.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from kgcrawl.config import Settings
from kgcrawl.crawl.dedup import exact_hash, simhash
from kgcrawl.crawl.fetch import FetchResult
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.text.analysis import NO_CONTEXT, LinkOptions, analyse_page
from kgcrawl.text.main_text import main_text
from kgcrawl.text.matching import TopicMatcher
from kgcrawl.text.urls import host_of


def failed_outcome(url: str, result: FetchResult) -> Outcome:
    return Outcome(
        url=url,
        final_url=result.final_url,
        status=result.status,
        reason=result.reason,
        fetched_at=int(time.time() * 1000),
        seconds=result.seconds,
        host=host_of(result.final_url),
    )


class StageTimes:
    """Seconds spent per stage of the crawl, summed over all workers (thread-safe)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._lock = threading.Lock()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds


def link_options(settings: Settings) -> LinkOptions:
    """The link evidence a crawl with these settings scores (SPEC §4.3 turn 2)."""
    anchors = settings.anchors
    words = anchors.context_words if "context" in anchors.evidence else 0
    return LinkOptions(
        context_words=words, url_host=anchors.url_host, max_links=settings.fetch.max_links
    )


def analyse_result(
    url: str,
    result: FetchResult,
    matcher: TopicMatcher,
    times: StageTimes | None = None,
    options: LinkOptions = NO_CONTEXT,
    extractor: str = "resiliparse",
) -> Outcome:
    """The Outcome of one fetch: a failure as it is, a page analysed (≤ `max_links` links),
    its main text by `extractor` (`text.main_text.EXTRACTORS`)."""
    times = times or StageTimes()
    outcome = failed_outcome(url, result)
    if not result.ok:
        return outcome
    with times.stage("parse and count"):
        analysis = analyse_page(result.content, result.final_url, matcher, result.charset, options)
    body_text = analysis.parsed.groups[3] or analysis.parsed.text
    # A page that fills the link cap is a list of links, not an article; trafilatura took
    # +312 MB and 13.7 s on a page of 100 000 links (benchmarks/bench_hostile.py), so
    # its body text stands in for the main text.
    cap = options.max_links
    link_list = cap is not None and len(analysis.links) >= cap
    with times.stage("main text"):
        text = (
            body_text
            if link_list
            else main_text(result.text, body_text, extractor, analysis.parsed.depth)
        )
    visible = analysis.parsed.text
    outcome.title = analysis.title
    outcome.text = text
    outcome.lang = analysis.lang
    outcome.length = analysis.length
    with times.stage("fingerprint"):
        outcome.content_hash = exact_hash(visible)
        outcome.simhash = simhash(visible)
    outcome.counts = {
        int(i): [int(c) for c in analysis.counts[i]]
        for i in analysis.counts.any(axis=1).nonzero()[0]
    }
    with times.stage("main text"):
        outcome.mentions = matcher.count_sparse(text)
    outcome.links = [(link.url, link.anchor) for link in analysis.links]
    outcome.anchor_counts = list(analysis.anchor_counts)
    outcome.url_counts = list(analysis.url_counts)
    outcome.context_counts = list(analysis.context_counts)
    return outcome


# One matcher per analyser process (a process pool's workers start with `init_analyser`).
_process_matcher: TopicMatcher | None = None
_process_options = NO_CONTEXT


def init_analyser(labels: list[tuple[str, ...]], options: LinkOptions) -> None:
    """Process-pool initializer: the crawl's matcher and link options (analysers.py makes
    the process die with the crawl).
    """
    global _process_matcher, _process_options
    _process_matcher = TopicMatcher(labels)
    _process_options = options


def analyse_in_process(
    url: str, result: FetchResult, extractor: str
) -> tuple[Outcome, dict[str, float]]:
    """`analyse_result` in an analyser process, with its stage times."""
    times = StageTimes()
    outcome = analyse_result(url, result, _process_matcher, times, _process_options, extractor)
    return outcome, times.seconds
