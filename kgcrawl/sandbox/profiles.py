"""The kinds of web a world can be (`--sandbox-profile`, SPEC §12 "Turn 2 — profiles").

The crawler was tuned on one world and failed on others; each profile is a
realistic web that reproduces one way it failed, so a fix can be measured:

- default — the portal web of turn 1: Chinese and English topical portals,
  news sites, forums, directories and link farms (`catalog.py`, `pages.py`).
- sparse — an English academic web, like a university web crawled in 1997: a
  few campus home pages every page links back to, most links dead, relevant
  pages rare (≈ 5 %), on a few department hosts, 2–5 links from the seeds, with
  anchors that are course codes and titles while URLs and the sentence around a
  link name the topic (`campus.py`, `academic.py`).
- flat — a Chinese web of general portals (a travel or weather section among
  eight others) whose pages on a domain use only the few everyday words of its
  narrow register (`lexicon.NARROW`), so a page names few distinct concepts;
  ≈ 15 % relevant, tunnels as in the default web. Every footer links the ICP
  registry, and the top bar of every page of a generated host the same six
  national portals (政府网站导航 / 友情链接: 中国政府网, 人民网, 新华网,
  中国旅游网, 中央气象台, 中国气象局; the seed hosts keep their own pages). Two
  portals are seeds no earlier seed links (tourism's www.cntour.cn, rainstorm's
  www.nmc.cn), so a crawl that takes its seeds first downloads a hub whose
  in-degree then grows with every generated page it downloads: PageRank divided
  by its maximum leaves an ordinary page ≈ 0.005, as on the real Chinese webs
  (SPEC §4.5 turn 2). The registry pages, linked as widely, are fetched late.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    """How a profile's world differs from the default one."""

    name: str
    academic: bool = False  # an academic web (campus.py, academic.py) instead of a portal web
    contained: bool = False  # a domain is a page's topic only in channels on it (a course page
    # keeps to its course), never a stray companion elsewhere
    english: float = 0.25  # share of a portal web's generated hosts written in English
    register: str = "full"  # part of the domain lexicons pages draw on: "full" or "narrow"
    mixed: int = 0  # general-interest channels added to every portal-web host beside its own
    registry: bool = False  # every page's footer links the national ICP registry and the
    # reporting centre, as Chinese sites' footers do: two hubs above all others
    portals: bool = False  # the top bar of every generated host's pages links the same few
    # national portals (catalog.PORTALS), two of them seeds: a hub a crawl downloads first
    timing: bool = True  # slow hosts and Crawl-delay kept (False: a 3 000-page crawl takes
    # minutes, not a quarter of an hour, with one worker)
    topic_weights: tuple[tuple[str, int], ...] = ()  # main topics of generated hosts, if not
    # catalog.py's (where tourism is twice as common as any off-topic theme)


PROFILES: tuple[str, ...] = ("default", "sparse", "flat")
SETTINGS: dict[str, Profile] = {
    "default": Profile("default"),
    "sparse": Profile("sparse", academic=True, contained=True),
    "flat": Profile(
        "flat",
        english=0.0,
        register="narrow",
        mixed=8,
        registry=True,
        portals=True,
        timing=False,
        topic_weights=(("tourism", 8), ("rainstorm", 8)),
    ),
}
