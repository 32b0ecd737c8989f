"""The crawl loop (Algorithm 2, SPEC §5.1) with its I/O: workers, run log, checkpoints, resume.

`Crawl` (crawl/core.py) holds the algorithm's state and does the thinking —
select a link, fold an outcome in; this module feeds it. With one worker the
loop is sequential and, with a seed, deterministic. With more, a `Dispatcher`
(crawl/dispatch.py) keeps up to `workers` links out at once, never two of one
host, and outcomes are folded in as they arrive. The workers are anything
that fetches and analyses a URL into an Outcome (crawl/workers.py): local
threads and processes, or Ray actors (crawl/ray_workers.py); the scheduler —
frontier, strategy, PageRank, politeness, run log, graph writes — is this process.

Every outcome goes to the run log in the order it was folded in; the log is
committed every `checkpoint_every` outcomes and on SIGINT / SIGTERM. A resumed
run first replays the committed log through a fresh `Crawl` (no network) and
then goes on; see `crawl/state.py`.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kgcrawl.config import Settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.analyse import StageTimes, failed_outcome, link_options
from kgcrawl.crawl.budget import recorded_budgets
from kgcrawl.crawl.core import Crawl
from kgcrawl.crawl.dispatch import Dispatcher, HostTurns
from kgcrawl.crawl.ended import BUDGET, ERROR, EXHAUSTED, SIGNAL
from kgcrawl.crawl.fetch import STOPPED, Fetcher, FetchResult
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState, new_run_id
from kgcrawl.crawl.strategies.base import uses_keywords
from kgcrawl.crawl.versions import OntologyVersion, as_meta, keep, recorded, version_of
from kgcrawl.crawl.warc import WarcArchive
from kgcrawl.crawl.workers import Archived, Done, LocalWorkers, Workers
from kgcrawl.errors import KgcrawlError
from kgcrawl.ontology.topic import TopicModel, topic_model_for
from kgcrawl.scoring.web_alpha import ComposedPage, WebAlpha
from kgcrawl.stop_flag import StopFlag, stopped_by_signals

POLL = 0.5  # seconds: the longest the loop waits for an answer before it looks at the stop flag

log = logging.getLogger("kgcrawl.crawl")


def topic_for(settings: Settings) -> TopicModel:
    """The topic model a crawl with these settings scores against (keywords for FCTS, FCITS)."""
    return topic_model_for(settings, keywords=uses_keywords(settings))


class ResumeMismatch(KgcrawlError):
    """Replaying a run's log did not select what the log says was selected."""


@dataclass
class Progress:
    """What the live display shows; updated after every outcome."""

    run_id: str
    max_pages: int
    dp: int = 0
    lp: int = 0
    outcomes: int = 0
    failures: int = 0
    queued: int = 0
    hosts: int = 0
    started: float = field(default_factory=time.monotonic)
    start_dp: int = 0  # DP when this session began: the rate leaves replayed pages out
    waiting_until: float = 0.0  # when held pages are asked again (monotonic; 0: none waits)

    @property
    def harvest(self) -> float:
        return self.lp / self.dp if self.dp else 0.0

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return (self.dp - self.start_dp) / elapsed if elapsed > 0 else 0.0


@dataclass
class CrawlResult:
    run_id: str
    dp: int
    lp: int
    outcomes: int
    seconds: float
    ended: str  # crawl/ended.py: BUDGET, EXHAUSTED or SIGNAL
    state_path: Path
    max_pages: int = 0
    start_dp: int = 0  # DP when this session began: the pages a resume replayed
    alpha: float = 0.0
    alpha_origin: str = ""  # where α came from (Settings.origins): calibration, a file, …
    web_alpha: WebAlpha | None = None  # α recalibrated on the web's topic words (core.py)
    domain: str = ""
    queued: int = 0  # links left in Q_wait
    pooled: int = 0  # links left in the discarded pool (P ≤ β)
    promoted: int = 0  # pool links promoted because Q_wait ran dry
    trapped: int = 0  # new links the trap guard kept out of the frontier
    explored: int = 0  # links taken by exploration: nothing relevant found (crawl/explore.py)
    explore_ended: int = 0  # the page at which exploration ended: the pages since scored no higher
    failures: list[tuple[str, int]] = field(default_factory=list)  # (reason, URLs), commonest first
    relevances: list[float] = field(default_factory=list)  # R(p) of every page downloaded
    stage_seconds: dict[str, float] = field(default_factory=dict)  # summed over workers
    graph: str = ""  # the graph (graph.uri) that holds all the run's pages ("" if none does)

    @property
    def stopped(self) -> bool:
        """Stopped by a signal before its end: it can be resumed."""
        return self.ended == SIGNAL


