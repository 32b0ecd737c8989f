"""Frontier budgets at 10⁶ links (issue 5): insert and pop-best ≤ 20 µs amortised,
full re-scoring ≤ 1 s, ≤ 1.5 GB RSS with 10⁶ queued links.

10⁶ links on 2 000 hosts found on 15 000 pages, 1.3 parents each (each parent
is one `intern` + `add_parent`, the engine's insert), then a PageRank vector
re-scores them all (`set_pagerank`), then 10⁵ best-first selections (`best` +
`take`).

    /work/venv/bin/python benchmarks/bench_frontier.py
"""

from __future__ import annotations

import resource
import time

import numpy as np


def main(links: int = 1_000_000, pages: int = 15_000, hosts: int = 2_000) -> None:
    from kgcrawl.crawl.frontier import Frontier

    rng = np.random.default_rng(9)
    frontier = Frontier(beta=0.19, discard_keep=200_000)
    urls = [
        f"http://h{i % hosts}.example.com/section/{i // hosts}/page-{i}.html" for i in range(links)
    ]
    parent_of = rng.integers(0, pages, size=2 * links).tolist()
    relevance = rng.random(2 * links).tolist()
    anchor = (rng.random(2 * links) ** 3).tolist()
    second = rng.random(links) < 0.3

    start = time.perf_counter()
    inserts = 0
    for i, url in enumerate(urls):
        link = frontier.intern(url)
        frontier.add_parent(link, parent_of[i], relevance[i], anchor[i], anchor[i])
        inserts += 1
        if second[i]:
            j = links + i
            link = frontier.intern(urls[(i * 7919) % (i + 1)])
            frontier.add_parent(link, parent_of[j], relevance[j], anchor[j], anchor[j])
            inserts += 1
    insert_time = time.perf_counter() - start
    queued = frontier.queued_count()
    rss_queued = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    ranks = rng.pareto(1.5, pages) + 0.15
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        frontier.set_pagerank(ranks)
        timings.append(time.perf_counter() - start)
        ranks = ranks * rng.uniform(0.8, 1.25, pages)
    after = frontier.queued_count(), frontier.pool_count()

    selections = 100_000
    start = time.perf_counter()
    for _ in range(selections):
        link = frontier.best()
        frontier.take(link)
    pop_time = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"links {len(frontier):,}, parent edges {inserts:,}, queued before re-scoring {queued:,}")
    print(
        f"insert (intern + add_parent): {insert_time / inserts * 1e6:.1f} µs amortised (budget 20)"
    )
    print(f"peak RSS with {queued:,} queued links: {rss_queued:.0f} MB (budget 1 536)")
    print(
        f"re-scoring all {len(frontier):,} links: "
        + ", ".join(f"{t:.2f} s" for t in timings)
        + f" (budget 1 s); then Q_wait {after[0]:,}, pool {after[1]:,}"
    )
    print(f"pop-best (best + take): {pop_time / selections * 1e6:.1f} µs amortised (budget 20)")
    print(f"peak RSS at the end: {rss:.0f} MB")


if __name__ == "__main__":
    main()
