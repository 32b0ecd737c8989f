"""Navigation-floor rules replayed over crawls made with the floor off.

Each strategy crawls each profile × domain `--max-pages` pages with the floor off
(`calibration.navigation_pages = 0`; one worker, the shipped pipeline, benchmarks/focus.py),
its pages read with trafilatura as a crawl reads them while it may still find its floor
(crawl/core.py `Crawl.extractor`; read with resiliparse, seed 2's FCSA on flat rainstorm
replays 0.41 of the best under the plain 95th percentile, not 0.14 as read so).
Each rule is then replayed over the pages as crawled, as crawl/core.py `_judge_pending`
applies the shipped one: from the probe (200 pages) on, once 20 pages whose main text
names no topic word have been met within the first 1 000 (past the probe only if 4 had
been met by it, `sought_past_probe`), a page is judged relevant when
the crawl judged it so and its R(p) is above the rule's floor. The F1 of that judgement
against the truth is divided by the best threshold's. The crawl's path is the floor-off
one: a floor that changes what a strategy does next is not replayed.

Rules: the 95th or 90th percentile of those pages' R(p), over all of them, or only over
those no higher than the median (the shipped rule, scoring/navigation_floor.py
`navigation_floors`) or the 25th percentile of R(p) of the pages the crawl judged
relevant whose main text names a topic word. Printed per rule: the crawls below 0.9 ×
the best F1 and the worst ratio; with --crawls, each crawl's pages whose main text names
no topic word met by the probe, and its floor and ratio per rule.

    python benchmarks/navigation_rules.py [--max-pages 1000] [--world-seed N] [--crawls]
"""

from __future__ import annotations

import argparse

import numpy as np
from focus import CrawlFigures, grid_jobs, world_arguments

from kgcrawl.config import Calibration
from kgcrawl.crawl.strategies.base import REGISTRY
from kgcrawl.evaluate.judge import TruthScores
from kgcrawl.scoring.navigation_floor import navigation_floors, sought_past_probe

# the floor off, the pages read as while a crawl looks for its floor
FLOOR_OFF = {"calibration.navigation_pages": "0", "crawl.main_text": "trafilatura"}
RULES = {  # name: (quantile, the share of the judged pages' R(p) navigation pages stay under)
    "95th percentile": (0.95, None),
    "95th, at most the median (shipped)": (0.95, 0.5),
    "95th, at most the 25th percentile": (0.95, 0.25),
    "90th percentile": (0.90, None),
}


def floor(f: CrawlFigures, quantile: float, share: float | None, cal: Calibration) -> float:
    """The rule's floor over the pages met when the crawl had met enough navigation pages
    (0 when it never did). Counted over every language: the sandbox's worlds are each
    in one."""
    if cal.navigation_pages == 0 or len(f.navigation_at) < cal.navigation_pages:
        return 0.0
    met = max(cal.probe_pages, f.navigation_at[cal.navigation_pages - 1] + 1)
    sought = met == cal.probe_pages or sought_past_probe(
        by_probe(f, cal), cal.probe_pages, cal.navigation_pages, cal.navigation_within
    )
    if met > min(len(f.pages), cal.navigation_within) or not sought:
        return 0.0
    navigation = {i for i in f.navigation_at if i < met}
    scores = [f.pages[i][0] for i in sorted(navigation)]
    passed = [f.pages[i][0] for i in range(met) if f.judged[i] and i not in navigation]
    if share == 0.5:  # the shipped rule, as the crawl computes it
        return navigation_floors([("", r) for r in scores], [("", r) for r in passed],
                                 quantile, cal.navigation_pages).get("", 0.0)  # fmt: skip
    cut = float(np.quantile(passed, share)) if share is not None and passed else 1.0
    kept = [r for r in scores if r <= cut]
    return float(np.quantile(kept, quantile)) if kept else 0.0


def by_probe(f: CrawlFigures, cal: Calibration) -> int:
    """The pages whose main text names no topic word met by the probe."""
    return sum(1 for i in f.navigation_at if i < cal.probe_pages)


def ratio(f: CrawlFigures, at: float) -> float | None:
    """F1 of the crawl's judgement with α raised to `at`, ÷ the best threshold's."""
    if not f.best_f1:
        return None
    judged = zip(f.pages, f.judged, strict=True)
    scores = TruthScores.of((r, truly, own and r > at) for (r, truly), own in judged)
    return scores.own(at).f1 / f.best_f1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser, max_pages=1000)
    parser.add_argument("--strategies", nargs="+", default=list(REGISTRY))
    parser.add_argument("--crawls", action="store_true", help="each crawl's floor and ratio")
    args = parser.parse_args()
    configs = [(name, {"crawl.strategy": name, **FLOOR_OFF}) for name in args.strategies]
    rows = grid_jobs(
        configs, args.profiles, args.domains, args.max_pages, args.jobs, args.world_seed
    )
    cal = Calibration()
    below: dict[str, list[str]] = {name: [] for name in RULES}
    worst = dict.fromkeys(RULES, 1.0)
    for profile, domain, f in rows:
        cells = []
        for name, (quantile, share) in RULES.items():
            at = floor(f, quantile, share, cal)
            r = ratio(f, at)
            cells.append(f"{at:.3f} {'n/a' if r is None else f'{r:.2f}'}")
            if r is not None:
                worst[name] = min(worst[name], r)
                if r < 0.9:
                    below[name].append(f"{profile}/{domain}/{f.label} {r:.2f}")
        if args.crawls:
            print(f"{profile}/{domain}/{f.label} ({by_probe(f, cal)} by the probe): "
                  + " | ".join(cells))  # fmt: skip
    print(f"\n{args.max_pages} pages, world seed {args.world_seed}: crawls below 0.9 × the "
          "best F1 per floor rule (floor off: the pages as crawled)")  # fmt: skip
    print("| rule | crawls below | worst | which |\n| --- | ---: | ---: | --- |")
    for name in RULES:
        print(f"| {name} | {len(below[name])} | {worst[name]:.2f} | {', '.join(below[name])} |")


if __name__ == "__main__":
    main()
