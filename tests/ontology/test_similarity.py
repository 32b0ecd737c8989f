"""The five factors, Sem and W_T against SPEC §3.3's worked example, and on random trees."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.similarity import factors, sem, topic_weights
from kgcrawl.ontology.topic import build_topic_model


def _tree(edges: dict[str, tuple[str, Edge]]) -> Ontology:
    names = ["R", *edges]
    return Ontology(
        "ex",
        {
            n: Concept(
                n,
                {"en": n.lower()},
                parent=edges[n][0] if n in edges else None,
                edge=edges[n][1] if n in edges else None,
            )
            for n in names
        },
    )


@pytest.fixture(scope="module")
def example() -> Ontology:
    """SPEC §3.3: R has A (Is-a) and B (Induced-By); A has A1 (Is-a), A2 (Synonym), A3 (Is-a);
    B has B1 (Is-a). Depth(O) = 2, Density(O) = 3."""
    return _tree(
        {
            "A": ("R", Edge.IS_A),
            "B": ("R", Edge.INDUCED_BY),
            "A1": ("A", Edge.IS_A),
            "A2": ("A", Edge.SYNONYM),
            "A3": ("A", Edge.IS_A),
            "B1": ("B", Edge.IS_A),
        }
    )


# pair: (IF_Dis, IF_Den, IF_Dep, IF_Coi, IF_Rel, Sem), copied from the SPEC's table.
WORKED = {
    ("R", "A"): (F(1, 2), F(2, 3), F(0), F(0), F(1, 3), F(3, 10)),
    ("R", "B"): (F(1, 2), F(2, 3), F(0), F(0), F(1, 2), F(1, 3)),
    ("R", "A1"): (F(1, 3), F(2, 3), F(0), F(0), F(1, 3), F(4, 15)),
    ("R", "A2"): (F(1, 3), F(2, 3), F(0), F(0), F(2, 3), F(1, 3)),
    ("R", "B1"): (F(1, 3), F(2, 3), F(0), F(0), F(5, 12), F(17, 60)),
    ("A1", "A2"): (F(1, 3), F(1), F(1, 2), F(1), F(2, 3), F(7, 10)),
    ("A1", "B1"): (F(1, 5), F(2, 3), F(0), F(1, 2), F(3, 8), F(209, 600)),
    ("A", "A1"): (F(1, 2), F(1), F(1, 2), F(1, 2), F(1, 3), F(17, 30)),
}


@pytest.mark.parametrize("pair", list(WORKED))
def test_worked_example_factors_and_sem(example: Ontology, pair: tuple[str, str]) -> None:
    *expected_factors, expected_sem = WORKED[pair]
    assert factors(example, *pair).as_tuple() == tuple(expected_factors)
    assert sem(example, *pair) == expected_sem
    assert sem(example, *reversed(pair)) == expected_sem


def test_worked_example_topic_vector(example: Ontology) -> None:
    weights = topic_weights(example, "R")
    assert [weights[n] for n in ("A", "B", "A1", "A2", "B1")] == [
        F(3, 10),
        F(1, 3),
        F(4, 15),
        F(1, 3),
        F(17, 60),
    ]
    assert weights["R"] == 1  # identity rule: the topic concept is itself a topic word


def test_custom_k_and_tau(example: Ontology) -> None:
    # Only IF_Dis counts, τ = 2: Dis(R, A1) = 2 → 2 / (2 + 2) = 1/2.
    assert sem(example, "R", "A1", k=(F(1), F(0), F(0), F(0), F(0)), tau=F(2)) == F(1, 2)


def test_keywords_model_weights_every_word_one(example: Ontology) -> None:
    model = build_topic_model(example, keywords=True)
    assert set(model.weights.values()) == {1}
    assert model.vector.tolist() == [1.0] * len(example)


def test_topic_model_from_decimal_settings_is_exact(example: Ontology) -> None:
    model = build_topic_model(example, "r", k=(0.2, 0.2, 0.2, 0.2, 0.2), tau=1.0)
    assert model.topic == "R"
    assert model.weights["B1"] == F(17, 60)


@st.composite
def random_trees(draw) -> Ontology:
    size = draw(st.integers(min_value=1, max_value=14))
    edges = {}
    for i in range(1, size):
        parent = draw(st.integers(min_value=0, max_value=i - 1))
        edges[f"N{i}"] = ("R" if parent == 0 else f"N{parent}", draw(st.sampled_from(list(Edge))))
    return _tree(edges)


@settings(max_examples=60, deadline=None)
@given(random_trees(), st.data())
def test_random_trees_factors_bounded_sem_symmetric(onto: Ontology, data) -> None:
    names = list(onto.concepts)
    a = data.draw(st.sampled_from(names))
    b = data.draw(st.sampled_from(names))
    for value in factors(onto, a, b).as_tuple():
        assert 0 <= value <= 1
    assert sem(onto, a, b) == sem(onto, b, a)
    assert 0 <= sem(onto, a, b) <= 1
    assert sem(onto, a, a) == 1
    assert len(topic_weights(onto)) == len(onto)
