"""What an evaluation shows people: a progress bar per crawl and the final values."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kgcrawl.crawl.ended import ended_early
from kgcrawl.evaluate.jobs import CrawlStatus
from kgcrawl.evaluate.metrics import MetricsRow, compared_rows
from kgcrawl.evaluate.report import EARLY_MARK, at_dp, early_runs
from kgcrawl.fit import Records


@contextmanager
def evaluation_progress(console: Console) -> Iterator[Callable[[CrawlStatus], None]]:
    """A callback drawing one bar per crawl: pages downloaded, relevant pages, state (on a
    terminal: elsewhere the bars' last frame said no more than the table after them)."""
    columns = (
        TextColumn("{task.description:<14}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("LP {task.fields[lp]:>6}  {task.fields[state]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, disable=not console.is_terminal) as bars:
        tasks: dict[int, int] = {}

        def show(status: CrawlStatus) -> None:
            if status.index not in tasks:
                tasks[status.index] = bars.add_task(
                    status.label, total=status.max_pages, lp=0, state=status.state, start=False
                )
            task = tasks[status.index]
            if status.state != "queued":
                bars.start_task(task)
            bars.update(task, completed=status.dp, lp=status.lp, state=status.state)
            if status.state == "done":
                bars.stop_task(task)

        yield show


def final_table(rows: list[MetricsRow], title: str = "values") -> Records:
    """Each run at the largest DP every run reached; † marks a run that ended before its budget."""
    compared = compared_rows(rows)
    early = early_runs(compared.rows)
    runs = "; ".join(f"{name} ({', '.join(how)})" for name, how in early.items())
    caption = f"{EARLY_MARK} ended before its page budget: {runs}" if early else None
    repeats = any(row.repeat for row in compared.rows)  # else no repeat column: 80 columns
    numbers = ("DP", "LP", "AC", "AR", "SD", "true harvest", "recall")
    columns = ("strategy", *(("repeat",) if repeats else ()), *numbers)
    table = Records(columns, title=f"{title} {at_dp(compared)}", caption=caption,
                    numeric=frozenset(numbers))  # fmt: skip
    for row in compared.rows:
        name = f"{row.strategy} {EARLY_MARK}" if ended_early(row.ended) else row.strategy
        table.add_row(name, *((str(row.repeat),) if repeats else ()), f"{row.dp:,}",
                      f"{row.lp:,}", f"{row.ac:.2%}", f"{row.ar:.4f}", f"{row.sd:.4f}",
                      _share(row.true_harvest), _share(row.recall))  # fmt: skip
    return table


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.2%}"
