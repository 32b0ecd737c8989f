"""`kgcrawl evaluate`: strategies on the same world, seeds and settings (SPEC §10).

Each strategy × repeat is one crawl in its own process (jobs.py); on the
sandbox one sandbox server (runner.sandbox_process) serves them all. Every
crawl gets the same settings: the pipeline's, then the evaluation's defaults
(`crawl.workers = 1`, so that the page sequence is a function of the seed;
`graph.uri = none`, the evaluation judges crawls, not the graph; `fetch.delay
= 0` on the sandbox, whose server is ours — robots.txt `Crawl-delay` still
holds — and the pipeline's delay on any other world), then `--set`, then the
evaluation's own options (strategy, pages, seed). The summary's set-up says
which delay was used and why. The world's seed is `seed` for every crawl;
repeat r crawls with the strategy seed `seed + r`, so repeats of a randomised
strategy differ while the world and the seeds stay the same.

Metrics are read back from each run's log every `report_every` pages (`_report_every`). The truth
comes from a judge (judge.py): `--truth FILE` on any world (truth.py), else on
the sandbox its own truth, with recall measured against the relevant pages of a
BFS manifest from the domain's seeds (sandbox/manifest.py) `MANIFEST_FACTOR`
times the crawl budget deep and those any of the crawls found (`_rescore`).
Runs are compared at the largest DP every run reached (metrics.compared_rows):
a run that ended early gets its metrics rows at that DP made for it, so that
the others are compared there too.

Every option, `--resolve` and `--out` included, is checked before the first
crawl: a crawl can run for hours, and a mistake found after it loses them.
`--out` is made once every check passed. A folder that already holds an
evaluation (report.py `report_files`) is written into only with `force`, as
`kgcrawl runs export` does, and its files are removed just before the new
report is written: no earlier plot is left beside it, and crawls that all fail
leave it as it was.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgcrawl.evaluate.jobs import CrawlStatus, Job, JobResult, job_rows, run_jobs
from kgcrawl.evaluate.metrics import EvaluationError, MetricsRow

if TYPE_CHECKING:
    from kgcrawl.evaluate.judge import Judge, TruthScores

MANIFEST_FACTOR = 4
MIN_POINTS = 5  # metrics rows a crawl below which the pipeline's report_every is not kept


@dataclass(frozen=True)
class EvaluationPlan:
    """What `kgcrawl evaluate` was asked; None means the pipeline's value."""

    domain: str
    strategies: tuple[str, ...]  # names, or ("all",)
    out: Path
    max_pages: int | None = None
    sandbox: bool = False
    sandbox_size: str = "default"
    sandbox_profile: str = "default"
    seed: int = 0
    repeats: int = 1
    workers_per_crawl: int | None = None  # None: --set crawl.workers, else 1
    parallel: int = 2
    report_every: int | None = None
    manifest_pages: int | None = None  # None: MANIFEST_FACTOR × max_pages
    truth: Path | None = None  # --truth FILE (truth.py); None: the sandbox's, if any
    resolve: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()  # --set section.key=value
    force: bool = False  # write over an evaluation already in `out`


@dataclass
class EvaluationResult:
    """Every crawl's rows (in plan order), its runs, the truth and the files written."""

    plan: EvaluationPlan
    strategies: tuple[str, ...]
    max_pages: int
    report_every: int
    alpha: float  # R(p) > α: what LP counts
    delay: str  # which fetch.delay the crawls used, and why (setup.delay_note)
    workers: int = 1  # requests in flight per crawl
    runs: list[JobResult] = field(default_factory=list)
    judge: Judge | None = None
    no_truth: str | None = None  # why the world has no truth (the sandbox, another domain)
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[JobResult]:
        """Crawls that raised or downloaded nothing."""
        return [run for run in self.runs if run.error is not None or not run.rows]

    @property
    def compared(self) -> list[JobResult]:
        """Runs of the strategies whose every crawl gave a result: like is compared with like."""
        left_out = {run.strategy for run in self.failed}
        return [run for run in self.runs if run.strategy not in left_out]

    @property
    def rows(self) -> list[MetricsRow]:
        return [row for run in self.compared for row in run.rows]

    def truth_scores(self) -> TruthScores | None:
        """R(p) of every page downloaded in the evaluation, by its truth; None without truth."""
        from kgcrawl.evaluate.judge import TruthScores

        scored = [run.truth_scores for run in self.runs if run.truth_scores is not None]
        return TruthScores.merged(scored) if scored else None


