"""`refresh-ontology` on crafted pages: a term seen with a concept goes under it; dry runs write
nothing; pages come from a run's state or from the graph (this domain's crawls only)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kgcrawl.cli import app, main
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.versions import as_meta, keep, version_of
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.owl import read_ontology, write_ontology
from kgcrawl.ontology.refresh import (
    RefreshError,
    RefreshOptions,
    next_version,
    refresh_ontology,
)

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("jieba_words")

NS = "http://example.org/tiny#"
# Every relevant page names the new word 缆车 (cable car) with the concept 景区 (scenic
# area); 导游 (tour guide) is in two of them and in a corpus document that lacks 景区;
# 门票 (ticket) is in 3/4 of them and 1/2 of the irrelevant pages: exactly the least lift,
# 1.5; 网站 (website) is in every irrelevant page; the mountains are in one page each;
# 记者 (reporter) is in every relevant page and no irrelevant one, but is a word of general
# Chinese (wordfreq zipf 5.5), no term.
RELEVANT = [
    "黄山景区的缆车很受欢迎，旅游网站推荐，门票打折。记者",
    "泰山景区缆车今天维修，旅游网站发布通知，门票照常。记者",
    "峨眉山景区新建缆车，游客可在网站预订门票，附导游电话。记者",
    "华山景区缆车排队，博物馆和酒店也很热闹，导游在此。记者",
]
IRRELEVANT = ["股票市场今天上涨，财经网站发布新闻，球赛门票售罄。", "足球比赛结果，体育网站新闻。"]
CORPUS = {
    "gate.txt": "景区门票和旅游交通指南。",
    "hotel.txt": "酒店预订与旅游导游。",
    "museum.txt": "博物馆景区旅游。",
}
# Off-topic documents (calibration.negatives): none names a word of the pages above but 股票.
OFF_TOPIC = {
    **{f"finance/{n}.txt": f"股票市场第{n}天上涨，投资者关注利率。" for n in range(6)},
    **{f"sport/{n}.txt": f"足球联赛第{n}轮，主队两球获胜。" for n in range(6)},
    "sport/en.txt": "The football league resumes on Sunday.",
}
# The rebuilt context: documents gate, hotel, museum (corpus, path order), then the pages.
# 缆车 ⊆ {pages 1–4}: inside 景区 (gate, museum, pages 1–4) only. 导游 = {hotel, pages 3, 4}:
# no concept holds all three (旅游 lacks pages 3–4, 景区 lacks hotel), so it goes to the root.
# 门票 = {gate, pages 1–3}: inside 景区 again (旅游 lacks page 3).


def tiny_ontology() -> Ontology:
    concepts = [
        Concept(NS + "Tourism", {"zh": "旅游", "en": "tourism"}),
        Concept(NS + "Scenic", {"zh": "景区"}, parent=NS + "Tourism", edge=Edge.IS_A),
        Concept(NS + "Hotel", {"zh": "酒店"}, parent=NS + "Tourism", edge=Edge.IS_A),
        Concept(NS + "Traffic", {"zh": "交通"}, parent=NS + "Tourism", edge=Edge.IS_A),
        Concept(NS + "Museum", {"zh": "博物馆"}, parent=NS + "Scenic", edge=Edge.IS_A),
    ]
    return Ontology("http://example.org/tiny", {c.iri: c for c in concepts})


@pytest.fixture
def world(tmp_path, monkeypatch) -> Path:
    """A checkout-like folder: pipelines/tiny.toml, ontologies/tiny.owl, corpus/tiny/."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KGCRAWL_GRAPH_URI", raising=False)
    write_ontology(tiny_ontology(), tmp_path / "ontologies" / "tiny.owl")
    (tmp_path / "corpus" / "tiny").mkdir(parents=True)
    for name, text in CORPUS.items():
        (tmp_path / "corpus" / "tiny" / name).write_text(text, encoding="utf-8")
    for name, text in OFF_TOPIC.items():
        (tmp_path / "corpus" / "off" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "corpus" / "off" / name).write_text(text, encoding="utf-8")
    (tmp_path / "pipelines").mkdir()
    (tmp_path / "pipelines" / "tiny.toml").write_text(
        'topic = "旅游"\nontology = "../ontologies/tiny.owl"\nseeds = ["http://a.example/"]\n'
        '[graph]\nuri = "none"\n[calibration]\nnegatives = "../corpus/off"\n',
        encoding="utf-8",
    )
    return tmp_path


