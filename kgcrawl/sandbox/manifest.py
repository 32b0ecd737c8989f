"""What a world holds: BFS manifests from a domain's seeds and world statistics.

The manifest is what recall is measured against: the pages a polite crawler can
reach from the domain's seeds, in breadth-first order, up to N pages, each with
its truth. It follows the crawler's rules — at most 5 redirect hops, robots.txt
obeyed for the `kgcrawl` agent (and a host whose robots.txt fails is not
crawled), only HTML pages count, and a page is counted once per canonical page
(session-id variants, mirrors and printer copies are the same page).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, deque
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

from kgcrawl.sandbox.catalog import Kind
from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS
from kgcrawl.sandbox.routes import PageType, Route
from kgcrawl.sandbox.truth import RELEVANT_SHARE, Truth
from kgcrawl.sandbox.world import SandboxError, World

MAX_REDIRECTS = 5


@dataclass(frozen=True)
class ManifestRow:
    """One reachable page: where BFS found it and what it truly is."""

    url: str
    canonical: str
    host: str
    depth: int
    page_type: str
    share: float
    relevant: bool


def allowed(world: World, url: str) -> bool:
    """Whether robots.txt lets the `kgcrawl` agent fetch `url`."""
    truth = world.truth(url)
    host = world.hosts.get(truth.host)
    if host is not None and Hazard.ROBOTS_ERROR in host.hazards:
        return False
    return Hazard.ROBOTS.value not in truth.hazards


def _follow(world: World, url: str) -> tuple[str, Truth] | None:
    """The page a URL ends at after at most MAX_REDIRECTS allowed hops, if any."""
    truth = world.truth(url)
    for _ in range(MAX_REDIRECTS):
        if truth.location is None:
            break
        url = truth.location
        if not allowed(world, url):
            return None
        truth = world.truth(url)
    if truth.location is not None or not truth.is_page:
        return None
    return url, truth


def bfs(world: World, domain: str, max_pages: int) -> list[ManifestRow]:
    """Pages reachable from the domain's seeds, breadth first, up to `max_pages`."""
    if domain not in DOMAIN_TOPICS:
        raise SandboxError(
            f"unknown sandbox domain {domain!r}: choose one of {', '.join(DOMAIN_TOPICS)}"
        )
    queue = deque((url, 0) for url in world.seeds(domain))
    queued = {url for url, _ in queue}
    canonical: set[str] = set()
    rows: list[ManifestRow] = []
    while queue and len(rows) < max_pages:
        url, depth = queue.popleft()
        if not allowed(world, url):
            continue
        found = _follow(world, url)
        if found is None:
            continue
        url, truth = found
        if truth.canonical in canonical:
            continue
        canonical.add(truth.canonical)
        rows.append(
            ManifestRow(
                url,
                truth.canonical,
                truth.host,
                depth,
                truth.page_type,
                truth.share(domain),
                truth.relevant(domain),
            )
        )
        for link in world.links(url):
            link = urldefrag(link).url
            if link not in queued:
                queued.add(link)
                queue.append((link, depth + 1))
    return rows


def write_manifest(rows: list[ManifestRow], out: Path, meta: dict) -> None:
    """Write rows as CSV (`.csv`), JSON (`.json`, with the world's parameters) or JSON lines
    (`.jsonl`: one `{"url", "relevant"}` per page, the evaluator's `--truth` format)."""
    if out.suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(ManifestRow.__dataclass_fields__))
        writer.writeheader()
        writer.writerows(asdict(r) for r in rows)
        out.write_text(buffer.getvalue(), encoding="utf-8")
    elif out.suffix == ".json":
        data = meta | {"relevant_share": RELEVANT_SHARE, "pages": [asdict(r) for r in rows]}
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    elif out.suffix == ".jsonl":
        lines = (json.dumps({"url": r.url, "relevant": r.relevant}) + "\n" for r in rows)
        out.write_text("".join(lines), encoding="utf-8")
    else:
        raise SandboxError(f"{out}: manifest must end in .csv, .json or .jsonl")


def link_locality(
    world: World, domain: str, urls: list[str], cross_host: bool = False
) -> tuple[float, float]:
    """P(target relevant | source relevant) and P(target relevant | source irrelevant).

    Over the links of the given pages whose targets are pages (redirects not followed);
    with `cross_host`, only links to another host.
    """
    counts = Counter()
    for url in urls:
        source = world.truth(url)
        for link in world.links(url):
            if cross_host and urlsplit(link).hostname == source.host:
                continue
            target = world.truth(link)
            if target.is_page:
                counts[source.relevant(domain), target.relevant(domain)] += 1
    rr = counts[True, True] / max(1, counts[True, True] + counts[True, False])
    ir = counts[False, True] / max(1, counts[False, True] + counts[False, False])
    return rr, ir


def world_info(world: World, bfs_pages: int = 1000) -> dict:
    """Statistics of a world: hosts by kind, language and hazard; relevant shares per domain."""
    hosts = list(world.hosts.values())
    hazards = Counter(h.value for host in hosts for h in host.hazards)
    pages = Counter()
    relevant = {d: Counter() for d in DOMAIN_TOPICS}
    for host in hosts:
        if host.kind in (Kind.MIRROR, Kind.MOVED) or Hazard.DOWN in host.hazards:
            continue
        for i, channel in enumerate(host.channels):
            routes = [Route(PageType.ARTICLE, i, k) for k in range(channel.size)]
            if host.kind is Kind.DIRECTORY:
                routes = [Route(PageType.LIST, i, 0)]
            for route in routes:
                mixture = dict(world.head(host.name, route).mixture)
                pages[route.type.value] += 1
                for d in DOMAIN_TOPICS:
                    relevant[d][route.type.value] += mixture.get(d, 0.0) >= RELEVANT_SHARE
    articles = pages[PageType.ARTICLE.value]
    info = {
        "seed": world.seed,
        "size": world.size,
        "profile": world.profile.name,
        "hosts": len(hosts),
        "hosts_by_kind": dict(Counter(h.kind.value for h in hosts).most_common()),
        "hosts_by_language": dict(Counter(h.lang for h in hosts).most_common()),
        "hidden_hosts": sum(h.hidden for h in hosts),
        "tunnels": dict(Counter(t.domain for t in world.tunnels)),
        "articles": articles,
        "relevant_share_of_articles": {
            d: round(relevant[d][PageType.ARTICLE.value] / max(1, articles), 4)
            for d in DOMAIN_TOPICS
        },
        "hosts_by_hazard": dict(sorted(hazards.items())),
        "relevant_threshold": RELEVANT_SHARE,
    }
    if bfs_pages:
        info["bfs"] = {}
        for d in DOMAIN_TOPICS:
            rows = bfs(world, d, bfs_pages)
            info["bfs"][d] = {
                "pages": len(rows),
                "relevant_share": round(sum(r.relevant for r in rows) / max(1, len(rows)), 4),
                "hosts": len({r.host for r in rows}),
                "max_depth": max((r.depth for r in rows), default=0),
            }
    return info
