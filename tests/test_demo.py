"""`kgcrawl demo` end to end on the small sandbox world, with a small page budget.

Real stages throughout: the FCA build, a sandbox server process, the crawl into
an embedded FalkorDB started in a temporary data folder, saved queries, the
refresh, and the report.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kgcrawl.cli import app
from kgcrawl.graph.server import status

CHECKOUT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SECTIONS = ("## Stage times", "## Ontology", "## Crawl", "## α against the truth",
            "## Against BFS", "## Queries", "## New terms", "## Plots")  # fmt: skip


def _demo(home: Path, out: Path, *args: str) -> str:
    """The report of a demo run at 80 columns, whose terminal output cut no table cell."""
    _demo_output(home, out, *args)
    return (out / "report.md").read_text(encoding="utf-8")


def _demo_output(home: Path, out: Path, *args: str) -> str:
    """What a demo run at 80 columns printed, having cut no table cell."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(home))
        patch.delenv("KGCRAWL_GRAPH_URI", raising=False)
        argv = ["demo", "--out", str(out), "--sandbox-size", "small", "--workers", "4", *args]
        result = CliRunner().invoke(app, argv, catch_exceptions=False, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    cut = [line for line in result.output.splitlines() if "…" in line]
    assert not cut, f"cells cut at 80 columns: {cut}"
    assert "next: " not in result.output  # the demo queries and refreshes itself
    return result.output


def _section(report: str, heading: str) -> str:
    return report.split(heading + "\n", 1)[1].split("\n## ", 1)[0].strip()


@pytest.mark.slow
def test_demo_end_to_end(tmp_path) -> None:
    shipped = sorted(p.name for p in (CHECKOUT / "ontologies").iterdir())
    home, out = tmp_path / "home", tmp_path / "demo"
    # α is lowered so that the small crawl has relevant pages to refresh from.
    report = _demo(home, out, "--max-pages", "150", "--set", "relevance.alpha=0.45")

    positions = [report.index(heading) for heading in SECTIONS]
    assert positions == sorted(positions)
    times = dict(re.findall(r"^\| (\w+) \| ([\d.]+) \|$", _section(report, "## Stage times"), re.M))
    assert list(times) == ["ontology", "crawl", "baseline", "queries", "refresh", "report", "total"]
    assert float(times["total"]) == pytest.approx(
        sum(float(v) for k, v in times.items() if k != "total"), abs=0.3
    )

    crawl = _section(report, "## Crawl")
    assert "relevant: R(p) > α = 0.45" in crawl
    last = crawl.strip().splitlines()[-1].split("|")
    assert last[1].strip() == "150"  # DP at the last checkpoint
    assert 0 < float(last[6].strip().rstrip("%")) <= 100  # true harvest from the sandbox
    alphas = _section(report, "## α against the truth").splitlines()
    crawl_row = next(line for line in alphas if line.startswith("| 0.45 (the crawl's) |"))
    assert crawl_row.split("|")[2].strip() == last[2].strip()  # pages above α = LP
    assert any("(best F1)" in line for line in alphas)

    against = _section(report, "## Against BFS")
    assert re.search(r"Run `tourism-bfs-\S+`: `bfs` on the same world with the same", against)
    assert "Its budget is 75 pages of the focused crawl's 150 (half of it by default" in against
    header, *rows = [line for line in against.splitlines() if line.startswith("| ")]
    assert header == "| DP | fcits_oh true harvest | fcits_oh LP | bfs true harvest | bfs LP |"
    cells = {row.split("|")[1].strip(): row.split("|")[2:6] for row in rows[1:]}
    assert cells["150"][0].strip() == last[6].strip() and cells["150"][2:] == [" – ", " – "]
    assert all(re.fullmatch(r" [\d.]+% ", cell) for cell in cells["75"][::2])  # both measured

    queries = _section(report, "## Queries")
    for name in ("crawl_summary", "top_concepts", "hosts_by_harvest"):
        assert f"### {name}" in queries
    summary = _section(queries, "### crawl_summary")
    started = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"  # epoch ms shown as ISO time
    assert re.search(
        rf"\| tourism-fcits_oh-\S+ \| tourism \| fcits_oh \| {started} \| 150 \|", summary
    )

    terms = _section(report, "## New terms")
    assert terms.startswith("| term | placed under |")
    assert str(out / "ontology" / "tourism.v2.owl") in terms
    assert (out / "ontology" / "tourism.v2.ttl").is_file()
    assert sorted(p.name for p in (CHECKOUT / "ontologies").iterdir()) == shipped

    plots = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", _section(report, "## Plots"))
    assert {"tourism-lp.png", "tourism-true_harvest.png"} <= set(plots)
    for name in plots:
        assert (out / name).read_bytes()[:8] == PNG_MAGIC

    runs = sorted(path.name for path in (home / "runs").iterdir())  # both kept under <data>
    assert [run.split("-")[1] for run in runs] == ["bfs", "fcits_oh"]
    assert status(home) is None  # the graph server the demo started is stopped


@pytest.mark.slow
def test_the_demo_of_the_other_domain_builds_crawls_and_refreshes_it(tmp_path) -> None:
    """`--domain rainstorm`: the rainstorm corpus, pipeline and truth, every stage."""
    home, out = tmp_path / "home", tmp_path / "demo"
    report = _demo(home, out, "--domain", "rainstorm", "--max-pages", "100",
                   "--set", "relevance.alpha=0.45")  # fmt: skip
    assert "an FCA ontology from `corpus/rainstorm`" in report
    assert (out / "ontology" / "rainstorm.fca.owl").is_file()
    last = _section(report, "## Crawl").splitlines()[-1].split("|")
    assert last[1].strip() == "100" and 0 < float(last[6].strip().rstrip("%")) <= 100
    runs = sorted(path.name for path in (home / "runs").iterdir())
    assert [run.split("-")[:2] for run in runs] == [["rainstorm", "bfs"], ["rainstorm", "fcits_oh"]]
    assert str(out / "ontology" / "rainstorm.v2.owl") in _section(report, "## New terms")
    assert "rainstorm-true_harvest.png" in _section(report, "## Plots")


@pytest.mark.slow
def test_on_an_english_web_the_demo_ontology_judges_pages_as_well_as_the_best_threshold(
    tmp_path,
) -> None:
    """The demo's FCA ontology names half its concepts in Chinese only (a corpus of mostly
    Chinese documents); the sparse profile is an English web. R(p) leaves out of W_T the
    topic words a page cannot name in its language, so English pages score on the scale
    calibration measured (scoring/relevance.py): without it, α judged 2.6 % of a 2 000-page
    crawl relevant, F1 0.12 against the truth (best threshold 0.95)."""
    # one worker: the crawl is the same every time (with four, fcits_oh met no relevant page
    # in 200 now and then, its order following the requests' timing)
    report = _demo(tmp_path / "home", tmp_path / "demo", "--max-pages", "200", "--workers", "1",
                   "--seed", "1", "--sandbox-profile", "sparse")  # fmt: skip
    lines = _section(report, "## α against the truth").splitlines()
    # the crawl's own judgement: by the pipeline's α, or "as crawled" when the crawl took
    # the α of the web's words (crawl/core.py `_judge_pending`)
    rows = [line.split("|") for line in lines if line.startswith(("| 0.", "| as crawled"))]
    f1 = {"best" if "(best F1)" in row[1] else "own": float(row[5]) for row in rows}
    assert len(rows) == 2 and f1["own"] >= 0.9 * f1["best"] > 0


@pytest.mark.slow
def test_demo_without_relevant_pages_says_why_there_is_no_refresh(tmp_path) -> None:
    """A second demo into the same folder and graph, which finds no relevant page: its
    report is of its own crawl alone, and no file of the first passes for one of its own."""
    home, out = tmp_path / "home", tmp_path / "demo"
    first = _demo(home, out, "--max-pages", "30", "--set", "relevance.alpha=0.3")
    assert (out / "ontology" / "tourism.v2.owl").is_file() and (out / "tourism-lp.png").is_file()
    printed = _demo_output(home, out, "--max-pages", "30", "--set", "relevance.alpha=0.99")
    assert re.search(r"report: \S+ \(it replaced the earlier demo's \d+ files\)", printed)
    report = (out / "report.md").read_text(encoding="utf-8")
    runs = sorted(path.name for path in (home / "runs").iterdir() if "fcits_oh" in path.name)
    assert len(runs) == 2 and runs[0] in _section(first, "### crawl_summary")
    summary = _section(report, "### crawl_summary").split("\n### ")[0]  # its table alone
    rows = [line for line in summary.splitlines() if line.startswith("| ")][2:]
    assert [row.split("|")[1].strip() for row in rows] == [runs[1]]
    terms = _section(report, "## New terms")
    assert terms.startswith("No refresh: no relevant page")
    assert re.search(r"α = 0\.99; the highest R\(p\) was 0\.\d\d", terms)
    assert not (out / "ontology" / "tourism.v2.owl").exists()
    # No page passed α in either crawl: LP and AC are zero everywhere, and not drawn.
    plots = _section(report, "## Plots")
    assert "tourism-lp.png" not in plots and "tourism-ac.png" not in plots
    assert "Not drawn: lp (zero everywhere); ac (zero everywhere); recall (not" in plots
    assert "tourism-true_harvest.png" in plots
    assert not (out / "tourism-lp.png").exists()


def test_demo_on_a_domain_the_sandbox_has_no_truth_for_says_so(tmp_path) -> None:
    report = _demo(tmp_path / "home", tmp_path / "demo", "--max-pages", "20",
                   "--set", "domain=webkb")  # fmt: skip
    note = "the sandbox has no truth for domain webkb: true harvest and recall are not measured"
    assert f"Note: {note}." in _section(report, "## Crawl")
    against = _section(report, "## Against BFS").splitlines()
    # not 0 % true harvest (LP depends on the ontology the demo builds, so it is not pinned)
    assert any(re.fullmatch(r"\| 10 \| – \| \d+ \| – \| \d+ \|", row) for row in against)
    plots = _section(report, "## Plots")
    assert "true_harvest (not measured); recall (not measured)" in plots


def test_demo_options_are_checked_before_anything_runs(tmp_path) -> None:
    from kgcrawl.demo import DemoError, DemoOptions, run_demo

    with pytest.raises(DemoError, match="--baseline-pages must be at least 1, got 0"):
        run_demo(DemoOptions(out=tmp_path / "demo", baseline_pages=0))
    assert not (tmp_path / "demo").exists()
    assert DemoOptions(max_pages=2000).baseline_budget == 1000
    assert DemoOptions(max_pages=2000, baseline_pages=2000).baseline_budget == 2000
