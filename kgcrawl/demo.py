"""`kgcrawl demo`: the whole mission offline, from a corpus to a refreshed ontology.

Stages, each timed (the times go into the report):

1. ontology — the FCA ontology of `corpus/<domain>` merged into the shipped one
   (`build-ontology --base`), written to `<out>/ontology/` and `<out>/lattice/`;
2. crawl — `fcits_oh` on the sandbox web with that ontology, `workers` requests
   in flight and no per-host delay (the server is ours; robots.txt `Crawl-delay`
   still holds), into the embedded graph; the run is kept under `<data>/runs/`
   like any other;
3. queries — three saved queries of `neo4j/queries/`;
4. refresh — `refresh-ontology --run`: new terms from the run's relevant pages,
   the new version written beside the demo's ontology (`<out>/ontology/`), so a
   demo never changes the repository;
5. report — the metrics of the run's log with the sandbox's truth, the plots,
   and `<out>/report.md`.

The embedded graph server is started once for the whole demo (and stopped at
the end when the demo started it), so every stage talks to the same server.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgcrawl.errors import KgcrawlError

if TYPE_CHECKING:
    from kgcrawl.config import Settings
    from kgcrawl.crawl.engine import CrawlResult, Progress
    from kgcrawl.evaluate.metrics import MetricsRow
    from kgcrawl.evaluate.run import TruthScores
    from kgcrawl.graph.store import QueryResult
    from kgcrawl.ontology.build import BuildResult
    from kgcrawl.ontology.refresh import RefreshResult
    from kgcrawl.runner import CrawlRequest

DOMAIN = "tourism"
STRATEGY = "fcits_oh"
CHECKPOINTS = 10  # metrics rows over the crawl
# (saved query, its parameters): what the crawl found, which concepts, which hosts.
QUERIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("crawl_summary", ()),
    ("top_concepts", ("limit=10",)),
    ("hosts_by_harvest", ("min_pages=5", "limit=10")),
)


# What each stage does, for the live display.
STAGES = {
    "ontology": f"FCA ontology from corpus/{DOMAIN}, merged into the shipped one",
    "crawl": f"{STRATEGY} on the sandbox web, into the embedded graph",
    "queries": "saved queries: " + ", ".join(name for name, _ in QUERIES),
    "refresh": "new terms from the crawl's relevant pages, a new ontology version",
    "report": "metrics with the sandbox's truth, plots, report.md",
}


class DemoError(KgcrawlError):
    """The demo cannot run here (no corpus, no pipeline)."""


@dataclass(frozen=True)
class DemoOptions:
    """What `kgcrawl demo` was asked."""

    out: Path = Path("kgcrawl-demo")
    max_pages: int = 2000
    workers: int = 8
    seed: int = 0  # the sandbox world's and the crawl's
    sandbox_size: str = "default"
    overrides: tuple[str, ...] = ()  # --set section.key=value, over the demo's settings


@dataclass
class DemoResult:
    """What every stage produced, and how long it took."""

    options: DemoOptions
    report: Path
    seconds: dict[str, float] = field(default_factory=dict)  # stage → seconds, in order
    build: BuildResult | None = None
    crawl: CrawlResult | None = None
    alpha: float | None = None  # the crawl's α: R(p) > α makes a page relevant (LP)
    rows: list[MetricsRow] = field(default_factory=list)
    truth_scores: TruthScores | None = None  # R(p) of the crawled pages, by their truth
    queries: list[tuple[str, QueryResult]] = field(default_factory=list)
    refresh: RefreshResult | None = None
    refresh_skipped: str | None = None  # why no refresh was possible
    plots: list[Path] = field(default_factory=list)

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())


def run_demo(
    options: DemoOptions | None = None,
    on_stage: Callable[[str], None] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> DemoResult:
    """Run the five stages; `on_stage` hears each stage's name as it starts."""
    from kgcrawl.config import load_settings
    from kgcrawl.evaluate.report import plot_metrics
    from kgcrawl.graph.server import stop
    from kgcrawl.graph.store import start_embedded
    from kgcrawl.runner import crawl

    opts = options or DemoOptions()
    if opts.max_pages < 1 or opts.workers < 1:
        raise DemoError(
            f"--max-pages and --workers must be at least 1, got {opts.max_pages} and {opts.workers}"
        )
    shipped = load_settings(DOMAIN)
    corpus = shipped.source.parent.parent / "corpus" / DOMAIN
    if not corpus.is_dir():
        raise DemoError(f"{corpus}: the demo needs the shipped corpus (run it from a checkout)")
    out = opts.out
    out.mkdir(parents=True, exist_ok=True)
    result = DemoResult(opts, out / "report.md")
    stage = _stages(result, on_stage or (lambda name: None))

    _, started = start_embedded()
    try:
        owl = (out / "ontology" / f"{DOMAIN}.fca.owl").resolve()
        with stage("ontology"):
            result.build = _build(corpus, shipped.ontology, owl, out / "lattice")
        with stage("crawl"):
            settings = _crawl_settings(opts, owl)
            result.alpha = settings.relevance.alpha
            result.crawl = crawl(settings, _sandbox_request(opts), on_progress)
        with stage("queries"):
            result.queries = _queries()
        with stage("refresh"):
            run_id = result.crawl.run_id
            result.refresh, result.refresh_skipped = _refresh(
                opts, run_id, owl, corpus, settings.relevance.alpha
            )
        with stage("report"):
            result.rows, result.truth_scores = _metrics(opts, result.crawl.run_id)
            result.plots = plot_metrics(result.rows, out)
    finally:
        if started:
            stop()
    result.report.write_text(report_markdown(result), encoding="utf-8")
    return result


