"""The lattice stage: engines agree, the blow-up guard, support, Hasse covers."""

from __future__ import annotations

import pytest

from kgcrawl.ontology.lattice import Lattice, LatticeError, build_lattice
from tests.ontology.test_closure import HAND, HAND_CONCEPTS, _random_context

TOP, A, AB, AC, ABC, D, BOTTOM = 0b1111, 0b0111, 0b0101, 0b0110, 0b0100, 0b1000, 0b0000


@pytest.mark.parametrize("engine", ["cbo", "concepts"])
def test_engines_build_the_same_lattice(engine: str) -> None:
    assert set(build_lattice(HAND, engine=engine).concepts) == HAND_CONCEPTS
    ctx = _random_context(25, 9, 0.35, seed=7)
    cbo = build_lattice(ctx, min_support=3)
    assert set(build_lattice(ctx, min_support=3, engine=engine).concepts) == set(cbo.concepts)


def test_upper_covers_are_the_hasse_edges() -> None:
    lattice = build_lattice(HAND)
    extent = [c[0] for c in lattice.concepts]
    edges = {(extent[i], extent[j]) for i, j in lattice.upper_covers()}
    assert edges == {
        (A, TOP),
        (D, TOP),
        (AB, A),
        (AC, A),
        (ABC, AB),
        (ABC, AC),
        (BOTTOM, ABC),
        (BOTTOM, D),
    }


def test_guard_stops_with_advice() -> None:
    with pytest.raises(LatticeError) as caught:
        build_lattice(HAND, max_concepts=6)
    message = str(caught.value)
    assert "more than 6 formal concepts" in message
    assert "4 documents × 4 terms" in message
    assert "--max-terms" in message and "--min-support" in message
    assert len(build_lattice(HAND, max_concepts=7)) == 7


def test_guard_counts_only_supported_concepts() -> None:
    lattice = build_lattice(HAND, min_support=2, max_concepts=4)
    assert isinstance(lattice, Lattice) and len(lattice) == 4 and lattice.min_support == 2


def test_progress_every_thousand_concepts() -> None:
    ctx = _random_context(200, 20, 0.3, seed=11)
    counts: list[int] = []
    lattice = build_lattice(ctx, progress=counts.append)
    assert len(lattice) > 2000
    assert counts == list(range(1000, len(lattice) + 1, 1000))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"engine": "lindig"}, "--engine must be one of cbo, concepts"),
        ({"min_support": -1}, "--min-support must not be negative"),
        ({"max_concepts": 0}, "--max-concepts must be at least 1"),
    ],
)
def test_bad_options(kwargs, message: str) -> None:
    with pytest.raises(LatticeError, match=message):
        build_lattice(HAND, **kwargs)
