"""`kgcrawl runs list|show|export`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from kgcrawl.cli.common import console, runs_app


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

    no_truth = export_csv(run_id, sys.stdout)
    if no_truth:
        print(no_truth, file=sys.stderr)
