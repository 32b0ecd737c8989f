"""What a crawl strategy is: `seed`, `select`, `observe`, registered by name (SPEC §5.2).

A strategy decides only the order of visits. It reads the frontier through its
indexes (best P, random draw, links by page, by host, discovery order) and the
crawl's counters through a small context; it never fetches, parses or scores.
Strategies are built from settings and keep their state in plain attributes: a
resumed run rebuilds them by replaying the run log (`crawl/state.py`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from kgcrawl.config import Settings
from kgcrawl.errors import KgcrawlError

if TYPE_CHECKING:
    from kgcrawl.crawl.frontier import Frontier
    from kgcrawl.ontology.topic import TopicModel


class UnknownStrategy(KgcrawlError):
    """No strategy is registered under that name."""


@dataclass
class CrawlCounters:
    """What strategies may read of the crawl's progress."""

    dp: int = 0
    lp: int = 0
    max_pages: int = 1


class Strategy:
    """Base class: seeds go to Q_wait with P = 1; subclasses choose the next link."""

    name: ClassVar[str]
    topic_model: ClassVar[str] = "ontology"  # or "keywords": every topic word weighs 1
    uses_beta: ClassVar[bool] = True  # False: every link waits in Q_wait (BFS)

    def __init__(self, settings: Settings, rng: random.Random, counters: CrawlCounters) -> None:
        self.settings = settings
        self.rng = rng
        self.counters = counters

    def seed(self, frontier: Frontier, urls: list[str]) -> None:
        for url in urls:
            frontier.add_seed(url)

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        """The next link id to download, taken out of Q_wait; None when Q_wait is empty.

        `waiting`: with several requests in flight, the hosts that cannot take one now (a
        request out, or a link parked for the host's next turn: crawl/dispatch.py); a
        strategy may prefer other hosts' links. Empty in a sequential crawl.
        """
        raise NotImplementedError

    def use_topic(self, topic: TopicModel) -> None:
        """The crawl's topic model: at the start, and again at each new ontology version."""

    def observe_anchors(self, page: int, anchors: Sequence[tuple[int, Mapping[int, int]]]) -> None:
        """A page was just downloaded: (child link, topic-word counts of its anchor), in order."""

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        """The selected link was fetched: its page id and R(p), or None and 0 if it failed."""

    def judged_again(self, host: str, relevant: bool) -> None:
        """A page of `host` observed earlier is now judged `relevant` (α moved:
        crawl/core.py `_judge_pending`)."""


# name → "module:Class", imported only when used.
REGISTRY: dict[str, str] = {
    "bfs": "kgcrawl.crawl.strategies.basic:BreadthFirst",
    "ops": "kgcrawl.crawl.strategies.basic:BestFirst",
    "fcsa": "kgcrawl.crawl.strategies.annealing:SimulatedAnnealing",
    "fcosa_g": "kgcrawl.crawl.strategies.annealing:OntologyAnnealing",
    "fcosa_lg": "kgcrawl.crawl.strategies.annealing:LocalOntologyAnnealing",
    "fcts": "kgcrawl.crawl.strategies.tabu:TraditionalTabu",
    "fcits": "kgcrawl.crawl.strategies.tabu:ImprovedTabuKeywords",
    "fcoits": "kgcrawl.crawl.strategies.tabu:ImprovedTabu",
    "fcits_oh": "kgcrawl.crawl.strategies.host_memory:ImprovedTabuHostMemory",
    "moaco": "kgcrawl.crawl.strategies.ants:AntColony",
}


def uses_keywords(settings: Settings) -> bool:
    """Whether the settings' strategy weighs every topic word alike (FCTS, FCITS)."""
    return strategy_class(settings.crawl.strategy).topic_model == "keywords"


def strategy_class(name: str) -> type[Strategy]:
    """The class registered as `name`; one clear error for an unknown name."""
    target = REGISTRY.get(name)
    if target is None:
        known = ", ".join(sorted(REGISTRY))
        raise UnknownStrategy(f"unknown strategy {name!r} (known: {known})")
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)
