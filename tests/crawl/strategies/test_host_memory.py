"""FCITS_OH host memory (SPEC §5.7): seeds, the 50 / 100 / 0.8 rules, H2, pool injection.

Host counters are driven the way the crawl drives them: `select`, then the page,
then `observe(link, page, relevant)`. In these worlds ITS walks the children of
the root page best-first (C is empty, E is the root's children), so the host of
every selection is known in advance.
"""

from __future__ import annotations

import pytest

from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import CrawlCounters
from tests.crawl.strategies.world import World, changed


def _rooted(settings, counters: CrawlCounters | None = None) -> World:
    """A world whose first selection is the root page r.test (page 0)."""
    w = World("fcits_oh", settings, counters=counters or CrawlCounters(max_pages=1))
    w.seed("http://r.test/", 1.0)
    assert w.url(w.step()) == "http://r.test/"
    return w


def _visit(w: World, host: str, n: int, relevant: int = 0) -> None:
    """n selections on `host`, the first `relevant` of them relevant pages."""
    for i in range(n):
        link = w.select()
        assert w.host(link) == host
        w.fetch(link, relevant=i < relevant)


# ---- step 1 ----------------------------------------------------------------------


def test_seeds_at_most_one_per_host_with_p_1(settings):
    w = World("fcits_oh", settings)
    urls = ["http://a.test/1", "http://a.test/2", "http://b.test/1", "http://c.test/1"]
    w.strategy.seed(w.frontier, urls)
    kept = ["http://a.test/1", "http://b.test/1", "http://c.test/1"]
    assert [w.url(link) for link in range(len(w.frontier))] == kept
    assert all(w.frontier.priority(link) == 1.0 for link in range(3))
    assert w.frontier.queued_count() == 3


def test_seeds_per_host_is_a_setting_and_a_repeated_seed_counts_once(settings):
    w = World("fcits_oh", changed(settings, "tabu", seeds_per_host=2))
    urls = ["http://a.test/1", "http://a.test/1", "http://a.test/2", "http://a.test/3"]
    w.strategy.seed(w.frontier, urls)
    assert [w.url(link) for link in range(len(w.frontier))] == urls[1:3]


# ---- steps 6 and 7 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("visits", "relevant", "tabu"),
    [
        (49, 0, False),  # fewer than 50 visits: kept whatever the ratio
        (50, 41, False),  # 0.82 > 0.8 and fewer than 100
        (50, 40, True),  # 0.8 is not above 0.8
        (50, 0, True),
        (99, 99, False),
        (100, 100, True),  # 100 visits: H2 whatever the ratio
    ],
)
def test_50_100_08_rules(settings, visits, relevant, tabu):
    w = _rooted(settings)
    w.links(0, {f"http://a.test/{i}": 0.9 for i in range(visits + 3)})
    b0 = w.link(0, "http://b.test/", 0.5)
    _visit(w, "a.test", visits, relevant)
    assert w.strategy.visits["a.test"] == visits
    assert w.strategy.relevant["a.test"] == relevant
    phead = w.select()
    assert w.host(phead) == "a.test"  # kept, tabu or not (step 7: keep phead)
    assert w.strategy.h2.terms == ({"a.test": 3} if tabu else {})  # term 4, ticked once
    w.fetch(phead)
    assert (w.select() == b0) is tabu


def test_failed_fetches_are_not_visits(settings):
    w = _rooted(settings)
    w.links(0, {f"http://a.test/{i}": 0.9 for i in range(60)})
    _visit(w, "a.test", 49)
    w.fetch(w.select(), failed=True)
    assert w.strategy.visits["a.test"] == 49
    w.select()
    assert "a.test" not in w.strategy.h2


# ---- step 4 ----------------------------------------------------------------------


def _one_visit_tabu(settings, kids: dict[str, float]) -> World:
    """Host a.test goes into H2 at its second selection (50 → 1 visit); ITS walks `kids`."""
    w = _rooted(changed(settings, "tabu", host_min_visits=1))
    w.links(0, kids)
    _visit(w, "a.test", 2)
    assert w.strategy.h2.terms == {"a.test": 3}
    return w


def test_a_tabu_host_is_set_aside_once_then_the_best_link_of_a_host_not_tabu(settings):
    kids = {f"http://a.test/{i}": 0.9 - 0.01 * i for i in range(5)}
    w = _one_visit_tabu(settings, {**kids, "http://c.test/": 0.6})
    b = w.seed("http://b.test/", 0.7)
    queued = w.frontier.queued_count()
    # ITS gives a/2 (tabu host: set aside, ITS asked again), then a/3: a host already set
    # aside ends the retries (they count hosts, SPEC §5.7 turn 2 (e)); the best link of a
    # host not tabu is b
    assert w.select() == b
    assert w.strategy.events["host retry"] == 1
    assert all(w.frontier.is_queued(w.frontier.link_id(f"http://a.test/{i}")) for i in (2, 3, 4))
    assert w.frontier.queued_count() == queued - 1


