"""Sandbox profiles (SPEC §12 "Turn 2 — profiles"): default unchanged, sparse and flat as
documented in profiles.py, deterministic, and reachable through the command line."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from lxml import html as lxml_html
from typer.testing import CliRunner

from kgcrawl.cli import app, main
from kgcrawl.runner import sandbox_process
from kgcrawl.sandbox.catalog import PORTALS, REGISTRY
from kgcrawl.sandbox.hosts import Kind
from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS, TOPICS, filler, topic_words, vocabulary
from kgcrawl.sandbox.manifest import ManifestRow, bfs, write_manifest
from kgcrawl.sandbox.routes import PageType, Route
from kgcrawl.sandbox.seeds import SEED_ROLES, SEEDS
from kgcrawl.sandbox.truth import RELEVANT_SHARE
from kgcrawl.sandbox.world import SandboxError, World
from kgcrawl.text.urls import canonical_url

runner = CliRunner()
# sha256 over (url, body) of the first 300 tourism BFS pages of World(0, "default"), taken
# before profiles existed: the default world must not change under them.
DEFAULT_BFS_300 = "e00f626ef63d57afc09f01c59051656a9b82b4ded55a46e9dfc98aaa4e18abbe"


@pytest.fixture(scope="module")
def sparse() -> World:
    return World(0, "default", "sparse")


@pytest.fixture(scope="module")
def flat() -> World:
    return World(0, "default", "flat")


def body(world: World, url: str) -> bytes:
    return world.get(url).body


def names_a_word(text: str, words: frozenset[str]) -> bool:
    """Whether `text` (an anchor, a URL path) holds one of `words` as whole words."""
    padded = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
    return any(f" {w.replace('-', ' ')} " in padded for w in words)


def relevant_shares(world: World) -> dict[str, Counter]:
    """Per domain: relevant pages by host, over every list and article page of the world."""
    out = {d: Counter() for d in DOMAIN_TOPICS} | {"pages": Counter()}
    for host in world.hosts.values():
        if host.kind in (Kind.MIRROR, Kind.MOVED):  # copies and redirects: not pages of their own
            continue
        for i, channel in enumerate(host.channels):
            routes = [Route(PageType.LIST, i, 0)]
            if host.kind is not Kind.DIRECTORY:  # a directory lists hosts, it has no articles
                routes += [Route(PageType.ARTICLE, i, k) for k in range(channel.size)]
            for route in routes:
                mixture = dict(world.head(host.name, route).mixture)
                out["pages"][host.name] += 1
                for d in DOMAIN_TOPICS:
                    out[d][host.name] += mixture.get(d, 0.0) >= RELEVANT_SHARE
    return out


# ----- every profile --------------------------------------------------------------------------


def test_default_profile_is_todays_world():
    world = World(0, "default", "default")
    digest = hashlib.sha256()
    for row in bfs(world, "tourism", 300):
        digest.update(row.url.encode())
        digest.update(body(world, row.url))
    assert digest.hexdigest() == DEFAULT_BFS_300
    assert World(0, "small").profile.name == "default"


@pytest.mark.parametrize("profile", ["sparse", "flat"])
def test_a_profile_is_deterministic_and_differs_from_the_others(profile):
    one, two = World(0, "small", profile), World(0, "small", profile)
    urls = [r.url for r in bfs(one, "rainstorm", 40)]
    assert [body(one, u) for u in urls] == [body(two, u) for u in urls]
    assert [one.truth(u) for u in urls] == [two.truth(u) for u in urls]
    seed = SEEDS["tourism"][1]
    others = [World(0, "small", p) for p in ("default", "sparse", "flat") if p != profile]
    assert all(body(other, seed) != body(one, seed) for other in others)


@pytest.mark.parametrize("profile", ["default", "sparse", "flat"])
def test_every_size_of_every_profile_builds_and_grows(profile):
    # sparse's large campus once asked for more university names than it had
    hosts = [len(World(0, size, profile).hosts) for size in ("small", "default", "large")]
    assert hosts == sorted(set(hosts))


def test_an_unknown_profile_is_an_error_naming_the_choices():
    with pytest.raises(SandboxError, match=r"'dense'.*default, sparse, flat"):
        World(0, "small", "dense")


@pytest.mark.parametrize("profile", ["sparse", "flat"])
@pytest.mark.parametrize("domain", DOMAIN_TOPICS)
def test_every_seed_url_serves_a_page(profile, domain):
    world = World(0, "small", profile)
    for url in SEEDS[domain]:
        truth = world.truth(url)
        assert truth.is_page, url
        assert b"<title>" in body(world, url)


# ----- sparse ---------------------------------------------------------------------------------


def test_sparse_is_an_english_academic_web_with_a_few_hubs(sparse):
    kinds = Counter(h.kind for h in sparse.hosts.values())
    assert set(kinds) == {Kind.UNIVERSITY, Kind.DEPARTMENT} and kinds[Kind.UNIVERSITY] <= 12
    assert {h.lang for h in sparse.hosts.values()} == {"en"}
    rows = bfs(sparse, "tourism", 600)
    indegree = Counter(link for r in rows for link in set(sparse.links(r.url)))
    hubs = [url for url, _ in indegree.most_common(3)]
    assert all(sparse.hosts[urlsplit(u).hostname].kind is Kind.UNIVERSITY for u in hubs)
    assert indegree[hubs[0]] >= 0.1 * len(rows)


@pytest.mark.parametrize("domain", DOMAIN_TOPICS)
def test_sparse_relevant_pages_are_rare_and_on_a_few_hosts(sparse, domain):
    counts = relevant_shares(sparse)
    pages, relevant = counts["pages"], counts[domain]
    assert 0.03 <= relevant.total() / pages.total() <= 0.08
    top = relevant.most_common(5)
    assert sum(n for _, n in top) >= 0.9 * relevant.total()
    assert all(0.05 <= n / pages[host] <= 0.25 for host, n in top)


def test_sparse_relevant_pages_lie_beyond_the_university_hubs(sparse):
    """Seed → university home → department → course: no relevant page is a seed or its
    neighbour (a full BFS finds them at depths 3–5)."""
    rows = bfs(sparse, "rainstorm", 5000)
    depths = Counter(r.depth for r in rows if r.relevant)
    assert depths and min(depths) >= 2
    hubs = {f"http://{u}/" for u in sparse.index.universities}
    assert {r.url for r in rows if r.depth == 1} & hubs


def test_sparse_has_about_seventy_percent_dead_links(sparse):
    links = [link for r in bfs(sparse, "tourism", 300)[::3] for link in sparse.links(r.url)]
    dead = sum(not sparse.truth(link).is_page for link in links)
    assert 0.62 <= dead / len(links) <= 0.78


@pytest.mark.parametrize("domain", DOMAIN_TOPICS)
def test_sparse_urls_name_the_topic_where_anchors_rarely_do(sparse, domain):
    words = topic_words(domain, "en")
    host = sparse.hosts[relevant_shares(sparse)[domain].most_common(1)[0][0]]
    sources = [sparse.url(host.name, Route(PageType.HOME))]
    for i in range(len(host.channels)):
        sources += [
            sparse.url(host.name, Route(t, i, 0)) for t in (PageType.LIST, PageType.ARTICLE)
        ]
    anchors = paths = total = 0
    for url in sources:
        for link in sparse.plan(url).links():
            target = urljoin(url, link.href)
            if sparse.truth(target).relevant(domain):
                total += 1
                anchors += names_a_word(link.text or link.title or link.alt, words)
                paths += names_a_word(urlsplit(target).path, words)
    assert total >= 100
    assert anchors / total < 0.3 < 0.5 < paths / total


# ----- flat -----------------------------------------------------------------------------------


@pytest.mark.parametrize("domain", DOMAIN_TOPICS)
def test_flat_pages_name_only_the_narrow_register(flat, domain):
    full = set(vocabulary(domain, "zh").words)
    narrow = set(vocabulary(domain, "zh", "narrow").words)
    assert narrow < full and len(narrow) <= len(full) / 4
    # What a page may write besides its domain's narrow words: other topics, filler, chrome.
    allowed = narrow | set(filler("zh").words)
    allowed |= {w for t in TOPICS if t != domain for w in vocabulary(t, "zh", "narrow").words}
    rows = [r for r in bfs(flat, domain, 200) if r.relevant]
    assert rows
    for row in rows[:10]:
        text = " ".join(_paragraphs(body(flat, row.url)))
        for word in sorted(allowed, key=len, reverse=True):
            text = text.replace(word, " ")
        assert not {w for w in full - narrow if w in text}, row.url


def _paragraphs(page: bytes) -> list[str]:
    """The text a page writes about its topics: paragraphs without their links (anchors,
    channel and site names are the sites' own names, the same in every register)."""
    tree = lxml_html.fromstring(page)
    for anchor in tree.iter("a"):
        anchor.drop_tree()
    return [p.text_content() for p in tree.xpath('//div[@class="main"]//p')]


def test_flat_is_chinese_about_fifteen_percent_relevant_with_tunnels(flat):
    assert {h.lang for h in flat.hosts.values()} == {"zh"}
    counts = relevant_shares(flat)
    for d in DOMAIN_TOPICS:
        assert 0.08 <= counts[d].total() / counts["pages"].total() <= 0.25
    assert {t.domain for t in flat.tunnels} == set(DOMAIN_TOPICS)
    for tunnel in flat.tunnels:
        route = Route(PageType.ARTICLE, tunnel.entry_channel, tunnel.entry_article)
        assert not flat.truth(flat.url(tunnel.entry_host, route)).relevant(tunnel.domain)


def test_flat_footers_link_the_registry_hubs(flat):
    home = SEEDS["tourism"][0]
    links = flat.links(home)
    assert all(any(urlsplit(u).hostname == name for u in links) for name in REGISTRY)
    assert all(flat.truth(f"http://{name}/").is_page for name in REGISTRY)


@pytest.mark.parametrize(
    ("domain", "hub"), [("tourism", "www.cntour.cn"), ("rainstorm", "www.nmc.cn")]
)
def test_flat_has_a_seed_hub_every_generated_page_links(flat, domain, hub):
    """The top bar's national portals: one is a seed of the domain that no earlier seed page
    links (so it is downloaded among the first pages, before any link gives it a priority),
    and its in-degree over a BFS sample dwarfs every page but the other portals."""
    url = f"http://{hub}/"
    assert hub in PORTALS and url in {canonical_url(s) for s in SEEDS[domain]}
    earlier = SEEDS[domain][: [canonical_url(s) for s in SEEDS[domain]].index(url)]
    assert not any(url in {canonical_url(u) for u in flat.links(s)} for s in earlier)
    pages = []  # a sample of the generated web: home, first list, first article of 60 hosts
    for host in [h for h in flat.hosts.values() if h.name not in SEED_ROLES][:60]:
        routes = [Route(PageType.HOME), Route(PageType.LIST, 0, 0), Route(PageType.ARTICLE, 0, 0)]
        pages += [flat.url(host.name, r) for r in routes if flat.plan(flat.url(host.name, r))]
    indegree = Counter(link for page in pages for link in set(flat.links(page)))
    hubs = {f"http://{name}/" for name in (*PORTALS, *REGISTRY)}  # the footer's too
    others = max(n for u, n in indegree.items() if u not in hubs)
    assert len(pages) >= 120 and indegree[url] >= 0.9 * len(pages)
    assert indegree[url] >= 10 * others


# ----- plumbing -------------------------------------------------------------------------------


def test_profile_option_of_the_sandbox_commands():
    result = runner.invoke(
        app, ["sandbox", "info", "--profile", "sparse", "--bfs-pages", "0", "--json"]
    )
    assert result.exit_code == 0
    assert json.loads(result.output)["profile"] == "sparse"
    url = SEEDS["rainstorm"][0]
    result = runner.invoke(app, ["sandbox", "truth", url, "--profile", "flat", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)[0]["status"] == 200
    for command in ("serve", "truth", "manifest", "info"):
        assert "--profile" in runner.invoke(app, ["sandbox", command, "--help"]).output
    assert "--sandbox-profile" in runner.invoke(app, ["crawl", "--help"]).output


def test_an_unknown_profile_on_the_command_line_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["sandbox", "info", "--profile", "dense", "--bfs-pages", "0"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "dense" in err and len(err.splitlines()) == 1


def test_manifest_jsonl_is_the_truth_format(tmp_path):
    out = tmp_path / "sparse.jsonl"
    args = ["sandbox", "manifest", "--domain", "tourism", "--max-pages", "30", "--out", str(out)]
    result = runner.invoke(app, [*args, "--size", "small", "--profile", "sparse"])
    assert result.exit_code == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 30 and all(set(r) == {"url", "relevant"} for r in records)
    assert all(isinstance(r["relevant"], bool) for r in records)
    rows = [ManifestRow("http://a/", "http://a/", "a", 0, "home", 0.5, True)]
    write_manifest(rows, tmp_path / "one.jsonl", {})
    assert (tmp_path / "one.jsonl").read_text() == '{"url": "http://a/", "relevant": true}\n'


def test_sandbox_process_serves_the_profile():
    with sandbox_process(0, "small", profile="sparse") as resolve:
        port = resolve[0].rsplit(":", 1)[1]
        host = urlsplit(SEEDS["tourism"][0]).hostname
        response = requests.get(f"http://127.0.0.1:{port}/", headers={"Host": host}, timeout=10)
    assert response.status_code == 200 and b"Department of" in response.content
