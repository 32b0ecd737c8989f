"""Which PageRank scale for Eq. 9? Ablation over the sandbox profiles (SPEC §4.5 turn 2).

For each profile × domain, crawls of `--max-pages` pages with one worker and the
shipped pipeline (calibrated α and β), for each strategy (ops, fcits_oh, fcosa_lg)
under each scale of the PR term (percentile, mean, log, the paper's max) at each PR
weight r1 (`--r1`; the rest split 5 : 4 between R and R(A), the paper's ratio; the
paper's own r is r1 = 0.55) and with r1 = 0, and one BFS crawl (it ignores P). Prints
the true harvest at 500 / 1 000 / 3 000 pages († = the crawl ended before), then the
mean and the worst over profile × domain per setting.

    python benchmarks/bench_pagerank_scale.py [--max-pages 3000] [--jobs 2]
        [--r1 0.55] [--scales percentile mean log max] [--strategies ops fcits_oh fcosa_lg]
"""

from __future__ import annotations

import argparse
import statistics

from focus import MARKS, cell, grid_jobs, save_rows, world_arguments

STRATEGIES = ("ops", "fcits_oh", "fcosa_lg")
SCALES = ("percentile", "mean", "log", "max")


def weights(r1: float) -> str:
    """r with PR weight r1 and the rest split 5 : 4 (the paper's r2 : r3 = 0.25 : 0.20)."""
    r2 = round((1 - r1) * 5 / 9, 4)
    return f"{r1},{r2},{round(1 - r1 - r2, 4)}"


def configs(strategies, scales, r1s) -> list[tuple[str, dict[str, str]]]:
    out = [("bfs", {"crawl.strategy": "bfs"})]
    for strategy in strategies:
        for r1 in r1s:
            for scale in scales:
                label = f"{strategy} {scale}" + ("" if r1 == 0.55 else f" r1={r1}")
                out.append((label, {"crawl.strategy": strategy, "relevance.r": weights(r1),
                                    "relevance.pagerank_scale": scale}))  # fmt: skip
        out.append((f"{strategy} r1=0", {"crawl.strategy": strategy, "relevance.r": weights(0)}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser)
    parser.add_argument("--r1", type=float, nargs="+", default=[0.55])
    parser.add_argument("--scales", nargs="+", default=list(SCALES))
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES))
    args = parser.parse_args()
    grid = configs(args.strategies, args.scales, args.r1)
    rows = grid_jobs(grid, args.profiles, args.domains, args.max_pages, args.jobs, args.world_seed)
    marks = [m for m in MARKS if m <= args.max_pages]
    print("\n| profile | domain | setting | " + " | ".join(f"@{m}" for m in marks) + " | DP |")
    save_rows(rows, args.save)
    print("| --- | --- | --- | " + " | ".join("---:" for _ in marks) + " | ---: |")
    for profile, domain, f in rows:
        cells = " | ".join(cell(f, m) for m in marks)
        print(f"| {profile} | {domain} | {f.label} | {cells} | {f.dp} |")
    print("\nMean true harvest over profile × domain:\n")
    print("| setting | " + " | ".join(f"@{m}" for m in marks) + " | worst @1000 |")
    print("| --- | " + " | ".join("---:" for _ in marks) + " | ---: |")
    for label, _ in grid:
        mine = [f for _, _, f in rows if f.label == label]
        means = [statistics.fmean(f.harvest.get(m, 0.0) for f in mine) for m in marks]
        worst = min(f.harvest.get(1000, 0.0) for f in mine)
        print(f"| {label} | " + " | ".join(f"{x:.1%}" for x in means) + f" | {worst:.1%} |")


if __name__ == "__main__":
    main()
