"""Outcomes → graph rows: which Page an outcome is about, and what a failure may not overwrite."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kgcrawl.crawl.outcome import Outcome
from kgcrawl.graph.sync import OutcomeRows
from kgcrawl.graph.writer import LinkRow, MentionRow, PageRow
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.topic import build_topic_model
from tests.graph.world import NS, tiny_ontology

# Concept order of tiny_ontology: R, A, B, A2; W_T as tests/graph/test_queries.py has it.
R, A, B = NS + "R", NS + "A", NS + "B"


@pytest.fixture
def rows() -> OutcomeRows:
    return OutcomeRows("run-9", {1: build_topic_model(tiny_ontology())})


def page(url: str, final_url: str | None = None, seq: int = 1) -> Outcome:
    """A downloaded page as the crawl folds it in: R = 0.8, two links, two concepts named."""
    return Outcome(
        url=url,
        final_url=final_url or url,
        status=200,
        reason=None,
        fetched_at=1_700_000_000_123,
        seconds=0.1,
        host="ignored.example",
        title="标题",
        text="旅游 景点 景点",
        lang="zh",
        content_hash="h1",
        mentions={0: 1, 1: 2},
        links=[("http://b.example/x", "more"), ("http://c.example/", "交通")],
        seq=seq,
        relevance=0.8,
        relevant=True,
        link_scores=[(0.25, 0.5), (0.0, 0.125)],
    )


def failure(url: str, reason: str, seq: int = 2) -> Outcome:
    return Outcome(url, url, 404, reason, 1_700_000_000_456, 0.2, "ignored.example", seq=seq)


def test_a_downloaded_page_gives_its_page_links_and_mentions(rows) -> None:
    out = rows.rows(page("http://a.example/p"))
    assert out == [
        PageRow(
            "run-9",
            1,
            "http://a.example/p",
            "a.example",
            "标题",
            "旅游 景点 景点",
            0.8,
            True,
            1_700_000_000_123,
            "zh",
            "h1",
            "ok",
        ),
        LinkRow("http://a.example/p", "http://b.example/x", "more", 0.25, 0.5),
        LinkRow("http://a.example/p", "http://c.example/", "交通", 0.0, 0.125),
        MentionRow("http://a.example/p", R, 1, 1.0),
        MentionRow("http://a.example/p", A, 2, pytest.approx(11 / 30)),
    ]


def test_a_redirected_page_is_the_page_where_it_ended(rows) -> None:
    out = rows.rows(page("http://a.example/old", "http://www.a.example/new"))
    assert {row.url for row in out if isinstance(row, PageRow)} == {"http://www.a.example/new"}
    assert out[0].host == "www.a.example"
    assert {row.source for row in out if isinstance(row, LinkRow)} == {"http://www.a.example/new"}


def test_a_failure_is_a_page_with_its_reason_and_nothing_else(rows) -> None:
    assert rows.rows(failure("http://d.example/gone", "http 404")) == [
        PageRow(
            "run-9",
            2,
            "http://d.example/gone",
            "d.example",
            "",
            "",
            0.0,
            False,
            1_700_000_000_456,
            "",
            "",
            "http 404",
        ),
    ]


def test_a_failure_never_overwrites_a_downloaded_page(rows) -> None:
    """A second link redirected to a page already fetched, refused as its duplicate."""
    rows.rows(page("http://a.example/old", "http://a.example/p"))
    later = failure("http://a.example/p", "duplicate of http://a.example/p", seq=7)
    assert rows.rows(later) == []


def test_the_downloaded_pages_can_be_known_in_advance() -> None:
    """Resuming: the pages downloaded before are seeded, so an earlier failure is skipped too."""
    seeded = OutcomeRows("run-9", {1: build_topic_model(tiny_ontology())}, {"http://a.example/p"})
    assert seeded.rows(failure("http://a.example/p", "timeout")) == []
    assert len(seeded.rows(failure("http://e.example/", "timeout"))) == 1


def test_mentions_are_named_in_the_ontology_version_of_their_outcome() -> None:
    """A run switched ontology at outcome 5: index 3 is A2 before, the new concept after."""
    v1 = tiny_ontology()
    new = Concept(NS + "C", {"zh": "住宿"}, parent=R, edge=Edge.IS_A)
    v2 = Ontology(NS, {**v1.concepts, new.iri: new})
    assert [list(v1.concepts)[3], list(v2.concepts)[3]] == [NS + "A2", NS + "C"]
    rows = OutcomeRows("run-9", {1: build_topic_model(v1), 5: build_topic_model(v2)})

    def named(seq: int) -> list[str]:
        outcome = replace(page(f"http://a.example/{seq}", seq=seq), mentions={0: 1, 3: 1})
        return [row.iri for row in rows.rows(outcome) if isinstance(row, MentionRow)]

    assert named(4) == [R, NS + "A2"]
    assert named(5) == named(9) == [R, NS + "C"]
