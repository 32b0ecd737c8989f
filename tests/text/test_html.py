"""One lxml pass: tag groups of Table 1 on tricky HTML, title, links and anchors."""

from __future__ import annotations

import pytest

from kgcrawl.crawl.decode import decode_html
from kgcrawl.text.html import parse_html

BASE = "http://www.example.cn/a/b.html"


def groups(html: str) -> dict[int, list[str]]:
    """Group k → its text pieces (one per line), empty groups left out."""
    page = parse_html(html.encode("utf-8"), BASE)
    return {
        k: [line for line in text.split("\n") if line.strip()]
        for k, text in enumerate(page.groups, start=1)
        if text
    }


def test_each_group_of_table_1() -> None:
    html = """<html><head><title>T1</title>
    <meta name="keywords" content="K1"><meta name="Description" content="D1">
    <meta name="author" content="nobody"></head><body>
    <h1>H1</h1><h2>H2</h2><h3>H3</h3><h4>H4</h4><h5>H5</h5><h6>H6</h6>
    <b>B</b> <strong>S</strong><p>P</p><table><tr><td>TD</td></tr></table>
    <ul><li>LI</li></ul><div>DIV</div><footer>FOOT</footer></body></html>"""
    assert groups(html) == {
        1: ["T1", "K1", "D1", "H1"],
        2: ["H2", "H3"],
        3: ["H4", "H5", "H6", "B", "S"],
        4: ["P", "TD", "LI"],
        5: ["DIV", "FOOT"],
    }


def test_nested_bold_inside_paragraph_counts_once_in_the_innermost_group() -> None:
    # 景区 sits in <b> inside <p>: group 3 only; the paragraph text around it is
    # group 4, split where the bold text came in between.
    found = groups("<body><p>旅游<b>景区</b>酒店<a href='/x'>民宿</a></p></body>")
    assert found == {3: ["景区"], 4: ["旅游", "酒店民宿"]}


def test_table_cell_inside_navigation_is_body_text() -> None:
    html = "<body><nav>首页<table><tr><td>暴雨预警</td></tr></table>导航尾</nav></body>"
    assert groups(html) == {4: ["暴雨预警"], 5: ["首页", "导航尾"]}


def test_text_directly_under_body_is_group_5() -> None:
    assert groups("<html><body>裸露的文字<p>段落</p>又一段</body></html>") == {
        4: ["段落"],
        5: ["裸露的文字", "又一段"],
    }


def test_script_style_noscript_template_and_comments_are_ignored() -> None:
    html = """<html><head><style>p {color: red} 暴雨</style></head><body>
    <p>前<script>var s = "暴雨";</script>后</p><noscript>暴雨</noscript>
    <template><p>暴雨</p></template><p>甲<!-- 暴雨 -->乙</p>尾</body></html>"""
    page = parse_html(html.encode(), BASE)
    assert "暴雨" not in page.text
    # the text after a skipped element stays where it is; a comment joins its neighbours
    assert groups(html) == {4: ["前后", "甲乙"], 5: ["尾"]}


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # unclosed <p>s end at the next block; the bold never closed holds the rest
        ("<body><p>一<p>二<b>三<p>四</body>", {3: ["三"], 4: ["一", "二", "四"]}),
        # stray closing tags, unquoted attributes, a heading swallowing a paragraph
        ("<body></div><h2 class=x>标题<p>段</h2></span>后</body>", {2: ["标题"], 4: ["段后"]}),
        # no <html>, <head> or <body> at all
        ("<title>题</title>正文<li>项", {1: ["题"], 4: ["项"], 5: ["正文"]}),
        # an unterminated comment hides the rest of the page, as in a browser
        ("<body><p>见</p><!-- 未完 <p>隐</p>", {4: ["见"]}),
    ],
)
def test_malformed_markup(html: str, expected: dict) -> None:
    assert groups(html) == expected


@pytest.mark.parametrize("declared", [True, False])
def test_gbk_bytes_with_and_without_declared_charset(declared: bool) -> None:
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=gbk">' if declared else ""
    html = f"<html><head>{meta}<title>暴雨灾害预警</title></head><body><p>山体滑坡，城市内涝。</p>"
    body = html.encode("gbk")
    _text, charset = decode_html(body)  # what the fetcher does
    assert charset == "gb18030"
    page = parse_html(body, BASE, charset)
    assert page.title == "暴雨灾害预警"
    assert page.groups[3] == "山体滑坡，城市内涝。"


def test_the_fetchers_charset_wins_over_a_wrong_meta_declaration() -> None:
    body = "<meta charset=gbk><p>暴雨</p>".encode()  # UTF-8 bytes, GBK declared
    assert parse_html(body, BASE, "utf-8").groups[3] == "暴雨"


def test_empty_and_whitespace_pages() -> None:
    for body in (b"", b"   \n"):
        page = parse_html(body, BASE)
        assert page.groups == ("", "", "", "", "")
        assert page.links == ()
        assert page.title == ""


def test_links_are_absolute_canonical_and_http_only() -> None:
    html = """<body>
    <a href="c.html#part">rel</a>
    <a href="  /d?b=2&amp;a=1 ">root</a>
    <a href="HTTP://Other.CN:80/">port</a>
    <a href="https://x.cn:443/p">tls</a>
    <a href="mailto:a@b.cn">mail</a><a href="javascript:void(0)">js</a>
    <a href="ftp://f.cn/">ftp</a><a name="anchor-only">none</a>
    <area href="/map" alt="区域">
    </body>"""
    page = parse_html(html.encode(), BASE)
    assert [link.url for link in page.links] == [
        "http://www.example.cn/a/c.html",
        "http://www.example.cn/d?a=1&b=2",
        "http://other.cn/",
        "https://x.cn/p",
        "http://www.example.cn/map",
    ]


