"""The frontier against a naive list model: same selections, same pool, same β moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from kgcrawl.crawl.frontier import Frontier, FrontierError
from kgcrawl.scoring.priority import priority
from kgcrawl.text.urls import host_of

R = (0.55, 0.25, 0.20)
URLS = [f"http://h{i % 4}.cn/p{i}" for i in range(24)]
SCORES = [0.0, 0.1, 0.3, 0.5, 0.9, 1.0]


class NaiveFrontier:
    """Everything by scanning plain lists; written from SPEC §4.5 and the Frontier docstring."""

    def __init__(self, beta: float | None, keep: int) -> None:
        self.beta, self.keep = beta, keep
        self.urls: list[str] = []
        self.state: list[str] = []
        self.p: list[float] = []
        self.parents: list[list[tuple[int, float]]] = []
        self.anchor: list[float] = []
        self.page: list[int | None] = []
        self.children: dict[int, list[int]] = {}
        self.pr: list[float] = []
        self.unsolved = 1.0

    def intern(self, url: str) -> int:
        if url in self.urls:
            return self.urls.index(url)
        self.urls.append(url)
        self.state.append("new")
        self.p.append(0.0)
        self.parents.append([])
        self.anchor.append(0.0)
        self.page.append(None)
        return len(self.urls) - 1

    def host_id(self, link: int) -> int:
        hosts = list(dict.fromkeys(host_of(u) for u in self.urls))
        return hosts.index(host_of(self.urls[link]))

    def score(self, link: int) -> float:
        sum_pr = sum_r = 0.0
        for page, relevance in self.parents[link]:
            sum_pr += self.pr[page] if page < len(self.pr) else self.unsolved
            sum_r += relevance
        return float(priority(sum_pr, sum_r, len(self.parents[link]), self.anchor[link], R))

    def links(self, state: str) -> list[int]:
        return [link for link, s in enumerate(self.state) if s == state]

    def enter(self, link: int) -> None:
        if self.beta is None or self.p[link] > self.beta:
            self.state[link] = "queued"
            return
        self.state[link] = "pool"
        pool = self.links("pool")
        if len(pool) > self.keep:
            self.state[min(pool, key=lambda x: (self.p[x], -x))] = "dropped"

    def add_seed(self, url: str) -> None:
        link = self.intern(url)
        if self.state[link] == "new":
            self.p[link] = 1.0
            self.state[link] = "queued"

    def add_parent(self, link: int, page: int, relevance: float, anchor: float) -> None:
        self.parents[link].append((page, relevance))
        self.anchor[link] = anchor
        self.children.setdefault(page, []).append(link)
        p = self.score(link)
        state, self.p[link] = self.state[link], p
        queue = self.beta is None or p > self.beta
        moves = {"new": True, "queued": not queue, "pool": queue, "dropped": True}
        if moves.get(state, False):
            self.enter(link)

    def set_pagerank(self, ranks: list[float]) -> None:
        peak = max(ranks)
        self.pr = [x / peak for x in ranks]
        self.unsolved = 1.0 / peak
        for link in self.unvisited():
            if self.parents[link]:
                self.p[link] = self.score(link)
        self.partition()

    def set_beta(self, beta: float) -> None:
        self.beta = beta
        self.partition()

    def unvisited(self) -> list[int]:
        return [x for x, s in enumerate(self.state) if s in ("queued", "pool", "dropped")]

    def partition(self) -> None:
        unvisited = self.unvisited()
        rest = []
        for link in unvisited:
            if self.beta is None or self.p[link] > self.beta:
                self.state[link] = "queued"
            else:
                rest.append(link)
        rest.sort(key=lambda x: (-self.p[x], x))
        for i, link in enumerate(rest):
            self.state[link] = "pool" if i < self.keep else "dropped"

    def best(self, exclude=()) -> int | None:
        queued = [x for x in self.links("queued") if x not in exclude]
        return min(queued, key=lambda x: (-self.p[x], x), default=None)

    def oldest(self) -> int | None:
        return min(self.links("queued"), default=None)

    def queued_children(self, page: int, skip_hosts: set[str] = frozenset()) -> list[int]:
        found = [
            x
            for x in self.children.get(page, [])
            if self.state[x] == "queued" and host_of(self.urls[x]) not in skip_hosts
        ]
        return list(dict.fromkeys(found))

    def first_parent(self, link: int) -> int | None:
        return self.parents[link][0][0] if self.parents[link] else None

    def best_outside(self, hosts: set[int]) -> int | None:
        queued = [x for x in self.links("queued") if self.host_id(x) not in hosts]
        return min(queued, key=lambda x: (-self.p[x], x), default=None)

    def pool_best(self) -> int | None:
        return min(self.links("pool"), key=lambda x: (-self.p[x], x), default=None)

    def pool_best_new_hosts(self, n: int) -> list[int]:
        queued_hosts = {self.host_id(x) for x in self.links("queued")}
        best: dict[int, int] = {}
        for link in sorted(self.links("pool"), key=lambda x: (-self.p[x], x)):
            best.setdefault(self.host_id(link), link)
        hosts = sorted(best.items(), key=lambda hl: (-self.p[hl[1]], hl[1]))
        return [link for host, link in hosts if host not in queued_hosts][:n]


class FrontierMachine(RuleBasedStateMachine):
    beta: float | None = 0.3
    keep = 3
    few_queued = Frontier.few_queued  # a page's queued links sifted in Python up to it

    @initialize()
    def start(self) -> None:
        self.real = Frontier(R, self.beta, self.keep, pagerank_scale="max")
        self.real.few_queued = self.few_queued
        self.model = NaiveFrontier(self.beta, self.keep)
        self.pages = 2  # pages 0 and 1 exist from the start (seed pages)
        self.rng = random.Random(7)

    @rule(url=st.sampled_from(URLS))
    def add_seed(self, url: str) -> None:
        self.real.add_seed(url)
        self.model.add_seed(url)

    @rule(
        url=st.sampled_from(URLS),
        data=st.data(),
        relevance=st.sampled_from(SCORES),
        anchor=st.sampled_from(SCORES),
    )
    def add_parent(self, url: str, data, relevance: float, anchor: float) -> None:
        page = data.draw(st.integers(0, self.pages - 1))
        link = self.real.intern(url)
        assert link == self.model.intern(url)
        p = self.real.add_parent(link, page, relevance, anchor, edge_relevance=anchor / 2)
        self.model.add_parent(link, page, relevance, anchor)
        assert p == self.model.p[link]

    @rule(data=st.data())
    def take_best(self, data) -> None:
        exclude = set(data.draw(st.lists(st.sampled_from(range(len(URLS))), max_size=3)))
        link = self.real.best(exclude=exclude)
        assert link == self.model.best(exclude)
        if link is not None:
            self.take(link)

    @rule()
    def take_oldest(self) -> None:
        link = self.real.oldest()
        assert link == self.model.oldest()
        if link is not None:
            self.take(link)

    @rule()
    def take_random(self) -> None:
        link = self.real.random_queued(self.rng)
        if link is None:
            assert not self.model.links("queued")
        else:
            assert self.model.state[link] == "queued"
            self.take(link)

    @rule(data=st.data())
    def take_best_child(self, data) -> None:
        """A page's waiting links, but those of hosts a test leaves out (hosts that wait)."""
        page = data.draw(st.integers(0, self.pages - 1))
        hosts = sorted({host_of(url) for url in self.model.urls})
        skip = set(data.draw(st.lists(st.sampled_from(hosts), max_size=2))) if hosts else set()
        children = self.real.queued_children(page, skip)
        assert children == self.model.queued_children(page, skip)
        link = self.real.best_of(children)
        assert link == self.model.best(exclude=set(self.model.links("queued")) - set(children))
        assert self.real.best_child(page, skip) == link
        if link is not None:
            self.take(link)

    @rule(data=st.data())
    def parents_of_a_link(self, data) -> None:
        link = data.draw(st.integers(0, len(self.model.urls))) if self.model.urls else None
        if link is not None and link < len(self.model.urls):
            assert self.real.edges.first_parent(link) == self.model.first_parent(link)
            page = self.model.first_parent(link)
            children = self.model.queued_children(page) if page is not None else []
            expected = self.model.best(exclude=set(self.model.links("queued")) - set(children))
            assert self.real.best_child(page) == (expected if children else None)
            assert self.real.edges.parents(link) == [page for page, _ in self.model.parents[link]]

    @rule(data=st.data())
    def take_best_outside_hosts(self, data) -> None:
        hosts = sorted({host_of(url) for url in self.model.urls})
        excluded = set(data.draw(st.lists(st.sampled_from(hosts), max_size=3))) if hosts else set()
        link = self.real.best_outside(excluded)
        ids = {self.model.host_id(x) for x in range(len(self.model.urls))
               if host_of(self.model.urls[x]) in excluded}  # fmt: skip
        assert link == self.model.best_outside(ids)
        if link is not None:
            self.take(link)

    def take(self, link: int) -> None:
        self.real.take(link)
        self.model.state[link] = "taken"

    @precondition(lambda self: self.model.links("taken"))
    @rule(data=st.data(), fetched=st.booleans())
    def visit(self, data, fetched: bool) -> None:
        link = data.draw(st.sampled_from(self.model.links("taken")))
        page = self.pages if fetched else None
        self.real.visited(link, page)
        self.model.state[link] = "visited"
        if fetched:
            self.pages += 1
            assert self.real.page_of(link) == page

    @precondition(lambda self: self.model.links("taken"))
    @rule(data=st.data())
    def put_back(self, data) -> None:
        link = data.draw(st.sampled_from(self.model.links("taken")))
        self.real.put_back(link)
        self.model.state[link] = "queued"

    @rule(n=st.integers(1, 3))
    def promote_new_hosts(self, n: int) -> None:
        links = self.real.pool_best_new_hosts(n)
        assert links == self.model.pool_best_new_hosts(n)
        for link in links:
            self.real.promote(link)
            self.model.state[link] = "queued"

    @rule()
    def promote_pool_best(self) -> None:
        link = self.real.pool_best()
        assert link == self.model.pool_best()
        if link is not None:
            self.real.promote(link)
            self.model.state[link] = "queued"

    @rule(data=st.data())
    def pagerank(self, data) -> None:
        solved = data.draw(st.integers(1, self.pages))  # pages found since stay unsolved
        ranks = data.draw(
            st.lists(st.sampled_from([0.15, 0.5, 1.0, 2.0, 3.5]), min_size=solved, max_size=solved)
        )
        self.real.set_pagerank(np.array(ranks))
        self.model.set_pagerank(ranks)

    @precondition(lambda self: self.beta is not None)
    @rule(beta=st.sampled_from([0.05, 0.2, 0.3, 0.6]))
    def set_beta(self, beta: float) -> None:
        self.real.set_beta(beta)
        self.model.set_beta(beta)

    @invariant()
    def same_states_and_priorities(self) -> None:
        if not hasattr(self, "real"):
            return
        model = self.model
        assert [self.real.state(x) for x in range(len(self.real))] == model.state
        assert [self.real.priority(x) for x in range(len(self.real))] == model.p
        assert self.real.queued_count() == len(model.links("queued"))
        assert self.real.pool_count() == len(model.links("pool"))
        queued_hosts = {host_of(model.urls[x]) for x in model.links("queued")}
        assert self.real.queued_host_count() == len(queued_hosts)
        assert self.real.best() == model.best()
        assert self.real.oldest() == model.oldest()


