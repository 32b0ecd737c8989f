"""`kgcrawl graph start|stop|status|sync` and `kgcrawl query`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from kgcrawl.cli.common import app, console, graph_app


@graph_app.command("start")
def graph_start() -> None:
    """Start the embedded FalkorDB (data in <data>/graph/) and leave it running."""
    from rich.markup import escape

    from kgcrawl.graph.store import start_embedded

    info, started = start_embedded()
    state = "[green]started[/green]" if started else "already running:"
    folder = escape(str(info.folder))
    console.print(f"{state} FalkorDB pid {info.pid} on 127.0.0.1:{info.port} ({folder})")


@graph_app.command("stop")
def graph_stop() -> None:
    """Stop the embedded FalkorDB cleanly (its data is kept)."""
    from kgcrawl.graph.server import stop

    info = stop()
    console.print(f"stopped FalkorDB pid {info.pid}" if info else "FalkorDB is not running")


@graph_app.command("status")
def graph_status() -> None:
    """Say whether the embedded FalkorDB runs and what it holds (exit code 1 when it does not)."""
    from kgcrawl.graph.queries import graph_contents
    from kgcrawl.graph.server import graph_folder, status

    info = status()
    if info is None:
        console.print(f"FalkorDB is not running ({graph_folder()})", markup=False)
        raise typer.Exit(1)
    state = "loading" if info.loading else "running"
    console.print(f"FalkorDB {state}: pid {info.pid} on 127.0.0.1:{info.port} ({info.folder})",
                  markup=False)  # fmt: skip
    if not info.loading:
        console.print(str(graph_contents()), markup=False)


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
    write: Annotated[
        bool, typer.Option("--write", help="Allow the statement to change the graph.")
    ] = False,
) -> None:
    """Run Cypher (or a saved query) against the knowledge graph and print the result.

    Read-only unless --write.
    """
    from kgcrawl.graph.queries import parse_params, run_query
    from kgcrawl.graph.view import result_csv, result_json, result_table

    if as_json and as_csv:
        raise typer.BadParameter("choose one of --json and --csv")
    values = parse_params(param or [])
    result = run_query(cypher, saved=saved, params=values, uri=graph, write=write)
    if as_json:
        sys.stdout.write(result_json(result) + "\n")
    elif as_csv:
        sys.stdout.write(result_csv(result))
    else:
        console.print(result_table(result, title=saved))


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
        f"synced {run_id}: {report.pages} outcomes (pages and failed fetches), "
        f"{report.links} links, "
        f"{report.mentions} mentions; created {report.nodes_created} nodes, "
        f"{report.relationships_created} relationships"
    )
