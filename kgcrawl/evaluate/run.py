"""`kgcrawl evaluate`: strategies on the same world, seeds and settings (SPEC §10).

One sandbox server (runner.sandbox_process) serves the whole evaluation. Each
strategy × repeat is one crawl, run in its own process, `parallel` at a time (a
sequential crawl waits on politeness far more than it computes, and the machine
has two cores). Every crawl gets the same settings: the pipeline's, then the
evaluation's defaults (`crawl.workers = 1`, so that the page sequence is a
function of the seed; `graph.uri = none`, the evaluation judges crawls, not the
graph; `fetch.delay = 0` on the sandbox, whose server is ours — robots.txt
`Crawl-delay` still holds), then `--set`, then the evaluation's own options
(strategy, pages, seed). The world's seed is `seed` for every crawl; repeat r
crawls with the strategy seed `seed + r`, so repeats of a randomised strategy
differ while the world and the seeds stay the same.

Metrics are read back from each run's log every `report_every` pages
(metrics.record_outcomes). On the sandbox a page is known by the page it shows,
`World.truth(url).canonical` in the crawler's URL spelling (text.urls): a mirror
copy or a printer's copy the crawl read first counts as finding the page the
manifest lists, and its truth is that page's (the same topic shares). Recall
is measured against the relevant pages of a BFS manifest from the domain's seeds
(sandbox/manifest.py) `MANIFEST_FACTOR` times the crawl budget deep, so that
pages a focused crawl reaches beyond a BFS of its own budget still count.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgcrawl.evaluate.metrics import EvaluationError, MetricsRow, record_outcomes

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Event

    from kgcrawl.crawl.engine import Progress
    from kgcrawl.crawl.state import Outcome
    from kgcrawl.sandbox.world import World

MANIFEST_FACTOR = 4
PROGRESS_SECONDS = 0.25  # a crawl reports its progress at most this often


@dataclass(frozen=True)
class EvaluationPlan:
    """What `kgcrawl evaluate` was asked; None means the pipeline's value."""

    domain: str
    strategies: tuple[str, ...]  # names, or ("all",)
    out: Path
    max_pages: int | None = None
    sandbox: bool = False
    sandbox_size: str = "default"
    seed: int = 0
    repeats: int = 1
    workers_per_crawl: int = 1
    parallel: int = 2
    report_every: int | None = None
    manifest_pages: int | None = None  # None: MANIFEST_FACTOR × max_pages
    resolve: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()  # --set section.key=value


@dataclass(frozen=True)
class CrawlStatus:
    """Where one crawl of the evaluation is; sent from its process to the display."""

    index: int
    label: str  # strategy, with "#r" when there are repeats
    max_pages: int
    state: str = "queued"  # queued | crawling | scoring | done | failed
    dp: int = 0
    lp: int = 0
    pid: int | None = None


@dataclass(frozen=True)
class Job:
    """One crawl: everything its process needs (picklable)."""

    index: int
    label: str
    pipeline: str  # as given: a domain name or a pipeline file
    domain: str
    strategy: str
    repeat: int
    run_id: str
    overrides: tuple[tuple[str, Any], ...]
    resolve: tuple[str, ...]
    world: tuple[int, str] | None  # sandbox (seed, size)
    report_every: int
    relevant: frozenset[str] | None  # page keys recall counts
    max_pages: int


@dataclass(frozen=True)
class JobResult:
    """One crawl's metrics rows and run; `error` says why a crawl gave no result."""

    index: int
    strategy: str
    repeat: int
    run_id: str
    rows: list[MetricsRow]
    dp: int
    lp: int
    seconds: float
    stopped: bool
    error: str | None = None
    truth_scores: TruthScores | None = None  # sandbox: R(p) of its pages, by their truth

    @classmethod
    def failed(cls, job: Job, exc: BaseException) -> JobResult:
        error = f"{type(exc).__name__}: {exc}"
        return cls(job.index, job.strategy, job.repeat, job.run_id, [], 0, 0, 0.0, False, error)


