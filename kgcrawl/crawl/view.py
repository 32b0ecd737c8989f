"""What the crawl shows people: the live display, the closing summary, runs and exports."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from kgcrawl.crawl.budget import recorded_budgets
from kgcrawl.crawl.ended import BUDGET, SIGNAL, ended_text, resume_command
from kgcrawl.crawl.engine import CrawlResult, Progress
from kgcrawl.crawl.fetch import DNS, REFUSED
from kgcrawl.crawl.outcome import ROBOTS_DOWN
from kgcrawl.crawl.state import RunState, StateError, runs_dir
from kgcrawl.fit import Records, counted, folding_table, shown_path
from kgcrawl.runs import iso_time
from kgcrawl.scoring.web_alpha import recalibrated

REFRESH_SECONDS = 0.25


def progress_line(p: Progress) -> str:
    """Two lines of at most 80 characters: the run and its pages, then how the crawl goes,
    or, while it waits for a failed robots.txt, how long it still waits."""
    share = f" {p.dp / p.max_pages:.0%}" if p.max_pages else ""
    wait = p.waiting_until - time.monotonic()
    queue = f"Q_wait {p.queued} ({p.hosts} hosts)"
    return (
        f"[bold]{p.run_id}[/bold]  pages {p.dp}/{p.max_pages}{share}  failures {p.failures}\n"
        f"relevant {p.lp} ({p.harvest:.1%})  {p.rate:.1f} pages/s  "
        + (f"robots.txt asked again in {wait:.0f} s" if wait > 0 else queue)
    )


@contextmanager
def live_progress(console: Console, enabled: bool = True) -> Iterator[Callable[[Progress], None]]:
    """A callback that keeps a live status, redrawn at most four times a second.

    The status goes away when the crawl ends, so the summary printed next is the
    final frame (no stale progress above it). Disabled: the callback does nothing.
    """
    if not enabled:
        yield lambda p: None
        return
    last = [0.0]
    with Live(console=console, transient=True, refresh_per_second=4) as live:

        def show(p: Progress) -> None:
            now = time.monotonic()
            if now - last[0] >= REFRESH_SECONDS or p.dp >= p.max_pages:
                last[0] = now
                live.update(progress_line(p))

        yield show


def stop_reason(result: CrawlResult) -> str:
    """Why the crawl ended, with what to do next when there is something to do."""
    if result.ended == SIGNAL:
        return stopped_line(result.run_id)
    if already_done(result):
        run, budget = result.run_id, result.max_pages
        return (f"run {run} was at its page budget ({budget} pages) already: nothing crawled; "
                f"{resume_command(run, '--max-pages N')} (N > {budget}) goes on")  # fmt: skip
    trapped = (
        f"{counted(result.trapped, 'link')} kept out by the trap guard (crawl.trap_cap "
        "caps the new links one URL template breeds; --set crawl.trap_cap=0 for no cap)"
    )
    notes = (
        f"; {counted(result.promoted, 'link')} promoted from the discarded pool when Q_wait ran dry"
        if result.promoted
        else ""
    )
    if result.trapped and result.ended == BUDGET:
        notes += f"; {trapped}"
    if result.explored:
        notes += (f"; {result.explored} most-linked pages explored when the first "
                  "crawl.explore_after pages held nothing relevant")  # fmt: skip
        if result.explore_ended:
            notes += (f", until page {result.explore_ended}: the pages after those scored "
                      "no higher R(p)")  # fmt: skip
    if result.ended == BUDGET:
        return "page budget reached" + notes
    left = f" but {trapped}" if result.trapped else ""
    return f"frontier exhausted: no unvisited link left{left}" + notes


def already_done(result: CrawlResult) -> bool:
    """A resume of a run at its page budget: the session had nothing to crawl."""
    return result.ended == BUDGET and 0 < result.max_pages <= result.start_dp


def session_line(result: CrawlResult) -> str:
    """What a resume crawled itself ("" for a new run or one with nothing to crawl): DP
    counts the run's every page, seconds and pages/s this session's."""
    if not result.start_dp or already_done(result):
        return ""
    return (f"resumed at {result.start_dp} pages: {result.dp - result.start_dp} downloaded "
            "in this session (its seconds and pages/s)")  # fmt: skip


def next_line(result: CrawlResult) -> str:
    """The commands that use what a finished crawl found ("" when it found nothing).

    >>> from dataclasses import replace
    >>> from pathlib import Path
    >>> done = CrawlResult("t1", dp=30, lp=12, outcomes=31, seconds=2.0, ended="budget",
    ...                    state_path=Path("state.sqlite"), domain="tourism", graph="embedded")
    >>> print(next_line(done))  # doctest: +NORMALIZE_WHITESPACE
    next: `kgcrawl query --saved top_concepts` asks the graph; `kgcrawl refresh-ontology
    tourism --run t1` adds the terms of its relevant pages to a new ontology version
    >>> print(next_line(replace(done, graph="")))  # doctest: +NORMALIZE_WHITESPACE
    next: `kgcrawl refresh-ontology tourism --run t1` adds the terms of its relevant pages
    to a new ontology version
    """
    if result.stopped or not result.lp:
        return ""
    line = "next: "
    if result.graph:
        option = "" if result.graph == "embedded" else f" --graph {result.graph}"
        line += f"`kgcrawl query{option} --saved top_concepts` asks the graph; "
    return line + (f"`kgcrawl refresh-ontology {result.domain} --run {result.run_id}` adds the "
                   "terms of its relevant pages to a new ontology version")  # fmt: skip


def stopped_line(run_id: str) -> str:
    return f"stopped; continue with {resume_command(run_id)}"


def relevance_line(result: CrawlResult) -> str:
    """The R(p) distribution of the pages downloaded; what to do when none passed α."""
    if not result.relevances:
        return "no page downloaded"
    p10, p50, p90 = np.percentile(result.relevances, [10, 50, 90])
    line = f"R(p) of {len(result.relevances)} pages: p10 {p10:.3f}  p50 {p50:.3f}  p90 {p90:.3f}"
    web = result.web_alpha
    if web is not None:
        line += f"\nα = {result.alpha:.3f} {recalibrated(web.record())}"
    if result.lp == 0:
        alpha = result.alpha if web is None else web.alpha(None)
        line += (
            f"\nno page passed α = {alpha:.3f} (highest R(p) {max(result.relevances):.3f}). "
            + no_relevant_advice(result.run_id, result.domain, result.alpha_origin)
        )
    return line


def failure_line(result: CrawlResult, proxy: str | None = None) -> str:
    r"""How many URLs gave no page and the commonest reasons ("" when every URL gave one):
    a crawl of a web full of dead links says so, rather than leave outcomes and pages apart
    unexplained.

    >>> from pathlib import Path
    >>> result = CrawlResult("r1", dp=10, lp=4, outcomes=19, seconds=2.0, ended="budget",
    ...                      state_path=Path("state.sqlite"), failures=[("http 404", 5),
    ...                      ("robots", 2), ("not html", 1), ("timeout", 1)])
    >>> print(failure_line(result).replace(" (", "\n("))
    9 URLs gave no page: http 404 5, robots 2, not html 1 and 1 other reason
    (`kgcrawl runs show r1`)

    A refused address says how to crawl one (a site on the user's own machine or network),
    and a crawl whose every host name failed to resolve asks whether the machine is online:

    >>> result.failures = [(REFUSED, 1)]
    >>> print(failure_line(result).replace("; ", "\n"))
    1 URL gave no page: refused address 1 (`kgcrawl runs show r1`)
    private and loopback addresses are refused unless `--resolve HOST=ADDR:PORT` maps them
    >>> result.dp, result.failures = 0, [(DNS, 30)]
    >>> print(failure_line(result).replace("; ", "\n"))
    30 URLs gave no page: dns 30 (`kgcrawl runs show r1`)
    no host name resolved: is this machine online? (`--sandbox` crawls a generated web offline)

    When no site was reached and the environment names a `proxy` (`environment_proxy`),
    the line says that the crawler does not go through it:

    >>> result.failures = [("timeout", 20), ("connection refused", 10)]
    >>> print(failure_line(result, "http://proxy.lab:3128").split("; ")[1].replace(": ", ":\n"))
    this environment names a proxy (http://proxy.lab:3128), which kgcrawl does not use:
    it connects to every site itself
    """
    if not result.failures:
        return ""
    total = sum(count for _, count in result.failures)
    shown = ", ".join(f"{reason} {count}" for reason, count in result.failures[:3])
    more = len(result.failures) - 3
    if more > 0:
        shown += f" and {counted(more, 'other reason')}"
    line = f"{counted(total, 'URL')} gave no page: {shown} (`kgcrawl runs show {result.run_id}`)"
    reasons = {reason for reason, _ in result.failures}
    if REFUSED in reasons:
        line += "; private and loopback addresses are refused unless "
        line += "`--resolve HOST=ADDR:PORT` maps them"
    if reasons == {DNS} and not result.dp:
        line += "; no host name resolved: is this machine online? "
        line += "(`--sandbox` crawls a generated web offline)"
    if proxy and not result.dp and reasons <= UNREACHED:
        line += (f"; this environment names a proxy ({proxy}), which kgcrawl does not use: "
                 "it connects to every site itself")  # fmt: skip
    return line


# Failures of a site that was never reached: behind a proxy, every fetch fails so. A
# robots.txt that cannot be fetched disallows the site for now (SPEC §6): ROBOTS_DOWN.
UNREACHED = frozenset({DNS, ROBOTS_DOWN, "timeout", "connection refused", "reset", "no response"})


def environment_proxy() -> str | None:
    """The proxy `HTTPS_PROXY`, `HTTP_PROXY` or `ALL_PROXY` names (any case, as urllib
    reads them), if one does.

    The fetcher connects to each site itself (`crawl/fetch.py`, `trust_env` off): it pins
    the address it checked, which a proxy would resolve on its own.
    """
    from urllib.request import getproxies_environment

    proxies = getproxies_environment()
    return next((proxies[k] for k in ("https", "http", "all") if proxies.get(k)), None)


def no_relevant_advice(run: str, domain: str, alpha_origin: str) -> str:
    """What moves α when no page passed it, by where α came from: recalibrating on the
    same corpora would give the same α again, so a calibrated α points to labelling."""
    label = (
        f"`kgcrawl runs sample {run} --out labels.jsonl`, label the pages, then "
        f"`kgcrawl calibrate {domain} --truth labels.jsonl --run {run}`"
    )
    origin = alpha_origin.split(", cached in")[0]
    if origin.startswith("calibrated"):
        origin = origin if " on " in origin else "calibrated on the corpora"
        return f"α was {origin}; to calibrate it on this web's pages: {label}"
    where = "on the command line" if origin == "command line" else f"in {origin}"
    return (
        f"α was set {where}; `--set relevance.alpha=auto` calibrates it for the ontology,"
        f" or on this web's pages: {label}"
    )


def crawl_summary(result: CrawlResult, next_steps: bool = True) -> Records:
    """One row: a table on a wide terminal, key: value lines on a narrow one; why it ended,
    then (`next_steps`) the commands that use what it found."""
    summary = Records(
        ("run", "pages (DP)", "relevant (LP)", "harvest", "outcomes", "seconds", "pages/s",
         "state"),
        title="crawl " + ("stopped" if result.stopped else "done"),
        caption="\n".join(
            line
            for line in (
                relevance_line(result),
                failure_line(result, environment_proxy()),
                session_line(result),
                stop_reason(result),
                next_line(result) if next_steps else "",
            )
            if line
        ),
        numeric=frozenset({"pages (DP)", "relevant (LP)", "harvest", "outcomes", "seconds",
                           "pages/s"}),
    )  # fmt: skip
    fetched = result.dp - result.start_dp  # this session's pages: a resume replays the others
    rate = f"{fetched / result.seconds:.1f}" if result.seconds and not already_done(result) else "-"
    summary.add_row(result.run_id, str(result.dp), str(result.lp),
                    f"{result.lp / result.dp:.1%}" if result.dp else "-", str(result.outcomes),
                    f"{result.seconds:.1f}", rate, shown_path(result.state_path))  # fmt: skip
    return summary


SHOWN_REASONS = 20  # failure reasons `runs show` lists, commonest first
LISTED = ("run_id", "domain", "strategy", "started_at", "dp", "lp", "ended", "settings")


def runs_table() -> Records:
    """Every run under the data folder, oldest first, with its start time."""
    table = Records(("run", "domain", "strategy", "started", "pages", "relevant", "ended"),
                    numeric=frozenset({"pages", "relevant"}), narrow=_run_lines)  # fmt: skip
    metas = []
    for path in runs_dir().glob("*/state.sqlite"):
        try:
            state = RunState.open(path.parent.name)
        except StateError as exc:  # one damaged run is listed as such; the others still are
            metas.append({"run_id": path.parent.name, "corrupt": str(exc)})
            continue
        metas.append(state.meta(*LISTED))
        state.close()
    for meta in sorted(metas, key=lambda m: (m.get("started_at") or 0, m["run_id"])):
        if "corrupt" in meta:
            table.add_row(meta["run_id"], "?", "?", "", "-", "-", "corrupt state")
            continue
        table.add_row(
            meta["run_id"],
            meta.get("domain", "?"),
            meta.get("strategy", "?"),
            iso_time(meta.get("started_at")),
            str(meta.get("dp", 0)),
            str(meta.get("lp", 0)),
            ended_text(meta),
        )
    return table


def _from(value: object, origin: str | None) -> str:
    """A setting's value and where it came from (the command line, calibration, …).

    >>> _from(0.4, "calibrated, cached in /c/3c93.json"), _from(0, None)
    ('0.4 (calibrated, cached in /c/3c93.json)', '0')
    """
    return f"{value} ({origin})" if origin else str(value)


def _run_lines(row) -> Text:
    """A run in `runs list` on a narrow terminal: its id whole, then the rest, folded."""
    run_id, domain, strategy, started, pages, relevant, ended = row
    text = Text(run_id, style="bold", overflow="fold")
    text.append(f"\n  {domain} · {strategy} · started {started}", style="")
    text.append(f"\n  {pages} pages, {relevant} relevant · ended: {ended}", style="")
    return text


def run_details(run_id: str) -> Table:
    """A run's settings, counters and failures as key/value rows that fold, never cut."""
    state = RunState.open(run_id)
    meta = state.meta()
    table = folding_table("key", "value", whole=("key",), title=f"run {run_id}")
    table.add_row("run", run_id)
    for key in ("domain", "strategy", "pipeline"):
        table.add_row(key, str(meta.get(key)))
    table.add_row("started_at", iso_time(meta.get("started_at")))
    for key in ("dp", "lp", "warc"):
        table.add_row(key, str(meta.get(key)))
    if meta.get("trapped"):
        table.add_row("kept out by the trap guard", f"{meta['trapped']} links")
    if meta.get("explored"):
        ended = meta.get("explore_ended")
        table.add_row("explored (nothing relevant)", f"{meta['explored']} most-linked links"
                      + (f", until page {ended}" if ended else ""))  # fmt: skip
    table.add_row("ended", ended_text(meta))
    origins = meta.get("origins", {})  # runs before it was kept: none
    table.add_row("α", _from(meta.get("settings", {}).get("relevance.alpha"),
                             origins.get("relevance.alpha")))  # fmt: skip
    web = meta.get("web_alpha")
    if web:
        table.add_row("α recalibrated on the web", recalibrated(web))
    for key, value in sorted(meta.get("overrides", {}).items()):
        if key not in ("domain", "relevance.alpha"):  # in the rows above
            table.add_row(f"set {key}" if key not in origins else key,
                          _from(value, origins.get(key)))  # fmt: skip
    for version in meta.get("ontologies", []):
        table.add_row(f"ontology from outcome {version['first']}", version["path"])
    for budget in recorded_budgets(meta)[1:]:  # the first is the budget it started with
        table.add_row(f"budget from outcome {budget.first}",
                      f"{budget.max_pages} pages (--resume --max-pages)")  # fmt: skip
    executors = meta.get("executors", [])  # runs before it was kept: none
    for used in executors:
        where = "executor" if len(executors) == 1 else f"executor from outcome {used['first']}"
        table.add_row(where, used["kind"])
    for reason, count in state.failure_counts()[:SHOWN_REASONS]:
        table.add_row(f"failed: {reason}", str(count))
    state.close()
    return table
