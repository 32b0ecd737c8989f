"""A sandbox crawl on Ray against the same crawl on the local executor (issue 17's acceptance).

python benchmarks/bench_ray.py [--pages 600] [--workers 8] [--strategy fcits_oh] [--rounds 2]

One local Ray cluster is started for the whole benchmark (`ray.init(num_cpus=2)`,
as on this 2-core machine), the default sandbox world is served by a child
process, and the two executors crawl it in turn (local, ray, local, ray, …), delay
0, same workers, same seed. Printed per crawl: pages/s over the steady part (from
the 10th percent of outcomes to the last, so neither Ray's actor start nor the
local analyser start counts) and over the whole Engine.run; then ray ÷ local.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from kgcrawl.config import load_settings
from kgcrawl.runner import CrawlRequest, crawl, sandbox_process


def one_crawl(executor: str, resolve: list[str], args: argparse.Namespace) -> tuple[float, float]:
    """(steady pages/s, whole-run pages/s) of one crawl."""
    values = {"crawl.max_pages": args.pages, "crawl.workers": args.workers,
              "crawl.strategy": args.strategy, "fetch.delay": 0.0, "graph.uri": "none"}  # fmt: skip
    stamps: list[tuple[float, int]] = []

    def seen(outcome) -> None:
        stamps.append((time.monotonic(), int(outcome.downloaded)))

    request = CrawlRequest(resolve=tuple(resolve), executor=executor)
    result = crawl(load_settings("tourism", values), request, on_outcome=seen)
    start = len(stamps) // 10
    pages = sum(downloaded for _, downloaded in stamps[start + 1 :])
    steady = pages / (stamps[-1][0] - stamps[start][0])
    return steady, result.dp / result.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--strategy", default="fcits_oh")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("KGCRAWL_HOME", tempfile.mkdtemp(prefix="kgcrawl-bench-ray-"))
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    rates: dict[str, list[float]] = {"local": [], "ray": []}
    print(f"{args.strategy}, {args.pages} pages, {args.workers} workers, default world, delay 0")
    with sandbox_process(0, "default") as resolve:
        for _ in range(args.rounds):
            for executor in ("local", "ray"):
                steady, whole = one_crawl(executor, resolve, args)
                rates[executor].append(steady)
                print(f"  {executor:5s} steady {steady:6.1f} pages/s   whole run {whole:6.1f} "
                      "pages/s", flush=True)  # fmt: skip
    ray.shutdown()
    local, remote = statistics.median(rates["local"]), statistics.median(rates["ray"])
    print(f"median steady pages/s: local {local:.1f}, ray {remote:.1f}: ray ÷ local "
          f"{remote / local:.2f} (acceptance ≥ 0.8)")  # fmt: skip


if __name__ == "__main__":
    main()
