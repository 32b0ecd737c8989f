"""A crawl of an older web's site (html.py): framesets, an inline frame and a "this page
has moved" refresh lead on to pages, and a page whose robots meta says nofollow does not.

The site is served by a real HTTP server on 127.0.0.1 (no robots.txt: a 404 allows all).
"""

from __future__ import annotations

from typing import ClassVar

from kgcrawl.config import load_settings
from kgcrawl.crawl.state import RunState
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE, Site, serving

HOST = "geo.example.edu"
TOURISM = "<p>旅游 景区 酒店 travel tourism hotel</p>"


def _page(name: str) -> str:
    return f"<HTML><BODY><H1>{name}</H1>{TOURISM}</BODY></HTML>"  # distinct: no duplicates


class _Campus(Site):
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
    }

    def page(self, path: str) -> str | None:
        return self.PAGES.get(path)


def test_frames_a_refresh_and_robots_nofollow_on_an_old_site(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    overrides = {"seeds": f"http://{HOST}/", "crawl.strategy": "bfs", "crawl.max_pages": 50}
    settings = load_settings("tourism", {**BASE, "relevance.alpha": 0.5, **overrides})
    with serving(_Campus, HOST) as resolve:
        result = crawl(settings, CrawlRequest(resolve=resolve, run_id="campus"))
    state = RunState.open("campus")
    fetched = {o.final_url.removeprefix(f"http://{HOST}") for o in state.outcomes() if o.downloaded}
    state.close()
    # frames, the inline frame and the refresh are followed; the nofollow page's link is not
    assert fetched == {"/", "/menu.html", "/main.html", "/moved.html", "/map.html",
                       "/courses.html"}  # fmt: skip
    assert result.ended == "frontier exhausted"
