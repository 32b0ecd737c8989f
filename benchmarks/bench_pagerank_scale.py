"""Which PageRank scale for Eq. 9? Ablation over the sandbox profiles (SPEC §4.5 turn 2).

For each profile × domain, crawls of `--max-pages` pages with one worker and the
shipped pipeline (calibrated α and β), for ops, fcits_oh and fcosa_lg under each
candidate scale of the PR term (percentile, mean, log, the paper's max) and with
r1 = 0 (r = (0, 5/9, 4/9), the R and anchor terms in their paper ratio), and one
BFS crawl (it ignores P). Prints the true harvest at 500 / 1 000 / 3 000 pages
(† = the crawl ended before) and the mean over profile × domain per setting.

    python benchmarks/bench_pagerank_scale.py [--max-pages 3000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import statistics

from focus import DOMAINS, MARKS, PROFILES, cell, grid_jobs

STRATEGIES = ("ops", "fcits_oh", "fcosa_lg")
SCALES = ("percentile", "mean", "log", "max")
R1_ZERO = "0,0.5556,0.4444"


def configs() -> list[tuple[str, dict[str, str]]]:
    out = [("bfs", {"crawl.strategy": "bfs"})]
    for strategy in STRATEGIES:
        for scale in SCALES:
            out.append((f"{strategy} {scale}", {"crawl.strategy": strategy,
                                                "relevance.pagerank_scale": scale}))  # fmt: skip
        out.append((f"{strategy} r1=0", {"crawl.strategy": strategy, "relevance.r": R1_ZERO}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-pages", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    args = parser.parse_args()
    rows = grid_jobs(configs(), args.profiles, args.domains, args.max_pages, args.jobs)
    marks = [m for m in MARKS if m <= args.max_pages]
    print("\n| profile | domain | setting | " + " | ".join(f"@{m}" for m in marks) + " | DP |")
    print("| --- | --- | --- | " + " | ".join("---:" for _ in marks) + " | ---: |")
    for profile, domain, f in rows:
        cells = " | ".join(cell(f, m) for m in marks)
        print(f"| {profile} | {domain} | {f.label} | {cells} | {f.dp} |")
    print("\nMean true harvest over profile × domain:\n")
    print("| setting | " + " | ".join(f"@{m}" for m in marks) + " | worst @1000 |")
    print("| --- | " + " | ".join("---:" for _ in marks) + " | ---: |")
    for label, _ in configs():
        mine = [f for _, _, f in rows if f.label == label]
        means = [statistics.fmean(f.harvest.get(m, 0.0) for f in mine) for m in marks]
        worst = min(f.harvest.get(1000, 0.0) for f in mine)
        print(f"| {label} | " + " | ".join(f"{x:.1%}" for x in means) + f" | {worst:.1%} |")


if __name__ == "__main__":
    main()
