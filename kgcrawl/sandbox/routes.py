"""Paths ⇄ pages: how each host spells its URLs, and which page a path names.

A page is named by a `Route` (its type and numbers); `path_for` writes the path
in the host's style and `parse` reads it back, so a path either names exactly
one page or is a 404. Article ids are public numbers `base_id + 1000·channel + k`
and carry a date in CMS paths, as on real news sites. Query strings are compared
as sorted pairs, so a crawler that reorders parameters still finds the page.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qsl, urlencode

from kgcrawl.sandbox.hazards import DEEP_SEGMENTS
from kgcrawl.sandbox.hosts import Alias, Host, Kind, Style

MAX_DEEP = 400
PER_PAGE = 20  # entries on a list page
MAX_NUMBER = 100_000
_EPOCH = dt.date(2024, 6, 30)
_SID = re.compile(r";jsessionid=([0-9a-f]{16})$")
_CALENDAR = re.compile(r"/calendar/(\d{4})-(\d{2})(?:-(\d{2}))?\.html")
_NUMBERED = re.compile(r"/(member|print|files|images|export|live|loop)/(\d{1,6})\.(html|pdf|png)")
_JUMP = re.compile(r"/jump/(\d{1,2})(/.*)")
_CMS_LIST = re.compile(r"/([a-z]+)/(?:index_(\d+)\.html)?")
_CMS_ARTICLE = re.compile(r"/([a-z]+)/(\d{6})/t(\d{8})_(\d+)\.html")
_SIMPLE_LIST = re.compile(r"/([a-z]+)/(?:list_(\d+)\.html)?")
_SIMPLE_ARTICLE = re.compile(r"/([a-z]+)/(\d+)\.html")
_FORUM_LIST = re.compile(r"/forum-(\d+)-(\d+)\.html")
_FORUM_THREAD = re.compile(r"/thread-(\d+)-1-1\.html")
_LEAF = re.compile(r"([a-z]+)(\d{2})")
# Pages of an academic channel by section: named ones first, then numbered ones.
ACADEMIC_PAGES: dict[str, tuple[tuple[str, ...], str]] = {
    "courses": (
        ("syllabus", "schedule", "readings", "assignments", "exams", "projects"),
        "lecture",
    ),
    "research": (("projects", "publications", "members", "data", "software", "seminars"), "report"),
    "people": (("cv", "publications", "teaching", "students", "talks"), "paper"),
    "news": ((), "item"),
}
_NUMBERED_EXT = dict.fromkeys(("member", "print", "export", "live", "loop"), "html") | {
    "files": "pdf",
    "images": "png",
}


class PageType(StrEnum):
    """What kind of page a path names."""

    HOME = "home"
    LIST = "list"
    ARTICLE = "article"
    STATIC = "static"
    MEMBER = "member"
    PRINT = "print"
    CALENDAR = "calendar"
    DEEP = "deep"
    PDF = "files"
    IMAGE = "images"
    EXPORT = "export"
    LIVE = "live"
    JUMP = "jump"
    LOOP = "loop"
    ROBOTS = "robots"


STATIC_PAGES = ("about", "contact", "sitemap")


@dataclass(frozen=True)
class Route:
    """One page of a host: type, channel, number (list page, article k, file n, hops)."""

    type: PageType
    channel: int = -1
    number: int = 0
    text: str = ""  # calendar date, deep path, jump target, static page name
    alias: Alias | None = None


def query_key(path: str, query: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A path and query compared as a crawler's canonical form would be: sorted pairs."""
    return path, tuple(sorted(parse_qsl(query, keep_blank_values=True)))


def article_date(aid: int) -> dt.date:
    """Publication date of an article, spread over four years before the epoch."""
    return _EPOCH - dt.timedelta(days=(aid * 7919) % 1460)


def article_id(host: Host, channel: int, k: int) -> int:
    return host.base_id + 1000 * channel + k


def _article_of(host: Host, aid: int) -> tuple[int, int] | None:
    """(channel, k) of a public article id; directories list hosts, they have no articles."""
    channel, k = divmod(aid - host.base_id, 1000)
    if aid < host.base_id or channel >= len(host.channels) or k >= host.channels[channel].size:
        return None
    if host.kind is Kind.DIRECTORY:
        return None
    return channel, k


