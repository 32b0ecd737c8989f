"""The five impact factors, Sem (Eq. 1) and the topic weight vector W_T (Eq. 2).

The papers define the factors in words only; SPEC §3.3 fixes their forms
(marked **Interpretation** there). Everything is computed in exact fractions,
so the worked example of SPEC §3.3 can be checked to the last digit; W_T is
handed to the scoring code as floats.

>>> from kgcrawl.ontology.model import Concept, Edge, Ontology
>>> r, a = Concept("x#R", {"en": "r"}), Concept("x#A", {"en": "a"}, parent="x#R", edge=Edge.IS_A)
>>> onto = Ontology("x", {c.iri: c for c in (r, a)})
>>> str(sem(onto, "x#R", "x#A"))
'11/30'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kgcrawl.ontology.model import EDGE_VALUE, Ontology


@dataclass(frozen=True)
class Factors:
    """The five factors of one concept pair, each in [0, 1]."""

    dis: Fraction
    den: Fraction
    dep: Fraction
    coi: Fraction
    rel: Fraction

    def as_tuple(self) -> tuple[Fraction, ...]:
        return (self.dis, self.den, self.dep, self.coi, self.rel)


DEFAULT_K: tuple[Fraction, ...] = (Fraction(1, 5),) * 5


def common_ancestor(onto: Ontology, c1: str, c2: str) -> str:
    """CS: the deepest common ancestor; a node is its own ancestor."""
    up1 = {c1, *onto.ancestors(c1)}
    for node in (c2, *onto.ancestors(c2)):
        if node in up1:
            return node
    raise AssertionError("a tree has a common ancestor")


def tree_path_edges(onto: Ontology, c1: str, c2: str) -> list[str]:
    """The child ends of the edges on the tree path between c1 and c2."""
    cs = common_ancestor(onto, c1, c2)
    edges = []
    for start in (c1, c2):
        node = start
        while node != cs:
            edges.append(node)
            node = onto.concepts[node].parent
    return edges


def factors(onto: Ontology, c1: str, c2: str, tau: Fraction = Fraction(1)) -> Factors:
    """IF_Dis, IF_Den, IF_Dep, IF_Coi, IF_Rel of SPEC §3.3 (Interpretation)."""
    cs = common_ancestor(onto, c1, c2)
    depth = onto.depth
    dis = depth[c1] + depth[c2] - 2 * depth[cs]
    density_o = max(len(kids) for kids in onto.children.values())
    depth_o = onto.max_depth
    if_dis = Fraction(tau) / (Fraction(tau) + dis)
    if_den = Fraction(len(onto.children[cs]), density_o) if density_o else Fraction(1)
    if_dep = Fraction(depth[cs], depth_o) if depth_o else Fraction(1)
    deepest = max(depth[c1], depth[c2])
    if deepest == 0:
        if_coi = Fraction(1)
    else:
        shared = set(onto.ancestors(c1)) & set(onto.ancestors(c2))
        if_coi = Fraction(len(shared), deepest)
    path = tree_path_edges(onto, c1, c2)
    if path:
        if_rel = sum((EDGE_VALUE[onto.concepts[n].edge] for n in path), Fraction(0)) / len(path)
    else:
        if_rel = Fraction(1)
    return Factors(if_dis, if_den, if_dep, if_coi, if_rel)


def sem(
    onto: Ontology,
    c1: str,
    c2: str,
    k: tuple[Fraction, ...] = DEFAULT_K,
    tau: Fraction = Fraction(1),
) -> Fraction:
    """Sem(C1, C2) = Σ k_i · IF_i (Eq. 1); 1 for a concept with itself."""
    if c1 == c2:
        return Fraction(1)
    return sum(
        (ki * f for ki, f in zip(k, factors(onto, c1, c2, tau).as_tuple(), strict=True)),
        Fraction(0),
    )


def topic_weights(
    onto: Ontology,
    topic: str | None = None,
    k: tuple[Fraction, ...] = DEFAULT_K,
    tau: Fraction = Fraction(1),
) -> dict[str, Fraction]:
    """W_T (Eq. 2): Sem(C, t) for every concept t, in the ontology's order."""
    topic = topic or onto.root
    return {iri: sem(onto, topic, iri, k, tau) for iri in onto.concepts}


def keyword_weights(onto: Ontology) -> dict[str, Fraction]:
    """The `keywords` topic model of the FCTS / FCITS baselines: every w_t = 1."""
    return dict.fromkeys(onto.concepts, Fraction(1))


def weight_vector(weights: dict[str, Fraction]) -> np.ndarray:
    """W_T as a float vector, in the order of `weights`."""
    return np.array([float(w) for w in weights.values()], dtype=np.float64)