def test_every_host_tabu_gives_the_best_link(settings):
    w = _one_visit_tabu(settings, {f"http://a.test/{i}": 0.9 - 0.01 * i for i in range(5)})
    queued = w.frontier.queued_count()
    assert w.url(w.select()) == "http://a.test/2"
    assert w.frontier.queued_count() == queued - 1
    assert w.strategy.h2.terms == {"a.test": 3}  # visited again: term 4 again, ticked


# ---- H2 tenure ---------------------------------------------------------------------


def test_h2_tenure_4_and_counters_reset_on_release(settings):
    w = _rooted(changed(settings, "tabu", host_min_visits=2))
    for host, p in (("a", 0.9), ("b", 0.8), ("c", 0.7), ("d", 0.6)):
        w.links(0, {f"http://{host}.test/{i}": p for i in range(5)})
    hosts = []
    terms = []
    for i in range(13):
        link = w.select()
        hosts.append(w.host(link)[0])
        terms.append(dict(w.strategy.h2.terms))
        w.fetch(link, relevant=i == 0)  # a.test: 1 relevant of 2, ratio 0.5
    assert "".join(hosts) == "aaabbbcccddda"  # a.test again once released, with 0 visits
    assert terms[2] == {"a.test": 3}
    assert terms[5] == {"a.test": 2, "b.test": 3}
    assert terms[8] == {"a.test": 1, "b.test": 2, "c.test": 3}
    assert terms[11] == {"b.test": 1, "c.test": 2, "d.test": 3}  # a.test released
    # a.test had 3 visits (1 relevant) when it went in; only the one since its release count
    assert (w.strategy.visits["a.test"], w.strategy.relevant["a.test"]) == (1, 0)
    assert w.strategy.visits["d.test"] == 3


# ---- step 5 -----------------------------------------------------------------------


POOL = {  # all P ≤ β = 0.19: the discarded pool
    "http://q.test/9": 0.19,  # best of the pool, but q.test is in Q_wait
    "http://y.test/": 0.18,
    "http://x.test/": 0.15,
    "http://z.test/": 0.12,
    "http://w.test/": 0.10,
}


def _pool_world(settings, dp: int, queued_hosts: int) -> World:
    w = _rooted(settings, CrawlCounters(dp=dp, max_pages=100))
    for h in range(queued_hosts):  # two links a host: taking one leaves the host count
        w.links(0, {f"http://q{'' if h == 0 else h}.test/{i}": 0.5 for i in range(2)})
    w.links(0, POOL)
    assert all(w.frontier.state(w.frontier.link_id(url)) == "pool" for url in POOL)
    return w


def _states(w: World) -> dict[str, str]:
    return {url: w.frontier.state(w.frontier.link_id(url)) for url in POOL}


def test_pool_injection_early_with_few_hosts(settings):
    w = _pool_world(settings, dp=0, queued_hosts=9)  # DP = 1 of 100, 9 hosts
    assert w.host(w.select()) == "q.test"
    assert _states(w) == {
        "http://q.test/9": "pool",
        "http://y.test/": "queued",
        "http://x.test/": "queued",
        "http://z.test/": "queued",
        "http://w.test/": "pool",
    }


@pytest.mark.parametrize(("dp", "hosts"), [(29, 1), (0, 10)])  # DP/max = 0.3; 10 hosts
def test_no_pool_injection_late_or_with_enough_hosts(settings, dp, hosts):
    w = _pool_world(settings, dp=dp, queued_hosts=hosts)
    w.select()
    assert set(_states(w).values()) == {"pool"}


def test_injection_skips_hosts_already_waiting():
    """The frontier index step 5 reads: pool links of hosts with nothing in Q_wait."""
    frontier = Frontier(r=(0.0, 0.0, 1.0))
    frontier.add_seed("http://q.test/1", 0.5)
    frontier.take(frontier.add_seed("http://p.test/", 1.0))
    frontier.visited(frontier.link_id("http://p.test/"), 0)
    ids = {}
    for url, p in POOL.items():
        ids[url] = frontier.intern(url)
        frontier.add_parent(ids[url], 0, 0.0, p, p)
    picked = frontier.pool_best_new_hosts(3)
    assert picked == [ids["http://y.test/"], ids["http://x.test/"], ids["http://z.test/"]]
