"""`kgcrawl calibrate` time (budget ≤ 20 s each) and a cached lookup (budget ≤ 0.2 s).

Each round runs, for tourism then rainstorm, the command in a fresh process with
an empty cache (the whole cost a user waits for: imports, ontology, corpora,
400 composed pages, the plot), then the same lookup `crawl` does once the
cache exists (`thresholds_for` in a warm process: hash the ontology and both
corpora, read the entry). Rounds interleave the two domains.

Run: python benchmarks/bench_calibrate.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

DOMAINS = ("tourism", "rainstorm")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cold: dict[str, list[float]] = {d: [] for d in DOMAINS}
    warm: dict[str, list[float]] = {d: [] for d in DOMAINS}
    for _ in range(args.rounds):
        for domain in DOMAINS:
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "KGCRAWL_CACHE": cache}
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "kgcrawl", "calibrate", domain],
                               check=True, env=env, stdout=subprocess.DEVNULL)  # fmt: skip
                cold[domain].append(time.perf_counter() - start)
                os.environ["KGCRAWL_CACHE"] = cache
                warm[domain].append(_cached_lookup(domain))
    for domain in DOMAINS:
        print(f"calibrate {domain:9}: median {statistics.median(cold[domain]):5.1f} s, "
              f"max {max(cold[domain]):5.1f} s (budget 20 s); cached lookup median "
              f"{statistics.median(warm[domain]) * 1000:.0f} ms, max "
              f"{max(warm[domain]) * 1000:.0f} ms (budget 200 ms)")  # fmt: skip


def _cached_lookup(domain: str) -> float:
    from kgcrawl.calibrate import thresholds_for
    from kgcrawl.config import load_settings

    settings = load_settings(domain)
    start = time.perf_counter()
    found = thresholds_for(settings, compute=False)
    seconds = time.perf_counter() - start
    assert found is not None, "the calibration just run was not cached"
    return seconds


if __name__ == "__main__":
    main()
