"""Close-by-One against a hand-computed lattice, a brute-force oracle and the `concepts` library."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from kgcrawl.ontology.closure import close_by_one
from kgcrawl.ontology.fca import FormalContext
from kgcrawl.ontology.lattice import library_concepts

# Objects 1–4 (bits 0–3), attributes a–d (bits 0–3): 1 = ab, 2 = ac, 3 = abc, 4 = d.
HAND = FormalContext.from_bools(
    "1234",
    "abcd",
    [(1, 1, 0, 0), (1, 0, 1, 0), (1, 1, 1, 0), (0, 0, 0, 1)],
)
# Worked out by hand: the closed attribute sets are {}, a, ab, ac, abc, d, abcd.
HAND_CONCEPTS = {
    (0b1111, 0b0000),  # everything, no common attribute
    (0b0111, 0b0001),  # {1,2,3}, {a}
    (0b0101, 0b0011),  # {1,3}, {a,b}
    (0b0110, 0b0101),  # {2,3}, {a,c}
    (0b0100, 0b0111),  # {3}, {a,b,c}
    (0b1000, 0b1000),  # {4}, {d}
    (0b0000, 0b1111),  # nothing has all four
}


def _random_context(n_objects: int, n_attributes: int, density: float, seed: int):
    rng = random.Random(seed)
    rows = [[rng.random() < density for _ in range(n_attributes)] for _ in range(n_objects)]
    return FormalContext.from_bools(
        [f"o{i}" for i in range(n_objects)], [f"a{j}" for j in range(n_attributes)], rows
    )


CONTEXTS = {
    "hand": HAND,
    "duplicate-columns": FormalContext.from_bools("xyz", "pqr", [(1, 1, 0), (1, 1, 1), (0, 0, 1)]),
    "full-column-and-empty-column": FormalContext.from_bools(
        "xyz", "pqr", [(1, 0, 1), (1, 0, 0), (1, 0, 1)]
    ),
    "random-12x8-sparse": _random_context(12, 8, 0.25, seed=1),
    "random-15x10-dense": _random_context(15, 10, 0.55, seed=2),
    "random-30x9-mid": _random_context(30, 9, 0.4, seed=3),
}


def _oracle(ctx: FormalContext) -> set[tuple[int, int]]:
    """Every concept by brute force: close every attribute subset (fine up to ~12 attributes)."""
    n = len(ctx.attributes)
    everyone = (1 << len(ctx.objects)) - 1
    found = set()
    for size in range(n + 1):
        for subset in combinations(range(n), size):
            extent = everyone
            for t in subset:
                extent &= ctx.extents[t]
            intent = sum(1 << t for t in range(n) if extent & ctx.extents[t] == extent)
            found.add((extent, intent))
    return found


ENGINES = {
    "cbo": lambda ctx: list(close_by_one(ctx)),
    "concepts-transposed": lambda ctx: library_concepts(ctx, transpose=True),
    "concepts": lambda ctx: library_concepts(ctx, transpose=False),
}


def test_oracle_agrees_with_the_hand_computed_lattice() -> None:
    assert _oracle(HAND) == HAND_CONCEPTS


@pytest.mark.parametrize("name", CONTEXTS)
@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_finds_each_concept_once(engine: str, name: str) -> None:
    ctx = CONTEXTS[name]
    found = ENGINES[engine](ctx)
    assert len(found) == len(set(found))
    assert set(found) == _oracle(ctx)


@pytest.mark.parametrize("name", CONTEXTS)
@pytest.mark.parametrize("min_support", [1, 2, 4])
def test_min_support_keeps_exactly_the_frequent_concepts(name: str, min_support: int) -> None:
    ctx = CONTEXTS[name]
    expected = {c for c in _oracle(ctx) if c[0].bit_count() >= min_support}
    found = list(close_by_one(ctx, min_support))
    assert len(found) == len(set(found)) and set(found) == expected


def test_hand_iceberg() -> None:
    assert set(close_by_one(HAND, min_support=2)) == {
        (0b1111, 0b0000),
        (0b0111, 0b0001),
        (0b0101, 0b0011),
        (0b0110, 0b0101),
    }


def test_support_above_the_corpus_gives_nothing() -> None:
    assert list(close_by_one(HAND, min_support=5)) == []


def test_context_without_attributes_has_one_concept() -> None:
    ctx = FormalContext.from_bools("xy", "", [(), ()])
    assert list(close_by_one(ctx)) == [(0b11, 0)]
