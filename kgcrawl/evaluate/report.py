"""The evaluation report: metrics.csv, summary.md (the paper's Tables 2 and 3), PNG plots.

`metrics.csv` has one row per strategy × domain × repeat × checkpoint (every
`report_every` pages and the last page), with these columns:

| column | meaning |
| --- | --- |
| strategy | strategy name (`bfs`, `fcits_oh`, …) |
| domain | the pipeline's domain |
| repeat | repeat number, from 0 |
| dp | pages downloaded so far (DP) |
| lp | of them, pages with R(p) > α (LP) |
| ac | LP / DP (Eq. 10), a fraction |
| ar | mean R(p) (Eq. 11) |
| sd | population standard deviation of R(p) (Eq. 12) |
| true_harvest | truly relevant pages / DP; empty without ground truth |
| recall | share of the known relevant pages downloaded (run._rescore); empty without truth |
| ended | how its run ended: budget, frontier exhausted, signal, error; early (why not known) |

`summary.md` holds, per domain, a table in the style of Table 2 (each
strategy's values at the largest DP every run reached, the best of each column
in bold; means over repeats) and a Friedman-rank table in the style of Table 3
(metrics.py) at the same DP; both say which DP, and flag (†) the strategies of
a run that ended before its budget. The plots, one per metric and domain
(`<domain>-<metric>.png`), draw the metric against DP with one line per
strategy (means over repeats), as the paper's Figs. 2–9; a metric with no value
(no truth) or zero everywhere is not drawn, and the summary says so. These are
the files of an evaluation (`report_files`): `kgcrawl evaluate` writes into a
folder that holds them only with --force, and removes them first. Labels are
English, so no CJK font is needed. On the sandbox, summary.md also
says how well R(p) > α picks the truly relevant pages, at the pipeline's α and
at the α with the best F1: whether α suits the ontology's R(p) at all; with a
--truth file, it gives the `kgcrawl calibrate --truth --run` command per strategy.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from statistics import fmean
from typing import TYPE_CHECKING

from kgcrawl.crawl.ended import ended_early
from kgcrawl.evaluate.metrics import (
    HIGHER_IS_BETTER,
    Comparison,
    EvaluationError,
    MetricsRow,
    compared_rows,
    friedman_from_rows,
)
from kgcrawl.scoring.thresholds import best_separation, separation

if TYPE_CHECKING:
    from kgcrawl.evaluate.judge import TruthScores

CSV_COLUMNS = tuple(f.name for f in fields(MetricsRow))
PLOTTED = ("lp", "ac", "ar", "sd", "true_harvest", "recall")
AXIS_LABEL = {
    "lp": "LP (relevant pages downloaded)",
    "ac": "AC = LP / DP",
    "ar": "AR (mean relevance R(p))",
    "sd": "SD of R(p)",
    "true_harvest": "true harvest rate (truly relevant / DP)",
    "recall": "recall of the relevant pages",
}
TITLE = {"lp": "LP", "ac": "AC", "ar": "AR", "sd": "SD", "true_harvest": "True harvest",
         "recall": "Recall"}  # fmt: skip
SHARES = ("ac", "true_harvest", "recall")  # fractions, shown as percentages
_INTS = {"repeat", "dp", "lp"}
_TEXTS = {"strategy", "domain"}
_OPTIONAL = {"true_harvest", "recall", "ended"}
EARLY_MARK = "†"
PLOT_FILES = tuple(f"*-{metric}.png" for metric in PLOTTED)  # `plot_metrics`'s, any domain
REPORT_FILES = ("metrics.csv", "summary.md", *PLOT_FILES)


def write_metrics_csv(rows: Iterable[MetricsRow], path: str | Path) -> Path:
    """metrics.csv with CSV_COLUMNS; unknown values are empty cells."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: "" if v is None else v for k, v in asdict(row).items()})
    return path


