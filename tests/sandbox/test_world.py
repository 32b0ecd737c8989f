"""The generated world: determinism, seeds, ground-truth statistics, locality, tunnels."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tomllib
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from lxml import html as lxml_html

from kgcrawl.sandbox.heads import mix, spread
from kgcrawl.sandbox.hosts import Kind
from kgcrawl.sandbox.manifest import bfs, link_locality, world_info
from kgcrawl.sandbox.routes import PageType, Route
from kgcrawl.sandbox.seeds import SEEDS
from kgcrawl.sandbox.truth import RELEVANT_SHARE
from kgcrawl.sandbox.world import SandboxError, World

PIPELINES = Path(__file__).resolve().parents[2] / "pipelines"


@pytest.fixture(scope="module")
def small() -> World:
    return World(0, "small")


def sample_urls(world: World) -> list[str]:
    """Home, list and article pages of every tenth host, plus a GBK home, robots and files."""
    urls = []
    for host in sorted(world.hosts.values(), key=lambda h: h.name)[::10]:
        urls.append(world.url(host.name, Route(PageType.HOME)))
        for i, channel in enumerate(host.channels[:2]):
            urls.append(world.url(host.name, Route(PageType.LIST, i, 0)))
            if channel.size:
                urls.append(world.url(host.name, Route(PageType.ARTICLE, i, channel.size - 1)))
    urls += ["http://www.cntour.cn/", "http://www.mafengwo.cn/robots.txt"]
    return [*urls, "http://data.cma.cn/files/3.pdf", "http://data.cma.cn/images/3.png"]


_DIGESTS = """
import hashlib, json, sys
from kgcrawl.sandbox.world import World
world = World(0, "small")
out = {}
for url in json.load(sys.stdin):
    reply = world.get(url, crawl_delay=float(sys.argv[1]))
    out[url] = hashlib.sha256(reply.body).hexdigest()
