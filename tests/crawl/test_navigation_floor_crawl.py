"""A crawl whose α, calibrated on the corpora, lies below what navigation alone reaches
raises it once it has met enough pages whose main text names no topic word (crawl/core.py
`_judge_pending`, scoring/navigation_floor.py): BFS through the sandbox's small default
world, where portals' off-topic sections carry the domain's words in their menus."""

from __future__ import annotations

import json
import re
import sqlite3

import numpy as np
import pytest

from kgcrawl.calibrate import resolve_thresholds
from kgcrawl.config import load_settings
from kgcrawl.crawl.analyse import analyse_result
from kgcrawl.crawl.decode import decode_html
from kgcrawl.crawl.engine import CrawlResult
from kgcrawl.crawl.fetch import FetchResult
from kgcrawl.crawl.view import relevance_line
from kgcrawl.evaluate.judge import sandbox_judge
from kgcrawl.sandbox.world import World
from kgcrawl.scoring.web_alpha import WebAlpha
from kgcrawl.text.matching import TopicMatcher
from tests.crawl.crawls import judged_crawl

PAGES, PROBE = 300, 100
WORLD = (0, "small", "default")
SANDBOX = World(*WORLD)


def _crawl(strategy: str, domain: str, profile: str, navigation_within: int, run_id: str
           ) -> tuple[CrawlResult, float, float]:  # fmt: skip
    overrides = {"crawl.strategy": strategy, "crawl.max_pages": PAGES, "crawl.workers": 1,
                 "fetch.delay": 0, "graph.uri": "none", "calibration.probe_pages": PROBE,
                 "calibration.navigation_within": navigation_within}  # fmt: skip
    return judged_crawl(resolve_thresholds(load_settings(domain, overrides)), run_id, profile)


def _bfs(navigation_within: int, run_id: str) -> tuple[CrawlResult, float, float]:
    return _crawl("bfs", "tourism", "default", navigation_within, run_id)


def _logged(result: CrawlResult, columns: str = "final_url, relevance, lang, relevant, mentions"
            ) -> list[tuple]:  # fmt: skip
    """`columns` of each page downloaded, from the run log, in its order (by default: final
    URL, R(p), language, judged relevant, mentions)."""
    db = sqlite3.connect(result.state_path)
    pages = db.execute(f"SELECT {columns} FROM outcomes WHERE reason IS NULL ORDER BY seq")
    rows = pages.fetchall()
    db.close()
    return rows


def _read_as(url: str, extractor: str) -> str:
    """The main text the analysis gives the sandbox page at `url` with `extractor`."""
    reply = SANDBOX.get(url)
    kind = dict(reply.headers)["Content-Type"]
    text, charset = decode_html(reply.body, kind)
    page = FetchResult(url, url, 200, content=reply.body, text=text, charset=charset,
                       content_type=kind)  # fmt: skip
    return analyse_result(url, page, TopicMatcher([]), extractor=extractor).text


def _floor_pages(web: WebAlpha, pages: list) -> tuple[list[float], list[float]]:
    """R(p) of the Chinese pages met when the floor was found whose main text names no
    topic word, and the median R(p) of those whose main text names one and that the α
    before the floor passed (the words' or the corpora's: the floor raised "zh" only)."""
    assert set(web.alphas) == {"", "zh"} and list(web.floors) == ["zh"]
    met = [(r, m) for _, r, lang, _, m in pages[: web.floor_after] if lang == "zh"]
    navigation = [r for r, m in met if r > 0 and not json.loads(m)]
    passed = [r for r, m in met if json.loads(m) and r > web.alphas[""]]
    return navigation, float(np.median(passed))


