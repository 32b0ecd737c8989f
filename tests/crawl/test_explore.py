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
from kgcrawl.crawl.view import run_details, stop_reason
from kgcrawl.runner import CrawlRequest, crawl, resume
from tests.crawl.crawls import BASE, Site, serving
from tests.crawl.test_ending import rendered

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


def _crawl(
    site: type[Site], host: str, seed: str, explore_after: int, alpha: float, workers: int = 1
):
    """OPS through 60 pages of `site` from `seed`: the result and its stop reason."""
    overrides = {"seeds": f"http://{host}{seed}", "crawl.strategy": "ops",
                 "crawl.max_pages": 60, "crawl.explore_after": explore_after,
                 "relevance.alpha": alpha, "relevance.beta": 0.19,
                 "crawl.workers": workers}  # fmt: skip
    settings = load_settings("tourism", {**BASE, **overrides})
    with serving(site, host) as resolve:
        result = crawl(settings, CrawlRequest(resolve=resolve))
    note = Console(width=300, record=True)
    note.print(stop_reason(result))
    return result, note.export_text()


@pytest.mark.parametrize("explore_after", [20, 0])
def test_a_crawl_that_finds_nothing_explores_the_most_linked_page(
    tmp_path, monkeypatch, explore_after
):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    result, note = _crawl(_Department, HOST, "/lectures/1.html", explore_after, 0.3)
    if explore_after:  # the home page at page 21 (relevant itself), then both courses
        assert (result.lp, result.explored) == (3, 1)
        assert "most-linked pages explored" in note
    else:  # switched off: 60 lectures, nothing relevant
        assert (result.dp, result.lp, result.explored) == (60, 0, 0)


PORTAL = "travel.example.com"


class _Portal(Site):
    """Tourism pages, each linking two more and the site's three off-topic pages; those
    link on to more off-topic pages, so the most-linked unvisited page is always one."""

    def page(self, path: str) -> str | None:
        topic = re.fullmatch(r"/t/(\d+)\.html", path)
        other = re.fullmatch(r"/about/(\d+)\.html", path)
        if topic:
            n = int(topic.group(1))
            body = f"<title>Tour {n}</title>{COURSE}" + "".join(
                f'<a href="/t/{k}.html">a hotel tour</a>' for k in (2 * n, 2 * n + 1)
            )
            body += "".join(f'<a href="/about/{k}.html">About us</a>' for k in (1, 2, 3))
        elif other:
            n = int(other.group(1))
            body = f"<title>About {n}</title><p>Our company, our staff, our offices.</p>"
            body += "".join(f'<a href="/about/{k}.html">More</a>' for k in range(n + 1, n + 5))
        else:
            return None
        return f"<html><body>{body}</body></html>"


class _Blind(_Portal):
    """The portal without its tourism: no page names a topic word."""

    def page(self, path: str) -> str | None:
        body = super().page(path)
        return body and body.replace(COURSE, "<p>Our news.</p>").replace("a hotel tour", "News")


@pytest.mark.parametrize(("site", "host", "seed"), [
    (_Portal, PORTAL, "/t/1.html"), (_Department, HOST, "/lectures/1.html"),
    (_Blind, PORTAL, "/t/1.html"),
])  # fmt: skip
def test_exploration_ends_when_the_pages_since_score_lower(tmp_path, monkeypatch, site, host, seed):
    """α above every page: nothing is judged relevant on any site. On the portal the
    focus works and the explored pages are off-topic, so exploration ends at page
    20 + 10; on the department the explored home page and courses score above the
    lectures, and on the blind portal the focus has nothing to follow: it goes on."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    result, note = _crawl(site, host, seed, 20, 0.99)
    assert (result.dp, result.lp) == (60, 0)
    if site is _Portal:
        assert result.explore_ended == 30 and 3 <= result.explored <= 6
        assert "until page 30: the pages after those scored no higher R(p)" in " ".join(
            note.split()
        )
        assert f"{result.explored} most-linked links, until page 30" in rendered(
            run_details(result.run_id)
        )
    else:
        assert result.explore_ended == 0 and result.explored >= 19, result.explored


def test_a_resumed_run_keeps_its_exploration_count(tmp_path, monkeypatch):
    """Several workers: the replay takes each link by URL, not knowing which ones
    exploration took; the run's meta does."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    first, _ = _crawl(_Portal, PORTAL, "/t/1.html", 20, 0.99, workers=4)
    with serving(_Portal, PORTAL) as resolve:
        again = resume(first.run_id, CrawlRequest(resolve=resolve))
    assert first.explored > 0 and again.explored == first.explored