def outcome(seq: int, url: str, **kw) -> Outcome:
    base = {"url": url, "final_url": url, "status": 200, "reason": None, "fetched_at": seq}
    return Outcome(**base | {"seconds": 0.01, "host": "a.example", "seq": seq} | kw)


def run_meta(ontology: Path, domain: str = "tiny") -> dict:
    """A run's domain and the ontology file it crawled with, recorded as a crawl records it."""
    return {"domain": domain, "ontologies": as_meta([version_of(ontology, 1)])}


def make_run(
    run_id: str,
    ontology: Path,
    domain: str = "tiny",
    relevant: list[str] = RELEVANT,
    irrelevant: list[str] = IRRELEVANT,
) -> None:
    """A run's state with these pages (by default those above), crawled with `ontology`,
    which it keeps a copy of, as a crawl's `start_run` does."""
    state = RunState.create(run_id, run_meta(ontology, domain))
    keep(version_of(ontology, 1), state.path.parent)
    texts = [(t, 0.9, True) for t in relevant] + [(t, 0.1, False) for t in irrelevant]
    for seq, (text, relevance, judged) in enumerate(texts, start=1):
        url = f"http://a.example/{seq}"
        state.append(outcome(seq, url, text=text, relevance=relevance, relevant=judged))
    gone = len(texts) + 1
    state.append(outcome(gone, "http://a.example/gone", status=404, reason="http 404"))
    state.checkpoint()
    state.close()


def files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def untested(**options) -> RefreshOptions:
    """Six pages split no word beyond chance (4 of 4 against 0 of 2: p = 1/15); the tests
    of placing, writing and reading take the candidates without the significance test."""
    return RefreshOptions(significance=1.0, **options)


def test_a_term_seen_with_a_concept_goes_under_it(world) -> None:
    make_run("r1", world / "ontologies" / "tiny.owl")
    pipeline = str(world / "pipelines" / "tiny.toml")
    result = refresh_ontology(pipeline, untested(run="r1"))

    assert [(t.term, t.parent) for t in result.added] == [
        ("缆车", NS + "Scenic"),
        ("导游", NS + "Tourism"),
        ("门票", NS + "Scenic"),
    ]
    cable, guide, ticket = result.added
    assert (cable.relevant_pages, cable.irrelevant_pages, cable.score) == (4, 0, 1.0)
    assert (cable.extent, cable.parent_extent, cable.parent_label) == (4, 6, "景区")
    assert (guide.relevant_pages, guide.score, guide.extent) == (2, 0.5, 3)
    assert (ticket.relevant_pages, ticket.irrelevant_pages, ticket.score) == (3, 1, 0.25)
    assert ticket.extent == 4
    # 网站 is in the irrelevant pages; each mountain is in one relevant page only.
    assert result.candidates == 3
    assert (result.relevant_pages, result.irrelevant_pages, result.corpus_documents) == (4, 2, 3)
    assert result.lattice_concepts > 0

    onto_dir = world / "ontologies"
    assert result.files == [onto_dir / "tiny.v2.owl", onto_dir / "tiny.v2.ttl"]
    new = read_ontology(onto_dir / "tiny.v2.owl")
    by_label = {c.label(): c for c in new.concepts.values()}
    assert by_label["缆车"].parent == NS + "Scenic" and by_label["缆车"].edge is Edge.IS_A
    assert by_label["导游"].parent == NS + "Tourism"
    assert by_label["缆车"].iri == NS + "缆车"
    assert len(new) == 8 and len(read_ontology(onto_dir / "tiny.owl")) == 5
    assert result.how_to_use() == (
        f"crawl with --ontology {onto_dir / 'tiny.v2.owl'} (a resumed run takes it from its "
        'next page on), or set ontology = "../ontologies/tiny.v2.owl" in tiny.toml'
    )

    again = refresh_ontology(pipeline, untested(run="r1", max_new=1))
    assert [t.term for t in again.added] == ["缆车"]
    assert again.files[0].name == "tiny.v3.owl" and next_version(onto_dir, "tiny") == 4


