"""`kgcrawl runs export` in its three formats, and `kgcrawl pipeline init`, on real files."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kgcrawl
from kgcrawl.cli import app
from kgcrawl.export import ExportError, export_run

runner = CliRunner()
FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19, "graph.uri": "none", "fetch.delay": 0}
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$")


@pytest.fixture(scope="module")
def run(sandbox, tmp_path_factory):
    """A 30-page run of the session's sandbox web (its CrawlResult)."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(home))
        yield kgcrawl.crawl("tourism", max_pages=30, resolve=sandbox.resolve, set=FIXED)


@pytest.fixture
def home(run, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(run.state_path.parents[2]))
    return run


def test_csv_to_stdout_and_into_a_folder(home, tmp_path) -> None:
    out = runner.invoke(app, ["runs", "export", home.run_id])
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert len(rows) == home.outcomes and sum(r["reason"] == "" for r in rows) == home.dp
    out = runner.invoke(
        app, ["runs", "export", home.run_id, "--relevant-only", "--out", str(tmp_path)]
    )
    assert out.exit_code == 0, out.output
    written = list(csv.DictReader((tmp_path / f"{home.run_id}.csv").open(encoding="utf-8")))
    assert len(written) == home.lp and all(r["relevant"] == "1" for r in written)


def test_jsonl_has_text_and_concept_mentions(home) -> None:
    out = runner.invoke(app, ["runs", "export", home.run_id, "--format", "jsonl"])
    assert out.exit_code == 0, out.output
    pages = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(pages) == home.dp
    assert [p["order"] for p in pages] == sorted(p["order"] for p in pages)
    first = pages[0]
    assert first["url"].startswith("http") and first["text"].strip()
    assert ISO.match(first["fetched_at"])
    counts = [c["count"] for c in first["concepts"]]
    assert counts == sorted(counts, reverse=True) and all(n > 0 for n in counts)
    assert any(c["label"] == "旅游" for p in pages for c in p["concepts"])
    relevant = runner.invoke(app, ["runs", "export", home.run_id, "-f", "jsonl", "--relevant-only"])
    assert len(relevant.stdout.splitlines()) == home.lp


def test_markdown_one_file_per_page_with_front_matter(home, tmp_path) -> None:
    out = runner.invoke(
        app, ["runs", "export", home.run_id, "-f", "markdown", "--out", str(tmp_path)]
    )
    assert out.exit_code == 0, out.output
    files = sorted(tmp_path.glob("*.md"))
    assert len(files) == home.dp
    text = files[0].read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    meta = {k: json.loads(v) for k, v in (line.split(": ", 1) for line in front.splitlines())}
    assert set(meta) == {"url", "title", "relevance", "relevant", "fetched_at"}
    assert isinstance(meta["relevance"], float) and isinstance(meta["relevant"], bool)
    assert ISO.match(meta["fetched_at"])
    assert body.lstrip().startswith(f"# {meta['title']}")


def test_out_naming_a_file_writes_that_file_in_its_suffix_format(home, tmp_path) -> None:
    path = tmp_path / "trips" / "pages.jsonl"
    out = runner.invoke(app, ["runs", "export", home.run_id, "--out", str(path)])
    assert out.exit_code == 0, out.output
    pages = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(pages) == home.dp and all(p["text"] for p in pages)
    with pytest.raises(ExportError, match=r"a \.jsonl file, but --format csv"):
        export_run(home.run_id, "csv", out=tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()


def test_an_export_writes_over_nothing_unless_forced(home, tmp_path) -> None:
    """A file of labels (`runs sample`) was replaced by an export of the same name without
    a word, a second run's Markdown went in among the first's, and `--out p.txt` made a
    folder: each is now a one-line error, the file as it was."""
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"url": "http://a.cn/", "relevant": true}\n', encoding="utf-8")
    out = runner.invoke(app, ["runs", "export", home.run_id, "--out", str(labels)])
    assert out.exit_code != 0 and labels.read_text(encoding="utf-8").count("\n") == 1
    assert str(out.exception) == f"--out {labels}: exists; --force writes over it"
    forced = runner.invoke(app, ["runs", "export", home.run_id, "--out", str(labels), "--force"])
    assert forced.exit_code == 0 and len(labels.read_text(encoding="utf-8").splitlines()) == home.dp

    folder = tmp_path / "notes"
    assert export_run(home.run_id, "markdown", out=folder).pages == home.dp
    with pytest.raises(ExportError, match=rf"holds {home.dp} Markdown files; --force"):
        export_run(home.run_id, "markdown", out=folder)
    assert export_run(home.run_id, "markdown", out=folder, force=True).pages == home.dp
    export_run(home.run_id, out=folder)  # a CSV beside them, named after the run
    with pytest.raises(ExportError, match="exists; --force"):
        export_run(home.run_id, out=folder)

    with pytest.raises(ExportError, match=r"p\.txt: not a \.csv or \.jsonl file"):
        export_run(home.run_id, out=tmp_path / "p.txt")
    assert not (tmp_path / "p.txt").exists()


def test_markdown_needs_a_folder_and_formats_are_checked(home) -> None:
    out = runner.invoke(app, ["runs", "export", home.run_id, "-f", "markdown"])
    assert out.exit_code != 0
    with pytest.raises(ExportError, match=r"did you mean 'jsonl'"):
        export_run(home.run_id, "jsonll")