def strategy_names(names: Iterable[str]) -> tuple[str, ...]:
    """`all` → every registered strategy; otherwise the names (any case), checked, duplicates
    dropped."""
    from kgcrawl.crawl.strategies.base import REGISTRY
    from kgcrawl.suggest import did_you_mean

    chosen: list[str] = []
    for name in (n.strip().lower() for n in names):
        if not name:
            continue
        if name == "all":
            chosen += list(REGISTRY)
        elif name in REGISTRY:
            chosen.append(name)
        else:
            raise EvaluationError(
                f"--strategies: unknown strategy {name!r}{did_you_mean(name, REGISTRY)} "
                f"(known: all, {', '.join(REGISTRY)})"
            )
    if not chosen:
        raise EvaluationError("--strategies: name at least one strategy (or all)")
    return tuple(dict.fromkeys(chosen))


def evaluate(
    plan: EvaluationPlan, on_status: Callable[[CrawlStatus], None] | None = None
) -> EvaluationResult:
    """Run every strategy × repeat of the plan and write the report to `plan.out`."""
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings
    from kgcrawl.evaluate.report import (
        labelled_markdown,
        report_files,
        separation_markdown,
        write_report,
    )
    from kgcrawl.evaluate.setup import delay_note, setup_markdown

    started = time.monotonic()
    _check_plan(plan)
    strategies = strategy_names(plan.strategies)
    base = _overrides(plan)
    settings = load_settings(plan.domain, base)  # bad settings stop here, before any crawl
    _check_out(plan)  # before calibration and the manifest, which take a while too
    for name in strategies:  # calibrated once here (cached), so the crawls only read it
        resolve_thresholds(replace(settings, crawl=replace(settings.crawl, strategy=name)))
    settings = resolve_thresholds(settings)
    max_pages = plan.max_pages or settings.crawl.max_pages
    every = _report_every(plan, base, settings.crawl.report_every, max_pages)
    result = EvaluationResult(plan, strategies, max_pages, every,
                              settings.relevance.alpha, delay_note(plan, settings),
                              workers=settings.crawl.workers)  # fmt: skip
    world = (plan.seed, plan.sandbox_size, plan.sandbox_profile) if plan.sandbox else None
    _judge(result, settings.domain, world)  # a bad truth file stops here too
    plan.out.mkdir(parents=True, exist_ok=True)  # checked above; made before the first crawl
    with ExitStack() as stack:
        resolve = plan.resolve
        if world is not None:
            from kgcrawl.runner import sandbox_process

            seed, size, profile = world
            resolve = (*stack.enter_context(sandbox_process(seed, size, profile=profile)), *resolve)
        jobs = _jobs(result, settings.domain, base, resolve, world)
        result.runs = run_jobs(jobs, plan.parallel, on_status or (lambda status: None))
    if not result.rows:
        reasons = "; ".join(f"{run.run_id}: {run.error or 'no page downloaded'}"
                            for run in result.failed)  # fmt: skip
        raise EvaluationError(f"no crawl of the evaluation gave a result ({reasons})")
    _rescore(result, jobs)
    title = f"Evaluation of {settings.domain}: {max_pages:,} pages per crawl"
    if plan.force:  # only now that there is a new one (module docstring)
        for path in report_files(plan.out):
            path.unlink()
    result.files = write_report(result.rows, plan.out, title)
    result.seconds = time.monotonic() - started
    with (plan.out / "summary.md").open("a", encoding="utf-8") as summary:
        scores = result.truth_scores()
        if scores is not None:
            summary.write(separation_markdown(scores, result.alpha))
        if plan.truth is not None:
            firsts: dict[str, str] = {}  # the first repeat of each strategy
            for run in result.compared:
                firsts.setdefault(run.strategy, run.run_id)
            summary.write(labelled_markdown(settings.domain, plan.truth, list(firsts.items())))
        summary.write(setup_markdown(result))
    return result


