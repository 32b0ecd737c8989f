"""Paths ⇄ pages: each style's spelling, written by hand, and the round trip on a whole world."""

from __future__ import annotations

import pytest

from kgcrawl.sandbox.hosts import Alias, Channel, Host, Kind, Style
from kgcrawl.sandbox.routes import (
    PageType,
    Route,
    article_date,
    list_pages,
    parse,
    path_for,
    query_key,
    split_session,
)
from kgcrawl.sandbox.world import World

CHANNELS = (Channel("travel", "tourism", "旅游", 45), Channel("food", "food", "美食", 3))


def host(style: Style, aliases: tuple[Alias, ...] = ()) -> Host:
    return Host(
        name="www.example.cn",
        kind=Kind.PORTAL,
        lang="zh",
        topic="tourism",
        title="例子旅游网",
        scheme="http",
        style=style,
        channels=CHANNELS,
        aliases=aliases,
        base_id=200000,
    )


# Article 7 of channel 1 has public id 200000 + 1000·1 + 7 = 201007.
@pytest.mark.parametrize(
    ("style", "list_0", "list_2", "article"),
    [
        (Style.CMS, "/travel/", "/travel/index_2.html", "/food/{ym}/t{ymd}_201002.html"),
        (Style.SIMPLE, "/travel/", "/travel/list_2.html", "/food/201002.html"),
        (Style.QUERY, "/list.php?cid=1", "/list.php?cid=1&page=3", "/show.php?id=201002"),
        (Style.FORUM, "/forum-1-1.html", "/forum-1-3.html", "/thread-201002-1-1.html"),
    ],
)
def test_each_style_spells_pages_as_written_and_reads_them_back(style, list_0, list_2, article):
    h = host(style)
    day = article_date(201002)
    article = article.format(ym=f"{day:%Y%m}", ymd=f"{day:%Y%m%d}")
    cases = {
        list_0: Route(PageType.LIST, 0, 0),
        list_2: Route(PageType.LIST, 0, 2),
        article: Route(PageType.ARTICLE, 1, 2),
        "/": Route(PageType.HOME),
        "/about.html": Route(PageType.STATIC, text="about"),
        "/calendar/2024-06.html": Route(PageType.CALENDAR, text="2024-06"),
        "/calendar/2024-06-30.html": Route(PageType.CALENDAR, text="2024-06-30"),
        "/doc/api/v2/": Route(PageType.DEEP, text="api/v2/"),
        "/print/200003.html": Route(PageType.PRINT, 0, 3),
        "/files/12.pdf": Route(PageType.PDF, number=12),
        "/images/5.png": Route(PageType.IMAGE, number=5),
        "/loop/1.html": Route(PageType.LOOP, number=1),
    }
    for path, route in cases.items():
        assert path_for(h, route) == path
        p, _, q = path.partition("?")
        assert parse(h, p, q) == route


def test_list_pages_hold_twenty_entries():
    h = host(Style.SIMPLE)
    assert list_pages(h, 0) == 3  # 45 articles
    assert list_pages(h, 1) == 1
    assert parse(h, "/travel/list_3.html", "") is None
    assert parse(h, "/travel/list_0.html", "") is None  # page 0 is /travel/ only


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/food/201003.html", ""),  # channel 1 has 3 articles: k = 3 does not exist
        ("/travel/201002.html", ""),  # right id, wrong channel slug
        ("/nosuch/", ""),
        ("/calendar/2024-02-30.html", ""),
        ("/doc/api/nope/", ""),
        ("/doc/api", ""),
        ("/member/10.html", ""),
        ("/loop/2.html", ""),
        ("/files/1.png", ""),
        ("/show.php", "id=201002"),  # query URLs only on query-style hosts
    ],
)
def test_paths_naming_no_page_are_404(path, query):
    assert parse(host(Style.SIMPLE), path, query) is None


def test_cms_article_with_a_wrong_date_is_404():
    assert parse(host(Style.CMS), "/food/202001/t20200101_201002.html", "") is None


def test_query_parameters_match_in_any_order():
    h = host(Style.QUERY, (Alias("/s?id=15&wfr=spider&for=pc", "article", "tourism"),))
    assert parse(h, "/list.php", "page=3&cid=1") == Route(PageType.LIST, 0, 2)
    route = parse(h, "/s", "for=pc&id=15&wfr=spider")
    assert route is not None and route.type is PageType.ARTICLE and route.alias is not None
    assert query_key("/s", "b=1&a=2") == ("/s", (("a", "2"), ("b", "1")))


def test_jump_keeps_the_query_of_its_target():
    route = parse(host(Style.QUERY), "/jump/2/show.php", "id=201002")
    assert route == Route(PageType.JUMP, number=2, text="/show.php?id=201002")


@pytest.mark.parametrize(
    ("path", "query", "expected"),
    [
        ("/a/1.html;jsessionid=0123456789abcdef", "", ("/a/1.html", "", "0123456789abcdef")),
        ("/show.php", "id=3&sid=0123456789abcdef", ("/show.php", "id=3", "0123456789abcdef")),
        ("/show.php", "id=3&sid=short", ("/show.php", "id=3&sid=short", None)),
        ("/a/1.html", "", ("/a/1.html", "", None)),
    ],
)
def test_session_ids_are_split_off(path, query, expected):
    assert split_session(path, query) == expected


def test_every_page_of_a_world_round_trips():
    world = World(0, "small")
    for h in world.hosts.values():
        routes = [Route(PageType.HOME), Route(PageType.ROBOTS)]
        for i, channel in enumerate(h.channels):
            routes += [Route(PageType.LIST, i, n) for n in range(list_pages(h, i))]
            if h.kind is not Kind.DIRECTORY:
                routes += [Route(PageType.ARTICLE, i, k) for k in range(channel.size)]
        for route in routes:
            path, _, query = path_for(h, route).partition("?")
            assert parse(h, path, query) == route, (h.name, route)


def test_directories_list_hosts_and_have_no_articles():
    world = World(0, "small")
    directory = world.hosts["www.maigoo.com"]
    assert directory.kind is Kind.DIRECTORY and directory.channels[0].size > 0
    path = path_for(directory, Route(PageType.ARTICLE, 0, 0))
    assert parse(directory, *path.partition("?")[::2]) is None
    assert world.respond("www.maigoo.com", path).status == 404


def test_the_sandbox_never_imports_the_code_it_judges():
    """ARCHITECTURE.md: the world's truth must not be computed by the crawler's own code."""
    import ast
    from pathlib import Path

    import kgcrawl.sandbox

    forbidden = ("kgcrawl.ontology", "kgcrawl.scoring", "kgcrawl.crawl")
    for path in Path(kgcrawl.sandbox.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not [n for n in names if n.startswith(forbidden)], path.name