def test_the_corpus_is_the_one_the_pipeline_names(world) -> None:
    """A pipeline written for a corpus outside corpus/<domain> (`pipeline init --corpus`)
    refreshes beside that corpus: 导游 is placed as beside corpus/tiny."""
    (world / "corpus" / "tiny").rename(world / "notes")
    toml = world / "pipelines" / "tiny.toml"
    toml.write_text(toml.read_text("utf-8") + 'positives = "../notes"\n', "utf-8")
    make_run("r1", world / "ontologies" / "tiny.owl")
    result = refresh_ontology(str(toml), untested(run="r1", dry_run=True))
    assert result.corpus_documents == 3
    assert [(t.term, t.parent) for t in result.added][1] == ("导游", NS + "Tourism")


def test_the_refresh_reports_its_stages_and_each_text_it_segments(world) -> None:
    make_run("r1", world / "ontologies" / "tiny.owl")
    heard: list[tuple[str, int, int]] = []
    pipeline = str(world / "pipelines" / "tiny.toml")
    refresh_ontology(pipeline, untested(run="r1", dry_run=True), lambda *s: heard.append(s))
    texts = len(RELEVANT) + len(IRRELEVANT) + len(CORPUS) + len(OFF_TOPIC)
    segmenting = [(done, total) for stage, done, total in heard if stage == "segmenting"]
    assert heard[0] == ("reading pages", 0, 0) and heard[-1] == ("lattice", 0, 0)
    assert segmenting == [(n, texts) for n in range(1, texts + 1)]


def test_only_terms_that_split_the_pages_beyond_chance_are_added(world) -> None:
    """20 relevant and 20 irrelevant pages: 缆车 (cable car) is in every relevant page and
    no other, p = 1/C(40, 20) ≈ 7e-12; 网剧 (web drama) is in 8 relevant and 4 irrelevant
    ones, lift 2, but 20 of the 40 pages drawn at random hold 8 or more of its 12 with
    p ≈ 0.15. Two terms tested: the bar is 0.05 / 2."""
    relevant = [f"景区缆车{'，看网剧' if n < 8 else ''}。" for n in range(20)]
    irrelevant = [f"股票{'，看网剧' if n < 4 else ''}。" for n in range(20)]
    make_run("r1", world / "ontologies" / "tiny.owl", relevant=relevant, irrelevant=irrelevant)
    pipeline = str(world / "pipelines" / "tiny.toml")
    result = refresh_ontology(pipeline, RefreshOptions(run="r1", dry_run=True))
    assert [t.term for t in result.added] == ["缆车"] and result.tested == 2
    said = dict(result.summary())["candidate terms"]
    assert said == "2, 1 beyond chance (Fisher p < 2.5e-02 = 0.05 / 2 terms tested)"
    untested_result = refresh_ontology(pipeline, untested(run="r1", dry_run=True))
    assert [t.term for t in untested_result.added] == ["缆车", "网剧"]
    make_run("r2", world / "ontologies" / "tiny.owl", relevant=relevant, irrelevant=[])
    alone = RefreshOptions(run="r2", dry_run=True, background=False)
    alone_result = refresh_ontology(pipeline, alone)
    assert alone_result.added == [] and alone_result.tested == 2  # no contrast, no evidence
    said = dict(alone_result.summary())["candidate terms"]
    assert said == "2, none beyond chance: no irrelevant page or document to contrast with"