@pytest.mark.slow
def test_bfs_judges_by_an_alpha_no_lower_than_navigation_alone_reaches(
    tmp_path, monkeypatch
) -> None:
    """The first PROBE pages hold fewer than 20 pages whose main text names no topic word
    (none of them truly relevant, yet they score through their menus); once the crawl
    has met 20, α is raised to the 95th percentile of their R(p), every page is judged
    by it, those before too, and the crawl's judgement reaches 0.9 × the best
    threshold's F1, which it misses when the floor may only be found at the probe."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    result, f1, best = _bfs(PAGES, "floor")
    web = result.web_alpha
    assert web is not None and web.floors and PROBE < web.floor_after < PAGES
    assert f1 >= 0.9 * best > 0

    pages = _logged(result)
    met = pages[: web.floor_after]
    navigation = [(url, r, lang) for url, r, lang, _, m in met if r > 0 and not json.loads(m)]
    assert web.navigation == len(navigation) >= 20
    assert sum(1 for _, r, _, _, m in pages[:PROBE] if r > 0 and not json.loads(m)) < 20
    judge = sandbox_judge(WORLD, "tourism")
    assert not any(judge.relevant(url) for url, _, _ in navigation)
    # the 95th percentile over those no higher than the median R(p) of the pages whose
    # main text names a topic word and that α passed
    scores, median = _floor_pages(web, pages)
    kept = [r for r in scores if r <= median]
    assert web.floors["zh"] == round(float(np.quantile(kept, 0.95)), 4) > 0.39
    # every page is judged by it, the first floor_after too (judged again when it was found)
    judged = [bool(j) for _, _, _, j, _ in pages]
    assert judged == [r > web.alpha(lang) for _, r, lang, _, _ in pages]
    assert web.rejudged > 0 and sum(j for *_, j, _ in pages) == result.lp
    said = (rf"judged \d+ of the first {PROBE} pages relevant.*; {web.navigation} of the first "
            rf"{web.floor_after} name no topic word in their main text, yet reach R\(p\) .* "
            rf"through navigation alone: α raised to it, α = .*, and judged them again by "
            rf"it \({web.rejudged} changed\)")  # fmt: skip
    assert re.search(said, " ".join(relevance_line(result).split()))
    # pages were read with trafilatura until the floor was found, with resiliparse after
    expected = [_read_as(url, "trafilatura" if n < web.floor_after else "resiliparse")
                for n, (url, *_) in enumerate(pages)]  # fmt: skip
    assert [text for (text,) in _logged(result, "text")] == expected
    later = pages[web.floor_after :]
    assert any(_read_as(url, "trafilatura") != _read_as(url, "resiliparse") for url, *_ in later)

    at_probe, f1_probe, best_probe = _bfs(PROBE, "at-probe")
    assert not (at_probe.web_alpha and at_probe.web_alpha.floors) and best_probe == best
    assert f1_probe < 0.9 * best


@pytest.mark.slow
def test_navigation_pages_above_the_crawls_own_relevant_ones_do_not_set_the_floor(
    tmp_path, monkeypatch
) -> None:
    """FCOSA_G through the small flat world, rainstorm: some pages whose main text names
    no topic word score above the median R(p) of the pages α passes on their own words.
    The floor is taken below them (their 95th percentile is higher), and the crawl's
    judgement reaches 0.9 × the best threshold's F1; with them it reached 0.50."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    result, f1, best = _crawl("fcosa_g", "rainstorm", "flat", PAGES, "fcosa_g")
    web = result.web_alpha
    assert web is not None and web.floors
    scores, median = _floor_pages(web, _logged(result))
    kept = [r for r in scores if r <= median]
    assert len(kept) < len(scores)  # some navigation pages outscore the median
    assert web.floors["zh"] == round(float(np.quantile(kept, 0.95)), 4)
    assert web.floors["zh"] < float(np.quantile(scores, 0.95))
    assert f1 >= 0.9 * best > 0


def test_a_crawl_meeting_few_navigation_pages_stops_looking_for_a_floor_at_the_probe(
    tmp_path, monkeypatch
) -> None:
    """fcits_oh through the small default world meets fewer pages whose main text names no
    topic word by the probe than would make 20 within the first PAGES at that rate: it
    stops looking for a floor there, and reads the pages after it with resiliparse, not
    with trafilatura (`navigation_floor.sought_past_probe`)."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    result, f1, best = _crawl("fcits_oh", "tourism", "default", PAGES, "focused")
    assert not (result.web_alpha and result.web_alpha.floors) and f1 >= 0.9 * best > 0
    pages = _logged(result)
    navigation = sum(1 for _, r, _, _, m in pages[:PROBE] if r > 0 and not json.loads(m))
    assert navigation * PAGES < 20 * PROBE
    texts = [text for (text,) in _logged(result, "text")]
    read = ["trafilatura" if n < PROBE else "resiliparse" for n in range(len(pages))]
    assert texts == [_read_as(url, how) for (url, *_), how in zip(pages, read, strict=True)]
    assert any(_read_as(url, "trafilatura") != text
               for (url, *_), text in zip(pages[PROBE:], texts[PROBE:], strict=True))  # fmt: skip
