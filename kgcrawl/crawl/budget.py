"""A run's page budget, changed on resume: `kgcrawl crawl --resume ID --max-pages N`.

A user who crawled 2 000 pages and wants 1 000 more goes on with the same run
instead of fetching the first 2 000 again. FCITS_OH's early phase reads the
budget (strategies/host_memory.py, step 5), so an outcome must be replayed under
the budget it was crawled with: the run records each change with the outcome it
applies from, and every later replay switches there, as it does for ontology
versions (crawl/versions.py). The run's settings hold the budget in force now.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from kgcrawl.config import Settings
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError


@dataclass(frozen=True)
class Budget:
    """The run's page budget from outcome `first` (1-based) on."""

    first: int
    max_pages: int


def recorded_budgets(meta: dict[str, Any]) -> list[Budget]:
    """The budgets a run crawled with, oldest first; [] for a run that never changed it."""
    return [Budget(b["first"], b["max_pages"]) for b in meta.get("budgets", ())]


def change_budget(state: RunState, settings: Settings, max_pages: int) -> Settings:
    """Record `max_pages` as the budget from the run's next outcome on; the settings with it.

    The new budget must be above the pages the run has: at or below them, the
    resumed crawl would end before its first request.
    """
    meta = state.meta()
    old, dp = settings.crawl.max_pages, meta.get("dp", 0)
    if max_pages == old:
        return settings
    if max_pages <= dp:
        raise KgcrawlError(
            f"--max-pages {max_pages}: run {meta['run_id']} has {dp} pages already; "
            "give a larger budget to go on"
        )
    first = state.count() + 1
    budgets = [b for b in recorded_budgets(meta) or [Budget(1, old)] if b.first < first]
    state.set_meta(
        {
            "budgets": [asdict(b) for b in [*budgets, Budget(first, max_pages)]],
            "settings": {**meta["settings"], "crawl.max_pages": max_pages},
        }
    )
    state.checkpoint()
    return replace(settings, crawl=replace(settings.crawl, max_pages=max_pages))
