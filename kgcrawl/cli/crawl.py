"""`kgcrawl crawl` (start or resume a run)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgcrawl.cli.common import GraphOption, SandboxProfileOption, SetOption, app, console


@app.command("crawl")
def crawl(
    domain: Annotated[
        str | None, typer.Argument(help="Domain (pipelines/<name>.toml) or pipeline file.")
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            help="bfs, ops, fcsa, fcts, fcits, fcoits, fcits_oh, fcosa_g, fcosa_lg, moaco."
        ),
    ] = None,
    max_pages: Annotated[int | None, typer.Option("--max-pages", help="Pages to download.")] = None,
    workers: Annotated[int | None, typer.Option(help="Requests in flight at once.")] = None,
    delay: Annotated[float | None, typer.Option(help="Seconds between requests to a host.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed of the strategy.")] = None,
    resolve: Annotated[
        list[str] | None, typer.Option("--resolve", help="HOST=ADDR:PORT (glob hosts), repeatable.")
    ] = None,
    sandbox: Annotated[bool, typer.Option("--sandbox", help="Crawl the sandbox web.")] = False,
    sandbox_size: Annotated[
        str, typer.Option("--sandbox-size", help="small|default|large.")
    ] = "default",
    sandbox_profile: SandboxProfileOption = "default",
    resume: Annotated[
        str | None, typer.Option("--resume", help="Continue the run with this id.")
    ] = None,
    warc: Annotated[
        Path | None, typer.Option("--warc", help="Write every response to this WARC file.")
    ] = None,
    graph: GraphOption = None,
    run_id: Annotated[str | None, typer.Option("--run-id", help="Name the new run.")] = None,
    ontology: Annotated[
        Path | None,
        typer.Option(
            "--ontology",
            help="Ontology file (e.g. a refresh-ontology version); with --resume, "
            "used from the next page on.",
        ),
    ] = None,
    set_: SetOption = None,
) -> None:
    """Crawl a domain (or resume a run) with a live display and a closing summary."""
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.crawl.view import crawl_summary, live_progress
    from kgcrawl.runner import CrawlRequest
    from kgcrawl.runner import crawl as run_crawl
    from kgcrawl.runner import resume as run_resume

    request = CrawlRequest(
        resolve=tuple(resolve or ()),
        sandbox=sandbox,
        sandbox_size=sandbox_size,
        sandbox_profile=sandbox_profile,
        warc=warc,
        run_id=run_id,
        ontology=ontology.resolve() if ontology else None,
    )
    if (domain is None) == (resume is None):
        raise typer.BadParameter("give a DOMAIN to start a crawl, or --resume ID (not both)")
    settings_options = {  # option: (setting, value)
        "--strategy": ("crawl.strategy", strategy),
        "--max-pages": ("crawl.max_pages", max_pages),
        "--workers": ("crawl.workers", workers),
        "--delay": ("fetch.delay", delay),
        "--seed": ("crawl.seed", seed),
        "--graph": ("graph.uri", graph),
    }
    if resume:
        given = [option for option, (_, v) in settings_options.items() if v is not None]
        given += ["--set"] * bool(set_) + ["--run-id"] * bool(run_id) + ["--sandbox"] * sandbox
        given += ["--sandbox-profile"] * (sandbox_profile != "default")
        if given:
            raise typer.BadParameter(
                f"--resume goes on with the run's own settings; drop {', '.join(given)} "
                "(a resume takes only --resolve, --warc and --ontology)"
            )
    else:
        overrides = parse_overrides(set_ or [])
        for key, value in (*settings_options.values(), ("ontology", request.ontology)):
            if value is not None:
                overrides[key] = value
        if sandbox:
            request.sandbox_seed = int(overrides.get("crawl.seed", 0))
        settings = resolve_thresholds(load_settings(domain, overrides), console.print)
    with live_progress(console) as show:
        result = run_resume(resume, request, show) if resume else run_crawl(settings, request, show)
    console.print(crawl_summary(result))
