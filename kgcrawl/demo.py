"""`kgcrawl demo`: the whole mission offline, from a corpus to a refreshed ontology.

Stages, each timed (the times go into the report):

1. ontology — the FCA ontology of `corpus/<domain>` merged into the shipped one
   (`build-ontology --base`), written to `<out>/ontology/` and `<out>/lattice/`;
2. crawl — `fcits_oh` on the sandbox web with that ontology, `workers` requests
   in flight and no per-host delay (the server is ours; robots.txt `Crawl-delay`
   still holds), into the embedded graph; the run is kept under `<data>/runs/`
   like any other;
3. baseline — a BFS crawl of the same world, workers and ontology, without the
   graph: what the focused crawl's true harvest is measured against. By default
   it crawls half the budget (`baseline_pages`): BFS runs into the sandbox's
   hanging pages and Crawl-delay hosts far more than fcits_oh, and a whole budget
   of it would double the demo's time; the report and the plots say so;
4. queries — three saved queries of `neo4j/queries/`, on this demo's crawl;
5. refresh — `refresh-ontology --run`: new terms from the run's relevant pages,
   the new version written beside the demo's ontology (`<out>/ontology/`), so a
   demo never changes the repository;
6. report — the metrics of both runs' logs with the sandbox's truth (none for a
   domain the sandbox has no truth for, and the report says so), the plots of
   fcits_oh against BFS (a metric zero everywhere is not drawn, and the report
   says which), and `<out>/report.md`.

A demo into a folder that holds an earlier demo replaces it (`_set_aside`): the
earlier files are put back if this one stops or fails before its report.
The embedded graph server is started once for the whole demo (and stopped at
the end when the demo started it), so every stage talks to the same server.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kgcrawl.errors import KgcrawlError

if TYPE_CHECKING:
    from kgcrawl.config import Settings
    from kgcrawl.crawl.engine import CrawlResult, Progress
    from kgcrawl.evaluate.judge import TruthScores
    from kgcrawl.evaluate.metrics import MetricsRow
    from kgcrawl.graph.store import QueryResult
    from kgcrawl.ontology.build import BuildResult
    from kgcrawl.ontology.refresh import RefreshResult
    from kgcrawl.runner import CrawlRequest

STRATEGY = "fcits_oh"
BASELINE = "bfs"
CHECKPOINTS = 10  # metrics rows over the crawl
# (saved query, its parameters): what the crawl found, which concepts, which hosts.
QUERIES: tuple[tuple[str, dict[str, int]], ...] = (
    ("crawl_summary", {}),
    ("top_concepts", {"limit": 10}),
    ("hosts_by_harvest", {"min_pages": 5, "limit": 10}),
)


# What each stage does, for the live display (`{domain}`: the demo's domain).
STAGES = {
    "ontology": "FCA ontology from corpus/{domain}, merged into the shipped one",
    "crawl": f"{STRATEGY} on the sandbox web, into the embedded graph",
    "baseline": f"{BASELINE} on the same world, to measure {STRATEGY} against",
    "queries": "saved queries: " + ", ".join(name for name, _ in QUERIES),
    "refresh": "new terms from the crawl's relevant pages, a new ontology version",
    "report": "metrics with the sandbox's truth, plots, report.md",
}


class DemoError(KgcrawlError):
    """The demo cannot run here (no corpus, no pipeline)."""


class _Stopped(Exception):
    """A signal stopped the demo: the stages after this one would work on part of a crawl."""


@dataclass(frozen=True)
class DemoOptions:
    """What `kgcrawl demo` was asked."""

    out: Path = Path("kgcrawl-demo")
    domain: str = "tourism"  # a shipped pipeline with a corpus: tourism or rainstorm
    max_pages: int = 2000
    baseline_pages: int | None = None  # the BFS baseline's budget; None: half of max_pages
    workers: int = 8
    seed: int = 0  # the sandbox world's and the crawl's
    sandbox_size: str = "default"
    sandbox_profile: str = "default"
    overrides: tuple[str, ...] = ()  # --set section.key=value, over the demo's settings

    @property
    def baseline_budget(self) -> int:
        return self.baseline_pages or max(1, self.max_pages // 2)


@dataclass
class DemoResult:
    """What every stage produced, and how long it took."""

    options: DemoOptions
    report: Path
    seconds: dict[str, float] = field(default_factory=dict)  # stage → seconds, in order
    build: BuildResult | None = None
    crawl: CrawlResult | None = None
    baseline: CrawlResult | None = None  # the BFS crawl of the same world
    alpha: float | None = None  # the crawl's α: R(p) > α makes a page relevant (LP)
    rows: list[MetricsRow] = field(default_factory=list)  # both crawls'
    truth_scores: TruthScores | None = None  # R(p) of the crawled pages, by their truth
    no_truth: str | None = None  # why there is no truth (a domain the sandbox does not know)
    queries: list[tuple[str, QueryResult]] = field(default_factory=list)
    refresh: RefreshResult | None = None
    refresh_skipped: str | None = None  # why no refresh was possible
    plots: list[Path] = field(default_factory=list)
    unplotted: dict[str, str] = field(default_factory=dict)  # metric → why it was not drawn
    runs: dict[str, str] = field(default_factory=dict)  # crawl stage → its run, named as it begins
    stopped: str | None = None  # the stage a signal (Ctrl-C) stopped the demo at: no report
    replaced: list[Path] = field(default_factory=list)  # an earlier demo's files in `out`

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())


def run_demo(
    options: DemoOptions | None = None,
    on_stage: Callable[[str], None] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> DemoResult:
    """Run the six stages; `on_stage` hears each stage's name as it starts.

    A signal (Ctrl-C) ends the demo at the stage it is in: `stopped` names it, and no
    report is written (its figures would compare part of a crawl). A crawl it stopped
    stays resumable (`stopped_line` says how).
    """
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.evaluate.report import plot_metrics, unplotted
    from kgcrawl.graph.server import stop
    from kgcrawl.graph.store import start_embedded
    from kgcrawl.sandbox.world import check_world

    opts = options or DemoOptions()
    for name, value in (("--max-pages", opts.max_pages), ("--workers", opts.workers),
                        ("--baseline-pages", opts.baseline_pages)):  # fmt: skip
        if value is not None and value < 1:
            raise DemoError(f"{name} must be at least 1, got {value}")
    check_world(opts.sandbox_size, opts.sandbox_profile)
    # --set checked now, not after the ontology stage had run and written its files
    load_settings(opts.domain, parse_overrides(list(opts.overrides)))
    shipped = load_settings(opts.domain)
    corpus = shipped.source.parent.parent / "corpus" / shipped.domain
    if not corpus.is_dir():
        raise DemoError(
            f"{corpus}: no corpus of {shipped.domain} to build the demo's ontology from "
            "(tourism's and rainstorm's are in a checkout)"
        )
    out = opts.out
    out.mkdir(parents=True, exist_ok=True)
    result = DemoResult(opts, out / "report.md")
    stage = _stages(result, on_stage or (lambda name: None))

    _, started = start_embedded()
    try:
        result.replaced = _set_aside(out)
        owl = (out / "ontology" / f"{shipped.domain}.fca.owl").resolve()
        with stage("ontology"):
            result.build = _build(shipped.domain, corpus, shipped.ontology, owl, out / "lattice")
        with stage("crawl"):
            settings = _crawl_settings(opts, owl, corpus, STRATEGY, "embedded")
            result.alpha = settings.relevance.alpha
            result.crawl = _crawl(result, "crawl", settings, on_progress)
            if result.crawl.stopped:
                raise _Stopped
        with stage("baseline"):
            bfs = _crawl_settings(opts, owl, corpus, BASELINE, "none", opts.baseline_budget)
            result.baseline = _crawl(result, "baseline", bfs, on_progress)
            if result.baseline.stopped:
                raise _Stopped
        with stage("queries"):
            result.queries = _queries(settings.domain, result.crawl.run_id)
        with stage("refresh"):
            run_id = result.crawl.run_id
            result.refresh, result.refresh_skipped = _refresh(
                opts, run_id, owl, corpus, settings.relevance.alpha
            )
        with stage("report"):
            _metrics(result, settings.domain)
            result.plots = plot_metrics(result.rows, out)
            result.unplotted = unplotted(result.rows)
    except _Stopped:
        pass  # `result.stopped` names the stage
    except BaseException:
        _put_back(out, result.replaced)
        raise
    finally:
        if started:
            stop()
    if result.stopped:
        _put_back(out, result.replaced)
        return result
    from kgcrawl.demo_report import report_markdown

    result.report.write_text(report_markdown(result), encoding="utf-8")
    shutil.rmtree(out / ASIDE, ignore_errors=True)
    return result


ASIDE = ".earlier-demo"  # where an earlier demo's files wait while this one runs


def _set_aside(out: Path) -> list[Path]:
    """An earlier demo's report, plots and refreshed versions in `out`, moved to `out/ASIDE`.

    A demo into the same folder replaces the earlier one: a plot this one does not draw
    or a refresh it skips would otherwise leave the earlier file, which passes for this
    demo's. Only a folder holding a demo's report is cleared, and only the files a demo
    names so (the ontology stage writes its own files over the earlier ones). They wait
    aside until this demo's report is written: a demo stopped or failed before puts them
    back (`_put_back`). The paths returned are where they were.
    """
    from kgcrawl.evaluate.report import PLOT_FILES

    if not (out / "report.md").is_file():
        return []
    patterns = ("report.md", *PLOT_FILES, "ontology/*.v[0-9]*.owl", "ontology/*.v[0-9]*.ttl")
    earlier = sorted({path for pattern in patterns for path in out.glob(pattern)})
    shutil.rmtree(out / ASIDE, ignore_errors=True)  # left by a demo killed after its report
    for path in earlier:
        kept = out / ASIDE / path.relative_to(out)
        kept.parent.mkdir(parents=True, exist_ok=True)
        path.replace(kept)
    return earlier


def _put_back(out: Path, earlier: list[Path]) -> None:
    """The earlier demo's files where they were (what this one wrote in their place goes)."""
    for path in earlier:
        path.parent.mkdir(parents=True, exist_ok=True)
        (out / ASIDE / path.relative_to(out)).replace(path)
    shutil.rmtree(out / ASIDE, ignore_errors=True)


