"""What the crawl shows people: the live display, the closing summary, runs and exports."""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

import numpy as np
from rich.console import Console
from rich.live import Live
from rich.table import Table

from kgcrawl.crawl.ended import BUDGET, SIGNAL, ended_text
from kgcrawl.crawl.engine import CrawlResult, Progress
from kgcrawl.crawl.state import RunState, runs_dir

REFRESH_SECONDS = 0.25


def progress_line(p: Progress) -> str:
    share = f"{p.dp / p.max_pages:.0%}" if p.max_pages else ""
    return (
        f"[bold]{p.run_id}[/bold]  pages {p.dp}/{p.max_pages} {share}  relevant {p.lp}  "
        f"harvest {p.harvest:.1%}  {p.rate:.1f} pages/s  Q_wait {p.queued} "
        f"({p.hosts} hosts)  failures {p.failures}"
    )


@contextmanager
def live_progress(console: Console) -> Iterator[Callable[[Progress], None]]:
    """A callback that keeps one live status line, redrawn at most four times a second."""
    last = [0.0]
    with Live(console=console, transient=False, refresh_per_second=4) as live:

        def show(p: Progress) -> None:
            now = time.monotonic()
            if now - last[0] >= REFRESH_SECONDS or p.dp >= p.max_pages:
                last[0] = now
                live.update(progress_line(p))

        yield show


def stop_reason(result: CrawlResult) -> str:
    """Why the crawl ended, with what to do next when there is something to do."""
    if result.ended == SIGNAL:
        return f"stopped by a signal; continue with `kgcrawl crawl --resume {result.run_id}`"
    promoted = (
        f"; {result.promoted} links promoted from the discarded pool when Q_wait ran dry"
        if result.promoted
        else ""
    )
    if result.ended == BUDGET:
        return "page budget reached" + promoted
    return "frontier exhausted: no unvisited link left" + promoted


def relevance_line(result: CrawlResult) -> str:
    """The R(p) distribution of the pages downloaded; what to do when none passed α."""
    if not result.relevances:
        return "no page downloaded"
    p10, p50, p90 = np.percentile(result.relevances, [10, 50, 90])
    line = f"R(p) of {len(result.relevances)} pages: p10 {p10:.3f}  p50 {p50:.3f}  p90 {p90:.3f}"
    if result.lp == 0:
        line += (
            f"\nno page passed α = {result.alpha:.3f} (highest R(p) {max(result.relevances):.3f});"
            " `kgcrawl calibrate DOMAIN` recalibrates α for the ontology"
        )
    return line


def crawl_summary(result: CrawlResult) -> Table:
    table = Table(
        "run",
        "pages (DP)",
        "relevant (LP)",
        "harvest",
        "outcomes",
        "seconds",
        "pages/s",
        "state",
        title="crawl " + ("stopped" if result.stopped else "done"),
        caption=stop_reason(result) + "\n" + relevance_line(result),
    )
    table.add_row(result.run_id, str(result.dp), str(result.lp),
                  f"{result.lp / result.dp:.1%}" if result.dp else "-", str(result.outcomes),
                  f"{result.seconds:.1f}",
                  f"{result.dp / result.seconds:.1f}" if result.seconds else "-",
                  str(result.state_path))  # fmt: skip
    return table


def runs_table() -> Table:
    table = Table("run", "domain", "strategy", "pages", "relevant", "ended")
    for path in sorted(runs_dir().glob("*/state.sqlite")):
        state = RunState(path)
        meta = state.meta()
        table.add_row(
            meta["run_id"],
            meta["domain"],
            meta["strategy"],
            str(meta.get("dp", 0)),
            str(meta.get("lp", 0)),
            ended_text(meta),
        )
        state.close()
    return table


def run_details(run_id: str) -> Table:
    state = RunState.open(run_id)
    meta = state.meta()
    table = Table("key", "value", title=f"run {run_id}")
    for key in ("domain", "strategy", "pipeline", "started_at", "dp", "lp", "warc"):
        table.add_row(key, str(meta.get(key)))
    table.add_row("ended", ended_text(meta))
    for key, value in sorted(meta.get("overrides", {}).items()):
        table.add_row(f"set {key}", str(value))
    for version in meta.get("ontologies", []):
        table.add_row(f"ontology from outcome {version['first']}", version["path"])
    for reason, count in state.query(
        "SELECT reason, count(*) FROM outcomes WHERE reason IS NOT NULL "
        "GROUP BY reason ORDER BY count(*) DESC LIMIT 20"
    ):
        table.add_row(f"failed: {reason}", str(count))
    state.close()
    return table


EXPORT_COLUMNS = ("order", "url", "final_url", "host", "status", "reason", "relevance",
                  "relevant", "truth", "title")  # fmt: skip


def export_csv(run_id: str, out: IO[str]) -> str | None:
    """Outcomes in crawl order; `truth` is the sandbox's label when the run crawled it.

    Returns why the truth column is empty on a sandbox run (the sandbox has no
    truth for its domain), else None.
    """
    state = RunState.open(run_id)
    meta = state.meta()
    truth, no_truth = _truth_lookup(meta)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for o in state.outcomes():
        label = truth(o.final_url) if truth and o.downloaded else None
        writer.writerow([o.seq, o.url, o.final_url, o.host, o.status, o.reason or "",
                         "" if o.relevance is None else f"{o.relevance:.6f}", int(o.relevant),
                         "" if label is None else int(label), o.title])  # fmt: skip
    state.close()
    return no_truth


def _truth_lookup(meta: dict) -> tuple[Callable[[str], bool] | None, str | None]:
    """The sandbox's label of a URL for the run's domain, or (None, why not) off its domains."""
    sandbox = meta.get("sandbox")
    if not sandbox:
        return None, None
    from kgcrawl.sandbox.truth import no_truth
    from kgcrawl.sandbox.world import World

    domain = meta["domain"]
    reason = no_truth(domain)
    if reason is not None:
        return None, f"{reason}: the truth column is empty"
    world = World(sandbox["seed"], sandbox["size"], sandbox.get("profile", "default"))

    def lookup(url: str) -> bool:
        return world.truth(url).relevant(domain)

    return lookup, None