def _judge(result: EvaluationResult, domain: str, world: tuple[int, str] | None) -> None:
    """The evaluation's truth: the --truth file, else the sandbox's for its domains."""
    from kgcrawl.evaluate.judge import no_truth_note, sandbox_judge
    from kgcrawl.evaluate.truth import read_truth

    plan = result.plan
    if plan.truth is not None:
        result.judge = read_truth(plan.truth)
    elif world is not None:
        pages = plan.manifest_pages or MANIFEST_FACTOR * result.max_pages
        result.judge = sandbox_judge(world, domain, pages)
        if result.judge is None:
            result.no_truth = no_truth_note(domain)


def _rescore(result: EvaluationResult, jobs: list[Job]) -> None:
    """Give every compared run a row at the largest DP every run reached, and recall against
    the pooled relevant pages (read again from its log where either changes its rows).

    **Interpretation** (SPEC §10, "recall of the relevant pages reachable from the
    seeds"): the sandbox's web cannot be crawled whole (a calendar has no last page),
    so the reachable relevant pages are those of a BFS manifest from the seeds and
    every relevant page a crawl of the evaluation downloaded (the pooling of TREC's
    relative recall): each was reached from the seeds. Against the manifest alone
    (1 200 BFS pages), 300-page crawls of the default tourism world had recall 23.8 %
    (BFS, 217 relevant pages) and 10.2 % (fcits_oh, 279), as 216 of fcits_oh's lay
    deeper than the manifest: the focused crawl was ranked below BFS for finding more.
    At 1 000 pages on the three profiles × two domains, fcits_oh found 1.1–2.0× BFS's
    relevant pages and had the lower manifest recall on all five worlds where it was
    defined (sparse tourism's 4 000-page manifest holds none); pooled, the higher on all
    six. A truth file's judge knows no relevant page beyond its file, so its pool is the file's.
    """
    compared = result.compared
    reached = min(run.rows[-1].dp for run in compared)
    judge = result.judge
    if judge is not None:
        result.judge = judge.pooled(key for run in compared for key in run.found)
    pooled = result.judge != judge
    for run in compared:
        if pooled or all(row.dp != reached for row in run.rows):
            job = replace(jobs[run.index], judge=result.judge) if pooled else jobs[run.index]
            rows = job_rows(job, also_at=(reached,)).rows
            result.runs[run.index] = replace(run, rows=rows)


def _check_plan(plan: EvaluationPlan) -> None:
    from kgcrawl.runner import CrawlRequest, check_request
    from kgcrawl.sandbox.world import check_world_options

    check_world_options(plan.sandbox, plan.sandbox_size, plan.sandbox_profile)
    # `kgcrawl crawl`'s own check, so its line; in the jobs it failed each crawl, runs left empty
    check_request(CrawlRequest(resolve=plan.resolve), new_run=False, new_archive=False)
    for name, value, least in (
        ("--max-pages", plan.max_pages, 1),
        ("--repeats", plan.repeats, 1),
        ("--workers-per-crawl", plan.workers_per_crawl, 1),
        ("--parallel", plan.parallel, 1),
        ("--report-every", plan.report_every, 1),
        ("--manifest-pages", plan.manifest_pages, 1),
    ):
        if value is not None and value < least:
            raise EvaluationError(f"{name} must be at least {least}, got {value}")