def read_metrics_csv(path: str | Path) -> list[MetricsRow]:
    """Rows back from a metrics.csv (to redraw a report, or merge runs made apart)."""
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8") as src:
            reader = csv.DictReader(src)
            if tuple(reader.fieldnames or ()) != CSV_COLUMNS:
                raise EvaluationError(f"{path}: expected the columns {', '.join(CSV_COLUMNS)}")
            return [_row(record, path, n) for n, record in enumerate(reader, start=2)]
    except FileNotFoundError:
        raise EvaluationError(f"{path}: no such metrics file") from None


def _row(record: dict[str, str], path: Path, line: int) -> MetricsRow:
    values: dict[str, object] = {}
    try:
        for name in CSV_COLUMNS:
            text = record[name]
            if name in _OPTIONAL and text == "":
                values[name] = None
            elif name in _TEXTS or name == "ended":
                values[name] = text
            else:
                values[name] = int(text) if name in _INTS else float(text)
    except (TypeError, ValueError) as exc:
        raise EvaluationError(f"{path} line {line}: {exc}") from None
    return MetricsRow(**values)  # type: ignore[arg-type]


def summary_markdown(rows: Sequence[MetricsRow], title: str = "Evaluation") -> str:
    """Tables 2 and 3 per domain, as Markdown."""
    if not rows:
        raise EvaluationError("no metrics rows to summarise")
    lines = [f"# {title}", ""]
    for domain in dict.fromkeys(row.domain for row in rows):
        mine = [row for row in rows if row.domain == domain]
        lines += _domain_section(domain, mine)
    return "\n".join(lines)