OnCommit = Callable[[list[Outcome]], None]
OnOutcome = Callable[[Outcome], None]


def start_run(
    settings: Settings,
    *,
    resolve: tuple[str, ...] = (),
    run_id: str | None = None,
    warc: Path | None = None,
    sandbox: dict | None = None,
    composed: tuple[ComposedPage, ...] = (),
) -> RunState:
    """A new run's state, holding everything a resume needs to rebuild the crawl.

    `composed`: the pages α was calibrated on (`calibrate.composed_for`), kept with the
    run so that its replay recalibrates on the web exactly as the crawl did.
    """
    run_id = run_id or new_run_id(settings.domain, settings.crawl.strategy)
    first = version_of(settings.ontology, 1)
    changed = {  # settings not from the defaults or the pipeline file, and where they came from
        k: origin
        for k, origin in settings.origins.items()
        if origin not in ("default", str(settings.source))
    }
    state = RunState.create(
        run_id,
        {
            "domain": settings.domain,
            "strategy": settings.crawl.strategy,
            # absolute: a run goes on, and is exported, from any folder
            "pipeline": str(settings.source.resolve() if settings.source else None),
            "settings": {k: _jsonable(v) for k, v in settings.flat().items()},
            "ontologies": as_meta([first]),
            "overrides": {k: _jsonable(v) for k, v in settings.flat().items() if k in changed},
            "origins": changed,
            "resolve": list(resolve),
            "warc": str(warc.resolve()) if warc else None,  # a resume may start elsewhere
            "sandbox": sandbox,
            "warc_offset": 0,
            "started_at": int(time.time() * 1000),
            **({"composed": [asdict(page) for page in composed]} if composed else {}),
        },
    )
    keep(first, state.path.parent)
    return state


def _jsonable(value: object) -> object:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True)
class Executor:
    """Where the workers run: "local" (threads and processes here) or "ray" (a Ray cluster)."""

    kind: str = "local"
    address: str | None = None  # ray: "auto", "ray://HOST:10001", or None for a local Ray

    def check(self) -> None:
        """A known kind, and for "ray" Ray importable (else one line saying how to install it)
        and something answering at the address."""
        if self.kind not in ("local", "ray"):
            raise KgcrawlError(f"the executor must be local or ray, not {self.kind!r}")
        if self.kind == "ray":
            from kgcrawl.crawl.ray_workers import RayUnavailable, import_ray, unreachable

            import_ray(self.address)
            why = unreachable(self.address) if self.address else None
            if why is not None:
                raise RayUnavailable(f"cannot reach the Ray cluster at {self.address}: {why}")


def _answer(future: Future[Done]) -> Done | BaseException:
    error = future.exception()
    return error if error is not None else future.result()


