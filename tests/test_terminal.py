"""The terminal: everything whole at 80 columns, log levels, --quiet, --version, Ctrl-C, help."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

import kgcrawl
from kgcrawl.cli import app
from kgcrawl.config import load_settings
from kgcrawl.crawl.engine import Progress
from kgcrawl.crawl.state import committed_count
from kgcrawl.crawl.view import crawl_summary, progress_line, run_details, runs_table
from kgcrawl.ontology.topic import load_topic_model
from kgcrawl.ontology.view import weights_table
from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.manifest import world_info
from kgcrawl.sandbox.view import info_table, truth_table

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19, "graph.uri": "none", "fetch.delay": 0}
MISSING = "http://www.huangshan.com.cn/no-such-page-kgcrawl"  # the sandbox answers 404
RUN_ID = "tourism-fcits_oh-20260101-120000-with-a-long-name"


def at_80(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


@pytest.fixture(scope="module")
def run(sandbox, tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(home))
        seeds = f"{MISSING},{sandbox.world.seeds('tourism')[0]}"  # bfs: the 404 first
        yield kgcrawl.crawl("tourism", max_pages=25, strategy="bfs", resolve=sandbox.resolve,
                            run_id=RUN_ID, set={**FIXED, "seeds": seeds})  # fmt: skip


@pytest.fixture
def home(run, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(run.state_path.parents[2]))
    return run


def test_crawl_summary_runs_list_and_show_keep_ids_and_numbers_whole(home) -> None:
    summary = at_80(crawl_summary(home))
    listing = at_80(runs_table())
    details = at_80(run_details(RUN_ID))
    for text in (summary, listing, details):
        assert "…" not in text and RUN_ID in text
        assert max(len(line) for line in text.splitlines()) <= 80
    assert re.search(rf"\b{home.dp}\b", summary) and re.search(rf"\b{home.outcomes}\b", summary)
    assert f"{home.lp / home.dp:.1%}" in summary
    failed, words = home.outcomes - home.dp, " ".join(summary.split())  # the 404 seed too
    assert words.endswith(  # no graph: the refresh the run's relevant pages allow
        f"page budget reached next: `kgcrawl refresh-ontology tourism --run {RUN_ID}` adds the "
        "terms of its relevant pages to a new ontology version"
    )
    assert dict(home.failures)["http 404"] >= 1 and sum(dict(home.failures).values()) == failed
    assert re.search(rf"\b{failed} URLs? gave no page: (.*, )?http 404 \d", words)
    assert f"(`kgcrawl runs show {RUN_ID}`)" in words
    assert home.lp > 0 and "no page passed" not in summary
    assert re.search(r"started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", listing)
    assert re.search(r"started_at\s+│\s+\d{4}-\d\d-\d\dT", details)
    assert re.search(r"failed: http 404\s+│\s+1 ", details)
    # each setting the run did not take from the pipeline says where it came from
    assert re.search(r"\bα\s+│\s+0\.5 \(command line\)", details)
    assert re.search(r"fetch\.delay\s+│\s+0(\.0)? \(command line\)", details)
    wide = Console(width=400, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    wide.print(crawl_summary(home))
    assert "┃ run" in wide.export_text()  # a table where it fits


def test_copies_of_pages_count_as_one_reason_in_the_summary_and_runs_show(
    sandbox, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    world = sandbox.world
    copies = [world.hazard_urls(hazard)[0] for hazard in (Hazard.MIRROR, Hazard.NEAR_MIRROR)]
    seeds = [url for copy in copies for url in (world.truth(copy).canonical, copy)]
    result = kgcrawl.crawl("tourism", max_pages=4, strategy="bfs", workers=1,  # one order
                           resolve=sandbox.resolve,
                           set={**FIXED, "seeds": ",".join(seeds)})  # fmt: skip
    with kgcrawl.open_run(result.run_id) as run:
        reasons = [o.reason for o in run.outcomes() if o.reason]
    assert sorted(reasons) == sorted(f"duplicate of {world.truth(c).canonical}" for c in copies)
    assert result.failures == [("duplicate", 2)]
    assert "2 URLs gave no page: duplicate 2 (" in " ".join(at_80(crawl_summary(result)).split())
    assert re.search(r"failed: duplicate\s+│\s+2 ", at_80(run_details(result.run_id)))


def test_a_crawl_where_no_page_passed_alpha_says_the_highest_r_and_what_to_do(
    sandbox, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    result = kgcrawl.crawl("tourism", max_pages=10, resolve=sandbox.resolve,
                           set={**FIXED, "relevance.alpha": 0.99})  # fmt: skip
    text = " ".join(at_80(crawl_summary(result)).split())
    p10, p50, p90 = np.percentile(result.relevances, [10, 50, 90])
    assert result.lp == 0 and len(result.relevances) == 10
    assert f"R(p) of 10 pages: p10 {p10:.3f} p50 {p50:.3f} p90 {p90:.3f}" in text
    assert f"no page passed α = 0.990 (highest R(p) {max(result.relevances):.3f})" in text
    assert "α was set on the command line; `--set relevance.alpha=auto` calibrates it" in text
    assert f"`kgcrawl runs sample {result.run_id} --out labels.jsonl`" in text
    assert f"`kgcrawl calibrate tourism --truth labels.jsonl --run {result.run_id}`" in text


def test_weights_and_pipeline_check_fit_80_columns(monkeypatch) -> None:
    model = load_topic_model("tourism")
    weights = at_80(weights_table(model))
    assert "…" not in weights and "0.3667" in weights and "accommodation" in weights
    # narrower, rich shrank the concepts to nothing and cut the numbers: two lines a concept
    narrow = at_80(weights_table(model), 60)
    assert "…" not in narrow and max(map(len, narrow.splitlines())) <= 60
    for iri, weight in model.weights.items():
        label = model.ontology.concepts[iri].label("zh")
        assert f"{label} " in narrow and f"W_T {float(weight):.4f}" in narrow
    console = Console(width=80, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    monkeypatch.setattr("kgcrawl.cli.pipeline.console", console)
    runner.invoke(app, ["pipeline", "check", "tourism", "--set", "crawl.max_pages=7"],
                  catch_exceptions=False)  # fmt: skip
    check = console.export_text()
    assert "…" not in check and "15000" not in check and "200000" in check
    assert "kgcrawl/0.1" in check
    # a path or a URL of up to 47 characters is whole on its line, not folded mid-word
    settings = load_settings("tourism")
    lines = [line.split() for line in check.splitlines()]
    assert ["from", "the", "command", "line"] in lines and ["crawl.max_pages", "7"] in lines
    assert all([url] in lines for url in settings.seeds[1:] if len(url) <= 47)
    assert len(str(settings.ontology)) > 47 or ["ontology", str(settings.ontology)] in lines


def test_sandbox_truth_and_info_fit_80_columns_without_cutting(sandbox) -> None:
    """`kgcrawl sandbox truth URL` cut the URL it was asked about to "http://…"."""
    url = sandbox.world.seeds("tourism")[0]
    truth = at_80(truth_table([sandbox.world.truth(url)]))
    info = at_80(info_table(world_info(sandbox.world, bfs_pages=0)))
    assert "…" not in truth + info and url in truth and "hosts_by_hazard" in info
    assert max(len(line) for line in (truth + info).splitlines()) <= 80


def test_live_progress_is_two_lines_of_at_most_80_characters() -> None:
    worst = Progress(RUN_ID[:32], 15000, dp=15000, lp=15000, outcomes=30000, failures=15000,
                     queued=1_000_000, hosts=1000, started=time.monotonic() - 1e-3)  # fmt: skip
    waiting = replace(worst, waiting_until=time.monotonic() + 99_999)  # robots_retry 1 day
    for progress in (worst, waiting):
        text = re.sub(r"\[/?bold\]", "", progress_line(progress))
        lines = text.splitlines()
        assert len(lines) == 2 and all(len(line) <= 80 for line in lines), lines


def test_log_levels_through_the_cli(sandbox, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    seeds = f"seeds={MISSING},{sandbox.world.seeds('tourism')[0]}"
    sets = [a for k, v in FIXED.items() for a in ("--set", f"{k}={v}")]
    logs = {}
    for level in ("WARNING", "INFO", "DEBUG"):
        log = tmp_path / f"{level}.log"
        args = ["--log-level", level.lower(), "--log-file", str(log), "crawl", "tourism",
                "--strategy", "bfs", "--resolve", sandbox.resolve[0], "--max-pages", "8",
                "--run-id", level, *sets, "--set", seeds]  # fmt: skip
        out = runner.invoke(app, args)
        assert out.exit_code == 0, out.output
        logs[level] = log.read_text(encoding="utf-8")
    assert "fetch failed" not in logs["WARNING"] and "R(p)=" not in logs["WARNING"]
    assert f"fetch failed (http 404): {MISSING}" in logs["INFO"]
    assert "R(p)=" not in logs["INFO"]
    assert (
        "fetch failed" in logs["DEBUG"] and len(re.findall(r"page \d+ R\(p\)=", logs["DEBUG"])) == 8
    )
    bad = runner.invoke(app, ["--log-level", "verbose", "runs", "list"])
    assert bad.exit_code != 0


def test_quiet_and_version(home) -> None:
    out = runner.invoke(app, ["--version"])
    assert out.exit_code == 0 and out.output.strip() == f"kgcrawl {kgcrawl.__version__}"
    out = runner.invoke(app, ["--quiet", "runs", "list"])
    assert out.exit_code == 0 and RUN_ID in out.output


def test_ctrl_c_stops_without_a_traceback_and_says_how_to_resume(sandbox, tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KGCRAWL_HOME": str(tmp_path), "COLUMNS": "200"}
    sets = [
        a for k, v in {**FIXED, "crawl.checkpoint_every": 10}.items() for a in ("--set", f"{k}={v}")
    ]
    command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--strategy", "FCITS_OH",
               "--resolve", sandbox.resolve[0], "--workers", "2", "--max-pages", "300",
               "--run-id", "interrupted", *sets]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)  # fmt: skip
    state = tmp_path / "runs" / "interrupted" / "state.sqlite"
    deadline = time.monotonic() + 120
    while committed_count(state) < 20 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: every process of the group
    stdout, stderr = process.communicate(timeout=120)
    assert "Traceback" not in stdout + stderr, stderr
    assert process.returncode == 130
    said = " ".join(stdout.split())
    assert said.endswith("stopped; continue with `kgcrawl crawl --resume interrupted`"), said
    assert 20 <= committed_count(state) < 300


def test_help_texts_cite_no_spec_and_crawl_help_shows_defaults() -> None:
    def commands(group, prefix=""):
        for name, command in group.commands.items():
            yield prefix + name, command
            if hasattr(command, "commands"):
                yield from commands(command, prefix + name + " ")

    for name, command in commands(typer.main.get_command(app)):
        texts = [command.help or ""] + [p.help or "" for p in command.params]
        for text in texts:
            assert "SPEC" not in text and "Eq." not in text, (name, text)
    crawl = typer.main.get_command(app).commands["crawl"]
    for param in crawl.params:
        if param.param_type_name == "option" and param.name != "help":
            shown = param.show_default and param.default not in (None, False)
            assert "default" in (param.help or "") or shown, param.name
    sandbox_help = next(p.help for p in crawl.params if p.name == "sandbox")
    assert "tourism" in sandbox_help and "rainstorm" in sandbox_help
