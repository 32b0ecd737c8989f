"""`kgcrawl crawl` (start or resume a run)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kgcrawl.cli.common import (
    GraphOption,
    Interrupted,
    SandboxProfileOption,
    SetOption,
    Stopped,
    app,
    console,
    notice,
    options,
)

if TYPE_CHECKING:
    from kgcrawl.launch import CrawlOptions


@app.command("crawl")
def crawl(
    domain: Annotated[
        str | None, typer.Argument(help="Domain (pipelines/<name>.toml) or pipeline file.")
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            help="bfs, ops, fcsa, fcts, fcits, fcoits, fcits_oh, fcosa_g, fcosa_lg or moaco, "
            "any case (default: the pipeline's crawl.strategy, fcits_oh)."
        ),
    ] = None,
    max_pages: Annotated[
        int | None,
        typer.Option(
            "--max-pages",
            help="Pages to download (default: crawl.max_pages, 15000); with --resume, a "
            "larger budget to go on to.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(help="Requests in flight at once (default: crawl.workers, 8; 1: sequential)."),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            help="Seconds between requests to a host (default: fetch.delay, 1; 0 with --sandbox)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Random seed of the strategy, and with --sandbox of the "
            "sandbox world (default: crawl.seed, 0).",
        ),
    ] = None,
    resolve: Annotated[
        list[str] | None,
        typer.Option("--resolve", help="HOST=ADDR:PORT (glob hosts), repeatable (default: none)."),
    ] = None,
    sandbox: Annotated[
        bool,
        typer.Option(
            "--sandbox",
            help="Crawl the generated sandbox web on loopback; it knows the truth for the "
            "tourism and rainstorm domains (default: the web).",
        ),
    ] = False,
    sandbox_size: Annotated[
        str, typer.Option("--sandbox-size", help="small, default or large.", show_default=True)
    ] = "default",
    sandbox_profile: SandboxProfileOption = "default",
    resume: Annotated[
        str | None,
        typer.Option("--resume", help="Continue the run with this id (default: a new run)."),
    ] = None,
    warc: Annotated[
        Path | None,
        typer.Option("--warc", help="Write every response to this WARC file (default: none)."),
    ] = None,
    graph: GraphOption = None,
    executor: Annotated[
        str,
        typer.Option(
            "--executor",
            help="Where the workers run: local (threads and processes here) or ray (a Ray "
            "cluster; pip install 'kgcrawl\\[ray]'). Allowed with --resume.",
            show_default=True,
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            help="With --executor ray: auto (the cluster of `ray start`), ray://HOST:10001, "
            "or a cluster's HOST:6379 (default: a Ray started for this crawl).",
        ),
    ] = None,
    run_id: Annotated[
        str | None,
        typer.Option("--run-id", help="Name the new run (default: DOMAIN-STRATEGY-TIME)."),
    ] = None,
    ontology: Annotated[
        Path | None,
        typer.Option(
            "--ontology",
            help="Ontology file (e.g. a refresh-ontology version; default: the pipeline's); "
            "with --resume, used from the next page on.",
        ),
    ] = None,
    set_: SetOption = None,
) -> None:
    """Crawl a domain (or resume a run) with a live display and a closing summary."""
    from kgcrawl.config import parse_overrides
    from kgcrawl.crawl.view import crawl_summary, live_progress
    from kgcrawl.launch import CrawlOptions, crawl_request, crawl_settings
    from kgcrawl.runner import CrawlRequest
    from kgcrawl.runner import crawl as run_crawl
    from kgcrawl.runner import resume as run_resume

    if (domain is None) == (resume is None):
        raise typer.BadParameter("give a DOMAIN to start a crawl, or --resume ID (not both)")
    _check_executor(executor, ray_address, warc)
    crawl_options = CrawlOptions(
        max_pages=max_pages, strategy=strategy, workers=workers, seed=seed, delay=delay,
        graph=graph, sandbox=sandbox, sandbox_size=sandbox_size, sandbox_profile=sandbox_profile,
        resolve=tuple(resolve or ()), run_id=run_id, warc=warc, ontology=ontology,
        executor=executor, ray_address=ray_address, overrides=parse_overrides(set_ or []),
    )  # fmt: skip
    if resume:
        _refuse_new_run_options(crawl_options, bool(set_))
        request = CrawlRequest(resolve=crawl_options.resolve, warc=warc,
                               ontology=ontology.resolve() if ontology else None,
                               max_pages=max_pages, executor=executor,
                               ray_address=ray_address)  # fmt: skip
        run_id = resume
    else:
        settings = crawl_settings(domain, crawl_options, notice)
        request = crawl_request(crawl_options, settings)
        run_id = request.run_id
    try:
        with live_progress(console, enabled=not options.quiet) as show:
            if resume:
                result = run_resume(resume, request, show)
            else:
                result = run_crawl(settings, request, show)
    except KeyboardInterrupt:  # a second Ctrl-C, or one before the crawl loop started
        raise Interrupted(run_id) from None
    console.print(crawl_summary(result))
    if result.stopped:  # by a signal, resumable: `crawl && refresh-ontology` must not go on
        raise Stopped


def _check_executor(executor: str, ray_address: str | None, warc: Path | None) -> None:
    """--executor is local or ray (ray installed); --ray-address needs ray, --warc local."""
    from kgcrawl.crawl.engine import Executor

    if executor == "local" and ray_address is not None:
        raise typer.BadParameter("--ray-address needs --executor ray")
    if executor == "ray" and warc is not None:
        raise typer.BadParameter("--warc needs --executor local (ray keeps responses on its nodes)")
    Executor(executor, ray_address).check()


def _refuse_new_run_options(given: CrawlOptions, has_set: bool) -> None:
    """A resume goes on with the run's own settings: an option changing them is an error."""
    names = {"--strategy": given.strategy, "--workers": given.workers, "--delay": given.delay,
             "--seed": given.seed, "--graph": given.graph}  # fmt: skip
    dropped = [name for name, value in names.items() if value is not None]
    dropped += ["--set"] * has_set + ["--run-id"] * bool(given.run_id)
    dropped += ["--sandbox"] * given.sandbox
    dropped += ["--sandbox-size"] * (given.sandbox_size != "default")
    dropped += ["--sandbox-profile"] * (given.sandbox_profile != "default")
    if dropped:
        raise typer.BadParameter(
            f"--resume goes on with the run's own settings; drop {', '.join(dropped)} "
            "(a resume takes only --resolve, --warc, --ontology and --max-pages)"
        )