def _check_out(plan: EvaluationPlan) -> None:
    """`--out` a folder the report can be written in, or one that can be made, holding no
    evaluation unless `force` (module docstring); one line naming it otherwise. Nothing is
    made yet: a later check may still stop the evaluation."""
    from kgcrawl.evaluate.report import report_files

    out = plan.out
    there = next(path for path in (out, *out.parents) if path.exists())  # "/" or "." at last
    if not there.is_dir():
        what = "" if there == out else f"{there} "
        raise EvaluationError(f"--out {out}: {what}is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=there):
            pass
    except OSError as exc:
        raise EvaluationError(f"--out {out}: cannot write in {there} ({exc.strerror})") from None
    earlier = report_files(out)
    if earlier and not plan.force:
        names = ", ".join(path.name for path in earlier[:3])
        more = f" and {len(earlier) - 3} more" if len(earlier) > 3 else ""
        raise EvaluationError(f"--out {out}: holds an earlier evaluation ({names}{more}); "
                              "--force replaces it")  # fmt: skip


def _report_every(plan: EvaluationPlan, base: dict[str, Any], every: int, max_pages: int) -> int:
    """--report-every, --set crawl.report_every (in `base`, `_overrides`), or the pipeline's
    `every`; but where the pipeline's gives fewer than MIN_POINTS rows a crawl (its 500
    against `--max-pages 300`: each plot a single point), a tenth of the budget.

    >>> plan = EvaluationPlan("tourism", ("bfs",), Path("."))
    >>> _report_every(plan, {}, 500, 300), _report_every(plan, {}, 500, 5000)
    (30, 500)
    >>> _report_every(plan, {"crawl.report_every": 500}, 500, 300)
    500
    """
    if plan.report_every:
        return plan.report_every
    if "crawl.report_every" in base or max_pages >= MIN_POINTS * every:
        return every
    return max(1, max_pages // 10)


def _overrides(plan: EvaluationPlan) -> dict[str, Any]:
    """Evaluation defaults < --set < the evaluation's own options (module docstring)."""
    from kgcrawl.config import parse_overrides

    values: dict[str, Any] = {"crawl.workers": 1, "graph.uri": "none"}
    if plan.sandbox:
        values["fetch.delay"] = 0
    values |= parse_overrides(list(plan.overrides))
    if plan.workers_per_crawl is not None:
        values["crawl.workers"] = plan.workers_per_crawl
    if plan.max_pages is not None:
        values["crawl.max_pages"] = plan.max_pages
    return values


def _jobs(
    result: EvaluationResult,
    domain: str,
    base: dict[str, Any],
    resolve: tuple[str, ...],
    world: tuple[int, str] | None,
) -> list[Job]:
    plan = result.plan
    prefix = _evaluation_id(domain)
    jobs = []
    for repeat in range(plan.repeats):
        for strategy in result.strategies:
            overrides = base | {"crawl.strategy": strategy, "crawl.seed": plan.seed + repeat}
            label = strategy if plan.repeats == 1 else f"{strategy} #{repeat}"
            jobs.append(
                Job(
                    index=len(jobs),
                    label=label,
                    pipeline=plan.domain,
                    domain=domain,
                    strategy=strategy,
                    repeat=repeat,
                    run_id=f"{prefix}-{strategy}-r{repeat}",
                    overrides=tuple(overrides.items()),
                    resolve=resolve,
                    world=world,
                    judge=result.judge,
                    report_every=result.report_every,
                    max_pages=result.max_pages,
                )
            )
    return jobs


def _evaluation_id(domain: str) -> str:
    """`<domain>-eval-<time>`, numbered when another evaluation took that second."""
    from kgcrawl.crawl.state import runs_dir

    base = f"{domain}-eval-{time.strftime('%Y%m%d-%H%M%S')}"
    prefix, n = base, 1
    while any(runs_dir().glob(f"{prefix}-*")):
        n += 1
        prefix = f"{base}-{n}"
    return prefix
