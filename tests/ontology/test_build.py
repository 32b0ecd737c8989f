"""`kgcrawl build-ontology` end to end on a tiny hand-made corpus, and every bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import concepts
import pytest
import rdflib
from rdflib.namespace import OWL, RDF, RDFS
from typer.testing import CliRunner

import kgcrawl
from kgcrawl.cli import app, main
from kgcrawl.errors import KgcrawlError
from kgcrawl.ontology.build import BuildOptions, build_ontology
from kgcrawl.ontology.fca import read_cxt
from kgcrawl.ontology.lattice import LatticeError
from kgcrawl.ontology.model import Concept, Edge, Ontology, OntologyError
from kgcrawl.ontology.owl import read_ontology, write_ontology
from kgcrawl.ontology.terms import TermsError
from kgcrawl.text.corpus import CorpusError

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("jieba_words")

PINS = ("酒店", "古镇", "住宿", "博物馆", "hotel", "museum", "accommodation")
# The incidence table, worked out from the texts below; documents in path order.
INCIDENCE = {
    "en.txt": "....XXX",
    "hotels.txt": "XXX....",
    "inn.md": ".XX....",
    "museum.html": ".X.X...",
    "news.jsonl#n1": "XX.....",
}
BASE_NS = "http://example.org/tour#"
STAGES = ("read", "segment", "terms", "context", "lattice", "taxonomy", "diagram", "owl")


def _corpus(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "hotels.txt").write_text("这家酒店位于古镇中心，酒店住宿干净。", encoding="utf-8")
    (root / "inn.md").write_text("# 客栈\n\n古镇客栈住宿便宜，客栈老板热情。", encoding="utf-8")
    (root / "museum.html").write_text(
        "<html><body><nav>首页</nav><article><p>古镇博物馆展示历史文物，博物馆免费开放。"
        "</p></article></body></html>",
        encoding="utf-8",
    )
    (root / "en.txt").write_text(
        "The Hotel near the museum offers cheap accommodation. Hotel guests love the museum.",
        encoding="utf-8",
    )
    record = {"id": "n1", "text": "景区酒店旺季价格上涨，古镇游客增多。"}
    (root / "news.jsonl").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return root


def _options(tmp_path: Path, **kwargs) -> BuildOptions:
    defaults = {
        "domain": "tour",
        "topic": "旅游",
        "out": tmp_path / "ontologies" / "tour.fca.owl",
        "lattice_dir": tmp_path / "lattice",
        "terms": PINS,
        "max_terms": len(PINS),
        # Five documents: the strict order of the attribute concepts, worked out by hand.
        "subsumption": 1.0,
        "lift": 1.0,
    }
    return BuildOptions(**(defaults | kwargs))


@pytest.fixture
def base_owl(tmp_path: Path) -> Path:
    concepts_ = [
        Concept(BASE_NS + "Tourism", {"zh": "旅游", "en": "tourism"}),
        Concept(
            BASE_NS + "Accommodation",
            {"zh": "住宿", "en": "accommodation"},
            parent=BASE_NS + "Tourism",
            edge=Edge.IS_A,
        ),
        Concept(
            BASE_NS + "Hotel",
            {"zh": "酒店", "en": "hotel"},
            parent=BASE_NS + "Accommodation",
            edge=Edge.IS_A,
        ),
    ]
    path = tmp_path / "base" / "tour.owl"
    write_ontology(Ontology("http://example.org/tour", {c.iri: c for c in concepts_}), path)
    return path


def _shape(onto: Ontology) -> dict[str, tuple]:
    """What a round trip must keep: tree parent, edge, extra parents, labels, altLabels."""
    return {
        iri: (
            c.parent,
            c.edge,
            tuple(sorted(c.extra_parents)),
            c.labels,
            {lang: tuple(sorted(t)) for lang, t in c.alt_labels.items()},
        )
        for iri, c in onto.concepts.items()
    }


def test_incidence_table_cell_by_cell(tmp_path) -> None:
    result = build_ontology(_corpus(tmp_path / "corpus"), _options(tmp_path))
    ctx = result.context
    assert ctx.attributes == PINS
    assert ctx.objects == tuple(INCIDENCE)
    for d, (doc, row) in enumerate(INCIDENCE.items()):
        for t, cell in enumerate(row):
            assert ctx.has(d, t) == (cell == "X"), (doc, PINS[t])
    assert read_cxt(tmp_path / "lattice" / "tour.cxt") == ctx
    library = concepts.Context.fromfile(str(tmp_path / "lattice" / "tour.cxt"), frmat="cxt")
    assert library.properties == PINS


def test_taxonomy_and_files(tmp_path) -> None:
    result = build_ontology(_corpus(tmp_path / "corpus"), _options(tmp_path))
    labels = [cls.labels for cls in result.taxonomy.classes]
    assert labels == [("酒店",), ("古镇",), ("住宿",), ("博物馆",), PINS[4:]]
    onto = result.ontology
    label = {iri: c.label() for iri, c in onto.concepts.items()}
    tree = {c.label(): label.get(c.parent) for c in onto.concepts.values()}
    assert tree == {
        "旅游": None,
        "古镇": "旅游",
        "hotel": "旅游",
        "酒店": "古镇",
        "住宿": "古镇",
        "博物馆": "古镇",
    }
    english = next(c for c in onto.concepts.values() if c.label() == "hotel")
    assert english.labels == {"en": "hotel"}
    assert english.alt_labels == {"en": ("museum", "accommodation")}
    assert english.iri == "https://w3id.org/kgcrawl/fca/tour#hotel"
    # ⊤, 古镇, 酒店, 住宿, 博物馆, the English class, 酒店 ∧ 住宿 = ({hotels.txt}, 3 terms), ⊥
    assert len(result.lattice) == 8
    expected = [tmp_path / "lattice" / "tour.cxt", tmp_path / "lattice" / "tour.gv"]
    if shutil.which("dot"):
        expected.append(tmp_path / "lattice" / "tour.svg")
    expected += [tmp_path / "ontologies" / "tour.fca.owl", tmp_path / "ontologies" / "tour.fca.ttl"]
    assert result.files == expected and all(p.is_file() for p in expected)
    assert result.svg_skipped == (shutil.which("dot") is None)
    gv = (tmp_path / "lattice" / "tour.gv").read_text(encoding="utf-8")
    # The full lattice, being small: 古镇 and English under ⊤; 酒店, 住宿, 博物馆 under 古镇;
    # {hotels.txt} under 酒店 and 住宿; ⊥ under {hotels.txt}, 博物馆 and English.
    assert "古镇\\n(4 docs)" in gv and gv.count(" -> ") == 10
    assert list(result.timings) == list(STAGES)


def test_owl_and_turtle_round_trip(tmp_path) -> None:
    result = build_ontology(_corpus(tmp_path / "corpus"), _options(tmp_path))
    owl = tmp_path / "ontologies" / "tour.fca.owl"
    ttl = owl.with_suffix(".ttl")
    assert _shape(read_ontology(owl)) == _shape(result.ontology)
    assert _shape(read_ontology(ttl)) == _shape(result.ontology)
    graph = rdflib.Graph().parse(ttl, format="turtle")
    classes = set(graph.subjects(RDF.type, OWL.Class))
    assert len(classes) == len(result.ontology)
    langs = {lit.language for lit in graph.objects(None, RDFS.label)}
    assert langs == {"zh", "en"}


def test_merge_into_a_base_ontology(tmp_path, base_owl) -> None:
    options = _options(tmp_path, base=base_owl, topic=None)
    result = build_ontology(_corpus(tmp_path / "corpus"), options)
    assert result.merged.joined == {
        "酒店": BASE_NS + "Hotel",
        "住宿": BASE_NS + "Accommodation",
        "hotel": BASE_NS + "Hotel",
    }
    onto = read_ontology(tmp_path / "ontologies" / "tour.fca.owl")
    assert len(onto) == 5 and onto.root == BASE_NS + "Tourism"
    new = "https://w3id.org/kgcrawl/fca/tour#"
    assert onto.concepts[new + "古镇"].parent == BASE_NS + "Tourism"
    assert onto.concepts[new + "博物馆"].parent == new + "古镇"
    assert onto.concepts[BASE_NS + "Hotel"].parent == BASE_NS + "Accommodation"
    assert onto.concepts[BASE_NS + "Hotel"].alt_labels == {"en": ("museum",)}


def test_defaults_follow_the_corpus_folder(tmp_path, monkeypatch) -> None:
    _corpus(tmp_path / "travel")
    monkeypatch.chdir(tmp_path)
    result = build_ontology("travel", BuildOptions(terms=PINS, max_terms=len(PINS)))
    assert result.domain == "travel"
    assert result.ontology.concepts[result.merged.topic].labels == {"en": "travel"}
    assert (tmp_path / "lattice" / "travel.cxt").is_file()
    assert (tmp_path / "ontologies" / "travel.fca.owl").is_file()
    assert (tmp_path / "ontologies" / "travel.fca.ttl").is_file()


def test_progress_reports_every_stage(tmp_path) -> None:
    calls: list[tuple[str, int, int]] = []
    build_ontology(
        _corpus(tmp_path / "corpus"),
        _options(tmp_path),
        lambda *call: calls.append(call),
    )
    stages = list(dict.fromkeys(stage for stage, _, _ in calls))
    assert stages == list(STAGES)
    assert ("read", 5, 5) in calls and ("segment", 5, 5) in calls


@pytest.mark.reasoner
@pytest.mark.skipif(shutil.which("java") is None, reason="HermiT needs java on PATH")
def test_hermit_finds_the_built_ontology_consistent(tmp_path, base_owl) -> None:
    import owlready2

    build_ontology(_corpus(tmp_path / "corpus"), _options(tmp_path, base=base_owl, topic=None))
    world = owlready2.World()
    try:
        owl = tmp_path / "ontologies" / "tour.fca.owl"
        loaded = world.get_ontology(f"file://{owl}").load()
        owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=0)
        assert list(world.inconsistent_classes()) == []
        assert len(list(loaded.classes())) == 5
    finally:
        world.close()


def test_cli_builds_and_prints_the_summary(tmp_path) -> None:
    corpus = _corpus(tmp_path / "corpus")
    (corpus / "[bold] broken.txt").symlink_to(corpus / "missing.txt")  # shown as named
    args = [
        "build-ontology",
        str(corpus),
        "--domain",
        "tour",
        "--out",
        str(tmp_path / "o" / "tour.fca.owl"),
        "--lattice-dir",
        str(tmp_path / "lattice"),
        "--max-terms",
        str(len(PINS)),
        *[arg for pin in PINS for arg in ("--term", pin)],
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "documents read" in result.output and "5 (4 Chinese, 1 other)" in result.output
    assert "formal concepts" in result.output
    skipped = [line for line in result.output.splitlines() if "broken.txt" in line]
    assert len(skipped) == 1 and skipped[0].startswith("skipped [bold] broken.txt: unreadable")
    assert (tmp_path / "o" / "tour.fca.owl").is_file()
    owl = tmp_path / "o" / "tour.fca.owl"
    init = f"kgcrawl pipeline init tour --ontology {owl} --language zh --corpus {corpus}"
    assert f"\nnext: {init} --seeds URL\n" in result.output  # mostly Chinese, not corpus/tour
    assert f"\nwritten: {owl}\n" in result.output  # whole, not folded in a table cell


def test_without_graphviz_a_rebuild_removes_the_old_svg_and_says_so(tmp_path, monkeypatch) -> None:
    """A rebuild without `dot` rewrote the .cxt and .gv but left the SVG of the earlier
    build beside them, a picture of a lattice that no longer is."""
    monkeypatch.setenv("PATH", str(tmp_path / "no-graphviz"))  # where write_diagram looks
    lattice = tmp_path / "lattice"
    lattice.mkdir()
    old = lattice / "tour.svg"
    old.write_text("<svg>the lattice of an earlier build</svg>", encoding="utf-8")
    args = ["build-ontology", str(_corpus(tmp_path / "corpus")), "--domain", "tour",
            "--out", str(tmp_path / "o" / "tour.fca.owl"), "--lattice-dir", str(lattice),
            *[arg for pin in PINS for arg in ("--term", pin)]]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (lattice / "tour.gv").is_file() and not old.exists()
    said = _row(result.output, "not written")
    assert said.startswith("SVG: needs Graphviz's `dot`")
    assert said.endswith("; removed the old tour.svg, drawn from an earlier .gv"), said
    again = runner.invoke(app, args)  # nothing left to remove: no word of it
    assert again.exit_code == 0, again.output
    assert _row(again.output, "not written").endswith("opens in any Graphviz viewer")


def _row(table: str, what: str) -> str:
    """The value of one row of a two-column summary table, its folded lines joined."""
    cells = [line.split("│")[1:3] for line in table.splitlines() if line.count("│") == 3]
    start = next(i for i, (name, _) in enumerate(cells) if name.strip() == what)
    end = next((i for i in range(start + 1, len(cells)) if cells[i][0].strip()), len(cells))
    return " ".join(value.strip() for _, value in cells[start:end])


def test_the_next_step_as_printed_writes_a_pipeline_that_passes_its_check(
    tmp_path, monkeypatch
) -> None:
    """The hint names what `pipeline init` would get wrong (the corpus α is calibrated on,
    the pages' language), so that the file it writes can crawl."""
    monkeypatch.chdir(tmp_path)
    _corpus(tmp_path / "notes")
    out = runner.invoke(app, ["build-ontology", "notes", "--domain", "tour",
                              *[arg for pin in PINS for arg in ("--term", pin)]])  # fmt: skip
    assert out.exit_code == 0, out.output
    hint = out.output.rsplit("next: ", 1)[1].split()
    assert hint[:3] == ["kgcrawl", "pipeline", "init"] and hint[-2:] == ["--seeds", "URL"]
    made = runner.invoke(app, [*hint[1:-1], "http://a.example/"])
    assert made.exit_code == 0, made.output
    settings = kgcrawl.load_settings("tour")
    assert settings.language == "zh" and settings.calibration.positives == "../notes"
    assert runner.invoke(app, ["pipeline", "check", "tour"]).exit_code == 0


def test_the_next_step_crawls_a_domain_that_has_a_pipeline(tmp_path) -> None:
    result = build_ontology(_corpus(tmp_path / "corpus"), BuildOptions(
        domain="tourism", out=tmp_path / "t.owl", lattice_dir=tmp_path, max_terms=len(PINS),
        terms=tuple(PINS)))  # fmt: skip
    assert result.next_step() == f"kgcrawl crawl tourism --ontology {tmp_path / 't.owl'}"


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[list[str], BuildOptions, type, str]]:
    """name → (CLI arguments, library options, error type, text the one line must hold)."""
    corpus = str(_corpus(tmp_path / "corpus"))
    empty = tmp_path / "empty"
    empty.mkdir()
    unreadable = tmp_path / "unreadable"
    unreadable.mkdir()
    (unreadable / "a.txt").symlink_to(unreadable / "gone.txt")
    not_owl = tmp_path / "not.owl"
    not_owl.write_text("this is not RDF", encoding="utf-8")
    no_terms = tmp_path / "terms.txt"
    no_terms.write_text("# nothing here\n", encoding="utf-8")
    two = tmp_path / "two"
    two.mkdir()
    for name in ("hotels.txt", "inn.md"):
        shutil.copy(Path(corpus) / name, two / name)
    alike = tmp_path / "alike"
    alike.mkdir()
    for n in range(3):  # its 8 candidates (hotel, museum sell, …) in every document
        (alike / f"{n}.txt").write_text("The hotel museum sells museum tickets.", encoding="utf-8")
    out = ["--out", str(tmp_path / "o.owl"), "--lattice-dir", str(tmp_path / "lat")]
    opts = {"out": tmp_path / "o.owl", "lattice_dir": tmp_path / "lat"}
    return {
        "missing corpus": (
            [str(tmp_path / "nowhere"), *out],
            BuildOptions(**opts),
            CorpusError,
            "nowhere: no such corpus folder",
        ),
        "empty corpus": ([str(empty), *out], BuildOptions(**opts), CorpusError, "empty corpus"),
        "only unreadable files": (
            [str(unreadable), *out],
            BuildOptions(**opts),
            CorpusError,
            "no readable document in 1 file",
        ),
        "missing base": (
            [corpus, "--base", str(tmp_path / "none.owl"), *out],
            BuildOptions(base=tmp_path / "none.owl", **opts),
            OntologyError,
            "none.owl: no such file",
        ),
        "base is not OWL": (
            [corpus, "--base", str(not_owl), *out],
            BuildOptions(base=not_owl, **opts),
            OntologyError,
            "not.owl: not a readable ontology",
        ),
        "missing terms file": (
            [corpus, "--terms-file", str(tmp_path / "none.txt"), *out],
            BuildOptions(terms_file=tmp_path / "none.txt", **opts),
            TermsError,
            "none.txt: no such terms file",
        ),
        "empty terms file": (
            [corpus, "--terms-file", str(no_terms), *out],
            BuildOptions(terms_file=no_terms, **opts),
            TermsError,
            "terms.txt: the terms file lists no term",
        ),
        "max concepts exceeded": (
            [corpus, "--max-concepts", "3", "--min-df", "1", *out],
            BuildOptions(max_concepts=3, min_df=1, **opts),
            LatticeError,
            "more than 3 formal concepts",
        ),
        "bad max-df": (
            [corpus, "--max-df", "1.5", *out],
            BuildOptions(max_df=1.5, **opts),
            TermsError,
            "--max-df is a share",
        ),
        "too few documents": (
            [str(two), *out],
            BuildOptions(**opts),
            TermsError,
            "two: no term to build classes from: with 2 documents no word can be in 2 or more",
        ),
        "documents all alike": (
            [str(alike), *out],
            BuildOptions(**opts),
            TermsError,
            "alike: no term to build classes from: of 8 candidate words: 8 in too many documents",
        ),
        "bad engine": (
            [corpus, "--engine", "fast", *out],
            BuildOptions(engine="fast", **opts),
            LatticeError,
            "--engine must be one of cbo, concepts",
        ),
        "a file where --out's folder goes": (
            [corpus, "--out", str(not_owl / "o.owl"), "--lattice-dir", str(tmp_path / "lat")],
            BuildOptions(out=not_owl / "o.owl", lattice_dir=tmp_path / "lat"),
            TermsError,
            f"--out: {not_owl} is not a folder",
        ),
    }


