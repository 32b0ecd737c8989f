"""`kgcrawl pipeline check|init`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from kgcrawl.cli.common import SetOption, console, pipeline_app

if TYPE_CHECKING:
    from kgcrawl.config import Settings


@pipeline_app.command("check")
def pipeline_check(
    domain_or_file: Annotated[str, typer.Argument(help="Domain name or pipeline .toml file.")],
    set_: SetOption = None,
) -> None:
    """Validate a pipeline and print every resolved setting with where it came from."""
    from rich.markup import escape

    from kgcrawl.calibrate import corpus_folders, readable_corpus, resolve_thresholds
    from kgcrawl.config import AUTO, load_settings, parse_overrides

    settings = load_settings(domain_or_file, parse_overrides(set_ or []))
    settings = resolve_thresholds(settings, compute=False)
    for title, table in _settings_view(settings):
        console.print(f"[bold]{escape(title)}[/bold]", soft_wrap=True)
        console.print(table)
    if settings.relevance.alpha == AUTO:  # not calibrated yet: the first crawl will, on these
        keys = ("calibration.positives", "calibration.negatives")
        for key, folder in zip(keys, corpus_folders(settings), strict=True):
            readable_corpus(folder, f"{settings.source}: {key} =")
    console.print(f"[green]ok[/green] {escape(str(settings.source))}", soft_wrap=True)


def _settings_view(settings: Settings) -> Iterator[tuple[str, Table]]:
    """Every resolved setting, grouped by where it came from (the pipeline file, the
    command line, the environment, α's calibration, the defaults): each group's title and
    a table of two columns without borders, whose keys never fold. At 80 columns a value
    has 47, so a path, a URL or a calibration's cache file stays whole; a list of text
    is one item a line."""
    from kgcrawl.fit import folding_table

    source = str(settings.source)
    flat = settings.flat()
    width = max(map(len, flat))
    groups: dict[str, list[tuple[str, Text]]] = {}
    for key, value in flat.items():
        group, note = _origin(settings.origins.get(key), source)
        if isinstance(value, tuple) and all(isinstance(item, str) for item in value):
            cell = Text("\n".join(value))
        elif isinstance(value, tuple):
            cell = Text(", ".join(map(str, value)))
        else:
            cell = Text(str(value))
        if note:
            cell.append(f" ({note})", "dim")
        groups.setdefault(group, []).append((key, cell))
    for group in sorted(groups, key=_GROUPS.index):
        table = folding_table("setting", "value", whole=("setting",), box=None,
                              show_header=False, pad_edge=False)  # fmt: skip
        table.columns[0].min_width = width
        for key, cell in groups[group]:
            table.add_row(key, cell)
        yield (f"from {source}" if group == _FILE else group), table


_FILE = "the pipeline file"
_GROUPS = (_FILE, "from the command line", "from the environment", "α and β", "defaults")


def _origin(origin: str | None, source: str) -> tuple[str, str]:
    """(group, note) of a setting's origin.

    >>> _origin("p.toml (file name)", "p.toml"), _origin("environment KGCRAWL_SEED", "p.toml")
    (('the pipeline file', 'file name'), ('from the environment', 'KGCRAWL_SEED'))
    """
    if origin in (None, "default"):
        return "defaults", ""
    if origin.startswith(source):
        return _FILE, origin[len(source) :].strip(" ()")
    if origin == "command line":
        return "from the command line", ""
    if origin.startswith("environment "):
        return "from the environment", origin.removeprefix("environment ")
    return "α and β", origin  # calibrated, cached, derived, or not yet


@pipeline_app.command("init")
def pipeline_init(
    name: Annotated[str, typer.Argument(help="The new domain's name (pipelines/NAME.toml).")],
    ontology: Annotated[
        Path, typer.Option("--ontology", help="The domain's ontology (.owl or .ttl).")
    ],
    seeds: Annotated[
        list[str],
        typer.Option("--seeds", help="A seed URL, or a file of URLs one a line (repeatable)."),
    ],
    language: Annotated[
        str, typer.Option("--language", help="en or zh: the language of the pages.")
    ] = "en",
    topic: Annotated[
        str | None,
        typer.Option("--topic", help="Topic concept label (default: the ontology's root)."),
    ] = None,
    folder: Annotated[Path, typer.Option("--dir", help="Folder of pipeline files.")] = Path(
        "pipelines"
    ),
    corpus: Annotated[
        Path | None,
        typer.Option(
            "--corpus", help="On-topic documents to calibrate α on (default: corpus/NAME)."
        ),
    ] = None,
) -> None:
    """Write a commented pipeline for a new domain (α and β "auto"); never overwrites."""
    from kgcrawl.scaffold import NewPipeline, init_pipeline

    new = NewPipeline(name, ontology, tuple(seeds), language, topic, folder, corpus)
    path = init_pipeline(new)
    console.print(f"written {path}", highlight=False, soft_wrap=True, markup=False)
    console.print(
        f"next: `kgcrawl pipeline check {path}`, then `kgcrawl crawl {path}`",
        highlight=False,
        soft_wrap=True,
    )