class Engine:
    """Runs one crawl to `max_pages`, an empty frontier, or a stop signal."""

    def __init__(
        self,
        settings: Settings,
        state: RunState,
        *,
        resolve: tuple[str, ...] = (),
        warc: Path | None = None,
        on_commit: OnCommit | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        on_outcome: OnOutcome | None = None,
        executor: Executor | None = None,
        workers: Workers | None = None,
    ) -> None:
        """`workers`: a ready-made pool instead of the executor's (a benchmark's replay)."""
        self.settings = settings
        self.state = state
        meta = state.meta()
        self.run_id = meta["run_id"]
        self.versions = recorded(meta)
        self.budgets = recorded_budgets(meta)
        self.run_dir = state.path.parent
        for version in self.versions:
            version.file(self.run_dir)  # each is there, as it was, before any page is replayed
        composed = tuple(map(ComposedPage.from_json, meta.get("composed", ())))
        self.crawl = Crawl(settings, random.Random(settings.crawl.seed), topic_for(settings),
                           composed)  # fmt: skip
        self.crawl.seed(list(settings.seeds))
        self.mappings = parse_resolve(resolve)
        self._stop = StopFlag()  # SIGINT / SIGTERM: the fetcher's pauses and reads end too
        self.fetcher = Fetcher(settings.fetch, self.mappings, stop=self._stop)
        self.executor = executor or Executor()
        self._given_workers = workers
        if self.executor.kind == "ray" and warc:
            raise KgcrawlError(f"run {self.run_id} writes a WARC: resume it with --executor local")
        self.turns = HostTurns()  # politeness, decided here for every worker (crawl/dispatch.py)
        self.dispatcher: Dispatcher | None = None  # the last parallel loop's, for its occupancy
        self.warc = (
            WarcArchive(warc, truncate_to=meta.get("warc_offset"), run_id=self.run_id)
            if warc
            else None
        )
        self.on_commit = on_commit
        self.on_progress = on_progress
        self.on_outcome = on_outcome  # each outcome as it is folded in (not on replay)
        self.progress = Progress(self.run_id, settings.crawl.max_pages)
        self._committed: list[Outcome] = []
        self._judged_again: dict[int, bool] = {}  # seq → relevant, for the graph's next batch
        self.times = StageTimes()

    # -- resume --------------------------------------------------------------------

    def replay(self) -> int:
        """Fold the committed log back in; returns how many outcomes it held.

        Each outcome under the ontology version and the page budget it was crawled with."""
        sequential = self.settings.crawl.workers == 1
        count = 0
        later = self.versions[1:]
        budgets = self.budgets.copy()
        counters = self.crawl.counters
        for outcome in self.state.outcomes():
            while later and later[0].first <= outcome.seq:
                self._use_version(later.pop(0))
            while budgets and budgets[0].first <= outcome.seq:
                counters.max_pages = budgets.pop(0).max_pages
            if sequential:
                picked = self.crawl.select()
                while picked is None and self.crawl.release_next() is not None:
                    picked = self.crawl.select()  # as `_wait_for_held` let them go
                if picked is None or self.crawl.url_of(picked) != outcome.url:
                    got = None if picked is None else self.crawl.url_of(picked)
                    raise ResumeMismatch(
                        f"run {self.run_id}: replay selected {got!r} where the log has "
                        f"{outcome.url!r} at outcome {outcome.seq}"
                    )
            else:
                picked = self.crawl.take(outcome.url)
            self.crawl.fold(picked, outcome)
            count += 1
        for version in later:  # in force from the next outcome on
            self._use_version(version)
        counters.max_pages = self.settings.crawl.max_pages
        self.progress.start_dp = counters.dp  # the live rate counts this session's pages only
        if not sequential:  # taken by URL: which links exploration took, only the meta knows
            counters.explored = self.state.meta().get("explored", counters.explored)
        self._update_progress()
        return count

    # -- the loop ------------------------------------------------------------------

    def _record_executor(self) -> None:
        """Where the workers run, from which outcome on: a resume may switch the executor,
        which changes no result but the pages/s (`runs show` says which ran)."""
        used = self.state.meta().get("executors", [])
        if not used or used[-1]["kind"] != self.executor.kind:
            kind, first = self.executor.kind, self.state.count() + 1
            self.state.set_meta({"executors": [*used, {"kind": kind, "first": first}]})

    def run(self) -> CrawlResult:
        start = time.monotonic()
        self.progress.started = start
        self.state.set_meta({"ended": None})  # going on: no end yet (a resumed run had one)
        self._record_executor()
        # committed now: a resumed run killed before its first checkpoint showed its last
        # session's end ("budget") in `runs list`, not that it was cut off
        self.state.checkpoint()
        try:
            with stopped_by_signals(self._stop):
                workers = self._start_workers()
                try:
                    if self.settings.crawl.workers == 1:
                        self._run_sequential(workers)
                    else:
                        self._run_parallel(workers)
                finally:
                    if self._done():  # what is still in flight is abandoned (Dispatcher.close):
                        self._stop.set()  # cut it, as a signal would, not wait out a stall
                    workers.close()
                self._checkpoint()
        except BaseException:
            # the outcomes folded so far are committed, and their counts with them: `runs
            # list` said 45 pages of a run that held 75 (a callback had raised at the 75th)
            self.state.set_meta({"ended": ERROR, **self._counts()})
            self.state.checkpoint()
            raise
        if self._done():
            ended = BUDGET
        elif self._stop.is_set():
            ended = SIGNAL
        else:
            ended = EXHAUSTED
        self.state.set_meta({"ended": ended})
        self.state.checkpoint()
        if self.warc:
            self.warc.close()
        counters = self.crawl.counters
        return CrawlResult(
            run_id=self.run_id,
            dp=counters.dp,
            lp=counters.lp,
            outcomes=self.progress.outcomes,
            seconds=time.monotonic() - start,
            ended=ended,
            state_path=self.state.path,
            max_pages=self.settings.crawl.max_pages,
            start_dp=self.progress.start_dp,  # `replay` set it: pages/s leaves them out
            alpha=float(self.settings.relevance.alpha),
            alpha_origin=self.settings.origins.get("relevance.alpha", "the defaults"),
            web_alpha=self.crawl.web_alpha,
            domain=self.settings.domain,
            queued=self.crawl.frontier.queued_count(),
            pooled=self.crawl.frontier.pool_count(),
            promoted=counters.promoted,
            trapped=counters.trapped,
            explored=counters.explored,
            explore_ended=counters.explore_ended,
            failures=self.state.failure_counts(),
            relevances=list(self.crawl.relevances),
            stage_seconds=dict(self.times.seconds),
        )

    def _done(self) -> bool:
        return self.crawl.counters.dp >= self.settings.crawl.max_pages

    def _run_sequential(self, workers: Workers) -> None:
        while not self._stop.is_set() and not self._done():
            with self.times.stage("select"):
                link = self.crawl.select()
            if link is None:
                if self._wait_for_held():
                    continue
                break
            host = self.crawl.host_of(link)
            self.turns.rest(host)
            self.turns.start(host)
            url, extractor = self.crawl.url_of(link), self.crawl.extractor
            self._finish(link, _answer(workers.submit(url, extractor)))

    def _run_parallel(self, workers: Workers) -> None:
        dispatcher = self.dispatcher = Dispatcher(self.crawl, workers, self.turns)
        max_pages = self.settings.crawl.max_pages
        try:
            while not self._stop.is_set() and not self._done():
                with self.times.stage("select"):
                    dispatcher.fill(max_pages - self.crawl.counters.dp)
                if dispatcher.idle:
                    if self._wait_for_held():
                        continue
                    break
                wake = dispatcher.next_wake()
                if not dispatcher.in_flight:  # only resting hosts are left: wait on the first
                    self._stop.wait(POLL if wake is None else wake)
                    continue
                timeout = POLL if wake is None else min(POLL, wake)
                for link, answer in dispatcher.collect(timeout):
                    if self._done():  # a stalled request's unit went out again and both came
                        break  # back: the rest are cut like work in flight (asked on resume)
                    self._finish(link, answer)
        finally:
            dispatcher.close()

    def _wait_for_held(self) -> bool:
        """Nothing else left but pages held for a failed robots.txt (crawl/held.py): the first
        go back into Q_wait, and the crawl waits until their time (False: none is held).

        **Interpretation**: only a crawl that has downloaded a page waits, up to
        (`fetch.robots_tries` − 1) × `fetch.robots_retry` seconds (2 minutes): the web
        answers it, so a host whose robots.txt fails is down for now. A crawl that reached
        no site (offline, or behind a proxy) would wait as long to say so: its held pages
        are asked again at once, refused again, and it ends.
        """
        held = len(self.crawl.held)
        due = self.crawl.release_next()
        if due is None:
            return False
        wait = max(0.0, due / 1000 - time.time())
        if self.crawl.counters.dp and wait:
            log.warning("%d page(s) wait for a robots.txt that failed: asked again in %.0f s "
                        "(Ctrl-C stops; `kgcrawl crawl --resume %s` goes on)",
                        held, wait, self.run_id)  # fmt: skip
            self._wait_shown(wait)
        return True

    def _wait_shown(self, seconds: float) -> None:
        """Wait `seconds` (or until stopped), the live display counting them down: a wait
        of two minutes behind a still display looks like a crawl that hangs."""
        until = self.progress.waiting_until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            self._update_progress()
            if self._stop.wait(min(1.0, left)):
                break
        self.progress.waiting_until = 0.0

    def _start_workers(self) -> Workers:
        if self._given_workers is not None:
            return self._given_workers
        capacity, matcher = self.settings.crawl.workers, self.crawl.matcher
        options = link_options(self.settings)  # how pages' links are read (evidence, cap)
        if self.executor.kind == "ray":
            from kgcrawl.crawl.ray_workers import RayWorkers

            return RayWorkers(self.settings.fetch, capacity, matcher.words, self.mappings,
                              options, address=self.executor.address)  # fmt: skip
        return LocalWorkers(capacity, matcher, options, self.fetcher, self.times,
                            archive=self.warc is not None)  # fmt: skip

    def _finish(self, link: int, answer: Done | BaseException) -> None:
        """A worker's answer: the host's turn ends, the outcome is folded in.

        A worker lost for good (a Ray node gone after its retries) fails the URL like
        a broken connection would: logged, not raised, and the crawl goes on.
        """
        url = self.crawl.url_of(link)
        if isinstance(answer, BaseException):
            log.warning("worker lost on %s: %s", url, answer)
            result = FetchResult(url, url, reason=f"worker lost: {type(answer).__name__}")
            answer = Done(failed_outcome(url, result), self.settings.fetch.delay)
        self.turns.finish(self.crawl.host_of(link), answer.delay)
        self._fold(link, answer.outcome, answer.exchange)

    def _use_version(self, version: OntologyVersion) -> None:
        settings = version.settings(self.settings, self.run_dir)
        self.crawl.use_ontology(settings, topic_for(settings))

    def _fold(self, link: int, outcome: Outcome, exchange: Archived | None = None) -> None:
        if outcome.reason == STOPPED:  # cut by the stop signal: not an outcome, asked again
            return  # on resume (the link stays unvisited in the log)
        with self.times.stage("score"):
            outcome, judged = self.crawl.fold_logged(link, outcome)
        if self.warc and exchange is not None:  # in log order: the WARC at a checkpoint is
            with self.times.stage("state write"):  # what is committed
                self.warc.write(*exchange)
        self.state.append(outcome)
        self._committed.append(outcome)
        if judged:
            self.state.judge_again(judged)
            self._judged_again.update(judged)
        if outcome.downloaded:
            log.debug("page %d R(p)=%.3f %s", outcome.seq, outcome.relevance, outcome.final_url)
        else:
            log.info("fetch failed (%s): %s", outcome.reason, outcome.url)
        if self.on_outcome:
            self.on_outcome(outcome)
        self._update_progress()
        if self.state.pending >= self.settings.crawl.checkpoint_every:
            self._checkpoint()

    def _update_progress(self) -> None:
        p, counters = self.progress, self.crawl.counters
        p.dp, p.lp = counters.dp, counters.lp
        p.outcomes = counters.outcomes
        p.failures = counters.outcomes - counters.dp
        p.queued = self.crawl.frontier.queued_count()
        p.hosts = self.crawl.frontier.queued_host_count()
        if self.on_progress:
            self.on_progress(p)

    def _counts(self) -> dict[str, int]:
        """The counters a run's meta keeps beside its outcomes (`runs list`, `runs show`)."""
        counters = self.crawl.counters
        return {"dp": counters.dp, "lp": counters.lp, "trapped": counters.trapped,
                "explored": counters.explored, "explore_ended": counters.explore_ended}  # fmt: skip

    def _checkpoint(self) -> None:
        if self.warc:
            self.state.set_meta({"warc_offset": self.warc.offset})
        self.state.set_meta(self._counts())
        if self.crawl.web_alpha is not None:  # for `runs show`; a replay finds it again
            self.state.set_meta({"web_alpha": self.crawl.web_alpha.record()})
        with self.times.stage("state write"):
            self.state.checkpoint()
        committed, self._committed = self._committed, []
        judged, self._judged_again = self._judged_again, {}
        if judged and self.on_commit:  # a page judged again goes to the graph again, as logged
            committed = [o for o in committed if o.seq not in judged]
            committed += [o for o in self.state.outcomes(min(judged) - 1) if o.seq in judged]
        if self.on_commit and committed:
            with self.times.stage("graph write"):
                self.on_commit(committed)