def _stages(result: DemoResult, on_stage: Callable[[str], None]):
    @contextmanager
    def stage(name: str) -> Iterator[None]:
        on_stage(name)
        start = time.perf_counter()
        try:
            yield
        finally:
            result.seconds[name] = time.perf_counter() - start

    return stage


def _build(corpus: Path, base: Path, owl: Path, lattice: Path) -> BuildResult:
    from kgcrawl.ontology.build import BuildOptions, build_ontology

    options = BuildOptions(domain=DOMAIN, base=base, out=owl, lattice_dir=lattice)
    return build_ontology(corpus, options)


def _crawl_settings(opts: DemoOptions, owl: Path) -> Settings:
    """The pipeline's settings with the demo's ontology, strategy and budget; --set on top.

    α and β are calibrated for the demo's own ontology (the FCA one just built).
    """
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings, parse_overrides

    demo = {
        "ontology": str(owl),
        "crawl.strategy": STRATEGY,
        "crawl.max_pages": opts.max_pages,
        "crawl.workers": opts.workers,
        "crawl.seed": opts.seed,
        "fetch.delay": 0,
        "graph.uri": "embedded",
    }
    return resolve_thresholds(load_settings(DOMAIN, demo | parse_overrides(list(opts.overrides))))


def _sandbox_request(opts: DemoOptions) -> CrawlRequest:
    from kgcrawl.runner import CrawlRequest

    return CrawlRequest(sandbox=True, sandbox_seed=opts.seed, sandbox_size=opts.sandbox_size)


def _queries() -> list[tuple[str, QueryResult]]:
    from kgcrawl.graph.queries import run_query

    return [
        (name, run_query(saved=name, params=params, uri="embedded")) for name, params in QUERIES
    ]


def _refresh(
    opts: DemoOptions, run_id: str, owl: Path, corpus: Path, alpha: float
) -> tuple[RefreshResult | None, str | None]:
    """A new version beside the demo's ontology; (None, why) when the run gave nothing to use."""
    from kgcrawl.crawl.state import RunState
    from kgcrawl.ontology.refresh import RefreshError, RefreshOptions, refresh_ontology

    overrides = (f"ontology={owl}", "graph.uri=embedded", *opts.overrides)
    options = RefreshOptions(run=run_id, corpus=corpus, overrides=overrides)
    try:
        return refresh_ontology(DOMAIN, options), None
    except RefreshError as exc:
        state = RunState.open(run_id)
        ((highest,),) = state.query("SELECT max(relevance) FROM outcomes")
        state.close()
        return None, (
            f"{exc} (no page passed α = {alpha:.2f}; the highest R(p) was {highest or 0:.2f}; "
            "--set relevance.alpha=… moves the bar)"
        )


