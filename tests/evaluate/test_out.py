"""`kgcrawl evaluate`'s input checked before the first crawl: `--out`, `--resolve`.

Without the checks the crawls ran first (the seeds here resolve to a closed port, so
they fail fast) and the mistake was found after them, or inside each of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kgcrawl.cli import app, main

CLOSED = "*=127.0.0.1:9"  # every seed at a closed port: a crawl that ran would fail fast


def _error(capsys, args: list[str]) -> str:
    """The one line `kgcrawl ARGS` printed on stderr, exiting 2."""
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err.rstrip("\n")


def _evaluate(out: Path, *more: str) -> list[str]:
    return ["evaluate", "tourism", "--strategies", "bfs", "--max-pages", "5",
            "--resolve", CLOSED, "--out", str(out), *more]  # fmt: skip


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_an_out_that_cannot_be_a_folder_is_refused_before_any_crawl(tmp_path, home, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    assert _error(capsys, _evaluate(afile)) == f"error: --out {afile}: is a file, not a folder"
    sub = afile / "sub"
    assert _error(capsys, _evaluate(sub)) == f"error: --out {sub}: {afile} is a file, not a folder"
    assert _error(capsys, _evaluate(Path("/proc/nope"))).startswith(
        "error: --out /proc/nope: cannot write in /proc ("
    )
    assert not home.exists()  # no crawl began: no run


def test_an_earlier_evaluation_is_replaced_only_with_force(tmp_path, home, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "bees-lp.png").write_bytes(b"an earlier evaluation's plot")
    assert _error(capsys, _evaluate(out)) == (
        f"error: --out {out}: holds an earlier evaluation (bees-lp.png); --force replaces it"
    )
    assert not home.exists()
    assert (out / "bees-lp.png").exists()


def test_force_removes_the_earlier_evaluation_and_keeps_other_files(tmp_path, home) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for name in ("bees-lp.png", "bees-recall.png", "summary.md", "metrics.csv"):
        (out / name).write_text("an earlier evaluation's\n")
    (out / "notes.txt").write_text("mine\n")
    args = ["evaluate", "tourism", "--strategies", "bfs", "--max-pages", "10", "--sandbox",
            "--sandbox-size", "small", "--out", str(out), "--force"]  # fmt: skip
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    names = {path.name for path in out.iterdir()}
    assert not {"bees-lp.png", "bees-recall.png"} & names  # no stale plot beside the new ones
    assert {"notes.txt", "summary.md", "metrics.csv", "tourism-lp.png"} <= names
    assert (out / "notes.txt").read_text() == "mine\n"
    assert (out / "summary.md").read_text(encoding="utf-8").startswith("# Evaluation of tourism")


def test_a_bad_resolve_is_crawls_own_line_before_any_run(tmp_path, home, capsys) -> None:
    out = tmp_path / "out"
    line = _error(capsys, _evaluate(out, "--resolve", "bad"))
    assert line == "error: --resolve bad: expected HOST=ADDR:PORT"
    assert _error(capsys, ["crawl", "tourism", "--resolve", "bad"]) == line
    assert not home.exists() and not out.exists()  # no empty run per job, no folder
