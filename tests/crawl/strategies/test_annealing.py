"""FCSA (SPEC §5.4): temperature schedule and the acceptance rule, with known RNG draws."""

from __future__ import annotations

import math
import random

import pytest

from tests.crawl.strategies.world import World, changed

# Random(seed): on a two-link Q_wait [h, g] randrange(2) draws g, then random() gives U.
SEED_U = {34: 0.5857468547498617, 36: 0.05836976307044861, 0: 0.7579544029403025}


def _world(settings, seed: int, p_h: float, p_g: float) -> tuple[World, int, int]:
    w = World("fcsa", settings, seed)
    h = w.seed("http://h.test/", p_h)
    g = w.seed("http://g.test/", p_g)
    twin = random.Random(seed)  # the strategy's RNG, one step ahead
    assert w.frontier.random_queued(twin) == g
    assert twin.random() == SEED_U[seed]
    return w, h, g


def test_temperature_starts_at_t0_and_cools_per_selection(settings):
    w = World("fcsa", settings)
    for i in range(4):
        w.seed(f"http://h{i}.test/", 0.5)
    assert w.strategy.temperature == 1.0
    w.select()
    assert w.strategy.temperature == pytest.approx(0.995)
    w.select()
    w.select()
    assert w.strategy.temperature == pytest.approx(0.995**3)
    w.select()
    assert w.select() is None  # Q_wait empty: no selection, no cooling
    assert w.strategy.temperature == pytest.approx(0.995**4)


def test_temperature_floor(settings):
    w = World("fcsa", changed(settings, "annealing", cooling=0.5))
    for i in range(12):
        w.seed(f"http://h{i}.test/", 0.5)
    for _ in range(9):
        w.select()
    assert w.strategy.temperature == pytest.approx(0.5**9)  # 1.95e-3
    w.select()
    assert w.strategy.temperature == 1e-3  # 0.5**10 = 9.8e-4 is below the floor
    w.select()
    assert w.strategy.temperature == 1e-3


def test_g_as_good_as_h_is_returned(settings):
    w, h, g = _world(settings, 0, 0.7, 0.7)  # U = 0.758 does not matter
    assert w.frontier.best() == h  # the older link on a tie
    assert w.select() == g


def test_worse_g_accepted_with_probability_exp_gap_over_t(settings):
    # exp((0.4 − 0.9) / 1) = exp(−0.5) = 0.6065 > U = 0.5857: g
    w, h, g = _world(settings, 34, 0.9, 0.4)
    assert math.exp(-0.5) == pytest.approx(0.60653, abs=1e-5)
    assert w.select() == g
    assert w.frontier.is_queued(h)


def test_worse_g_refused_when_exp_gap_over_t_below_the_draw(settings):
    # exp((0.35 − 0.9) / 1) = exp(−0.55) = 0.5769 < U = 0.5857: h
    w, h, g = _world(settings, 34, 0.9, 0.35)
    assert math.exp(-0.55) == pytest.approx(0.57695, abs=1e-5)
    assert w.select() == h
    assert w.frontier.is_queued(g)


def test_cold_temperature_refuses_a_slightly_worse_g(settings):
    # T = 1: exp(−0.01) = 0.990 > U = 0.058, g; T = 1e-3: exp(−10) = 4.5e-5 < 0.058, h
    w, h, g = _world(settings, 36, 0.9, 0.89)
    assert w.select() == g
    w, h, g = _world(changed(settings, "annealing", t0=1e-3), 36, 0.9, 0.89)
    assert w.select() == h


def test_single_link_is_returned(settings):
    w = World("fcsa", settings)
    only = w.seed("http://h.test/", 0.3)
    assert w.select() == only
    assert w.frontier.state(only) == "taken"
