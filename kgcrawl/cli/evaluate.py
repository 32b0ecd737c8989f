"""`kgcrawl evaluate` (strategies on one world) and `kgcrawl demo` (the mission)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgcrawl.cli.common import SandboxProfileOption, SetOption, Stopped, app, console
from kgcrawl.cli.ontology import _print_refresh


@app.command("evaluate")
def evaluate(
    domain: Annotated[str, typer.Argument(help="Domain (pipelines/<name>.toml) or pipeline file.")],
    strategies: Annotated[
        str, typer.Option("--strategies", help="Comma-separated names, or all.")
    ] = "all",
    max_pages: Annotated[
        int | None, typer.Option("--max-pages", help="Pages per crawl (default: the pipeline's).")
    ] = None,
    sandbox: Annotated[
        bool, typer.Option("--sandbox", help="Crawl the sandbox web (ground truth).")
    ] = False,
    sandbox_size: Annotated[
        str, typer.Option("--sandbox-size", help="small|default|large.")
    ] = "default",
    sandbox_profile: SandboxProfileOption = "default",
    seed: Annotated[
        int, typer.Option("--seed", help="World seed; repeat r uses strategy seed S + r.")
    ] = 0,
    repeats: Annotated[int, typer.Option("--repeats", help="Crawls per strategy.")] = 1,
    workers_per_crawl: Annotated[
        int | None,
        typer.Option("--workers-per-crawl", help="Requests in flight per crawl (default: 1)."),
    ] = None,
    parallel: Annotated[int, typer.Option("--parallel", help="Crawls run at once.")] = 2,
    report_every: Annotated[
        int | None,
        typer.Option("--report-every", help="Pages between metrics (default: the pipeline's)."),
    ] = None,
    manifest_pages: Annotated[
        int | None,
        typer.Option("--manifest-pages", help="BFS pages recall counts (default: 4 × max pages)."),
    ] = None,
    truth: Annotated[
        Path | None,
        typer.Option("--truth", help='JSON Lines of {"url", "relevant"}: the truth on any world.'),
    ] = None,
    resolve: Annotated[
        list[str] | None, typer.Option("--resolve", help="HOST=ADDR:PORT (glob hosts), repeatable.")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for metrics.csv, summary.md, plots.")
    ] = Path("kgcrawl-evaluation"),
    force: Annotated[
        bool, typer.Option("--force", help="Replace an evaluation already in --out.")
    ] = False,
    set_: SetOption = None,
) -> None:
    """Run strategies on the same world; write metrics.csv, summary.md and plots."""
    from rich.markup import escape

    from kgcrawl.evaluate.run import EvaluationPlan
    from kgcrawl.evaluate.run import evaluate as run_evaluation
    from kgcrawl.evaluate.view import evaluation_progress, final_table

    plan = EvaluationPlan(
        domain=domain, strategies=tuple(strategies.split(",")), out=out, max_pages=max_pages,
        sandbox=sandbox, sandbox_size=sandbox_size, sandbox_profile=sandbox_profile, seed=seed,
        repeats=repeats,
        workers_per_crawl=workers_per_crawl, parallel=parallel, report_every=report_every,
        manifest_pages=manifest_pages, truth=truth, resolve=tuple(resolve or ()),
        overrides=tuple(set_ or ()), force=force,
    )  # fmt: skip
    with evaluation_progress(console) as show:
        result = run_evaluation(plan, show)
    console.print(final_table(result.rows))
    if result.no_truth:
        console.print(result.no_truth, highlight=False)
    for path in result.files:
        console.print(f"written {path}", highlight=False, markup=False)
    for run in result.failed:
        reason = escape(run.error or "no page downloaded")
        console.print(f"[red]left out[/red] {run.run_id}: {reason}", highlight=False)
    if result.failed:
        raise typer.Exit(2)


@app.command("demo")
def demo(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for report.md, plots, ontology versions.")
    ] = Path("kgcrawl-demo"),
    domain: Annotated[
        str,
        typer.Option(
            "--domain", help="tourism or rainstorm: the shipped pipeline, corpus and truth used."
        ),
    ] = "tourism",
    max_pages: Annotated[int, typer.Option("--max-pages", help="Pages to crawl.")] = 2000,
    baseline_pages: Annotated[
        int | None,
        typer.Option("--baseline-pages", help="Pages of the BFS baseline (default: half)."),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", help="Requests in flight at once.")] = 8,
    seed: Annotated[int, typer.Option("--seed", help="Sandbox world and crawl seed.")] = 0,
    sandbox_size: Annotated[
        str, typer.Option("--sandbox-size", help="small|default|large.")
    ] = "default",
    sandbox_profile: SandboxProfileOption = "default",
    set_: SetOption = None,
) -> None:
    """The whole mission offline: FCA ontology, sandbox crawl, graph, queries, refresh, report."""
    from rich.table import Table

    from kgcrawl.crawl.view import crawl_summary, live_progress
    from kgcrawl.demo import STAGES, DemoOptions, run_demo, stopped_line
    from kgcrawl.evaluate.view import final_table
    from kgcrawl.fit import counted
    from kgcrawl.graph.view import result_table

    options = DemoOptions(out=out, domain=domain, max_pages=max_pages,
                          baseline_pages=baseline_pages, workers=workers, seed=seed,
                          sandbox_size=sandbox_size, sandbox_profile=sandbox_profile,
                          overrides=tuple(set_ or ()))  # fmt: skip
    with live_progress(console) as show:
        result = run_demo(options, lambda stage: _announce(stage, STAGES, domain), show)
    if result.stopped:  # Ctrl-C: the stage it stopped at, no report, and a signal's exit code
        console.print(stopped_line(result), highlight=False, markup=False, soft_wrap=True)
        raise Stopped
    console.print(crawl_summary(result.crawl, next_steps=False))  # the demo takes them below
    console.print(final_table(result.rows, title="metrics (true harvest: the sandbox's truth)"))
    if result.no_truth:
        console.print(result.no_truth, highlight=False)
    for name, rows in result.queries:
        console.print(result_table(rows, title=name))
    if result.refresh is None:
        console.print(f"no refresh: {result.refresh_skipped}", highlight=False, markup=False)
    else:
        _print_refresh(result.refresh)
    times = Table("stage", "seconds", title="stage times")
    for name, seconds in [*result.seconds.items(), ("total", result.total_seconds)]:
        times.add_row(name, f"{seconds:.1f}")
    console.print(times)
    replaced = f" (it replaced the earlier demo's {counted(len(result.replaced), 'file')})"
    console.print(f"report: {result.report}{replaced if result.replaced else ''}",
                  highlight=False, markup=False, soft_wrap=True)  # fmt: skip


def _announce(stage: str, stages: dict[str, str], domain: str) -> None:
    console.print(f"▶ {stage}: {stages[stage].format(domain=domain)}", highlight=False)