class SiftByIsinMachine(FrontierMachine):
    few_queued = 0  # every page's links sifted by np.isin, as a hub's are


class BreadthFirstMachine(FrontierMachine):
    beta = None  # no β filter: every link waits in Q_wait


class NoPoolMachine(FrontierMachine):
    keep = 0  # every link at or below β is dropped at once


for machine in (FrontierMachine, SiftByIsinMachine, BreadthFirstMachine, NoPoolMachine):
    machine.TestCase.settings = settings(max_examples=300, stateful_step_count=40, deadline=None)

TestFrontier = FrontierMachine.TestCase
TestSiftByIsin = SiftByIsinMachine.TestCase
TestBreadthFirst = BreadthFirstMachine.TestCase
TestNoPool = NoPoolMachine.TestCase


def test_random_draw_is_uniform() -> None:
    frontier = Frontier(R, beta=None)
    for url in URLS[:6]:
        frontier.add_seed(url)
    frontier.take(2)
    rng = random.Random(3)
    draws = [frontier.random_queued(rng) for _ in range(6000)]
    counts = np.bincount(draws, minlength=6)
    assert counts[2] == 0
    # 5 links, 1200 draws expected each; chi-square with 4 degrees of freedom < 18.5 (p = 0.001)
    chi2 = float((((counts[[0, 1, 3, 4, 5]] - 1200) ** 2) / 1200).sum())
    assert chi2 < 18.5


