"""Crawl budgets of issue 6, on the sandbox web served by a child process.

python benchmarks/bench_crawl.py throughput [--pages 2000] [--workers 8]
    end-to-end pages/s at delay 0 (budget ≥ 60 with 8 workers), time per page by stage
python benchmarks/bench_crawl.py long [--pages 15000] [--workers 8]
    a 15 000-page fcits_oh crawl: wall time (budget ≤ 5 min) and peak RSS (≤ 2 GB)
python benchmarks/bench_crawl.py select [--queued 100000 1000000]
    strategy overhead per selection, median and p99, at |Q_wait| = 10^5 and 10^6
    (budget: p99 ≤ 1 ms for every strategy at 10^6)
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import tempfile
import time


def crawl_run(pages: int, workers: int, strategy: str, size: str, beta: float | None) -> None:
    os.environ.setdefault("KGCRAWL_HOME", tempfile.mkdtemp(prefix="kgcrawl-bench-"))
    from kgcrawl.config import load_settings
    from kgcrawl.runner import CrawlRequest, crawl, sandbox_process

    overrides = {
        "crawl.max_pages": pages,
        "crawl.workers": workers,
        "crawl.strategy": strategy,
        "fetch.delay": 0.0,
        "graph.uri": "none",
    }
    if beta is not None:
        overrides["relevance.beta"] = beta
    with sandbox_process(0, size) as resolve:
        result = crawl(load_settings("tourism", overrides), CrawlRequest(resolve=tuple(resolve)))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"{strategy}, {workers} workers, {size} world: {result.dp} pages "
        f"({result.outcomes} outcomes) in {result.seconds:.1f} s = "
        f"{result.dp / result.seconds:.1f} pages/s; LP {result.lp}; peak RSS {peak_mb:.0f} MB "
        f"(largest child process {child_mb:.0f} MB)"
    )
    print("time per downloaded page by stage (summed over workers):")
    for stage, seconds in sorted(result.stage_seconds.items(), key=lambda kv: -kv[1]):
        print(f"  {stage:16s} {seconds / max(result.dp, 1) * 1000:7.2f} ms")


def select_overhead(queued: int, strategies: list[str]) -> None:
    """Strategies selecting from a frontier of `queued` links over 1 000 hosts, 200 pages."""
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings
    from kgcrawl.crawl.core import Counters
    from kgcrawl.crawl.frontier import Frontier
    from kgcrawl.crawl.strategies.base import strategy_class
    from kgcrawl.ontology.topic import topic_model_for

    settings = resolve_thresholds(load_settings("tourism"))
    topic = topic_model_for(settings)
    concepts = len(topic.weights)
    rng = random.Random(0)
    for name in strategies:
        frontier = Frontier(beta=settings.relevance.beta)
        for page in range(200):  # downloaded pages, the parents
            link = frontier.add_seed(f"http://h{page % 1000}.cn/p{page}")
            frontier.take(link)
            frontier.visited(link, page)
        for i in range(queued):
            child = frontier.intern(f"http://h{i % 1000}.cn/a{i}")
            frontier.add_parent(child, i % 200, rng.random(), rng.random(), rng.random())
        counters = Counters(dp=200, max_pages=15000)
        strategy = strategy_class(name)(settings, random.Random(1), counters)
        strategy.use_topic(topic)
        times, fresh = [], queued
        for page in range(200, 2200):  # each selection downloads a page with 20 new links
            start = time.perf_counter()
            link = strategy.select(frontier)
            times.append(time.perf_counter() - start)
            if link is None:
                break
            frontier.visited(link, page)
            anchors = []  # each anchor names one concept of the ontology's upper quarter
            for _ in range(20):
                child = frontier.intern(f"http://h{fresh % 1000}.cn/a{fresh}")
                frontier.add_parent(child, page, rng.random(), rng.random(), rng.random())
                anchors.append((child, {rng.randrange(concepts) // 4: 1}))
                fresh += 1
            strategy.observe_anchors(page, anchors)
            strategy.observe(link, page, page % 3 == 0, rng.random())
        print(
            f"{name:9s} select at |Q_wait| ≈ {frontier.queued_count():,}: "
            f"median {statistics.median(times) * 1e3:.3f} ms, "
            f"p99 {sorted(times)[int(len(times) * 0.99)] * 1e3:.3f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("what", choices=("throughput", "long", "select"))
    parser.add_argument("--pages", type=int)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--strategy", default="fcits_oh")
    parser.add_argument("--size", default="default")
    parser.add_argument("--queued", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--beta", type=float, help="β instead of the pipeline's")
    args = parser.parse_args()
    if args.what == "select":
        for queued in args.queued:
            select_overhead(queued, ["ops", "fcsa", "fcts", "fcoits", "fcits_oh", "fcosa_g",
                                     "fcosa_lg", "moaco"])  # fmt: skip
    else:
        pages = args.pages or (2000 if args.what == "throughput" else 15000)
        crawl_run(pages, args.workers, args.strategy, args.size, args.beta)


if __name__ == "__main__":
    main()