@dataclass
class EvaluationResult:
    """Every crawl's rows (in plan order), its runs, the manifest and the files written."""

    plan: EvaluationPlan
    strategies: tuple[str, ...]
    max_pages: int
    report_every: int
    alpha: float  # R(p) > α: what LP counts
    runs: list[JobResult]
    manifest_pages: int | None = None  # sandbox: BFS pages in the manifest
    manifest_relevant: int | None = None
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[JobResult]:
        """Crawls that raised or downloaded nothing."""
        return [run for run in self.runs if run.error is not None or not run.rows]

    @property
    def rows(self) -> list[MetricsRow]:
        """Rows of the strategies whose every crawl gave a result: like is compared with like."""
        left_out = {run.strategy for run in self.failed}
        return [row for run in self.runs if run.strategy not in left_out for row in run.rows]

    def truth_scores(self) -> TruthScores | None:
        """R(p) of every page downloaded in the evaluation, by its truth; None off the sandbox."""
        scored = [run.truth_scores for run in self.runs if run.truth_scores is not None]
        if not scored:
            return None
        return TruthScores(
            [r for s in scored for r in s.relevant], [r for s in scored for r in s.irrelevant]
        )


@dataclass(frozen=True)
class TruthScores:
    """R(p) of downloaded pages the sandbox's truth calls relevant, and of the others."""

    relevant: list[float]
    irrelevant: list[float]


