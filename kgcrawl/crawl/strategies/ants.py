"""MOACO: the multi-objective ant-colony crawler (东熠, 刘景发, 刘文杰 2020, §4; SPEC §5.8).

m ants start each cycle on a set of pages (LinkInit; the seeds first). In turn,
each ant evaluates the children of the page it stands on and moves to one of
them by the pseudo-random proportional rule over pheromone τ and heuristic
R(l) (Eq. 17); after MaxDepth steps every path's pheromone evaporates and the
walked ones are reinforced (Eq. 18). The children evaluated in the cycle with
R(l) > η form LinkWait; fast non-dominated sorting on the three objectives
R(a_l), R(P_l), R(P_u) (Eq. 14–16) and nearest–farthest candidate selection
(NFCS, Eq. 19) choose from it the m pages the next cycle starts on.

**Interpretation** (the paper's Eq. 17–19 are lost with its formula images):

* An ant's step and the crawler. The paper evaluates a child l of the ant's
  page P_i by R(l) = t1·R(a_l) + t2·R(P_l) + t3·R(P_u) (Eq. 13), which needs
  R(P_u), so it downloads every child; so do we, and those downloads count in
  DP (SPEC §5.8). A step of ant k is: probe the children of P_i that wait in
  Q_wait, one per `select`, highest P first (`lookahead.Probes`); then, when
  they are in, move — without a download — to one of P_i's downloaded
  children with R(l) > η that no ant stood on in this cycle (the paper's one
  Tabu list). An ant with no such child stops for the cycle. A cycle is
  MaxDepth rounds in which each ant steps once, ants in order (the paper's
  "for k := 1 to m").
* R(a_l) is the relevance of l's anchor on P_i alone (Eq. 6); R(P_l) = R(P_i).
  t = `colony.link_weights` (0.34, 0.33, 0.33; the paper gives none).
* Eq. 17 is Ant Colony System's rule: with probability q0 (`colony.q0`, 0.9,
  the paper gives none) the child of largest τ^α·R(l)^β, otherwise one drawn
  with probability proportional to τ^α·R(l)^β.
* Eq. 18: τ ← (1 − ρ)·τ + Σ_k Δτ_k on every path after each cycle, where ant k
  deposits Δτ_k = the mean R(p) of the pages of its walk on each edge it
  walked ("the better the solution, the more pheromone"). An edge P_i → l
  carries C0 (`colony.c0`) from the cycle in which P_i was downloaded.
* LinkWait is rebuilt every cycle, as the paper clears it. The next cycle
  starts from whole non-dominated fronts while they fit in m; NFCS picks the
  rest from the front that overflows: the extreme solutions first (the best of
  each objective in turn), then repeatedly the one whose nearest already
  chosen solution is farthest, by Euclidean distance in objective space
  (Eq. 19). A cycle that downloaded nothing, or left LinkWait empty, is
  followed by one that starts on the m best links of Q_wait.
* σ is `relevance.alpha` (the paper's σ = 0.62 is rainstorm's α): LP counts
  with one threshold for every strategy. The common loop's β still decides
  what waits in Q_wait; η (`colony.eta`) is the paper's threshold on R(l).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import Strategy
from kgcrawl.crawl.strategies.lookahead import Probes, edge_anchor_relevance

Edge = tuple[int, int]  # (link of the page the ant stood on, link it moved along)
Objectives = tuple[float, float, float]  # R(a_l), R(P_l), R(P_u)  (Eq. 14–16)

_CHUNK = 512  # rows of the dominance matrix built at once


def link_relevance(objectives: Objectives, weights: Sequence[float]) -> float:
    """R(l) = t1·R(a_l) + t2·R(P_l) + t3·R(P_u).  # Eq. 13"""
    return sum(w * f for w, f in zip(weights, objectives, strict=True))


def choose_move(weights: Sequence[float], q0: float, rng: random.Random) -> int:
    """The pseudo-random proportional rule (Eq. 17): the best move with probability q0,
    else a roulette draw proportional to the weights; ties go to the first."""
    best = max(range(len(weights)), key=lambda j: (weights[j], -j))
    total = sum(weights)
    if rng.random() <= q0 or total <= 0:
        return best
    point = rng.random() * total
    for j, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return j
    return best  # rounding left the point at the very end


def evaporated(tau: float, rho: float, cycles: int) -> float:
    """τ after `cycles` cycles of evaporation alone: τ·(1 − ρ)^cycles."""
    return tau * (1 - rho) ** cycles


def pheromone_update(tau: float, deposits: Sequence[float], rho: float) -> float:
    """τ ← (1 − ρ)·τ + Σ_k Δτ_k.  # Eq. 18"""
    return (1 - rho) * tau + sum(deposits)


