"""What every command module shares: the app, its groups, the console, common options."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(
    help="Ontology-driven focused crawler that grows a domain knowledge graph.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
ontology_app = typer.Typer(help="Inspect an ontology and its topic weights.", no_args_is_help=True)
pipeline_app = typer.Typer(
    help="Write a new domain's pipeline file, or validate and show one's settings.",
    no_args_is_help=True,
)
app.add_typer(ontology_app, name="ontology")
app.add_typer(pipeline_app, name="pipeline")
graph_app = typer.Typer(
    help="Start, stop and inspect the embedded FalkorDB graph server.", no_args_is_help=True
)
app.add_typer(graph_app, name="graph")
sandbox_app = typer.Typer(
    help="Serve and inspect the generated sandbox web (truth for tourism and rainstorm).",
    no_args_is_help=True,
)
app.add_typer(sandbox_app, name="sandbox")
runs_app = typer.Typer(
    help="List, inspect, export and delete crawl runs; sample pages to label.",
    no_args_is_help=True,
)
app.add_typer(runs_app, name="runs")

# emoji off: `:abc:` in a path, URL or page title is shown as written, not as a picture
console = Console(emoji=False)
notices = Console(stderr=True, emoji=False)  # what a command says on the way; -q silences it


class Stopped(Exception):
    """A command stopped by a signal has said so (and how to go on): `main` exits 130."""


class Interrupted(Exception):
    """Ctrl-C outside the crawl loop (which stops by itself): `main` says how to go on."""

    def __init__(self, run_id: str | None) -> None:
        super().__init__(run_id)
        self.run_id = run_id


@dataclass
class Global:
    """The app's own options, for the commands that care (set before any command runs)."""

    quiet: bool = False


options = Global()


def notice(line: str) -> None:
    """One line on stderr about what the command does on the way (not its result); it
    names files and runs, shown as written (no rich markup)."""
    if not options.quiet:
        notices.print(line, highlight=False, soft_wrap=True, markup=False)


@contextmanager
def stage_bar() -> Iterator[Callable[[str, int, int], None]]:
    """A transient bar for work done in stages: `progress(stage, done, total)` (total 0:
    not known); nothing with --quiet or off a terminal, where it left an empty line."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    hidden = options.quiet or not console.is_terminal
    with Progress(*columns, console=console, transient=True, disable=hidden) as bar:
        task = bar.add_task("starting", total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total or None)

        yield progress


def _print_version(value: bool) -> None:
    if value:
        import kgcrawl

        console.print(f"kgcrawl {kgcrawl.__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def global_options(
    log_level: Annotated[
        str, typer.Option("--log-level", help="DEBUG, INFO, WARNING, ERROR or CRITICAL.")
    ] = "WARNING",
    log_file: Annotated[
        Path | None, typer.Option("--log-file", help="Also write the log to this file.")
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="No live progress or notices; errors only on stderr."),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print the version."
        ),
    ] = False,
) -> None:
    """Ontology-driven focused crawler that grows a domain knowledge graph."""
    from kgcrawl.logs import configure_logging

    options.quiet = quiet
    configure_logging(log_level, log_file, quiet)


SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override a setting: section.key=value, a list as [0.1,0.5,0.4] or 0.1,0.5,0.4, "
        "a switch as true or false (repeatable; default: none).",
    ),
]

SandboxProfileOption = Annotated[
    str,
    typer.Option(
        "--sandbox-profile",
        help="Kind of sandbox web: default (portals), sparse (academic, English) or flat "
        "(Chinese, few topic words per page).",
        show_default=True,
    ),
]
GraphOption = Annotated[
    str | None,
    typer.Option(
        "--graph", help="embedded, none, bolt://… or neo4j://… (default: graph.uri, embedded)."
    ),
]


def _load_topic(domain_or_file: str, overrides: list[str] | None = None):
    """A domain name or pipeline resolves through its settings; an .owl/.ttl file stands alone."""
    from kgcrawl.ontology.topic import load_topic_model

    return load_topic_model(domain_or_file, overrides or [])
