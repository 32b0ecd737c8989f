"""`kgcrawl demo` per stage, for several crawl worker counts (budget: ≤ 180 s in all).

Each run is a fresh demo in a temporary data folder (its own embedded graph and
sandbox server), so no run reuses another's graph or jieba state on disk.

Run: python benchmarks/bench_demo.py [--workers 4 8] [--max-pages 2000] [--set relevance.alpha=0.45]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

BUDGET_SECONDS = 180.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--max-pages", type=int, default=2000)
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    args = parser.parse_args()

    from kgcrawl.demo import DemoOptions, run_demo

    rows = []
    for workers in args.workers:
        with tempfile.TemporaryDirectory(prefix="bench-demo-") as folder:
            os.environ["KGCRAWL_HOME"] = str(Path(folder) / "home")
            options = DemoOptions(
                out=Path(folder) / "demo",
                max_pages=args.max_pages,
                workers=workers,
                overrides=tuple(args.overrides),
            )
            result = run_demo(options)
            rows.append((workers, result))
    stages = list(rows[0][1].seconds)
    print(f"kgcrawl demo, {args.max_pages} pages, seconds per stage")
    print("workers  " + "  ".join(f"{s:>8}" for s in [*stages, "total"]) + "  pages/s  within")
    for workers, result in rows:
        times = [result.seconds[s] for s in stages] + [result.total_seconds]
        rate = result.crawl.dp / result.crawl.seconds
        within = "yes" if result.total_seconds <= BUDGET_SECONDS else "NO"
        cells = "  ".join(f"{t:8.1f}" for t in times)
        print(f"{workers:>7}  {cells}  {rate:7.1f}  {within}")


if __name__ == "__main__":
    main()
