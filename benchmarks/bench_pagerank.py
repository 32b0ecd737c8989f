"""PageRank budget (issue 5): a solve on 15 000 pages / 300 000 links ≤ 0.3 s.

A crawl-like graph: out-degree 20 on average, targets drawn with a power law
(hubs), anchor relevance cubed-uniform (most anchors off topic). Cold solves
start from all ones; warm solves add 100 pages (the `pagerank_every` default)
with their links and start from the previous vector. Median of 5 rounds.

    /work/venv/bin/python benchmarks/bench_pagerank.py
"""

from __future__ import annotations

import statistics
import time

import numpy as np


def main(pages: int = 15_000, links: int = 300_000, rounds: int = 5) -> None:
    from kgcrawl.scoring.pagerank import PageRankGraph

    rng = np.random.default_rng(11)
    graph = PageRankGraph()
    for _ in range(pages):
        graph.add_page()
    src = rng.integers(0, pages, links)
    dst = np.minimum((rng.pareto(1.2, links) * 50).astype(np.int64), pages - 1)
    graph.add_edges(src, dst, rng.random(links) ** 3)
    graph.solve()  # imports scipy
    cold, warm, cold_iters, warm_iters = [], [], [], []
    for _ in range(rounds):
        start = time.perf_counter()
        result = graph.solve(warm=False)
        cold.append(time.perf_counter() - start)
        cold_iters.append(result.iterations)
        for _ in range(100):
            page = graph.add_page()
            graph.add_edges(rng.integers(0, page, 20), np.full(20, page), rng.random(20) ** 3)
            graph.add_edges(np.full(20, page), rng.integers(0, page, 20), rng.random(20) ** 3)
        graph.solve(warm=False)  # the state a warm solve starts from: the last solution
        for _ in range(100):
            page = graph.add_page()
            graph.add_edges(rng.integers(0, page, 20), np.full(20, page), rng.random(20) ** 3)
        start = time.perf_counter()
        result = graph.solve()
        warm.append(time.perf_counter() - start)
        warm_iters.append(result.iterations)
    print(
        f"PageRank on {graph.pages:,} pages / {graph.edges:,} links (tol 1e-10): "
        f"cold median {statistics.median(cold) * 1e3:.0f} ms ({statistics.median(cold_iters)} "
        f"iterations), warm median {statistics.median(warm) * 1e3:.0f} ms "
        f"({statistics.median(warm_iters)} iterations) (budget 300 ms)"
    )


if __name__ == "__main__":
    main()