BAD = [
    "missing corpus",
    "empty corpus",
    "only unreadable files",
    "missing base",
    "base is not OWL",
    "missing terms file",
    "empty terms file",
    "max concepts exceeded",
    "bad max-df",
    "too few documents",
    "documents all alike",
    "bad engine",
    "a file where --out's folder goes",
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_one_line_and_exit_code_2(case: str, tmp_path, capsys) -> None:
    args, options, error, text = _bad_inputs(tmp_path)[case]
    corpus = args[0]
    with pytest.raises(error) as caught:
        build_ontology(corpus, options)
    assert text in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "o.owl").exists()  # no ontology is written from bad input

    result = runner.invoke(app, ["build-ontology", *args])
    assert isinstance(result.exception, KgcrawlError) and text in str(result.exception)

    with pytest.raises(SystemExit) as exited:
        main(["build-ontology", *args])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and text in err
    assert len(err.strip().splitlines()) == 1


def test_topic_missing_from_the_base(tmp_path, base_owl) -> None:
    """Said with the option and the file, before the lattice is built and written (it named
    the base's IRI, after)."""
    options = _options(tmp_path, base=base_owl, topic="海滩")
    with pytest.raises(OntologyError, match=rf"--topic '海滩': {base_owl} has no concept"):
        build_ontology(_corpus(tmp_path / "corpus"), options)
    assert not list(options.lattice_dir.glob("*.cxt"))


