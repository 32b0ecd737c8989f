"""A crawl of an older web's site (html.py): framesets, an inline frame and a "this page
has moved" refresh lead on to pages, and a page whose robots meta says nofollow does not.

The site is served by a real HTTP server on 127.0.0.1, with a robots.txt that allows all.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

from kgcrawl.config import load_settings
from kgcrawl.crawl.state import RunState
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE

HOST = "geo.example.edu"
TOURISM = "<p>旅游 景区 酒店 travel tourism hotel</p>"


def _page(name: str) -> str:
    return f"<HTML><BODY><H1>{name}</H1>{TOURISM}</BODY></HTML>"  # distinct: no duplicates


class _Campus(BaseHTTPRequestHandler):
    """A department's site as 1997 wrote it."""

    PAGES: ClassVar[dict[str, str]] = {
        "/": """<HTML><HEAD><TITLE>Geography</TITLE></HEAD><FRAMESET COLS="20%,80%">
            <FRAME SRC="menu.html" NAME=menu><FRAME SRC="main.html" NAME=main></FRAMESET>
            </HTML>""",
        "/menu.html": f"""<HTML><BODY>{TOURISM}<A HREF="courses.html">Courses</A>
            <IFRAME SRC="map.html"></IFRAME></BODY></HTML>""",
        "/main.html": """<HTML><HEAD><META HTTP-EQUIV="Refresh" CONTENT="0; URL=moved.html">
            </HEAD><BODY>This page has moved.</BODY></HTML>""",
        "/moved.html": _page("moved"),
        "/map.html": _page("map"),
        "/courses.html": f"""<HTML><HEAD><META NAME="ROBOTS" CONTENT="NOINDEX,NOFOLLOW">
            </HEAD><BODY>{TOURISM}<A HREF="private.html">grades</A></BODY></HTML>""",
        "/private.html": _page("private"),
        "/robots.txt": "User-agent: *\nDisallow:\n",
    }

    def do_GET(self) -> None:
        page = self.PAGES.get(self.path)
        if page is None:
            self.send_error(404)
            return
        data = page.encode()
        kind = "text/plain" if self.path.endswith(".txt") else "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def test_frames_a_refresh_and_robots_nofollow_on_an_old_site(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Campus)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        overrides = {"seeds": f"http://{HOST}/", "crawl.strategy": "bfs", "crawl.max_pages": 50}
        settings = load_settings("tourism", {**BASE, "relevance.alpha": 0.5, **overrides})
        resolve = (f"{HOST}={server.server_address[0]}:{server.server_address[1]}",)
        result = crawl(settings, CrawlRequest(resolve=resolve, run_id="campus"))
    finally:
        server.shutdown()
    state = RunState.open("campus")
    fetched = {o.final_url.removeprefix(f"http://{HOST}") for o in state.outcomes() if o.downloaded}
    state.close()
    # frames, the inline frame and the refresh are followed; the nofollow page's link is not
    assert fetched == {"/", "/menu.html", "/main.html", "/moved.html", "/map.html",
                       "/courses.html"}  # fmt: skip
    assert result.ended == "frontier exhausted"
