"""Ground truth about downloaded pages: one protocol for the sandbox and for a truth file.

A judge knows a page by a key (`page(url)`) and labels keys (`label(key)`:
True, False, or None when it does not know the page). Everything else — the
run log under page keys, the metrics rows with true harvest and recall, R(p)
of the pages by their truth — is computed here once, for every judge. A page
the judge does not know counts as not relevant, and the count is kept, so that
a summary can say how many there were.

On the sandbox a page is known by the page it shows, `World.truth(url).canonical`
in the crawler's URL spelling (text.urls): a mirror copy or a printer's copy
the crawl read first counts as finding the page the manifest lists, and its
truth is that page's. The sandbox knows the truth only for its domains
(sandbox.truth.no_truth); for any other there is no judge, and no figure that
needs one, rather than every page marked irrelevant.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from kgcrawl.evaluate.metrics import MetricsRow, record_outcomes
from kgcrawl.scoring.thresholds import Separation
from kgcrawl.scoring.web_alpha import ANY_LANGUAGE, per_language

if TYPE_CHECKING:
    from kgcrawl.crawl.outcome import Outcome
    from kgcrawl.sandbox.world import World


@dataclass(frozen=True)
class TruthScores:
    """R(p) of downloaded pages the truth calls relevant, and of the others; how many of
    each the crawl itself judged relevant (`judged`: by the α it crawled with, which
    may have moved, crawl/core.py `_judge_pending`).

    `unknown` counts the pages the truth does not know (among `irrelevant`).
    """

    relevant: list[float] = field(default_factory=list)
    irrelevant: list[float] = field(default_factory=list)
    unknown: int = 0
    judged: tuple[int, int] = (0, 0)  # judged relevant: (truly relevant, not)

    @classmethod
    def merged(cls, scores: Iterable[TruthScores]) -> TruthScores:
        scores = list(scores)
        return cls([r for s in scores for r in s.relevant],
                   [r for s in scores for r in s.irrelevant],
                   sum(s.unknown for s in scores),
                   (sum(s.judged[0] for s in scores),
                    sum(s.judged[1] for s in scores)))  # fmt: skip

    @classmethod
    def of(cls, pages: Iterable[tuple[float, bool | None, bool]]) -> TruthScores:
        """From each page's (R(p), the truth's label or None, whether the crawl judged it
        relevant); a page the truth does not know counts as not relevant."""
        scores, unknown, judged = cls(), 0, [0, 0]
        for relevance, label, judged_relevant in pages:
            unknown += label is None
            (scores.relevant if label else scores.irrelevant).append(relevance)
            judged[0 if label else 1] += judged_relevant
        return replace(scores, unknown=unknown, judged=(judged[0], judged[1]))

    def own(self, alpha: float) -> Separation:
        """How well the crawl's own judgement matches the truth (`alpha`: its α at start)."""
        hits, above = self.judged[0], sum(self.judged)
        return Separation(alpha, above, hits / above if above else None,
                          hits / len(self.relevant) if self.relevant else None)  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class Judge(ABC):
    """The truth about pages; `recall_keys` are the relevant pages recall counts (None: none).

    Judges travel to the evaluation's worker processes, so they hold only
    picklable data.
    """

    recall_keys: frozenset[str] | None = None

    @abstractmethod
    def page(self, url: str) -> str:
        """The key the truth knows the page at `url` by."""

    @abstractmethod
    def label(self, page: str) -> bool | None:
        """Whether the page of this key is truly relevant; None when the truth does not know it."""

    @property
    @abstractmethod
    def about(self) -> str:
        """Where the truth comes from and what recall is measured against, for the set-up."""

    def relevant(self, page: str) -> bool:
        """The label, a page the truth does not know counting as not relevant."""
        return bool(self.label(page))

    def pages(self, outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
        """The run log with every downloaded page under its key, as the methods below take it."""
        for outcome in outcomes:
            if outcome.downloaded:
                outcome = replace(outcome, final_url=self.page(outcome.final_url or outcome.url))
            yield outcome

    def found(self, pages: Iterable[Outcome]) -> frozenset[str]:
        """The keys of the truly relevant pages a run downloaded."""
        return frozenset(
            page.final_url for page in pages if page.downloaded and self.relevant(page.final_url)
        )

    def pooled(self, found: Iterable[str]) -> Judge:
        """This judge, recall counted against its relevant pages and those found."""
        if self.recall_keys is None:
            return self
        return replace(self, recall_keys=self.recall_keys | frozenset(found))

    def truth_scores(self, pages: Iterable[Outcome]) -> TruthScores:
        return TruthScores.of(
            (page.relevance, self.label(page.final_url), bool(page.relevant))
            for page in pages
            if page.downloaded and page.relevance is not None
        )

    def rows(self, pages: Iterable[Outcome], strategy: str, domain: str, repeat: int,
             report_every: int, also_at: Iterable[int] = ()) -> list[MetricsRow]:  # fmt: skip
        """Metrics rows of a run's log with true harvest (and recall, given `recall_keys`)."""
        return record_outcomes(pages, strategy, domain, repeat, report_every,
                               truth=self.relevant, relevant_urls=self.recall_keys,
                               also_at=tuple(also_at))  # fmt: skip


@functools.cache
def _world(*args: object) -> World:
    """One World per process and parameters: a judge carries the parameters, not the world."""
    from kgcrawl.sandbox.world import World

    return World(*args)  # type: ignore[arg-type]


@dataclass(frozen=True, kw_only=True)
class SandboxJudge(Judge):
    """The sandbox's truth for one of its domains (`World.truth`)."""

    world_args: tuple  # World(*world_args): (seed, size, profile)
    domain: str
    manifest_pages: int | None = None  # pages of the BFS manifest recall counts against
    manifest_relevant: int = 0  # its relevant pages: the others of `recall_keys` were found

    @property
    def world(self) -> World:
        return _world(*self.world_args)

    def page(self, url: str) -> str:
        """The canonical page a URL shows, spelled as the crawler spells URLs."""
        from kgcrawl.text.urls import canonical_url

        canonical = self.world.truth(url).canonical
        return canonical_url(canonical) or canonical

    def label(self, page: str) -> bool:
        return self.world.truth(page).relevant(self.domain)

    @property
    def about(self) -> str:
        if self.recall_keys is None or self.manifest_pages is None:
            return "the sandbox's truth; recall not measured"
        found = len(self.recall_keys) - self.manifest_relevant
        return (
            f"the sandbox's truth; recall of {len(self.recall_keys):,} relevant pages reachable "
            f"from the seeds: {self.manifest_relevant:,} of the {self.manifest_pages:,} pages a "
            f"BFS reaches, and {found:,} more that the crawls found"
        )


def sandbox_judge(world_args: tuple, domain: str, manifest_pages: int | None = None
                  ) -> SandboxJudge | None:  # fmt: skip
    """The sandbox's judge of `domain`, recall against a BFS manifest of `manifest_pages`.

    None when the sandbox has no truth for the domain (no_truth_note says so).
    """
    from kgcrawl.sandbox.truth import no_truth

    if no_truth(domain) is not None:
        return None
    judge = SandboxJudge(world_args=world_args, domain=domain)
    if manifest_pages is None:
        return judge
    from kgcrawl.sandbox.manifest import bfs

    rows = bfs(judge.world, domain, manifest_pages)
    keys = frozenset(judge.page(row.canonical) for row in rows if row.relevant)
    return replace(judge, recall_keys=keys, manifest_pages=len(rows), manifest_relevant=len(keys))


def no_truth_note(domain: str) -> str | None:
    """What an evaluation on the sandbox says instead of figures it cannot compute, if anything."""
    from kgcrawl.sandbox.truth import no_truth

    reason = no_truth(domain)
    return None if reason is None else f"{reason}: true harvest and recall are not measured"


@dataclass(frozen=True)
class RunAlpha:
    """The α a run's LP counts by: it starts at the corpora's and may end, per page language,
    recalibrated on the web's first pages (scoring/web_alpha.py), so two runs' LP can be
    counted at different α and the summary must say which."""

    start: float
    end: dict[str, float]  # page language → α; ANY_LANGUAGE for the others

    @classmethod
    def of(cls, meta: dict) -> RunAlpha:
        """From a run's meta: its settings' α, and `web_alpha` when it recalibrated."""
        start = float(meta["settings"]["relevance.alpha"])
        web = meta.get("web_alpha")
        return cls(start, dict(web["alphas"]) if web else {ANY_LANGUAGE: start})

    @property
    def moved(self) -> bool:
        """The web changed it, for some language at least."""
        return set(self.end.values()) != {self.start}

    def __str__(self) -> str:
        """`0.390`, or `0.390 → zh 0.473, other 0.390` when the web moved it.

        >>> str(RunAlpha(0.39, {"": 0.39, "zh": 0.473}))
        '0.390 → zh 0.473, other 0.390'
        """
        end = per_language(self.end)
        return f"{self.start:.3f} → {end}" if self.moved else end


@dataclass(frozen=True)
class ScoredRun:
    """A run's metrics rows (each with how the run ended), R(p) by truth, its ending and α."""

    rows: list[MetricsRow]
    truth_scores: TruthScores | None
    ended: str
    found: frozenset[str] = frozenset()  # its truly relevant pages (`Judge.found`)
    alpha: RunAlpha | None = None


def score_run(run_id: str, judge: Judge | None, strategy: str, domain: str, repeat: int,
              report_every: int, also_at: Iterable[int] = ()) -> ScoredRun:  # fmt: skip
    """A finished run's metrics from its log, through the judge when there is one."""
    from kgcrawl.crawl.ended import how_ended
    from kgcrawl.crawl.state import RunState

    state = RunState.open(run_id)
    try:
        meta = state.meta()
        ended = how_ended(meta)
        outcomes = list(state.outcomes())
    finally:
        state.close()
    if judge is None:
        rows = record_outcomes(outcomes, strategy, domain, repeat, report_every,
                               also_at=tuple(also_at))  # fmt: skip
        scores, found = None, frozenset()
    else:
        pages = list(judge.pages(outcomes))  # each page keyed once (a world's truth: 0.1 ms)
        rows = judge.rows(pages, strategy, domain, repeat, report_every, also_at)
        scores = judge.truth_scores(pages)
        found = judge.found(pages)
    return ScoredRun([replace(row, ended=ended) for row in rows], scores, ended, found,
                     RunAlpha.of(meta))  # fmt: skip
