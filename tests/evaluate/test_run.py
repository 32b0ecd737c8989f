"""`kgcrawl evaluate` end to end: two strategies crawl the small sandbox world, 200 pages each.

The evaluation runs once (through the command line, crawls in worker processes,
the sandbox in its own server process) and the tests read what it wrote.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib.image
import pytest
from typer.testing import CliRunner

from kgcrawl.calibrate import resolve_thresholds
from kgcrawl.cli import app, main
from kgcrawl.config import load_settings
from kgcrawl.crawl.ended import EARLY
from kgcrawl.crawl.state import RunState
from kgcrawl.evaluate import run as run_module
from kgcrawl.evaluate.jobs import JobResult
from kgcrawl.evaluate.judge import SandboxJudge, ScoredRun, no_truth_note, sandbox_judge
from kgcrawl.evaluate.metrics import EvaluationError, MetricsRow, compared_rows
from kgcrawl.evaluate.report import CSV_COLUMNS, PLOTTED
from kgcrawl.evaluate.run import EvaluationPlan, EvaluationResult, strategy_names
from kgcrawl.export import export_run
from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.manifest import bfs
from kgcrawl.sandbox.world import World

STRATEGIES = ("bfs", "fcits_oh")
PAGES = 200
EVERY = 50
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class Evaluated:
    home: Path  # KGCRAWL_HOME of the crawls
    out: Path


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory) -> Evaluated:
    home = tmp_path_factory.mktemp("home")
    out = tmp_path_factory.mktemp("eval") / "report"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(home))
        args = ["evaluate", "tourism", "--strategies", ",".join(STRATEGIES), "--max-pages",
                str(PAGES), "--sandbox", "--sandbox-size", "small", "--report-every", str(EVERY),
                "--out", str(out)]  # fmt: skip
        result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return Evaluated(home, out)


def _csv_rows(out: Path) -> list[dict[str, str]]:
    with (out / "metrics.csv").open(encoding="utf-8") as src:
        reader = csv.DictReader(src)
        assert tuple(reader.fieldnames) == CSV_COLUMNS
        return list(reader)


def test_metrics_csv_has_the_documented_columns_and_checkpoints(evaluated) -> None:
    rows = _csv_rows(evaluated.out)
    for strategy in STRATEGIES:
        mine = [r for r in rows if r["strategy"] == strategy]
        assert [int(r["dp"]) for r in mine] == [50, 100, 150, 200]
        for r in mine:
            assert r["domain"] == "tourism" and r["repeat"] == "0"
            assert float(r["ac"]) == pytest.approx(int(r["lp"]) / int(r["dp"]))
            assert 0 <= float(r["ar"]) <= 1 and 0 <= float(r["sd"]) <= 0.5
            assert 0 <= float(r["true_harvest"]) <= 1  # the sandbox knows the truth
            assert 0 < float(r["recall"]) <= 1
        recalls = [float(r["recall"]) for r in mine]
        assert recalls == sorted(recalls)  # recall only grows with the pages downloaded


def test_plots_are_valid_pngs(evaluated) -> None:
    for metric in PLOTTED:
        path = evaluated.out / f"tourism-{metric}.png"
        assert path.read_bytes()[:8] == PNG_MAGIC
        height, width, _ = matplotlib.image.imread(path).shape
        assert width > 300 and height > 200


def test_summary_has_one_row_per_strategy(evaluated) -> None:
    text = (evaluated.out / "summary.md").read_text(encoding="utf-8")
    tables = re.split(r"\n\s*\n", text)
    table2 = next(t for t in tables if t.startswith("| Strategy | DP | LP | AC |"))
    body = table2.splitlines()[2:]
    assert [line.split("|")[1].strip() for line in body] == ["BFS", "FCITS_OH"]
    assert all(f" {PAGES} " in line for line in body)
    assert "## Set-up" in text and "world seed 0, size small" in text
    assert "- fetch.delay = 0 s between requests to a host: the sandbox, whose server" in text
    assert re.search(
        r"- truth: the sandbox's truth; recall of [\d,]+ relevant pages reachable from "
        r"the seeds: [\d,]+ of the 800 pages a BFS reaches, and [\d,]+ more",
        text,
    )
    assert f"Values at DP = {PAGES}, the largest every run reached" in text and "†" not in text
    alpha = resolve_thresholds(load_settings("tourism")).relevance.alpha  # calibrated
    assert f"each starts at the corpora's α = {alpha:.3f}" in text
    separation = next(t for t in tables if t.startswith("| α | pages above α |")).splitlines()
    # BFS raised its α at the probe (scoring/navigation_floor.py), so the row is the crawls'
    # own judgement, not one α
    assert separation[2].startswith(f"| as crawled (α {alpha:.2f} at the start) |")
    finals = [r for r in _csv_rows(evaluated.out) if r["dp"] == str(PAGES)]
    lp = sum(int(r["lp"]) for r in finals)  # LP counts the same pages: R(p) > α
    assert separation[2].split("|")[2].strip() == f"{lp:,}"
    assert f"R(p) of the {PAGES * len(STRATEGIES)} pages downloaded" in text
    assert re.match(r"\| 0\.\d\d \(best F1\) \| [\d,]+ \| [\d.]+ % \| [\d.]+ % \| 0\.\d{3} \|$",
                    separation[3])  # fmt: skip


def test_true_harvest_and_recall_agree_with_the_sandbox(evaluated) -> None:
    """Recomputed from the runs' logs with the world's truth of the URLs the crawler read.

    Recall counts against the relevant pages of the BFS manifest and those any crawl
    found (run._rescore): every run's relevant pages are counted, however deep."""
    world = World(0, "small")
    manifest = bfs(world, "tourism", 4 * PAGES)
    runs = re.findall(r"\| (tourism-eval-\S+-r0) \|", (evaluated.out / "summary.md").read_text())
    finals = {r["strategy"]: r for r in _csv_rows(evaluated.out) if r["dp"] == str(PAGES)}
    assert len(runs) == len(STRATEGIES)
    found: dict[str, set[str]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(evaluated.home))
        for run_id in runs:
            state = RunState.open(run_id)
            pages = [o.final_url for o in state.outcomes() if o.downloaded]
            strategy = state.meta()["strategy"]
            state.close()
            assert len(pages) == PAGES
            truly = sum(world.truth(url).relevant("tourism") for url in pages)
            assert float(finals[strategy]["true_harvest"]) == truly / PAGES
            truths = map(world.truth, pages)
            found[strategy] = {t.canonical for t in truths if t.relevant("tourism")}
    beyond = set().union(*found.values()) - {row.canonical for row in manifest if row.relevant}
    assert beyond, "no crawl went beyond the manifest: the pooling is not tried"
    pool = {row.canonical for row in manifest if row.relevant} | beyond
    for strategy, pages in found.items():
        assert float(finals[strategy]["recall"]) == pytest.approx(len(pages) / len(pool))


