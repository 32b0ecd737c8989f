"""FCTS (SPEC §5.5) and ITS (§5.6) on hand-built worlds where every branch is forced."""

from __future__ import annotations

from collections import Counter

from kgcrawl.crawl.strategies.tabu import Accepted
from tests.crawl.strategies.world import World, changed

# ---- ITS (fcoits; fcits is the same algorithm) ---------------------------------------


def test_step3_without_plink_draws_uniformly_from_q_wait(settings):
    picks: Counter[int] = Counter()
    for seed in range(400):
        w = World("fcoits", settings, seed)
        links = [w.seed(f"http://h{i}.test/", p) for i, p in enumerate((0.9, 0.7, 0.5, 0.3))]
        link = w.select()
        picks[link] += 1
        assert w.frontier.state(link) == "taken"
        assert w.strategy.hlink is None and not w.strategy.h1.terms
    # 100 expected per link, binomial sd ≈ 8.7: not the best-first choice, every link drawn
    assert all(70 <= picks[link] <= 130 for link in links), picks


def test_step3_draw_follows_the_seeded_rng(settings):
    def first(seed: int) -> str | None:
        w = World("fcoits", settings, seed)
        for i in range(20):
            w.seed(f"http://h{i}.test/", 0.5)
        return w.url(w.select())

    assert first(3) == first(3)
    assert len({first(seed) for seed in range(10)}) > 1


def _chain(settings):
    """root (0.5) → a (the one candidate above 0.5: accepted, Hlink) → b (C of a fails:
    E = root's page, whose best is b) — every state reached by the algorithm's own steps."""
    w = World("fcoits", settings)
    root = w.seed("http://r.test/", 0.5)
    assert w.step() == root  # step 3: the only link
    a, b, c = w.links(0, {"http://a.test/": 0.6, "http://b.test/": 0.45, "http://c.test/": 0.4})
    assert w.step() == a  # C: 0.6 > P(root) 0.5, the others are not
    assert w.strategy.hlink == Accepted(a, 0.6) and not w.strategy.h1.terms
    return w, {"root": root, "a": a, "b": b, "c": c}


def test_c_candidate_better_than_plink_is_accepted_and_becomes_hlink(settings):
    w, _ = _chain(settings)
    (g,) = w.links(1, {"http://g.test/": 0.7})
    assert w.select() == g  # 0.7 > P(Plink = a) 0.6
    assert w.strategy.hlink == Accepted(g, 0.7)
    assert w.strategy.events["escape"] == w.strategy.events["tabu skip"] == 0


def test_failed_neighbourhood_then_e_is_the_page_plink_was_found_on(settings):
    w, ids = _chain(settings)
    w.links(1, {"http://l.test/": 0.42})
    # C(a) = {l}: 0.42 < 0.6 fails; a's page goes into H1. E(a) = root's page (a was found
    # there): its best is b (0.45 ≥ 0.8 · 0.45, the best of Q_wait); root's page goes in too.
    assert w.select() == ids["b"]
    assert w.strategy.h1.terms == {1: 4, 0: 4}  # term 5, ticked once (once per call)
    assert w.strategy.hlink == Accepted(ids["a"], 0.6)


def test_a_tabu_page_is_passed_over_for_the_best_of_q_wait(settings):
    for tenure, expected in ((5, "l"), (0, "c")):  # γ = 0.8: E's c (0.4) may beat l (0.42)
        w, ids = _chain(changed(settings, "tabu", tenure=tenure, escape=0.8))
        (ids["l"],) = w.links(1, {"http://l.test/": 0.42})
        w.step()  # b, from E = root's page, which goes into H1
        w.links(2, {"http://m.test/": 0.3})
        # C(b) = {m} fails; E(b) = root's page again: tabu, and c (0.4) does not beat
        # Hlink (0.6), so the best of Q_wait, l; with no tabu list E gives c
        assert w.select() == ids[expected], tenure
        assert w.strategy.events["tabu skip"] == (tenure > 0)
        assert w.strategy.h1.terms == ({1: 3, 0: 3, 2: 4} if tenure else {})


