"""metrics.csv, summary.md and the plots: documented columns, a row per strategy, real PNGs."""

from __future__ import annotations

import csv
import re
from dataclasses import replace

import matplotlib.image
import pytest

from kgcrawl.evaluate import report
from kgcrawl.evaluate.judge import TruthScores
from kgcrawl.evaluate.metrics import EvaluationError, MetricsRecorder, MetricsRow
from kgcrawl.evaluate.report import (
    CSV_COLUMNS,
    read_metrics_csv,
    separation_markdown,
    summary_markdown,
    write_metrics_csv,
    write_report,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _crawl(strategy: str, relevances: list[float], truth: list[bool] | None) -> list[MetricsRow]:
    recorder = MetricsRecorder(strategy, "tourism", report_every=2, relevant_urls={"p0", "p9"})
    for n, r in enumerate(relevances):
        recorder.add(r, r > 0.7, truth[n] if truth else None, f"p{n}")
    recorder.finish()
    return recorder.rows


@pytest.fixture
def rows() -> list[MetricsRow]:
    # fcits_oh: LP 3 of DP 4, AR 0.7; bfs: LP 1 of DP 5, AR 0.4 — all hand-checkable.
    return _crawl("fcits_oh", [0.9, 0.8, 0.2, 0.9], [True, True, False, True]) + _crawl(
        "bfs", [0.8, 0.1, 0.5, 0.3, 0.3], [True, False, True, False, False]
    )


def test_report_files_columns_and_plots(rows, tmp_path) -> None:
    files = write_report(rows, tmp_path / "out", title="tourism, 2 strategies")
    names = sorted(p.name for p in files)
    assert names == sorted(
        ["metrics.csv", "summary.md"]
        + [f"tourism-{m}.png" for m in ("lp", "ac", "ar", "sd", "true_harvest", "recall")]
    )
    for path in files:
        assert path.is_file() and path.parent == tmp_path / "out"

    with (tmp_path / "out" / "metrics.csv").open(encoding="utf-8") as src:
        records = list(csv.DictReader(src))
    assert tuple(records[0]) == CSV_COLUMNS
    assert [(r["strategy"], r["dp"]) for r in records] == [
        ("fcits_oh", "2"),
        ("fcits_oh", "4"),
        ("bfs", "2"),
        ("bfs", "4"),
        ("bfs", "5"),
    ]
    assert records[1]["lp"] == "3" and float(records[1]["ac"]) == 0.75

    for path in files:
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == PNG_MAGIC
            image = matplotlib.image.imread(path)
            assert image.shape[:2] == (450, 700)


def test_every_csv_column_is_documented() -> None:
    documented = re.findall(r"^\| (\w+) \|", report.__doc__, flags=re.MULTILINE)
    assert tuple(d for d in documented if d != "column") == CSV_COLUMNS


def test_summary_tables_2_and_3(rows) -> None:
    text = summary_markdown(rows, "tourism run")
    lines = text.splitlines()
    assert lines[0] == "# tourism run"
    table_2 = [line for line in lines if line.startswith("| ") and "%" in line]
    # fcits_oh stopped at DP 4, so BFS is taken at DP 4 too, not at its last row (DP 5).
    assert "Values at DP = 4, the largest every run reached (Table 2 style; best in bold)." in text
    assert table_2 == [
        "| FCITS_OH | 4 | **3** | **75.00 %** | **0.7000** | 0.2915 | **75.00 %** | **50.00 %** |",
        "| BFS | 4 | 1 | 25.00 % | 0.4250 | **0.2586** | 50.00 % | **50.00 %** |",
    ]
    assert "Friedman average ranks at DP = 4, the largest every run reached" in text
    start = lines.index("| Strategy | LP | AC | AR | SD | Average |")
    table_3 = lines[start + 2 : start + 4]
    # fcits_oh ranks first on LP, AC, AR and second on SD: average 1.25.
    assert table_3 == ["| FCITS_OH | 1 | 1 | 1 | 2 | 1.25 |", "| BFS | 2 | 2 | 2 | 1 | 1.75 |"]
    assert "Friedman χ² = 1.00 over 4 rankings of 2 strategies, p = 0.317." in text


def test_runs_that_ended_early_are_flagged_in_every_table(tmp_path) -> None:
    # bfs ran out of links at DP 7; ops had a row made there (an evaluation makes it).
    rows = [
        MetricsRow("ops", "tourism", 0, 5, 3, 0.6, 0.65, 0.2, ended="budget"),
        MetricsRow("ops", "tourism", 0, 7, 4, 4 / 7, 0.6, 0.2, ended="budget"),
        MetricsRow("ops", "tourism", 0, 10, 6, 0.6, 0.65, 0.2, ended="budget"),
        MetricsRow("bfs", "tourism", 0, 5, 1, 0.2, 0.3, 0.25, ended="frontier exhausted"),
        MetricsRow("bfs", "tourism", 0, 7, 2, 2 / 7, 0.3, 0.1, ended="frontier exhausted"),
    ]
    summary = summary_markdown(rows)
    assert "Values at DP = 7, the largest every run reached" in summary
    assert "| BFS † | 7 | 2 |" in summary and "| OPS | 7 | **4** |" in summary  # Table 2
    assert "| BFS † | 2 | 2 | 2 | 1 | 1.75 |" in summary  # Table 3
    assert "† a run ended before its page budget: BFS (frontier exhausted, repeat 0)." in summary
    assert read_metrics_csv(write_metrics_csv(rows, tmp_path / "m.csv")) == rows
    early = summary_markdown([replace(row, ended="budget") for row in rows])
    assert "†" not in early


def test_plots_zero_everywhere_are_not_drawn_and_the_summary_says_so(tmp_path) -> None:
    rows = [
        MetricsRow("ops", "tourism", 0, 10, 0, 0.0, 0.4, 0.2, 0.3, 0.1),
        MetricsRow("bfs", "tourism", 0, 10, 0, 0.0, 0.3, 0.25, 0.0, 0.0),
    ]
    assert report.unplotted(rows) == {"lp": "zero everywhere", "ac": "zero everywhere"}
    files = write_report(rows, tmp_path)
    assert sorted(p.name for p in files if p.suffix == ".png") == [
        f"tourism-{m}.png" for m in ("ar", "recall", "sd", "true_harvest")
    ]
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "Not plotted: LP (relevant pages downloaded) (zero everywhere); AC = LP / DP" in summary


def test_a_line_that_stops_short_says_why_in_the_legend() -> None:
    rows = [
        MetricsRow("fcits_oh", "tourism", 0, 20, 6, 0.3, 0.5, 0.2, ended="budget"),
        MetricsRow("bfs", "tourism", 0, 10, 2, 0.2, 0.3, 0.25, ended="budget"),
        MetricsRow("ops", "tourism", 0, 7, 2, 2 / 7, 0.3, 0.25, ended="frontier exhausted"),
    ]
    assert report._legend(rows) == {
        "fcits_oh": "FCITS_OH",
        "bfs": "BFS (10-page crawl)",
        "ops": "OPS (ended early, DP 7)",
    }


def test_without_truth_no_truth_plots_and_dashes(tmp_path) -> None:
    rows = [
        MetricsRow("ops", "rainstorm", 0, 10, 6, 0.6, 0.65, 0.2),
        MetricsRow("bfs", "rainstorm", 0, 10, 2, 0.2, 0.3, 0.25),
    ]
    files = write_report(rows, tmp_path)
    assert sorted(p.name for p in files if p.suffix == ".png") == [
        f"rainstorm-{m}.png" for m in ("ac", "ar", "lp", "sd")
    ]
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| OPS | 10 | **6** | **60.00 %** | **0.6500** | **0.2000** | – | – |" in summary


def test_repeats_are_averaged(tmp_path) -> None:
    rows = [
        MetricsRow("ops", "tourism", 0, 10, 6, 0.6, 0.6, 0.2),
        MetricsRow("ops", "tourism", 1, 10, 7, 0.7, 0.8, 0.1),
        MetricsRow("bfs", "tourism", 0, 10, 2, 0.2, 0.3, 0.25),
        MetricsRow("bfs", "tourism", 1, 10, 2, 0.2, 0.3, 0.25),
    ]
    summary = summary_markdown(rows)
    assert "means of 2 repeats" in summary
    assert "| OPS | 10 | **6.5** | **65.00 %** | **0.7000** | **0.1500** | – | – |" in summary


def test_csv_round_trip_and_bad_files(rows, tmp_path) -> None:
    path = write_metrics_csv(rows, tmp_path / "m.csv")
    assert read_metrics_csv(path) == rows
    no_truth = [MetricsRow("ops", "tourism", 0, 1, 1, 1.0, 0.9, 0.0)]
    assert read_metrics_csv(write_metrics_csv(no_truth, tmp_path / "n.csv")) == no_truth

    (tmp_path / "bad.csv").write_text("strategy,dp\nops,1\n", encoding="utf-8")
    with pytest.raises(EvaluationError, match=r"bad\.csv: expected the columns"):
        read_metrics_csv(tmp_path / "bad.csv")
    text = path.read_text(encoding="utf-8").replace(",4,3,", ",four,3,")
    (tmp_path / "typo.csv").write_text(text, encoding="utf-8")
    with pytest.raises(EvaluationError, match=r"typo\.csv line 3"):
        read_metrics_csv(tmp_path / "typo.csv")
    with pytest.raises(EvaluationError, match="no such metrics file"):
        read_metrics_csv(tmp_path / "missing.csv")
    with pytest.raises(EvaluationError, match="no metrics rows"):
        summary_markdown([])


def test_the_alpha_table_judges_by_the_crawls_own_judgement() -> None:
    """Pages of R 0.5 and 0.3 truly relevant, 0.2 not, α 0.40. A crawl that judged as
    "R(p) > α" has one page above α (precision 1, recall ½, F1 0.667); one that judged
    both relevant pages relevant (its α moved, crawl/core.py `_judge_pending`) has F1 1."""
    as_alpha = TruthScores([0.5, 0.3], [0.2], judged=(1, 0))
    rows = separation_markdown(as_alpha, 0.40).splitlines()
    assert "| 0.40 (the crawl's) | 1 | 100.00 % | 50.00 % | 0.667 |" in rows
    moved = TruthScores([0.5, 0.3], [0.2], judged=(2, 0))
    rows = separation_markdown(moved, 0.40).splitlines()
    assert "| as crawled (α 0.40 at the start) | 2 | 100.00 % | 100.00 % | 1.000 |" in rows
