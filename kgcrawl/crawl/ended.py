"""How a run ended, read from its state's meta: did it use its whole page budget?

The engine records `meta["ended"]`: "budget", "frontier exhausted", "signal"
or "error". Runs written before it did have no such key; for them the only
evidence is the page count, so a run with DP < max_pages is reported as having
ended "early" without a reason. A comparison of crawls must flag every run
that did not end at its budget: its figures cover fewer pages than asked for.
"""

from __future__ import annotations

from typing import Any

BUDGET = "budget"
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