def test_off_topic_documents_speak_for_the_words_most_relevant_pages_hold(world) -> None:
    """A crawl that met no irrelevant page: the 13 off-topic documents are the contrast. 缆车
    is in the 20 relevant pages and no Chinese document (12): p = 1/C(32, 20) ≈ 4e-9. 网剧
    is in 8 of them only, under half: the documents do not speak for it (a companion topic
    of the relevant pages would look the same), and nothing else does."""
    relevant = [f"景区缆车{'，看网剧' if n < 8 else ''}。" for n in range(20)]
    make_run("r1", world / "ontologies" / "tiny.owl", relevant=relevant, irrelevant=[])
    pipeline = str(world / "pipelines" / "tiny.toml")
    result = refresh_ontology(pipeline, RefreshOptions(run="r1", dry_run=True))
    assert [t.term for t in result.added] == ["缆车"] and result.tested == 2
    assert (result.irrelevant_pages, result.background_documents) == (0, 13)
    assert (result.added[0].background, result.added[0].score) == (0, 1.0)
    rows = dict(result.summary())
    assert rows["off-topic documents (contrast)"] == "13"
    said = "2, 1 beyond chance (Fisher p < 2.5e-02 = 0.05 / 2 terms tested)"
    assert rows["candidate terms"] == said
    without = refresh_ontology(pipeline, RefreshOptions(run="r1", dry_run=True, background=False))
    assert without.added == [] and without.background_documents == 0
    # No folder of off-topic documents: the refresh goes on without them and says why.
    gone = world / "corpus" / "gone"
    missing = RefreshOptions(run="r1", dry_run=True, overrides=(f"calibration.negatives={gone}",))
    result = refresh_ontology(pipeline, missing)
    assert result.added == [] and result.background_documents == 0
    said = dict(result.summary())["off-topic documents (contrast)"]
    assert said.startswith("none: ") and f"({gone} is not a folder)" in said


def test_the_documents_do_not_speak_for_a_word_the_irrelevant_pages_hold(world) -> None:
    """门票 is in every relevant page and in 1 of the 2 irrelevant ones, in no document: a
    word of the web's own register or of a neighbouring topic, which documents from
    elsewhere cannot judge. The crawl's pages alone do: 21 holders, 20 of them among the 20
    relevant of 22 pages, p = 21/231 ≈ 0.09. 缆车, in no irrelevant page, is vouched for."""
    relevant = ["景区缆车，门票。"] * 20
    irrelevant = ["股票门票。", "足球。"]
    make_run("r1", world / "ontologies" / "tiny.owl", relevant=relevant, irrelevant=irrelevant)
    pipeline = str(world / "pipelines" / "tiny.toml")
    result = refresh_ontology(pipeline, RefreshOptions(run="r1", dry_run=True))
    assert [t.term for t in result.added] == ["缆车"] and result.tested == 2


def test_a_run_refines_the_ontology_it_crawled_with_unless_told_otherwise(
    world, tmp_path_factory
) -> None:
    """A crawl with `--ontology FILE` records FILE; its refresh builds on FILE, not on the
    pipeline's ontology, and names its versions after the domain beside FILE."""
    built = tmp_path_factory.mktemp("elsewhere") / "tiny.fca.owl"  # the user's own folder
    bigger = tiny_ontology()
    extra = Concept(NS + "Cable", {"zh": "索道"}, parent=NS + "Scenic", edge=Edge.IS_A)
    write_ontology(Ontology(bigger.iri, {**bigger.concepts, extra.iri: extra}), built)
    make_run("r1", built)
    pipeline = str(world / "pipelines" / "tiny.toml")
    result = refresh_ontology(pipeline, untested(run="r1", dry_run=True))
    assert result.old_path == built and NS + "Cable" in result.ontology.concepts
    written = refresh_ontology(pipeline, untested(run="r1"))
    assert written.files[0] == built.parent / "tiny.v2.owl"
    assert written.how_to_use().endswith(f'set ontology = "{written.files[0]}" in tiny.toml')
    write_ontology(tiny_ontology(), built)  # rebuilt in place since: the run refines its copy
    again = refresh_ontology(pipeline, untested(run="r1"))
    assert NS + "Cable" in again.ontology.concepts
    assert again.files[0] == built.parent / "tiny.v3.owl", "beside the file, not the copy"
    told = untested(
        run="r1", dry_run=True, overrides=(f"ontology={world / 'ontologies' / 'tiny.owl'}",)
    )
    result = refresh_ontology(pipeline, told)
    assert result.old_path == world / "ontologies" / "tiny.owl"
    assert NS + "Cable" not in result.ontology.concepts