def test_the_set_up_gives_the_alpha_each_crawl_counted_lp_by(evaluated) -> None:
    """A crawl recalibrates α on the web's first pages (scoring/web_alpha.py): the set-up
    said "R(p) > α = 0.39" while BFS's LP counted at zh 0.473 and FCITS_OH's at 0.364."""
    text = (evaluated.out / "summary.md").read_text(encoding="utf-8")
    assert "- LP counts pages with R(p) > the crawl's own α" in text
    assert "Table 2 compares LP counted at these different α" in text
    header = next(line for line in text.splitlines() if line.startswith("| Run |"))
    column = [cell.strip() for cell in header.split("|")].index("α")
    cells = {line.split("|")[1].strip(): line.split("|")[column].strip()
             for line in text.splitlines() if line.startswith("| tourism-eval-")}  # fmt: skip
    assert len(cells) == len(STRATEGIES)
    moved = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(evaluated.home))
        for run_id, cell in cells.items():
            state = RunState.open(run_id)
            meta = state.meta()
            state.close()
            start = f"{meta['settings']['relevance.alpha']:.3f}"
            ends = meta.get("web_alpha", {}).get("alphas", {})
            assert cell.startswith(start)
            assert all(f"{alpha:.3f}" in cell for alpha in ends.values())
            moved += any(f"{alpha:.3f}" != start for alpha in ends.values())
    assert moved, "no crawl recalibrated α: the test tries nothing"


def test_a_page_is_known_by_the_page_it_shows() -> None:
    world = World(0, "small")
    judge = SandboxJudge(world_args=(0, "small"), domain="tourism")
    for hazard in (Hazard.SESSION_ID, Hazard.MIRROR):
        url = world.hazard_urls(hazard)[0]
        assert judge.page(url) == world.truth(url).canonical != url


