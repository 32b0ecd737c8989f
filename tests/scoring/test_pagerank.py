"""Topic PageRank (SPEC §4.4): networkx with R = 0, a dense solve with weights, warm start."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from kgcrawl.scoring.pagerank import PageRankGraph, normalised, topic_pagerank


def random_graph(seed: int, pages: int, links: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct links, self-links and pages without out-links (dangling) included."""
    rng = np.random.default_rng(seed)
    pairs = np.unique(rng.integers(0, pages, size=(links, 2)), axis=0)
    return pairs[:, 0], pairs[:, 1]


def dense_reference(pages, src, dst, relevance, damping, omega) -> np.ndarray:
    """Solve x = (1 − d)·1 + d·(W x + (dangling·x)/n) as one linear system."""
    w = np.zeros((pages, pages))
    for s, t, r in zip(src, dst, relevance, strict=True):
        w[t, s] += 1 + omega * r
    out = w.sum(axis=0)
    dangling = out == 0
    w[:, ~dangling] /= out[~dangling]
    w[:, dangling] = 1 / pages
    return np.linalg.solve(np.eye(pages) - damping * w, np.full(pages, 1 - damping))


@pytest.mark.parametrize(("seed", "pages", "links"), [(0, 30, 60), (1, 200, 900), (2, 50, 40)])
def test_without_anchor_relevance_it_is_networkx_scaled(seed: int, pages: int, links: int) -> None:
    src, dst = random_graph(seed, pages, links)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(pages))
    graph.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    expected = nx.pagerank(graph, alpha=0.85, tol=1e-13, max_iter=2000)
    result = topic_pagerank(pages, src, dst, np.zeros(len(src)), damping=0.85, tol=1e-13)
    assert result.converged
    # (1 − d) + d·Σ form = networkx's probabilities times the number of pages
    assert result.ranks == pytest.approx([expected[i] * pages for i in range(pages)], rel=1e-8)
    assert result.ranks.sum() == pytest.approx(pages)


@pytest.mark.parametrize(("damping", "omega"), [(0.85, 0.6), (0.5, 2.0)])
def test_with_anchor_relevance_it_matches_a_dense_solve(damping: float, omega: float) -> None:
    src, dst = random_graph(3, 60, 200)
    relevance = np.random.default_rng(4).random(len(src))
    result = topic_pagerank(60, src, dst, relevance, damping=damping, omega=omega, tol=1e-14)
    expected = dense_reference(60, src, dst, relevance, damping, omega)
    assert result.ranks == pytest.approx(expected, rel=1e-9)


def test_a_relevant_anchor_carries_more_rank_by_hand() -> None:
    # 0 → 1 with R = 1, 0 → 2 with R = 0, ω = 0.5: weights 1.5/2.5 = 0.6 and 1/2.5 = 0.4;
    # 1 → 0 and 2 → 0 (weight 1 each). No dangling pages. With d = 0.5:
    #   x0 = 0.5 + 0.5(x1 + x2),  x1 = 0.5 + 0.5·0.6·x0,  x2 = 0.5 + 0.5·0.4·x0
    #   → x0 = 0.5 + 0.5(1 + 0.5·x0) = 1 + 0.25·x0 → x0 = 4/3, x1 = 0.9, x2 = 23/30
    result = topic_pagerank(
        3,
        np.array([0, 0, 1, 2]),
        np.array([1, 2, 0, 0]),
        np.array([1.0, 0.0, 0.0, 0.0]),
        damping=0.5,
        omega=0.5,
        tol=1e-14,
    )
    assert result.ranks == pytest.approx([4 / 3, 0.9, 23 / 30])
    assert normalised(result.ranks) == pytest.approx([1.0, 0.675, 0.575])


def test_graph_builder_grows_and_warm_start_takes_fewer_iterations() -> None:
    rng = np.random.default_rng(5)
    graph = PageRankGraph()
    for _ in range(2000):
        graph.add_page()
    src, dst = random_graph(6, 2000, 20000)
    graph.add_edges(src, dst, rng.random(len(src)))
    first = graph.solve(tol=1e-12)
    # the crawl goes on: 20 more pages, their in- and out-links
    for _ in range(20):
        page = graph.add_page()
        parents = rng.integers(0, page, 5)
        graph.add_edges(parents, np.full(5, page), rng.random(5))
        graph.add_edges([page], [int(rng.integers(0, page))], [0.5])
    warm = graph.solve(tol=1e-12)
    cold = graph.solve(tol=1e-12, warm=False)
    assert first.converged and warm.converged and cold.converged
    assert (graph.pages, graph.edges) == (2020, len(src) + 120)
    assert warm.ranks == pytest.approx(cold.ranks, rel=1e-9)
    assert warm.iterations < cold.iterations


def test_empty_and_single_page_graphs() -> None:
    assert PageRankGraph().solve().ranks.tolist() == []
    graph = PageRankGraph()
    graph.add_page()
    assert graph.solve().ranks == pytest.approx([1.0])  # dangling: keeps its own rank
    assert normalised(np.zeros(0)).tolist() == []
