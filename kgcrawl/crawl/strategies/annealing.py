"""Simulated-annealing selection: FCSA (SPEC §5.4) and FCOSA_G / FCOSA_LG (SPEC §5.8).

FCSA compares the best link h of Q_wait with a uniform draw g and takes g when
it is no worse, or with the Metropolis probability exp((P(g) − P(h)) / T); T
starts at T0 and cools geometrically to a floor after each selection.

FCOSA_G and FCOSA_LG are Algorithm 3 of the SA paper (Liu et al. 2022): a page
is downloaded, its child links are filtered — FCOSA_LG first by local
ontologies at φ (step 9), both by the comprehensive priority on the global
ontology at η (step 10) — and the survivors wait in Q_w, from which ISA picks
the next page to expand (step 12).

**Interpretation** (the paper prints neither Eq. 11–12 nor ISA):

* The page a link points to. The comprehensive priority's fourth indicator is
  R(P_u), the relevance of the page the child points to, so the paper
  downloads every child that passes step 9 to evaluate it. We do the same, and
  each such download counts in DP (SPEC §5.8): expanding a page P means probing
  its children in Q_wait one per `select`, highest P first
  (`lookahead.Probes`). The paper's Q_w is then the set of *downloaded* links
  that passed η and whose pages have not been expanded yet; selecting from it
  costs no download, expanding it does.
* Comprehensive priority (Eq. 12): f(l) = (1 − λ)·P(l) + λ·R(P_u), with P(l)
  the common loop's Eq. 9 (PageRank, parent relevance, anchor relevance —
  the other three indicators) when l was selected, and λ =
  `annealing.target_weight` (0.25: the four indicators weigh
  0.41/0.19/0.15/0.25 with the default r). f is fixed once l is downloaded.
* ISA is SPEC §5.4's annealing step on Q_w: the highest-f link against a
  uniform draw, Metropolis acceptance, T cooled after each step (`annealing.t0`,
  `annealing.cooling`, `annealing.floor`). A chosen page with no child left to
  probe is passed over; when Q_w is empty the best link of Q_wait is taken, as
  ITS does. The seeds are the first probes: their R(P_u) is needed too.
* Local ontologies (k2 = `annealing.local_ontologies`, 3): the topic concept
  with one top-level branch of the domain ontology each, the k2 branches of
  largest total weight Σ W_T (the rainstorm ontology has exactly 3). A child's
  relevance to local ontology j is the cosine of its anchor's topic-word counts
  with W_T restricted to that ontology (Eq. 11, `local_relevance`); the child
  is probed when some j reaches φ.
* σ is `relevance.alpha`: Table 7's σ = 0.7 is tourism's α, and an evaluation
  must count LP with one threshold for every strategy. η is a threshold on f,
  not on Eq. 9's P; the common loop's β still decides what waits in Q_wait.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np

from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import Strategy
from kgcrawl.crawl.strategies.lookahead import Probes
from kgcrawl.ontology.topic import TopicModel
from kgcrawl.scoring.relevance import vector_norm


def acceptance(gap: float, temperature: float) -> float:
    """Metropolis: 1 when the candidate is no worse (gap ≥ 0), else exp(gap / T)."""
    return 1.0 if gap >= 0 else math.exp(gap / temperature)


def metropolis(gap: float, temperature: float, rng: random.Random) -> bool:
    """Accept the candidate? Draws from `rng` only when it is worse."""
    return gap >= 0 or rng.random() < acceptance(gap, temperature)


def cooled(temperature: float, rate: float, floor: float) -> float:
    """T after one selection: T·rate, never below the floor."""
    return max(floor, temperature * rate)


def comprehensive_priority(priority: float, target_relevance: float, weight: float) -> float:
    """f(l) = (1 − λ)·P(l) + λ·R(P_u): Eq. 9's three indicators and the fourth (SA paper Eq. 12)."""
    return (1 - weight) * priority + weight * target_relevance


def branch_vectors(topic: TopicModel, count: int) -> np.ndarray:
    """Local ontologies: W_T restricted to the topic concept and one top-level branch (rows).

    The `count` branches of largest Σ W_T, ties in the ontology's order.
    """
    onto, weights = topic.ontology, topic.vector
    index = {iri: i for i, iri in enumerate(onto.concepts)}
    rows = []
    for branch in onto.children[onto.root]:
        members = [branch]
        for iri in members:
            members.extend(onto.children[iri])
        keep = [index[iri] for iri in members] + [index[topic.topic]]
        row = np.zeros(len(weights))
        row[keep] = weights[keep]
        rows.append(row)
    order = sorted(range(len(rows)), key=lambda j: (-rows[j].sum(), j))
    return np.array([rows[j] for j in order[:count]]).reshape(-1, len(weights))


def local_relevance(anchors: Sequence[Mapping[int, int]], branches: np.ndarray) -> np.ndarray:
    """R_j = cos(LTK_j, U) of each anchor's topic-word counts U with each local ontology.  # Eq. 11

    One row per anchor, one column per local ontology: a page's anchors at once. The
    sums are exact over the few words an anchor names, as R(p)'s (scoring/relevance.py),
    so the crawl's order does not depend on the machine's BLAS.
    """
    norms = [vector_norm(branch) for branch in branches]
    weights = [branch.tolist() for branch in branches]
    out = np.zeros((len(anchors), len(branches)))
    for row, counts in enumerate(anchors):
        length = math.sqrt(math.fsum(f * f for f in counts.values()))
        for j, (branch, norm) in enumerate(zip(weights, norms, strict=True)):
            if length and norm:
                out[row, j] = math.fsum(f * branch[i] for i, f in counts.items()) / (length * norm)
    return out


