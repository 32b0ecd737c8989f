"""Exploration (crawl/explore.py) through a real crawl of a small site on 127.0.0.1.

The site's lecture pages each link two more lectures with the anchor "coach" (a
tour bus to the tourism ontology, so P follows them) and the department's home
page with the anchor "Home". Only the home page links the tourism courses. Best
first by P never leaves the lectures; a crawl that explores fetches the page every
lecture links to, then the courses its URLs and anchors name.
"""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from kgcrawl.config import load_settings
from kgcrawl.crawl.view import stop_reason
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE, Site, serving

HOST = "rec.example.edu"
COURSE = "<p>Tourism and travel: a homestay, a hotel, a scenic spot, a backpacker, a tour.</p>"


class _Department(Site):
    def page(self, path: str) -> str | None:
        lecture = re.fullmatch(r"/lectures/(\d+)\.html", path)
        if lecture:
            n = int(lecture.group(1))
            links = "".join(f'<a href="/lectures/{k}.html">coach</a>' for k in (2 * n, 2 * n + 1))
            body = f"<title>Lecture {n}</title><p>The coach of the team.</p>{links}"
            body += '<a href="/">Home</a>'
        elif path == "/":
            body = "".join(f'<p><a href="/courses/{c}.html">{c} tourism</a>: travel, a tour</p>'
                           for c in ("homestay", "hotel"))  # fmt: skip
        elif path in ("/courses/homestay.html", "/courses/hotel.html"):
            body = f"<title>{path}</title>{COURSE}"
        else:
            return None
        return f"<html><body>{body}</body></html>"


@pytest.mark.parametrize("explore_after", [20, 0])
def test_a_crawl_that_finds_nothing_explores_the_most_linked_page(
    tmp_path, monkeypatch, explore_after
):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    overrides = {"seeds": f"http://{HOST}/lectures/1.html", "crawl.strategy": "ops",
                 "crawl.max_pages": 60, "crawl.explore_after": explore_after,
                 "relevance.alpha": 0.3, "relevance.beta": 0.19}  # fmt: skip
    settings = load_settings("tourism", {**BASE, **overrides})
    with serving(_Department, HOST) as resolve:
        result = crawl(settings, CrawlRequest(resolve=resolve))
    note = Console(width=300, record=True)
    note.print(stop_reason(result))
    if explore_after:  # the home page at page 21 (relevant itself), then both courses
        assert (result.lp, result.explored) == (3, 1)
        assert "most-linked pages explored" in note.export_text()
    else:  # switched off: 60 lectures, nothing relevant
        assert (result.dp, result.lp, result.explored) == (60, 0, 0)
