"""`kgcrawl crawl --executor`: a wrong value, a missing Ray, --ray-address or --warc misplaced."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from kgcrawl.cli import main


def run(argv: list[str], capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    captured = capsys.readouterr()
    return ended.value.code, " ".join((captured.err + captured.out).split())


def test_without_ray_one_line_says_how_to_install_it(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if not installed
    code, said = run(["crawl", "tourism", "--executor", "ray", "--graph", "none"], capsys)
    assert code == 2
    assert "pip install 'kgcrawl[ray]'" in said
    assert not (tmp_path / "runs").exists(), "no run may start"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--executor", "spark"], "must be local or ray, not 'spark'"),
        (["--ray-address", "auto"], "--ray-address needs --executor ray"),
        (["--executor", "ray", "--warc", "x.warc.gz"], "--warc needs --executor local"),
    ],
)
def test_misplaced_executor_options_are_one_line_and_exit_2(argv, says, capsys, tmp_path,
                                                            monkeypatch) -> None:  # fmt: skip
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    code, said = run(["crawl", "tourism", "--graph", "none", *argv], capsys)
    assert code == 2 and says in said


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_ray_address_where_nothing_answers_is_one_line(scheme, capsys, tmp_path,
                                                         monkeypatch) -> None:  # fmt: skip
    # Ray itself retried such an address for minutes, a warning every few seconds
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    with socket.socket() as bound:  # bound and not listening: a connection is refused
        bound.bind(("127.0.0.1", 0))
        address = f"{scheme}127.0.0.1:{bound.getsockname()[1]}"
        ray = ["--executor", "ray", "--ray-address", address]
        code, said = run(["crawl", "tourism", "--graph", "none", *ray], capsys)
    assert code == 2
    assert f"cannot reach the Ray cluster at {address}: Connection refused" in said
    assert not (tmp_path / "runs").exists(), "no run may start"


def test_workers_that_never_start_leave_no_run_and_no_crawl_in_the_graph(
    graph_store, tmp_path
) -> None:
    """An address only Ray can judge ("foo"; "auto" with no cluster running) fails once the
    run has begun and its Crawl node is written: both go, so the same --run-id can start.
    In a process of its own: one where Ray is initialised already uses that Ray."""
    argv = ["crawl", "tourism", "--run-id", "r1", "--graph", graph_store.uri, "--max-pages", "5",
            "--executor", "ray", "--ray-address", "foo"]  # fmt: skip
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "kgcrawl", *argv], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and "cannot reach the Ray cluster at foo: " in done.stderr
    assert not (tmp_path / "runs" / "r1").exists()
    assert graph_store.run("MATCH (c:Crawl) RETURN count(c)").rows == [[0]]
