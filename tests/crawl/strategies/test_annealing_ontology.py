"""FCOSA_G / FCOSA_LG (SPEC §5.8): annealing, the comprehensive priority, local-then-global filters.

Hand-built worlds use the shared `World` (a real Frontier, P = the anchor relevance
given); pages are folded in here with their R(p), as the engine folds them.
"""

from __future__ import annotations

import math
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from kgcrawl.config import SettingsError, load_settings
from kgcrawl.crawl.strategies.annealing import (
    ScoredLinks,
    acceptance,
    branch_vectors,
    comprehensive_priority,
    cooled,
    local_relevance,
    metropolis,
)
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.topic import build_topic_model, topic_model_for
from kgcrawl.scoring.relevance import topic_matcher
from tests.crawl.crawls import PAGES, killed_and_resumed, quick_sandbox
from tests.crawl.strategies.world import World, changed

U0 = 0.8444218515250481  # Random(0).random()


def fold(w: World, link: int, relevance: float, children: dict[str, float] | None = None) -> int:
    """The engine's fold of a taken link: a page with R(p), its children (url → P), observe."""
    page = w.pages
    w.pages += 1
    w.frontier.visited(link, page)
    links = w.links(page, children or {})
    w.strategy.observe_anchors(page, [(child, {}) for child in links])
    w.strategy.observe(link, page, relevance > 0.7, relevance)
    return page


def with_annealing(settings, **changes):
    return replace(settings, annealing=replace(settings.annealing, **changes))


# ---- acceptance and cooling ---------------------------------------------------------------


def test_acceptance_probability():
    assert acceptance(0.2, 0.5) == 1.0
    assert acceptance(0.0, 1e-3) == 1.0
    assert acceptance(-0.2, 0.5) == pytest.approx(math.exp(-0.4))  # 0.67032
    assert acceptance(-0.2, 0.5) == pytest.approx(0.670320, abs=1e-6)
    assert acceptance(-0.5, 1e-3) == pytest.approx(0.0)


def test_metropolis_draws_only_for_a_worse_candidate():
    rng = random.Random(0)
    assert metropolis(0.0, 1.0, rng)  # no draw
    assert rng.random() == U0
    # exp(−0.1) = 0.905 > U0 = 0.844: accepted; exp(−0.2) = 0.819 < U0: refused
    assert metropolis(-0.1, 1.0, random.Random(0))
    assert not metropolis(-0.2, 1.0, random.Random(0))


def test_cooling_is_geometric_down_to_the_floor():
    t, seen = 1.0, []
    for _ in range(4):
        t = cooled(t, 0.5, 0.2)
        seen.append(t)
    assert seen == [0.5, 0.25, 0.2, 0.2]


def test_comprehensive_priority_weighs_the_target_page():
    # (1 − 0.25)·0.4 + 0.25·0.8 = 0.3 + 0.2
    assert comprehensive_priority(0.4, 0.8, 0.25) == pytest.approx(0.5)
    assert comprehensive_priority(0.4, 0.8, 0.0) == 0.4


def test_scored_links_best_draw_and_removal():
    links = ScoredLinks()
    for link, score in ((5, 0.3), (2, 0.9), (7, 0.9), (4, 0.1)):
        links.add(link, score)
    assert links.best() == 2  # the older link on a tie
    links.remove(2)
    assert links.best() == 7
    assert len(links) == 3
    drawn = {links.draw(random.Random(seed)) for seed in range(50)}
    assert drawn == {5, 7, 4}
    links.remove(7)
    links.add(7, 0.2)  # back with a lower score: the old entry no longer counts
    assert links.best() == 5


# ---- FCOSA_G --------------------------------------------------------------------------------


def test_seeds_are_probed_first_then_the_chosen_page_children_best_p_first(settings):
    w = World("fcosa_g", settings)
    w.strategy.seed(w.frontier, ["http://a.test/", "http://b.test/"])
    a, b = (w.frontier.link_id(u) for u in ("http://a.test/", "http://b.test/"))
    assert w.select() == a
    fold(w, a, 0.9, {"http://a.test/1": 0.3, "http://a.test/2": 0.8, "http://a.test/3": 0.5})
    assert w.select() == b  # the other seed before any expansion
    assert w.strategy.temperature == 1.0
    fold(w, b, 0.1)  # b's page has no children
    assert w.strategy.expandable.score == pytest.approx({a: 0.975, b: 0.775})  # 0.75 + 0.25·R
    # Random(0) draws b (randrange(2) = 1); exp(−0.2) = 0.819 > U = 0.758: b is expanded,
    # but has no child to probe, so ISA runs again on {a}: two coolings
    order = [w.url(w.select()) for _ in range(3)]
    assert order == ["http://a.test/2", "http://a.test/3", "http://a.test/1"]
    assert w.strategy.temperature == pytest.approx(0.995**2)
    assert not w.strategy.expandable.score


