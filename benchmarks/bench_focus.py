"""Does the crawl focus on worlds it was not tuned on? Issue "Focus that transfers", measured.

For each sandbox profile × domain, every strategy crawls `--max-pages` pages with one
worker, seed 0 and the shipped pipeline unchanged (α, β calibrated). Printed per crawl:
the DP reached and how the crawl ended, the links promoted from the pool when Q_wait ran
dry, LP, the F1 of the crawl's own "R(p) > α" against the truth next to the F1 of the best
threshold on the same pages (and their ratio), and the true harvest at 500 / 1 000 /
3 000 pages. Then the acceptance checks: no crawl ends early, F1 ≥ 0.9 × best F1, and
fcits_oh's true harvest at 1 000 ≥ 1.5 × BFS's and ≥ OPS's.

    python benchmarks/bench_focus.py [--max-pages 3000] [--jobs 2] [--strategies …]
"""

from __future__ import annotations

import argparse

from focus import MARKS, cell, grid_jobs, save_rows, world_arguments

from kgcrawl.crawl.strategies.base import REGISTRY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser)
    parser.add_argument("--strategies", nargs="+", default=list(REGISTRY))
    args = parser.parse_args()
    configs = [(name, {"crawl.strategy": name}) for name in args.strategies]
    rows = grid_jobs(
        configs, args.profiles, args.domains, args.max_pages, args.jobs, args.world_seed
    )
    save_rows(rows, args.save)
    marks = [m for m in MARKS if m <= args.max_pages]
    print("\n| profile | domain | strategy | DP | ended | promoted | LP | α | F1 | best F1 (α) "
          "| ratio | " + " | ".join(f"@{m}" for m in marks) + " |")  # fmt: skip
    print("| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | "
          + " | ".join("---:" for _ in marks) + " |")  # fmt: skip
    failures = []
    by_world: dict[tuple[str, str], dict] = {}
    for profile, domain, f in rows:
        # a crawl that met no relevant page has no F1 to compare: its LP are all false positives
        ratio = f.f1 / f.best_f1 if f.best_f1 else None
        shown = f"{ratio:.2f}" if ratio is not None else "n/a"
        figures = (f"{f.dp} | {f.ended} | {f.promoted} | {f.lp} | {f.alpha:.2f} | {f.f1:.3f} | "
                   f"{f.best_f1:.3f} ({f.best_alpha:.2f}) | {shown}")  # fmt: skip
        harvest = " | ".join(cell(f, m) for m in marks)
        print(f"| {profile} | {domain} | {f.label} | {figures} | {harvest} |")
        by_world.setdefault((profile, domain), {})[f.label] = f
        if f.ended != "budget":
            failures.append(f"{profile}/{domain}/{f.label} ended early at {f.dp}")
        if ratio is not None and ratio < 0.9:
            failures.append(f"{profile}/{domain}/{f.label}: F1 {f.f1:.3f} < 0.9 × {f.best_f1:.3f}")
    mark = 1000 if 1000 in marks else marks[-1]
    for (profile, domain), crawls in by_world.items():
        if {"fcits_oh", "bfs", "ops"} <= crawls.keys():
            ours = crawls["fcits_oh"].harvest[mark]
            bfs, ops = crawls["bfs"].harvest[mark], crawls["ops"].harvest[mark]
            print(f"{profile}/{domain}: fcits_oh @{mark} {ours:.1%} = {_times(ours, bfs)} × "
                  f"BFS ({bfs:.1%}), {_times(ours, ops)} × OPS ({ops:.1%})")  # fmt: skip
            if ours < 1.5 * bfs or ours < ops:
                failures.append(f"{profile}/{domain}: fcits_oh @{mark} vs BFS/OPS")
    print("\n" + ("\n".join(failures) if failures else "every check holds"))


def _times(ours: float, base: float) -> str:
    return f"{ours / base:.2f}" if base else "∞"


if __name__ == "__main__":
    main()