def test_pipeline_init_writes_a_checked_commented_file_once(tmp_path, monkeypatch) -> None:
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(tmp_path)
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://a.example/\r\n# a comment\r\n\r\nhttps://b.example/x  # why\r\n",
                     "utf-8-sig")  # as Windows Notepad saves it: a BOM, CRLF  # fmt: skip
    args = ["pipeline", "init", "museums", "--ontology", str(root / "ontologies/tourism.owl"),
            "--seeds", str(seeds), "--seeds", "http://c.example/", "--language", "zh"]  # fmt: skip
    refused = runner.invoke(app, args)  # no corpus/museums to calibrate α on, no --corpus
    assert refused.exit_code != 0 and not (tmp_path / "pipelines" / "museums.toml").exists()
    assert str(refused.exception).startswith("--corpus: ")
    assert "(corpus/museums is not a folder)" in str(refused.exception)
    corpus = tmp_path / "corpus" / "museums"
    corpus.mkdir(parents=True)
    (corpus / "empty.txt").write_text("", "utf-8")
    (corpus / "binary.txt").write_bytes(bytes(range(256)) * 8)
    unreadable = runner.invoke(app, args)  # a folder, but nothing in it to calibrate on
    assert unreadable.exit_code != 0 and not (tmp_path / "pipelines" / "museums.toml").exists()
    assert str(unreadable.exception) == (
        "--corpus corpus/museums: empty corpus (no readable document in 2 file(s))"
    )
    (corpus / "a.txt").write_text("博物馆免费开放。", "utf-8")
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    path = tmp_path / "pipelines" / "museums.toml"
    text = path.read_text(encoding="utf-8")
    assert 'alpha = "auto"' in text and 'beta = "auto"' in text and "# " in text
    assert not Path(re.search(r'ontology = "([^"]+)"', text).group(1)).is_absolute()
    settings = kgcrawl.load_settings("museums")
    assert settings.seeds == ("http://a.example/", "https://b.example/x", "http://c.example/")
    assert settings.topic == "旅游" and settings.language == "zh"
    assert settings.ontology == (root / "ontologies/tourism.owl").resolve()
    check = runner.invoke(app, ["pipeline", "check", "museums"])
    assert check.exit_code == 0, check.output
    (corpus / "a.txt").rename(tmp_path / "a.txt")  # the first crawl could not calibrate α
    check = runner.invoke(app, ["pipeline", "check", "museums"])
    assert check.exit_code != 0 and "museums: empty corpus" in str(check.exception)
    for file in corpus.iterdir():
        file.unlink()
    corpus.rmdir()
    check = runner.invoke(app, ["pipeline", "check", "museums"])
    assert check.exit_code != 0 and "corpus/museums is not a folder" in str(check.exception)
    assert not any(line.startswith("ok ") for line in check.output.splitlines())
    again = runner.invoke(app, args)
    assert again.exit_code != 0 and path.read_text(encoding="utf-8") == text  # not overwritten
    wrong = runner.invoke(app, [*args[:2], "other", *args[3:], "--topic", "hotell"])
    assert wrong.exit_code != 0 and not (tmp_path / "pipelines" / "other.toml").exists()


def test_a_new_domain_from_pipeline_init_crawls_the_sandbox(tmp_path, monkeypatch) -> None:
    """`pipeline init` → `crawl --sandbox`, as a new user would: α calibrated on --corpus."""
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    init = ["pipeline", "init", "trips", "--ontology", str(root / "ontologies/tourism.owl"),
            "--seeds", "http://travel.sina.com.cn/", "--language", "zh",
            "--corpus", str(root / "corpus/tourism")]  # fmt: skip
    assert runner.invoke(app, init).exit_code == 0
    text = (tmp_path / "pipelines" / "trips.toml").read_text(encoding="utf-8")
    assert re.search(r'positives = "[^"]*corpus/tourism"', text)
    # the pipeline by a path relative to here, which the run records whole
    crawl = ["crawl", "pipelines/trips.toml", "--sandbox", "--sandbox-size", "small",
             "--max-pages", "20", "--run-id", "t1", "--set", "graph.uri=none",
             "--set", "crawl.max_pages=abc"]  # fmt: skip
    out = runner.invoke(app, crawl)
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    assert "--set crawl.max_pages=abc is not used: --max-pages 20 replaces it" in said
    assert "calibrating α and β for trips" in said  # no cache yet: calibrated, said in a line
    assert "tourism, rainstorm" in said  # which domains the sandbox has truth for
    assert "pages (DP): 20" in said or "│ 20 " in out.output
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # it said "no such pipeline file" from here
    export = runner.invoke(app, ["runs", "export", "t1", "--out", "t1.jsonl"])
    assert export.exit_code == 0, export.output
    assert (tmp_path / "elsewhere" / "t1.jsonl").is_file()
    as_csv = runner.invoke(app, ["runs", "export", "t1", "--out", "t1.csv"])
    rows = len((tmp_path / "elsewhere" / "t1.csv").read_text(encoding="utf-8").splitlines()) - 1
    assert f"{rows} outcomes → t1.csv" in as_csv.output  # a CSV row for each, failed ones too
