"""The `kgcrawl` command line: options in, library calls, rich output. No logic here.

Heavy libraries are imported inside the commands so that `kgcrawl --help` starts fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

# What importing this module must not load (tests/test_cli.py, benchmarks/bench_cli_startup.py).
HEAVY_MODULES = ("numpy", "scipy", "owlready2", "rdflib", "jieba", "lxml", "trafilatura",
                 "falkordb", "neo4j", "matplotlib", "requests")  # fmt: skip

app = typer.Typer(
    help="Ontology-driven focused crawler that grows a domain knowledge graph.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
ontology_app = typer.Typer(help="Inspect an ontology and its topic weights.", no_args_is_help=True)
pipeline_app = typer.Typer(
    help="Validate and show a domain's pipeline settings.", no_args_is_help=True
)
app.add_typer(ontology_app, name="ontology")
app.add_typer(pipeline_app, name="pipeline")
graph_app = typer.Typer(
    help="Start, stop and inspect the embedded FalkorDB graph server.", no_args_is_help=True
)
app.add_typer(graph_app, name="graph")
sandbox_app = typer.Typer(
    help="Serve and inspect the generated sandbox web (SPEC §12).", no_args_is_help=True
)
app.add_typer(sandbox_app, name="sandbox")
runs_app = typer.Typer(help="List, inspect and export crawl runs.", no_args_is_help=True)
app.add_typer(runs_app, name="runs")

console = Console()

SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a setting: section.key=value (repeatable)."),
]


def _load_topic(domain_or_file: str, overrides: list[str] | None = None):
    """A domain name or pipeline resolves through its settings; an .owl/.ttl file stands alone."""
    from kgcrawl.ontology.topic import load_topic_model

    return load_topic_model(domain_or_file, overrides or [])


@ontology_app.command("show")
def ontology_show(
    domain_or_file: Annotated[
        str, typer.Argument(help="Domain (pipelines/<name>.toml) or OWL/TTL file.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a tree.")] = False,
    set_: SetOption = None,
) -> None:
    """Show the concept tree: label, English label, edge type, depth, weight."""
    from kgcrawl.ontology.view import ontology_json, ontology_tree

    model = _load_topic(domain_or_file, set_)
    if as_json:
        console.print_json(data=ontology_json(model))
    else:
        console.print(ontology_tree(model))


@ontology_app.command("weights")
def ontology_weights(
    domain_or_file: Annotated[
        str, typer.Argument(help="Domain (pipelines/<name>.toml) or OWL/TTL file.")
    ],
    csv: Annotated[bool, typer.Option("--csv", help="Print CSV instead of a table.")] = False,
    set_: SetOption = None,
) -> None:
    """Print W_T (Eq. 2): each concept's similarity to the topic concept with its five factors."""
    from kgcrawl.ontology.view import weights_csv, weights_table

    model = _load_topic(domain_or_file, set_)
    if csv:
        sys.stdout.write(weights_csv(model))
    else:
        console.print(weights_table(model))


@pipeline_app.command("check")
def pipeline_check(
    domain_or_file: Annotated[str, typer.Argument(help="Domain name or pipeline .toml file.")],
    set_: SetOption = None,
) -> None:
    """Validate a pipeline and print every resolved setting with where it came from."""
    from rich.table import Table

    from kgcrawl.config import load_settings, parse_overrides

    settings = load_settings(domain_or_file, parse_overrides(set_ or []))
    table = Table("setting", "value", "from", title=f"pipeline {settings.domain}")
    for key, value in settings.flat().items():
        table.add_row(key, str(value), settings.origins.get(key, "default"))
    console.print(table)
    console.print(f"[green]ok[/green] {settings.source}")


