"""The generated web: every response and every truth as a pure function of (seed, host, path).

Nothing is stored but the host catalogue: a page's topic mixture, title, links
and text are drawn from random streams keyed by (seed, host, path, purpose)
(`rng.py`), so a world of hundreds of thousands of pages costs no memory, two
processes serve byte-identical pages, and the truth of any URL is computed on
demand. This module answers requests and truth queries; what a page is about is
decided in `heads.py`, which links it has in `pages.py` (portal webs) or
`academic.py` (the sparse profile), and how it is written in `render.py`.

Bounds the tests hold for the default profile (seed 0): among articles, 19–35 %
(small world) or 15–30 % (default) are relevant to tourism and 8–22 % to
rainstorm; over the first 1 500 BFS pages, links leaving a relevant page reach a
relevant page in at least half the cases and at least 1.8 times as often as
links leaving an irrelevant page (site navigation dilutes this), and links to
other hosts at least 3 times as often; every tunnel is entered only through
off-topic pages. The other profiles' bounds are in `profiles.py` and their tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from kgcrawl.errors import KgcrawlError
from kgcrawl.sandbox.academic import AcademicBuilder
from kgcrawl.sandbox.campus import build_campus
from kgcrawl.sandbox.catalog import SIZES, build_catalog
from kgcrawl.sandbox.hazard_urls import hazard_urls
from kgcrawl.sandbox.hazards import (
    CRAWL_DELAY_SECONDS,
    LONG_CHAIN,
    OVERSIZED_BYTES,
    Hazard,
    error_status,
    pdf_document,
    png_image,
    resets,
    server_fault,
)
from kgcrawl.sandbox.heads import Head, Heads
from kgcrawl.sandbox.hosts import Host, Kind, Tunnel
from kgcrawl.sandbox.index import HostIndex
from kgcrawl.sandbox.labels import LABELS
from kgcrawl.sandbox.pages import PageBuilder
from kgcrawl.sandbox.profiles import PROFILES, SETTINGS
from kgcrawl.sandbox.render import Plan, Writer, render
from kgcrawl.sandbox.rng import digest, stream
from kgcrawl.sandbox.routes import PageType, Route, parse, path_for, split_session
from kgcrawl.sandbox.seeds import SEEDS
from kgcrawl.sandbox.truth import Truth
from kgcrawl.text.urls import request_target

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
_TEXT = (("Content-Type", "text/plain; charset=utf-8"),)
_HTML = (("Content-Type", "text/html; charset=utf-8"),)
_PAGE_FLAGS = frozenset({Hazard.GBK, Hazard.GBK_META, Hazard.GBK_BARE, Hazard.MALFORMED})


class SandboxError(KgcrawlError):
    """A bad sandbox request: unknown size, profile or domain, a URL outside the world."""


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
class Resolved:
    """What a request names: the host asked, the host whose content answers, the page."""

    status: int
    host: Host | None = None
    content: Host | None = None
    route: Route | None = None
    path: str = ""  # the page's canonical path on the content host
    sid: str | None = None
    location: str | None = None
    fault: Hazard | None = None
    hazards: tuple[Hazard, ...] = ()


def check_world(size: str, profile: str) -> None:
    """Raise SandboxError naming a size or profile the sandbox does not have."""
    if size not in SIZES:
        raise SandboxError(f"unknown world size {size!r}: choose one of {', '.join(SIZES)}")
    if profile not in PROFILES:
        raise SandboxError(
            f"unknown sandbox profile {profile!r}: choose one of {', '.join(PROFILES)}"
        )


def check_world_options(sandbox: bool, size: str, profile: str) -> None:
    """Check a command's world options: a size or profile given without `--sandbox` would
    be ignored and the real web crawled instead, so it is refused before anything runs."""
    if sandbox:
        check_world(size, profile)
        return
    given = [name for name, value in (("--sandbox-size", size), ("--sandbox-profile", profile))
             if value != "default"]  # fmt: skip
    if given:
        raise SandboxError(
            f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} --sandbox "
            "(without it the crawl goes to the real web)"
        )


class World:
    """A generated web of `size` ("small", "default", "large") and `profile` ("default",
    "sparse", "flat"; profiles.py) drawn from `seed`."""

    def __init__(self, seed: int = 0, size: str = "default", profile: str = "default"):
        check_world(size, profile)
        self.seed = seed
        self.size = size
        self.profile = SETTINGS[profile]
        if self.profile.academic:
            catalog = build_campus(seed, size)
        else:
            catalog = build_catalog(seed, size, self.profile)
        self.hosts: dict[str, Host] = catalog.hosts
        self.tunnels: tuple[Tunnel, ...] = tuple(catalog.tunnels)
        self.index = HostIndex.build(self.hosts, self.tunnels)
        self.heads = Heads(
            seed, self.hosts, self.index.entries, self.profile.register, self.profile.contained
        )
        self.head: Callable[[str, Route], Head] = self.heads.head

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

    def respond(
        self, host_name: str, target: str, crawl_delay: float = CRAWL_DELAY_SECONDS
    ) -> Reply:
        """The response to `GET target` with `Host: host_name` (port and scheme ignored);
        robots.txt of a crawl-delay host asks for `crawl_delay` seconds (a server option)."""
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
            return Reply(200, _TEXT, self._robots(r.host, crawl_delay).encode(), slow=slow)
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
            note = f'<div class="mirror-note">{LABELS[plan.lang]["mirror"]} {r.host.name}</div>\n'
            text = text.replace("<body>\n", "<body>\n" + note, 1)
        body = text.encode(encoding, "xmlcharrefreplace")
        return Reply(200, (("Content-Type", content_type),), body, slow=slow, fault=r.fault)

    def get(self, url: str, crawl_delay: float = CRAWL_DELAY_SECONDS) -> Reply:
        """The response to `GET url` (an absolute URL), as `respond` gives it."""
        return self.respond(*_host_target(url), crawl_delay)

    def truth(self, url: str) -> Truth:
        """Ground truth of a URL: status, type, topic shares, canonical page, hazards."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SandboxError(f"not an http(s) URL: {url}")
        host, target = _host_target(url)
        r = self._resolve(host, target)
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
        r = self._resolve(*_host_target(url))
        if r.status != 200 or r.route is None or r.route.type not in HTML_TYPES:
            return None
        return self._plan(r)

    def links(self, url: str) -> list[str]:
        """Absolute URLs of the real links of a page (none for non-pages), in document order."""
        plan = self.plan(url)
        return [] if plan is None else [urljoin(url, link.href) for link in plan.links()]

    def hazard_urls(self, hazard: Hazard | str) -> list[str]:
        """Example URLs where a crawler meets `hazard`, at most one per host, sorted."""
        return hazard_urls(self, Hazard(hazard))

    # ----- resolving a request ----------------------------------------------------------

    def _resolve(self, host_name: str, target: str) -> Resolved:
        host = self.hosts.get(host_name.split(":")[0])
        if host is None:
            return Resolved(404, hazards=(Hazard.NOT_FOUND,))
        if Hazard.DOWN in host.hazards:
            return Resolved(503, host, hazards=(Hazard.DOWN,))
        if host.kind is Kind.MOVED:
            new = self.hosts[host.source or ""]
            return Resolved(
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
            return Resolved(404, host, content, hazards=(*tags, Hazard.NOT_FOUND))
        if route.type is PageType.ROBOTS:
            if host is not content:
                content = host
            if Hazard.ROBOTS_ERROR in host.hazards:
                return Resolved(503, host, content, route, hazards=(Hazard.ROBOTS_ERROR,))
            if self._robots_missing(host):
                return Resolved(404, host, content, route, hazards=(Hazard.NOT_FOUND,))
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
        return Resolved(status, host, content, route, canonical, sid, location, fault, tuple(tags))

    def _robots_missing(self, host: Host) -> bool:
        """Some small sites have no robots.txt at all (404 = allow everything)."""
        flagged = {Hazard.ROBOTS, Hazard.CRAWL_DELAY, Hazard.ROBOTS_ERROR} & host.hazards
        return (
            host.kind is Kind.SITE
            and not flagged
            and digest(self.seed, host.name, "robots") % 3 == 0
        )

    def _robots(self, host: Host, crawl_delay: float) -> str:
        lines = [
            "User-agent: *",
            "Disallow: /member/" if Hazard.ROBOTS in host.hazards else "Disallow:",
        ]
        delay = [f"Crawl-delay: {crawl_delay:g}"] if Hazard.CRAWL_DELAY in host.hazards else []
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

    def _export(self, r: Resolved, slow: bool) -> Reply:
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

    def _plan(self, r: Resolved) -> Plan:
        builder = AcademicBuilder if self.profile.academic else PageBuilder
        return builder(self, r).build()


def _host_target(url: str) -> tuple[str, str]:
    """(host name, request target) of an absolute URL: what a GET of it sends."""
    return (urlsplit(url).hostname or "").lower(), request_target(url)