def _domain_section(domain: str, rows: list[MetricsRow]) -> list[str]:
    compared = compared_rows(rows)
    finals = compared.rows
    strategies = list(dict.fromkeys(row.strategy for row in finals))
    repeats = len({row.repeat for row in finals})
    early = early_runs(finals)
    means = {
        name: {
            column: _mean([getattr(r, column) for r in finals if r.strategy == name])
            for column in ("dp", *PLOTTED)
        }
        for name in strategies
    }
    best = {
        column: _best([means[name][column] for name in strategies], HIGHER_IS_BETTER[column])
        for column in PLOTTED
    }
    of_repeats = f", means of {repeats} repeats" if repeats > 1 else ""
    lines = [
        f"## {domain}",
        "",
        f"Values {at_dp(compared)} (Table 2 style{of_repeats}; best in bold).",
        "",
        "| Strategy | DP | LP | AC | AR | SD | True harvest | Recall |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in strategies:
        cells = [_flagged(name, early), _number(means[name]["dp"])]
        for column in PLOTTED:
            value = means[name][column]
            text = _format(column, value)
            cells.append(f"**{text}**" if value is not None and value == best[column] else text)
        lines.append("| " + " | ".join(cells) + " |")
    lines += _early_note(early)
    lines += ["", *_friedman_section(rows, compared, early), *_unplotted_note(rows), ""]
    return lines


def at_dp(compared: Comparison) -> str:
    """Which DP the runs are compared at, and why that one."""
    if compared.dp == compared.reached:
        return f"at DP = {compared.dp:,}, the largest every run reached"
    return (
        f"at DP = {compared.dp:,}, the largest at which every run has a row "
        f"(every run reached {compared.reached:,})"
    )


def early_runs(rows: Iterable[MetricsRow]) -> dict[str, list[str]]:
    """Strategy → how its runs that ended before their budget ended ("frontier exhausted", …)."""
    early: dict[str, list[str]] = {}
    seen: set[tuple[str, str, int]] = set()
    for row in rows:
        run = (row.strategy, row.domain, row.repeat)
        if run not in seen and ended_early(row.ended):
            seen.add(run)
            early.setdefault(row.strategy, []).append(f"{row.ended}, repeat {row.repeat}")
    return early


def _flagged(strategy: str, early: dict[str, list[str]]) -> str:
    return f"{_display(strategy)} {EARLY_MARK}" if strategy in early else _display(strategy)


def _early_note(early: dict[str, list[str]]) -> list[str]:
    if not early:
        return []
    runs = "; ".join(f"{_display(name)} ({', '.join(how)})" for name, how in early.items())
    return ["", f"{EARLY_MARK} a run ended before its page budget: {runs}."]


def _friedman_section(
    rows: list[MetricsRow], compared: Comparison, early: dict[str, list[str]]
) -> list[str]:
    table = friedman_from_rows(rows)
    header = " | ".join(m.upper() for m in table.metrics)
    lines = [
        f"Friedman average ranks {at_dp(compared)} (Table 3 style; 1 = best, LP, AC, AR "
        "higher is better, SD lower).",
        "",
        f"| Strategy | {header} | Average |",
        "| --- |" + " ---: |" * (len(table.metrics) + 1),
    ]
    for name in table.strategies:
        ranks = " | ".join(f"{table.ranks[name][m]:.4g}" for m in table.metrics)
        lines.append(f"| {_flagged(name, early)} | {ranks} | {table.average[name]:.4g} |")
    if table.statistic is not None:
        lines += [
            "",
            f"Friedman χ² = {table.statistic:.2f} over {table.blocks} rankings of "
            f"{len(table.strategies)} strategies, p = {table.p_value:.3g}.",
        ]
    return lines


def _unplotted_note(rows: list[MetricsRow]) -> list[str]:
    skipped = unplotted(rows)
    if not skipped:
        return []
    listed = "; ".join(f"{AXIS_LABEL[metric]} ({why})" for metric, why in skipped.items())
    return ["", f"Not plotted: {listed}."]


def unplotted(rows: Sequence[MetricsRow]) -> dict[str, str]:
    """Metrics with nothing to draw, and why: not measured (no truth), or zero everywhere."""
    skipped = {}
    for metric in PLOTTED:
        values = [getattr(row, metric) for row in rows]
        if all(value is None for value in values):
            skipped[metric] = "not measured"
        elif all(not value for value in values):
            skipped[metric] = "zero everywhere"
    return skipped


def plot_metrics(rows: Sequence[MetricsRow], out_dir: str | Path) -> list[Path]:
    """One PNG per metric and domain, metric against DP, one line per strategy.

    Metrics with nothing to draw (`unplotted`) get no PNG.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for domain in dict.fromkeys(row.domain for row in rows):
        mine = [row for row in rows if row.domain == domain]
        skipped = unplotted(mine)
        labels = _legend(mine)
        for metric in PLOTTED:
            if metric in skipped:
                continue
            curves = {label: _mean_curve([r for r in mine if r.strategy == name], metric)
                      for name, label in labels.items()}  # fmt: skip
            path = out_dir / f"{domain}-{metric}.png"
            metric_figure(metric, domain, curves).savefig(path, format="png")
            written.append(path)
    return written


def metric_figure(metric: str, domain: str, curves: dict[str, list[tuple[float, float]]]):
    """A metric against DP, a line per legend label; shares in percent, as the tables give them.

    >>> ax = metric_figure("recall", "tourism", {"BFS": [(500, 0.2), (1000, 0.3)]}).axes[0]
    >>> ax.get_title(), ax.yaxis.get_major_formatter()(0.25, 0).endswith("%")
    ('Recall against DP (tourism)', True)
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    fig = Figure(figsize=(7, 4.5), dpi=100)
    ax = fig.add_subplot()
    for label, points in curves.items():
        ax.plot(*zip(*points, strict=True), marker=".", label=label)
    ax.set_xlabel("DP (pages downloaded)")
    ax.set_ylabel(AXIS_LABEL[metric])
    ax.set_title(f"{TITLE[metric]} against DP ({domain})")
    if metric in SHARES:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def _legend(rows: list[MetricsRow]) -> dict[str, str]:
    """Strategy → its legend label, saying where a line stops short of the others and why."""
    ends: dict[str, int] = {}
    for row in rows:
        ends[row.strategy] = max(ends.get(row.strategy, 0), row.dp)
    early, longest = early_runs(rows), max(ends.values())
    labels = {}
    for name, end in ends.items():
        if name in early:
            labels[name] = f"{_display(name)} (ended early, DP {end:,})"
        elif end < longest:
            labels[name] = f"{_display(name)} ({end:,}-page crawl)"
        else:
            labels[name] = _display(name)
    return labels


def write_report(
    rows: Sequence[MetricsRow], out_dir: str | Path, title: str = "Evaluation"
) -> list[Path]:
    """metrics.csv, summary.md and the plots in `out_dir`; returns the files written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = out_dir / "summary.md"
    summary.write_text(summary_markdown(rows, title) + "\n", encoding="utf-8")
    return [write_metrics_csv(rows, out_dir / "metrics.csv"), summary, *plot_metrics(rows, out_dir)]


def report_files(out_dir: Path) -> list[Path]:
    """The files of an evaluation in `out_dir` (REPORT_FILES: plots of any domain), so that a
    new one neither replaces them unasked nor leaves an earlier domain's plots beside it."""
    found = {path for pattern in REPORT_FILES for path in out_dir.glob(pattern)}
    return sorted(path for path in found if path.is_file())


def _mean_curve(rows: list[MetricsRow], metric: str) -> list[tuple[float, float]]:
    """(DP, mean over repeats) at every DP a checkpoint was taken, in DP order."""
    by_dp: dict[int, list[float]] = {}
    for row in rows:
        value = getattr(row, metric)
        if value is not None:
            by_dp.setdefault(row.dp, []).append(value)
    return [(dp, fmean(values)) for dp, values in sorted(by_dp.items())]


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return fmean(known) if known and len(known) == len(values) else None


def _best(values: list[float | None], higher: bool) -> float | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    return max(known) if higher else min(known)


def separation_markdown(scores: TruthScores, alpha: float) -> str:
    """How well the crawl's judgement matches the truth, beside the best-F1 threshold's.

    The judgement is the crawl's own, from its log: R(p) > α, with the α recalibrated on
    the web if the crawl did so (crawl/core.py `_judge_pending`), or the keyword model's α of a
    strategy that weighs every topic word alike.
    """
    relevant, irrelevant = scores.relevant, scores.irrelevant
    if not relevant:
        return ""
    best = best_separation(relevant, irrelevant)
    own = scores.own(alpha)
    fixed = separation(relevant, irrelevant, alpha)
    moved = (own.above, own.precision) != (fixed.above, fixed.precision)
    label = f"as crawled (α {alpha:.2f} at the start)" if moved else f"{alpha:.2f} (the crawl's)"
    rows = [(label, own), (f"{best.alpha:.2f} (best F1)", best)]
    lines = [
        "## α against the truth",
        "",
        f"R(p) of the {len(relevant) + len(irrelevant):,} pages downloaded, "
        f"{len(relevant):,} of them truly relevant: LP counts R(p) > α, the truth says "
        "which pages are relevant.",
        "",
        "| α | pages above α | precision | recall | F1 |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {label} | {s.above:,} | {_percent(s.precision)} | {_percent(s.recall)} | {s.f1:.3f} |"
        for label, s in rows
    ]
    return "\n".join(lines) + "\n\n"


def labelled_markdown(domain: str, truth: Path, runs: Sequence[tuple[str, str]]) -> str:
    """How to judge later crawls of this world with α chosen on the file's labels.

    `runs` are (strategy, run id), one per strategy: an α from labels serves
    the strategy whose crawl they label (kgcrawl/labelled.py).
    """
    if not runs:
        return ""
    lines = [
        "To judge later crawls of this world with an α chosen on these labels, one strategy",
        "at a time (`kgcrawl/labelled.py` says why):",
        "",
        *(
            f"    kgcrawl calibrate {domain} --truth {truth} --run {run_id}   # {strategy}"
            for strategy, run_id in runs
        ),
    ]
    return "\n".join(lines) + "\n\n"


def _format(column: str, value: float | None) -> str:
    if value is None:
        return "–"
    if column == "lp":
        return _number(value)
    if column in SHARES:
        return _percent(value)
    return f"{value:.4f}"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.2%}".replace("%", " %")


def _number(value: float | None) -> str:
    """Counts as integers, or with one decimal when a mean over repeats is not whole."""
    if value is None:
        return "–"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _display(strategy: str) -> str:
    """The paper's spelling: fcits_oh → FCITS_OH."""
    return strategy.upper()
