"""Lookups over a world's hosts that page builders draw link targets from.

Built once per world from the catalogue, so picking a friend link, an external
article on a topic or a tunnel's next hop is a dictionary lookup, not a scan.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgcrawl.sandbox.catalog import directory_listing
from kgcrawl.sandbox.hosts import Host, Kind, Tunnel
from kgcrawl.sandbox.lexicon import TOPICS

CONTENT_KINDS = (Kind.PORTAL, Kind.NEWS, Kind.SITE, Kind.FORUM, Kind.GOV, Kind.DEPARTMENT)


@dataclass(frozen=True)
class HostIndex:
    """Visible hosts by role and topic, and the tunnels by the hosts they pass through."""

    content: tuple[str, ...]  # hosts with articles
    by_topic: dict[str, tuple[str, ...]]  # content, mirror and moved hosts by main topic
    channels: dict[str, tuple[tuple[str, int], ...]]  # (host, channel) by channel topic
    farms: tuple[str, ...]
    directories: tuple[str, ...]
    listing: dict[str, tuple[str, ...]]  # what a directory lists under each topic
    entries: dict[tuple[str, int, int], Tunnel]  # (host, channel, article) → tunnel it enters
    bridges: dict[str, Tunnel]
    clusters: dict[str, Tunnel]
    universities: tuple[str, ...]  # academic webs: the hubs
    members: dict[str, tuple[str, ...]]  # university → its departments

    @classmethod
    def build(cls, hosts: dict[str, Host], tunnels: tuple[Tunnel, ...]) -> HostIndex:
        visible = [h for h in hosts.values() if not h.hidden]
        topical = (*CONTENT_KINDS, Kind.MIRROR, Kind.MOVED)
        return cls(
            content=tuple(h.name for h in visible if h.kind in CONTENT_KINDS),
            by_topic={
                t: tuple(h.name for h in visible if h.topic == t and h.kind in topical)
                for t in TOPICS
            },
            channels={
                t: tuple(
                    (h.name, i)
                    for h in visible
                    if h.kind in CONTENT_KINDS
                    for i, ch in enumerate(h.channels)
                    if ch.topic == t
                )
                for t in TOPICS
            },
            farms=tuple(h.name for h in visible if h.kind is Kind.LINKFARM),
            directories=tuple(h.name for h in visible if h.kind is Kind.DIRECTORY),
            listing={t: directory_listing(hosts, t) for t in TOPICS},
            entries={(t.entry_host, t.entry_channel, t.entry_article): t for t in tunnels},
            bridges={t.bridge: t for t in tunnels if t.bridge},
            clusters={name: t for t in tunnels for name in t.cluster},
            universities=tuple(h.name for h in visible if h.kind is Kind.UNIVERSITY),
            members={
                u.name: tuple(
                    h.name for h in visible if h.kind is Kind.DEPARTMENT and h.source == u.name
                )
                for u in visible
                if u.kind is Kind.UNIVERSITY
            },
        )