def _two_expandable(settings, seed: int, r_b: float) -> tuple[World, int, int]:
    """Q_w = {a (f 0.975), b (f 0.75 + 0.25·r_b)}, each page with one child."""
    w = World("fcosa_g", changed(settings, "annealing", t0=0.2), seed)
    w.strategy.seed(w.frontier, ["http://a.test/", "http://b.test/"])
    a = w.select()
    fold(w, a, 0.9, {"http://a.test/child": 0.5})
    b = w.select()
    fold(w, b, r_b, {"http://b.test/child": 0.5})
    return w, a, b


def test_isa_expands_a_worse_drawn_page_with_probability_exp_gap_over_t(settings):
    # Random(34): randrange(2) = 1 draws b, then U = 0.5857. T0 = 0.2.
    # r_b = 0.6: gap = 0.25·(0.6 − 0.9) = −0.075, exp(−0.375) = 0.687 > U: b's child
    w, _, _ = _two_expandable(settings, 34, 0.6)
    assert w.url(w.select()) == "http://b.test/child"
    # r_b = 0.3: gap = −0.15, exp(−0.75) = 0.472 < U: a's child
    w, _, b = _two_expandable(settings, 34, 0.3)
    assert w.url(w.select()) == "http://a.test/child"
    assert w.strategy.expandable.score == pytest.approx({b: 0.825})


def test_global_filter_keeps_a_probed_link_only_when_f_exceeds_eta(settings):
    w = World("fcosa_g", settings)
    w.strategy.seed(w.frontier, ["http://a.test/"])
    a = w.select()
    fold(w, a, 0.5, {"http://a.test/kept": 0.195, "http://a.test/lifted": 0.196})
    lifted, kept = w.select(), w.select()
    assert (w.url(lifted), w.url(kept)) == ("http://a.test/lifted", "http://a.test/kept")
    fold(w, lifted, 0.1)  # 0.75·0.196 + 0.25·0.1 = 0.172 > 0.15: kept
    fold(w, kept, 0.0)  # 0.75·0.195 + 0 = 0.146 ≤ 0.15: given up
    assert set(w.strategy.expandable.score) == {lifted}


def test_empty_q_w_falls_back_to_the_best_link_of_q_wait(settings):
    w = World("fcosa_g", settings)
    w.strategy.seed(w.frontier, ["http://a.test/"])
    a = w.select()
    fold(w, a, 0.0, {"http://a.test/x": 0.195})  # f(a) = 0.75 > η, but its child…
    x = w.select()
    fold(w, x, 0.0, {"http://a.test/y": 0.6, "http://a.test/z": 0.4})  # f(x) = 0.146: given up
    assert not w.strategy.expandable.score
    assert w.url(w.select()) == "http://a.test/y"
    assert w.select() is not None
    assert w.select() is None


# ---- FCOSA_LG: local ontologies ----------------------------------------------------------------


def _spec_ontology() -> Ontology:
    """SPEC §3.3's example: R → A (is-a), B (induced-by); A → A1, A2 (synonym), A3; B → B1."""

    def concept(name: str, parent: str | None = None, edge: Edge | None = None) -> Concept:
        return Concept(name, {"en": name}, parent=parent, edge=edge)

    return Ontology(
        "urn:x",
        {
            "R": concept("R"),
            "A": concept("A", "R", Edge.IS_A),
            "B": concept("B", "R", Edge.INDUCED_BY),
            "A1": concept("A1", "A", Edge.IS_A),
            "A2": concept("A2", "A", Edge.SYNONYM),
            "A3": concept("A3", "A", Edge.IS_A),
            "B1": concept("B1", "B", Edge.IS_A),
        },
    )


def test_local_ontologies_are_the_heaviest_branches_with_the_topic_concept():
    onto = _spec_ontology()
    topic = build_topic_model(onto, "R", tuple(Fraction(1, 5) for _ in range(5)), 1)
    assert list(onto.concepts) == ["R", "A", "B", "A1", "A2", "A3", "B1"]
    # W_T (SPEC §3.3): R 1, A 0.3, B 1/3, A1 = A3 0.2667, A2 1/3, B1 0.2833
    a = [1, 0.3, 0, 4 / 15, 1 / 3, 4 / 15, 0]
    b = [1, 0, 1 / 3, 0, 0, 0, 17 / 60]
    rows = branch_vectors(topic, 3)  # only two branches: A (Σ 1.1667) before B (Σ 0.6167)
    np.testing.assert_allclose(rows, [a, b], atol=1e-12)
    np.testing.assert_allclose(branch_vectors(topic, 1), [a], atol=1e-12)


