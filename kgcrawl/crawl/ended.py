"""How a run ended, read from its state's meta: did it use its whole page budget?

The engine records `meta["ended"]`: "budget", "frontier exhausted", "signal"
or "error". Runs written before it did have no such key; for them the only
evidence is the page count, so a run with DP < max_pages is reported as having
ended "early" without a reason. A comparison of crawls must flag every run
that did not end at its budget: its figures cover fewer pages than asked for.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from kgcrawl.crawl.state import RunState, StateError, state_path

# What the engine records (SPEC §5.1): the page budget was reached, no unvisited link
# was left, a signal stopped it (resumable), or an error escaped the loop.
BUDGET, EXHAUSTED, SIGNAL, ERROR = "budget", "frontier exhausted", "signal", "error"
EARLY = "early"  # before its budget, why not recorded (a run older than meta["ended"])


def how_ended(meta: dict[str, Any]) -> str:
    """Why a run ended: its recorded reason, else "budget" or "early" by its page count."""
    recorded = meta.get("ended")
    if recorded:
        return str(recorded)
    max_pages = meta.get("settings", {}).get("crawl.max_pages")
    if max_pages is None or meta.get("dp", 0) >= max_pages:
        return BUDGET
    return EARLY


def ended_early(ended: str | None) -> bool:
    """Whether a run with this ending (None: not known) stopped before its budget."""
    return ended is not None and ended != BUDGET


def ended_text(meta: dict[str, Any]) -> str:
    """How a run ended, for people; a run with no end yet is going on or was killed."""
    ended = meta.get("ended")
    return str(ended) if ended else "not ended (running, or killed: --resume goes on)"


def resume_note(run_id: str | None, go_on: str = "continue with ") -> str:
    """What a stop outside the crawl loop leaves of run `run_id`, for after "stopped; ":
    `go_on` and the resume command, or that the run had ended (at its budget or out of
    links: --resume would crawl nothing); "" when no such run was created (yet).

    A Ctrl-C just after a crawl reached its budget lands outside the loop, which had
    recorded the end already: offering to resume that run would be wrong.
    """
    if not run_id or not state_path(run_id).is_file():
        return ""
    try:
        state = RunState.open(run_id)
        try:
            ended = state.meta("ended").get("ended")
        finally:
            state.close()
    except (StateError, sqlite3.Error, OSError):  # unreadable: resuming says why
        ended = None
    if ended in (BUDGET, EXHAUSTED):
        return f"run {run_id} had ended ({ended})"
    return go_on + resume_command(run_id)


def resume_command(run_id: str, more: str = "") -> str:
    """The command that goes on with a run, `more` options after it, as the user types it.

    >>> resume_command("r1"), resume_command("r1", "--max-pages N")
    ('`kgcrawl crawl --resume r1`', '`kgcrawl crawl --resume r1 --max-pages N`')
    """
    return f"`kgcrawl crawl --resume {run_id}{' ' + more if more else ''}`"
