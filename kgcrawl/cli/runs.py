"""`kgcrawl runs list|show|export|sample|delete`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from kgcrawl.cli.common import console, notice, runs_app
from kgcrawl.fit import counted


@runs_app.command("list")
def runs_list() -> None:
    """Every run under the data folder with its progress."""
    from rich.markup import escape

    from kgcrawl.crawl.state import runs_dir
    from kgcrawl.crawl.view import runs_table

    table = runs_table()
    if not table.rows:  # not an empty table: where runs would be, and how one starts
        console.print(f"no runs in {escape(str(runs_dir()))}; `kgcrawl crawl DOMAIN` starts one",
                      highlight=False, soft_wrap=True)  # fmt: skip
        return
    console.print(table)


@runs_app.command("show")
def runs_show(run_id: Annotated[str, typer.Argument(help="Run id.")]) -> None:
    """A run's settings, counters and failures by reason."""
    from kgcrawl.crawl.view import run_details

    console.print(run_details(run_id))


@runs_app.command("export")
def runs_export(
    run_id: Annotated[str, typer.Argument(help="Run id.")],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="csv (every outcome, with the sandbox's truth), jsonl (pages with main text "
            "and concepts) or markdown (a file per page with YAML front matter). "
            "Default: the --out file's suffix, else csv.",
        ),
    ] = None,
    relevant_only: Annotated[
        bool, typer.Option("--relevant-only", help="Only the pages judged relevant.")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="A .csv or .jsonl file, or a folder to write into (default: standard output; "
            "markdown needs a folder).",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Write over the --out file, or a folder's pages.")
    ] = False,
    csv: Annotated[bool, typer.Option("--csv", hidden=True, help="Same as --format csv.")] = False,
) -> None:
    """A run's pages in crawl order as CSV, JSON Lines or Markdown files."""
    from kgcrawl.export import export_run

    done = export_run(run_id, "csv" if csv else fmt, out=out, relevant_only=relevant_only,
                      stdout=sys.stdout, force=force)  # fmt: skip
    if done.note:
        notice(done.note)
    if done.files:
        where = done.files[0] if len(done.files) == 1 else done.files[0].parent
        notice(f"{counted(done.pages, done.unit)} → {where}")


@runs_app.command("sample")
def runs_sample(
    run_id: Annotated[str, typer.Argument(help="Run id.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The file to write (JSON Lines).")],
    pages: Annotated[
        int | None,
        typer.Option("--pages", min=1, help="How many (default: 200, which steadies α)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random draw.")] = 0,
) -> None:
    """Pages of a run drawn at random, as a truth file to label for calibrate --truth."""
    from kgcrawl.export import write_label_sheet

    done = write_label_sheet(run_id, out, pages, seed)
    notice(f"{counted(done.pages, 'page')} → {out}")
    notice(str(done.note))


@runs_app.command("delete")
def runs_delete(
    run_ids: Annotated[list[str], typer.Argument(help="Run ids.", show_default=False)],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask first.")] = False,
) -> None:
    """Delete runs (their state under the data folder); the graph keeps their pages."""
    from kgcrawl.errors import KgcrawlError
    from kgcrawl.runs import delete_run, run_folder

    run_ids = list(dict.fromkeys(run_ids))  # a run named twice goes once, and no error after
    for run_id in run_ids:  # every id before any run goes
        run_folder(run_id)
    if not yes:
        if not sys.stdin.isatty():
            raise KgcrawlError("runs delete: no terminal to ask on; add --yes to delete")
        if not typer.confirm(f"delete {', '.join(run_ids)}?"):
            console.print("nothing deleted", highlight=False)
            return
    for run_id in run_ids:
        folder = delete_run(run_id)
        console.print(f"deleted {run_id} ({folder})", highlight=False, soft_wrap=True,
                      markup=False)  # fmt: skip
