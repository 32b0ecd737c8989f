"""What every command module shares: the app, its groups, the console, common options."""

from __future__ import annotations

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

SandboxProfileOption = Annotated[
    str,
    typer.Option(
        "--sandbox-profile",
        help="Kind of sandbox web: default (portals), sparse (academic, English), flat (Chinese, "
        "few topic words per page).",
    ),
]
GraphOption = Annotated[
    str | None, typer.Option("--graph", help="embedded, none, bolt://… or neo4j://…")
]


def _load_topic(domain_or_file: str, overrides: list[str] | None = None):
    """A domain name or pipeline resolves through its settings; an .owl/.ttl file stands alone."""
    from kgcrawl.ontology.topic import load_topic_model

    return load_topic_model(domain_or_file, overrides or [])