def test_moves_from_the_wrong_state_are_refused() -> None:
    frontier = Frontier(R)
    link = frontier.add_seed(URLS[0])
    with pytest.raises(FrontierError, match="cannot be put back"):
        frontier.put_back(link)
    frontier.take(link)
    with pytest.raises(FrontierError, match="cannot be taken"):
        frontier.take(link)
    with pytest.raises(FrontierError, match="not in the pool"):
        frontier.promote(link)
    frontier.visited(link, 0)
    with pytest.raises(FrontierError, match="cannot be marked visited"):
        frontier.visited(link, 1)


def test_in_links_carry_the_edge_anchor_relevance() -> None:
    frontier = Frontier(R)
    link = frontier.intern("http://a.cn/x")
    frontier.add_parent(link, 4, 0.5, 0.2, edge_relevance=0.2)
    frontier.add_parent(link, 9, 0.7, 0.6, edge_relevance=0.9)
    assert frontier.edges.in_links(link) == ([4, 9], [0.2, 0.9])
    assert frontier.edges.children(9) == [link]
    assert frontier.host_of(link) == "a.cn" and frontier.url_of(link) == "http://a.cn/x"
    assert frontier.link_id("http://a.cn/x") == link and frontier.link_id("http://b.cn/") is None


def test_percentile_pagerank_term_by_hand() -> None:
    frontier = Frontier(R, beta=0.19)  # the default scale: PR's percentile among pages
    link = frontier.intern("http://a.cn/x")
    # before any solve every page counts as rank 1, the median: P = 0.55·0.5 + 0.25·0.4 + 0.2·0.5
    assert frontier.add_parent(link, 0, 0.4, 0.5) == pytest.approx(0.475)
    # ranks (4, 1, 0.5): page 0 is above 2 of 3 pages and ties itself, (2 + 3) / 6 = 5/6;
    # a hub does not push the other pages to 0 as PR/max would
    frontier.set_pagerank(np.array([4.0, 1.0, 0.5]))
    assert frontier.priority(link) == pytest.approx(0.55 * 5 / 6 + 0.1 + 0.1)


