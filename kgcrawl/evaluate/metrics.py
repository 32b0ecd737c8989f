"""How well a crawl did (SPEC §10): LP, AC, AR, SD (Eq. 10–12), true harvest, recall, ranks.

The paper's metrics judge a crawl by its own relevance scores R(p) over the DP
pages downloaded so far: LP counts those with R(p) > α, AC = LP / DP (Eq. 10),
AR is the mean of R(p) (Eq. 11) and SD its population standard deviation
(Eq. 12). On a world that knows the truth (the sandbox) two more say whether the
scores were right: the true harvest rate (truly relevant pages / DP) and the
recall of a set of relevant URLs (those reachable from the seeds), and how
well R(p) > α itself picks the truly relevant pages (precision, recall, the α of
best F1): an α that R(p) hardly reaches leaves LP near 0 whatever the crawl.

Strategies are compared as the paper's Table 3 does (Friedman test, Derrac et
al. 2011): within each block — one metric of one result set (a domain, a
repeat) — the strategies are ranked, best 1 (LP, AC, AR higher is better, SD
lower), ties sharing the mean of their places; a strategy's rank for a metric is
its mean over the result sets, and its average rank the mean over the metrics.

>>> average_ranks({"bfs": 0.37, "ops": 0.68, "fcsa": 0.68})
{'bfs': 3.0, 'ops': 1.5, 'fcsa': 1.5}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kgcrawl.errors import KgcrawlError

if TYPE_CHECKING:
    from kgcrawl.crawl.outcome import Outcome

# The paper's four metrics (Table 2, 3) and whether a larger value is better.
METRICS = ("lp", "ac", "ar", "sd")
HIGHER_IS_BETTER = {
    "lp": True,
    "ac": True,
    "ar": True,
    "sd": False,
    "true_harvest": True,
    "recall": True,
}


class EvaluationError(KgcrawlError):
    """Metrics asked of inconsistent input (no URLs for recall, mismatched strategies)."""


def accuracy(lp: int, dp: int) -> float:
    """AC = LP / DP (Eq. 10); dp ≥ 1."""
    return lp / dp


def average_relevance(relevances: Sequence[float]) -> float:
    """AR = (1/DP) Σ R(p_i) (Eq. 11), summed exactly (fsum) so long crawls do not drift."""
    return math.fsum(relevances) / len(relevances)


def relevance_sd(relevances: Sequence[float]) -> float:
    """SD = sqrt((1/DP) Σ (R(p_i) − AR)²) (Eq. 12): the population standard deviation."""
    mean = average_relevance(relevances)
    return math.sqrt(math.fsum((r - mean) ** 2 for r in relevances) / len(relevances))


def true_harvest(truly_relevant: int, dp: int) -> float:
    """Truly relevant pages / DP: AC measured against the ground truth, not R(p) > α."""
    return truly_relevant / dp


def recall(found: Collection[str], relevant: Collection[str]) -> float | None:
    """Share of the relevant URLs among those found; None when there is no relevant URL."""
    if not relevant:
        return None
    relevant = relevant if isinstance(relevant, set | frozenset) else set(relevant)
    return sum(url in relevant for url in set(found)) / len(relevant)


@dataclass(frozen=True)
class MetricsRow:
    """The metrics of one crawl after `dp` downloaded pages (one line of metrics.csv).

    `true_harvest` and `recall` are None when the world gave no ground truth;
    `ended` is how the row's run ended (crawl/ended.py), None when not known.
    """

    strategy: str
    domain: str
    repeat: int
    dp: int
    lp: int
    ac: float
    ar: float
    sd: float
    true_harvest: float | None = None
    recall: float | None = None
    ended: str | None = None


class MetricsRecorder:
    """Fed downloaded pages in crawl order, returns a row every `report_every` pages.

    `add` returns the row due at that page (else None); `finish` the row at the
    last page unless one was just made; `also_at` are further DPs to make a row
    at (the DP every run of an evaluation reached, so that they compare there).
    `relevant_urls`, when given, is the set recall is measured against, and
    every page must then come with its URL. The true harvest is known only while
    every page came with a truth label.
    """

    def __init__(
        self,
        strategy: str,
        domain: str,
        repeat: int = 0,
        report_every: int = 500,
        relevant_urls: Collection[str] | None = None,
        also_at: Collection[int] = (),
    ) -> None:
        if report_every < 1:
            raise EvaluationError(f"report_every must be at least 1, got {report_every}")
        self.strategy = strategy
        self.domain = domain
        self.repeat = repeat
        self.report_every = report_every
        self.also_at = frozenset(also_at)
        self.relevant_urls = None if relevant_urls is None else frozenset(relevant_urls)
        self.rows: list[MetricsRow] = []
        self._relevances: list[float] = []
        self._lp = 0
        self._truly = 0
        self._truth_known = True
        self._found: set[str] = set()

    @property
    def dp(self) -> int:
        return len(self._relevances)

    def add(
        self, relevance: float, relevant: bool, truth: bool | None = None, url: str | None = None
    ) -> MetricsRow | None:
        """Count one downloaded page: its R(p), R(p) > α, its true label (None: unknown)."""
        if self.relevant_urls is not None:
            if url is None:
                raise EvaluationError("recall needs the URL of every page (url=None given)")
            if url in self.relevant_urls:
                self._found.add(url)
        self._relevances.append(relevance)
        self._lp += bool(relevant)
        if truth is None:
            self._truth_known = False
        else:
            self._truly += bool(truth)
        if self.dp % self.report_every == 0 or self.dp in self.also_at:
            return self._emit()
        return None

    def finish(self) -> MetricsRow | None:
        """The row at the last page, unless it was just made or no page came."""
        if self.dp == 0 or (self.rows and self.rows[-1].dp == self.dp):
            return None
        return self._emit()

    def _emit(self) -> MetricsRow:
        dp = self.dp
        found = self._found
        row = MetricsRow(
            strategy=self.strategy,
            domain=self.domain,
            repeat=self.repeat,
            dp=dp,
            lp=self._lp,
            ac=accuracy(self._lp, dp),
            ar=average_relevance(self._relevances),
            sd=relevance_sd(self._relevances),
            true_harvest=true_harvest(self._truly, dp) if self._truth_known else None,
            recall=None if self.relevant_urls is None else recall(found, self.relevant_urls),
        )
        self.rows.append(row)
        return row


def record_outcomes(
    outcomes: Iterable[Outcome],
    strategy: str,
    domain: str,
    repeat: int = 0,
    report_every: int = 500,
    truth: Callable[[str], bool | None] | None = None,
    relevant_urls: Collection[str] | None = None,
    also_at: Collection[int] = (),
) -> list[MetricsRow]:
    """The rows of a run's log (`RunState.outcomes()`): downloaded pages only, in fold order.

    A page is known by the URL it was finally read from (`final_url`); `truth`
    maps it to its true label.
    """
    recorder = MetricsRecorder(strategy, domain, repeat, report_every, relevant_urls, also_at)
    for outcome in outcomes:
        if not outcome.downloaded or outcome.relevance is None:
            continue
        url = outcome.final_url or outcome.url
        recorder.add(
            outcome.relevance, outcome.relevant, truth(url) if truth is not None else None, url
        )
    recorder.finish()
    return recorder.rows


@dataclass(frozen=True)
class Comparison:
    """Each run's row at one DP, the one Tables 2 and 3 compare the runs at.

    `reached` is the largest DP every run reached (the smallest of the runs'
    last DPs); `dp` is the largest DP at which every run has a row, `reached`
    itself when the rows were made for it (an evaluation makes them).
    """

    dp: int
    reached: int
    rows: list[MetricsRow]  # one per strategy × domain × repeat, in first-seen order


def compared_rows(rows: Iterable[MetricsRow]) -> Comparison:
    """The runs' rows at the largest DP they all have a row for, not each run's last row.

    A run that ended early (a small world, an exhausted frontier) would otherwise
    be ranked on fewer pages than the others.
    """
    runs: dict[tuple[str, str, int], dict[int, MetricsRow]] = {}
    for row in rows:
        runs.setdefault((row.strategy, row.domain, row.repeat), {})[row.dp] = row
    if not runs:
        raise EvaluationError("no metrics rows to compare")
    reached = min(max(by_dp) for by_dp in runs.values())
    shared = set.intersection(*(set(by_dp) for by_dp in runs.values()))
    if not shared:
        raise EvaluationError("no DP at which every run has a metrics row")
    dp = max(shared)
    return Comparison(dp, reached, [by_dp[dp] for by_dp in runs.values()])


def average_ranks(values: Mapping[str, float], higher_is_better: bool = True) -> dict[str, float]:
    """Rank 1 for the best value; tied values share the mean of the places they span."""
    order = sorted(values, key=lambda name: -values[name] if higher_is_better else values[name])
    ranks: dict[str, float] = {}
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1  # mean of places start+1 … end+1
        for name in order[start : end + 1]:
            ranks[name] = shared
        start = end + 1
    return {name: ranks[name] for name in values}


@dataclass(frozen=True)
class FriedmanRanks:
    """Table 3: mean rank per strategy and metric, and their average over the metrics.

    `blocks` is N, the rankings behind each average rank (metrics × result sets);
    `statistic` is Friedman's χ²_F over them, `p_value` its χ² tail with k − 1
    degrees of freedom (None for fewer than two strategies).
    """

    strategies: tuple[str, ...]
    metrics: tuple[str, ...]
    ranks: dict[str, dict[str, float]]
    average: dict[str, float]
    blocks: int
    statistic: float | None
    p_value: float | None


def friedman_ranks(
    result_sets: Sequence[Mapping[str, Mapping[str, float]]], metrics: Sequence[str] = METRICS
) -> FriedmanRanks:
    """Rank the strategies per metric in each result set (strategy → metric → value).

    Every result set must hold the same strategies with a value for each metric:
    a rank means nothing against a different field.
    """
    if not result_sets:
        raise EvaluationError("no results to rank")
    strategies = tuple(result_sets[0])
    for results in result_sets[1:]:
        if set(results) != set(strategies):
            raise EvaluationError(
                f"result sets rank different strategies: {sorted(strategies)} and {sorted(results)}"
            )
    per_metric: dict[str, dict[str, float]] = {name: {} for name in strategies}
    for metric in metrics:
        totals = dict.fromkeys(strategies, 0.0)
        for results in result_sets:
            values = {}
            for name in strategies:
                value = results[name].get(metric)
                if value is None:
                    raise EvaluationError(f"{name} has no value for {metric}")
                values[name] = value
            for name, rank in average_ranks(values, HIGHER_IS_BETTER[metric]).items():
                totals[name] += rank
        for name in strategies:
            per_metric[name][metric] = totals[name] / len(result_sets)
    average = {name: sum(per_metric[name].values()) / len(metrics) for name in strategies}
    blocks = len(metrics) * len(result_sets)
    statistic, p_value = _friedman_test(list(average.values()), blocks)
    return FriedmanRanks(
        strategies=strategies,
        metrics=tuple(metrics),
        ranks=per_metric,
        average=average,
        blocks=blocks,
        statistic=statistic,
        p_value=p_value,
    )


def friedman_from_rows(
    rows: Iterable[MetricsRow], metrics: Sequence[str] = METRICS
) -> FriedmanRanks:
    """Table 3 from metrics rows: each domain × repeat's compared rows are one result set."""
    result_sets: dict[tuple[str, int], dict[str, dict[str, float]]] = {}
    for row in compared_rows(rows).rows:
        values = {metric: getattr(row, metric) for metric in metrics}
        result_sets.setdefault((row.domain, row.repeat), {})[row.strategy] = values
    return friedman_ranks(list(result_sets.values()), metrics)


def _friedman_test(mean_ranks: list[float], blocks: int) -> tuple[float | None, float | None]:
    """χ²_F = 12N / (k(k+1)) · (Σ R_j² − k(k+1)²/4) and its p-value (Derrac et al. 2011)."""
    k = len(mean_ranks)
    if k < 2:
        return None, None
    from scipy.stats import chi2

    statistic = (
        12 * blocks / (k * (k + 1)) * (math.fsum(r * r for r in mean_ranks) - k * (k + 1) ** 2 / 4)
    )
    return statistic, float(chi2.sf(statistic, k - 1))
