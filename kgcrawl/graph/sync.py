"""The knowledge graph as a view of a run's state: outcomes → graph rows (SPEC §8).

The crawl pushes each checkpoint's outcomes here as it commits them (`GraphSink`,
the engine's `on_commit`); `kgcrawl graph sync RUN` writes a whole run again
(`sync_run`). Every write MERGEs, so both can run any number of times and the
graph ends at parity with the run state:

- one Page per URL an outcome names (the final URL of a downloaded page, the
  selected URL of a failure) or a downloaded page links to;
- one FETCHED from the Crawl per outcome URL, one ON_HOST per fetched Page;
- one LINKS_TO per distinct (page, target) among downloaded pages' links;
- one MENTIONS per (downloaded page, concept named in its main text).

A failure never overwrites a page downloaded at the same URL (a redirect can lead
a second link to a page already fetched): the graph keeps the downloaded page.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kgcrawl.config import Settings, load_settings
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.versions import in_force, recorded
from kgcrawl.graph.errors import GraphError
from kgcrawl.graph.store import GraphStore, connect
from kgcrawl.graph.writer import (
    CrawlRow,
    GraphWriter,
    LinkRow,
    MentionRow,
    PageRow,
    Row,
    WriteReport,
)
from kgcrawl.ontology.topic import TopicModel, topic_model_for
from kgcrawl.text.urls import host_of


def run_settings(state: RunState) -> Settings:
    """The settings a run was started with (pipeline file + every value it resolved), with
    its page budget as last changed on resume (crawl/budget.py), and its first ontology
    read from the run's copy if the file has changed since (crawl/versions.py)."""
    meta = state.meta()
    values = {k: v for k, v in meta["settings"].items() if k != "domain"}
    values["ontology"] = str(recorded(meta)[0].file(state.path.parent))
    values.setdefault("crawl.trap_cap", 0)  # started before the trap guard: crawled without it
    return load_settings(meta["pipeline"], overrides=values, environ={})


def page_url(outcome: Outcome) -> str:
    """The Page an outcome is about: where a download ended, or the URL that failed."""
    return outcome.final_url if outcome.downloaded else outcome.url


@dataclass
class OutcomeRows:
    """Turns outcomes of one run, in fold order, into PageRow / LinkRow / MentionRow records.

    `models` maps the first outcome of each ontology version the run used to its
    topic model (crawl/versions.py): an outcome's concept indices are that
    version's. `downloaded` holds the URLs of pages downloaded (`begin_run_graph`
    seeds it from the state): a failure at one of them adds no row.
    """

    run_id: str
    models: dict[int, TopicModel]
    downloaded: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._firsts = sorted(self.models)
        self._concepts = [
            [(iri, float(weight)) for iri, weight in self.models[first].weights.items()]
            for first in self._firsts
        ]

    def rows(self, outcome: Outcome) -> list[Row]:
        url = page_url(outcome)
        if not outcome.downloaded:
            if url in self.downloaded:
                return []
            return [self._page(outcome, url, relevance=0.0, status=str(outcome.reason))]
        self.downloaded.add(url)
        relevance = float(outcome.relevance or 0.0)
        out: list[Row] = [self._page(outcome, url, relevance, "ok")]
        scores = outcome.link_scores or [(0.0, 0.0)] * len(outcome.links)
        out += [
            LinkRow(source=url, target=target, anchor=anchor, anchor_relevance=ra, priority=p)
            for (target, anchor), (ra, p) in zip(outcome.links, scores, strict=True)
        ]
        concepts = self._concepts[in_force(self._firsts, outcome.seq)]
        out += [
            MentionRow(url=url, iri=concepts[i][0], count=count, weight=concepts[i][1])
            for i, count in outcome.mentions.items()
        ]
        return out

    def _page(self, outcome: Outcome, url: str, relevance: float, status: str) -> PageRow:
        return PageRow(
            crawl=self.run_id,
            order=outcome.seq,
            url=url,
            host=host_of(url),
            title=outcome.title,
            text=outcome.text,
            relevance=relevance,
            relevant=outcome.relevant,
            fetched_at=outcome.fetched_at,
            lang=outcome.lang,
            hash=outcome.content_hash,
            status=status,
        )


@dataclass
class SinkStats:
    """What the sink cost the crawl: outcomes and rows handed to it, seconds spent in it."""

    outcomes: int = 0
    rows: int = 0
    seconds: float = 0.0