def test_alpha_given_for_the_refresh_rejudges_the_pages(world) -> None:
    make_run(
        "r1", world / "ontologies" / "tiny.owl"
    )  # the crawl judged 4 pages relevant (R 0.9) and 2 not (R 0.1)
    pipeline = str(world / "pipelines" / "tiny.toml")
    options = RefreshOptions(run="r1", dry_run=True)
    assert refresh_ontology(pipeline, options).relevant_pages == 4
    capped = dict(refresh_ontology(pipeline, replace(options, max_pages=3)).summary())
    assert capped["relevant pages"] == "3 of 4, the most relevant"  # it said 3, not of what
    assert capped["irrelevant pages (contrast)"] == "2"
    looser = RefreshOptions(run="r1", dry_run=True, overrides=("relevance.alpha=0.05",))
    assert refresh_ontology(pipeline, looser).relevant_pages == 6
    stricter = RefreshOptions(run="r1", dry_run=True, overrides=("relevance.alpha=0.95",))
    with pytest.raises(RefreshError):  # no page passes: nothing to learn from
        refresh_ontology(pipeline, stricter)


def test_dry_run_writes_nothing(world, graph_server, graph_store) -> None:
    make_run("r1", world / "ontologies" / "tiny.owl")
    before = files(world)
    uri = graph_server.uri(graph_store.graph_name)
    result = refresh_ontology(
        str(world / "pipelines" / "tiny.toml"),
        untested(run="r1", dry_run=True, overrides=(f"graph.uri={uri}",)),
    )
    assert [t.term for t in result.added] == ["缆车", "导游", "门票"]
    assert result.files == [] and result.how_to_use() is None and result.graph is None
    assert files(world) == before
    assert graph_store.run("MATCH (n) RETURN count(n)").rows == [[0]]