def test_base_href_changes_where_relative_links_point() -> None:
    html = '<head><base href="http://cdn.example.cn/root/"></head><body><a href="x">x</a>'
    assert parse_html(html.encode(), BASE).links[0].url == "http://cdn.example.cn/root/x"


def test_anchor_text_and_its_fallbacks() -> None:
    html = """<body>
    <a href="/1">  暴雨   <span>预警</span> </a>
    <a href="/2" title="标题文字"></a>
    <a href="/3" title="  "><img src="i.png" alt="图片说明"></a>
    <a href="/4"><img src="i.png"></a>
    <a href="/1">再次</a>
    </body>"""
    anchors = {
        link.url.rsplit("/", 1)[1]: link.anchor for link in parse_html(html.encode(), BASE).links
    }
    assert anchors == {"1": "暴雨 预警 再次", "2": "标题文字", "3": "图片说明", "4": ""}


def test_title_is_the_first_title_with_spaces_collapsed() -> None:
    page = parse_html(b"<title>\n  Rain \n storm </title><title>second</title>", BASE)
    assert page.title == "Rain storm"


def test_page_url_is_canonical() -> None:
    assert (
        parse_html(b"<p>x</p>", "HTTP://WWW.Example.cn:80/a#top").url == "http://www.example.cn/a"
    )


def links(html: str, words: int) -> dict[str, tuple[str, str]]:
    page = parse_html(html.encode("utf-8"), BASE, context_words=words)
    return {link.url.rsplit("/", 1)[-1]: (link.anchor, link.context) for link in page.links}


def test_link_context_is_the_sentence_around_the_link_without_its_anchor() -> None:
    html = """<body><p>Notes on beach resorts and <i>hotel</i> booking are
    <a href="x">here</a>, with maps. <b>More</b> text after that.</p>
    <ul><li><a href="c">GEOG 341</a> <span>Tourism Geography</span></li>
    <li><a href="d">GEOG 342</a> Rivers</li></ul></body>"""
    got = links(html, words=3)
    # three words each side; the link's own text is the anchor, not context
    assert got["x"] == ("here", "hotel booking are , with maps. More")
    # a list entry is the block: the next entry's words are not this link's context
    assert got["c"] == ("GEOG 341", "Tourism Geography")
    assert got["d"] == ("GEOG 342", "Rivers")
    assert links(html, words=0)["x"] == ("here", "")  # no window asked for: none gathered


def test_link_context_counts_chinese_characters_as_words_and_skips_hidden_text() -> None:
    html = """<div>黄山风景区的暴雨预警<script>var x = "暴雨";</script><a href="z">点击这里</a>
    山洪灾害报道内容很多很多很多很多很多</div>"""
    anchor, context = links(html, words=2)["z"]
    # 2 words ≈ 4 Chinese characters each side; the two sides are apart (no label across)
    assert anchor == "点击这里" and context == "暴雨预警 山洪灾害"


def test_link_context_walks_out_of_inline_elements_to_the_block() -> None:
    html = '<p>before <b>bold <a href="n">nested</a> tail</b> after</p><p>other</p>'
    assert links(html, words=5)["n"] == ("nested", "before bold tail after")


def test_a_link_twice_on_a_page_keeps_both_contexts() -> None:
    html = '<p>flood maps <a href="m">x</a></p><p><a href="m">y</a> rainfall data</p>'
    assert links(html, words=5)["m"] == ("x y", "flood maps rainfall data")


FRAMESET = """<HTML><HEAD><TITLE>Geography</TITLE>
<META HTTP-EQUIV="Refresh" CONTENT="10; URL='new/index.html'"></HEAD>
<FRAMESET COLS="20%,80%"><FRAME SRC="menu.html" NAME=menu TITLE="Course  list">
<FRAME SRC="main.html" NAME=main>
<NOFRAMES><BODY><P>Tourism <A HREF="old.html">Courses</A></BODY></NOFRAMES>
</FRAMESET></HTML>"""


def test_frames_iframes_and_a_refresh_are_links_and_noframes_is_skipped() -> None:
    page = parse_html(FRAMESET.encode(), BASE)
    assert [(link.url, link.anchor) for link in page.links] == [
        ("http://www.example.cn/a/new/index.html", ""),
        ("http://www.example.cn/a/menu.html", "Course list"),  # the title stands in
        ("http://www.example.cn/a/main.html", ""),
    ]
    assert page.groups == ("Geography", "", "", "", "")  # not the markup of <noframes>
    inline = parse_html(b'<p>Map <iframe src="/map.html"></iframe> <a href="/x">x</a>', BASE)
    assert [link.url for link in inline.links] == [
        "http://www.example.cn/map.html",
        "http://www.example.cn/x",
    ]


@pytest.mark.parametrize(
    ("content", "follows"),
    [("noindex, nofollow", False), ("NONE", False), ("noindex", True), ("index,follow", True)],
)
def test_meta_robots_nofollow_gives_no_links(content: str, follows: bool) -> None:
    html = f'<meta name="robots" content="{content}"><p>景区</p><a href="/x">x</a>'
    page = parse_html(html.encode(), BASE)
    assert bool(page.links) is follows
    assert page.groups[3] == "景区"  # the page itself still counts