def _stages(result: DemoResult, on_stage: Callable[[str], None]):
    @contextmanager
    def stage(name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            on_stage(name)
            yield
        except (KeyboardInterrupt, _Stopped):  # outside a crawl loop, or a crawl it stopped
            result.stopped = name
            raise _Stopped from None
        finally:
            result.seconds[name] = time.perf_counter() - start

    return stage


def stopped_line(result: DemoResult) -> str:
    """One line for a stopped demo: the stage, and how to resume the crawl it stopped."""
    from kgcrawl.crawl.ended import resume_note

    note = resume_note(result.runs.get(result.stopped or ""), go_on="")
    return f"demo stopped at {result.stopped}; {note or 'no report written'}"


def _crawl(
    result: DemoResult,
    stage: str,
    settings: Settings,
    on_progress: Callable[[Progress], None] | None,
) -> CrawlResult:
    """The stage's crawl, into a run named first: a stop anywhere in it can name the run."""
    from kgcrawl.crawl.state import new_run_id
    from kgcrawl.runner import crawl

    opts = result.options
    result.runs[stage] = new_run_id(settings.domain, settings.crawl.strategy)
    request = _sandbox_request(opts, result.runs[stage])
    return crawl(settings, request, on_progress)


def _build(domain: str, corpus: Path, base: Path, owl: Path, lattice: Path) -> BuildResult:
    from kgcrawl.ontology.build import BuildOptions, build_ontology

    options = BuildOptions(domain=domain, base=base, out=owl, lattice_dir=lattice)
    return build_ontology(corpus, options)


def _crawl_settings(
    opts: DemoOptions,
    owl: Path,
    corpus: Path,
    strategy: str,
    graph: str,
    max_pages: int | None = None,
) -> Settings:
    """The pipeline's settings with the demo's ontology, strategy and budget; --set on top.

    α and β are calibrated for the demo's own ontology against the corpus it was
    was built from.
    """
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings, parse_overrides

    demo = {
        "ontology": str(owl),
        "calibration.positives": str(corpus),
        "crawl.max_pages": opts.max_pages,
        "crawl.workers": opts.workers,
        "crawl.seed": opts.seed,
        "fetch.delay": 0,
    }
    fixed = {"crawl.strategy": strategy, "graph.uri": graph}
    if max_pages is not None:
        fixed["crawl.max_pages"] = max_pages
    overrides = demo | parse_overrides(list(opts.overrides)) | fixed
    return resolve_thresholds(load_settings(opts.domain, overrides))


def _sandbox_request(opts: DemoOptions, run_id: str) -> CrawlRequest:
    from kgcrawl.runner import CrawlRequest

    return CrawlRequest(sandbox=True, sandbox_seed=opts.seed, sandbox_size=opts.sandbox_size,
                        sandbox_profile=opts.sandbox_profile, run_id=run_id)  # fmt: skip


def _queries(domain: str, run_id: str) -> list[tuple[str, QueryResult]]:
    """The saved queries on the demo's crawl and domain: the graph may hold other crawls
    (an earlier demo's, of this domain too), and their pages may name other domains' concepts."""
    from kgcrawl.graph.queries import run_query

    mine = {"domain": domain, "crawl": run_id}
    return [(name, run_query(saved=name, params=params | mine, uri="embedded"))
            for name, params in QUERIES]  # fmt: skip


def _refresh(
    opts: DemoOptions, run_id: str, owl: Path, corpus: Path, alpha: float
) -> tuple[RefreshResult | None, str | None]:
    """A new version beside the demo's ontology; (None, why) when the run gave nothing to use."""
    from kgcrawl.crawl.state import RunState
    from kgcrawl.ontology.refresh import RefreshError, RefreshOptions, refresh_ontology

    overrides = (f"ontology={owl}", "graph.uri=embedded", *opts.overrides)
    options = RefreshOptions(run=run_id, corpus=corpus, overrides=overrides)
    try:
        return refresh_ontology(opts.domain, options), None
    except RefreshError as exc:
        state = RunState.open(run_id)
        ((highest,),) = state.query("SELECT max(relevance) FROM outcomes")
        state.close()
        return None, (
            f"{exc} (no page passed α = {alpha:.2f}; the highest R(p) was {highest or 0:.2f}; "
            "--set relevance.alpha=A with a lower A moves the bar)"
        )


def _metrics(result: DemoResult, domain: str) -> None:
    """Both crawls' metrics rows, compared at the DP both reached; R(p) by truth of fcits_oh's."""
    from kgcrawl.evaluate.judge import no_truth_note, sandbox_judge, score_run

    opts = result.options
    judge = sandbox_judge((opts.seed, opts.sandbox_size, opts.sandbox_profile), domain)
    result.no_truth = no_truth_note(domain)
    every = max(1, opts.max_pages // CHECKPOINTS)
    crawls = [(STRATEGY, result.crawl), (BASELINE, result.baseline)]
    reached = (min(crawled.dp for _, crawled in crawls),)
    for strategy, crawled in crawls:
        scored = score_run(crawled.run_id, judge, strategy, domain, 0, every, reached)
        result.rows += scored.rows
        if strategy == STRATEGY:
            result.truth_scores = scored.truth_scores