class SandboxJudge:
    """The sandbox's truth about downloaded pages: which page a URL shows, and its label."""

    def __init__(self, world: World, domain: str) -> None:
        self.world = world
        self.domain = domain

    def page(self, url: str) -> str:
        """The canonical page a URL shows, spelled as the crawler spells URLs."""
        from kgcrawl.text.urls import canonical_url

        canonical = self.world.truth(url).canonical
        return canonical_url(canonical) or canonical

    def relevant(self, url: str) -> bool:
        return self.world.truth(url).relevant(self.domain)

    def pages(self, outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
        """The run log with every downloaded page under its canonical page's URL."""
        for outcome in outcomes:
            if outcome.downloaded:
                outcome = replace(outcome, final_url=self.page(outcome.final_url or outcome.url))
            yield outcome

    def truth_scores(self, outcomes: Iterable[Outcome]) -> TruthScores:
        scores = TruthScores([], [])
        for page in self.pages(outcomes):
            if page.downloaded and page.relevance is not None:
                side = scores.relevant if self.relevant(page.final_url) else scores.irrelevant
                side.append(page.relevance)
        return scores

    def manifest(self, max_pages: int) -> tuple[int, frozenset[str]]:
        """BFS pages from the domain's seeds, and the keys of the relevant ones."""
        from kgcrawl.sandbox.manifest import bfs

        rows = bfs(self.world, self.domain, max_pages)
        return len(rows), frozenset(self.page(row.canonical) for row in rows if row.relevant)

    def rows(self, outcomes: Iterable[Outcome], strategy: str, repeat: int, report_every: int,
             relevant: frozenset[str] | None = None) -> list[MetricsRow]:  # fmt: skip
        """Metrics rows of a run's log with true harvest (and recall, given the relevant keys)."""
        pages = self.pages(outcomes)
        return record_outcomes(pages, strategy, self.domain, repeat, report_every,
                               truth=self.relevant, relevant_urls=relevant)  # fmt: skip


def strategy_names(names: Iterable[str]) -> tuple[str, ...]:
    """`all` → every registered strategy; otherwise the names, checked, duplicates dropped."""
    from kgcrawl.crawl.strategies.base import REGISTRY

    chosen: list[str] = []
    for name in (n.strip() for n in names):
        if not name:
            continue
        if name == "all":
            chosen += list(REGISTRY)
        elif name in REGISTRY:
            chosen.append(name)
        else:
            raise EvaluationError(
                f"--strategies: unknown strategy {name!r} (known: all, {', '.join(REGISTRY)})"
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
    from kgcrawl.evaluate.report import separation_markdown, write_report

    started = time.monotonic()
    _check_plan(plan)
    strategies = strategy_names(plan.strategies)
    base = _overrides(plan)
    settings = load_settings(plan.domain, base)  # bad settings stop here, before any crawl
    for name in strategies:  # calibrated once here (cached), so the crawls only read it
        resolve_thresholds(replace(settings, crawl=replace(settings.crawl, strategy=name)))
    settings = resolve_thresholds(settings)
    max_pages = plan.max_pages or settings.crawl.max_pages
    report_every = plan.report_every or settings.crawl.report_every
    alpha = settings.relevance.alpha
    result = EvaluationResult(plan, strategies, max_pages, report_every, alpha, runs=[])
    with ExitStack() as stack:
        resolve = plan.resolve
        world, relevant = None, None
        if plan.sandbox:
            from kgcrawl.runner import sandbox_process
            from kgcrawl.sandbox.world import World

            world = (plan.seed, plan.sandbox_size)
            judge = SandboxJudge(World(*world), settings.domain)
            manifest_size = plan.manifest_pages or MANIFEST_FACTOR * max_pages
            result.manifest_pages, relevant = judge.manifest(manifest_size)
            result.manifest_relevant = len(relevant)
            resolve = (*stack.enter_context(sandbox_process(*world)), *resolve)
        jobs = _jobs(plan, settings.domain, strategies, base, max_pages, report_every,
                     resolve, world, relevant)  # fmt: skip
        result.runs = _run_jobs(jobs, plan.parallel, on_status or (lambda status: None))
    if not result.rows:
        reasons = "; ".join(f"{run.run_id}: {run.error or 'no page downloaded'}"
                            for run in result.failed)  # fmt: skip
        raise EvaluationError(f"no crawl of the evaluation gave a result ({reasons})")
    title = f"Evaluation of {settings.domain}: {max_pages:,} pages per crawl"
    result.files = write_report(result.rows, plan.out, title)
    result.seconds = time.monotonic() - started
    with (plan.out / "summary.md").open("a", encoding="utf-8") as summary:
        scores = result.truth_scores()
        if scores is not None:
            summary.write(separation_markdown(scores.relevant, scores.irrelevant, result.alpha))
        summary.write(setup_markdown(result))
    return result


def setup_markdown(result: EvaluationResult) -> str:
    """How the evaluation was run, appended to summary.md so its figures can be reproduced."""
    plan = result.plan
    if plan.sandbox:
        world = f"sandbox, world seed {plan.seed}, size {plan.sandbox_size}"
        recall = (
            f"{result.manifest_relevant:,} relevant of the {result.manifest_pages:,} pages "
            "a BFS reaches from the seeds (the recall denominator)"
        )
    else:
        world, recall = "not the sandbox: no ground truth", "not measured"
    lines = [
        "## Set-up",
        "",
        f"- world: {world}",
        f"- relevant pages: {recall}",
        f"- LP counts pages with R(p) > α = {result.alpha:.2f}",
        f"- per crawl: {result.max_pages:,} pages, metrics every {result.report_every:,}, "
        f"{plan.workers_per_crawl} worker(s), strategy seed {plan.seed} + repeat",
        f"- {len(result.runs)} crawls, {plan.parallel} at a time, {result.seconds:,.0f} s in all",
        "",
        "| Run | Strategy | Repeat | DP | LP | Seconds |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for run in result.runs:
        stopped = " (stopped)" if run.stopped else ""
        lines.append(f"| {run.run_id}{stopped} | {run.strategy.upper()} | {run.repeat} | "
                     f"{run.dp:,} | {run.lp:,} | {run.seconds:,.0f} |")  # fmt: skip
    if result.failed:
        lines += ["", "Left out of the tables (a crawl of the strategy gave no result):", ""]
        lines += [f"- {run.run_id}: {run.error or 'no page downloaded'}" for run in result.failed]
    return "\n".join(lines) + "\n"


def _check_plan(plan: EvaluationPlan) -> None:
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


def _overrides(plan: EvaluationPlan) -> dict[str, Any]:
    """Evaluation defaults < --set < the evaluation's own options (module docstring)."""
    from kgcrawl.config import parse_overrides

    values: dict[str, Any] = {"crawl.workers": 1, "graph.uri": "none"}
    if plan.sandbox:
        values["fetch.delay"] = 0
    values |= parse_overrides(list(plan.overrides))
    values["crawl.workers"] = plan.workers_per_crawl
    if plan.max_pages is not None:
        values["crawl.max_pages"] = plan.max_pages
    return values


def _jobs(
    plan: EvaluationPlan,
    domain: str,
    strategies: tuple[str, ...],
    base: dict[str, Any],
    max_pages: int,
    report_every: int,
    resolve: tuple[str, ...],
    world: tuple[int, str] | None,
    relevant: frozenset[str] | None,
) -> list[Job]:
    prefix = _evaluation_id(domain)
    jobs = []
    for repeat in range(plan.repeats):
        for strategy in strategies:
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
                    report_every=report_every,
                    relevant=relevant,
                    max_pages=max_pages,
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


def _run_jobs(
    jobs: list[Job], parallel: int, on_status: Callable[[CrawlStatus], None]
) -> list[JobResult]:
    """The jobs in a process pool; statuses relayed to `on_status` from this process.

    On an error or Ctrl-C the crawls under way get SIGTERM: each checkpoints its
    run (resumable with `kgcrawl crawl --resume`) and returns; crawls the pool had
    already handed to a worker see the stop flag and do not begin.
    """
    for job in jobs:
        on_status(CrawlStatus(job.index, job.label, job.max_pages))
    context = multiprocessing.get_context("spawn")  # no fork of a threaded parent
    statuses = context.Queue()
    stopping = context.Event()
    running: dict[int, int] = {}  # job index → pid
    results: dict[int, JobResult] = {}

    def relay() -> None:
        while True:
            try:
                status = statuses.get_nowait()
            except queue.Empty:
                return
            if status.state == "crawling" and status.pid is not None:
                running[status.index] = status.pid
            elif status.state == "done":
                running.pop(status.index, None)
            on_status(status)

    workers = min(parallel, len(jobs))
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                               initargs=(statuses, stopping))  # fmt: skip
    with _sigterm_stops(), pool:
        futures: dict[Future, Job] = {pool.submit(run_job, job): job for job in jobs}
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                relay()
                for future in done:
                    job = futures[future]
                    try:
                        results[job.index] = future.result()
                    except Exception as exc:  # one strategy's failure must not lose the others
                        results[job.index] = JobResult.failed(job, exc)
            relay()
        except BaseException:
            stopping.set()
            for future in futures:
                future.cancel()
            relay()
            for pid in running.values():
                _stop(pid)
            raise
    for job in jobs:  # the last statuses may still be in the queue: the results are final
        done = results[job.index]
        state = "failed" if done.error else "done"
        on_status(CrawlStatus(job.index, job.label, job.max_pages, state, done.dp, done.lp))
    return [results[job.index] for job in jobs]


@contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM stops the evaluation as Ctrl-C does (in the main thread; elsewhere no change)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stopped(signum: int, frame: object) -> None:
        raise EvaluationError("the evaluation was stopped (SIGTERM); its runs are kept")

    previous = signal.signal(signal.SIGTERM, stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop(pid: int) -> None:
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)


_statuses: Queue | None = None
_stopping: Event | None = None


def _start_worker(statuses: Queue, stopping: Event) -> None:
    """Worker set-up: status queue, stop flag; Ctrl-C is for the parent (a crawl handles it)."""
    global _statuses, _stopping
    _statuses, _stopping = statuses, stopping
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _send(status: CrawlStatus) -> None:
    if _statuses is not None:
        _statuses.put(status)


def run_job(job: Job) -> JobResult:
    """One crawl of the evaluation and its metrics (in a worker process)."""
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings
    from kgcrawl.crawl.engine import start_run
    from kgcrawl.runner import CrawlRequest, crawl

    if _stopping is not None and _stopping.is_set():
        raise EvaluationError(f"{job.run_id}: the evaluation stopped before this crawl began")
    settings = resolve_thresholds(load_settings(job.pipeline, dict(job.overrides)))
    sandbox = {"seed": job.world[0], "size": job.world[1]} if job.world else None
    state = start_run(settings, run_id=job.run_id, sandbox=sandbox)
    status = CrawlStatus(job.index, job.label, job.max_pages, "crawling", pid=os.getpid())
    _send(status)
    last = [0.0]

    def progress(p: Progress) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_SECONDS:
            last[0] = now
            _send(replace(status, dp=p.dp, lp=p.lp))

    crawled = crawl(settings, CrawlRequest(resolve=job.resolve), progress, state=state)
    status = replace(status, state="scoring", dp=crawled.dp, lp=crawled.lp)
    _send(status)
    rows, scores = job_rows(job)
    _send(replace(status, state="done"))
    return JobResult(job.index, job.strategy, job.repeat, job.run_id, rows, crawled.dp,
                     crawled.lp, crawled.seconds, crawled.stopped, truth_scores=scores)  # fmt: skip


def job_rows(job: Job) -> tuple[list[MetricsRow], TruthScores | None]:
    """The metrics rows of a finished job's run log and, on the sandbox, its truth scores."""
    from kgcrawl.crawl.state import RunState

    state = RunState.open(job.run_id)
    try:
        outcomes = list(state.outcomes())
        if job.world is None:
            return record_outcomes(outcomes, job.strategy, job.domain, job.repeat,
                                   job.report_every), None  # fmt: skip
        from kgcrawl.sandbox.world import World

        judge = SandboxJudge(World(*job.world), job.domain)
        rows = judge.rows(outcomes, job.strategy, job.repeat, job.report_every, job.relevant)
        return rows, judge.truth_scores(outcomes)
    finally:
        state.close()