def list_pages(host: Host, channel: int) -> int:
    """How many list pages a channel has (at least one)."""
    return max(1, -(-host.channels[channel].size // PER_PAGE))


def path_for(host: Host, route: Route) -> str:
    """The path (and query) of a page on `host`."""
    t = route.type
    if route.alias is not None:
        return route.alias.target
    if t is PageType.HOME:
        return "/"
    if t is PageType.LIST:
        return _list_path(host, route.channel, route.number)
    if t is PageType.ARTICLE:
        return _article_path(host, route.channel, route.number)
    if t is PageType.STATIC:
        return f"/{route.text}.html"
    if t is PageType.PRINT:
        return f"/print/{article_id(host, route.channel, route.number)}.html"
    if t is PageType.CALENDAR:
        return f"/calendar/{route.text}.html"
    if t is PageType.DEEP:
        return f"/doc/{route.text}"
    if t is PageType.JUMP:
        return f"/jump/{route.number}{route.text}"
    if t is PageType.ROBOTS:
        return "/robots.txt"
    return f"/{t.value}/{route.number}.{_NUMBERED_EXT[t.value]}"


def _list_path(host: Host, channel: int, n: int) -> str:
    slug = host.channels[channel].slug
    match host.style:
        case Style.CMS:
            return f"/{slug}/" if n == 0 else f"/{slug}/index_{n}.html"
        case Style.SIMPLE:
            return f"/{slug}/" if n == 0 else f"/{slug}/list_{n}.html"
        case Style.QUERY:
            params = {"cid": channel + 1} | ({"page": n + 1} if n else {})
            return "/list.php?" + urlencode(params)
        case Style.FORUM:
            return f"/forum-{channel + 1}-{n + 1}.html"
        case Style.ACADEMIC:
            return f"/{slug}/" if n == 0 else f"/{slug}/page{n + 1}.html"
    raise AssertionError(host.style)


def _article_path(host: Host, channel: int, k: int) -> str:
    aid = article_id(host, channel, k)
    slug = host.channels[channel].slug
    match host.style:
        case Style.CMS:
            day = article_date(aid)
            return f"/{slug}/{day:%Y%m}/t{day:%Y%m%d}_{aid}.html"
        case Style.SIMPLE:
            return f"/{slug}/{aid}.html"
        case Style.QUERY:
            return f"/show.php?id={aid}"
        case Style.FORUM:
            return f"/thread-{aid}-1-1.html"
        case Style.ACADEMIC:
            return f"/{slug}/{academic_leaf(slug, k)}.html"
    raise AssertionError(host.style)


def academic_section(slug: str) -> str:
    """courses, research, people (`~user` home directories too) or news."""
    return "people" if slug.startswith("~") else slug.split("/", 1)[0]


def academic_leaf(slug: str, k: int) -> str:
    """The file name of page k of an academic channel: syllabus, …, then lecture01, …"""
    names, stem = ACADEMIC_PAGES[academic_section(slug)]
    return names[k] if k < len(names) else f"{stem}{k - len(names) + 1:02d}"


def _academic_route(host: Host, path: str) -> Route | None:
    folder, _, leaf = path[1:].rpartition("/")
    channel = _slug_channel(host, folder)
    if channel is None:
        return None
    if leaf == "":
        return Route(PageType.LIST, channel, 0)
    names, stem = ACADEMIC_PAGES[academic_section(folder)]
    leaf = leaf.removesuffix(".html")
    if leaf in names:
        k = names.index(leaf)
    elif (m := _LEAF.fullmatch(leaf)) and m.group(1) == stem and int(m.group(2)) > 0:
        k = len(names) + int(m.group(2)) - 1
    elif (m := re.fullmatch(r"page(\d+)", leaf)) and m.group(1)[0] != "0":
        return _list_route(host, channel, int(m.group(1)) - 1) if m.group(1) != "1" else None
    else:
        return None
    return Route(PageType.ARTICLE, channel, k) if k < host.channels[channel].size else None


def split_session(path: str, query: str) -> tuple[str, str, str | None]:
    """Path and query without a session id, and the id (`;jsessionid=` or `sid=`)."""
    match = _SID.search(path)
    if match:
        return path[: match.start()], query, match.group(1)
    if "sid=" in query:
        pairs = parse_qsl(query, keep_blank_values=True)
        sids = [v for k, v in pairs if k == "sid"]
        rest = [(k, v) for k, v in pairs if k != "sid"]
        if len(sids) == 1 and re.fullmatch(r"[0-9a-f]{16}", sids[0]):
            return path, urlencode(rest), sids[0]
    return path, query, None


def parse(host: Host, path: str, query: str) -> Route | None:
    """The page `path?query` names on `host`, or None (404)."""
    alias = next(
        (a for a in host.aliases if query_key(*_split(a.target)) == query_key(path, query)), None
    )
    if alias is not None:
        return _alias_route(host, alias)
    if path == "/" and not query:
        return Route(PageType.HOME)
    if path == "/robots.txt" and not query:
        return Route(PageType.ROBOTS)
    if m := _JUMP.fullmatch(path):
        rest = m.group(2) + (f"?{query}" if query else "")
        return Route(PageType.JUMP, number=int(m.group(1)), text=rest)
    if query:
        return _parse_query(host, path, query)
    return _parse_path(host, path)


def _split(target: str) -> tuple[str, str]:
    path, _, query = target.partition("?")
    return path, query


def _alias_route(host: Host, alias: Alias) -> Route | None:
    if alias.role == "home":
        return Route(PageType.HOME, alias=alias)
    channel = host.channel_of(alias.topic or "")
    if channel is None:
        return None
    kind = PageType.LIST if alias.role == "list" else PageType.ARTICLE
    return Route(kind, channel, 0, alias=alias)


def _parse_query(host: Host, path: str, query: str) -> Route | None:
    if host.style is not Style.QUERY:
        return None
    params = dict(parse_qsl(query, keep_blank_values=True))
    try:
        if path == "/list.php" and set(params) <= {"cid", "page"} and "cid" in params:
            channel, page = int(params["cid"]) - 1, int(params.get("page", "1")) - 1
            if "page" in params and page == 0:
                return None
            return _list_route(host, channel, page)
        if path == "/show.php" and set(params) == {"id"}:
            return _article_route(host, int(params["id"]))
    except ValueError:
        return None
    return None


def _list_route(host: Host, channel: int, page: int) -> Route | None:
    if 0 <= channel < len(host.channels) and 0 <= page < list_pages(host, channel):
        return Route(PageType.LIST, channel, page)
    return None


def _article_route(host: Host, aid: int) -> Route | None:
    found = _article_of(host, aid)
    return None if found is None else Route(PageType.ARTICLE, *found)


def _slug_channel(host: Host, slug: str) -> int | None:
    return next((i for i, ch in enumerate(host.channels) if ch.slug == slug), None)


def _parse_path(host: Host, path: str) -> Route | None:
    if path.removesuffix(".html").lstrip("/") in STATIC_PAGES and path.endswith(".html"):
        return Route(PageType.STATIC, text=path[1:-5])
    if path.startswith("/doc/"):
        rest = path[5:]
        segments = rest.split("/")
        closed = rest == "" or rest.endswith("/")
        if closed and len(segments) <= MAX_DEEP and all(s in DEEP_SEGMENTS for s in segments[:-1]):
            return Route(PageType.DEEP, text=rest)
        return None
    if m := _CALENDAR.fullmatch(path):
        return _calendar_route(m)
    if m := _NUMBERED.fullmatch(path):
        return _numbered_route(host, m.group(1), int(m.group(2)), m.group(3))
    match host.style:
        case Style.CMS:
            if m := _CMS_ARTICLE.fullmatch(path):
                route = _article_route(host, int(m.group(4)))
                if route and path == _article_path(host, route.channel, route.number):
                    return route
                return None
            if m := _CMS_LIST.fullmatch(path):
                return _slug_list(host, m.group(1), m.group(2))
        case Style.SIMPLE:
            if m := _SIMPLE_ARTICLE.fullmatch(path):
                route = _article_route(host, int(m.group(2)))
                if route and host.channels[route.channel].slug == m.group(1):
                    return route
                return None
            if m := _SIMPLE_LIST.fullmatch(path):
                return _slug_list(host, m.group(1), m.group(2))
        case Style.FORUM:
            if m := _FORUM_THREAD.fullmatch(path):
                return _article_route(host, int(m.group(1)))
            if m := _FORUM_LIST.fullmatch(path):
                return _list_route(host, int(m.group(1)) - 1, int(m.group(2)) - 1)
        case Style.ACADEMIC:
            return _academic_route(host, path)
    return None


def _slug_list(host: Host, slug: str, page: str | None) -> Route | None:
    channel = _slug_channel(host, slug)
    if channel is None or page == "0" or (page and page.startswith("0")):
        return None
    return _list_route(host, channel, int(page or 0))


def _calendar_route(m: re.Match[str]) -> Route | None:
    year, month = int(m.group(1)), int(m.group(2))
    try:
        dt.date(year, month, int(m.group(3) or 1))
    except ValueError:
        return None
    return Route(PageType.CALENDAR, text=m.group(0)[10:-5])


def _numbered_route(host: Host, kind: str, n: int, ext: str) -> Route | None:
    if _NUMBERED_EXT[kind] != ext:
        return None
    if kind == "print":
        route = _article_route(host, n)
        return None if route is None else Route(PageType.PRINT, route.channel, route.number)
    if n >= MAX_NUMBER:
        return None
    if kind == "member" and n >= 10:
        return None
    if kind == "loop" and n > 1:
        return None
    return Route(PageType(kind), number=n)
