"""`kgcrawl pipeline check|init`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgcrawl.cli.common import SetOption, console, pipeline_app


@pipeline_app.command("check")
def pipeline_check(
    domain_or_file: Annotated[str, typer.Argument(help="Domain name or pipeline .toml file.")],
    set_: SetOption = None,
) -> None:
    """Validate a pipeline and print every resolved setting with where it came from."""
    from rich.markup import escape

    from kgcrawl.calibrate import corpus_folders, readable_corpus, resolve_thresholds
    from kgcrawl.config import AUTO, load_settings, parse_overrides
    from kgcrawl.fit import folding_table

    settings = load_settings(domain_or_file, parse_overrides(set_ or []))
    settings = resolve_thresholds(settings, compute=False)
    table = folding_table("setting", "value", "from", title=f"pipeline {settings.domain}")
    source = str(settings.source)
    for key, value in settings.flat().items():
        origin = settings.origins.get(key, "default").replace(source, "pipeline file")
        table.add_row(key, str(value), origin)
    console.print(table)
    if settings.relevance.alpha == AUTO:  # not calibrated yet: the first crawl will, on these
        keys = ("calibration.positives", "calibration.negatives")
        for key, folder in zip(keys, corpus_folders(settings), strict=True):
            readable_corpus(folder, f"{settings.source}: {key} =")
    console.print(f"[green]ok[/green] {escape(str(settings.source))}", soft_wrap=True)


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