def test_priority_by_hand_before_and_after_pagerank() -> None:
    frontier = Frontier(R, beta=0.19, pagerank_scale="max")
    link = frontier.intern("http://a.cn/x")
    # before any solve PR/max PR = 1: P = 0.55·1 + 0.25·0.4 + 0.20·0.5 = 0.75
    assert frontier.add_parent(link, 0, 0.4, 0.5) == pytest.approx(0.75)
    # second parent, R = 0.8, R(A_l) now 0.3: P = 0.55·1 + 0.25·0.6 + 0.20·0.3 = 0.76
    assert frontier.add_parent(link, 1, 0.8, 0.3) == pytest.approx(0.76)
    # ranks (4, 1) → PR/max = (1, 0.25), mean 0.625: P = 0.34375 + 0.15 + 0.06 = 0.55375
    frontier.set_pagerank(np.array([4.0, 1.0]))
    assert frontier.priority(link) == pytest.approx(0.55375)
    # ranks (0.5, 4): PR/max = (0.125, 1)... page 2 unsolved counts 1/4
    frontier.set_pagerank(np.array([0.5, 4.0]))
    assert frontier.priority(link) == pytest.approx(0.55 * 0.5625 + 0.15 + 0.06)
    other = frontier.intern("http://b.cn/y")
    # R = 0, R(A) = 0, parent page 2 not solved yet: PR/max = 1/4 → P = 0.1375 ≤ β: pool
    assert frontier.add_parent(other, 2, 0.0, 0.0) == pytest.approx(0.1375)
    assert frontier.state(other) == "pool"


def test_ties_keep_the_older_links() -> None:
    # five links with the same P = 0.55·1 + 0 + 0 = 0.55 ≤ β = 0.6, pool of 2
    frontier = Frontier(R, beta=0.6, discard_keep=2, pagerank_scale="max")
    links = [frontier.intern(url) for url in URLS[:5]]
    for link in links:
        frontier.add_parent(link, 0, 0.0, 0.0)
    # on arrival the newest of the lowest is evicted
    assert [frontier.state(x) for x in links] == ["pool"] * 2 + ["dropped"] * 3
    frontier.set_pagerank(np.array([2.0]))  # P = 0.55·1 again: the same tie, rebuilt
    assert [frontier.state(x) for x in links] == ["pool"] * 2 + ["dropped"] * 3
    frontier.set_pagerank(np.array([1.0]))
    frontier.promote(links[1])
    frontier.promote(links[0])
    assert frontier.best() == links[0] and frontier.oldest() == links[0]


