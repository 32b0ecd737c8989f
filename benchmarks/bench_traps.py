"""The trap guard (kgcrawl/crawl/trap_guard.py), measured: trap pages it saves, pages it costs.

Two parts, each crawl sequential (one worker, seed 0) through a shared outcome
cache (kgcrawl/crawl/trials.py), so the configurations of one world differ only
in their settings:

1. A world entered at a trap: the small sandbox world seeded with the events
   calendar of www.visitbeijing.com.cn and that host's home page. Every strategy
   crawls `--trap-pages` pages with each `--caps` value; printed: the calendar
   pages it fetched and the links the guard kept out.
2. Normal crawls: every sandbox profile (default, sparse, flat) with the shipped
   tourism pipeline, every strategy, `--max-pages` pages, guard off (cap 0) and
   at each cap: true harvest and truly relevant pages found, trap pages, links
   kept out.

    python benchmarks/bench_traps.py [--caps 0 50 100] [--trap-pages 300] [--max-pages 1000]
"""

from __future__ import annotations

import argparse
import time

from focus import PROFILES, outcome_cache, sandbox_world, settings_for

from kgcrawl.crawl.engine import topic_for
from kgcrawl.crawl.strategies.base import REGISTRY
from kgcrawl.crawl.trials import Trial, run_trial
from kgcrawl.sandbox.server import SandboxServer
from kgcrawl.sandbox.world import World

TRAP_HOST = "http://www.visitbeijing.com.cn"
TRAP_SEEDS = f"{TRAP_HOST}/calendar/2024-06.html,{TRAP_HOST}/"
TRAP_PATHS = ("/calendar/", "/doc/")  # the sandbox's endless trees (sandbox/traps.py)


def trap_pages(trial: Trial) -> int:
    return sum(any(p in o.final_url for p in TRAP_PATHS) for o in trial.pages)


def trap_world(strategies: list[str], caps: list[int], pages: int) -> None:
    print(f"\n## entered at a calendar trap: {pages} pages, small world, seeds {TRAP_SEEDS}\n")
    print("| strategy | " + " | ".join(f"cap {c}: trap pages (kept out)" for c in caps) + " |")
    print("| --- | " + " | ".join("---:" for _ in caps) + " |")
    with SandboxServer(World(0, "small"), slow_delay=0.05, hang_seconds=1.0) as server:
        cache = None
        for name in strategies:
            cells = []
            for cap in caps:
                overrides = {"crawl.strategy": name, "seeds": TRAP_SEEDS, "crawl.trap_cap": cap}
                settings = settings_for("tourism", overrides)
                cache = cache or outcome_cache(server.resolve, settings)
                trial = run_trial(settings, topic_for(settings), cache, pages)
                cells.append(f"{trap_pages(trial)} ({trial.crawl.counters.trapped})")
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def normal_crawls(profile: str, strategies: list[str], caps: list[int], pages: int) -> None:
    with sandbox_world(profile, "tourism") as w:
        for name in strategies:
            cells = []
            for cap in caps:
                settings = settings_for("tourism", {"crawl.strategy": name, "crawl.trap_cap": cap})
                w.cache = w.cache or outcome_cache(w.resolve, settings)
                start = time.monotonic()
                trial = run_trial(settings, topic_for(settings), w.cache, pages)
                relevant = sum(w.relevant(o.final_url) for o in trial.pages)
                counters, seconds = trial.crawl.counters, time.monotonic() - start
                share, kept_out = relevant / max(counters.dp, 1), counters.trapped
                cells.append(
                    f"{share:.1%} {relevant} {trap_pages(trial)} ({kept_out}) {seconds:.0f}s"
                )
            print(f"| {profile} | {name} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caps", nargs="+", type=int, default=[0, 50, 100])
    parser.add_argument("--trap-pages", type=int, default=300)
    parser.add_argument("--max-pages", type=int, default=1000)
    parser.add_argument("--strategies", nargs="+", default=list(REGISTRY))
    parser.add_argument("--profiles", nargs="*", default=list(PROFILES))
    parser.add_argument("--skip-trap", action="store_true")
    args = parser.parse_args()
    if not args.skip_trap:
        trap_world(args.strategies, args.caps, args.trap_pages)
    if not args.profiles:
        return
    print(f"\n## normal crawls, tourism, {args.max_pages} pages: "
          "true harvest, truly relevant pages, trap pages (links kept out), seconds\n")  # fmt: skip
    print("| profile | strategy | " + " | ".join(f"cap {c}" for c in args.caps) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in args.caps) + " |")
    for profile in args.profiles:
        normal_crawls(profile, args.strategies, args.caps, args.max_pages)


if __name__ == "__main__":
    main()
