"""Canonical URLs: one spelling per page."""

import pytest

from kgcrawl.text.urls import canonical_url, host_of


@pytest.mark.parametrize(
    ("raw", "canon"),
    [
        ("http://Example.com:80/a/../b?z=1&a=2#frag", "http://example.com/b?a=2&z=1"),
        ("https://x.cn:443", "https://x.cn/"),
        ("http://x.cn:8080/p?q=中文", "http://x.cn:8080/p?q=%E4%B8%AD%E6%96%87"),
        ("http://www.huangshan.com.cn/home?m_id=730", "http://www.huangshan.com.cn/home?m_id=730"),
        ("  http://a.cn/x#top  ", "http://a.cn/x"),
        ("http://a.cn/t-1.html?sid=0123456789abcdef&page=2", "http://a.cn/t-1.html?page=2"),
        ("http://a.cn/news/1.html;jsessionid=ABC123?x=1", "http://a.cn/news/1.html?x=1"),
        ("http://a.cn/f?PHPSESSID=9", "http://a.cn/f"),
        ("http://a.cn/n?id=7&utm_source=wx&utm_medium=share&fbclid=Iw1", "http://a.cn/n?id=7"),
        ("https://s.cn/item.htm?spm=a1z10.1-c&id=42&gclid=x", "https://s.cn/item.htm?id=42"),
    ],
)
def test_canonical_form(raw: str, canon: str) -> None:
    assert canonical_url(raw) == canon


@pytest.mark.parametrize(
    "raw", ["ftp://a.cn/", "javascript:void(0)", "mailto:a@b.cn", "http://[x", "/rel"]
)
def test_not_crawlable(raw: str) -> None:
    assert canonical_url(raw) is None


def test_host_of() -> None:
    assert host_of("http://WWW.Example.com:8080/x") == "www.example.com"
