"""Property tests (hypothesis): no href, `<base>`, charset, byte or nesting raises out of
decoding, the page analysis or URL canonicalisation (SPEC §6 turn 2); a link resolves to
the URL its whole base gives, though it is cached by the part of the base it reads.

Examples mix the inputs that broke the crawler (`http://[::1`, `<base href="http://[">`,
`charset=undefined`, IPv6 literals) with generated ones. Budget: well under 60 s.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcrawl.crawl.analyse import analyse_result
from kgcrawl.crawl.decode import DecodeError, decode_html
from kgcrawl.crawl.fetch import FetchResult
from kgcrawl.text.analysis import LinkOptions
from kgcrawl.text.matching import TopicMatcher
from kgcrawl.text.urls import canonical_url, host_of, link_url

HOSTILE_URLS = [
    "http://[::1", "http://[", "http://[::1]:8080/a", "http://[v1.x]/", "http://[fe80::1%25eth0]/",
    "http://[64:ff9b::7f00:1]/", "http://a:99999/", "http://a:-1/", "http://:80/", "http:///x",
    "https://user:pw@[::1]:443/?q#f", "//[::1]/x", "javascript:alert(1)", "file:///etc/passwd",
    "http://xn--/", "http://é.com/", "http://a..b/", "http://%00/", "http://\udcff/", "\x00",
    "http://a.com/%zz?%%=&&", "http://a.com/;jsessionid=1?sid=2", " http://a.com/ ", "?x", "#y",
    "../../..", "http://" + "a" * 300 + ".com/", "http://a.com:80:80/", "http://[::ffff:1.2.3.4]/",
]  # fmt: skip
CHARSETS = [
    "undefined", "punycode", "idna", "utf-7", "base64", "rot13", "zlib", "unicode_escape",
    "utf-16", "utf-32", "gbk", "gb2312", "x-unknown", "", "utf-8\x00", "latin-1", "shift_jis",
]  # fmt: skip
TAGS = ["div", "a", "b", "p", "table", "td", "li", "h1", "title", "script", "span", "base"]

urls = st.one_of(st.sampled_from(HOSTILE_URLS), st.text(max_size=40))
url_pieces = st.lists(st.one_of(st.sampled_from(HOSTILE_URLS), st.text(max_size=8)), max_size=4)
charsets = st.one_of(st.sampled_from(CHARSETS), st.text(max_size=12))
MATCHER = TopicMatcher([("旅游",), ("酒店",)])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _well_formed(url: str) -> None:
    parts = urlsplit(url)
    assert parts.scheme in ("http", "https") and parts.hostname
    assert parts.port is None or 0 < parts.port < 65536
    if ":" in parts.hostname:  # an IPv6 literal keeps its brackets
        assert f"[{parts.hostname}]" in parts.netloc


@FUZZ
@given(url=st.one_of(urls, url_pieces.map("".join)))
def test_canonical_url_returns_a_usable_url_or_none(url: str) -> None:
    canon = canonical_url(url)
    if canon is not None:
        _well_formed(canon)
        assert host_of(canon)


@FUZZ
@given(href=urls, base=urls)
def test_link_url_never_raises(href: str, base: str) -> None:
    target = link_url(href, base)
    if target is not None:
        _well_formed(target)


REFS = ["//", "/", "http://", "HTTPS://", "http:", "?", "#", ";", "", "..", "./", "a:", "\\",
        "\t", "\x01", " "]  # fmt: skip
BASES = ["http://h.test/dir/page.html?x=1#f", "https://u@h.test:8443/a;p/b;q?y", "http://h.test",
         "http://[::1]:8080/x/", "HTTP://H.test/../d/./e", "https://h.test/dir/"]  # fmt: skip


@FUZZ
@given(start=st.sampled_from(REFS), rest=st.one_of(urls, url_pieces.map("".join)),
       base=st.one_of(st.sampled_from(BASES + HOSTILE_URLS), urls))  # fmt: skip
def test_link_url_resolves_as_against_the_whole_base(start: str, rest: str, base: str) -> None:
    """`link_url` resolves against the part of the base a reference reads (`_scope`),
    so that pages share the cache: the URL is the one the whole base gives."""
    href = start + rest
    head, mark, tail = re.match(r"([^?#]*)([?#]?)(.*)", href.strip(), re.DOTALL).groups()
    ref = head.replace("\\", "/") + mark + tail  # as before the cache
    try:
        expected = canonical_url(urljoin(base, ref))
    except ValueError:
        expected = None
    assert link_url(href, base) == expected


@FUZZ
@given(body=st.binary(max_size=300), charset=charsets, meta=charsets)
def test_decode_html_decodes_or_says_it_cannot(body: bytes, charset: str, meta: str) -> None:
    page = f"<meta charset={meta}>".encode("utf-8", "replace") + body
    try:
        text, used = decode_html(page, f"text/html; charset={charset}")
    except DecodeError:
        return
    assert page.decode(used, "replace")  # the analysis decodes again with it
    assert isinstance(text, str)


@st.composite
def pages(draw) -> bytes:
    depth = draw(st.integers(0, 3000))
    tag = draw(st.sampled_from(TAGS))
    base = draw(st.one_of(st.none(), urls))
    hrefs = draw(st.lists(urls, max_size=8))
    junk = draw(st.binary(max_size=64))
    head = "" if base is None else f'<base href="{base}">'
    links = "".join(f"<a href=\"{h}\">旅游 {i}</a><area href='{h}'>" for i, h in enumerate(hrefs))
    html = f"<html><head>{head}<title>t</title></head><body>{f'<{tag}>' * depth}"
    return html.encode("utf-8", "surrogatepass") + junk + links.encode("utf-8", "replace")


@FUZZ
@given(body=pages(), charset=charsets, max_links=st.integers(1, 6))
def test_the_page_analysis_never_raises(body: bytes, charset: str, max_links: int) -> None:
    try:
        text, used = decode_html(body, f"text/html; charset={charset}")
    except DecodeError:
        return
    result = FetchResult("http://a.cn/x", "http://a.cn/x", 200, content=body, text=text)
    result.charset = used
    outcome = analyse_result(
        "http://a.cn/x", result, MATCHER, options=LinkOptions(max_links=max_links)
    )
    assert outcome.reason is None
    assert len(outcome.links) == len(outcome.anchor_counts) <= max_links
    for url, _ in outcome.links:
        _well_formed(url)
