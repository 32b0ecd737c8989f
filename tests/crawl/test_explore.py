"""Exploration (crawl/explore.py) through a real crawl of a small site on 127.0.0.1.

The site's lecture pages each link two more lectures with the anchor "coach" (a
tour bus to the tourism ontology, so P follows them) and the department's home
page with the anchor "Home". Only the home page links the tourism courses. Best
first by P never leaves the lectures; a crawl that explores fetches the page every
lecture links to, then the courses its URLs and anchors name.
"""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from rich.console import Console

from kgcrawl.config import load_settings
from kgcrawl.crawl.view import stop_reason
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE

HOST = "rec.example.edu"
COURSE = "<p>Tourism and travel: a homestay, a hotel, a scenic spot, a backpacker, a tour.</p>"


class _Department(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        lecture = re.fullmatch(r"/lectures/(\d+)\.html", self.path)
        if lecture:
            n = int(lecture.group(1))
            links = "".join(f'<a href="/lectures/{k}.html">coach</a>' for k in (2 * n, 2 * n + 1))
            body = f"<title>Lecture {n}</title><p>The coach of the team.</p>{links}"
            body += '<a href="/">Home</a>'
        elif self.path == "/":
            body = "".join(f'<p><a href="/courses/{c}.html">{c} tourism</a>: travel, a tour</p>'
                           for c in ("homestay", "hotel"))  # fmt: skip
        elif self.path in ("/courses/homestay.html", "/courses/hotel.html"):
            body = f"<title>{self.path}</title>{COURSE}"
        else:
            self.send_error(404)
            return
        data = f"<html><body>{body}</body></html>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.mark.parametrize("explore_after", [20, 0])
def test_a_crawl_that_finds_nothing_explores_the_most_linked_page(
    tmp_path, monkeypatch, explore_after
):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Department)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        overrides = {"seeds": f"http://{HOST}/lectures/1.html", "crawl.strategy": "ops",
                     "crawl.max_pages": 60, "crawl.explore_after": explore_after,
                     "relevance.alpha": 0.3, "relevance.beta": 0.19}  # fmt: skip
        settings = load_settings("tourism", {**BASE, **overrides})
        resolve = (f"{HOST}=127.0.0.1:{server.server_address[1]}",)
        result = crawl(settings, CrawlRequest(resolve=resolve))
    finally:
        server.shutdown()
    note = Console(width=300, record=True)
    note.print(stop_reason(result))
    if explore_after:  # the home page at page 21 (relevant itself), then both courses
        assert (result.lp, result.explored) == (3, 1)
        assert "most-linked pages explored" in note.export_text()
    else:  # switched off: 60 lectures, nothing relevant
        assert (result.dp, result.lp, result.explored) == (60, 0, 0)
