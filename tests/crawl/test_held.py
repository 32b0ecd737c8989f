"""Pages a failing robots.txt held back are asked for again once it may be read anew
(crawl/held.py), through real crawls of two hand-made sites; the run log replays."""

from __future__ import annotations

import logging
from typing import ClassVar

import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.engine import Engine
from kgcrawl.crawl.outcome import DEFERRED, ROBOTS_DOWN
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.view import progress_line
from kgcrawl.graph.sync import run_settings
from kgcrawl.runner import CrawlRequest, crawl
from tests.crawl.crawls import BASE, Site, serving

OPEN, DOWN = "open.example", "down.example"
SETTINGS = {**BASE, "relevance.alpha": 0.5, "relevance.beta": 0.19, "crawl.strategy": "ops",
            "seeds": f"http://{OPEN}/", "fetch.robots_retry": 0.5}  # fmt: skip


def _page(title: str, links: list[str]) -> str:
    anchors = "".join(f"<a href={link}>旅游 景区</a>" for link in links)
    return f"<html><title>旅游 {title}</title><p>景区 酒店 游客</p>{anchors}</html>"


class _Open(Site):
    """Three pages; the first links to the other site."""

    def page(self, path: str) -> str | None:
        links = {"/": ["/a.html", f"http://{DOWN}/"], "/a.html": ["/b.html"], "/b.html": []}
        return _page(path, links[path]) if path in links else None


class _Down(Site):
    """Three pages behind a robots.txt that answers 503 its first `failures` times."""

    failures: ClassVar[float] = 1
    asked: ClassVar[int] = 0

    def do_GET(self) -> None:
        if self.path == "/robots.txt":
            type(self).asked += 1
            if self.asked <= self.failures:
                self.send_error(503)
                return
        super().do_GET()

    def page(self, path: str) -> str | None:
        links = {"/": ["/c.html"], "/c.html": ["/d.html"], "/d.html": []}
        return _page(path, links[path]) if path in links else None


@pytest.mark.parametrize("failures", [1, float("inf")])
def test_a_failing_robots_txt_holds_its_pages_until_it_may_be_read_again(
    tmp_path, monkeypatch, caplog, failures
) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    monkeypatch.setattr(_Down, "failures", failures)
    monkeypatch.setattr(_Down, "asked", 0)
    settings = load_settings("tourism", SETTINGS)
    shown: list[str] = []
    with (
        serving(_Open, OPEN) as open_site,
        serving(_Down, DOWN) as down_site,
        caplog.at_level(logging.WARNING, logger="kgcrawl"),
    ):
        request = CrawlRequest(resolve=(*open_site, *down_site), run_id="held")
        result = crawl(settings, request, lambda p: shown.append(progress_line(p)))
    waits = [m for r in caplog.records if "robots.txt that failed" in (m := r.getMessage())]
    assert waits and waits[0].startswith("1 page(s) wait for a robots.txt that failed: asked again")
    assert any("robots.txt asked again in" in line for line in shown), "the display counts down"
    state = RunState.open("held")
    try:
        outcomes = list(state.outcomes())
        engine = Engine(run_settings(state), state)
        assert engine.replay() == len(outcomes), "the log replays through the holds"
        assert (engine.crawl.counters.dp, engine.crawl.counters.lp) == (result.dp, result.lp)
    finally:
        state.close()
    down = [(o.url, o.reason) for o in outcomes if DOWN in o.url]
    first = f"http://{DOWN}/"
    if failures == 1:  # asked again once robots.txt may be: the site's pages are all crawled
        assert down[0] == (first, DEFERRED)
        assert [url for url, reason in down[1:] if reason is None] == [
            first, f"http://{DOWN}/c.html", f"http://{DOWN}/d.html"
        ]  # fmt: skip
        assert result.dp == 6 and result.failures == []
    else:  # still failing at its third try: that refusal is the page's outcome
        assert down == [(first, DEFERRED), (first, DEFERRED), (first, ROBOTS_DOWN)]
        assert result.dp == 3 and result.failures == [(ROBOTS_DOWN, 1)]
        assert _Down.asked == 3  # robots.txt asked once per try, never sooner
    assert result.ended == "frontier exhausted"
