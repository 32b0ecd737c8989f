"""The generated web: every response and every truth as a pure function of (seed, host, path).

Nothing is stored but the host catalogue: a page's topic mixture, title, links
and text are drawn from random streams keyed by (seed, host, path, purpose)
(`rng.py`), so a world of hundreds of thousands of pages costs no memory, two
processes serve byte-identical pages, and the truth of any URL is computed on
demand.

Topic mixture of a page (`truth.Truth.shares`): an article's channel has a
topic; with probability `ON_TOPIC[kind]` the article is on it, otherwise on a
companion topic (lexicon.AFFINITY); the main share is uniform in [0.35, 0.9] and
one to three companions split the rest. List pages follow their channel
([0.55, 0.85]), home pages the mix of their channels, link farms spread over six
topics (no share above 0.38), calendars and deep-path pages stay low
([0.05, 0.35]). A page is relevant to a domain when its share ≥ RELEVANT_SHARE.

Links and topical locality: nav, breadcrumbs and pagers stay on the host;
related articles come from the same channel (85 %); external links target the
page's main topic (70 %), its second topic (15 %) or any topic (15 %), as a deep
article (55 %), a channel page (20 %) or a home page; home pages carry friend
links by host topic. Anchors are the target's title, except noisy ones ("更多",
"阅读全文", "click here", 8 %) and image links with only `alt` (4 %).

Bounds the tests hold (seed 0): among articles, 19–35 % (small world) or
15–30 % (default) are relevant to tourism and 8–22 % to rainstorm; over the
first 1 500 BFS pages, links leaving a relevant page reach a relevant page in at
least half the cases and at least 1.8 times as often as links leaving an
irrelevant page (site navigation dilutes this), and links to other hosts at
least 3 times as often; every tunnel is entered only through off-topic pages.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from kgcrawl.errors import KgcrawlError
from kgcrawl.sandbox.catalog import (
    LINKFARM_TOPIC,
    SEEDS,
    SIZES,
    Host,
    Kind,
    Style,
    Tunnel,
    build_catalog,
    companion,
    directory_listing,
)
from kgcrawl.sandbox.hazards import (
    CRAWL_DELAY_SECONDS,
    DEEP_SEGMENTS,
    LONG_CHAIN,
    OVERSIZED_BYTES,
    Hazard,
    error_status,
    pdf_document,
    png_image,
    resets,
    server_fault,
)
from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS, NOISY_ANCHORS, TOPICS, filler, vocabulary
from kgcrawl.sandbox.render import Link, Plan, Section, Writer, render
from kgcrawl.sandbox.rng import digest, stream
from kgcrawl.sandbox.routes import (
    PER_PAGE,
    PageType,
    Route,
    article_date,
    article_id,
    list_pages,
    parse,
    path_for,
    split_session,
)
from kgcrawl.sandbox.truth import Truth

ON_TOPIC = {Kind.PORTAL: 0.85, Kind.NEWS: 0.8, Kind.SITE: 0.85, Kind.FORUM: 0.65, Kind.GOV: 0.9}
HTML_TYPES = frozenset(
    {
        PageType.HOME,
        PageType.LIST,
        PageType.ARTICLE,
        PageType.STATIC,
        PageType.MEMBER,
        PageType.PRINT,
        PageType.CALENDAR,
        PageType.DEEP,
        PageType.LIVE,
    }
)
_REQUIRES = {
    PageType.CALENDAR: Hazard.CALENDAR,
    PageType.DEEP: Hazard.DEEP_PATH,
    PageType.MEMBER: Hazard.ROBOTS,
    PageType.PRINT: Hazard.ROBOTS,
    PageType.EXPORT: Hazard.OVERSIZED,
    PageType.LIVE: Hazard.SLOW,
    PageType.JUMP: Hazard.REDIRECT,
    PageType.LOOP: Hazard.REDIRECT,
}
_WORDS = {
    "zh": {
        "home": "首页", "calendar": "活动日历", "doc": "文档中心", "member": "会员中心",
        "export": "数据下载", "export_full": "完整数据", "live": "在线直播", "about": "关于我们",
        "contact": "联系我们", "sitemap": "网站地图", "loop": "旧版入口", "related": "相关阅读",
        "hot": "热门推荐", "friends": "友情链接", "more": "更多>>", "prev": "上一篇：",
        "next": "下一篇：", "print": "打印本页", "attach": "附件下载", "image": "查看大图",
        "up": "返回上级", "prev_page": "上一页", "next_page": "下一页", "links": "相关链接",
        "directory": "网址导航", "mirror": "本站为镜像站点，内容与源站同步更新。",
        "back": "返回原文", "prev_month": "上个月", "next_month": "下个月", "next_year": "明年",
        "prev_day": "前一天", "next_day": "后一天", "sites": "推荐网站",
    },
    "en": {
        "home": "Home", "calendar": "Events", "doc": "Docs", "member": "Members",
        "export": "Data", "export_full": "Full data", "live": "Live", "about": "About us",
        "contact": "Contact", "sitemap": "Site map", "loop": "Old version", "related": "Related",
        "hot": "Popular", "friends": "Partners", "more": "More", "prev": "Previous: ",
        "next": "Next: ", "print": "Print", "attach": "Attachment", "image": "Full image",
        "up": "Up", "prev_page": "Previous", "next_page": "Next", "links": "Links",
        "directory": "Directory", "mirror": "This is a mirror of the original site.",
        "back": "Back to article", "prev_month": "Previous month", "next_month": "Next month",
        "next_year": "Next year", "prev_day": "Previous day", "next_day": "Next day",
        "sites": "Sites",
    },
}  # fmt: skip
CALENDAR_START = "2024-06"


class SandboxError(KgcrawlError):
    """A bad sandbox request: unknown size or domain, a URL outside the world."""


@dataclass(frozen=True)
class Head:
    """What a page is about and what it is called: cheap to compute for every link target."""

    mixture: tuple[tuple[str, float], ...]
    title: str


@dataclass(frozen=True)
class Reply:
    """An HTTP response for the server to send; `stream` bodies have no Content-Length when
    `length` is None."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""
    stream: Callable[[], Iterator[bytes]] | None = None
    length: int | None = None
    slow: bool = False
    fault: Hazard | None = None  # RESET, STALL or TRANSIENT_ERROR, applied by the server


