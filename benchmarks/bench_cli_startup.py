"""`kgcrawl --help` wall time (budget ≤ 0.5 s): heavy libraries must load lazily.

Run: python benchmarks/bench_cli_startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

from kgcrawl.cli import HEAVY_MODULES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    exe = shutil.which("kgcrawl")
    command = [exe, "--help"] if exe else [sys.executable, "-m", "kgcrawl", "--help"]
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    code = f"import sys, kgcrawl.cli; print(*[m for m in {HEAVY_MODULES!r} if m in sys.modules])"
    heavy = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout.strip()
    print(
        f"kgcrawl --help: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms over {args.runs} runs (budget 500 ms)"
    )
    print(f"heavy modules imported by kgcrawl.cli: {heavy or 'none'}")


if __name__ == "__main__":
    main()
