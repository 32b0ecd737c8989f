"""Tabu-search selection: traditional TS (FCTS, SPEC §5.5) and the improved ITS (§5.6).

ITS is Algorithm 1 of the FCITS_OH paper as SPEC §5.6 reads it (**Interpretation**):
the current hyperlink Plink is the last link downloaded, the candidates C are
the children of Plink's page waiting in Q_wait, the extended neighbourhood E
the children of Plink's parent pages waiting in Q_wait, and ITS always returns
an unvisited link of Q_wait. `fcits` runs it on the keywords topic model (every
topic word weighs 1), `fcoits` on the ontology's W_T.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.strategies.base import Strategy

NONE_P = float("-inf")


@dataclass
class Accepted:
    """A link with the priority it had when it was accepted or selected."""

    link: int
    priority: float


def priority_of(accepted: Accepted | None) -> float:
    """The priority of an accepted link; below every P when there is none yet."""
    return accepted.priority if accepted else NONE_P


class TabuList:
    """Objects with a remaining term; `tick` lowers every term by one and releases those at 0."""

    def __init__(self, tenure: int) -> None:
        self.tenure = tenure
        self.terms: dict = {}

    def __contains__(self, item: object) -> bool:
        return item in self.terms

    def add(self, item: object) -> None:
        self.terms[item] = self.tenure

    def remove(self, item: object) -> None:
        self.terms.pop(item, None)

    def tick(self) -> list:
        """Lower every term; return what was released."""
        released = [item for item, term in self.terms.items() if term <= 1]
        self.terms = {item: term - 1 for item, term in self.terms.items() if term > 1}
        return released


class TraditionalTabu(Strategy):
    """FCTS: the best neighbour of the last page, unless tabu and not better than Hlink."""

    name = "fcts"
    topic_model = "keywords"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tabu = TabuList(self.settings.tabu.tenure)
        self.best_accepted: Accepted | None = None
        self.current: int | None = None

    def select(self, frontier: Frontier) -> int | None:
        neighbours = frontier.queued_children(frontier.page_of(self.current))
        best = priority_of(self.best_accepted)
        link = frontier.best_of(neighbours)
        if link is not None and link in self.tabu and frontier.priority(link) <= best:
            link = frontier.best_of(neighbours, exclude=self.tabu.terms)
        if link is None:
            link = frontier.best()
        if link is None:
            return None
        if frontier.priority(link) > best:
            self.best_accepted = Accepted(link, frontier.priority(link))
        self.tabu.tick()
        self.tabu.add(link)
        frontier.take(link)
        return link

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        if page is not None:  # a failed fetch downloads nothing: the current solution stays
            self.current = link


class ImprovedTabu(Strategy):
    """FCOITS: ITS (Algorithm 1, SPEC §5.6) on the ontology's topic weights."""

    name = "fcoits"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.h1 = TabuList(self.settings.tabu.tenure)
        self.hlink: Accepted | None = None
        self.plink: Accepted | None = None
        self._in_flight: dict[int, float] = {}  # selected link → its P when selected

    def select(self, frontier: Frontier) -> int | None:
        link = self.its(frontier)
        if link is not None:
            self._in_flight[link] = frontier.priority(link)
            frontier.take(link)
        return link

    def its(self, frontier: Frontier) -> int | None:
        """ITS(Q_wait): an unvisited link of Q_wait (not yet taken out of it)."""
        if frontier.queued_count() == 0:
            return None
        if self.plink is None:
            return frontier.random_queued(self.rng)  # step 3
        candidates = frontier.queued_children(frontier.page_of(self.plink.link))
        for _ in range(min(self.settings.tabu.its_tries, len(candidates))):  # steps 4–6
            g = candidates.pop(self.rng.randrange(len(candidates)))
            p = frontier.priority(g)
            if g in self.h1:
                if p > priority_of(self.hlink):  # aspiration
                    self.h1.remove(g)
                    self.hlink = Accepted(g, p)
                    return g
            elif p > self.plink.priority:
                if p > priority_of(self.hlink):
                    self.hlink = Accepted(g, p)
                return g
        self.h1.add(self.plink.link)  # step 6
        g = frontier.best_of(frontier.queued_siblings(self.plink.link), exclude=self.h1.terms)
        if g is None:
            g = frontier.best(exclude=self.h1.terms)
        if g is None:
            g = frontier.best()
        self.h1.tick()  # step 7
        return g

    def observe(self, link: int, page: int | None, relevant: bool, relevance: float) -> None:
        priority = self._in_flight.pop(link, NONE_P)
        if page is not None:  # Plink is the last link downloaded; a failure is not one
            self.plink = Accepted(link, priority)


class ImprovedTabuKeywords(ImprovedTabu):
    """FCITS: ITS with the keywords topic model (no ontology)."""

    name = "fcits"
    topic_model = "keywords"
