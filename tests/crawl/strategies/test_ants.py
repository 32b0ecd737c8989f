"""MOACO (SPEC §5.8): Pareto fronts, NFCS, the move rule, pheromone, a colony's cycle, a crawl."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from kgcrawl.config import SettingsError, load_settings
from kgcrawl.crawl.strategies.ants import (
    Pheromone,
    choose_move,
    evaporated,
    fast_non_dominated_sort,
    link_relevance,
    nearest_farthest,
    pheromone_update,
    select_starts,
)
from tests.crawl.crawls import PAGES, killed_and_resumed, quick_sandbox
from tests.crawl.strategies.test_annealing_ontology import fold
from tests.crawl.strategies.world import World

# ---- fast non-dominated sorting ------------------------------------------------------------


def _dominates(a, b) -> bool:
    return all(x >= y for x, y in zip(a, b, strict=True)) and any(
        x > y for x, y in zip(a, b, strict=True)
    )


def _brute_force_fronts(points) -> list[list[int]]:
    """Peel the points no remaining point dominates, again and again."""
    remaining, fronts = list(range(len(points))), []
    while remaining:
        front = [
            i for i in remaining if not any(_dominates(points[j], points[i]) for j in remaining)
        ]
        fronts.append(front)
        remaining = [i for i in remaining if i not in front]
    return fronts


def test_fronts_of_a_hand_example():
    points = [(1, 1), (0, 0), (1, 0), (0, 1), (1, 1)]
    assert fast_non_dominated_sort(np.array(points)) == [[0, 4], [2, 3], [1]]
    assert fast_non_dominated_sort(np.empty((0, 3))) == []


@hypothesis_settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 3).flatmap(
        lambda m: st.tuples(
            st.just(m),
            st.lists(
                st.tuples(*[st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])] * m)
                | st.tuples(*[st.floats(0, 1)] * m),
                max_size=40,
            ),
        )
    )
)
def test_fast_non_dominated_sort_equals_brute_force(case):
    objectives, points = case
    array = np.array(points, dtype=float).reshape(len(points), objectives)
    assert fast_non_dominated_sort(array) == _brute_force_fronts(points)


def test_large_sets_are_sorted_in_chunks():
    points = np.random.default_rng(0).random((1200, 3))
    fronts = fast_non_dominated_sort(points)
    assert sorted(i for front in fronts for i in front) == list(range(1200))
    assert fronts == _brute_force_fronts(points.tolist())


# ---- NFCS and the next cycle's starts ---------------------------------------------------------

FRONT = np.array([(0.0, 1.0), (0.1, 0.9), (0.4, 0.7), (0.7, 0.45), (1.0, 0.0), (0.9, 0.2)])


def test_nfcs_takes_the_extremes_then_the_farthest_from_the_chosen():
    # extremes: 4 (best F1), 0 (best F2). Nearest chosen of each other point:
    #   1 → 0: 0.141; 2 → 0: 0.500; 3 → 4: 0.541; 5 → 4: 0.224  ⇒ 3
    #   then 2 → 3: 0.391 (< 0.500)                                  ⇒ 2
    #   then 5: 0.224 > 1: 0.141                                     ⇒ 5, 1
    assert nearest_farthest(FRONT, 6) == [4, 0, 3, 2, 5, 1]
    assert nearest_farthest(FRONT, 4) == [4, 0, 3, 2]
    assert nearest_farthest(FRONT, 1) == [4]


def test_nfcs_measures_distance_to_solutions_chosen_before():
    # (0.7, 0.45) already chosen: 3 is at distance 0, 2 at 0.391, 5 at 0.224 ⇒ 2
    assert nearest_farthest(FRONT, 3, chosen=np.array([(0.7, 0.45)])) == [4, 0, 2]


def test_nfcs_skips_an_extreme_already_taken():
    points = np.array([(1.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.5, 0.5, 0.5)])
    assert nearest_farthest(points, 3) == [0, 1, 2]  # 0 is the best of F1 and of F2


def test_starts_take_whole_fronts_then_nfcs_in_the_front_that_overflows():
    points = np.array([(0.9, 0.8), (0.5, 0.95), (0.85, 0.1), (0.4, 0.9), (0.6, 0.6), (0.75, 0.45)])
    assert fast_non_dominated_sort(points) == [[0, 1], [2, 3, 4, 5]]
    assert select_starts(points, 2) == [0, 1]
    assert select_starts(points, 4) == [0, 1, 2, 3]  # the extremes of the second front
    # 4 is 0.361 from 0 and 3; 5 is 0.364 from 2: 5 is farther
    assert select_starts(points, 5) == [0, 1, 2, 3, 5]
    assert select_starts(points, 10) == [0, 1, 2, 3, 4, 5]


# ---- the move rule and R(l) -------------------------------------------------------------------


def test_link_relevance_is_eq_13():
    # 0.34·0.5 + 0.33·0.8 + 0.33·0.9 = 0.17 + 0.264 + 0.297
    assert link_relevance((0.5, 0.8, 0.9), (0.34, 0.33, 0.33)) == pytest.approx(0.731)


def test_pseudo_random_proportional_rule():
    # Random(0) draws q = 0.844, then 0.758
    assert choose_move([1.0, 3.0, 0.0, 1.0], 0.9, random.Random(0)) == 1  # q ≤ q0: the best
    assert choose_move([2.0, 2.0], 0.9, random.Random(0)) == 0  # the first on a tie
    # q > q0 = 0.5: roulette at 0.758·5 = 3.79 over cumulative 1, 4, 4, 5 → index 1
    assert choose_move([1.0, 3.0, 0.0, 1.0], 0.5, random.Random(0)) == 1
    # 0.758·4 = 3.03 over 1, 2, 3, 4 → index 3
    assert choose_move([1.0, 1.0, 1.0, 1.0], 0.5, random.Random(0)) == 3
    assert choose_move([0.0, 0.0], 0.0, random.Random(0)) == 0  # nothing to weigh


# ---- pheromone --------------------------------------------------------------------------------


def test_pheromone_update_is_eq_18():
    # (1 − 0.7)·1 + 0.5 + 0.25
    assert pheromone_update(1.0, [0.5, 0.25], 0.7) == pytest.approx(1.05)
    assert pheromone_update(2.0, [], 0.7) == pytest.approx(0.6)
    assert evaporated(1.0, 0.7, 2) == pytest.approx(0.09)


def test_pheromone_of_a_colony_over_three_cycles():
    tau = Pheromone(c0=1.0, rho=0.7)
    for page in (1, 2):
        tau.born(page)  # downloaded in cycle 0
    assert tau.level((1, 2)) == 1.0
    tau.end_cycle([([(1, 2)], 0.6), ([(1, 2), (2, 5)], 0.4)])
    assert tau.level((1, 2)) == pytest.approx(1.3)  # 0.3 + 0.6 + 0.4
    assert tau.level((2, 5)) == pytest.approx(0.7)  # 0.3 + 0.4
    assert tau.level((1, 3)) == pytest.approx(0.3)  # walked by none: evaporation only
    tau.born(9)  # downloaded in cycle 1: C0 from then on
    assert tau.level((9, 1)) == 1.0
    tau.end_cycle([])
    assert tau.level((1, 2)) == pytest.approx(0.39)
    assert tau.level((1, 3)) == pytest.approx(0.09)
    assert tau.level((9, 1)) == pytest.approx(0.3)
    tau.end_cycle([([(1, 3)], 0.5)])
    assert tau.level((1, 3)) == pytest.approx(0.527)  # 0.3·0.09 + 0.5
    assert tau.level((1, 2)) == pytest.approx(0.117)


# ---- a colony on a hand-built world ------------------------------------------------------------


def _colony(settings, **changes) -> World:
    return World("moaco", replace(settings, colony=replace(settings.colony, **changes)))


def test_one_cycle_of_two_ants(settings):
    w = _colony(settings, ants=2, max_depth=1)
    w.strategy.seed(w.frontier, ["http://a.test/", "http://b.test/"])
    a, b = (w.frontier.link_id(u) for u in ("http://a.test/", "http://b.test/"))
    assert w.select() == a  # the starts are downloaded first
    fold(w, a, 0.8, {"http://a.test/1": 0.5, "http://a.test/2": 0.3})
    assert w.select() == b
    fold(w, b, 0.2, {"http://b.test/1": 0.4})
    a1 = w.select()  # ant 0 probes a's children, best P first
    assert w.url(a1) == "http://a.test/1"
    fold(w, a1, 0.9, {"http://a.test/1/1": 0.6})
    a2 = w.select()
    fold(w, a2, 0.1)
    b1 = w.select()  # ant 0 moved; ant 1 probes b's child
    assert w.url(b1) == "http://b.test/1"
    assert [ant.position for ant in w.strategy.ants] == [a1, b]
    fold(w, b1, 0.5)
    # R(l) = 0.34·R(a) + 0.33·R(P_l) + 0.33·R(P_u): a1 0.731, a2 0.399, b1 0.367 (all > η);
    # q = 0.844 then 0.758 ≤ q0: each ant takes its best move. The cycle ends (MaxDepth 1).
    nxt = w.select()
    assert w.strategy.waiting == {}  # LinkWait is rebuilt every cycle
    assert w.strategy.pheromone.cycle == 1
    tau = w.strategy.pheromone.level
    assert tau((a, a1)) == pytest.approx(0.3 + (0.8 + 0.9) / 2)  # 1.15
    assert tau((b, b1)) == pytest.approx(0.3 + (0.2 + 0.5) / 2)  # 0.65
    assert tau((a, a2)) == pytest.approx(0.3)
    # LinkWait: a1 (0.5, 0.8, 0.9) dominates a2 (0.3, 0.8, 0.1) and b1 (0.4, 0.2, 0.5);
    # the second front {a2, b1} gives its best R(a_l), b1: the next cycle starts on a1, b1
    assert [ant.position for ant in w.strategy.ants] == [a1, b1]
    assert w.url(nxt) == "http://a.test/1/1"  # ant 0 probes a1's child


def test_a_cycle_that_leaves_link_wait_empty_restarts_from_q_wait(settings):
    w = _colony(settings, ants=1, max_depth=3)
    w.strategy.seed(w.frontier, ["http://a.test/", "http://c.test/"])
    a = w.select()  # one ant: the start a only
    fold(w, a, 0.5)  # no children: the ant stops, LinkWait stays empty
    assert w.url(w.select()) == "http://c.test/"
    assert w.strategy.pheromone.cycle == 1
    assert w.select() is None


def test_colony_settings_are_checked():
    with pytest.raises(SettingsError, match=r"colony\.link_weights"):
        load_settings("tourism", {"colony.link_weights": "0.5,0.5,0.5"})
    with pytest.raises(SettingsError, match=r"colony\.rho"):
        load_settings("tourism", {"colony.rho": 1.5})


# ---- a whole crawl ----------------------------------------------------------------------------


def test_crawls_the_sandbox_and_resumes_after_sigkill_on_the_same_sequence(tmp_path):
    # 3 ants of depth 2 finish several cycles (pheromone, fronts, NFCS) within 300 pages
    small = {"colony.ants": 3, "colony.max_depth": 2}
    with quick_sandbox() as web:
        runs = killed_and_resumed(web, tmp_path, "moaco", 5, kill_at=[150], overrides=small)
    urls = [o.url for o in runs.uninterrupted]
    assert sum(o.downloaded for o in runs.uninterrupted) == PAGES
    assert [o.url for o in runs.resumed] == urls, "same seed, same sequence, killed or not"
    assert [o.seq for o in runs.resumed] == list(range(1, len(urls) + 1)), "none counted twice"
    assert runs.resumed_meta["dp"] == PAGES and runs.resumed_meta["ended"] == "budget"
