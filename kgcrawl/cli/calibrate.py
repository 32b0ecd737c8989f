"""`kgcrawl calibrate`: α and β for a domain's ontology (on-topic vs off-topic documents,
or pages of a crawl the user labelled)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kgcrawl.cli.common import SetOption, app, console

if TYPE_CHECKING:
    from kgcrawl.calibrate import Thresholds
    from kgcrawl.config import Settings


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
    truth: Annotated[
        Path | None,
        typer.Option(
            help='Calibrate on labelled pages instead: JSON Lines of {"url", "relevant"} '
            "(with --run).",
        ),
    ] = None,
    run: Annotated[
        str | None,
        typer.Option("--run", help="The crawl whose pages --truth labels; α is for its strategy."),
    ] = None,
    set_: SetOption = None,
) -> None:
    """Score on-topic and off-topic documents as pages; choose α and β; cache them.

    With --truth and --run, α is chosen on the pages of that crawl the manifest
    labels instead, for crawls with the run's strategy (others keep the corpora's).
    """
    from kgcrawl.calibrate import calibrate as run_calibration
    from kgcrawl.calibrate import labelled_entry
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.crawl.strategies.base import uses_keywords
    from kgcrawl.labelled import wants_labels

    labelled = wants_labels(truth, run)
    overrides = parse_overrides(set_ or [])
    for key, value in (("positives", positives), ("negatives", negatives)):
        if value is not None:
            overrides[f"calibration.{key}"] = str(value.resolve())
    if precision is not None:
        overrides["calibration.precision"] = precision
    settings = load_settings(domain, overrides)
    if labelled:
        _labelled(settings, domain, str(run), Path(str(truth)))
        return
    keywords = uses_keywords(settings)
    dropped = labelled_entry(settings, keywords).exists()
    result = run_calibration(settings, keywords)
    _report(domain, "documents", ("on-topic", "off-topic"), result, settings)
    if dropped:
        console.print(
            f"crawls with {settings.crawl.strategy} no longer use the α of labelled pages",
            highlight=False,
        )


def _labelled(settings: Settings, domain: str, run: str, truth: Path) -> None:
    from kgcrawl.labelled import STEADY_PAGES, calibrate_labelled

    done = calibrate_labelled(settings, run, truth)
    result, pages = done.thresholds, done.pages
    _report(domain, "labelled pages", ("relevant", "not relevant"), result, settings)
    ontology = "" if done.ontology == settings.ontology else f" --ontology {done.ontology}"
    console.print(
        f"the corpora's α = {done.corpus.alpha:.2f} has F1 {done.corpus_f1:.3f} on these pages\n"
        f"crawls with {result.strategy}{ontology} now use α = {result.alpha:.2f}",
        highlight=False,
        soft_wrap=True,
    )
    left = [f"{pages.unlisted} not in {truth}"] if pages.unlisted else []
    if pages.other_ontology:
        left.append(f"{pages.other_ontology} counted with another ontology")
    if left:
        console.print("pages left out: " + ", ".join(left), highlight=False, soft_wrap=True)
    if pages.count < STEADY_PAGES:
        console.print(
            f"{pages.count} labelled pages: {STEADY_PAGES} or more make α steadier",
            highlight=False,
        )


def _report(
    domain: str, what: str, names: Sequence[str], result: Thresholds, settings: Settings
) -> None:
    """The two R(p) distributions, the chosen α and β, and where the plot is."""
    from rich.table import Table

    from kgcrawl.calibrate import NOT_CACHED, weak_separation

    table = Table(what, "count", "p10", "p50", "p90", "max", title=f"R(p) of {domain}")
    for name, scores in zip(names, (result.positives, result.negatives), strict=True):
        ordered = sorted(scores)
        cells = [ordered[int(q * (len(ordered) - 1))] for q in (0.1, 0.5, 0.9, 1.0)]
        table.add_row(name, str(len(scores)), *(f"{x:.3f}" for x in cells))
    console.print(table)
    if result.left_out:
        near = ", ".join(f"{name} (median R {r:.2f})" for name, r in result.left_out.items())
        console.print(
            f"left out of the off-topic documents, as on topic as the on-topic ones: {near}",
            highlight=False,
        )
    s = result.separation
    console.print(
        f"α = {result.alpha:.2f}  (R(p) > α: precision {s.precision or 0:.1%}, "
        f"recall {s.recall or 0:.1%}, F1 {s.f1:.3f})\nβ = {result.beta:.4f}  "
        f"(r2 · α · {settings.calibration.beta_margin})",
        highlight=False,
    )
    kept = result.origin if result.origin.startswith(NOT_CACHED) else f"plot: {result.plot}"
    console.print(kept, highlight=False, soft_wrap=True, markup=False)
    warning = weak_separation(result, domain)
    if warning:
        console.print(warning, style="yellow", highlight=False, markup=False)