def test_escape_takes_the_best_of_q_wait_when_e_is_far_below_it(settings):
    for escape, expected in ((0.8, "k"), (0.0, "b")):
        w, ids = _chain(changed(settings, "tabu", escape=escape))
        _, ids["k"] = w.links(1, {"http://l.test/": 0.42, "http://k.test/": 0.58})
        # C(a) fails (both below 0.6); E's best b (0.45) < 0.8 · 0.58: the best of Q_wait
        assert w.select() == ids[expected], escape
        assert w.strategy.events["escape"] == (escape > 0)
        assert (0 in w.strategy.h1) == (expected == "b")  # E's page goes in when E is used


def test_no_aspiration_switch_skips_even_a_link_above_hlink(settings):
    # with no Hlink yet, any link of a tabu page beats it (aspiration); switched off, skipped
    for aspiration, expected in ((True, "b"), (False, "x")):
        w = World("fcoits", changed(settings, "tabu", aspiration=aspiration, escape=0.8))
        root = w.seed("http://r.test/", 0.5)
        assert w.step() == root
        a, b = w.links(0, {"http://a.test/": 0.3, "http://b.test/": 0.2})
        assert w.step() == a  # C(root) fails (root's page → H1); no E for a seed: best
        x, _ = w.links(1, {"http://x.test/": 0.25, "http://m.test/": 0.1})
        # C(a) fails; E(a) = root's page, tabu: b aspires (no Hlink; 0.2 ≥ 0.8 · 0.25, no
        # escape) or is skipped for x
        assert w.select() == {"b": b, "x": x}[expected], aspiration
        assert w.strategy.events["aspiration"] == aspiration


def test_at_most_five_candidates_are_tried(settings):
    """One good candidate among six: tried (and accepted) iff among the five draws, p = 5/6."""
    accepted = 0
    for seed in range(300):
        w = World("fcoits", settings, seed)
        w.seed("http://r.test/", 0.5)
        w.step()
        low = {f"http://a.test/{i}": 0.3 for i in range(5)}
        *_, good = w.links(0, {**low, "http://a.test/good": 0.7})
        x = w.seed("http://x.test/", 0.99)
        link = w.select()
        assert link in (good, x)
        accepted += link == good
    # 5 tries: 250 expected (sd ≈ 6.5); 4 tries would give 200, 6 tries 300
    assert 230 <= accepted <= 270


def test_p_of_plink_is_its_priority_when_selected(settings):
    w = World("fcoits", settings)
    w.seed("http://r.test/", 1.0)
    w.step()
    s, _other = w.links(0, {"http://s.test/": 0.5, "http://o.test/": 0.4})
    assert w.step() == s  # selected at P 0.5
    (g,) = w.links(1, {"http://g.test/": 0.7})
    w.link(1, w.url(s), 0.95)  # s's own page links to it: P(s) is 0.95 now
    assert w.frontier.priority(s) == 0.95
    assert w.select() == g  # 0.7 > 0.5; measured against 0.95 it would fail, giving `other`


def test_failed_fetch_leaves_plink_unchanged(settings):
    w = World("fcoits", settings, seed=1)
    root = w.seed("http://r.test/", 0.5)
    assert w.step() == root
    a, d, _ = w.links(0, {"http://a.test/": 0.9, "http://d.test/": 0.7, "http://l.test/": 0.3})
    w.seed("http://x.test/", 0.99)
    first = w.select()
    assert first in (a, d)  # the two candidates above P(root) = 0.5
    w.fetch(first, failed=True)
    assert w.strategy.plink == Accepted(root, 0.5)
    assert w.select() == ({a, d} - {first}).pop()  # accepted from C(root): no step 6
    assert not w.strategy.h1.terms


def _root_with_children(settings, seed: int) -> tuple[World, list[int]]:
    """Plink = root (P 0.5); C(root): five a.test links at 0.9, b.test's and c.test's."""
    w = World("fcoits", settings, seed)
    w.seed("http://r.test/", 0.5)
    w.step()
    w.links(0, {f"http://a.test/{i}": 0.9 for i in range(5)})
    return w, w.links(0, {"http://b.test/": 0.6, "http://c.test/": 0.55})


