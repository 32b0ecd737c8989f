"""Which anchor evidence, and what weights? Ablation over the sandbox profiles (SPEC §4.3 turn 2).

For each profile × domain, crawls of `--max-pages` pages with one worker and the
shipped pipeline (calibrated α and β), for each strategy (ops, fcits_oh) with the
anchor evidence of each link made of the anchor text alone (the paper), anchor +
URL words, anchor + context window, and all three, at the first of `--weights`
(anchor, url, context), and all three at each further weights; one BFS crawl for
reference (it ignores P). Prints the
true harvest at 500 / 1 000 pages († = the crawl ended before), then the mean and
the worst over profile × domain per setting, and the relative change of each
setting's @1 000 over its strategy's anchor-only crawl on every world.

    python benchmarks/bench_anchor_evidence.py [--max-pages 1000] [--jobs 2]
        [--weights 1.0,0.5,0.3 1.0,0.7,0.7] [--strategies ops fcits_oh]
"""

from __future__ import annotations

import argparse
import statistics

from focus import MARKS, cell, grid_jobs, world_arguments

STRATEGIES = ("ops", "fcits_oh")
EVIDENCE = ("anchor", "anchor,url", "anchor,context", "anchor,url,context")


def configs(strategies, weights) -> list[tuple[str, dict[str, str]]]:
    out = [("bfs", {"crawl.strategy": "bfs"})]
    for strategy in strategies:
        out.append((f"{strategy} anchor", {"crawl.strategy": strategy,
                                           "anchors.evidence": "anchor"}))  # fmt: skip
        for n, w in enumerate(weights):  # every source on and off at the first weights
            for evidence in EVIDENCE[1:] if n == 0 else EVIDENCE[-1:]:
                label = f"{strategy} {evidence.replace(',', '+')}" + (
                    "" if len(weights) == 1 else f" w={w}"
                )
                out.append((label, {"crawl.strategy": strategy, "anchors.evidence": evidence,
                                    "anchors.weights": w}))  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser, max_pages=1000)
    parser.add_argument("--weights", nargs="+", default=["1.0,0.5,0.3"])
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES))
    args = parser.parse_args()
    grid = configs(args.strategies, args.weights)
    rows = grid_jobs(grid, args.profiles, args.domains, args.max_pages, args.jobs)
    marks = [m for m in MARKS if m <= args.max_pages]
    print("\n| profile | domain | setting | " + " | ".join(f"@{m}" for m in marks) + " | DP |")
    print("| --- | --- | --- | " + " | ".join("---:" for _ in marks) + " | ---: |")
    for profile, domain, f in rows:
        cells = " | ".join(cell(f, m) for m in marks)
        print(f"| {profile} | {domain} | {f.label} | {cells} | {f.dp} |")
    worlds = sorted({(p, d) for p, d, _ in rows})
    at = {(p, d, f.label): f.harvest.get(marks[-1], 0.0) for p, d, f in rows}
    print(f"\nMean true harvest over profile × domain; change @{marks[-1]} over anchor only:\n")
    print("| setting | " + " | ".join(f"@{m}" for m in marks) + " | worst | "
          + " | ".join(f"{p}/{d[:4]}" for p, d in worlds) + " |")  # fmt: skip
    print("| --- | " + " | ".join("---:" for _ in [*marks, 0, *worlds]) + " |")
    for label, _ in grid:
        mine = [f for _, _, f in rows if f.label == label]
        means = [statistics.fmean(f.harvest.get(m, 0.0) for f in mine) for m in marks]
        worst = min(f.harvest.get(marks[-1], 0.0) for f in mine)
        base = f"{label.split()[0]} anchor"
        changes = [
            f"{at[p, d, label] / at[p, d, base] - 1:+.0%}" if at.get((p, d, base)) else "-"
            for p, d in worlds
        ]
        print(f"| {label} | " + " | ".join(f"{x:.1%}" for x in means) + f" | {worst:.1%} | "
              + " | ".join(changes) + " |")  # fmt: skip


if __name__ == "__main__":
    main()
