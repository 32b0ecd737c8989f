"""Outcomes per second the one scheduler sustains, its workers replaced by a replay (issue 17).

python benchmarks/bench_scheduler.py [--strategies ops fcits_oh bfs] [--pages 2000]
                                     [--workers 8] [--rounds 2] [--profile ops]

The scheduler is the real engine loop (crawl/engine.py with crawl/dispatch.py):
strategy selection, the ready queues, Crawl.fold with PageRank on (r1 = 0.1, a
solve every 100 pages), the run log in SQLite with its checkpoints. Only the
workers are replaced, by `ReplayWorkers`, which answer every URL at once with
the outcome a real fetch and analysis gave it:
  record  a crawl of the default sandbox world (served here on loopback) through
          the same engine, whose replay fetches and analyses each URL it does not
          know yet (trials.OutcomeCache), so the outcomes are a real run's;
  measure the same crawl again (same seed, so the same sequence), every answer
          from the cache: outcomes / wall seconds of Engine.run, and outcomes per
          CPU second of this process (the figure that holds on a shared machine).
The records are kept in KGCRAWL_CACHE (or /tmp) per strategy and page count.
Rounds interleave the strategies (A B A B). `--profile STRATEGY` prints the
cProfile of one measured run, the top functions by own time and by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pickle
import pstats
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path

from kgcrawl.config import Settings, load_settings
from kgcrawl.crawl.analyse import StageTimes, analyse_result
from kgcrawl.crawl.engine import Engine, start_run
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.trials import OutcomeCache
from kgcrawl.crawl.workers import Done, fetch_and_analyse


class ReplayWorkers:
    """Workers that answer at once from an OutcomeCache (no thread, no I/O when recorded)."""

    def __init__(self, cache: OutcomeCache, capacity: int) -> None:
        self.cache = cache
        self.capacity = capacity

    def submit(self, url: str, extractor: str) -> Future[Done]:
        future: Future[Done] = Future()
        future.set_result(Done(self.cache(url, extractor), 0.0))
        return future

    def close(self) -> None:
        pass


def settings_for(strategy: str, pages: int, workers: int) -> Settings:
    from kgcrawl.calibrate import resolve_thresholds

    values = {"crawl.strategy": strategy, "crawl.max_pages": pages, "crawl.workers": workers,
              "fetch.delay": 0.0, "graph.uri": "none", "crawl.seed": 1}  # fmt: skip
    return resolve_thresholds(load_settings("tourism", values))


def run(settings: Settings, cache: OutcomeCache) -> tuple[int, float, float]:
    """One crawl through the engine with replayed workers: outcomes, wall and CPU seconds."""
    state = start_run(settings)
    engine = Engine(settings, state, workers=ReplayWorkers(cache, settings.crawl.workers))
    start, cpu = time.perf_counter(), time.process_time()
    result = engine.run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    state.close()
    return result.outcomes, seconds, cpu


def recorded(settings: Settings, store: Path) -> OutcomeCache:
    """The outcomes of one real crawl with these settings, recorded once and kept in `store`."""
    if store.exists():
        cache = OutcomeCache(_missing)
        cache.outcomes = pickle.loads(store.read_bytes())
        return cache
    from kgcrawl.crawl.addresses import parse_resolve
    from kgcrawl.crawl.engine import topic_for
    from kgcrawl.sandbox.server import SandboxServer
    from kgcrawl.sandbox.world import World
    from kgcrawl.scoring.relevance import topic_matcher

    matcher = topic_matcher(topic_for(settings))
    with SandboxServer(World(0, "default")) as server:
        fetcher = Fetcher(settings.fetch, parse_resolve(tuple(server.resolve)))

        def analyse(url: str, result, extractor: str) -> Outcome:
            return analyse_result(url, result, matcher, extractor=extractor)

        def fetch(url: str, extractor: str) -> Outcome:
            return fetch_and_analyse(fetcher, url, extractor, analyse, StageTimes()).outcome

        cache = OutcomeCache(fetch)
        run(settings, cache)
    store.write_bytes(pickle.dumps(cache.outcomes))
    return cache


def _missing(url: str, extractor: str) -> Outcome:
    raise KeyError(f"{url} was not recorded: the replay left the recorded sequence")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", nargs="+", default=["ops", "fcits_oh", "bfs"])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile", default=None, help="a strategy to profile once")
    args = parser.parse_args()
    os.environ.setdefault("KGCRAWL_HOME", tempfile.mkdtemp(prefix="kgcrawl-bench-sched-"))
    cache_dir = Path(os.environ.get("KGCRAWL_CACHE", tempfile.gettempdir()))
    caches = {}
    for strategy in args.strategies:
        settings = settings_for(strategy, args.pages, args.workers)
        # v2: outcomes keyed by (url, main-text extractor), as OutcomeCache keeps them
        store = cache_dir / f"bench-scheduler-v2-{strategy}-{args.pages}-{args.workers}.pickle"
        started = time.perf_counter()
        caches[strategy] = (settings, recorded(settings, store))
        print(f"{strategy}: {len(caches[strategy][1])} outcomes recorded "
              f"({time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
    print(f"{args.pages} pages, {args.workers} slots, PageRank every 100 pages")
    for _ in range(args.rounds):
        for strategy, (settings, cache) in caches.items():
            outcomes, seconds, cpu = run(settings, cache)
            print(f"  {strategy:9s} {outcomes:6d} outcomes {seconds:6.2f} s "
                  f"{outcomes / seconds:7.0f} outcomes/s  {outcomes / cpu:7.0f} per CPU-s",
                  flush=True)  # fmt: skip
    if args.profile:
        settings, cache = caches[args.profile]
        profiler = cProfile.Profile()
        profiler.enable()
        run(settings, cache)
        profiler.disable()
        stats = pstats.Stats(profiler)
        for order in ("tottime", "cumulative"):
            print(f"\n{args.profile}: top functions by {order}")
            stats.sort_stats(order).print_stats(18)


if __name__ == "__main__":
    main()
