"""WARC as archives need it: warcinfo, request/response pairs, the bytes and headers received.

A loopback server sends a gzip-encoded, chunked page; the fetcher decodes it for
the crawl and keeps what it received for the archive; `warcio check` and
`warcio index` (the reference tools) must accept the file, and a resumed archive
is cut back to its checkpoint.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from warcio.archiveiterator import ArchiveIterator

from kgcrawl.config import Fetch
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.warc import WarcArchive

PAGE = "<html><head><meta charset=gbk></head><body>暴雨 山体滑坡</body></html>".encode("gbk")
PACKED = gzip.compress(PAGE, mtime=0)
BOMB = gzip.compress(b"<html>" + b"\0" * 50_000_000, mtime=0)  # 50 MB in ≈ 50 KB


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        if self.path == "/robots.txt":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path in ("/bomb", "/broken"):
            body = BOMB if self.path == "/bomb" else b"not gzip at all"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=gbk")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Set-Cookie", "a=1")
        self.send_header("Set-Cookie", "b=2")  # a repeated header stays two headers
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        half = len(PACKED) // 2
        for piece in (PACKED[:half], PACKED[half:]):
            self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def gzip_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"site.example=127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def records(path) -> list:
    with open(path, "rb") as fh:
        return [
            (
                r.rec_type,
                r.rec_headers.get_header("WARC-Target-URI"),
                r.http_headers.statusline if r.http_headers else None,
                [v for k, v in r.http_headers.headers if k == "Set-Cookie"]
                if r.http_headers
                else [],
                r.raw_stream.read(),
            )
            for r in ArchiveIterator(fh, no_record_parse=False)
        ]


def warcio(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "warcio.cli", *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_the_archive_holds_what_was_received_and_warcio_accepts_it(gzip_site, tmp_path) -> None:
    fetcher = Fetcher(
        Fetch(delay=0.0, connect_timeout=2.0, read_timeout=5.0), parse_resolve([gzip_site])
    )
    result = fetcher.fetch("http://site.example/p?q=1")
    assert result.ok and "山体滑坡" in result.text  # the crawl reads the decoded page
    assert result.exchange.body == PACKED  # the archive gets the bytes that were sent

    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(path, run_id="run-7")
    archive.write(result.final_url, result.exchange)
    archive.close()
    got = records(path)
    assert [r[0] for r in got] == ["warcinfo", "response", "request"]  # warcio's pair order
    _, uri, status, cookies, body = got[1]
    assert uri == "http://site.example/p?q=1" and status == "200 OK"
    assert cookies == ["a=1", "b=2"] and body == PACKED
    assert got[2][2] == "/p?q=1 HTTP/1.1"  # warcio reads "GET" as the request's protocol
    with open(path, "rb") as fh:
        response = next(r for r in ArchiveIterator(fh) if r.rec_type == "response")
        assert response.http_headers.protocol == "HTTP/1.1"
        assert response.http_headers.get_header("Content-Encoding") == "gzip"
        assert response.http_headers.get_header("Transfer-Encoding") is None
        assert response.content_stream().read() == PAGE  # a reader undoes the gzip itself

    checked = warcio("check", "-v", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "digest pass" in checked.stdout and "fail" not in checked.stdout
    indexed = [json.loads(line) for line in warcio("index", str(path)).stdout.splitlines()]
    assert [i["warc-type"] for i in indexed] == ["warcinfo", "response", "request"]


def test_a_resumed_archive_is_cut_back_to_its_checkpoint(gzip_site, tmp_path) -> None:
    fetcher = Fetcher(
        Fetch(delay=0.0, connect_timeout=2.0, read_timeout=5.0), parse_resolve([gzip_site])
    )
    exchange = fetcher.fetch("http://site.example/1").exchange
    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(path)
    archive.write("http://site.example/1", exchange)
    kept = archive.offset  # the checkpoint
    archive.write("http://site.example/2", exchange)  # fetched, never committed
    archive.close()

    resumed = WarcArchive(path, truncate_to=kept)
    resumed.write("http://site.example/3", exchange)
    resumed.close()
    got = [(kind, uri) for kind, uri, *_ in records(path)]
    assert got == [("warcinfo", None), ("response", "http://site.example/1"),
                   ("request", "http://site.example/1"), ("response", "http://site.example/3"),
                   ("request", "http://site.example/3")]  # fmt: skip
    assert warcio("check", str(path)).returncode == 0


def test_the_body_is_still_cut_at_max_bytes_after_decompression(gzip_site) -> None:
    """Reading the body raw must not undo the bomb guard: 50 MB unpacked, 1 MB allowed."""
    settings = Fetch(delay=0.0, connect_timeout=2.0, read_timeout=5.0, max_bytes=1_000_000)
    fetcher = Fetcher(settings, parse_resolve([gzip_site]))
    before = _kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # the peak (VmHWM) starts again from now: earlier tests' is higher
    assert fetcher.fetch("http://site.example/bomb").reason == "too large"
    grown_mb = (_kb("VmHWM") - before) / 1024
    assert grown_mb < 20, f"peak RSS grew {grown_mb:.0f} MB"
    assert fetcher.fetch("http://site.example/broken").reason == "decode"


def _responses(path) -> list[str]:
    with open(path, "rb") as archive:
        return [r.rec_headers.get_header("WARC-Target-URI") for r in ArchiveIterator(archive)
                if r.rec_type == "response"]  # fmt: skip


def test_a_resume_from_another_folder_goes_on_with_the_runs_own_archive(
    sandbox, tmp_path, monkeypatch, capsys
) -> None:
    """The run kept the path as typed: a resume elsewhere cut a stranger's file of that name
    to the run's checkpoint (a valid 1 MB WARC left at 82 KB), or zero-filled a new one."""
    from typer.testing import CliRunner

    from kgcrawl.cli import app, main

    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    first, other = tmp_path / "first", tmp_path / "other"
    first.mkdir(), other.mkdir()
    fixed = [a for k, v in {"relevance.alpha": 0.5, "relevance.beta": 0.19, "graph.uri": "none",
                            "fetch.delay": 0}.items() for a in ("--set", f"{k}={v}")]  # fmt: skip
    cli = CliRunner()
    monkeypatch.chdir(first)
    out = cli.invoke(app, ["crawl", "tourism", "--resolve", sandbox.resolve[0], "--max-pages",
                           "6", "--run-id", "w", "--warc", "crawl.warc.gz", *fixed])  # fmt: skip
    assert out.exit_code == 0, out.output
    archived = _responses(first / "crawl.warc.gz")
    monkeypatch.chdir(other)
    stranger = other / "crawl.warc.gz"
    stranger.write_bytes(b"somebody else's archive" * 100)
    out = cli.invoke(app, ["crawl", "--resume", "w", "--max-pages", "12"])
    assert out.exit_code == 0, out.output
    assert stranger.read_bytes() == b"somebody else's archive" * 100
    resumed = _responses(first / "crawl.warc.gz")
    assert resumed[: len(archived)] == archived and len(resumed) > len(archived)
    assert len(set(resumed)) == len(resumed), "a response archived twice"

    said = {}
    for name, extra in (("other", ["--warc", "x.warc.gz"]), ("moved", [])):
        if name == "moved":
            (first / "crawl.warc.gz").rename(first / "moved.warc.gz")
        with pytest.raises(SystemExit) as stop:
            main(["crawl", "--resume", "w", "--max-pages", "18", *extra])
        assert stop.value.code == 2
        said[name] = " ".join(capsys.readouterr().err.split())
    assert "--warc x.warc.gz: run w archives to " in said["other"], said
    assert f"archive {first / 'crawl.warc.gz'}: no such file" in said["moved"], said
    assert not (first / "crawl.warc.gz").exists() and not (other / "x.warc.gz").exists()
    assert _responses(first / "moved.warc.gz") == resumed  # nothing cut, nothing added


def _kb(field: str) -> int:
    """A memory figure of this process from /proc/self/status, in KiB."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith(f"{field}:"))
    return int(line.split()[1])
