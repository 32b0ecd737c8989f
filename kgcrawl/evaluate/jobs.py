"""The evaluation's crawls: one process per crawl, `parallel` at a time, and their metrics.

Each strategy × repeat is one crawl, run in its own process (a sequential crawl
waits on politeness far more than it computes, and the machine has two cores).
A crawl reports its progress to the parent as `CrawlStatus`es; when it is done,
the same process reads the metrics back from its run log (metrics.record_outcomes
through the evaluation's judge, when there is one) and says how the run ended
(crawl/ended.py).
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
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kgcrawl.evaluate.metrics import EvaluationError, MetricsRow
from kgcrawl.lifetime import die_with_parent

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Event

    from kgcrawl.crawl.engine import Progress
    from kgcrawl.evaluate.judge import Judge, RunAlpha, ScoredRun, TruthScores

PROGRESS_SECONDS = 0.25  # a crawl reports its progress at most this often


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
    world: tuple[int, str] | None  # sandbox (seed, size), recorded in the run
    judge: Judge | None  # the truth the metrics are measured against, if any
    report_every: int
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
    ended: str  # crawl/ended.py: "budget", "frontier exhausted", "signal", "error", "early"
    error: str | None = None
    truth_scores: TruthScores | None = None  # R(p) of its pages, by their truth
    found: frozenset[str] = frozenset()  # its truly relevant pages, by the truth's keys
    alpha: RunAlpha | None = None  # the α its LP counts by, from start to end

    @classmethod
    def failed(cls, job: Job, exc: BaseException) -> JobResult:
        error = f"{type(exc).__name__}: {exc}"
        return cls(job.index, job.strategy, job.repeat, job.run_id, [], 0, 0, 0.0, "error", error)


def run_jobs(
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
                               initargs=(statuses, stopping, os.getpid()))  # fmt: skip
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


def _start_worker(statuses: Queue, stopping: Event, parent_pid: int) -> None:
    """Worker set-up: status queue, stop flag; Ctrl-C is for the parent (a crawl handles it);
    a parent killed outright takes the worker along (kgcrawl/lifetime.py)."""
    global _statuses, _stopping
    die_with_parent(parent_pid)
    _statuses, _stopping = statuses, stopping
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _send(status: CrawlStatus) -> None:
    if _statuses is not None:
        _statuses.put(status)


def run_job(job: Job) -> JobResult:
    """One crawl of the evaluation and its metrics (in a worker process)."""
    from kgcrawl.calibrate import composed_for, resolve_thresholds
    from kgcrawl.config import load_settings
    from kgcrawl.crawl.engine import start_run
    from kgcrawl.runner import CrawlRequest, crawl

    if _stopping is not None and _stopping.is_set():
        raise EvaluationError(f"{job.run_id}: the evaluation stopped before this crawl began")
    settings = resolve_thresholds(load_settings(job.pipeline, dict(job.overrides)))
    sandbox = dict(zip(("seed", "size", "profile"), job.world, strict=True)) if job.world else None
    state = start_run(settings, run_id=job.run_id, sandbox=sandbox,
                      composed=composed_for(settings))  # fmt: skip
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
    scored = job_rows(job)
    _send(replace(status, state="done"))
    return JobResult(job.index, job.strategy, job.repeat, job.run_id, scored.rows, crawled.dp,
                     crawled.lp, crawled.seconds, scored.ended,
                     truth_scores=scored.truth_scores, found=scored.found,
                     alpha=scored.alpha)  # fmt: skip


def job_rows(job: Job, also_at: Iterable[int] = ()) -> ScoredRun:
    """A finished job's metrics rows (also at the DPs `also_at`), truth scores and ending."""
    from kgcrawl.evaluate.judge import score_run

    return score_run(job.run_id, job.judge, job.strategy, job.domain, job.repeat,
                     job.report_every, also_at)  # fmt: skip
