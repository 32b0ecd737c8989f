"""α never below what navigation alone reaches (scoring/navigation_floor.py), measured.

For each sandbox profile × domain, each strategy crawls `--max-pages` pages (one worker,
seed 0, the shipped pipeline) twice over the same outcomes: with the floor off
(`calibration.navigation_pages = 0`, pages read with trafilatura as while a crawl looks
for its floor, crawl/core.py `Crawl.extractor`) and on (the shipped 20). Printed per crawl:
- the pages whose main text names no topic word though R(p) > 0, and how many of
  them are truly relevant;
- the floor the probe set (per page language);
- the range of α whose F1 against the truth is at least 0.9 × the best threshold's;
- the F1 of the crawl's own judgement ÷ the best, off → on;
- LP and the true harvest at 1 000 pages, off → on.

    python benchmarks/bench_navigation_floor.py [--max-pages 3000] [--jobs 2]
        [--strategies bfs ops fcits_oh] [--world-seed 0] [--quantiles 0.95]
"""

from __future__ import annotations

import argparse

import numpy as np
from alpha_rules import interval
from focus import CrawlFigures, grid_jobs, world_arguments
from navigation_rules import FLOOR_OFF

from kgcrawl.scoring.thresholds import GRID, separation


def window(f: CrawlFigures) -> str:
    """The α (on the calibration grid) whose F1 on the crawl's pages is ≥ 0.9 × the best."""
    if not f.best_f1:
        return "n/a"
    relevant = [r for r, truly in f.pages if truly]
    irrelevant = [r for r, truly in f.pages if not truly]
    f1 = np.array([separation(relevant, irrelevant, alpha).f1 for alpha in GRID])
    return interval(f1 >= 0.9 * f.best_f1)


def ratio(f: CrawlFigures) -> str:
    return f"{f.f1 / f.best_f1:.2f}" if f.best_f1 else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser)
    parser.add_argument("--strategies", nargs="+", default=["bfs", "ops", "fcits_oh"])
    parser.add_argument("--quantiles", nargs="+", default=["0.95"], help="floor quantiles tried")
    args = parser.parse_args()
    configs = []
    for name in args.strategies:
        configs.append((f"{name} off", {"crawl.strategy": name, **FLOOR_OFF}))
        for q in args.quantiles:
            configs.append((f"{name} q{q}", {"crawl.strategy": name,
                                             "calibration.navigation_quantile": q}))  # fmt: skip
    rows = grid_jobs(
        configs, args.profiles, args.domains, args.max_pages, args.jobs, args.world_seed
    )
    by_config = {(p, d, f.label): f for p, d, f in rows}
    print("\n| profile | domain | strategy | floor | navigation-only pages (truly relevant) "
          "| α window | F1 ÷ best | LP | @1000 |")  # fmt: skip
    print("| --- | --- | --- | --- | ---: | --- | --- | --- | --- |")
    short = []
    for profile in args.profiles:
        for domain in args.domains:
            for name in args.strategies:
                off = by_config[(profile, domain, f"{name} off")]
                for q in args.quantiles:
                    on = by_config[(profile, domain, f"{name} q{q}")]
                    floor = ", ".join(f"{k} {v:.3f}" for k, v in on.floors.items()) or "–"
                    harvest = [f.harvest.get(1000, 0.0) for f in (off, on)]
                    print(f"| {profile} | {domain} | {name} q{q} | {floor} "
                          f"| {on.navigation} ({on.navigation_relevant}) | {window(on)} "
                          f"| {ratio(off)} → {ratio(on)} | {off.lp} → {on.lp} "
                          f"| {harvest[0]:.1%} → {harvest[1]:.1%} |")  # fmt: skip
                    if on.best_f1 and on.f1 < 0.9 * on.best_f1:
                        short.append(f"{profile}/{domain}/{on.label}: {ratio(on)}")
    print("\nF1 < 0.9 × best: " + ("; ".join(short) if short else "none"))


if __name__ == "__main__":
    main()
