"""`kgcrawl pipeline check`."""

from __future__ import annotations

from typing import Annotated

import typer

from kgcrawl.cli.common import SetOption, console, pipeline_app


@pipeline_app.command("check")
def pipeline_check(
    domain_or_file: Annotated[str, typer.Argument(help="Domain name or pipeline .toml file.")],
    set_: SetOption = None,
) -> None:
    """Validate a pipeline and print every resolved setting with where it came from."""
    from rich.table import Table

    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings, parse_overrides

    settings = load_settings(domain_or_file, parse_overrides(set_ or []))
    settings = resolve_thresholds(settings, compute=False)
    table = Table("setting", "value", "from", title=f"pipeline {settings.domain}")
    for key, value in settings.flat().items():
        table.add_row(key, str(value), settings.origins.get(key, "default"))
    console.print(table)
    console.print(f"[green]ok[/green] {settings.source}")