print(json.dumps(out))
"""


def test_same_seed_serves_byte_identical_pages_across_processes(sandbox):
    urls = sample_urls(sandbox.world)
    served = {u: hashlib.sha256(sandbox.fetch(u).content).hexdigest() for u in urls}
    again = {u: hashlib.sha256(sandbox.fetch(u).content).hexdigest() for u in urls}
    other = subprocess.run(
        [sys.executable, "-c", _DIGESTS, str(sandbox.server.crawl_delay)],
        input=json.dumps(urls),
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    assert served == again == json.loads(other.stdout)
    assert len(set(served.values())) == len(urls)  # and the pages are not all the same


def test_a_different_seed_is_a_different_world(small):
    other = World(1, "small")
    assert set(other.hosts) != set(small.hosts)  # generated hosts differ
    home = "http://www.cntour.cn/"
    assert other.respond("www.cntour.cn", "/").body != small.respond("www.cntour.cn", "/").body
    assert other.truth(home).shares != small.truth(home).shares


def test_sizes_scale_hosts_and_unknown_size_is_an_error():
    assert len(World(0, "small").hosts) == 100
    assert len(World(0, "default").hosts) == 300
    with pytest.raises(SandboxError, match="huge"):
        World(0, "huge")


@pytest.mark.parametrize("domain", ["tourism", "rainstorm"])
def test_pipeline_seeds_are_the_papers_tables(domain):
    with open(PIPELINES / f"{domain}.toml", "rb") as f:
        assert tuple(tomllib.load(f)["seeds"]) == SEEDS[domain]


@pytest.mark.parametrize("domain", ["tourism", "rainstorm"])
def test_every_seed_url_is_a_page_mostly_of_its_domain(sandbox, domain):
    """Paths and query strings included, http and https alike, fetched over HTTP."""
    relevant = 0
    for url in SEEDS[domain]:
        response = sandbox.fetch(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Type"].startswith("text/html")
        assert lxml_html.fromstring(response.content).findtext(".//title")
        relevant += sandbox.world.truth(url).relevant(domain)
    assert relevant >= 2 * len(SEEDS[domain]) // 3  # as on the real web, a few seeds are off-topic


def test_some_seeds_are_off_topic_as_in_the_paper(small):
    assert not small.truth("http://www.sxjqtextile.com/").relevant("tourism")  # a textile firm


def test_mixtures_put_the_main_share_in_range_and_sum_to_one():
    rng = random.Random(7)
    for _ in range(200):
        mixture = mix(rng, "tourism", 0.35, 0.9)
        assert abs(sum(s for _, s in mixture) - 1) < 1e-3
        assert 0.35 <= dict(mixture)["tourism"] <= 0.9
        assert 2 <= len(mixture) <= 4
        spreading = spread(rng)
        assert len(spreading) == 6 and max(s for _, s in spreading) < 0.38


def test_tunnel_entries_never_mention_their_domain():
    rng = random.Random(3)
    for _ in range(100):
        mixture = mix(rng, "food", 0.65, 0.9, exclude=frozenset({"tourism", "rainstorm"}))
        assert not {"tourism", "rainstorm"} & dict(mixture).keys()


@pytest.mark.parametrize(
    ("size", "tourism", "rainstorm"),
    [("small", (0.19, 0.35), (0.08, 0.22)), ("default", (0.15, 0.30), (0.08, 0.22))],
)
def test_relevant_shares_of_articles_stay_within_documented_bounds(size, tourism, rainstorm):
    info = world_info(World(0, size), bfs_pages=0)
    shares = info["relevant_share_of_articles"]
    assert tourism[0] <= shares["tourism"] <= tourism[1]
    assert rainstorm[0] <= shares["rainstorm"] <= rainstorm[1]
    assert info["articles"] > (4000 if size == "small" else 40000)


def test_text_shows_the_latent_mixture(sandbox):
    """Topic words of a page appear roughly in proportion to its shares."""
    from kgcrawl.sandbox.lexicon import vocabulary

    world = sandbox.world
    host = world.hosts["www.huangshan.com.cn"]
    url = world.url(host.name, Route(PageType.ARTICLE, 0, 1))
    text = lxml_html.fromstring(sandbox.fetch(url).content).text_content()
    shares = dict(world.truth(url).shares)
    counts = {t: sum(text.count(w) for w in vocabulary(t, "zh").words[:40]) for t in shares}
    top = max(shares, key=shares.get)
    assert max(counts, key=counts.get) == top


@pytest.mark.parametrize("domain", ["tourism", "rainstorm"])
def test_links_have_topical_locality(small, domain):
    """Relevant pages link to relevant pages clearly more often than irrelevant pages do;
    site navigation dilutes this, links to other hosts show it plainly."""
    urls = [r.url for r in bfs(small, domain, 1500)[::5]]
    rr, ir = link_locality(small, domain, urls)
    assert rr >= 0.5
    assert rr >= 1.8 * ir
    rr, ir = link_locality(small, domain, urls, cross_host=True)
    assert rr >= 3 * ir


def test_hubs_link_to_many_hosts(small):
    directory = next(h for h in small.hosts.values() if h.kind is Kind.DIRECTORY)
    url = small.url(directory.name, Route(PageType.LIST, 0, 0))
    hosts = {urlsplit(u).hostname for u in small.links(url)}
    assert len(hosts) >= 15


def test_tunnel_pages_lead_from_off_topic_pages_to_a_relevant_cluster(sandbox):
    world = sandbox.world
    assert {t.domain for t in world.tunnels} == {"tourism", "rainstorm"}
    for tunnel in world.tunnels:
        entry = world.url(
            tunnel.entry_host, Route(PageType.ARTICLE, tunnel.entry_channel, tunnel.entry_article)
        )
        hops = [entry] + ([f"http://{tunnel.bridge}/"] if tunnel.bridge else [])
        cluster_home = f"http://{tunnel.cluster[0]}/"
        for page, nxt in zip(hops, [*hops[1:], cluster_home], strict=True):
            response = sandbox.fetch(page)
            assert response.status_code == 200
            assert not world.truth(page).relevant(tunnel.domain)
            hrefs = lxml_html.fromstring(response.content).xpath("//a/@href")
            assert nxt in hrefs
        # the entry is one hop from a seed: it is listed on its host's home page
        assert entry.split("://", 1)[1].split("/", 1)[1] in " ".join(
            world.links(f"http://{tunnel.entry_host}/")
        )
        cluster = [world.truth(u) for c in tunnel.cluster for u in _articles(world, c)]
        assert sum(t.relevant(tunnel.domain) for t in cluster) >= len(cluster) / 2


def _articles(world: World, host: str) -> list[str]:
    h = world.hosts[host]
    return [
        world.url(host, Route(PageType.ARTICLE, i, k))
        for i, ch in enumerate(h.channels)
        for k in range(ch.size)
    ]


def test_tunnel_clusters_are_entered_only_through_off_topic_pages(small):
    """Over every page reachable from every visible host, links into a hidden host come only
    from pages that are not relevant to that tunnel's domain."""
    hidden = {name: t for t in small.tunnels for name in (*t.cluster, t.bridge) if name}
    starts = [f"{h.scheme}://{h.name}/" for h in small.hosts.values() if not h.hidden]
    queue, seen = deque(starts), set(starts)
    entered_from = set()
    while queue:
        url = queue.popleft()
        truth = small.truth(url)
        if truth.location and truth.location not in seen:
            seen.add(truth.location)
            queue.append(truth.location)
        traps = ("calendar", "deep", "member", "print")
        if not truth.is_page or truth.page_type in traps or truth.duplicate:
            continue
        source = truth.host
        for link in small.links(url):
            target = urlsplit(link).hostname
            if target in hidden and source not in hidden:
                assert truth.share(hidden[target].domain) < RELEVANT_SHARE, (url, link)
                entered_from.add(source)
            if link not in seen:
                seen.add(link)
                queue.append(link)
    assert entered_from == {t.entry_host for t in small.tunnels} | {
        h.name for h in small.hosts.values() if h.kind is Kind.MIRROR and h.source in entered_from
    }
    assert hidden.keys() <= {urlsplit(u).hostname for u in seen}


def test_caches_stay_bounded_while_pages_are_served():
    """Memory must stay flat over any number of requests: only fixed-size caches may grow."""
    from kgcrawl.sandbox.lexicon import NARROW, _companions
    from kgcrawl.sandbox.render import _probabilities

    world = World(0, "small")
    for host in list(world.hosts.values())[:40]:
        for i, channel in enumerate(host.channels):
            for k in range(min(channel.size, 10)):
                world.respond(
                    host.name, urlsplit(world.url(host.name, Route(PageType.ARTICLE, i, k))).path
                )
    # the lexicon's vocabularies: 11 topics and filler, and the narrow registers, per language
    assert _probabilities.cache_info().currsize <= 2 * (12 + len(NARROW))
    assert _companions.cache_info().maxsize == 4096
    assert world.head.cache_info().maxsize == 16384
