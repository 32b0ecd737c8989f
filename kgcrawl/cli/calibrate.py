"""`kgcrawl calibrate`: α and β for a domain's ontology (on-topic vs off-topic documents)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgcrawl.cli.common import SetOption, app, console


@app.command("calibrate")
def calibrate(
    domain: Annotated[str, typer.Argument(help="Domain (pipelines/<name>.toml) or pipeline file.")],
    positives: Annotated[
        Path | None, typer.Option(help="On-topic documents (default: corpus/<domain>).")
    ] = None,
    negatives: Annotated[
        Path | None, typer.Option(help="Off-topic documents (default: corpus/background).")
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option(help="Lowest α with at least this precision (default: best F1)."),
    ] = None,
    set_: SetOption = None,
) -> None:
    """Score on-topic and off-topic documents as pages; choose α and β; cache them."""
    from rich.table import Table

    from kgcrawl.calibrate import calibrate as run_calibration
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.crawl.strategies.base import uses_keywords

    overrides = parse_overrides(set_ or [])
    for key, value in (("positives", positives), ("negatives", negatives)):
        if value is not None:
            overrides[f"calibration.{key}"] = str(value.resolve())
    if precision is not None:
        overrides["calibration.precision"] = precision
    settings = load_settings(domain, overrides)
    result = run_calibration(settings, uses_keywords(settings))
    table = Table("documents", "count", "p10", "p50", "p90", "max", title=f"R(p) of {domain}")
    for name, scores in (("on-topic", result.positives), ("off-topic", result.negatives)):
        ordered = sorted(scores)
        cells = [ordered[int(q * (len(ordered) - 1))] for q in (0.1, 0.5, 0.9, 1.0)]
        table.add_row(name, str(len(scores)), *(f"{x:.3f}" for x in cells))
    console.print(table)
    s = result.separation
    console.print(
        f"α = {result.alpha:.2f}  (R(p) > α: precision {s.precision or 0:.1%}, "
        f"recall {s.recall or 0:.1%}, F1 {s.f1:.3f})\nβ = {result.beta:.4f}  "
        f"(r2 · α · {settings.calibration.beta_margin})",
        highlight=False,
    )
    console.print(f"plot: {result.plot}", highlight=False, soft_wrap=True)
