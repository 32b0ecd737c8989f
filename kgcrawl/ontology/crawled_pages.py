"""The pages a refresh learns from: a run's, or those the graph holds of a domain's crawls.

Each page comes with the crawl's judgement (R(p) > α when it was crawled), or, when the
refresh is given an α of its own, that α's; with a run, the ontology the run judged its
pages by is the one refined (`crawl --ontology FILE` may have named another).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kgcrawl.errors import KgcrawlError

if TYPE_CHECKING:
    from kgcrawl.config import Settings
    from kgcrawl.graph.store import GraphStore

# Pages a crawl of the domain fetched, relevant or not, most relevant first.
PAGES_QUERY = """
MATCH (c:Crawl {domain: $domain})-[:FETCHED]->(p:Page)
WHERE p.relevant = $relevant AND p.text IS NOT NULL
RETURN DISTINCT p.url AS url, p.text AS text, p.relevance AS relevance
ORDER BY relevance DESC, url
LIMIT $limit
"""


class RefreshError(KgcrawlError):
    """Nothing to refresh from (no graph, no relevant page) or a bad option."""


@dataclass(frozen=True)
class CrawledPage:
    """A downloaded page's main text and whether the crawl judged it relevant."""

    url: str
    text: str
    relevance: float
    relevant: bool


def judged(pages: list[CrawledPage], settings: Settings) -> list[CrawledPage]:
    """The crawl's own judgement of each page, or R(p) > α when α was given for this command
    (`--set relevance.alpha=…`), so a refresh can ask for a stricter or looser bar."""
    alpha = settings.relevance.alpha
    given = settings.origins.get("relevance.alpha") not in ("default", str(settings.source))
    if alpha == "auto" or not given:
        return pages
    return [replace(page, relevant=page.relevance > alpha) for page in pages]


def run_ontology(run_id: str, settings: Settings) -> tuple[Settings, Path]:
    """The settings with the ontology the run judged its pages by (its last version): the
    one its pages refine, which need not be the pipeline's (`crawl --ontology FILE`); and
    the folder of that file, where its new version goes (the file read may be the run's
    copy, when the file itself changed since: crawl/versions.py)."""
    from kgcrawl.crawl.state import RunState
    from kgcrawl.crawl.versions import recorded

    state = RunState.open(run_id)
    try:
        version = recorded(state.meta())[-1]
        return version.settings(settings, state.path.parent), Path(version.path).parent
    finally:
        state.close()


def run_pages(run_id: str, domain: str) -> list[CrawledPage]:
    """The downloaded pages of a run's state; the run must belong to `domain`."""
    from kgcrawl.crawl.state import RunState

    state = RunState.open(run_id)
    try:
        run_domain = state.meta().get("domain")
        if run_domain is not None and run_domain != domain:
            raise RefreshError(f"run {run_id} crawled {run_domain!r}, not {domain!r}")
        return [
            CrawledPage(o.final_url or o.url, o.text, o.relevance, o.relevant)
            for o in state.outcomes()
            if o.downloaded and o.relevance is not None and o.text
        ]
    finally:
        state.close()


def graph_pages(store: GraphStore, domain: str, limit: int) -> list[CrawledPage]:
    """Relevant and irrelevant pages fetched by crawls of `domain`, up to `limit` of each."""
    pages = []
    for relevant in (True, False):
        result = store.run(PAGES_QUERY, {"domain": domain, "relevant": relevant, "limit": limit})
        pages += [
            CrawledPage(url, text, float(relevance or 0.0), relevant)
            for url, text, relevance in result.rows
        ]
    return pages


def most_relevant(pages: Iterable[CrawledPage], limit: int) -> list[CrawledPage]:
    return sorted(pages, key=lambda p: (-p.relevance, p.url))[:limit]