def test_local_relevance_is_the_cosine_with_each_local_ontology():
    branches = np.array([[1.0, 0.5, 0.0, 0.0], [1.0, 0.0, 0.5, 0.5]])
    # U = (0, 2, 0, 0): row 0 → 0.5·2 / (√1.25·2) = 0.4472; row 1 → 0
    np.testing.assert_allclose(local_relevance([{1: 2}], branches), [[0.447214, 0.0]], atol=1e-6)
    # U = (1, 0, 1, 0): row 0 → 1/(√1.25·√2) = 0.6325; row 1 → 1.5/(√1.5·√2) = 0.8660
    np.testing.assert_allclose(
        local_relevance([{0: 1, 2: 1}], branches), [[0.632456, 0.866025]], atol=1e-6
    )
    np.testing.assert_array_equal(local_relevance([{}], branches), [[0.0, 0.0]])
    # a page's anchors at once: the same rows
    np.testing.assert_allclose(
        local_relevance([{1: 2}, {}, {0: 1, 2: 1}], branches),
        [[0.447214, 0.0], [0.0, 0.0], [0.632456, 0.866025]],
        atol=1e-6,
    )


CRAFTED = {  # anchor text, P of the link, R of the page it points to
    "http://a.test/museum": ("博物馆门票", 0.50, 0.8),  # attractions: R_1 = 0.215 ≥ φ
    "http://a.test/rail": ("高铁时刻表", 0.45, 0.4),  # transportation: R_2 = 0.202 ≥ φ
    "http://a.test/guide": ("旅游攻略", 0.195, 0.0),  # the topic concept: ≥ 0.68 everywhere
    "http://a.test/hotel": ("酒店预订", 0.90, 0.9),  # accommodation, not a local ontology: 0
    "http://a.test/contact": ("联系我们", 0.30, 0.0),  # no topic word: 0
}


def test_crafted_page_local_filter_then_global_filter(settings, jieba_words):
    topic = topic_model_for(settings)
    matcher = topic_matcher(topic)
    w = World("fcosa_lg", settings)
    w.strategy.use_topic(topic)  # as the crawl does when it starts
    w.strategy.seed(w.frontier, ["http://a.test/"])
    seed = w.select()
    page = w.pages
    w.pages += 1
    w.frontier.visited(seed, page)
    children = w.links(page, {url: p for url, (_, p, _) in CRAFTED.items()})
    texts = [text for text, _, _ in CRAFTED.values()]
    anchors = [(c, matcher.count_sparse(text)) for c, text in zip(children, texts, strict=True)]
    w.strategy.observe_anchors(page, anchors)  # the engine's hook, before observe
    w.strategy.observe(seed, page, False, 0.5)

    probed = []
    for _ in range(3):
        probed.append(w.url(link := w.select()))
        fold(w, link, CRAFTED[w.url(link)][2])
    # step 9 (local, φ = 0.15): hotel and contact are not probed; P order among the rest
    assert probed == ["http://a.test/museum", "http://a.test/rail", "http://a.test/guide"]
    # step 10 (global, η = 0.15): f = 0.75·P + 0.25·R(P_u)
    f = w.strategy.expandable.score
    assert {w.url(link): round(score, 4) for link, score in f.items()} == {
        "http://a.test/museum": 0.575,  # 0.375 + 0.2
        "http://a.test/rail": 0.4375,  # 0.3375 + 0.1
    }  # guide: 0.75·0.195 + 0 = 0.146 ≤ η: given up
    assert w.frontier.is_queued(children[3]) and w.frontier.is_queued(children[4])
    # museum and rail have no children: with Q_w empty, best-first takes the hotel link
    assert w.url(w.select()) == "http://a.test/hotel"


def test_annealing_settings_are_checked():
    with pytest.raises(SettingsError, match=r"annealing\.phi"):
        load_settings("tourism", {"annealing.phi": 1.5})
    with pytest.raises(SettingsError, match=r"annealing\.local_ontologies"):
        load_settings("tourism", {"annealing.local_ontologies": 0})


# ---- whole crawls -------------------------------------------------------------------------------


def test_crawls_the_sandbox_and_resumes_after_sigkill_on_the_same_sequence(tmp_path):
    strategies = ("fcosa_g", "fcosa_lg")
    with quick_sandbox() as web, ThreadPoolExecutor(len(strategies)) as pool:
        futures = [
            pool.submit(killed_and_resumed, web, tmp_path / s, s, 5, kill_at=[150])
            for s in strategies
        ]
        results = dict(zip(strategies, (f.result() for f in futures), strict=True))
    for strategy, runs in results.items():
        urls = [o.url for o in runs.uninterrupted]
        assert sum(o.downloaded for o in runs.uninterrupted) == PAGES, strategy
        assert [o.url for o in runs.resumed] == urls, f"{strategy}: same seed, other sequence"
        assert [o.seq for o in runs.resumed] == list(range(1, len(urls) + 1)), strategy
        assert runs.resumed_meta["dp"] == PAGES and runs.resumed_meta["ended"] == "budget"
    g, lg = ([o.url for o in results[s].uninterrupted] for s in strategies)
    assert g[:30] == lg[:30], "the seeds are probed first by both"
    assert g != lg, "the local filter changes what is probed"