class GraphSink:
    """The engine's `on_commit`: committed outcomes go to the graph in batches; never raises.

    A graph that is down only delays rows (the writer keeps them, up to its
    `max_pending`). A statement the server rejects is not retried: the rows
    waiting with it are given up (`lost`), the crawl goes on, and `finish`
    rewrites the whole run from its state instead.
    """

    def __init__(self, store: GraphStore, outcome_rows: OutcomeRows) -> None:
        self.store = store
        self.outcome_rows = outcome_rows
        self.writer = GraphWriter(store)
        self.lost = 0
        self.stats = SinkStats()

    def __call__(self, outcomes: list[Outcome]) -> None:
        start = time.perf_counter()
        rows = [row for outcome in outcomes for row in self.outcome_rows.rows(outcome)]
        try:
            self.writer.add(rows)
        except GraphError:
            self.lost += self.writer.pending + self.writer.dropped
            self.writer = GraphWriter(self.store)
        self.stats.outcomes += len(outcomes)
        self.stats.rows += len(rows)
        self.stats.seconds += time.perf_counter() - start

    @property
    def complete(self) -> bool:
        """True while every row handed to the sink was written or still waits to be."""
        return not (self.lost or self.writer.dropped)

    def finish(self, state: RunState, replayed: int = 0) -> WriteReport:
        """End of a crawl: flush, restore what the graph may lack, refresh CO_OCCURS, compact.

        The graph may lack the `replayed` outcomes a resumed crawl began with
        (the previous session may have died before writing them) and, when rows
        were lost, anything: those are rewritten from the state. Raises
        GraphError when the graph cannot be brought to parity now.
        """
        report = self.writer.flush()
        if not self.complete:
            report += write_outcomes(self.writer, self.outcome_rows, state.outcomes())
            self.lost = 0
            self.writer = GraphWriter(self.store)
        elif replayed:
            report += write_outcomes(self.writer, self.outcome_rows, _upto(state, replayed))
        report += self.writer.refresh_co_occurrence()
        self.store.compact()
        return report


def begin_run_graph(store: GraphStore, state: RunState) -> GraphSink:
    """Write the run's Crawl node and ontology, and return the sink for its outcomes."""
    meta = state.meta()
    settings = run_settings(state)
    run_dir = state.path.parent
    models = {v.first: topic_model_for(v.settings(settings, run_dir)) for v in recorded(meta)}
    writer = GraphWriter(store)
    writer.write_crawl(
        CrawlRow(
            id=meta["run_id"],
            domain=meta["domain"],
            strategy=meta["strategy"],
            started_at=meta["started_at"],
            settings=meta["settings"],
            seeds=settings.seeds,
        )
    )
    for model in models.values():  # the newest last: its W_T stays on the Concept nodes
        writer.write_ontology(model, settings.domain, settings.language)
    downloaded = {u for (u,) in state.query("SELECT final_url FROM outcomes WHERE reason IS NULL")}
    return GraphSink(store, OutcomeRows(meta["run_id"], models, downloaded))


def write_outcomes(
    writer: GraphWriter, outcome_rows: OutcomeRows, outcomes: Iterable[Outcome]
) -> WriteReport:
    """Write the rows of these outcomes now (pages, then links, then mentions)."""
    return writer.write(row for outcome in outcomes for row in outcome_rows.rows(outcome))


def sync_state(store: GraphStore, state: RunState) -> WriteReport:
    """Bring the graph to parity with a run's committed state (idempotent).

    It replaces: a page the graph says the crawl fetched and the state does not
    name (an older run of the same id) loses its FETCHED edge.
    """
    sink = begin_run_graph(store, state)
    report = write_outcomes(sink.writer, sink.outcome_rows, state.outcomes())
    named = state.query("SELECT CASE WHEN reason IS NULL THEN final_url ELSE url END FROM outcomes")
    sink.writer.forget_fetched(sink.outcome_rows.run_id, {url for (url,) in named})
    report += sink.writer.refresh_co_occurrence()
    store.compact()
    return report


def sync_run(store: GraphStore, run_id: str) -> WriteReport:
    """`sync_state` for a run by id."""
    state = RunState.open(run_id)
    try:
        return sync_state(store, state)
    finally:
        state.close()


def sync_graph(run_id: str, uri: str | None = None) -> WriteReport | None:
    """`kgcrawl graph sync RUN`: to the given graph, else the one the run was crawled into.

    A run crawled without a graph goes to the default one (`KGCRAWL_GRAPH_URI`,
    else embedded); None when that is disabled too.
    """
    if uri is None:
        state = RunState.open(run_id)
        try:
            uri = run_settings(state).graph.uri
        finally:
            state.close()
        if uri.strip() == "none":
            uri = None
    store = connect(uri)
    if store is None:
        return None
    with store:
        return sync_run(store, run_id)


def _upto(state: RunState, last: int) -> Iterator[Outcome]:
    for outcome in state.outcomes():
        if outcome.seq > last:
            return
        yield outcome