class Pheromone:
    """τ on every edge ants may walk, updated by Eq. 18 after each cycle, lazily.

    An edge P_i → l holds C0 from the cycle P_i was downloaded; an edge walked
    keeps its value as of the last update. Evaporation of the rest is implied
    by the cycles that have passed since.
    """

    def __init__(self, c0: float, rho: float) -> None:
        self.c0 = c0
        self.rho = rho
        self.cycle = 0
        self._walked: dict[Edge, tuple[float, int]] = {}  # edge → (τ, cycle of that value)
        self._born: dict[int, int] = {}  # page's link → cycle it was downloaded

    def born(self, link: int) -> None:
        self._born.setdefault(link, self.cycle)

    def level(self, edge: Edge) -> float:
        tau, since = self._walked.get(edge) or (self.c0, self._born.get(edge[0], self.cycle))
        return evaporated(tau, self.rho, self.cycle - since)

    def end_cycle(self, walks: Sequence[tuple[Sequence[Edge], float]]) -> None:
        """Eq. 18 for the cycle just ended: each walk is (its edges, its deposit Δτ)."""
        deposits: dict[Edge, list[float]] = {}
        for edges, deposit in walks:
            for edge in edges:
                deposits.setdefault(edge, []).append(deposit)
        updated = {e: pheromone_update(self.level(e), d, self.rho) for e, d in deposits.items()}
        self.cycle += 1
        for edge, tau in updated.items():
            self._walked[edge] = (tau, self.cycle)


def dominance(points: np.ndarray) -> np.ndarray:
    """[i, j] is True when i dominates j: no worse in every objective, better in one (maximised)."""
    n = len(points)
    out = np.zeros((n, n), dtype=bool)
    for start in range(0, n, _CHUNK):
        block = points[start : start + _CHUNK, None, :]
        out[start : start + _CHUNK] = (block >= points[None]).all(axis=2) & (
            block > points[None]
        ).any(axis=2)
    return out


def fast_non_dominated_sort(points: np.ndarray) -> list[list[int]]:
    """Fronts of point indices, the non-dominated first (Deb et al. 2002, NSGA-II); maximised."""
    points = np.asarray(points, dtype=float)
    dominates = dominance(points)
    counts = dominates.sum(axis=0)  # how many points dominate each point
    fronts = []
    front = np.flatnonzero(counts == 0)
    while len(front):
        fronts.append(front.tolist())
        counts = counts - dominates[front].sum(axis=0)
        counts[front] = -1
        front = np.flatnonzero(counts == 0)
    return fronts


def nearest_farthest(points: np.ndarray, k: int, chosen: np.ndarray | None = None) -> list[int]:
    """NFCS: k indices of `points`, the extremes first, then the farthest from those chosen.

    Extremes: the best point of each objective in turn (already picked: skipped).
    Then, one at a time, the point whose nearest chosen solution — picked here
    or given in `chosen` — is farthest (Euclidean, Eq. 19); ties to the first.
    """
    points = np.asarray(points, dtype=float)
    k = min(k, len(points))
    picked: list[int] = []
    for objective in range(points.shape[1]):
        if len(picked) == k:
            break
        best = int(np.argmax(points[:, objective]))
        if best not in picked:
            picked.append(best)
    nearest = np.full(len(points), np.inf)
    context = [points[j] for j in picked] + ([] if chosen is None else list(chosen))
    for solution in context:
        nearest = np.minimum(nearest, np.linalg.norm(points - solution, axis=1))
    while len(picked) < k:
        nearest[picked] = -1.0
        j = int(np.argmax(nearest))
        picked.append(j)
        nearest = np.minimum(nearest, np.linalg.norm(points - points[j], axis=1))
    return picked


def select_starts(points: np.ndarray, k: int) -> list[int]:
    """k indices: whole non-dominated fronts while they fit, NFCS in the front that overflows."""
    points = np.asarray(points, dtype=float)
    picked: list[int] = []
    for front in fast_non_dominated_sort(points):
        room = k - len(picked)
        if room <= 0:
            break
        if len(front) <= room:
            picked.extend(front)
        else:
            chosen = points[picked] if picked else None
            picked.extend(front[i] for i in nearest_farthest(points[front], room, chosen))
    return picked


@dataclass
class Ant:
    """One ant's walk in the current cycle, as link ids of the pages it stood on."""

    position: int
    pages: list[int]
    edges: list[Edge] = field(default_factory=list)
    alive: bool = True


