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
from kgcrawl.crawl.engine import CrawlResult
from kgcrawl.crawl.view import relevance_line
from kgcrawl.evaluate.judge import sandbox_judge
from tests.crawl.crawls import judged_crawl

PAGES, PROBE = 300, 100
WORLD = (0, "small", "default")


def _bfs(navigation_within: int, run_id: str) -> tuple[CrawlResult, float, float]:
    overrides = {"crawl.strategy": "bfs", "crawl.max_pages": PAGES, "crawl.workers": 1,
                 "fetch.delay": 0, "graph.uri": "none", "calibration.probe_pages": PROBE,
                 "calibration.navigation_within": navigation_within}  # fmt: skip
    return judged_crawl(resolve_thresholds(load_settings("tourism", overrides)), run_id)


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

    db = sqlite3.connect(result.state_path)
    pages = db.execute("SELECT final_url, relevance, lang, relevant, mentions FROM outcomes "
                       "WHERE reason IS NULL ORDER BY seq").fetchall()  # fmt: skip
    db.close()
    met = pages[: web.floor_after]
    navigation = [(url, r, lang) for url, r, lang, _, m in met if r > 0 and not json.loads(m)]
    assert web.navigation == len(navigation) >= 20
    assert sum(1 for _, r, _, _, m in pages[:PROBE] if r > 0 and not json.loads(m)) < 20
    judge = sandbox_judge(WORLD, "tourism")
    assert not any(judge.relevant(url) for url, _, _ in navigation)
    assert set(web.alphas) == {"", "zh"} and list(web.floors) == ["zh"]
    before = web.alphas[""]  # the α the floor raised: the web's words' (or the corpora's)
    # the 95th percentile over those no higher than the median R(p) of the pages whose
    # main text names a topic word and that α passed
    passed = [r for _, r, lang, _, m in met if lang == "zh" and json.loads(m) and r > before]
    scores = [r for _, r, lang in navigation if lang == "zh" and r <= np.median(passed)]
    assert web.floors["zh"] == round(float(np.quantile(scores, 0.95)), 4) > 0.39
    # every page is judged by it, the first floor_after too (judged again when it was found)
    judged = [bool(j) for _, _, _, j, _ in pages]
    assert judged == [r > web.alpha(lang) for _, r, lang, _, _ in pages]
    assert web.rejudged > 0 and sum(j for *_, j, _ in pages) == result.lp
    said = (rf"judged \d+ of the first {PROBE} pages relevant.*; {web.navigation} of the first "
            rf"{web.floor_after} name no topic word in their main text, yet reach R\(p\) .* "
            rf"through navigation alone: α raised to it, α = .*, and judged them again by "
            rf"it \({web.rejudged} changed\)")  # fmt: skip
    assert re.search(said, " ".join(relevance_line(result).split()))

    at_probe, f1_probe, best_probe = _bfs(PROBE, "at-probe")
    assert not (at_probe.web_alpha and at_probe.web_alpha.floors) and best_probe == best
    assert f1_probe < 0.9 * best
