"""The demo's `report.md`: what every stage of `kgcrawl demo` produced, as Markdown.

Sections: stage times, the ontology built, the fcits_oh crawl's metrics by
checkpoint and how well R(p) > α matched the truth, fcits_oh against the BFS
baseline, the saved queries, the new terms of the refresh, and the plots (with
the metrics not drawn and why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgcrawl.demo import BASELINE, STRATEGY, DemoResult
from kgcrawl.evaluate.metrics import MetricsRow

if TYPE_CHECKING:
    from kgcrawl.crawl.engine import CrawlResult


def report_markdown(result: DemoResult) -> str:
    """The demo's report: stage times, ontology, crawl metrics, queries, new terms, plots."""
    opts = result.options
    lines = [
        "# kgcrawl demo",
        "",
        f"The whole mission offline: an FCA ontology from `corpus/{opts.domain}` merged into the "
        f"shipped one, a `{STRATEGY}` crawl of {opts.max_pages:,} pages of the sandbox web "
        f"(world seed {opts.seed}, size {opts.sandbox_size}, profile {opts.sandbox_profile}, "
        f"{opts.workers} workers, "
        "fetch.delay 0: the sandbox's server is ours) into the embedded knowledge graph, a "
        f"`{BASELINE}` crawl of the same world and budget to measure it against, three saved "
        "queries, and a refresh of the ontology from the crawl.",
        "",
        "## Stage times",
        "",
        *_table(
            ["stage", "seconds"],
            [[name, f"{seconds:.1f}"] for name, seconds in result.seconds.items()]
            + [["total", f"{result.total_seconds:.1f}"]],
        ),
        "",
        *_ontology_section(result),
        *_crawl_section(result),
        *_baseline_section(result),
        *_queries_section(result),
        *_refresh_section(result),
        *_plots_section(result),
    ]
    return "\n".join(lines)


def _ontology_section(result: DemoResult) -> list[str]:
    if result.build is None:
        return []
    rows = [[what, value] for what, value in result.build.summary()]
    return ["## Ontology", "", *_table(["what", "value"], rows), ""]


def _crawl_section(result: DemoResult) -> list[str]:
    crawl = result.crawl
    if crawl is None:
        return []
    rate = crawl.dp / crawl.seconds if crawl.seconds else 0.0
    lines = [
        "## Crawl",
        "",
        f"Run `{crawl.run_id}` ({crawl.state_path}): {crawl.dp:,} pages downloaded of "
        f"{crawl.outcomes:,} links fetched in {crawl.seconds:.1f} s ({rate:.1f} pages/s). "
        f"LP, AC, AR and SD judge the pages by the crawler's own relevance R(p) (Eq. 10–12; "
        f"relevant: R(p) > α = {result.alpha:.2f}{_recalibrated(crawl)}); the true harvest "
        "rate by the sandbox's ground truth.",
        "",
    ]
    if result.no_truth:
        lines += [f"Note: {result.no_truth}.", ""]
    rows = [
        [f"{r.dp:,}", f"{r.lp:,}", f"{r.ac:.2%}", f"{r.ar:.4f}", f"{r.sd:.4f}",
         _percent(r.true_harvest)]
        for r in result.rows if r.strategy == STRATEGY
    ]  # fmt: skip
    lines += [*_table(["DP", "LP", "AC", "AR", "SD", "true harvest"], rows), ""]
    if result.truth_scores is not None and result.alpha is not None:
        from kgcrawl.evaluate.report import separation_markdown

        scores = result.truth_scores
        lines += [
            separation_markdown(scores, result.alpha).rstrip(),
            "",
        ]
    return lines


def _recalibrated(crawl: CrawlResult) -> str:
    """When the crawl recalibrated α on the web's topic words (crawl/core.py `_judge_pending`)."""
    from kgcrawl.scoring.web_alpha import recalibrated

    web = crawl.web_alpha
    if web is None:
        return ""
    return f", which {recalibrated(web.record())}"


def _baseline_section(result: DemoResult) -> list[str]:
    """fcits_oh's true harvest and LP beside BFS's at every checkpoint."""
    from kgcrawl.crawl.ended import ended_early

    baseline = result.baseline
    if baseline is None:
        return []
    lines = [
        f"## Against {BASELINE.upper()}",
        "",
        f"Run `{baseline.run_id}`: `{BASELINE}` on the same world with the same workers and "
        f"ontology, without the graph ({baseline.dp:,} pages in {baseline.seconds:.1f} s). "
        f"{_baseline_budget(result)} The plots draw both crawls.",
        "",
    ]
    by_run: dict[str, dict[int, MetricsRow]] = {}
    for row in result.rows:
        by_run.setdefault(row.strategy, {})[row.dp] = row
    for strategy, rows in by_run.items():
        ended = next(iter(rows.values())).ended
        if ended_early(ended):
            lines += [f"`{strategy}` ended before its budget ({ended}).", ""]
    header = ["DP"]
    for strategy in (STRATEGY, BASELINE):
        header += [f"{strategy} true harvest", f"{strategy} LP"]
    table = []
    for dp in sorted({dp for rows in by_run.values() for dp in rows}):
        cells = [f"{dp:,}"]
        for strategy in (STRATEGY, BASELINE):
            row = by_run.get(strategy, {}).get(dp)
            cells += ["–", "–"] if row is None else [_percent(row.true_harvest), f"{row.lp:,}"]
        table.append(cells)
    return [*lines, *_table(header, table), ""]


def _baseline_budget(result: DemoResult) -> str:
    opts = result.options
    if opts.baseline_budget >= opts.max_pages:
        return "Same budget as the focused crawl."
    why = "" if opts.baseline_pages else " (half of it by default, to keep the demo short)"
    return (
        f"Its budget is {opts.baseline_budget:,} pages of the focused crawl's "
        f"{opts.max_pages:,}{why}: compare the two up to DP = {opts.baseline_budget:,}."
    )


def _plots_section(result: DemoResult) -> list[str]:
    lines = ["## Plots", "", *[f"![{path.stem}]({path.name})" for path in result.plots], ""]
    if result.unplotted:
        dropped = "; ".join(f"{metric} ({why})" for metric, why in result.unplotted.items())
        lines += [f"Not drawn: {dropped}.", ""]
    return lines


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.2%}"


def _queries_section(result: DemoResult) -> list[str]:
    from kgcrawl.graph.queries import load_saved
    from kgcrawl.graph.view import readable_rows

    lines = ["## Queries", ""]
    for name, query_result in result.queries:
        lines += [f"### {name}", "", load_saved(name).summary, ""]
        if query_result.rows:
            lines += _table(query_result.columns, readable_rows(query_result))
        else:
            lines.append("(no rows)")
        lines.append("")
    return lines


def _refresh_section(result: DemoResult) -> list[str]:
    lines = ["## New terms", ""]
    refresh = result.refresh
    if refresh is None:
        return [*lines, f"No refresh: {result.refresh_skipped}", ""]
    if refresh.added:
        rows = [
            [t.term, t.parent_label, str(t.relevant_pages), str(t.irrelevant_pages),
             str(t.background), f"{t.score:.3f}"]
            for t in refresh.added
        ]  # fmt: skip
        header = ["term", "placed under", "relevant pages", "irrelevant pages", "off-topic docs"]
        lines += _table([*header, "score"], rows)
    else:
        lines.append("No new term passed the thresholds.")
    return [*lines, "", *_table(["what", "value"], [list(row) for row in refresh.summary()]), ""]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table; `|` in cells escaped."""

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return [line(header), "|" + " --- |" * len(header), *(line(row) for row in rows)]
