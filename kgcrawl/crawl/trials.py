"""Sequential crawls of one world that fetch each URL once: ablations and strategy trials.

A crawl with one worker is `Crawl.select` → fetch and analyse → `Crawl.fold`, and
the outcome of a URL (its page, analysed) does not depend on the strategy that
asked for it. So crawls of one world can share a cache of outcomes: the first
crawl to select a URL fetches it (a real request) and analyses it as the engine
does; later crawls fold the same outcome in. Each crawl then follows exactly
the sequence `kgcrawl crawl --workers 1` gives (the engine's loop without its
run log), and comparing ten settings costs little more than one crawl.

>>> from kgcrawl.crawl.outcome import Outcome
>>> cache = OutcomeCache(lambda url, extractor: Outcome(url, url, 404, "http 404", 0, 0.0, "h"))
>>> page = ("http://h/", "resiliparse")  # a URL, and the main-text extractor it is read with
>>> cache(*page).reason, cache(*page) is cache(*page), len(cache)
('http 404', False, 1)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from kgcrawl.config import Settings
from kgcrawl.crawl.analyse import analyse_result
from kgcrawl.crawl.core import Crawl
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.ontology.topic import TopicModel
from kgcrawl.scoring.web_alpha import ComposedPage
from kgcrawl.text.analysis import LinkOptions
from kgcrawl.text.matching import TopicMatcher


class OutcomeCache:
    """(url, extractor) → the outcome `fetch_outcome(url, extractor)` gave the first time (the
    main text by that extractor, `Crawl.extractor`); a copy for every caller."""

    def __init__(self, fetch_outcome: Callable[[str, str], Outcome]) -> None:
        self.fetch_outcome = fetch_outcome
        self.outcomes: dict[tuple[str, str], Outcome] = {}

    def __call__(self, url: str, extractor: str) -> Outcome:
        key = (url, extractor)
        if key not in self.outcomes:
            self.outcomes[key] = self.fetch_outcome(url, extractor)
        return copy.copy(self.outcomes[key])

    def __len__(self) -> int:
        return len(self.outcomes)


def analysed_once(fetcher: Fetcher, matcher: TopicMatcher, options: LinkOptions) -> OutcomeCache:
    """Each URL fetched by `fetcher` once and analysed as the engine does (per extractor)."""
    return OutcomeCache(
        lambda url, extractor: analyse_result(
            url, fetcher.fetch(url), matcher, options=options, extractor=extractor
        )
    )


@dataclass
class Trial:
    """One crawl: its final state, and its outcomes as a run log would hold them."""

    crawl: Crawl
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def pages(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.downloaded]


def run_trial(
    settings: Settings,
    topic: TopicModel,
    outcomes: Callable[[str, str], Outcome],
    max_pages: int,
    composed: Sequence[ComposedPage] = (),
) -> Trial:
    """Crawl to `max_pages` pages (or no unvisited link) through `outcomes`, sequentially
    (`composed`: the calibration's pages, as for `Crawl`)."""
    crawl = Crawl(settings, random.Random(settings.crawl.seed), topic, composed)
    crawl.seed(list(settings.seeds))
    trial = Trial(crawl)
    while crawl.counters.dp < max_pages:
        link = crawl.select()
        if link is None:
            break
        outcome, judged = crawl.fold_logged(link, outcomes(crawl.url_of(link), crawl.extractor))
        trial.outcomes.append(outcome)
        for seq, relevant in judged:  # outcome seq is its place in the list + 1
            trial.outcomes[seq - 1] = replace(trial.outcomes[seq - 1], relevant=relevant)
    return trial