class AntColony(Strategy):
    """MOACO (§4): ants probe and walk, pheromone after each cycle, Pareto starts for the next."""

    name = "moaco"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        colony = self.settings.colony
        self.probes = Probes()
        self.pheromone = Pheromone(colony.c0, colony.rho)
        self.relevance: dict[int, float] = {}  # downloaded link → R(p) of its page
        self.ants: list[Ant] = []
        self.depth = 0  # rounds done in this cycle
        self.turn = 0  # next ant to step in this round
        self.stepping: Ant | None = None  # the ant whose children are being probed
        self.stood: set[int] = set()  # Tabu: pages an ant stood on in this cycle
        self.waiting: dict[int, Objectives] = {}  # LinkWait of this cycle
        self.probed = 0  # downloads handed out in this cycle

    def seed(self, frontier: Frontier, urls: list[str]) -> None:
        self._start_cycle(frontier, list(dict.fromkeys(frontier.add_seed(url) for url in urls)))

    def select(self, frontier: Frontier, waiting: Collection[str] = ()) -> int | None:
        if frontier.queued_count() == 0:
            return None
        while (link := self.probes.next(frontier)) is None:
            self._advance(frontier)
        self.probed += 1
        frontier.take(link)
        return link

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        if page is not None:
            self.relevance[link] = relevance
            self.pheromone.born(link)

    # -- the colony's clock ----------------------------------------------------------

    def _advance(self, frontier: Frontier) -> None:
        """One move of the cycle: finish a step, begin the next ant's, or end a round / cycle."""
        if self.stepping is not None:
            self._move(frontier, self.stepping)
            self.stepping = None
        elif self.turn < len(self.ants):
            ant = self.ants[self.turn]
            self.turn += 1
            page = frontier.page_of(ant.position) if ant.alive else None
            if page is None:
                ant.alive = False
            else:
                self.probes.add_children(frontier, page)
                self.stepping = ant
        else:
            self.depth += 1
            self.turn = 0
            if self.depth >= self.settings.colony.max_depth or not any(a.alive for a in self.ants):
                self._end_cycle(frontier)

    def _start_cycle(self, frontier: Frontier, starts: list[int]) -> None:
        starts = starts[: self.settings.colony.ants]
        self.ants = [Ant(link, [link]) for link in starts]
        self.stood = set(starts)
        self.waiting = {}
        self.depth = self.turn = self.probed = 0
        self.probes.add([link for link in starts if frontier.is_queued(link)])

    def _move(self, frontier: Frontier, ant: Ant) -> None:
        """Evaluate the children of the ant's page (LinkWait) and move along one of them."""
        colony = self.settings.colony
        page = frontier.page_of(ant.position)
        here = self.relevance.get(ant.position, 0.0)
        moves: list[int] = []
        weights: list[float] = []
        for child in dict.fromkeys(frontier.edges.children(page)):
            there = self.relevance.get(child)
            if there is None:  # not downloaded: failed, in the pool, or in flight
                continue
            objectives = (edge_anchor_relevance(frontier, child, page), here, there)
            heuristic = link_relevance(objectives, colony.link_weights)
            if heuristic <= colony.eta:
                continue
            self.waiting.setdefault(child, objectives)
            if child not in self.stood:
                tau = self.pheromone.level((ant.position, child))
                moves.append(child)
                weights.append(tau**colony.alpha * heuristic**colony.beta)
        if not moves:
            ant.alive = False
            return
        child = moves[choose_move(weights, colony.q0, self.rng)]
        ant.edges.append((ant.position, child))
        ant.pages.append(child)
        ant.position = child
        self.stood.add(child)

    def _end_cycle(self, frontier: Frontier) -> None:
        """Eq. 18 on the walks, then the next cycle's starts from LinkWait (or Q_wait)."""
        self.pheromone.end_cycle(
            [(ant.edges, self._quality(ant)) for ant in self.ants if ant.edges]
        )
        starts: list[int] = []
        if self.probed and self.waiting:
            links = list(self.waiting)
            points = np.array([self.waiting[link] for link in links])
            starts = [links[i] for i in select_starts(points, self.settings.colony.ants)]
        if not starts:
            starts = self._best_queued(frontier, self.settings.colony.ants)
        self._start_cycle(frontier, starts)

    def _quality(self, ant: Ant) -> float:
        """Δτ of an ant: the mean R(p) over the pages of its walk."""
        return sum(self.relevance.get(link, 0.0) for link in ant.pages) / len(ant.pages)

    @staticmethod
    def _best_queued(frontier: Frontier, count: int) -> list[int]:
        picked: list[int] = []
        while len(picked) < count and (link := frontier.best(exclude=picked)) is not None:
            picked.append(link)
        return picked
