"""Does α from labelled pages judge the next crawl better? `calibrate --truth --run`, measured.

For each sandbox profile × domain and each strategy: crawl A runs with the corpora's α
(the shipped pipeline); `--labels` of its pages, drawn at random, are labelled with the
world's truth and α is chosen on them as `kgcrawl calibrate --truth FILE --run A` does
(A's α moved into the range of near-best F1 on them); crawl B runs again with that
α (β follows it, as "auto" does). Printed for A and B: α, the F1 of the crawl's own
"R(p) > α" against the truth, its ratio to the best threshold's F1 on the same pages, LP,
and the true harvest at 500 / 1 000 pages (B's β differs, so its pages may too).

    python benchmarks/bench_labelled.py [--max-pages 1000] [--labels 200] [--jobs 3]
        [--strategies fcits_oh bfs fcits] [--profiles …] [--domains …]
"""

from __future__ import annotations

import argparse

import numpy as np
from focus import MARKS, CrawlFigures, cell, run_crawl, sandbox_world, settings_for, world_arguments

from kgcrawl.calibrate import CalibrationError, thresholds_on
from kgcrawl.crawl.strategies.base import uses_keywords
from kgcrawl.labelled import Labelled


def labelled_alpha(figures: CrawlFigures, labels: int, settings) -> float:
    """α from `labels` of the crawl's pages at random, as `calibrate --truth --run` picks it."""
    rng = np.random.default_rng(0)
    pages = figures.pages
    pick = rng.choice(len(pages), min(labels, len(pages)), replace=False)
    chosen = [pages[i] for i in pick]
    sample = Labelled(tuple(r for r, t in chosen if t), tuple(r for r, t in chosen if not t), 0, 0)
    sample.check(f"{labels} labelled pages")
    keywords = uses_keywords(settings)
    rel, irr = sample.relevant, sample.irrelevant
    return thresholds_on(settings, keywords, rel, irr, "labels", figures.alpha).alpha


def world(profile: str, domain: str, strategies: list[str], max_pages: int, labels: int):
    """Crawls A and B of each strategy on one world."""
    out = []
    with sandbox_world(profile, domain) as w:
        for strategy in strategies:
            settings = settings_for(domain, {"crawl.strategy": strategy})
            a = run_crawl(w, settings, strategy, max_pages)
            try:
                alpha = labelled_alpha(a, labels, settings)
            except CalibrationError as exc:  # e.g. BFS on sparse meets no relevant page
                print(f"{profile:8} {domain:9} {strategy:9} {exc}", flush=True)
                out.append((profile, domain, a, None))
                continue
            overrides = {"crawl.strategy": strategy, "relevance.alpha": str(alpha)}
            b = run_crawl(w, settings_for(domain, overrides), strategy, max_pages)
            out.append((profile, domain, a, b))
            print(f"{profile:8} {domain:9} {strategy:9} α {a.alpha:.2f} → {alpha:.2f}", flush=True)
    return out


def ratio(f: CrawlFigures) -> str:
    return f"{f.f1 / f.best_f1:.2f}" if f.best_f1 else "n/a"


def main() -> None:
    from concurrent.futures import ProcessPoolExecutor

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser, max_pages=1000)
    parser.add_argument("--labels", type=int, default=200)
    parser.add_argument("--strategies", nargs="+", default=["fcits_oh", "bfs", "fcits"])
    args = parser.parse_args()
    tasks = [(p, d) for p in args.profiles for d in args.domains]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(world, p, d, args.strategies, args.max_pages, args.labels)
                   for p, d in tasks]  # fmt: skip
        rows = [row for future in futures for row in future.result()]
    marks = [m for m in MARKS if m <= args.max_pages]
    print("\n| profile | domain | strategy | α A → B | F1 ÷ best A → B | LP A → B | "
          + " | ".join(f"@{m} A → B" for m in marks) + " |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | " + " | ".join("---" for _ in marks) + " |")
    passed = [0, 0]
    for profile, domain, a, b in rows:
        b = b or a  # labels all of one kind: no α from them, the corpora's stays
        for i, f in enumerate((a, b)):
            passed[i] += int(not f.best_f1 or f.f1 >= 0.9 * f.best_f1)
        harvest = " | ".join(f"{cell(a, m)} → {cell(b, m)}" for m in marks)
        print(f"| {profile} | {domain} | {a.label} | {a.alpha:.2f} → {b.alpha:.2f} | "
              f"{ratio(a)} → {ratio(b)} | {a.lp} → {b.lp} | {harvest} |")  # fmt: skip
    print(
        f"\nF1 ≥ 0.9 × best (n/a passes): corpora's α {passed[0]} of {len(rows)}, "
        f"labelled α {passed[1]} of {len(rows)}"
    )


if __name__ == "__main__":
    main()
