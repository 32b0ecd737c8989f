"""Crawl records → the graph model of SPEC §8, batched (UNWIND), idempotent (MERGE), retried.

Every statement MERGEs on a unique key and SETs absolute values, so writing the
same rows twice — a resumed crawl, a second `graph sync` — changes nothing. The
crawl state is the source of truth: when the graph is down the buffered rows
wait here (up to `max_pending`, then they are dropped and counted in `dropped`,
for `kgcrawl graph sync` to restore), and the crawl goes on.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from kgcrawl.graph.errors import GraphUnavailable
from kgcrawl.graph.store import GraphStore, QueryResult
from kgcrawl.ontology.model import Edge

if TYPE_CHECKING:
    from kgcrawl.ontology.topic import TopicModel


@dataclass(frozen=True)
class CrawlRow:
    """One crawl run; `settings` is stored as JSON (no map properties in the shared subset)."""

    id: str
    domain: str
    strategy: str
    started_at: int  # epoch milliseconds
    settings: dict[str, Any]
    seeds: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageRow:
    """A downloaded page, and its place (`order`) in the crawl that fetched it."""

    crawl: str
    order: int
    url: str
    host: str
    title: str
    text: str
    relevance: float
    relevant: bool
    fetched_at: int  # epoch milliseconds
    lang: str
    hash: str
    status: str  # "ok" or the failure reason of SPEC §6 ("timeout", "http 404", …)


@dataclass(frozen=True)
class LinkRow:
    """A link from a downloaded page; the target may never be fetched."""

    source: str
    target: str
    anchor: str
    anchor_relevance: float
    priority: float


@dataclass(frozen=True)
class MentionRow:
    """How often a page's main text names a concept (any label or synonym), and its weight."""

    url: str
    iri: str
    count: int
    weight: float


Row = PageRow | LinkRow | MentionRow

# A run id used again (the old run deleted) names another crawl: its FETCHED edges go first.
FORGET_OTHER_RUN = """
MATCH (c:Crawl {id: $id})-[f:FETCHED]->()
WHERE c.started_at <> $started_at
DELETE f
"""
FETCHED_URLS = "MATCH (:Crawl {id: $id})-[:FETCHED]->(p:Page) RETURN p.url"
FORGET_FETCHED = """
UNWIND $urls AS url
MATCH (:Crawl {id: $id})-[f:FETCHED]->(:Page {url: url})
DELETE f
"""
FORGET_CRAWL = """
MATCH (c:Crawl {id: $id})
WHERE NOT (c)-[:FETCHED]->()
DETACH DELETE c
"""
CRAWL = """
MERGE (c:Crawl {id: $id})
SET c.domain = $domain, c.strategy = $strategy, c.started_at = $started_at,
    c.settings = $settings, c.seeds = $seeds
"""
PAGES = """
UNWIND $rows AS r
MERGE (p:Page {url: r.url})
SET p.host = r.host, p.title = r.title, p.text = r.text, p.relevance = r.relevance,
    p.relevant = r.relevant, p.fetched_at = r.fetched_at, p.lang = r.lang, p.hash = r.hash,
    p.status = r.status
MERGE (h:Host {name: r.host})
MERGE (p)-[:ON_HOST]->(h)
MERGE (c:Crawl {id: r.crawl})
MERGE (c)-[f:FETCHED]->(p)
SET f.order = r.order, f.relevance = r.relevance, f.relevant = r.relevant, f.status = r.status
"""
LINKS = """
UNWIND $rows AS r
MERGE (s:Page {url: r.source})
MERGE (t:Page {url: r.target})
MERGE (s)-[l:LINKS_TO]->(t)
SET l.anchor = r.anchor, l.anchor_relevance = r.anchor_relevance, l.priority = r.priority
"""
MENTIONS = """
UNWIND $rows AS r
MERGE (p:Page {url: r.url})
MERGE (c:Concept {iri: r.iri})
MERGE (p)-[m:MENTIONS]->(c)
SET m.count = r.count, m.weight = r.weight
"""
CONCEPTS = """
UNWIND $rows AS r
MERGE (c:Concept {iri: r.iri})
SET c.label = r.label, c.labels = r.labels, c.domain = r.domain, c.depth = r.depth,
    c.weight = r.weight
"""
# Ontology edges child → parent; the type cannot be a parameter, so one statement per type.
CONCEPT_EDGE = """
UNWIND $rows AS r
MATCH (c:Concept {{iri: r.child}}), (p:Concept {{iri: r.parent}})
MERGE (c)-[:{type}]->(p)
"""
# An ontology refresh may move a concept: drop the edges the new version no longer has.
STALE_CONCEPT_EDGES = """
MATCH (c:Concept)-[e:SUBCLASS_OF|INDUCED_BY|SYNONYM_OF]->(p:Concept)
WHERE c.iri IN $iris AND NOT (c.iri + ' ' + type(e) + ' ' + p.iri) IN $keep
DELETE e
"""
# Graph-wide, so the count stays right when several crawls share pages.
CO_OCCURRENCE = """
MATCH (a:Concept)<-[:MENTIONS]-(p:Page)-[:MENTIONS]->(b:Concept)
WHERE a.iri < b.iri
WITH a, b, count(p) AS pages
MERGE (a)-[c:CO_OCCURS]->(b)
SET c.pages = pages
RETURN count(c) AS pairs
"""
EDGE_TYPE = {Edge.IS_A: "SUBCLASS_OF", Edge.INDUCED_BY: "INDUCED_BY", Edge.SYNONYM: "SYNONYM_OF"}

