"""Example URLs of every hazard: where in a world a crawler meets each trap or fault.

The tests and `World.hazard_urls` use them to aim at one hazard at a time; the
rules that make a URL hazardous live in `hazards.py`, `routes.py` and the world.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kgcrawl.sandbox.hazards import CALENDAR_START, LONG_CHAIN, Hazard, resets, server_fault
from kgcrawl.sandbox.hosts import Host, Kind, Style
from kgcrawl.sandbox.routes import PageType, Route

if TYPE_CHECKING:
    from kgcrawl.sandbox.world import World


def hazard_urls(world: World, hazard: Hazard) -> list[str]:
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
                if predicate(k) and (host.name, i, k) not in world.index.entries:
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
