"""A page as the scoring sees it: counts f_{i,k} per tag group, anchor counts, length."""

from __future__ import annotations

from kgcrawl.text.analysis import analyse_page
from kgcrawl.text.matching import TopicMatcher


def test_counts_per_group_anchor_counts_and_length(jieba_words) -> None:
    matcher = TopicMatcher([["暴雨"], ["洪水", "flood"], ["景区"]])
    html = """<html><head><title>暴雨预警</title></head><body>
    <h2>洪水</h2><p>暴雨过后，<b>洪水</b>来临。flood!</p>
    <a href="/a">暴雨和洪水</a><a href="/b">更多</a></body></html>"""
    page = analyse_page(html.encode("gbk"), "http://x.cn/", matcher, "gb18030")
    # 暴雨: title (group 1) and the paragraph (group 4); 洪水: h2 (2), b (3),
    # flood in the paragraph (4) and the anchor (group 5).
    assert page.counts.tolist() == [[1, 0, 0, 1, 1], [0, 1, 1, 1, 1], [0, 0, 0, 0, 0]]
    assert page.present.tolist() == [True, True, False]
    assert [link.url for link in page.links] == ["http://x.cn/a", "http://x.cn/b"]
    assert page.anchor_counts == ({0: 1, 1: 1}, {})
    assert page.title == "暴雨预警" and page.url == "http://x.cn/"
    # 1 Latin word + 暴雨预警 洪水 暴雨过后 洪水 来临 暴雨和洪水 更多 = 21 characters / 1.9 → 11
    assert page.length == 12