# Rows per statement: pages carry their main text (~500 was fastest), other rows are small.
ROWS_PER_STATEMENT = 5000
CHUNK = {PageRow: 500, LinkRow: ROWS_PER_STATEMENT, MentionRow: ROWS_PER_STATEMENT}
STATEMENT = {PageRow: PAGES, LinkRow: LINKS, MentionRow: MENTIONS}
FLUSH_ORDER = (PageRow, LinkRow, MentionRow)
_FIELDS = {kind: tuple(f.name for f in fields(kind)) for kind in FLUSH_ORDER}
_COUNTER = {PageRow: "pages", LinkRow: "links", MentionRow: "mentions"}


@dataclass
class WriteReport:
    """Rows written by kind, and what the server says it created."""

    crawls: int = 0
    concepts: int = 0
    concept_edges: int = 0
    pages: int = 0
    links: int = 0
    mentions: int = 0
    co_occurrences: int = 0
    nodes_created: int = 0
    relationships_created: int = 0

    def __iadd__(self, other: WriteReport) -> WriteReport:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self


class GraphWriter:
    """Buffers crawl rows and writes them in batches: ≥ `flush_rows` rows or every `flush_every`.

    `add` never raises when the graph is down (the crawl must go on): the rows
    stay buffered and the next attempt waits `retry_after` seconds. `write` and
    `flush` raise GraphUnavailable after `retries` retries with backoff.
    """

    def __init__(
        self,
        store: GraphStore,
        *,
        flush_rows: int = 500,
        flush_every: float = 2.0,
        chunk_rows: int | None = None,
        retries: int = 3,
        backoff: float = 0.25,
        retry_after: float = 10.0,
        max_pending: int = 200_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.flush_rows = flush_rows
        self.flush_every = flush_every
        self.chunk = {kind: chunk_rows or size for kind, size in CHUNK.items()}
        self.small_chunk = chunk_rows or ROWS_PER_STATEMENT
        self.retries = retries
        self.backoff = backoff
        self.retry_after = retry_after
        self.max_pending = max_pending
        self.clock = clock
        self.dropped = 0
        self.last_error: GraphUnavailable | None = None
        self._buffers: dict[type, list[Row]] = {kind: [] for kind in FLUSH_ORDER}
        self._last_flush = clock()
        self._next_try = 0.0

    @property
    def pending(self) -> int:
        return sum(len(rows) for rows in self._buffers.values())

    def write_crawl(self, crawl: CrawlRow) -> WriteReport:
        """The Crawl node, at once (forgetting the pages of an older run of the same id)."""
        self._run(FORGET_OTHER_RUN, {"id": crawl.id, "started_at": crawl.started_at})
        params = _clean(
            {
                "id": crawl.id,
                "domain": crawl.domain,
                "strategy": crawl.strategy,
                "started_at": crawl.started_at,
                "settings": json.dumps(
                    crawl.settings, ensure_ascii=False, sort_keys=True, default=str
                ),
                "seeds": list(crawl.seeds),
            }
        )
        report = self._stats(self._run(CRAWL, params))
        report.crawls = 1
        return report

    def forget_fetched(self, crawl_id: str, keep: set[str]) -> int:
        """Delete the crawl's FETCHED edges to pages outside `keep`; how many went."""
        stale = [
            url for (url,) in self._run(FETCHED_URLS, {"id": crawl_id}).rows if url not in keep
        ]
        for start in range(0, len(stale), ROWS_PER_STATEMENT):
            self._run(
                FORGET_FETCHED, {"id": crawl_id, "urls": stale[start : start + ROWS_PER_STATEMENT]}
            )
        return len(stale)

    def forget_crawl(self, crawl_id: str) -> None:
        """Delete the Crawl node of a run that fetched nothing (its run removed)."""
        self._run(FORGET_CRAWL, {"id": crawl_id})

    def write_ontology(self, model: TopicModel, domain: str, lang: str = "zh") -> WriteReport:
        """Concept nodes (label, labels, depth, W_T weight) and their typed edges, at once."""
        onto = model.ontology
        concepts = [
            {
                "iri": c.iri,
                "label": c.label(lang),
                "labels": list(c.all_labels()),
                "domain": domain,
                "depth": onto.depth[c.iri],
                "weight": float(model.weights.get(c.iri, 0)),
            }
            for c in onto.concepts.values()
        ]
        edges: dict[str, list[dict[str, str]]] = {t: [] for t in EDGE_TYPE.values()}
        for c in onto.concepts.values():
            if c.parent is not None and c.edge is not None:
                edges[EDGE_TYPE[c.edge]].append({"child": c.iri, "parent": c.parent})
            for extra in c.extra_parents:
                edges["SUBCLASS_OF"].append({"child": c.iri, "parent": extra})
        report = WriteReport()
        for chunk in _chunks(_clean(concepts), self.small_chunk):
            report += self._stats(self._run(CONCEPTS, {"rows": chunk}))
        keep = [f"{e['child']} {kind} {e['parent']}" for kind, rows in edges.items() for e in rows]
        report += self._stats(
            self._run(STALE_CONCEPT_EDGES, {"iris": list(onto.concepts), "keep": keep})
        )
        for kind, rows in edges.items():
            for chunk in _chunks(_clean(rows), self.small_chunk):
                report += self._stats(self._run(CONCEPT_EDGE.format(type=kind), {"rows": chunk}))
        report.concepts = len(concepts)
        report.concept_edges = len(keep)
        return report

    def write(self, rows: Iterable[Row]) -> WriteReport:
        """Write rows now (pages, then links, then mentions), in chunks; for `graph sync`."""
        buffers: dict[type, list[Row]] = {kind: [] for kind in FLUSH_ORDER}
        for row in rows:
            buffers[type(row)].append(row)
        report = WriteReport()
        for kind in FLUSH_ORDER:
            report += self._write_kind(kind, buffers[kind])
        return report

    def add(self, rows: Iterable[Row]) -> WriteReport | None:
        """Buffer rows and flush when due: what a flush wrote, None if none ran or it failed."""
        for row in rows:
            self._buffers[type(row)].append(row)
        if not self._due():
            return None
        try:
            return self.flush()
        except GraphUnavailable:
            if self.pending > self.max_pending:
                self.dropped += self.pending
                self._buffers = {kind: [] for kind in FLUSH_ORDER}
            return None

    def flush(self) -> WriteReport:
        """Write everything buffered; on failure the unwritten rows stay and the error is raised."""
        report = WriteReport()
        try:
            for kind in FLUSH_ORDER:
                report += self._write_kind(kind, self._buffers[kind])
        except GraphUnavailable as exc:
            self.last_error = exc
            self._next_try = self.clock() + self.retry_after
            raise
        self.last_error = None
        self._last_flush = self.clock()
        return report

    def refresh_co_occurrence(self) -> WriteReport:
        """CO_OCCURS {pages} between every two concepts some page mentions both of."""
        result = self._run(CO_OCCURRENCE, {})
        report = self._stats(result)
        report.co_occurrences = int(result.rows[0][0]) if result.rows else 0
        return report

    def finish(self) -> WriteReport:
        """End of a crawl: flush, refresh co-occurrence, compact the store for a fast restart."""
        report = self.flush()
        report += self.refresh_co_occurrence()
        self.store.compact()
        return report

    def _due(self) -> bool:
        pending = self.pending
        if not pending or self.clock() < self._next_try:
            return False
        return pending >= self.flush_rows or self.clock() - self._last_flush >= self.flush_every

    def _write_kind(self, kind: type, rows: list[Row]) -> WriteReport:
        """Chunk by chunk; rows leave `rows` only once written, so a failure loses nothing."""
        report = WriteReport()
        names = _FIELDS[kind]
        size = self.chunk[kind]
        while rows:
            chunk = rows[:size]
            params = {"rows": [_clean({n: getattr(row, n) for n in names}) for row in chunk]}
            report += self._stats(self._run(STATEMENT[kind], params))
            setattr(report, _COUNTER[kind], getattr(report, _COUNTER[kind]) + len(chunk))
            del rows[:size]
        return report

    def _run(self, cypher: str, params: dict[str, Any]) -> QueryResult:
        attempt = 0
        while True:
            try:
                return self.store.run(cypher, params)
            except GraphUnavailable:
                if attempt >= self.retries:
                    raise
                time.sleep(self.backoff * 2**attempt)
                attempt += 1

    @staticmethod
    def _stats(result: QueryResult) -> WriteReport:
        return WriteReport(
            nodes_created=result.stats.get("nodes_created", 0),
            relationships_created=result.stats.get("relationships_created", 0),
        )


def _clean(value: Any) -> Any:
    """The shared subset: no NUL in strings (FalkorDB), no NaN/inf (neither parses them)."""
    if isinstance(value, str):
        return value.replace("\x00", "") if "\x00" in value else value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def _chunks(rows: list[Any], size: int) -> Iterable[list[Any]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]