def test_a_plural_no_lemmatiser_knows_is_its_singulars_concept(tmp_path) -> None:
    """simplemma leaves "stratovolcanoes" as written: it and "stratovolcano" were two
    concepts of one (a tester's volcano corpus). Now the plural is the singular's altLabel."""
    corpus = tmp_path / "volcanoes"
    corpus.mkdir()
    texts = [
        "The stratovolcano has steep slopes and lava.",
        "The stratovolcanoes of Japan are tall; their lava is thick.",
        "Many stratovolcanoes and one stratovolcano hold magma chambers.",
        "Magma chambers feed the stratovolcano.",
        "Ash clouds rise over the stratovolcanoes, and lava cools.",
        "Ash clouds and magma chambers.",
        "Lava and ash cover the plain.",
        "Magma chambers and ash clouds.",
    ]
    for n, text in enumerate(texts):
        (corpus / f"{n}.txt").write_text(text, encoding="utf-8")
    result = build_ontology(
        corpus, BuildOptions(out=tmp_path / "v.owl", lattice_dir=tmp_path / "lat")
    )
    labels = {c.label("en"): c for c in result.ontology.concepts.values()}
    assert "stratovolcanoes" not in labels
    assert labels["stratovolcano"].alt_labels["en"] == ("stratovolcanoes",)
    pinned = BuildOptions(terms=("stratovolcanoes",), out=tmp_path / "p.owl",
                          lattice_dir=tmp_path / "lat")  # fmt: skip
    kept = build_ontology(corpus, pinned).ontology.concepts.values()
    assert "stratovolcanoes" in {c.label("en") for c in kept}  # a pinned term stays as written
