"""BFS and OPS (SPEC §5.2): discovery order without a β filter, highest P."""

from __future__ import annotations

from tests.crawl.strategies.world import World


def test_bfs_discovery_order_and_no_beta_filter(settings):
    w = World("bfs", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root
    low, high = w.links(0, {"http://a.test/low": 0.05, "http://a.test/high": 0.9})
    assert w.frontier.priority(low) < settings.relevance.beta
    assert w.frontier.is_queued(low)  # below β, still waiting
    assert w.step() == low
    w.links(1, {"http://b.test/": 0.95})
    later = w.link(1, "http://c.test/", 0.01)
    assert w.step() == high  # discovered before b and c
    assert [w.url(w.select()) for _ in range(2)] == ["http://b.test/", "http://c.test/"]
    assert w.frontier.state(later) == "taken"
    assert w.select() is None


def test_bfs_link_put_back_keeps_its_place(settings):
    w = World("bfs", settings)
    a = w.seed("http://a.test/", 0.2)
    b = w.seed("http://b.test/", 0.9)
    assert w.select() == a
    w.frontier.put_back(a)
    assert w.select() == a
    assert w.select() == b


def test_ops_highest_p_and_beta_filter(settings):
    w = World("ops", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root
    low, mid, high = w.links(
        0, {"http://a.test/": 0.1, "http://b.test/": 0.5, "http://c.test/": 0.8}
    )
    assert w.frontier.state(low) == "pool"  # P ≤ β
    assert w.step() == high
    w.links(1, {"http://d.test/": 0.6})
    assert w.url(w.step()) == "http://d.test/"
    assert w.step() == mid
    assert w.select() is None  # the pool link never waits in Q_wait


def test_ops_tie_goes_to_the_older_link(settings):
    w = World("ops", settings)
    first = w.seed("http://a.test/", 0.5)
    w.seed("http://b.test/", 0.5)
    assert w.select() == first