def test_with_requests_in_flight_c_is_drawn_from_hosts_not_waiting(settings):
    """Several requests in flight (crawl/dispatch.py): a host with one out, or with a link
    parked for its next turn, waits. C's draws skip its links, so ITS's picks, made
    while Plink stays the same, do not pile up behind one host."""
    hosts: Counter[str] = Counter()
    for seed in range(40):
        w, free = _root_with_children(settings, seed)
        assert w.select(waiting={"a.test"}) in free
        w, _ = _root_with_children(settings, seed)
        hosts[w.host(w.select())] += 1
    assert hosts["a.test"] > 20, hosts  # with no host waiting, 5 of C's 7 links are a.test's


def test_a_neighbourhood_all_of_waiting_hosts_is_passed_over_not_failed(settings):
    w = World("fcoits", settings)
    w.seed("http://r.test/", 0.5)
    w.step()
    w.links(0, {"http://a.test/1": 0.9, "http://a.test/2": 0.8})
    x = w.seed("http://x.test/", 0.3)
    # C(root) is all a.test's: passed over, root's page stays out of H1; no E for a seed,
    # so the best of Q_wait outside the waiting hosts
    assert w.select(waiting={"a.test"}) == x
    assert w.strategy.events["waiting host"] == 1
    assert not w.strategy.h1.terms
    assert w.host(w.select()) == "a.test"  # a.test free again: C is drawn from as before


def test_fcits_is_its_on_keywords(settings):
    w = World("fcits", settings)
    assert type(w.strategy).topic_model == "keywords"
    root = w.seed("http://r.test/", 0.5)
    assert w.step() == root
    w.links(0, {"http://a.test/": 0.3})
    (g,) = w.links(0, {"http://g.test/": 0.6})
    assert w.select() == g


# ---- FCTS ---------------------------------------------------------------------------


def test_fcts_takes_the_best_neighbour(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root  # no current page: best of Q_wait
    _, b, _ = w.links(0, {"http://a.test/": 0.3, "http://b.test/": 0.8, "http://c.test/": 0.5})
    w.seed("http://x.test/", 0.99)  # better, but not a neighbour
    assert w.select() == b


def test_fcts_neighbour_of_a_tabu_host_not_better_than_hlink_gives_another_host(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root  # Hlink = root (P 1); host r.test is tabu
    _, other = w.links(0, {"http://r.test/x": 0.8, "http://o.test/": 0.5})
    assert w.select() == other  # r.test/x is the best neighbour, of a tabu host, 0.8 ≤ 1
    assert w.strategy.events["tabu skip"] == 1


def test_fcts_neighbour_of_a_tabu_host_better_than_hlink_is_taken(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 0.5)
    assert w.step() == root
    same, _ = w.links(0, {"http://r.test/x": 0.8, "http://o.test/": 0.6})
    assert w.select() == same  # tabu host, but 0.8 > P(Hlink) 0.5
    assert w.strategy.best_accepted == Accepted(same, 0.8)
    assert w.strategy.events["aspiration"] == 1


def test_fcts_empty_neighbourhood_gives_best_of_q_wait(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root
    x = w.seed("http://x.test/", 0.4)
    y = w.seed("http://y.test/", 0.7)
    assert w.select() == y  # root's page holds no link
    assert w.select() == x
    assert w.select() is None


def test_fcts_failed_fetch_keeps_the_current_page(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root
    a, b = w.links(0, {"http://a.test/": 0.9, "http://b.test/": 0.8})
    w.seed("http://x.test/", 0.99)
    assert w.select() == a
    w.fetch(a, failed=True)
    assert w.select() == b  # still root's neighbourhood


def test_fcts_tenure_is_five_selections(settings):
    w = World("fcts", settings)
    q = [w.seed(f"http://q{i}.test/", 0.9 - 0.1 * i) for i in range(7)]
    hosts = [f"q{i}.test" for i in range(7)]
    expected = [
        {hosts[0]: 5},
        {hosts[0]: 4, hosts[1]: 5},
        {hosts[0]: 3, hosts[1]: 4, hosts[2]: 5},
        {hosts[0]: 2, hosts[1]: 3, hosts[2]: 4, hosts[3]: 5},
        {hosts[0]: 1, hosts[1]: 2, hosts[2]: 3, hosts[3]: 4, hosts[4]: 5},
        {hosts[1]: 1, hosts[2]: 2, hosts[3]: 3, hosts[4]: 4, hosts[5]: 5},  # q0 free again
    ]
    for i, terms in enumerate(expected):
        assert w.step() == q[i]
        assert w.strategy.tabu.terms == terms
