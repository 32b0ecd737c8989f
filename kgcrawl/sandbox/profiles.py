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
- flat — a Chinese portal web whose pages on a domain use only the few everyday
  words of its narrow register (`lexicon.NARROW`), so a page names few distinct
  concepts; tunnels as in the default web.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    """How a profile's world differs from the default one."""

    name: str
    academic: bool = False  # an academic web (campus.py, academic.py) instead of a portal web
    english: float = 0.25  # share of a portal web's generated hosts written in English
    register: str = "full"  # part of the domain lexicons pages draw on: "full" or "narrow"
    mixed: int = 0  # general-interest channels added to every portal-web host beside its own
    topic_weights: tuple[tuple[str, int], ...] = ()  # main topics of generated hosts, if not
    # catalog.py's (where tourism is twice as common as any off-topic theme)


PROFILES: tuple[str, ...] = ("default", "sparse", "flat")
SETTINGS: dict[str, Profile] = {
    "default": Profile("default"),
    "sparse": Profile("sparse", academic=True),
    "flat": Profile(
        "flat",
        english=0.0,
        register="narrow",
        mixed=8,
        topic_weights=(("tourism", 8), ("rainstorm", 8)),
    ),
}
