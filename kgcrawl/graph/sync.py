"""The knowledge graph as a view of a run's state: outcomes → graph rows (SPEC §8).

The crawl pushes each checkpoint's outcomes here as it commits them; `kgcrawl
graph sync RUN` writes a whole run again. Every write MERGEs, so both can run
any number of times and the graph ends at parity with the run state.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgcrawl.config import Settings, load_settings
from kgcrawl.crawl.state import Outcome, RunState
from kgcrawl.graph.store import GraphStore
from kgcrawl.graph.writer import CrawlRow, GraphWriter, LinkRow, MentionRow, PageRow, WriteReport
from kgcrawl.ontology.owl import read_ontology
from kgcrawl.ontology.topic import TopicModel, build_topic_model


def run_settings(state: RunState) -> Settings:
    """The settings a run was started with (pipeline file + every value it resolved)."""
    meta = state.meta()
    values = {k: v for k, v in meta["settings"].items() if k != "domain"}
    return load_settings(meta["pipeline"], overrides=values, environ={})


def run_topic_model(settings: Settings) -> TopicModel:
    rel = settings.relevance
    return build_topic_model(read_ontology(settings.ontology), settings.topic, rel.k, rel.tau)


@dataclass
class OutcomeRows:
    """Turns outcomes of one run into PageRow / LinkRow / MentionRow records."""

    run_id: str
    model: TopicModel

    def __post_init__(self) -> None:
        self.iris = list(self.model.ontology.concepts)
        self.weights = [float(self.model.weights[iri]) for iri in self.iris]

    def rows(self, outcome: Outcome) -> list[PageRow | LinkRow | MentionRow]:
        url = outcome.final_url if outcome.downloaded else outcome.url
        out: list[PageRow | LinkRow | MentionRow] = [
            PageRow(
                crawl=self.run_id,
                order=outcome.seq,
                url=url,
                host=outcome.host,
                title=outcome.title,
                text=outcome.text,
                relevance=float(outcome.relevance or 0.0),
                relevant=outcome.relevant,
                fetched_at=outcome.fetched_at,
                lang=outcome.lang,
                hash=outcome.content_hash,
                status="ok" if outcome.downloaded else str(outcome.reason),
            )
        ]
        if not outcome.downloaded:
            return out
        scores = outcome.link_scores or [(0.0, 0.0)] * len(outcome.links)
        out += [
            LinkRow(source=url, target=target, anchor=anchor, anchor_relevance=ra, priority=p)
            for (target, anchor), (ra, p) in zip(outcome.links, scores, strict=True)
        ]
        out += [
            MentionRow(url=url, iri=self.iris[i], count=count, weight=self.weights[i])
            for i, count in outcome.mentions.items()
        ]
        return out


class GraphSink:
    """The engine's `on_commit`: committed outcomes go to the graph in batches; never raises."""

    def __init__(self, writer: GraphWriter, rows: OutcomeRows) -> None:
        self.writer = writer
        self.outcome_rows = rows

    def __call__(self, outcomes: list[Outcome]) -> None:
        self.writer.add(row for outcome in outcomes for row in self.outcome_rows.rows(outcome))


def begin_run_graph(store: GraphStore, state: RunState) -> GraphSink:
    """Write the run's Crawl node and ontology, and return the sink for its outcomes."""
    meta = state.meta()
    settings = run_settings(state)
    model = run_topic_model(settings)
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
    writer.write_ontology(model, settings.domain, settings.language)
    return GraphSink(writer, OutcomeRows(meta["run_id"], model))


def sync_run(store: GraphStore, run_id: str) -> WriteReport:
    """Bring the graph to parity with a run's committed state."""
    state = RunState.open(run_id)
    try:
        sink = begin_run_graph(store, state)
        rows = (row for o in state.outcomes() for row in sink.outcome_rows.rows(o))
        report = sink.writer.write(rows)
        report += sink.writer.finish()
    finally:
        state.close()
    return report