@dataclass(frozen=True)
class _Resolved:
    status: int
    host: Host | None = None
    content: Host | None = None
    route: Route | None = None
    path: str = ""  # the page's canonical path on the content host
    sid: str | None = None
    location: str | None = None
    fault: Hazard | None = None
    hazards: tuple[Hazard, ...] = ()


def _mix(
    rng, primary: str, low: float, high: float, companions=(1, 3), exclude=frozenset()
) -> tuple[tuple[str, float], ...]:
    """A mixture with `primary` at a share in [low, high] and companions sharing the rest."""
    main = rng.uniform(low, high)
    taken = set(exclude) | {primary}
    others = []
    for _ in range(rng.randint(*companions)):
        other = companion(rng, primary, frozenset(taken))
        taken.add(other)
        others.append(other)
    weights = [rng.random() + 0.25 for _ in others]
    total = sum(weights)
    pairs = [(primary, main)] + [
        (t, (1 - main) * w / total) for t, w in zip(others, weights, strict=True)
    ]
    return tuple(sorted(((t, round(s, 4)) for t, s in pairs), key=lambda p: (-p[1], p[0])))


def _spread(rng) -> tuple[tuple[str, float], ...]:
    """Six topics with similar shares (link farms): none reaches 0.38."""
    topics = rng.sample(list(TOPICS), 6)
    weights = [rng.random() + 0.5 for _ in topics]
    total = sum(weights)
    pairs = sorted(
        ((t, round(w / total, 4)) for t, w in zip(topics, weights, strict=True)),
        key=lambda p: -p[1],
    )
    return tuple(pairs)


def _title(rng, mixture, lang: str) -> str:
    top = vocabulary(mixture[0][0], lang)
    words = rng.choices(top.words, cum_weights=top.cum_weights, k=rng.randint(2, 4))
    if len(mixture) > 1 and rng.random() < 0.5:
        second = vocabulary(mixture[1][0], lang)
        words.insert(
            rng.randrange(len(words) + 1), rng.choices(second.words, second.cum_weights)[0]
        )
    words = list(dict.fromkeys(words))
    if lang == "zh":
        if rng.random() < 0.3:
            words.insert(0, rng.choice(filler("zh").words[-12:]))
        sep = rng.choice(("", "", "：", "，")) if len(words) > 2 else ""
        return "".join(words[:2]) + sep + "".join(words[2:])
    text = " ".join(words)
    return text[:1].upper() + text[1:]