def test_cli_prints_terms_and_where_they_went(world) -> None:
    make_run("r1", world / "ontologies" / "tiny.owl")
    pipeline = str(world / "pipelines" / "tiny.toml")
    before = files(world)
    result = runner.invoke(
        app, ["refresh-ontology", pipeline, "--run", "r1", "--significance", "1", "--dry-run"]
    )
    assert result.exit_code == 0, result.output
    assert "缆车" in result.output and "景区" in result.output
    assert "nothing written" in result.output
    assert files(world) == before
    result = runner.invoke(
        app, ["refresh-ontology", pipeline, "--run", "r1", "--significance", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "tiny.v2.owl" in result.output and "--ontology " in result.output


def test_new_terms_on_a_narrow_terminal_read_a_line_each(world, monkeypatch) -> None:
    """At 80 columns the table would not fit: each term is one sentence, numbers whole."""
    make_run("r1", world / "ontologies" / "tiny.owl")
    console = Console(width=80, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    monkeypatch.setattr("kgcrawl.cli.ontology.console", console)
    args = ["refresh-ontology", str(world / "pipelines" / "tiny.toml"), "--run", "r1",
            "--significance", "1", "--dry-run"]  # fmt: skip
    assert runner.invoke(app, args, catch_exceptions=False).exit_code == 0
    text = console.export_text()
    assert "缆车 → under 景区: relevant pages 4, irrelevant 0, off-topic documents " in text
    assert "…" not in text


def _write_pages(store, domain: str, crawl: str, pages: list[tuple[str, str, bool]]) -> None:
    store.run("CREATE (:Crawl {id: $id, domain: $domain})", {"id": crawl, "domain": domain})
    for n, (url, text, relevant) in enumerate(pages, start=1):
        store.run(
            "MATCH (c:Crawl {id: $crawl}) "
            "CREATE (c)-[:FETCHED {order: $n}]->(:Page {url: $url, text: $text, "
            "relevant: $relevant, relevance: $relevance})",
            {
                "crawl": crawl,
                "n": n,
                "url": url,
                "text": text,
                "relevant": relevant,
                "relevance": 0.9 if relevant else 0.1,
            },
        )


def test_pages_from_the_graph_and_concepts_written_back(world, graph_server, graph_store) -> None:
    pages = [(f"http://a.example/{n}", t, True) for n, t in enumerate(RELEVANT)]
    pages += [(f"http://b.example/{n}", t, False) for n, t in enumerate(IRRELEVANT)]
    _write_pages(graph_store, "tiny", "crawl-1", pages)
    # Another domain's relevant pages: their words must not reach this ontology.
    other = [(f"http://c.example/{n}", "暴雨预警，洪水来袭。", True) for n in range(3)]
    _write_pages(graph_store, "rainstorm", "crawl-2", other)
    uri = graph_server.uri(graph_store.graph_name)

    result = refresh_ontology(
        str(world / "pipelines" / "tiny.toml"), untested(overrides=(f"graph.uri={uri}",))
    )
    assert [(t.term, t.parent) for t in result.added] == [
        ("缆车", NS + "Scenic"),
        ("导游", NS + "Tourism"),
        ("门票", NS + "Scenic"),
    ]
    assert result.source == f"graph {uri}" and result.relevant_pages == 4
    assert result.graph is not None and result.graph.concepts == 8

    rows = graph_store.run(
        "MATCH (c:Concept {label: '缆车'})-[:SUBCLASS_OF]->(p:Concept) "
        "RETURN c.iri, c.domain, c.depth, c.weight, p.iri"
    ).rows
    assert len(rows) == 1
    iri, domain, depth, weight, parent = rows[0]
    assert (iri, domain, depth, parent) == (NS + "缆车", "tiny", 2, NS + "Scenic")
    assert 0 < weight < 1
    assert graph_store.run("MATCH (c:Concept) RETURN count(c)").rows == [[8]]


def test_nothing_to_refresh_from(world, capsys) -> None:
    pipeline = str(world / "pipelines" / "tiny.toml")
    with pytest.raises(RefreshError, match=r"graph\.uri = none"):
        refresh_ontology(pipeline)
    make_run("storm", world / "ontologies" / "tiny.owl", domain="rainstorm")
    with pytest.raises(RefreshError, match="run storm crawled 'rainstorm', not 'tiny'"):
        refresh_ontology(pipeline, RefreshOptions(run="storm"))
    state = RunState.create("empty", run_meta(world / "ontologies" / "tiny.owl"))
    state.close()
    with pytest.raises(RefreshError, match="no relevant page of 'tiny' in the run empty"):
        refresh_ontology(pipeline, RefreshOptions(run="empty"))
    with pytest.raises(RefreshError, match=r"--min-lift must be at least 1, got 0\.5"):
        refresh_ontology(pipeline, RefreshOptions(run="empty", min_lift=0.5))
    with pytest.raises(SystemExit) as exited:
        main(["refresh-ontology", pipeline, "--run", "nope"])
    assert exited.value.code == 2
    assert "no run 'nope'" in capsys.readouterr().err


def test_the_documents_do_not_speak_for_a_place_name(world) -> None:
    """四川 (Sichuan) is in every relevant page and no document, as 缆车 is: but where a
    place is named depends on the web's region, not on its topic, so only the crawl's
    irrelevant pages may judge it, and there are none."""
    make_run("r1", world / "ontologies" / "tiny.owl", relevant=["景区缆车，四川。"] * 20,
             irrelevant=[])  # fmt: skip
    pipeline = str(world / "pipelines" / "tiny.toml")
    result = refresh_ontology(pipeline, RefreshOptions(run="r1", dry_run=True))
    assert [t.term for t in result.added] == ["缆车"] and result.tested == 2


def test_the_plural_of_a_label_is_no_new_term(world) -> None:
    """simplemma leaves "stratovolcanoes" as written: the plural of the label stratovolcano,
    which the crawler counts as the label, was offered as a new term."""
    onto = tiny_ontology()
    strato = Concept(NS + "Strato", {"en": "stratovolcano"}, parent=NS + "Tourism", edge=Edge.IS_A)
    onto = Ontology(onto.iri, {**onto.concepts, strato.iri: strato})
    write_ontology(onto, world / "ontologies" / "tiny.owl")
    relevant = [f"Stratovolcanoes and fumaroles near scenic spot {n}." for n in range(4)]
    make_run("r1", world / "ontologies" / "tiny.owl", relevant=relevant)
    result = refresh_ontology(
        str(world / "pipelines" / "tiny.toml"), untested(run="r1", dry_run=True)
    )
    added = [t.term for t in result.added]
    assert "fumaroles" in added and "stratovolcanoes" not in added, added
