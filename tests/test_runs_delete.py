"""`kgcrawl runs delete`: a run's folder goes, a crawled run and a typo stop it first."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kgcrawl.cli import main
from kgcrawl.config import load_settings
from kgcrawl.crawl.engine import start_run
from tests.crawl.test_run_lock import FIXED, HOLD


@pytest.fixture
def runs(tmp_path, monkeypatch) -> Path:
    """Two runs and a damaged one under a new data folder."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    for run_id in ("r1", "r2"):
        start_run(load_settings("tourism", FIXED), run_id=run_id).close()
    (tmp_path / "runs" / "broken").mkdir()
    (tmp_path / "runs" / "broken" / "state.sqlite").write_bytes(b"not a database")
    return tmp_path / "runs"


def _error(capsys, args: list[str]) -> str:
    with pytest.raises(SystemExit) as ended:
        main(args)
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert ended.value.code == 2
    return line


def test_runs_go_with_their_folders_and_the_others_stay(runs, capsys) -> None:
    main(["runs", "delete", "r1", "broken", "r1", "--yes"])  # named twice: deleted once
    assert sorted(p.name for p in runs.iterdir()) == ["r2"]
    main(["runs", "list"])
    out = capsys.readouterr().out
    assert "deleted r1" in out and "deleted broken" in out and "r2" in out.split("deleted")[-1]


def test_with_every_run_gone_the_list_says_where_runs_would_be(runs, capsys) -> None:
    main(["runs", "delete", "r1", "r2", "broken", "--yes"])
    capsys.readouterr()
    main(["runs", "list"])
    said = capsys.readouterr().out
    assert said == f"no runs in {runs}; `kgcrawl crawl DOMAIN` starts one\n"


def test_nothing_goes_when_one_id_is_wrong_or_nobody_was_asked(runs, capsys) -> None:
    assert "no run 'nosuch'" in _error(capsys, ["runs", "delete", "r1", "nosuch", "--yes"])
    assert "add --yes" in _error(capsys, ["runs", "delete", "r1"])  # stdin is no terminal
    assert sorted(p.name for p in runs.iterdir()) == ["broken", "r1", "r2"]


def test_a_run_being_crawled_is_not_deleted(runs, capsys) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    holder = subprocess.Popen([sys.executable, "-c", HOLD, "r1"], stdout=subprocess.PIPE,
                              text=True, env=env)  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "holding"
        line = _error(capsys, ["runs", "delete", "r1", "--yes"])
        assert f"run r1 is being crawled by another process (pid {holder.pid})" in line
        assert (runs / "r1" / "state.sqlite").is_file()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    main(["runs", "delete", "r1", "--yes"])
    assert not (runs / "r1").exists()


@pytest.mark.parametrize(("answer", "kept"), [("n", True), ("y", False)])
def test_on_a_terminal_it_asks_first(runs, answer, kept) -> None:
    leader, follower = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    os.write(leader, f"{answer}\n".encode())
    command = [sys.executable, "-m", "kgcrawl", "runs", "delete", "r1"]
    done = subprocess.run(command, stdin=follower, capture_output=True, text=True, env=env,
                          timeout=60)  # fmt: skip
    os.close(follower)
    os.close(leader)
    assert done.returncode == 0, done.stderr
    assert ("nothing deleted" in done.stdout) == kept
    assert (runs / "r1").is_dir() == kept and (runs / "r2").is_dir()