class ScoredLinks:
    """Links with a fixed score: the best one (the older link on a tie) and a uniform draw."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int]] = []
        self._links: list[int] = []
        self._position: dict[int, int] = {}
        self.score: dict[int, float] = {}

    def __len__(self) -> int:
        return len(self._links)

    def add(self, link: int, score: float) -> None:
        if link in self.score:
            return
        self.score[link] = score
        self._position[link] = len(self._links)
        self._links.append(link)
        heapq.heappush(self._heap, (-score, link))

    def best(self) -> int:
        heap, score = self._heap, self.score
        while score.get(heap[0][1]) != -heap[0][0]:  # removed (or added again since)
            heapq.heappop(heap)
        return heap[0][1]

    def draw(self, rng: random.Random) -> int:
        return self._links[rng.randrange(len(self._links))]

    def remove(self, link: int) -> None:
        position = self._position.pop(link)
        last = self._links.pop()
        if last != link:
            self._links[position] = last
            self._position[last] = position
        del self.score[link]


class SimulatedAnnealing(Strategy):
    """FCSA: the best link h of Q_wait against a uniform draw g (SPEC §5.4)."""

    name = "fcsa"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.temperature = self.settings.annealing.t0

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        best = frontier.best()
        if best is None:
            return None
        drawn = frontier.random_queued(self.rng)
        gap = frontier.priority(drawn) - frontier.priority(best)
        accept = metropolis(gap, self.temperature, self.rng)
        ann = self.settings.annealing
        self.temperature = cooled(self.temperature, ann.cooling, ann.floor)
        link = drawn if accept else best
        frontier.take(link)
        return link


class OntologyAnnealing(Strategy):
    """FCOSA_G: probe a page's children, keep those with f > η in Q_w, expand by ISA."""

    name = "fcosa_g"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.temperature = self.settings.annealing.t0
        self.probes = Probes()
        self.expandable = ScoredLinks()  # the paper's Q_w: downloaded, f > η, not expanded
        self._selected: dict[int, float] = {}  # link → its P (Eq. 9) when selected

    def seed(self, frontier: Frontier, urls: list[str]) -> None:
        self.probes.add([frontier.add_seed(url) for url in urls])

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        link = self.probes.next(frontier)
        while link is None and len(self.expandable):
            page = frontier.page_of(self._anneal())
            self.probes.add_children(frontier, page, self._keep(frontier, page))
            link = self.probes.next(frontier)
        if link is None:
            link = frontier.best()
        if link is not None:
            self._selected[link] = frontier.priority(link)
            frontier.take(link)
        return link

    def _anneal(self) -> int:
        """ISA: the best link of Q_w against a uniform draw, Metropolis acceptance; cool T."""
        expandable, ann = self.expandable, self.settings.annealing
        best, drawn = expandable.best(), expandable.draw(self.rng)
        gap = expandable.score[drawn] - expandable.score[best]
        chosen = drawn if metropolis(gap, self.temperature, self.rng) else best
        self.temperature = cooled(self.temperature, ann.cooling, ann.floor)
        expandable.remove(chosen)
        return chosen

    def _keep(self, frontier: Frontier, page: int) -> Callable[[int], bool] | None:
        """Step 9's filter of the children of `page`; FCOSA_G has none."""
        return None

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        """Step 10: a probed link joins Q_w when f(l) > η."""
        priority = self._selected.pop(link, None)
        if page is None or priority is None:
            return
        annealing = self.settings.annealing
        f = comprehensive_priority(priority, relevance, annealing.target_weight)
        if f > annealing.eta:
            self.expandable.add(link, f)


class LocalOntologyAnnealing(OntologyAnnealing):
    """FCOSA_LG: FCOSA_G with the local-ontology filter at φ before probing (step 9)."""

    name = "fcosa_lg"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._branches: np.ndarray | None = None
        self._passing: dict[int, set[int]] = {}  # page → children some local ontology keeps

    def use_topic(self, topic: TopicModel) -> None:
        self._branches = branch_vectors(topic, self.settings.annealing.local_ontologies)

    def observe_anchors(self, page: int, anchors: Sequence[tuple[int, Mapping[int, int]]]) -> None:
        """Topic-word counts of each child's anchor on a page just downloaded (before `observe`)."""
        assert self._branches is not None, "the crawl gives its topic model first"
        relevance = local_relevance([counts for _, counts in anchors], self._branches)
        passing = relevance.max(axis=1, initial=0.0) >= self.settings.annealing.phi
        self._passing[page] = {link for (link, _), ok in zip(anchors, passing, strict=True) if ok}

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        super().observe(link, page, relevant, relevance)
        if page is not None and link not in self.expandable.score:
            self._passing.pop(page, None)  # never expanded: its children need no filter

    def _keep(self, frontier: Frontier, page: int) -> Callable[[int], bool]:
        return self._passing.pop(page).__contains__
