"""FCTS (SPEC §5.5) and ITS (§5.6) on hand-built worlds where every branch is forced."""

from __future__ import annotations

from collections import Counter

from kgcrawl.crawl.strategies.tabu import Accepted
from tests.crawl.strategies.world import World

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


def _its_chain(settings, g_priority: float, g_tabu: bool):
    """Plink = mid (selected at P 0.45) while Hlink = hi (0.9); mid's page holds g.

    s (0.5, step 3) → hi (0.9 > 0.5, accepted, Hlink) → hi's page holds only `low`
    (0.3 < 0.9): step 6 puts hi in H1 and returns mid, the best of E → mid's page holds g.
    """
    w = World("fcoits", settings)
    s = w.seed("http://a.test/", 0.5)
    assert w.step() == s
    hi, mid = w.links(0, {"http://a.test/hi": 0.9, "http://a.test/mid": 0.45})
    assert w.select() == hi  # mid (0.45 < 0.5) is never accepted, hi always
    assert w.strategy.hlink == Accepted(hi, 0.9)
    assert not w.strategy.h1.terms
    w.fetch(hi)
    (low,) = w.links(1, {"http://b.test/low": 0.3})
    assert w.select() == mid  # C = {low} fails: Plink in H1, best of E
    assert w.strategy.h1.terms == {hi: 4}  # term 5, ticked once
    assert w.strategy.hlink == Accepted(hi, 0.9)
    w.fetch(mid)
    (g,) = w.links(2, {"http://c.test/g": g_priority})
    if g_tabu:
        w.strategy.h1.add(g)
    return w, {"hi": hi, "mid": mid, "low": low, "g": g}


def test_candidate_better_than_plink_is_accepted_and_hlink_kept_when_not_better(settings):
    w, ids = _its_chain(settings, 0.6, g_tabu=False)
    assert w.select() == ids["g"]  # 0.6 > P(Plink) 0.45
    assert w.strategy.hlink == Accepted(ids["hi"], 0.9)  # 0.6 ≤ P(Hlink) 0.9
    assert w.strategy.h1.terms == {ids["hi"]: 4}  # no tick on acceptance


def test_candidate_better_than_hlink_becomes_hlink(settings):
    w, ids = _its_chain(settings, 0.95, g_tabu=False)
    assert w.select() == ids["g"]
    assert w.strategy.hlink == Accepted(ids["g"], 0.95)


def test_tabu_candidate_accepted_by_aspiration_and_released(settings):
    w, ids = _its_chain(settings, 0.95, g_tabu=True)
    assert w.select() == ids["g"]  # tabu, but 0.95 > P(Hlink) 0.9
    assert ids["g"] not in w.strategy.h1
    assert w.strategy.hlink == Accepted(ids["g"], 0.95)
    assert w.strategy.h1.terms == {ids["hi"]: 4}


def test_tabu_candidate_without_aspiration_is_refused(settings):
    w, ids = _its_chain(settings, 0.6, g_tabu=True)
    # g would pass P(g) > P(Plink), but it is tabu and 0.6 ≤ P(Hlink): five tries fail
    # (C = {g}); mid goes into H1; E is empty; the best of Q_wait not in H1 is low.
    assert w.select() == ids["low"]
    assert w.strategy.h1.terms == {ids["hi"]: 3, ids["g"]: 4, ids["mid"]: 4}
    assert w.strategy.hlink == Accepted(ids["hi"], 0.9)
    assert w.frontier.is_queued(ids["g"])


def test_five_tries_then_best_of_e_not_in_h1(settings):
    w = World("fcoits", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root
    a, e1, e2 = w.links(0, {"http://a.test/": 0.9, "http://e.test/1": 0.8, "http://e.test/2": 0.6})
    assert w.select() == a  # every candidate below P(root) = 1; root has no parents: best
    w.fetch(a)
    x = w.seed("http://x.test/", 0.99)  # best of Q_wait, but not in E
    w.strategy.h1.add(e1)
    assert w.select() == e2  # C empty; E = {e1 (tabu), e2}
    assert w.strategy.h1.terms == {root: 3, e1: 4, a: 4}
    assert w.frontier.is_queued(x) and w.frontier.is_queued(e1)


def test_empty_e_best_of_q_wait_not_in_h1_else_best_of_q_wait(settings):
    w = World("fcoits", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root
    q = w.seed("http://q.test/", 0.7)
    r = w.seed("http://s.test/", 0.5)
    w.strategy.h1.add(q)
    assert w.select() == r  # C and E empty; q is tabu
    assert w.strategy.h1.terms == {q: 4, root: 4}
    w.frontier.put_back(r)  # Q_wait back to {q, r}, every link of it tabu now
    w.strategy.h1.add(r)
    assert w.select() == q
    assert w.strategy.h1.terms == {q: 3, root: 4, r: 4}  # Plink is still root: term 5 again


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


def test_h1_terms_tick_after_step_6_and_release_at_zero(settings):
    w = World("fcoits", settings)
    s0 = w.seed("http://r.test/", 1.0)
    assert w.step() == s0
    kids = w.links(0, {f"http://c.test/{i}": 0.9 - 0.1 * i for i in range(6)})
    expected = [
        {s0: 4},
        {s0: 3, kids[0]: 4},
        {s0: 2, kids[0]: 3, kids[1]: 4},
        {s0: 1, kids[0]: 2, kids[1]: 3, kids[2]: 4},
        {kids[0]: 1, kids[1]: 2, kids[2]: 3, kids[3]: 4},  # s0 released at 0
    ]
    for i, terms in enumerate(expected):
        assert w.step() == kids[i]  # each selection fails C and takes the best of E
        assert w.strategy.h1.terms == terms


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


def test_fcts_tabu_neighbour_not_better_than_hlink_gives_best_non_tabu(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 1.0)
    assert w.step() == root  # Hlink = root, P 1
    _, b, c = w.links(0, {"http://a.test/": 0.3, "http://b.test/": 0.8, "http://c.test/": 0.5})
    assert w.select() == b
    w.frontier.put_back(b)  # the engine held b back (its host was busy)
    assert b in w.strategy.tabu
    assert w.select() == c  # b is tabu and 0.8 ≤ 1


def test_fcts_tabu_neighbour_better_than_hlink_is_taken(settings):
    w = World("fcts", settings)
    root = w.seed("http://r.test/", 0.5)
    assert w.step() == root
    b, c = w.links(0, {"http://b.test/": 0.8, "http://c.test/": 0.6})
    assert w.select() == b  # Hlink = b at 0.8
    w.frontier.put_back(b)
    assert w.select() == c  # b tabu, not better than Hlink
    w.fetch(c)
    w.links(1, {"http://b.test/": 0.9, "http://d.test/": 0.2})  # c's page raises b to 0.9
    assert w.select() == b  # tabu, but 0.9 > 0.8
    assert w.strategy.best_accepted == Accepted(b, 0.9)


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
    expected = [
        {q[0]: 5},
        {q[0]: 4, q[1]: 5},
        {q[0]: 3, q[1]: 4, q[2]: 5},
        {q[0]: 2, q[1]: 3, q[2]: 4, q[3]: 5},
        {q[0]: 1, q[1]: 2, q[2]: 3, q[3]: 4, q[4]: 5},
        {q[1]: 1, q[2]: 2, q[3]: 3, q[4]: 4, q[5]: 5},  # q0 free after five more selections
    ]
    for i, terms in enumerate(expected):
        assert w.step() == q[i]
        assert w.strategy.tabu.terms == terms
