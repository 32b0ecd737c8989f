"""The `kgcrawl` command line: options in, library calls, rich output. No logic here.

Heavy libraries are imported inside the commands so that `kgcrawl --help` starts fast.
"""

from __future__ import annotations

import sys
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
    help="Validate and show a domain's pipeline settings.", no_args_is_help=True
)
app.add_typer(ontology_app, name="ontology")
app.add_typer(pipeline_app, name="pipeline")

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
