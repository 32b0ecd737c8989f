"""The scheduler's dispatch: every slot busy while hosts are free, one request per host, rests kept.

Workers here are futures the test completes by hand, so each step is exact. The
frontier is dominated by one host: 40 seeds of a.test, then one seed on each of
seven other hosts. The strategy's next 32 picks are then all a.test, and still
eight hosts must be in flight at once.
"""

from __future__ import annotations

import random
from concurrent.futures import Future

import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.core import Crawl
from kgcrawl.crawl.dispatch import ANSWERS_TRUSTED, STALLED, Dispatcher, HostTurns
from kgcrawl.crawl.engine import topic_for
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.strategies.base import REGISTRY
from kgcrawl.crawl.workers import Done

OTHERS = [f"http://h{i}.test/" for i in range(7)]
SEEDS = [f"http://a.test/{i}" for i in range(40)] + OTHERS


class HandWorkers:
    """Slots whose answers the test gives."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.sent: list[tuple[str, Future]] = []

    def submit(self, url: str, extractor: str) -> Future:
        future: Future = Future()
        self.sent.append((url, future))
        return future

    def close(self) -> None:
        pass


def failed(url: str) -> Outcome:
    return Outcome(url, url, 404, "http 404", 0, 0.0, url.split("/")[2])


def crawl_with(strategy: str, seeds: list[str] = SEEDS) -> Crawl:
    values = {"crawl.strategy": strategy, "relevance.alpha": 0.3, "relevance.beta": 0.1}
    settings = load_settings("tourism", values, environ={})
    crawl = Crawl(settings, random.Random(0), topic_for(settings))
    crawl.seed(seeds)
    return crawl


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("strategy", sorted(REGISTRY))
def test_eight_hosts_with_links_keep_eight_slots_busy(strategy) -> None:
    crawl = crawl_with(strategy)
    workers = HandWorkers(8)
    dispatcher = Dispatcher(crawl, workers, HostTurns(Clock()))
    dispatcher.fill(room=100)
    hosts = [url.split("/")[2] for url, _ in workers.sent]
    assert len(hosts) == 8 and len(set(hosts)) == 8, hosts


def test_a_busy_or_resting_host_waits_and_its_parked_link_goes_first() -> None:
    clock = Clock()
    crawl = crawl_with("bfs")
    workers = HandWorkers(8)
    turns = HostTurns(clock)
    dispatcher = Dispatcher(crawl, workers, turns)
    dispatcher.fill(room=100)
    first_a = next(url for url, _ in workers.sent if "a.test" in url)
    assert first_a == "http://a.test/0"
    parked = list(dispatcher.parked["a.test"])
    assert crawl.url_of(parked[0]) == "http://a.test/1", "BFS order kept inside the host"
    (future,) = [f for url, f in workers.sent if url == first_a]
    future.set_result(Done(failed(first_a), 2.0))  # a.test must now rest 2 s
    for link, answer in dispatcher.collect(timeout=0):
        turns.finish(crawl.host_of(link), answer.delay)
    sent = len(workers.sent)
    dispatcher.fill(room=100)
    assert all("a.test" not in url for url, _ in workers.sent[sent:]), "sent while resting"
    assert dispatcher.next_wake() == pytest.approx(2.0)
    clock.now += 2.0
    dispatcher.fill(room=100)
    assert [url for url, _ in workers.sent if "a.test" in url][1] == "http://a.test/1"


def test_the_budget_bounds_what_goes_out() -> None:
    workers = HandWorkers(8)
    Dispatcher(crawl_with("ops"), workers, HostTurns(Clock())).fill(room=3)
    assert len(workers.sent) == 3


def test_a_request_out_past_stalled_seconds_no_longer_holds_its_budget_unit() -> None:
    workers, clock = HandWorkers(8), Clock()
    dispatcher = Dispatcher(crawl_with("ops"), workers, HostTurns(clock))
    dispatcher.fill(room=1)
    assert len(workers.sent) == 1
    clock.now += STALLED - 0.1
    dispatcher.fill(room=1)
    assert len(workers.sent) == 1  # still answering in time: it holds the last unit
    clock.now += 0.1
    dispatcher.fill(room=1)
    assert len(workers.sent) == 2  # stalled: another link goes out for the unit


def test_a_request_that_has_answered_holds_its_unit_however_long_its_fold_waits() -> None:
    """While the engine is busy (a checkpoint, a refused graph write), an answer waits to
    be folded in: its page will count, so no other link goes out for its unit."""
    workers, clock = HandWorkers(8), Clock()
    dispatcher = Dispatcher(crawl_with("ops"), workers, HostTurns(clock))
    dispatcher.fill(room=1)
    ((url, future),) = workers.sent
    future.set_result(Done(failed(url), 0.0))
    clock.now += STALLED + 1
    dispatcher.fill(room=1)
    assert len(workers.sent) == 1


def test_once_answers_are_known_a_request_three_times_slower_than_most_stops_holding() -> None:
    workers, clock = HandWorkers(8), Clock()
    turns = HostTurns(clock)
    hosts = [f"http://h{i}.test/" for i in range(40)]  # a host each: a free one is always there
    dispatcher = Dispatcher(crawl_with("ops", hosts), workers, turns)
    for _ in range(-(-ANSWERS_TRUSTED // 8)):  # 8 at a time, each answered 0.2 s after it went out
        dispatcher.fill(room=100)
        clock.now += 0.2
        for url, future in workers.sent:
            if not future.done():
                future.set_result(Done(failed(url), 0.0))
        for link, answer in dispatcher.collect(timeout=0):
            turns.finish(dispatcher.crawl.host_of(link), answer.delay)
    assert dispatcher.stalled_after() == pytest.approx(0.6)  # 3 × the 90th percentile, 0.2 s
    dispatcher.fill(room=1)  # one request out for the budget's last unit
    sent = len(workers.sent)
    clock.now += 0.55
    dispatcher.fill(room=1)
    assert len(workers.sent) == sent  # slower than most, not yet stalled: it holds the unit
    clock.now += 0.1
    dispatcher.fill(room=1)
    assert len(workers.sent) == sent + 1


def test_the_strategy_is_told_which_hosts_have_a_request_out_or_a_link_parked() -> None:
    """So that ITS (fcits_oh) draws from other hosts: strategies/tabu.py."""
    clock = Clock()
    crawl = crawl_with("ops", SEEDS[:4] + OTHERS + ["http://h0.test/more"])
    asked: list[set[str]] = []
    choose = crawl.strategy.select

    def select(frontier, waiting=()):
        asked.append(set(waiting))
        return choose(frontier, waiting)

    crawl.strategy.select = select
    workers, turns = HandWorkers(8), HostTurns(clock)
    dispatcher = Dispatcher(crawl, workers, turns)
    dispatcher.fill(room=100)
    assert asked[0] == set() and asked[1] == {"a.test"}  # a.test/0 went out: a.test is busy
    assert all("a.test" in hosts for hosts in asked[1:])
    (future,) = [f for url, f in workers.sent if url == "http://a.test/0"]
    future.set_result(Done(failed("http://a.test/0"), 2.0))  # answered: a.test rests 2 s
    for link, answer in dispatcher.collect(timeout=0):
        turns.finish(crawl.host_of(link), answer.delay)
    assert "a.test" not in turns.busy and "a.test" in dispatcher.parked
    asked.clear()
    dispatcher.fill(room=100)
    assert asked and all("a.test" in hosts for hosts in asked)  # its next link is parked
