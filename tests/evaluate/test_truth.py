"""`evaluate --truth FILE` on a hand-made world, bad truth files, runs that end early.

The world is seven static pages on two hosts, served over real HTTP on
127.0.0.1 by Host header; its truth is written here by hand, so every figure
the evaluation reports can be checked by counting.
"""

from __future__ import annotations

import csv
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kgcrawl.cli import app, main
from kgcrawl.crawl.ended import EARLY, ended_early, how_ended
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.evaluate.metrics import EvaluationError
from kgcrawl.evaluate.truth import read_truth


def _page(title: str, text: str, links: tuple[str, ...] = ()) -> bytes:
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (
        f"<html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<h1>{title}</h1><p>{text}</p><ul>{anchors}</ul></body></html>"
    ).encode()


TRAVEL = "旅游 景点 酒店 门票 自由行 导游 旅行社 风景区 度假 攻略"
NEWS = "股票 市场 公司 财报 经济 银行 利率 基金"
# (host, path) → page. Seven pages, all reachable from http://a.test/.
WEB: dict[tuple[str, str], bytes] = {
    ("a.test", "/"): _page("首页", NEWS, ("/travel1", "/travel2", "/news", "http://b.test/")),
    ("a.test", "/travel1"): _page("旅游线路", TRAVEL, ("/travel2",)),
    ("a.test", "/travel2"): _page("景点门票", TRAVEL),
    ("a.test", "/news"): _page("财经新闻", NEWS),
    ("b.test", "/"): _page("酒店预订", TRAVEL, ("/hotel?sid=8f3a", "/unlisted")),
    ("b.test", "/hotel"): _page("度假酒店", TRAVEL),
    ("b.test", "/unlisted"): _page("旅游攻略", TRAVEL),
}
# The truth, by hand: six of the seven pages (b.test/unlisted is not listed), spelled
# as people write URLs, and one relevant page the crawl cannot reach.
TRUTH = [
    {"url": "http://a.test/", "relevant": False},
    {"url": "http://a.test/travel1", "relevant": True},
    {"url": "http://A.TEST/travel2#top", "relevant": True},
    {"url": "http://a.test:80/news", "relevant": False},
    {"url": "http://b.test", "relevant": True},
    {"url": "http://b.test/hotel?sid=77", "relevant": True},
    {"url": "http://a.test/lost", "relevant": True},
]
DOWNLOADED = 7
TRULY_RELEVANT = 4  # travel1, travel2, b.test/, hotel
MANIFEST_RELEVANT = 5  # those and /lost
UNKNOWN = 1  # b.test/unlisted
BUDGET = 20  # more than the world has: the crawl ends early


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        host = (self.headers.get("Host") or "").split(":")[0]
        body = WEB.get((host, self.path.split("?")[0]))
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def tiny_web() -> Iterator[int]:
    """The hand-made world on 127.0.0.1; yields its port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _write_truth(path: Path, records: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


@dataclass
class Evaluated:
    out: Path
    truth: Path
    output: str
    home: Path


@pytest.fixture(scope="module")
def evaluated(tiny_web, tmp_path_factory) -> Evaluated:
    folder = tmp_path_factory.mktemp("truth")
    truth = _write_truth(folder / "truth.jsonl", TRUTH)
    out = folder / "report"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(folder / "home"))
        args = ["evaluate", "tourism", "--strategies", "bfs", "--max-pages", str(BUDGET),
                "--report-every", "5", "--truth", str(truth), "--resolve",
                f"*.test=127.0.0.1:{tiny_web}", "--set", "seeds=http://a.test/",
                "--set", "fetch.delay=0", "--out", str(out)]  # fmt: skip
        result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return Evaluated(out, truth, result.output, folder / "home")


def test_true_harvest_and_recall_come_from_the_truth_file(evaluated) -> None:
    with (evaluated.out / "metrics.csv").open(encoding="utf-8") as src:
        rows = list(csv.DictReader(src))
    assert [int(r["dp"]) for r in rows] == [5, DOWNLOADED]
    last = rows[-1]
    assert float(last["true_harvest"]) == pytest.approx(TRULY_RELEVANT / DOWNLOADED)
    assert float(last["recall"]) == pytest.approx(TRULY_RELEVANT / MANIFEST_RELEVANT)


def test_the_summary_says_where_the_truth_came_from_and_what_it_does_not_know(evaluated):
    text = (evaluated.out / "summary.md").read_text(encoding="utf-8")
    assert f"- truth: {evaluated.truth}: {len(TRUTH)} pages, {MANIFEST_RELEVANT} relevant" in text
    assert (
        f"- {UNKNOWN} of the {DOWNLOADED} pages downloaded are not in {evaluated.truth} "
        "and count as not relevant"
    ) in text
    assert "- fetch.delay = 0 s between requests to a host: set with --set fetch.delay" in text
    assert "served at *.test=127.0.0.1:" in text
    # how to calibrate on the file's labels, with a run of the evaluation
    command = re.search(rf"kgcrawl calibrate tourism --truth {re.escape(str(evaluated.truth))} "
                        r"--run (tourism-eval-\S+)   # bfs", text)  # fmt: skip
    assert command is not None and (evaluated.home / "runs" / command.group(1)).is_dir()


def test_a_run_that_ended_before_its_budget_is_flagged_everywhere(evaluated) -> None:
    with (evaluated.out / "metrics.csv").open(encoding="utf-8") as src:
        endings = {r["ended"] for r in csv.DictReader(src)}
    assert len(endings) == 1 and ended_early(endings.pop())  # early or frontier exhausted
    text = (evaluated.out / "summary.md").read_text(encoding="utf-8")
    assert f"Values at DP = {DOWNLOADED}, the largest every run reached" in text
    assert re.search(rf"^\| BFS † \| {DOWNLOADED} \|", text, re.M)  # Table 2
    assert re.search(r"^\| BFS † \| [\d.]+ \| [\d.]+ \|", text, re.M)  # Table 3
    assert "† a run ended before its page budget: BFS (" in text
    run = re.search(
        r"^\| tourism-eval-\S+ \| BFS \| 0 \| (\d+) \| \d+ \| (.+?) \| \d+ \| (\d+) \|$", text, re.M
    )
    assert run is not None
    assert run.group(1) == str(DOWNLOADED) and "(before its budget)" in run.group(2)
    assert run.group(3) == str(UNKNOWN)
    assert "† ended before its page budget: bfs (" in evaluated.output  # the console table
    assert "bfs †" in evaluated.output


def test_how_a_run_ended_without_a_recorded_reason() -> None:
    settings = {"crawl.max_pages": 20}
    assert how_ended({"settings": settings, "dp": 20}) == "budget"
    assert how_ended({"settings": settings, "dp": 7}) == EARLY
    assert how_ended({"settings": settings, "dp": 7, "ended": "signal"}) == "signal"
    assert ended_early(EARLY) and ended_early("error") and not ended_early("budget")
    assert not ended_early(None)


def _outcome(url: str, relevance: float) -> Outcome:
    return Outcome(url=url, final_url=url, status=200, reason=None, fetched_at=0, seconds=0.0,
                   host="h", relevance=relevance)  # fmt: skip


def test_the_file_and_the_crawl_spell_urls_the_same_way(tmp_path) -> None:
    judge = read_truth(_write_truth(tmp_path / "t.jsonl", TRUTH))
    assert judge.label(judge.page("http://a.test/travel2")) is True  # was A.TEST…#top
    assert judge.label(judge.page("http://a.test/news")) is False  # was :80
    assert judge.label(judge.page("http://b.test/")) is True  # was without a path
    assert judge.label(judge.page("http://b.test/hotel")) is True  # was with a session id
    assert judge.label(judge.page("http://b.test/unlisted")) is None
    outcomes = [_outcome("http://a.test/travel1", 0.5), _outcome("http://b.test/unlisted", 0.6),
                _outcome("http://a.test/news", 0.1)]  # fmt: skip
    pages = list(judge.pages(outcomes))
    (row,) = judge.rows(pages, "bfs", "tourism", 0, report_every=10)
    assert (row.true_harvest, row.recall) == (pytest.approx(1 / 3), 1 / MANIFEST_RELEVANT)
    scores = judge.truth_scores(pages)
    assert (scores.relevant, scores.irrelevant, scores.unknown) == ([0.5], [0.6, 0.1], 1)


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (['{"url": "http://a.test/", "relevant": true}', "{not json"], r"line 2: not JSON"),
        (['["http://a.test/", true]'], r"line 1: expected \{"),
        (['{"relevant": true}'], r'line 1: no "url"'),
        (['', '{"url": "http://a.test/"}'], r'line 2: no "relevant"'),
        (['{"url": "http://a.test/", "relevant": "yes"}'], r'line 1: no "relevant"'),
        (['{"url": "ftp://a.test/", "relevant": true}'], r"line 1: 'ftp://a.test/' is not an"),
        (['{"url": "http://a.test/", "relevant": true}',
          '{"url": "http://A.test/#x", "relevant": false}'],
         r"line 2: http://a.test/ is labelled true on line 1"),
        ([""], r"no page in the truth file"),
        (['{"url": "http://a.test/", "relevant": null}'], r"no page labelled yet"),
    ],
)  # fmt: skip
def test_a_bad_truth_file_names_the_file_and_line(tmp_path, lines, error) -> None:
    path = tmp_path / "truth.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(EvaluationError, match=rf"^{re.escape(str(path))}:? .*{error}"):
        read_truth(path)


def test_a_bad_truth_file_stops_the_evaluation_before_any_crawl(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    bad = tmp_path / "truth.jsonl"
    bad.write_text('{"url": "http://a.test/", "relevant": true}\n{"url": 3}\n', encoding="utf-8")
    for truth, message in ((bad, f"{bad} line 2: "), (tmp_path / "none.jsonl", "no such truth")):
        with pytest.raises(SystemExit) as exit_info:
            main(["evaluate", "tourism", "--strategies", "bfs", "--max-pages", "5",
                  "--truth", str(truth), "--out", str(tmp_path / "out")])  # fmt: skip
        assert exit_info.value.code == 2
        err = capsys.readouterr().err.strip()
        assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "home" / "runs").exists() and not (tmp_path / "out").exists()


def test_lines_not_labelled_yet_are_skipped_and_counted(tmp_path) -> None:
    path = tmp_path / "sheet.jsonl"
    path.write_text('{"url": "http://a.test/", "relevant": true, "title": "A"}\n'
                    '{"url": "http://b.test/", "relevant": null}\n',
                    encoding="utf-8-sig")  # labelled in an editor that writes a BOM  # fmt: skip
    judge = read_truth(path)
    assert dict(judge.labels) == {"http://a.test/": True}
    assert judge.label(judge.page("http://b.test/")) is None
    assert "1 pages, 1 relevant (the recall denominator), 1 not labelled yet" in judge.about