class World:
    """A generated web of `size` ("small", "default", "large") drawn from `seed`."""

    def __init__(self, seed: int = 0, size: str = "default"):
        if size not in SIZES:
            raise SandboxError(f"unknown world size {size!r}: choose one of {', '.join(SIZES)}")
        self.seed = seed
        self.size = size
        catalog = build_catalog(seed, size)
        self.hosts: dict[str, Host] = catalog.hosts
        self.tunnels: tuple[Tunnel, ...] = tuple(catalog.tunnels)
        self._entries = {(t.entry_host, t.entry_channel, t.entry_article): t for t in self.tunnels}
        self._bridges = {t.bridge: t for t in self.tunnels if t.bridge}
        self._clusters = {name: t for t in self.tunnels for name in t.cluster}
        visible = [h for h in self.hosts.values() if not h.hidden]
        content_kinds = (Kind.PORTAL, Kind.NEWS, Kind.SITE, Kind.FORUM, Kind.GOV)
        self._content = tuple(h.name for h in visible if h.kind in content_kinds)
        self._by_topic = {
            t: tuple(
                h.name
                for h in visible
                if h.topic == t and h.kind in (*content_kinds, Kind.MIRROR, Kind.MOVED)
            )
            for t in TOPICS
        }
        self._channels = {
            t: tuple(
                (h.name, i)
                for h in visible
                if h.kind in content_kinds
                for i, ch in enumerate(h.channels)
                if ch.topic == t
            )
            for t in TOPICS
        }
        self._farms = tuple(h.name for h in visible if h.kind is Kind.LINKFARM)
        self._directories = tuple(h.name for h in visible if h.kind is Kind.DIRECTORY)
        self._listing = {t: directory_listing(self.hosts, t) for t in TOPICS}
        self.head = functools.lru_cache(maxsize=16384)(self._head)

    # ----- public API -------------------------------------------------------------------

    def seeds(self, domain: str) -> tuple[str, ...]:
        """The papers' seed URLs of a domain (tourism, rainstorm)."""
        if domain not in SEEDS:
            raise SandboxError(
                f"unknown sandbox domain {domain!r}: choose one of {', '.join(SEEDS)}"
            )
        return SEEDS[domain]

    def url(self, host: str, route: Route) -> str:
        """Absolute URL of a page."""
        h = self.hosts[host]
        return f"{h.scheme}://{h.name}{path_for(h, route)}"

    def respond(self, host_name: str, target: str) -> Reply:
        """The response to `GET target` with `Host: host_name` (port and scheme ignored)."""
        r = self._resolve(host_name.lower(), target)
        if r.status == 0:
            return Reply(0, (), fault=Hazard.RESET)
        slow = r.host is not None and Hazard.SLOW in r.host.hazards
        if r.status in (301, 302):
            return Reply(r.status, (("Location", r.location or "/"), *_TEXT), b"moved", slow=slow)
        if r.status != 200:
            headers = _HTML + ((("Retry-After", "30"),) if r.status == 503 else ())
            body = f"<html><body><h1>{r.status}</h1></body></html>".encode()
            return Reply(r.status, headers, body, slow=slow)
        assert r.content is not None and r.route is not None and r.host is not None
        t = r.route.type
        if t is PageType.ROBOTS:
            return Reply(200, _TEXT, self._robots(r.host).encode(), slow=slow)
        if t is PageType.PDF:
            text = f"{r.content.name} attachment {r.route.number}: {r.content.title}"
            return Reply(200, (("Content-Type", "application/pdf"),), pdf_document(text), slow=slow)
        if t is PageType.IMAGE:
            n = r.route.number
            body = png_image(8, 6, (n * 37 % 256, n * 91 % 256, n * 53 % 256))
            return Reply(200, (("Content-Type", "image/png"),), body, slow=slow)
        if t is PageType.EXPORT:
            return self._export(r, slow)
        plan = self._plan(r)
        encoding, content_type, meta = self._encoding(r.content)
        text = render(plan, meta)
        if Hazard.NEAR_MIRROR in r.host.hazards:
            note = f'<div class="mirror-note">{_WORDS[plan.lang]["mirror"]} {r.host.name}</div>\n'
            text = text.replace("<body>\n", "<body>\n" + note, 1)
        body = text.encode(encoding, "xmlcharrefreplace")
        return Reply(200, (("Content-Type", content_type),), body, slow=slow, fault=r.fault)

    def truth(self, url: str) -> Truth:
        """Ground truth of a URL: status, type, topic shares, canonical page, hazards."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SandboxError(f"not an http(s) URL: {url}")
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        r = self._resolve(parts.hostname.lower(), target)
        host = parts.hostname.lower()
        location = urljoin(url, r.location) if r.location else None
        if r.route is None or r.status not in (200, 500, 502) or r.content is None:
            return Truth(
                url, host, r.status, "text/html", "error", (), url,
                location=location, hazards=tuple(r.hazards),
            )  # fmt: skip
        t = r.route.type
        content_type = {
            PageType.ROBOTS: "text/plain",
            PageType.PDF: "application/pdf",
            PageType.IMAGE: "image/png",
        }.get(t, "text/html")
        shares = self.head(r.content.name, r.route).mixture if t in HTML_TYPES else ()
        canonical, duplicate = url, None
        if r.host is not r.content:
            canonical = f"{r.content.scheme}://{r.content.name}{r.path}"
            duplicate = "near" if Hazard.NEAR_MIRROR in r.host.hazards else "exact"
        elif t is PageType.PRINT:
            canonical = self.url(
                r.content.name, Route(PageType.ARTICLE, r.route.channel, r.route.number)
            )
            duplicate = "near"
        elif r.sid is not None:
            canonical, duplicate = f"{r.content.scheme}://{r.content.name}{r.path}", "near"
        if t is PageType.EXPORT:
            shares = ()
        return Truth(
            url, host, r.status, content_type, t.value, shares, canonical,
            duplicate=duplicate, location=location, hazards=tuple(r.hazards),
        )  # fmt: skip

    def plan(self, url: str) -> Plan | None:
        """The plan of an HTML page (links with anchors, mixture, title), or None."""
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        r = self._resolve((parts.hostname or "").lower(), target)
        if r.status != 200 or r.route is None or r.route.type not in HTML_TYPES:
            return None
        return self._plan(r)

    def links(self, url: str) -> list[str]:
        """Absolute URLs of the real links of a page (none for non-pages), in document order."""
        plan = self.plan(url)
        return [] if plan is None else [urljoin(url, link.href) for link in plan.links()]

    def hazard_urls(self, hazard: Hazard | str) -> list[str]:
        """Example URLs where a crawler meets `hazard`, at most one per host, sorted."""
        return _hazard_urls(self, Hazard(hazard))

    # ----- resolving a request ----------------------------------------------------------

    def _resolve(self, host_name: str, target: str) -> _Resolved:
        host = self.hosts.get(host_name.split(":")[0])
        if host is None:
            return _Resolved(404, hazards=(Hazard.NOT_FOUND,))
        if Hazard.DOWN in host.hazards:
            return _Resolved(503, host, hazards=(Hazard.DOWN,))
        if host.kind is Kind.MOVED:
            new = self.hosts[host.source or ""]
            return _Resolved(
                301, host, location=f"{new.scheme}://{new.name}{target}", hazards=(Hazard.MOVED,)
            )
        content = self.hosts[host.source] if host.kind is Kind.MIRROR and host.source else host
        tags = [h for h in (Hazard.MIRROR, Hazard.NEAR_MIRROR) if h in host.hazards]
        path, _, query = target.partition("?")
        sid = None
        if Hazard.SESSION_ID in content.hazards:
            path, query, sid = split_session(path, query)
            if sid:
                tags.append(Hazard.SESSION_ID)
        route = parse(content, path, query)
        need = _REQUIRES.get(route.type) if route else None
        if route is None or (need is not None and need not in content.hazards):
            return _Resolved(404, host, content, hazards=(*tags, Hazard.NOT_FOUND))
        if route.type is PageType.ROBOTS:
            if host is not content:
                content = host
            if Hazard.ROBOTS_ERROR in host.hazards:
                return _Resolved(503, host, content, route, hazards=(Hazard.ROBOTS_ERROR,))
            if self._robots_missing(host):
                return _Resolved(404, host, content, route, hazards=(Hazard.NOT_FOUND,))
        canonical = path_for(content, route)
        if Hazard.SLOW in host.hazards:
            tags.append(Hazard.SLOW)
        status, location, fault = 200, None, None
        t = route.type
        if t is PageType.JUMP:
            status = 301 if route.number == 0 else 302
            location = route.text if route.number == 0 else f"/jump/{route.number - 1}{route.text}"
            tags.append(Hazard.REDIRECT_LONG if route.number >= LONG_CHAIN else Hazard.REDIRECT)
        elif t is PageType.LOOP:
            status, location = 302, f"/loop/{1 - route.number}.html"
            tags.append(Hazard.REDIRECT_LOOP)
        elif t is PageType.ARTICLE and route.alias is None:
            if Hazard.SERVER_ERROR in host.hazards and (fault := server_fault(route.number)):
                tags.append(fault)
                if fault is Hazard.SERVER_ERROR:
                    status, fault = error_status(route.number), None
            if Hazard.RESET in host.hazards and resets(route.number) and status == 200:
                status, fault = 0, Hazard.RESET
                tags.append(Hazard.RESET)
        elif t is PageType.LIVE and Hazard.SLOW in host.hazards:
            fault = Hazard.STALL
            tags.append(Hazard.STALL)
        elif t in (PageType.MEMBER, PageType.PRINT):
            tags.append(Hazard.ROBOTS)
        elif t is PageType.CALENDAR:
            tags.append(Hazard.CALENDAR)
        elif t is PageType.DEEP:
            tags.append(Hazard.DEEP_PATH)
        elif t is PageType.EXPORT:
            tags.append(Hazard.OVERSIZED)
        elif t is PageType.PDF:
            tags.append(Hazard.PDF)
        elif t is PageType.IMAGE:
            tags.append(Hazard.IMAGE)
        if t in HTML_TYPES:
            tags += [h for h in content.hazards if h in _PAGE_FLAGS]
        return _Resolved(status, host, content, route, canonical, sid, location, fault, tuple(tags))

    def _robots_missing(self, host: Host) -> bool:
        """Some small sites have no robots.txt at all (404 = allow everything)."""
        flagged = {Hazard.ROBOTS, Hazard.CRAWL_DELAY, Hazard.ROBOTS_ERROR} & host.hazards
        return (
            host.kind is Kind.SITE
            and not flagged
            and digest(self.seed, host.name, "robots") % 3 == 0
        )

    def _robots(self, host: Host) -> str:
        lines = [
            "User-agent: *",
            "Disallow: /member/" if Hazard.ROBOTS in host.hazards else "Disallow:",
        ]
        delay = (
            [f"Crawl-delay: {CRAWL_DELAY_SECONDS}"] if Hazard.CRAWL_DELAY in host.hazards else []
        )
        lines += delay
        if Hazard.ROBOTS in host.hazards:
            lines += ["", "User-agent: kgcrawl", "Disallow: /member/", "Disallow: /print/", *delay]
        lines += ["", f"Sitemap: {host.scheme}://{host.name}/sitemap.html", ""]
        return "\n".join(lines)

    def _encoding(self, host: Host) -> tuple[str, str, str]:
        """Codec, Content-Type header and <meta> line of a host's pages."""
        if Hazard.GBK in host.hazards:
            return "gbk", "text/html; charset=GBK", '<meta charset="gbk">\n'
        if Hazard.GBK_META in host.hazards:
            meta = '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">\n'
            return "gbk", "text/html", meta
        if Hazard.GBK_BARE in host.hazards:
            return "gbk", "text/html", ""
        header = (
            "text/html"
            if digest(self.seed, host.name, "charset") % 4 == 0
            else "text/html; charset=utf-8"
        )
        return "utf-8", header, '<meta charset="utf-8">\n'

    def _export(self, r: _Resolved, slow: bool) -> Reply:
        assert r.content is not None and r.route is not None
        rng = stream(self.seed, r.content.name, r.path, "export")
        w = Writer(rng, self.head(r.content.name, Route(PageType.HOME)).mixture, r.content.lang)
        rows = "".join(
            f"<tr><td>{w.phrase(2)}</td><td>{rng.randint(0, 99999)}</td>"
            f"<td>{rng.random():.4f}</td></tr>\n"
            for _ in range(400)
        ).encode("utf-8")
        title = f"<title>{r.content.title} data</title>"
        head = f'<!DOCTYPE html>\n<html><head><meta charset="utf-8">{title}</head><body><table>\n'
        head = head.encode()
        tail = b"</table></body></html>\n"
        repeats = -(-(OVERSIZED_BYTES - len(head) - len(tail)) // len(rows))

        def chunks() -> Iterator[bytes]:
            yield head
            for _ in range(repeats):
                yield rows
            yield tail

        length = len(head) + repeats * len(rows) + len(tail) if r.route.number % 2 == 0 else None
        headers = (("Content-Type", "text/html; charset=utf-8"),)
        return Reply(200, headers, stream=chunks, length=length, slow=slow)

    # ----- heads --------------------------------------------------------------------------

    def _head(self, name: str, route: Route) -> Head:
        host = self.hosts[name]
        t = route.type
        if t is PageType.PRINT:
            return self.head(name, Route(PageType.ARTICLE, route.channel, route.number))
        rng = stream(self.seed, name, path_for(host, route), "head")
        lang = host.lang
        if t is PageType.ARTICLE:
            primary = self._article_topic(rng, host, route)
            channel = host.channels[route.channel]
            if route.alias is not None:
                mix = _mix(rng, primary, 0.6, 0.9)
            elif (name, route.channel, route.number) in self._entries:
                mix = _mix(rng, primary, 0.65, 0.9, exclude=frozenset(DOMAIN_TOPICS))
            elif channel.topic == LINKFARM_TOPIC:
                mix = _spread(rng)
            else:
                mix = _mix(rng, primary, 0.35, 0.9)
            return Head(mix, _title(rng, mix, lang))
        topic = host.topic or rng.choice(TOPICS)
        if t is PageType.LIST:
            channel = host.channels[route.channel]
            if channel.topic == LINKFARM_TOPIC:
                mix = _spread(rng)
            else:
                low = 0.5 if host.kind is Kind.DIRECTORY else 0.55
                mix = _mix(rng, channel.topic, low, 0.85, (1, 2))
            if route.number == 0:
                suffix = ""
            else:
                suffix = (
                    f"_第{route.number + 1}页" if lang == "zh" else f" - page {route.number + 1}"
                )
            return Head(mix, f"{channel.name}_{host.title}{suffix}")
        if t is PageType.HOME or (t is PageType.STATIC and route.text == "sitemap"):
            mix = self._home_mix(rng, host)
            name_part = _WORDS[lang]["sitemap"] + "_" if t is PageType.STATIC else ""
            return Head(mix, f"{name_part}{host.title} - {_title(rng, mix, lang)}")
        low, high = {
            PageType.MEMBER: (0.5, 0.9),
            PageType.STATIC: (0.15, 0.35),
            PageType.CALENDAR: (0.05, 0.3),
            PageType.DEEP: (0.05, 0.35),
            PageType.LIVE: (0.3, 0.7),
        }.get(t, (0.3, 0.6))
        mix = _mix(rng, topic, low, high)
        label = {PageType.STATIC: _WORDS[lang].get(route.text, ""), PageType.CALENDAR: route.text}
        prefix = label.get(t, "")
        return Head(mix, f"{prefix} {_title(rng, mix, lang)}".strip() + f" - {host.title}")

    def _article_topic(self, rng, host: Host, route: Route) -> str:
        """The topic an article is mainly about: its channel's, or (off-topic article) a
        companion; these are the first draws of the article's head stream."""
        channel = host.channels[route.channel]
        if route.alias is not None:
            return route.alias.topic or channel.topic
        if (
            channel.topic == LINKFARM_TOPIC
            or (host.name, route.channel, route.number) in self._entries
        ):
            return channel.topic
        on = rng.random() < ON_TOPIC[host.kind]
        return channel.topic if on else companion(rng, channel.topic)

    def article_topic(self, name: str, route: Route) -> str:
        """An article's main topic without drawing its whole head (for related-article picks)."""
        host = self.hosts[name]
        return self._article_topic(
            stream(self.seed, name, path_for(host, route), "head"), host, route
        )

    def _home_mix(self, rng, host: Host) -> tuple[tuple[str, float], ...]:
        if host.kind is Kind.LINKFARM:
            return _spread(rng)
        counts = Counter(ch.topic for ch in host.channels)
        weights = {t: c * rng.uniform(0.7, 1.3) for t, c in counts.items()}
        total = sum(weights.values())
        return tuple(
            sorted(
                ((t, round(w / total, 4)) for t, w in weights.items()), key=lambda p: (-p[1], p[0])
            )
        )

    # ----- plans ----------------------------------------------------------------------------

    def _plan(self, r: _Resolved) -> Plan:
        return _Builder(self, r).build()


_TEXT = (("Content-Type", "text/plain; charset=utf-8"),)
_HTML = (("Content-Type", "text/html; charset=utf-8"),)
_PAGE_FLAGS = frozenset({Hazard.GBK, Hazard.GBK_META, Hazard.GBK_BARE, Hazard.MALFORMED})


class _Builder:
    """Decides the links and sections of one page."""

    def __init__(self, world: World, r: _Resolved):
        assert r.host is not None and r.content is not None and r.route is not None
        self.world = world
        self.host = r.host
        self.content = r.content
        self.route = r.route
        self.path = r.path
        self.lang = r.content.lang
        self.words = _WORDS[self.lang]
        # A printer copy draws the same choices as its article, so it is a near-duplicate.
        self.key = r.path
        if r.route.type is PageType.PRINT:
            self.key = path_for(r.content, Route(PageType.ARTICLE, r.route.channel, r.route.number))
        self.rng = stream(world.seed, r.content.name, self.key, "links")
        self.head = world.head(r.content.name, r.route)
        self.sid = None
        if Hazard.SESSION_ID in r.content.hazards:
            self.sid = f"{digest(world.seed, r.content.name, r.path, r.sid or '', 'sid'):016x}"

    # ----- links ----------------------------------------------------------------------------

    def internal(self, path: str) -> str:
        """A host-relative href, carrying this page's session id on session hosts."""
        if self.sid is None:
            return path
        if self.content.style in (Style.QUERY, Style.FORUM):
            return path + ("&" if "?" in path else "?") + f"sid={self.sid}"
        base, sep, query = path.partition("?")
        return f"{base};jsessionid={self.sid}{sep}{query}"

    def route_href(self, route: Route) -> str:
        return self.internal(path_for(self.content, route))

    def home_url(self) -> str:
        return f"{self.content.scheme}://{self.content.name}/"

    def article_link(self, host: Host, channel: int, k: int, absolute: bool = False) -> Link:
        """A link to an article, anchored by its title, sometimes noisily or by an image."""
        route = Route(PageType.ARTICLE, channel, k)
        title = self.world.head(host.name, route).title
        path = path_for(host, route)
        href = f"{host.scheme}://{host.name}{path}" if absolute else self.internal(path)
        return self.anchor(href, title)

    def anchor(self, href: str, title: str) -> Link:
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            return Link(
                href,
                rng.choice(NOISY_ANCHORS[self.lang]),
                title=title if rng.random() < 0.5 else "",
            )
        if roll < 0.12:
            return Link(href, "", alt=title, image=rng.randrange(1000))
        return Link(href, title)

    def external(self, topic: str) -> Link:
        """A link to another host on `topic`; tunnel clusters keep their domain links inside."""
        world, rng = self.world, self.rng
        tunnel = world._clusters.get(self.content.name)
        if tunnel is not None and topic == tunnel.domain and rng.random() < 0.7:
            peers = [c for c in tunnel.cluster if c != self.content.name]
            target = world.hosts[rng.choice(peers)]
            channel = target.channel_of(topic)
            if channel is not None and rng.random() < 0.6:
                return self.article_link(
                    target, channel, rng.randrange(target.channels[channel].size), True
                )
            return Link(f"{target.scheme}://{target.name}/", target.title)
        pool = [p for p in world._channels[topic] if p[0] != self.content.name]
        if not pool:
            target = world.hosts[rng.choice(world._content)]
            return Link(f"{target.scheme}://{target.name}/", target.title)
        name, channel = rng.choice(pool)
        target = world.hosts[name]
        roll = rng.random()
        if roll < 0.55 and target.channels[channel].size:
            return self.article_link(
                target, channel, rng.randrange(target.channels[channel].size), True
            )
        if roll < 0.75:
            url = world.url(name, Route(PageType.LIST, channel, 0))
            return self.anchor(url, target.channels[channel].name)
        return self.anchor(f"{target.scheme}://{target.name}/", target.title)

    def link_topic(self) -> str:
        rng, mix = self.rng, self.head.mixture
        roll = rng.random()
        if roll < 0.7 or len(mix) < 2:
            return mix[0][0]
        if roll < 0.85:
            return mix[1][0]
        return rng.choice(TOPICS)

    def friend_links(self) -> list[Link]:
        """Friend links of a home page: hosts on the same topic, some random, a directory."""
        world, rng, content = self.world, self.rng, self.content
        topic = content.topic or rng.choice(TOPICS)
        names = []
        for _ in range(rng.randint(4, 10)):
            pool = world._by_topic[topic] if rng.random() < 0.7 else world._content
            names.append(rng.choice(pool or world._content))
        if world._directories and rng.random() < 0.3:
            names.append(rng.choice(world._directories))
        tunnel = world._bridges.get(content.name)
        if tunnel is not None:
            names.append(tunnel.cluster[0])
        tunnel = world._clusters.get(content.name)
        if tunnel is not None:
            names += [c for c in tunnel.cluster if c != content.name]
        links = []
        for name in dict.fromkeys(n for n in names if n != content.name):
            target = world.hosts[name]
            links.append(Link(f"{target.scheme}://{target.name}/", target.title))
        return links

    def nav(self) -> list[Link]:
        words, flags = self.words, self.content.hazards
        links = [Link(self.home_url(), words["home"])]
        for i, channel in enumerate(self.content.channels[:9]):
            links.append(Link(self.route_href(Route(PageType.LIST, i, 0)), channel.name))
        if Hazard.CALENDAR in flags:
            links.append(Link(self.internal(f"/calendar/{CALENDAR_START}.html"), words["calendar"]))
        if Hazard.DEEP_PATH in flags:
            links.append(Link(self.internal("/doc/"), words["doc"]))
        if Hazard.ROBOTS in flags:
            links.append(Link(self.internal("/member/0.html"), words["member"]))
        if Hazard.OVERSIZED in flags:
            links.append(Link(self.internal("/export/0.html"), words["export"]))
            links.append(Link(self.internal("/export/1.html"), words["export_full"]))
        if Hazard.SLOW in flags:
            links.append(Link(self.internal("/live/0.html"), words["live"]))
        return links

    def footer(self) -> list[Link]:
        words = self.words
        links = [
            Link(self.internal(f"/{name}.html"), words[name])
            for name in ("about", "contact", "sitemap")
        ]
        if Hazard.REDIRECT in self.content.hazards:
            links.append(Link(self.internal("/loop/0.html"), words["loop"]))
        return links

    # ----- pages ------------------------------------------------------------------------------

    def build(self) -> Plan:
        content = self.content
        plan = Plan(
            lang=self.lang,
            title=self.head.title,
            mixture=self.head.mixture,
            site=content.title,
            home=self.home_url(),
            text_key=digest(self.world.seed, content.name, self.key, "text"),
            html5=digest(self.world.seed, content.name, "html5") % 2 == 0,
            malformed=Hazard.MALFORMED in content.hazards,
        )
        t = self.route.type
        if t is PageType.PRINT:
            self.article(plan, Route(PageType.ARTICLE, self.route.channel, self.route.number))
            back = self.route_href(Route(PageType.ARTICLE, self.route.channel, self.route.number))
            plan.body.append(Section("links", links=[Link(back, self.words["back"])]))
            plan.printable = True
            return plan
        plan.nav = self.nav()
        plan.footer = self.footer()
        if content.kind is Kind.LINKFARM and t in (PageType.HOME, PageType.LIST, PageType.ARTICLE):
            self.farm(plan)
        elif t is PageType.ARTICLE:
            self.article(plan, self.route)
        elif t is PageType.LIST:
            self.listing(plan)
        elif t is PageType.HOME:
            self.home(plan)
        elif t is PageType.CALENDAR:
            self.calendar(plan)
        elif t is PageType.DEEP:
            self.deep(plan)
        elif t is PageType.STATIC and self.route.text == "sitemap":
            plan.body = [
                Section(
                    "links", heading=self.words["sitemap"], links=plan.nav[1:] + plan.footer[:2]
                ),
            ]
        else:  # about, contact, member, live
            plan.body = [Section("text", count=self.rng.randint(2, 5))]
            if t is PageType.STATIC and self.route.text == "contact":
                plan.body.append(Section("table", count=3))
        return plan

    def home(self, plan: Plan) -> None:
        content, rng, words = self.content, self.rng, self.words
        if content.kind is Kind.DIRECTORY:
            self.directory_home(plan)
            return
        plan.body.append(Section("text", count=1))
        first = next((i for i, ch in enumerate(content.channels) if ch.size), None)
        if first is not None and rng.random() < 0.6:
            title = self.world.head(content.name, Route(PageType.ARTICLE, first, 0)).title
            href = self.route_href(Route(PageType.ARTICLE, first, 0))
            plan.body.append(
                Section("figure", links=[Link(href, "", alt=title, image=rng.randrange(1000))])
            )
        for i, channel in enumerate(content.channels[:8]):
            links = [self.article_link(content, i, k) for k in range(min(5, channel.size))]
            links.append(Link(self.route_href(Route(PageType.LIST, i, 0)), words["more"]))
            plan.body.append(Section("links", heading=channel.name, links=links))
        plan.side.append(Section("links", heading=words["friends"], links=self.friend_links()))

    def listing(self, plan: Plan) -> None:
        content, rng, words, route = self.content, self.rng, self.words, self.route
        if content.kind is Kind.DIRECTORY:
            self.directory_list(plan)
            return
        channel = content.channels[route.channel]
        plan.crumbs = [
            Link(self.home_url(), words["home"]),
            Link(self.route_href(route), channel.name),
        ]
        start = route.number * PER_PAGE
        ks = range(start, min(channel.size, start + PER_PAGE))
        links = [self.article_link(content, route.channel, k) for k in ks]
        dates = [f"{article_date(article_id(content, route.channel, k)):%Y-%m-%d}" for k in ks]
        plan.body.append(Section("text", count=1))
        plan.body.append(Section("listing", heading=channel.name, links=links, notes=dates))
        plan.body.append(Section("pager", links=self.pager(route)))
        others = [i for i, ch in enumerate(content.channels) if i != route.channel and ch.size]
        hot = []
        for _ in range(min(5, len(others) * 2)):
            i = rng.choice(others)
            hot.append(self.article_link(content, i, rng.randrange(content.channels[i].size)))
        if hot:
            plan.side.append(Section("links", heading=words["hot"], links=hot))
        plan.side.append(
            Section(
                "links",
                heading=words["links"],
                links=[self.external(channel.topic) for _ in range(2)],
            )
        )

    def pager(self, route: Route) -> list[Link]:
        words = self.words
        pages = list_pages(self.content, route.channel)
        links = []
        if route.number > 0:
            links.append(
                Link(
                    self.route_href(Route(PageType.LIST, route.channel, route.number - 1)),
                    words["prev_page"],
                )
            )
        for n in range(max(0, route.number - 2), min(pages, route.number + 3)):
            if n != route.number:
                links.append(
                    Link(self.route_href(Route(PageType.LIST, route.channel, n)), str(n + 1))
                )
        if route.number + 1 < pages:
            links.append(
                Link(
                    self.route_href(Route(PageType.LIST, route.channel, route.number + 1)),
                    words["next_page"],
                )
            )
        return links

    def article(self, plan: Plan, route: Route) -> None:
        world, content, rng, words = self.world, self.content, self.rng, self.words
        channel = content.channels[route.channel]
        aid = article_id(content, route.channel, route.number)
        plan.date = article_date(aid)
        plan.crumbs = [
            Link(self.home_url(), words["home"]),
            Link(self.route_href(Route(PageType.LIST, route.channel, 0)), channel.name),
        ]
        # Inline links: externals by topic, the tunnel's next hop, sometimes an image.
        inline = [self.external(self.link_topic()) for _ in range(rng.randint(1, 4))]
        tunnel = world._entries.get((content.name, route.channel, route.number))
        if tunnel is not None and route.alias is None:
            target = world.hosts[tunnel.bridge or tunnel.cluster[0]]
            inline.insert(0, Link(f"{target.scheme}://{target.name}/", target.title))
        if rng.random() < 0.1:
            inline.append(Link(self.internal(f"/images/{rng.randrange(1000)}.png"), words["image"]))
        if content.kind is Kind.FORUM:
            spam = [self.farm_link() for _ in range(rng.random() < 0.3)]
            plan.body.append(Section("posts", count=rng.randint(3, 15), links=inline + spam))
        else:
            sections = rng.randint(2, 4)
            for s in range(sections):
                part = inline[s::sections]
                heading = self.phrase_heading() if s else ""
                plan.body.append(
                    Section("text", heading=heading, count=rng.randint(2, 4), links=part)
                )
                if s == 0 and rng.random() < 0.5:
                    plan.body.append(Section("figure", count=1))
            table_p = 0.7 if content.kind is Kind.GOV else 0.3
            if rng.random() < table_p:
                plan.body.append(Section("table", count=rng.randint(3, 8)))
            if rng.random() < 0.3:
                heading = self.phrase_heading()
                plan.body.append(Section("events", heading=heading, count=rng.randint(3, 6)))
        pdf_p = 0.5 if content.kind is Kind.GOV else 0.05
        if rng.random() < pdf_p:
            name = f"{self.head.title}.pdf"
            plan.body.append(
                Section(
                    "links",
                    heading=words["attach"],
                    links=[Link(self.internal(f"/files/{aid % 100000}.pdf"), name)],
                )
            )
        pager = []
        if route.number > 0:
            prev = self.article_link(content, route.channel, route.number - 1)
            pager.append(Link(prev.href, words["prev"] + (prev.text or prev.alt)))
        if route.number + 1 < channel.size:
            nxt = self.article_link(content, route.channel, route.number + 1)
            pager.append(Link(nxt.href, words["next"] + (nxt.text or nxt.alt)))
        if Hazard.ROBOTS in content.hazards:
            pager.append(Link(self.internal(f"/print/{aid}.html"), words["print"]))
        plan.body.append(Section("pager", links=pager))
        plan.body.append(Section("links", heading=words["related"], links=self.related(route)))
        others = [i for i, ch in enumerate(content.channels) if ch.size]
        hot = [
            self.article_link(content, i, rng.randrange(content.channels[i].size))
            for i in rng.sample(others, min(3, len(others)))
        ]
        plan.side.append(Section("links", heading=words["hot"], links=hot))

    def related(self, route: Route) -> list[Link]:
        """Related articles: on the page's main topic (85 %), from channels on that topic; some
        through redirects; rarely a dead link."""
        world, content, rng = self.world, self.content, self.rng
        top = self.world.article_topic(content.name, route)
        on_top = [i for i, ch in enumerate(content.channels) if ch.topic == top and ch.size]
        same, other = [], []
        for _ in range(12):
            if on_top and rng.random() < 0.7:
                channel = rng.choice(on_top)
            else:
                channel = (
                    route.channel if rng.random() < 0.7 else rng.randrange(len(content.channels))
                )
            size = content.channels[channel].size
            k = rng.randrange(size) if size else route.number
            if (channel, k) == (route.channel, route.number):
                continue
            topic = world.article_topic(content.name, Route(PageType.ARTICLE, channel, k))
            (same if topic == top else other).append((channel, k))
        links = []
        for _ in range(rng.randint(4, 8)):
            pool = same if same and (rng.random() < 0.85 or not other) else other
            if pool:
                links.append(self.article_link(content, *pool.pop()))
        if Hazard.REDIRECT in content.hazards and links:
            hops = LONG_CHAIN if rng.random() < 1 / 8 else rng.randint(1, 3)
            first = links[0]
            target = first.href
            links[0] = Link(
                self.internal(f"/jump/{hops}{target}"),
                first.text,
                first.title,
                first.alt,
                first.image,
            )
        if rng.random() < 1 / 30:
            channel = content.channels[route.channel]
            dead = path_for(content, Route(PageType.ARTICLE, route.channel, channel.size + 3))
            links.append(Link(self.internal(dead), _title(rng, self.head.mixture, self.lang)))
        return links

    def phrase_heading(self) -> str:
        top = vocabulary(self.head.mixture[0][0], self.lang)
        words = self.rng.choices(top.words, cum_weights=top.cum_weights, k=2)
        return ("" if self.lang == "zh" else " ").join(dict.fromkeys(words))

    def farm_link(self) -> Link:
        world, rng = self.world, self.rng
        if not world._farms:
            return self.external(rng.choice(TOPICS))
        farm = world.hosts[rng.choice(world._farms)]
        url = world.url(farm.name, Route(PageType.ARTICLE, 0, rng.randrange(farm.channels[0].size)))
        return Link(url, _title(rng, _spread(rng), self.lang))

    def farm(self, plan: Plan) -> None:
        """A link-farm page: a keyword-stuffed title, a little text, many links."""
        world, rng, content = self.world, self.rng, self.content
        stuffing = []
        for topic in ("tourism", "rainstorm", "finance", "health"):
            vocab = vocabulary(topic, self.lang)
            stuffing += vocab.words[:3]
        plan.title = ("" if self.lang == "zh" else " ").join(stuffing) + " " + plan.title
        links = []
        for _ in range(rng.randint(40, 80)):
            links.append(self.external(rng.choice(TOPICS)))
        size = content.channels[0].size
        pages = [
            Link(
                self.route_href(Route(PageType.ARTICLE, 0, rng.randrange(size))),
                _title(rng, _spread(rng), self.lang),
            )
            for _ in range(5)
        ]
        plan.body = [
            Section("text", count=1),
            Section("links", links=links),
            Section("links", heading=self.words["more"], links=pages),
        ]
        if len(world._farms) > 1:
            plan.side.append(Section("links", links=[self.farm_link() for _ in range(3)]))

    def directory_home(self, plan: Plan) -> None:
        world, words = self.world, self.words
        plan.body.append(Section("text", count=1))
        for i, channel in enumerate(self.content.channels):
            listed = world._listing[channel.topic][:8]
            links = [Link(f"{world.hosts[n].scheme}://{n}/", world.hosts[n].title) for n in listed]
            links.append(Link(self.route_href(Route(PageType.LIST, i, 0)), words["more"]))
            plan.body.append(Section("links", heading=channel.name, links=links))

    def directory_list(self, plan: Plan) -> None:
        world, route, rng = self.world, self.route, self.rng
        channel = self.content.channels[route.channel]
        listed = world._listing[channel.topic][
            route.number * PER_PAGE : (route.number + 1) * PER_PAGE
        ]
        links = [Link(f"{world.hosts[n].scheme}://{n}/", world.hosts[n].title) for n in listed]
        notes = []
        for n in listed:
            vocab = vocabulary(channel.topic, world.hosts[n].lang)
            notes.append(" ".join(rng.choices(vocab.words, cum_weights=vocab.cum_weights, k=3)))
        plan.crumbs = [
            Link(self.home_url(), self.words["home"]),
            Link(self.route_href(route), channel.name),
        ]
        plan.body = [
            Section("text", count=1),
            Section("listing", heading=channel.name, links=links, notes=notes),
        ]
        plan.body.append(Section("pager", links=self.pager(route)))

    def calendar(self, plan: Plan) -> None:
        words, text = self.words, self.route.text
        year, month = int(text[:4]), int(text[5:7])
        links: list[Link] = []
        if len(text) == 7:
            prev_m = (year, month - 1) if month > 1 else (year - 1, 12)
            next_m = (year, month + 1) if month < 12 else (year + 1, 1)
            if prev_m[0] >= 1:
                links.append(
                    Link(
                        self.internal(f"/calendar/{prev_m[0]:04d}-{prev_m[1]:02d}.html"),
                        words["prev_month"],
                    )
                )
            if next_m[0] <= 9999:
                links.append(
                    Link(
                        self.internal(f"/calendar/{next_m[0]:04d}-{next_m[1]:02d}.html"),
                        words["next_month"],
                    )
                )
            if year < 9999:
                links.append(
                    Link(
                        self.internal(f"/calendar/{year + 1:04d}-{month:02d}.html"),
                        words["next_year"],
                    )
                )
            days = _days_in_month(year, month)
            links += [
                Link(self.internal(f"/calendar/{text}-{d:02d}.html"), str(d))
                for d in range(1, days + 1)
            ]
        else:
            day = dt.date(year, month, int(text[8:10]))
            for delta, label in ((-1, "prev_day"), (1, "next_day")):
                try:
                    other = day + dt.timedelta(days=delta)
                except OverflowError:
                    continue
                links.append(Link(self.internal(f"/calendar/{other:%Y-%m-%d}.html"), words[label]))
            links.append(Link(self.internal(f"/calendar/{text[:7]}.html"), text[:7]))
        plan.body = [Section("events", heading=text, count=self.rng.randint(2, 8), links=links)]

    def deep(self, plan: Plan) -> None:
        words = self.words
        links = [Link(f"{seg}/", seg) for seg in DEEP_SEGMENTS]
        if self.route.text:
            links.append(Link("../", words["up"]))
        plan.body = [Section("text", count=2), Section("links", heading=words["doc"], links=links)]


def _days_in_month(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def _hazard_urls(world: World, hazard: Hazard) -> list[str]:
    """One example URL per host where `hazard` is met."""
    out = []
    for host in sorted(world.hosts.values(), key=lambda h: h.name):
        url = _hazard_url(world, host, hazard)
        if url:
            out.append(url)
    return out


def _hazard_url(world: World, host: Host, hazard: Hazard) -> str | None:
    base = f"{host.scheme}://{host.name}"
    flags = host.hazards
    plain = not host.hidden and Hazard.DOWN not in flags and host.kind is not Kind.MOVED

    def article(predicate: Callable[[int], bool]) -> str | None:
        if host.kind is Kind.DIRECTORY:
            return None
        for i, channel in enumerate(host.channels):
            for k in range(channel.size):
                if predicate(k) and (host.name, i, k) not in world._entries:
                    return world.url(host.name, Route(PageType.ARTICLE, i, k))
        return None

    match hazard:
        case Hazard.CALENDAR | Hazard.DEEP_PATH | Hazard.ROBOTS | Hazard.OVERSIZED | Hazard.STALL:
            need = Hazard.SLOW if hazard is Hazard.STALL else hazard
            if need in flags and host.kind not in (Kind.MIRROR, Kind.MOVED):
                path = {
                    Hazard.CALENDAR: f"/calendar/{CALENDAR_START}.html",
                    Hazard.DEEP_PATH: "/doc/api/guide/",
                    Hazard.ROBOTS: "/member/0.html",
                    Hazard.OVERSIZED: "/export/0.html",
                    Hazard.STALL: "/live/0.html",
                }[hazard]
                return base + path
        case Hazard.CRAWL_DELAY | Hazard.ROBOTS_ERROR:
            return base + "/robots.txt" if hazard in flags else None
        case Hazard.SESSION_ID:
            url = article(lambda k: True) if hazard in flags else None
            if url and host.style in (Style.QUERY, Style.FORUM):
                return url + ("&" if "?" in url else "?") + "sid=0123456789abcdef"
            if url:
                return url + ";jsessionid=0123456789abcdef"
        case Hazard.MIRROR | Hazard.NEAR_MIRROR | Hazard.MOVED | Hazard.DOWN:
            if hazard in flags:
                return base + "/"
        case Hazard.SLOW | Hazard.GBK | Hazard.GBK_META | Hazard.GBK_BARE | Hazard.MALFORMED:
            if hazard in flags and host.kind not in (Kind.MIRROR, Kind.MOVED):
                return base + "/"
        case Hazard.SERVER_ERROR | Hazard.TRANSIENT_ERROR:
            if Hazard.SERVER_ERROR in flags:
                return article(lambda k: server_fault(k) is hazard)
        case Hazard.RESET:
            if hazard in flags:
                return article(resets)
        case Hazard.REDIRECT | Hazard.REDIRECT_LONG | Hazard.REDIRECT_LOOP:
            if Hazard.REDIRECT in flags and host.kind is not Kind.MIRROR:
                if hazard is Hazard.REDIRECT_LOOP:
                    return base + "/loop/0.html"
                url = article(lambda k: True)
                hops = LONG_CHAIN if hazard is Hazard.REDIRECT_LONG else 3
                return url and base + f"/jump/{hops}" + url[len(base) :]
        case Hazard.NOT_FOUND:
            if (
                plain
                and host.channels
                and host.channels[0].size
                and host.kind is not Kind.DIRECTORY
            ):
                return world.url(host.name, Route(PageType.ARTICLE, 0, host.channels[0].size + 3))
        case Hazard.PDF | Hazard.IMAGE:
            if plain and (hazard is Hazard.IMAGE or host.kind is Kind.GOV):
                return base + ("/files/1.pdf" if hazard is Hazard.PDF else "/images/1.png")
    return None