def test_the_scoring_flow_of_the_module_docstring(jieba_words) -> None:
    """Two real pages through analysis, R(p), BM25 anchors, the frontier and PageRank."""
    from kgcrawl.scoring.anchors import AnchorScorer, CorpusStats
    from kgcrawl.scoring.pagerank import PageRankGraph
    from kgcrawl.scoring.relevance import page_relevance
    from kgcrawl.text.analysis import analyse_page
    from kgcrawl.text.matching import TopicMatcher

    matcher = TopicMatcher([["暴雨"], ["洪水"], ["天气"]])
    w_t = np.array([1.0, 0.5, 0.25])  # ‖W_T‖ = √1.3125 = 1.145644
    frontier = Frontier(R, beta=0.19, pagerank_scale="max")  # the paper's PR / max PR
    stats = CorpusStats.empty(3)
    anchors, graph = AnchorScorer(w_t, stats), PageRankGraph()
    site = {
        "http://a.cn/": "<title>暴雨</title><p>暴雨 洪水</p><a href=/b>洪水</a>"
        "<a href=http://c.cn/>更多</a>",
        "http://a.cn/b": "<p>洪水</p><a href=/>暴雨首页</a><a href=http://c.cn/>天气</a>",
    }

    def download(link: int) -> float:
        frontier.take(link)
        page = graph.add_page()
        frontier.visited(link, page)
        parents, edge_ra = frontier.edges.in_links(link)
        graph.add_edges(parents, [page] * len(parents), edge_ra)
        url = frontier.url_of(link)
        analysis = analyse_page(site[url].encode(), url, matcher)
        relevance = page_relevance(analysis.counts, w_t)
        stats.add_page(analysis.present, analysis.length)
        for out, counts in zip(analysis.links, analysis.anchor_counts, strict=True):
            child = frontier.intern(out.url)
            link_ra, edge = anchors.add_anchor(child, counts, analysis.length)
            frontier.add_parent(child, page, relevance, link_ra, edge)
            if frontier.page_of(child) is not None:
                graph.add_edges([page], [frontier.page_of(child)], [edge])
        return relevance

    frontier.add_seed("http://a.cn/")
    # page a: 暴雨 in title and <p> → 2.0 + 1.0 = 3; 洪水 in <p> and the anchor → 1.0 + 0.2
    # W_D = (3, 1.2, 0): R = (3 + 0.6) / (1.145644 · 3.231099 = 3.701684) = 0.972529
    r_a = download(frontier.best())
    assert r_a == pytest.approx(0.972529, abs=1e-6)
    b, c = frontier.link_id("http://a.cn/b"), frontier.link_id("http://c.cn/")
    # anchor 洪水 holds word 1 only: R(A) = 0.5 / 1.145644 = 0.436436; 更多: R(A) = 0
    # before any PageRank solve PR/max = 1: P(b) = 0.55 + 0.25·0.972534 + 0.2·0.436436
    assert frontier.priority(b) == pytest.approx(0.55 + 0.25 * r_a + 0.2 * 0.436436, abs=1e-6)
    assert frontier.priority(c) == pytest.approx(0.55 + 0.25 * r_a)
    assert frontier.best() == b
    r_b = download(b)
    # a → b (in-link of b) and b → a (b links to the downloaded page a); c has two parents
    assert graph.edges == 2 and frontier.edges.parents(c) == [0, 1]
    frontier.set_pagerank(graph.solve().ranks)  # a ⇄ b: ranks (1, 1)
    # c: anchors 更多 and 天气 (word 2): R(A) = 0.25 / 1.145644 = 0.218218
    expected = 0.55 * 1.0 + 0.25 * (r_a + r_b) / 2 + 0.2 * 0.218218
    assert frontier.priority(c) == pytest.approx(expected, abs=1e-6)
    assert frontier.queued_count() == 1 and frontier.best() == c


def test_parent_edges_past_their_first_columns_match_a_plain_list() -> None:
    """3 000 edges (the columns start at 1 024) and link ids up to 5 000: every link's
    parents, first parent and Σ by page as a plain list of the edges gives them."""
    from kgcrawl.crawl.parent_edges import ParentEdges

    rng = random.Random(3)
    found = [(rng.randrange(5_000), rng.randrange(300), rng.random()) for _ in range(3_000)]
    edges = ParentEdges()
    for link, page, anchor in found:
        edges.add(link, page, anchor)
    by_page = np.array([rng.random() for _ in range(200)])  # pages 200+ not solved: 0.5
    sums = edges.sum_by_link(by_page, 0.5, 5_000)
    for link in {link for link, _, _ in found} | {4_999}:
        mine = [(page, anchor) for other, page, anchor in found if other == link]
        assert edges.in_links(link) == ([p for p, _ in mine], [a for _, a in mine])
        assert edges.first_parent(link) == (mine[0][0] if mine else None)
        expected = sum(by_page[p] if p < 200 else 0.5 for p, _ in mine)
        assert sums[link] == pytest.approx(expected)
    assert len(edges) == 3_000 and edges.children(299) == [k for k, p, _ in found if p == 299]
