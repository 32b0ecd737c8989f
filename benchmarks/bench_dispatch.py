"""In-flight occupancy of a crawl with several workers (issue 19 item 0), old tree beside new.

python benchmarks/bench_dispatch.py [--trees OLD_TREE .] [--strategies bfs fcits_oh]
                                    [--pages 600] [--workers 8] [--rounds 2]

Each crawl runs in a child process with PYTHONPATH set to one source tree (so an
older checkout can be measured beside this one), against the default sandbox
world (slow hosts answer after 0.5 s) served from this process, delay 0. Printed:
  slots busy  the time-weighted mean of worker slots at work (fetch + analyse of
              one URL), measured in the child by wrapping the per-URL work function
              (`Engine._work` in the old tree, `LocalWorkers.work` in the new)
  pages/s     DP / the crawl's seconds
  max/host    the most requests one host ever had at once, seen by the server (must be 1)
Trees and strategies are interleaved round by round (A B A B).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from kgcrawl.sandbox.server import Access, SandboxServer
from kgcrawl.sandbox.world import World

CHILD = """
import json, sys, threading, time
from kgcrawl.config import load_settings
from kgcrawl.runner import CrawlRequest, crawl
sys.path.insert(0, {bench!r})
from bench_dispatch import Busy
busy = Busy()
try:
    from kgcrawl.crawl.workers import LocalWorkers as owner
    name = "work"
except ImportError:
    from kgcrawl.crawl.engine import Engine as owner
    name = "_work"
setattr(owner, name, busy.wrap(getattr(owner, name)))
settings = load_settings("tourism", {{"crawl.max_pages": {pages}, "crawl.workers": {workers},
    "crawl.strategy": {strategy!r}, "fetch.delay": 0.0, "graph.uri": "none"}})
result = crawl(settings, CrawlRequest(resolve=({resolve!r},)))
print(json.dumps({{"busy": busy.mean(), "rate": result.dp / result.seconds}}))
"""


class Busy:
    """Σ over time of slots at work, by wrapping the function one slot runs per URL."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.level, self.area = 0, 0.0
        self.first = self.last = None

    def _step(self, change: int) -> None:
        with self.lock:
            now = time.monotonic()
            if self.first is None:
                self.first = self.last = now
            self.area += self.level * (now - self.last)
            self.level += change
            self.last = now

    def wrap(self, work):
        def wrapped(*args, **kwargs):
            self._step(1)
            try:
                return work(*args, **kwargs)
            finally:
                self._step(-1)

        return wrapped

    def mean(self) -> float:
        return self.area / (self.last - self.first) if self.first is not None else 0.0


def crawl(tree: Path, resolve: str, strategy: str, pages: int, workers: int) -> dict:
    home = tempfile.mkdtemp(prefix="kgcrawl-bench-dispatch-")
    env = {**os.environ, "PYTHONPATH": str(tree), "KGCRAWL_HOME": home}
    code = CHILD.format(bench=str(Path(__file__).parent), pages=pages, workers=workers,
                        strategy=strategy, resolve=resolve)  # fmt: skip
    # `python -c` puts its working directory first on sys.path: run it in the tree
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                         text=True, timeout=1800, cwd=tree).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def max_per_host(log: list[Access]) -> int:
    """The most requests of one host served at once (a sweep over starts and ends)."""
    events: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for a in log:
        events[a.host] += [(a.start, 1), (a.end, -1)]
    most = 0
    for marks in events.values():
        level = 0
        for _, step in sorted(marks, key=lambda m: (m[0], m[1])):  # an end before a start
            level += step
            most = max(most, level)
    return most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[Path.cwd()])
    parser.add_argument("--strategies", nargs="+", default=["bfs", "fcits_oh"])
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--size", default="default")
    args = parser.parse_args()
    with SandboxServer(World(0, args.size), log_size=200_000) as server:
        print(f"{args.size} world, {args.pages} pages, {args.workers} workers, delay 0")
        print(f"{'tree':28s} {'strategy':9s} {'slots busy':>10s} {'pages/s':>7s} {'max/host':>8s}")
        for _ in range(args.rounds):
            for strategy in args.strategies:
                for tree in args.trees:
                    server.clear_log()
                    got = crawl(tree, server.resolve[0], strategy, args.pages, args.workers)
                    most = max_per_host(server.access_log())
                    name = str(tree)[-28:]
                    print(f"{name:28s} {strategy:9s} {got['busy']:10.2f} {got['rate']:7.1f} "
                          f"{most:8d}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
