"""The records a world's host catalogue is made of: hosts, their channels, tunnels.

A host's kind decides its channels, page layouts and link habits; its style how
it spells URLs (`routes.py`); its hazards the traps and faults it serves.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kgcrawl.sandbox.hazards import Hazard


class Kind(StrEnum):
    """What a host is; decides its channels, page layouts and link habits."""

    PORTAL = "portal"  # topical portal: most channels on one topic
    NEWS = "news"  # mixed portal: channels on many topics
    SITE = "site"  # small agency, company or personal site
    FORUM = "forum"  # boards and threads
    GOV = "gov"  # government or agency site: notices, tables, PDF attachments
    DIRECTORY = "directory"  # hub: lists other hosts by topic
    LINKFARM = "linkfarm"  # keyword-stuffed pages of links
    MIRROR = "mirror"  # copy of another host
    MOVED = "moved"  # old name of another host: every path redirects
    UNIVERSITY = "university"  # academic hub: a campus home page that every page links back to
    DEPARTMENT = "department"  # academic site: courses, research groups, people


class Style(StrEnum):
    """How a host spells its URLs."""

    CMS = "cms"  # /travel/202406/t20240612_100123.html
    SIMPLE = "simple"  # /travel/100123.html
    QUERY = "query"  # /show.php?id=100123
    FORUM = "forum"  # /thread-100123-1-1.html
    ACADEMIC = "academic"  # /courses/geog341-tourism-geography/syllabus.html


LINKFARM_TOPIC = "spam"


@dataclass(frozen=True)
class Channel:
    """A section of a host: its topic and how many articles it holds."""

    slug: str
    topic: str
    name: str
    size: int


@dataclass(frozen=True)
class Alias:
    """A seed URL with an odd path (`/home?m_id=730`) standing for a page of a given role."""

    target: str  # path and query as written in the seed table
    role: str  # "home", "list" or "article"
    topic: str | None = None  # the channel topic a list or article alias belongs to


@dataclass(frozen=True)
class Host:
    """One host of the world."""

    name: str
    kind: Kind
    lang: str
    topic: str | None  # main topic; None for hosts that span all topics
    title: str
    scheme: str
    style: Style
    channels: tuple[Channel, ...]
    hazards: frozenset[Hazard] = frozenset()
    source: str | None = None  # mirror: the copied host; moved: the new host; department: its
    # university
    hidden: bool = False  # member of a tunnel cluster or a bridge
    aliases: tuple[Alias, ...] = ()
    base_id: int = 100000  # public article ids start here

    def channel_of(self, topic: str) -> int | None:
        """Index of the first channel on `topic`."""
        return next((i for i, ch in enumerate(self.channels) if ch.topic == topic), None)


@dataclass(frozen=True)
class Tunnel:
    """A hidden cluster of a domain and the off-topic pages that lead to it."""

    domain: str
    entry_host: str
    entry_channel: int
    entry_article: int
    bridge: str | None
    cluster: tuple[str, ...]