def _metrics(opts: DemoOptions, run_id: str) -> tuple[list[MetricsRow], TruthScores]:
    from kgcrawl.crawl.state import RunState
    from kgcrawl.evaluate.run import SandboxJudge
    from kgcrawl.sandbox.world import World

    judge = SandboxJudge(World(opts.seed, opts.sandbox_size), DOMAIN)
    state = RunState.open(run_id)
    try:
        every = max(1, opts.max_pages // CHECKPOINTS)
        outcomes = list(state.outcomes())
        return judge.rows(outcomes, STRATEGY, 0, every), judge.truth_scores(outcomes)
    finally:
        state.close()


# -- report.md -------------------------------------------------------------------------


def report_markdown(result: DemoResult) -> str:
    """The demo's report: stage times, ontology, crawl metrics, queries, new terms, plots."""
    opts = result.options
    lines = [
        "# kgcrawl demo",
        "",
        f"The whole mission offline: an FCA ontology from `corpus/{DOMAIN}` merged into the "
        f"shipped one, a `{STRATEGY}` crawl of {opts.max_pages:,} pages of the sandbox web "
        f"(world seed {opts.seed}, size {opts.sandbox_size}, {opts.workers} workers) into the "
        "embedded knowledge graph, three saved queries, and a refresh of the ontology from "
        "the crawl.",
        "",
        "## Stage times",
        "",
        *_table(
            ["stage", "seconds"],
            [[name, f"{seconds:.1f}"] for name, seconds in result.seconds.items()]
            + [["total", f"{result.total_seconds:.1f}"]],
        ),
        "",
        *_ontology_section(result),
        *_crawl_section(result),
        *_queries_section(result),
        *_refresh_section(result),
        "## Plots",
        "",
        *[f"![{path.stem}]({path.name})" for path in result.plots],
        "",
    ]
    return "\n".join(lines)


def _ontology_section(result: DemoResult) -> list[str]:
    if result.build is None:
        return []
    rows = [[what, value] for what, value in result.build.summary()]
    return ["## Ontology", "", *_table(["what", "value"], rows), ""]


def _crawl_section(result: DemoResult) -> list[str]:
    crawl = result.crawl
    if crawl is None:
        return []
    rate = crawl.dp / crawl.seconds if crawl.seconds else 0.0
    lines = [
        "## Crawl",
        "",
        f"Run `{crawl.run_id}` ({crawl.state_path}): {crawl.dp:,} pages downloaded of "
        f"{crawl.outcomes:,} links fetched in {crawl.seconds:.1f} s ({rate:.1f} pages/s). "
        f"LP, AC, AR and SD judge the pages by the crawler's own relevance R(p) (Eq. 10–12; "
        f"relevant: R(p) > α = {result.alpha:.2f}); the true harvest rate by the sandbox's "
        "ground truth.",
        "",
    ]
    rows = [
        [f"{r.dp:,}", f"{r.lp:,}", f"{r.ac:.2%}", f"{r.ar:.4f}", f"{r.sd:.4f}",
         "–" if r.true_harvest is None else f"{r.true_harvest:.2%}"]
        for r in result.rows
    ]  # fmt: skip
    lines += [*_table(["DP", "LP", "AC", "AR", "SD", "true harvest"], rows), ""]
    if result.truth_scores is not None and result.alpha is not None:
        from kgcrawl.evaluate.report import separation_markdown

        scores = result.truth_scores
        lines += [
            separation_markdown(scores.relevant, scores.irrelevant, result.alpha).rstrip(),
            "",
        ]
    return lines


def _queries_section(result: DemoResult) -> list[str]:
    from kgcrawl.graph.queries import load_saved

    lines = ["## Queries", ""]
    for name, query_result in result.queries:
        lines += [f"### {name}", "", load_saved(name).summary, ""]
        if query_result.rows:
            cells = [[_cell(value) for value in row] for row in query_result.rows]
            lines += _table(query_result.columns, cells)
        else:
            lines.append("(no rows)")
        lines.append("")
    return lines


def _refresh_section(result: DemoResult) -> list[str]:
    lines = ["## New terms", ""]
    refresh = result.refresh
    if refresh is None:
        return [*lines, f"No refresh: {result.refresh_skipped}", ""]
    if refresh.added:
        rows = [
            [t.term, t.parent_label, str(t.relevant_pages), str(t.irrelevant_pages),
             f"{t.score:.3f}"]
            for t in refresh.added
        ]  # fmt: skip
        lines += _table(
            ["term", "placed under", "relevant pages", "irrelevant pages", "score"], rows
        )
    else:
        lines.append("No new term passed the thresholds.")
    return [*lines, "", *_table(["what", "value"], [list(row) for row in refresh.summary()]), ""]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table; `|` in cells escaped."""

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return [line(header), "|" + " --- |" * len(header), *(line(row) for row in rows)]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)
