"""What the crawl shows people: the live display, the closing summary, runs and exports."""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

from rich.console import Console
from rich.live import Live
from rich.table import Table

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
    """Why the crawl ended, with what to do when it ran dry."""
    if result.stopped:
        return f"stopped by a signal; continue with `kgcrawl crawl --resume {result.run_id}`"
    if result.dp >= result.max_pages:
        return "page budget reached"
    if result.pooled:
        return (
            f"Q_wait ran dry: no link left with P > β, {result.pooled} in the discarded pool "
            "(a lower relevance.beta lets the crawl go on)"
        )
    return "no links left to crawl"


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
        caption=stop_reason(result),
    )
    table.add_row(result.run_id, str(result.dp), str(result.lp),
                  f"{result.lp / result.dp:.1%}" if result.dp else "-", str(result.outcomes),
                  f"{result.seconds:.1f}",
                  f"{result.dp / result.seconds:.1f}" if result.seconds else "-",
                  str(result.state_path))  # fmt: skip
    return table


def runs_table() -> Table:
    table = Table("run", "domain", "strategy", "pages", "relevant", "finished")
    for path in sorted(runs_dir().glob("*/state.sqlite")):
        state = RunState(path)
        meta = state.meta()
        table.add_row(
            meta["run_id"],
            meta["domain"],
            meta["strategy"],
            str(meta.get("dp", 0)),
            str(meta.get("lp", 0)),
            "yes" if meta.get("finished") else "no",
        )
        state.close()
    return table


def run_details(run_id: str) -> Table:
    state = RunState.open(run_id)
    meta = state.meta()
    table = Table("key", "value", title=f"run {run_id}")
    for key in ("domain", "strategy", "pipeline", "started_at", "finished", "dp", "lp", "warc"):
        table.add_row(key, str(meta.get(key)))
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
    world = World(sandbox["seed"], sandbox["size"])

    def lookup(url: str) -> bool:
        return world.truth(url).relevant(domain)

    return lookup, None
