"""`kgcrawl sandbox …` through CliRunner and main, and `serve` as a real process."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest
import requests
from protego import Protego
from typer.testing import CliRunner

from kgcrawl.cli import app, main
from kgcrawl.runner import SandboxStartError, sandbox_process
from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.world import World

runner = CliRunner()


def test_every_sandbox_command_has_help():
    for command in ("serve", "truth", "manifest", "info"):
        result = runner.invoke(app, ["sandbox", command, "--help"])
        assert result.exit_code == 0 and "Usage" in result.output


def test_truth_prints_labels_and_shares():
    url = "http://www.huangshan.com.cn/home?m_id=730"
    result = runner.invoke(app, ["sandbox", "truth", url, "--size", "small", "--json"])
    assert result.exit_code == 0
    (record,) = json.loads(result.output)
    assert record["url"] == url and record["status"] == 200
    assert record["relevant"]["tourism"] is True and record["shares"]["tourism"] >= 0.4


def test_manifest_writes_the_bfs_pages(tmp_path):
    out = tmp_path / "tourism.csv"
    args = ["sandbox", "manifest", "--domain", "tourism", "--max-pages", "60", "-o", str(out)]
    result = runner.invoke(app, [*args, "--size", "small"])
    assert result.exit_code == 0 and "60 pages" in result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 61


def test_info_prints_statistics():
    result = runner.invoke(
        app, ["sandbox", "info", "--size", "small", "--bfs-pages", "0", "--json"]
    )
    assert result.exit_code == 0
    assert json.loads(result.output)["hosts"] == 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sandbox", "info", "--size", "huge", "--bfs-pages", "0"], "huge"),
        (["sandbox", "truth", "ftp://x/"], "ftp://x/"),
        (
            ["sandbox", "manifest", "--domain", "sports", "--out", "x.csv", "--size", "small"],
            "sports",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_the_resolve_map_and_stops_on_signals(sig):
    process = subprocess.Popen(
        [sys.executable, "-m", "kgcrawl", "sandbox", "serve", "--size", "small", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        process.stdout.readline()
        resolve = process.stdout.readline()
        assert resolve.startswith("--resolve '*=127.0.0.1:")
        port = int(resolve.strip().strip("'").rsplit(":", 1)[1])
        response = requests.get(
            f"http://127.0.0.1:{port}/", headers={"Host": "www.nmc.cn"}, timeout=5
        )
        assert response.status_code == 200
        start = time.monotonic()
        process.send_signal(sig)
        assert process.wait(timeout=5) == 0
        assert time.monotonic() - start < 3
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_sandbox_process_asks_for_the_crawl_delay_it_was_given():
    robots = urlsplit(World(0, "small").hazard_urls(Hazard.CRAWL_DELAY)[0])
    with sandbox_process(0, "small", crawl_delay=0.25) as resolve:
        port = resolve[0].rsplit(":", 1)[1]
        url = f"http://127.0.0.1:{port}{robots.path}"
        response = requests.get(url, headers={"Host": robots.hostname}, timeout=10)
    assert Protego.parse(response.text).crawl_delay("kgcrawl") == 0.25


def test_a_sandbox_process_that_cannot_start_says_why():
    with pytest.raises(SandboxStartError) as failed, sandbox_process(0, "huge"):
        pass
    assert str(failed.value) == (
        "the sandbox server exited (code 2): unknown world size 'huge': "
        "choose one of small, default, large"
    )