def test_the_sandbox_has_no_truth_for_other_domains(tmp_path, monkeypatch) -> None:
    """An honest "no truth" instead of every page marked irrelevant: no judge, no figure."""
    assert sandbox_judge((0, "small"), "webkb", 100) is None
    assert sandbox_judge((0, "small"), "tourism") is not None
    assert no_truth_note("tourism") is None
    note = "the sandbox has no truth for domain webkb: true harvest and recall are not measured"
    assert no_truth_note("webkb") == note
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["evaluate", "tourism", "--set", "domain=webkb",
                                      "--set", "relevance.alpha=0.4",  # no corpus/webkb
                                      "--set", "crawl.workers=2",  # no --workers-per-crawl
                                      "--strategies", "bfs", "--max-pages", "20", "--sandbox",
                                      "--sandbox-size", "small", "--out", str(out)],
                                catch_exceptions=False)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert note in " ".join(result.output.split())
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert f"- truth: {note}" in summary
    # the pipeline's report_every (500) would give one row: a tenth of the budget
    assert "- per crawl: 20 pages, metrics every 2, 2 worker(s)," in summary
    rows = _csv_rows(out)
    assert [int(r["dp"]) for r in rows] == list(range(2, 21, 2))
    assert all(r["true_harvest"] == r["recall"] == "" for r in rows)
    (run,) = (tmp_path / "home" / "runs").iterdir()
    export = io.StringIO()
    done = export_run(run.name, "csv", stdout=export)
    assert done.note == "the sandbox has no truth for domain webkb: the truth column is empty"
    pages = [r for r in csv.DictReader(io.StringIO(export.getvalue())) if not r["reason"]]
    assert len(pages) == 20 and all(r["truth"] == "" for r in pages)


def test_every_run_gets_a_row_where_all_runs_reached(tmp_path, monkeypatch) -> None:
    """bfs ran dry at DP 7: ops, with rows at 5 and 10, is read again for a row at 7."""

    def rows(strategy: str, dps: tuple[int, ...], ended: str) -> list[MetricsRow]:
        return [MetricsRow(strategy, "tourism", 0, dp, dp, 1.0, 0.5, 0.1, ended=ended)
                for dp in dps]  # fmt: skip

    plan = EvaluationPlan("tourism", ("ops", "bfs"), tmp_path)
    result = EvaluationResult(plan, ("ops", "bfs"), 10, 5, 0.7, "delay")
    result.runs = [
        JobResult(0, "ops", 0, "r-ops", rows("ops", (5, 10), "budget"), 10, 10, 1.0, "budget"),
        JobResult(1, "bfs", 0, "r-bfs", rows("bfs", (5, 7), EARLY), 7, 7, 1.0, EARLY),
    ]
    asked = []

    def job_rows(job, also_at=()):
        asked.append((job, tuple(also_at)))
        return ScoredRun(rows("ops", (5, 7, 10), "budget"), None, "budget")

    monkeypatch.setattr(run_module, "job_rows", job_rows)
    jobs = ["job of ops", "job of bfs"]
    run_module._rescore(result, jobs)  # type: ignore[arg-type]
    assert asked == [("job of ops", (7,))]  # bfs has its row at 7 already
    assert [r.dp for r in result.runs[0].rows] == [5, 7, 10]
    assert compared_rows(result.rows).dp == 7


def test_strategy_names() -> None:
    from kgcrawl.crawl.strategies.base import REGISTRY

    assert strategy_names(["all"]) == tuple(REGISTRY)
    assert strategy_names(["ops", " bfs", "ops", ""]) == ("ops", "bfs")
    with pytest.raises(EvaluationError, match="unknown strategy 'dfs'"):
        strategy_names(["bfs", "dfs"])
    assert strategy_names(["FCITS_OH", "Ops"]) == ("fcits_oh", "ops")  # as the plots spell them
    with pytest.raises(EvaluationError, match=r"'fcits_ohh' \(did you mean 'fcits_oh'\?\)"):
        strategy_names(["fcits_ohh"])


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "tourism", "--strategies", "bfs,nope", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "unknown strategy 'nope'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_no_result_from_any_crawl_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys) -> None:
    """Every seed resolves to a closed port: both crawls run and download nothing."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "tourism", "--strategies", "bfs,ops", "--max-pages", "20",
              "--resolve", "*=127.0.0.1:9", "--out", str(out)])  # fmt: skip
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no crawl of the evaluation gave a result" in err
    assert err.count("no page downloaded") == 2
    assert not any(out.iterdir())  # made before the crawls (test_out.py), nothing written
    assert len(list((tmp_path / "home" / "runs").iterdir())) == 2  # the runs are kept