@app.command("build-ontology")
def build_ontology(
    corpus: Annotated[Path, typer.Argument(help="Corpus folder (.txt .md .html .jsonl).")],
    domain: Annotated[
        str | None, typer.Option(help="Domain name (default: the folder name).")
    ] = None,
    topic: Annotated[
        str | None,
        typer.Option(help="Topic concept label (default: the base root, else the domain)."),
    ] = None,
    base: Annotated[Path | None, typer.Option(help="Hand-built OWL to merge into.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="OWL file (default: ontologies/<domain>.fca.owl).")
    ] = None,
    lattice_dir: Annotated[Path, typer.Option(help="Where .cxt and .gv/.svg go.")] = Path(
        "lattice"
    ),
    min_df: Annotated[int, typer.Option(help="Least documents a term must occur in.")] = 2,
    max_df: Annotated[float, typer.Option(help="Largest share of documents for a term.")] = 0.8,
    max_terms: Annotated[int, typer.Option(help="Most terms (formal attributes).")] = 120,
    min_chars: Annotated[int, typer.Option(help="Shortest term, in characters.")] = 2,
    term: Annotated[
        list[str] | None, typer.Option("--term", help="Pin a term (repeatable).")
    ] = None,
    terms_file: Annotated[Path | None, typer.Option(help="Pin the terms of a file.")] = None,
    all_words: Annotated[
        bool, typer.Option("--all-words", help="Count every Chinese word, not only nouns.")
    ] = False,
    min_support: Annotated[
        int, typer.Option(help="Keep concepts with at least this many documents.")
    ] = 0,
    max_concepts: Annotated[int, typer.Option(help="Stop past this many concepts.")] = 200_000,
    engine: Annotated[
        str, typer.Option(help="Lattice engine: cbo (fast) or concepts (the library).")
    ] = "cbo",
) -> None:
    """Build a domain ontology from a corpus with formal concept analysis (SPEC §3.1)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table

    from kgcrawl.ontology.build import BuildOptions
    from kgcrawl.ontology.build import build_ontology as build

    options = BuildOptions(
        domain=domain,
        topic=topic,
        base=base,
        out=out,
        lattice_dir=lattice_dir,
        min_df=min_df,
        max_df=max_df,
        max_terms=max_terms,
        min_chars=min_chars,
        nouns_only=not all_words,
        terms=tuple(term or ()),
        terms_file=terms_file,
        min_support=min_support,
        max_concepts=max_concepts,
        engine=engine,
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("starting", total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total or None)

        result = build(corpus, options, progress)
    table = Table("", "", title=f"build-ontology {result.domain}", show_header=False)
    for what, value in result.summary():
        table.add_row(what, value)
    console.print(table)
    for skipped in result.corpus.skipped:
        console.print(f"[yellow]skipped[/yellow] {skipped.name}: {skipped.reason}", highlight=False)


@app.command("refresh-ontology")
def refresh_ontology(
    domain: Annotated[str, typer.Argument(help="Domain (pipelines/<name>.toml) or pipeline file.")],
    run: Annotated[
        str | None, typer.Option("--run", help="Take the pages from this run, not the graph.")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report the new terms; write nothing.")
    ] = False,
    corpus: Annotated[
        Path | None, typer.Option(help="Corpus folder (default: corpus/<domain>).")
    ] = None,
    max_new: Annotated[int, typer.Option(help="Most new terms to add.")] = 20,
    set_: SetOption = None,
) -> None:
    """Add terms found in relevant crawled pages to a new ontology version (SPEC §9)."""
    from kgcrawl.ontology.refresh import RefreshOptions
    from kgcrawl.ontology.refresh import refresh_ontology as refresh

    options = RefreshOptions(
        run=run, dry_run=dry_run, corpus=corpus, overrides=tuple(set_ or ()), max_new=max_new
    )
    result = refresh(domain, options)
    _print_refresh(result)
    if hint := result.how_to_use():
        console.print(hint, highlight=False)


def _print_refresh(result) -> None:
    """The new terms and where they went, then what the refresh read and wrote."""
    from rich.table import Table

    added = Table(
        "term", "placed under", "relevant pages", "irrelevant pages", "score",
        title=f"new terms for {result.domain}",
    )  # fmt: skip
    for term in result.added:
        added.add_row(
            term.term, term.parent_label, str(term.relevant_pages),
            str(term.irrelevant_pages), f"{term.score:.3f}",
        )  # fmt: skip
    console.print(added if result.added else "no new term found")
    summary = Table("", "", title=f"refresh-ontology {result.domain}", show_header=False)
    for what, value in result.summary():
        summary.add_row(what, value)
    console.print(summary)


@graph_app.command("start")
def graph_start() -> None:
    """Start the embedded FalkorDB (data in <data>/graph/) and leave it running."""
    from kgcrawl.graph.store import start_embedded

    info, started = start_embedded()
    state = "[green]started[/green]" if started else "already running:"
    console.print(f"{state} FalkorDB pid {info.pid} on 127.0.0.1:{info.port} ({info.folder})")


@graph_app.command("stop")
def graph_stop() -> None:
    """Stop the embedded FalkorDB cleanly (its data is kept)."""
    from kgcrawl.graph.server import stop

    info = stop()
    console.print(f"stopped FalkorDB pid {info.pid}" if info else "FalkorDB is not running")


@graph_app.command("status")
def graph_status() -> None:
    """Say whether the embedded FalkorDB runs (exit code 1 when it does not)."""
    from kgcrawl.graph.server import graph_folder, status

    info = status()
    if info is None:
        console.print(f"FalkorDB is not running ({graph_folder()})")
        raise typer.Exit(1)
    state = "loading" if info.loading else "running"
    console.print(f"FalkorDB {state}: pid {info.pid} on 127.0.0.1:{info.port} ({info.folder})")


@app.command("query")
def query(
    cypher: Annotated[str | None, typer.Argument(help="A Cypher statement.")] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="A parameter NAME=VALUE (JSON or text; repeatable)."),
    ] = None,
    saved: Annotated[
        str | None, typer.Option("--saved", help="Run neo4j/queries/NAME.cypher instead.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON records.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    graph: Annotated[
        str | None,
        typer.Option("--graph", help="embedded (default), falkordb://, bolt://, neo4j:// URI."),
    ] = None,
) -> None:
    """Run Cypher (or a saved query) against the knowledge graph and print the result."""
    from kgcrawl.graph.queries import run_query
    from kgcrawl.graph.view import result_csv, result_json, result_table

    if as_json and as_csv:
        raise typer.BadParameter("choose one of --json and --csv")
    result = run_query(cypher, saved=saved, params=param or [], uri=graph)
    if as_json:
        sys.stdout.write(result_json(result) + "\n")
    elif as_csv:
        sys.stdout.write(result_csv(result))
    else:
        console.print(result_table(result, title=saved))


SandboxSeed = Annotated[int, typer.Option("--seed", help="World seed.")]
SandboxSize = Annotated[
    str, typer.Option("--size", help="World size: small (~100 hosts), default (~300), large.")
]


@sandbox_app.command("serve")
def sandbox_serve(
    seed: SandboxSeed = 0,
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (0 = any free).")] = 0,
    size: SandboxSize = "default",
    slow_delay: Annotated[
        float, typer.Option("--slow-delay", help="Seconds slow hosts wait before answering.")
    ] = 0.5,
    hang: Annotated[
        float, typer.Option("--hang", help="Seconds /live/ pages stall mid-body.")
    ] = 30.0,
) -> None:
    """Serve the sandbox web on 127.0.0.1 until SIGINT/SIGTERM; print the --resolve mapping."""
    from kgcrawl.sandbox.server import serve
    from kgcrawl.sandbox.world import World

    world = World(seed, size)

    def ready(server) -> None:
        hosts = len(world.hosts)
        console.print(f"sandbox seed={seed} size={size} ({hosts} hosts) on {server.base_url}")
        console.print(f"--resolve '{server.resolve[0]}'", highlight=False)
        sys.stdout.flush()

    serve(world, port, slow_delay=slow_delay, hang_seconds=hang, ready=ready)


@sandbox_app.command("truth")
def sandbox_truth(
    urls: Annotated[list[str], typer.Argument(help="URLs of the sandbox web.")],
    seed: SandboxSeed = 0,
    size: SandboxSize = "default",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print each URL's ground truth: status, labels per domain, topic shares."""
    import json

    from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS
    from kgcrawl.sandbox.view import truth_table
    from kgcrawl.sandbox.world import World

    world = World(seed, size)
    truths = [world.truth(url) for url in urls]
    if as_json:
        data = [t.to_dict(DOMAIN_TOPICS) for t in truths]
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    else:
        console.print(truth_table(truths))


@sandbox_app.command("manifest")
def sandbox_manifest(
    domain: Annotated[str, typer.Option("--domain", help="tourism or rainstorm.")],
    out: Annotated[Path, typer.Option("--out", help="Output file, .csv or .json.")],
    max_pages: Annotated[int, typer.Option("--max-pages", help="Pages to list.")] = 15000,
    seed: SandboxSeed = 0,
    size: SandboxSize = "default",
) -> None:
    """Write the pages reachable from the domain's seeds (BFS, up to N) with their labels."""
    from kgcrawl.sandbox.manifest import bfs, write_manifest
    from kgcrawl.sandbox.world import World

    rows = bfs(World(seed, size), domain, max_pages)
    meta = {"domain": domain, "seed": seed, "size": size, "max_pages": max_pages}
    write_manifest(rows, out, meta)
    relevant = sum(r.relevant for r in rows)
    console.print(f"{out}: {len(rows)} pages, {relevant} relevant to {domain}", soft_wrap=True)


@sandbox_app.command("info")
def sandbox_info(
    seed: SandboxSeed = 0,
    size: SandboxSize = "default",
    bfs_pages: Annotated[
        int, typer.Option("--bfs-pages", help="Pages of the per-domain BFS sample (0 = none).")
    ] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the world's statistics: hosts by kind and hazard, relevant shares per domain."""
    import json

    from kgcrawl.sandbox.manifest import world_info
    from kgcrawl.sandbox.view import info_table
    from kgcrawl.sandbox.world import World

    info = world_info(World(seed, size), bfs_pages)
    if as_json:
        sys.stdout.write(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
    else:
        console.print(info_table(info))


GraphOption = Annotated[
    str | None, typer.Option("--graph", help="embedded, none, bolt://… or neo4j://…")
]


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
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.crawl.view import crawl_summary, live_progress
    from kgcrawl.runner import CrawlRequest
    from kgcrawl.runner import crawl as run_crawl
    from kgcrawl.runner import resume as run_resume

    request = CrawlRequest(
        resolve=tuple(resolve or ()),
        sandbox=sandbox,
        sandbox_size=sandbox_size,
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
        if given:
            raise typer.BadParameter(
                f"--resume goes on with the run's own settings; drop {', '.join(given)} "
                "(a resume takes only --resolve, --warc and --ontology)"
            )
    with live_progress(console) as show:
        if resume:
            result = run_resume(resume, request, show)
        else:
            overrides = parse_overrides(set_ or [])
            for key, value in (*settings_options.values(), ("ontology", request.ontology)):
                if value is not None:
                    overrides[key] = value
            if sandbox:
                request.sandbox_seed = int(overrides.get("crawl.seed", 0))
            result = run_crawl(load_settings(domain, overrides), request, show)
    console.print(crawl_summary(result))


@runs_app.command("list")
def runs_list() -> None:
    """Every run under the data folder with its progress."""
    from kgcrawl.crawl.view import runs_table

    console.print(runs_table())


@runs_app.command("show")
def runs_show(run_id: Annotated[str, typer.Argument(help="Run id.")]) -> None:
    """A run's settings, counters and failures by reason."""
    from kgcrawl.crawl.view import run_details

    console.print(run_details(run_id))


@runs_app.command("export")
def runs_export(
    run_id: Annotated[str, typer.Argument(help="Run id.")],
    csv: Annotated[
        bool, typer.Option("--csv", help="CSV on standard output (the only format).")
    ] = True,
) -> None:
    """Pages in crawl order with R(p), relevance, status and, on the sandbox, the truth."""
    from kgcrawl.crawl.view import export_csv

    export_csv(run_id, sys.stdout)


@graph_app.command("sync")
def graph_sync(
    run_id: Annotated[str, typer.Argument(help="Run id.")],
    graph: Annotated[
        str | None, typer.Option("--graph", help="embedded, bolt://… or neo4j://…")
    ] = None,
) -> None:
    """Bring the graph (--graph, else the run's own) to parity with a run's state (idempotent)."""
    from kgcrawl.graph.sync import sync_graph

    report = sync_graph(run_id, graph)
    if report is None:
        console.print("no graph configured (--graph none)")
        return
    console.print(
        f"synced {run_id}: {report.pages} pages, {report.links} links, "
        f"{report.mentions} mentions; created {report.nodes_created} nodes, "
        f"{report.relationships_created} relationships"
    )


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
    seed: Annotated[
        int, typer.Option("--seed", help="World seed; repeat r uses strategy seed S + r.")
    ] = 0,
    repeats: Annotated[int, typer.Option("--repeats", help="Crawls per strategy.")] = 1,
    workers_per_crawl: Annotated[
        int, typer.Option("--workers-per-crawl", help="Requests in flight per crawl.")
    ] = 1,
    parallel: Annotated[int, typer.Option("--parallel", help="Crawls run at once.")] = 2,
    report_every: Annotated[
        int | None,
        typer.Option("--report-every", help="Pages between metrics (default: the pipeline's)."),
    ] = None,
    manifest_pages: Annotated[
        int | None,
        typer.Option("--manifest-pages", help="BFS pages recall counts (default: 4 × max pages)."),
    ] = None,
    resolve: Annotated[
        list[str] | None, typer.Option("--resolve", help="HOST=ADDR:PORT (glob hosts), repeatable.")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for metrics.csv, summary.md, plots.")
    ] = Path("kgcrawl-evaluation"),
    set_: SetOption = None,
) -> None:
    """Run strategies on the same world; write metrics.csv, summary.md and plots (SPEC §10)."""
    from rich.markup import escape

    from kgcrawl.evaluate.run import EvaluationPlan
    from kgcrawl.evaluate.run import evaluate as run_evaluation
    from kgcrawl.evaluate.view import evaluation_progress, final_table

    plan = EvaluationPlan(
        domain=domain, strategies=tuple(strategies.split(",")), out=out, max_pages=max_pages,
        sandbox=sandbox, sandbox_size=sandbox_size, seed=seed, repeats=repeats,
        workers_per_crawl=workers_per_crawl, parallel=parallel, report_every=report_every,
        manifest_pages=manifest_pages, resolve=tuple(resolve or ()), overrides=tuple(set_ or ()),
    )  # fmt: skip
    with evaluation_progress(console) as show:
        result = run_evaluation(plan, show)
    console.print(final_table(result.rows))
    for path in result.files:
        console.print(f"written {path}", highlight=False)
    for run in result.failed:
        reason = escape(run.error or "no page downloaded")
        console.print(f"[red]left out[/red] {run.run_id}: {reason}", highlight=False)
    if result.failed:
        raise typer.Exit(2)


@app.command("demo")
def demo(
    out: Annotated[
        Path, typer.Option("--out", help="Folder for report.md, plots, ontology versions.")
    ] = Path("kgcrawl-demo"),
    max_pages: Annotated[int, typer.Option("--max-pages", help="Pages to crawl.")] = 2000,
    workers: Annotated[int, typer.Option("--workers", help="Requests in flight at once.")] = 8,
    seed: Annotated[int, typer.Option("--seed", help="Sandbox world and crawl seed.")] = 0,
    sandbox_size: Annotated[
        str, typer.Option("--sandbox-size", help="small|default|large.")
    ] = "default",
    set_: SetOption = None,
) -> None:
    """The whole mission offline: FCA ontology, sandbox crawl, graph, queries, refresh, report."""
    from rich.table import Table

    from kgcrawl.crawl.view import crawl_summary, live_progress
    from kgcrawl.demo import STAGES, DemoOptions, run_demo
    from kgcrawl.evaluate.view import final_table
    from kgcrawl.graph.view import result_table

    options = DemoOptions(out=out, max_pages=max_pages, workers=workers, seed=seed,
                          sandbox_size=sandbox_size, overrides=tuple(set_ or ()))  # fmt: skip
    with live_progress(console) as show:
        result = run_demo(options, lambda stage: console.print(f"▶ {stage}: {STAGES[stage]}"), show)
    console.print(crawl_summary(result.crawl))
    console.print(final_table(result.rows, title="metrics (true harvest: the sandbox's truth)"))
    for name, rows in result.queries:
        console.print(result_table(rows, title=name))
    if result.refresh is None:
        console.print(f"no refresh: {result.refresh_skipped}", highlight=False)
    else:
        _print_refresh(result.refresh)
    times = Table("stage", "seconds", title="stage times")
    for name, seconds in [*result.seconds.items(), ("total", result.total_seconds)]:
        times.add_row(name, f"{seconds:.1f}")
    console.print(times)
    console.print(f"report: {result.report}", highlight=False)


def main(argv: list[str] | None = None) -> None:
    """Entry point: project errors become one line on stderr and exit code 2."""
    from rich.markup import escape

    from kgcrawl.errors import KgcrawlError

    try:
        app(args=argv, standalone_mode=True)
    except KgcrawlError as exc:
        message = f"[red]error:[/red] {escape(str(exc))}"
        Console(stderr=True).print(message, highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
