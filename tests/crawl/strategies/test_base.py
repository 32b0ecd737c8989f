"""The strategy registry (SPEC §5.2): every name builds its class; an unknown name is one error."""

from __future__ import annotations

import random

import pytest

from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import (
    REGISTRY,
    CrawlCounters,
    Strategy,
    UnknownStrategy,
    strategy_class,
)
from kgcrawl.errors import KgcrawlError

# name → topic model (SPEC §5.2 table); fcosa_g, fcosa_lg and moaco use the ontology too
SEVEN = {
    "bfs": "ontology",
    "ops": "ontology",
    "fcsa": "ontology",
    "fcts": "keywords",
    "fcits": "keywords",
    "fcoits": "ontology",
    "fcits_oh": "ontology",
}


def test_the_seven_are_registered():
    assert set(SEVEN) <= set(REGISTRY)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_name_builds(settings, name):
    cls = strategy_class(name)
    strategy = cls(settings, random.Random(0), CrawlCounters())
    assert isinstance(strategy, Strategy)
    assert cls.name == name
    assert cls.topic_model == SEVEN.get(name, "ontology")
    assert cls.uses_beta == (name != "bfs")


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownStrategy) as err:
        strategy_class("dfs")
    assert isinstance(err.value, KgcrawlError)  # the CLI maps it to exit 2
    message = str(err.value)
    assert "'dfs'" in message
    assert all(name in message for name in REGISTRY)


def test_base_seed_puts_every_seed_in_q_wait_with_p_1(settings):
    frontier = Frontier()
    strategy = strategy_class("ops")(settings, random.Random(0), CrawlCounters())
    urls = ["http://a.test/1", "http://a.test/2", "http://b.test/"]
    strategy.seed(frontier, urls)
    assert frontier.queued_count() == 3
    assert all(frontier.priority(frontier.link_id(u)) == 1.0 for u in urls)
