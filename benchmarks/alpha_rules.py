"""Would another rule for α judge a crawl's pages better than the calibrated one?

Reads what `bench_focus.py --save FILE` (or bench_its_ablation / bench_pagerank_scale)
wrote, every crawl's (R(p), truth) per page, and replays the crawl's "R(p) > α" under
each rule without crawling again (α does not reorder a BFS crawl; for the focused ones
the pages stay those the calibrated α chose, which is what each rule would first meet).
For each rule: how many crawls have F1 ≥ 0.9 × the best threshold's F1 (issue "Focus
that transfers"), the worst and median ratio, and the crawls that fall short.

The rules:
- `calibrated`: the crawl's own α (SPEC §4.6);
- `+δ`: that α raised by δ, the fixed shift a low-prevalence crawl would want;
- `prior`: α adapted to the crawl — the prevalence π of the crawl's pages is estimated by
  EM from the calibration's two R densities (Saerens et al. 2002, prior shift), and α is
  the F1-best threshold of the calibration's rates at that π;
- `prior+shift`: the same, the two densities also moved by the δ (−0.15 … +0.10) that
  fits the crawl's R best, for a world whose pages score lower or higher than the
  calibration's (a narrow register);
- `f × q90`: α scaled to the crawl, f times the 90th percentile of its R above FLOOR
  (mostly relevant pages, whatever the share of them), the calibrated α below 30 such pages;
- `valley`: α at the deepest valley of the crawl's own R density (above FLOOR) inside
  the calibration's near-best range, with at least 5 % of those pages on either side
  (low-density separation: the valley moves toward the rarer class, as the F1-best
  threshold does), the calibrated α where there is none;
- `labelled S n`: α as `kgcrawl calibrate --truth --run` chooses it (the crawl's calibrated
  α moved into the range whose F1 is within the tolerance of the best, `nearest_separation`)
  on n pages drawn at random from a crawl with their true labels: S = own, each crawl's own
  pages (an α per crawl); S = fcits_oh, the pages of the world's fcits_oh crawl, used for
  every crawl of the same relevance model; S = bfs, likewise from a breadth-first sample
  of the world. Each is drawn `--draws` times.

Then, for each domain and relevance model (the ontology's, or the keyword one of FCTS
and FCITS), the α that every strategy's crawl of one world would pass with: the
interval where all have F1 ≥ 0.9 × best, per profile, and what the profiles share.
A rule for α can only pass every crawl if it lands in that shared interval. The same
per domain and strategy: the α one strategy's crawls of the three profiles share.

With `--histograms S …`, first the R(p) of the pages each crawl of strategies S met,
by truth, in bins of 0.05: where the off-topic pages a crawl meets lie against the
relevant ones, which is what moves its best threshold.

    python benchmarks/alpha_rules.py FILE.json [FILE.json …] [--shifts 0.03 0.06]
        [--scales 0.82 0.84 0.86] [--labelled 100 200] [--draws 5] [--histograms bfs …]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from kgcrawl.calibrate import Thresholds, cached, calibrate
from kgcrawl.config import Calibration, load_settings
from kgcrawl.crawl.strategies.base import uses_keywords
from kgcrawl.scoring.thresholds import near_best, nearest_separation

GRID = np.arange(100) / 100  # the thresholds tried, as scoring/thresholds.py
POINTS = np.linspace(-0.3, 1.3, 321)  # where the calibration densities are tabulated
PROFILES = ("default", "sparse", "flat")
FLOOR = 0.15  # R at or below this is no topical page at all: left out of the EM fit
TOLERANCE = Calibration().labelled_tolerance  # what `calibrate --truth` moves α within
LABELLERS = ("own", "fcits_oh", "bfs")  # whose crawl the labelled pages come from


def f1(scores: np.ndarray, truth: np.ndarray, alpha: float) -> float:
    """F1 of "R(p) > α" against the truth."""
    above = scores > alpha
    tp, fp, fn = (truth & above).sum(), (~truth & above).sum(), (truth & ~above).sum()
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def density(
    scores: tuple[float, ...] | np.ndarray, bandwidth: float = 0.025, points: np.ndarray = POINTS
) -> np.ndarray:
    """A Gaussian kernel density of `scores` on `points`."""
    xs = np.asarray(scores)
    dens = np.exp(-0.5 * ((points[:, None] - xs[None, :]) / bandwidth) ** 2).sum(1)
    return dens / (dens.sum() * (points[1] - points[0]))


def above_rate(scores: np.ndarray) -> np.ndarray:
    """The share of `scores` above each threshold of GRID."""
    ordered = np.sort(scores)
    return 1 - np.searchsorted(ordered, GRID, side="right") / len(ordered)


def f1_best_alpha(prevalence: float, tpr: np.ndarray, fpr: np.ndarray) -> float:
    """The threshold of best expected F1 = 2πT / (πT + π + (1 − π)F) at prevalence π."""
    p = prevalence
    expected = 2 * p * tpr / (p * tpr + p + (1 - p) * fpr + 1e-12)
    return float(GRID[np.argmax(expected)])


def prior_rule(cal: Thresholds, shifts: np.ndarray) -> Callable[[np.ndarray], float]:
    """α from the prevalence (and, with several `shifts`, the shift) that fit a crawl best."""
    pos_d, neg_d = density(cal.positives), density(cal.negatives)
    pos, neg = np.asarray(cal.positives), np.asarray(cal.negatives)

    def alpha(scores: np.ndarray) -> float:
        xs = scores[scores > FLOOR]
        if len(xs) == 0:
            return cal.alpha
        fits = []
        for delta in shifts:
            a = np.interp(xs - delta, POINTS, pos_d) + 1e-4
            b = np.interp(xs - delta, POINTS, neg_d) + 1e-4
            pi = 0.5
            for _ in range(50):  # EM for the mixing weight (Saerens et al. 2002)
                pi = float((pi * a / (pi * a + (1 - pi) * b)).mean())
            fits.append((float(np.log(pi * a + (1 - pi) * b).sum()), delta, pi))
        _, delta, pi = max(fits)
        prevalence = pi * len(xs) / len(scores)
        return f1_best_alpha(prevalence, above_rate(pos + delta), above_rate(neg + delta))

    return alpha


def scaled_alpha(scores: np.ndarray, factor: float, calibrated: float) -> float:
    """`factor` × the 90th percentile of the crawl's R above FLOOR (≥ 30 pages), else
    the calibrated α: the crawl's relevant pages set the scale, whatever their share."""
    topical = scores[scores > FLOOR]
    return factor * float(np.quantile(topical, 0.9)) if len(topical) >= 30 else calibrated


def valley_alpha(scores: np.ndarray, calibrated: float, near: np.ndarray) -> float:
    """The deepest valley (≤ 0.8 × the lower of the peaks beside it) of the crawl's R
    density above FLOOR among the thresholds `near`, each side ≥ 5 % of those pages."""
    xs = scores[scores > FLOOR]
    if len(xs) < 50:
        return calibrated
    dens = density(xs, 0.02, GRID)
    share = np.searchsorted(np.sort(xs), GRID, side="right") / len(xs)
    depth = [(dens[i] / min(dens[:i].max(), dens[i + 1 :].max()), GRID[i])
             for i in range(1, len(GRID) - 1)
             if near[i] and dens[i] <= min(dens[i - 1], dens[i + 1])
             and min(share[i], 1 - share[i]) >= 0.05]  # fmt: skip
    deepest = min(depth, default=(1.0, calibrated))
    return float(deepest[1]) if deepest[0] <= 0.8 else calibrated


CrawlRow = tuple[str, np.ndarray, np.ndarray, float, float]  # label, R, truth, best F1, α


def labelled_ratios(
    crawls: dict[tuple[str, str, str], list[CrawlRow]],
    labeller: str,
    n: int,
    draws: int,
    rng: np.random.Generator,
) -> list[tuple[float, str]]:
    """F1 ÷ best of every crawl of a world at α calibrated on n labelled pages of the
    world's `labeller` crawl (same relevance model), or of its own (`own`), `draws` times."""

    def alpha(scores: np.ndarray, truth: np.ndarray, prior: float) -> float:
        pick = rng.choice(len(scores), min(n, len(scores)), replace=False)
        rel, irr = scores[pick][truth[pick]], scores[pick][~truth[pick]]
        return nearest_separation(rel, irr, TOLERANCE, prior).alpha

    out = []
    for (profile, domain, _), runs in sorted(crawls.items()):
        source = [(s, t, a) for label, s, t, _, a in runs if label == labeller]
        if labeller != "own" and not source:
            continue
        for _ in range(draws):
            shared = alpha(*source[0]) if source else None
            out += [(f1(s, t, alpha(s, t, a) if shared is None else shared) / best,
                     f"{profile}/{domain}/{label}") for label, s, t, best, a in runs]  # fmt: skip
    return out


def thresholds(domain: str, strategy: str) -> tuple[Thresholds, str]:
    """The calibration a crawl with `strategy` used, and its relevance model's name."""
    settings = load_settings(domain, overrides={"crawl.strategy": strategy})
    keywords = uses_keywords(settings)
    model = "keywords" if keywords else "ontology"
    return cached(settings, keywords) or calibrate(settings, keywords), model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--shifts", nargs="+", type=float, default=[0.03, 0.06])
    parser.add_argument("--scales", nargs="+", type=float, default=[0.82, 0.84, 0.86])
    parser.add_argument("--labelled", nargs="+", type=int, default=[100, 200])
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--histograms", nargs="+", default=[], metavar="STRATEGY")
    args = parser.parse_args()
    rows = [row for path in args.files for row in json.loads(Path(path).read_text())]
    print_histograms([row for row in rows if row["label"].split()[0] in args.histograms])
    names = ["calibrated", *(f"+{d:.2f}" for d in args.shifts), "prior", "prior+shift",
             *(f"{f:.2f} × q90" for f in args.scales), "valley"]  # fmt: skip
    ratios: dict[str, list[tuple[float, str]]] = {name: [] for name in names}
    Curves = dict[tuple[str, str], dict[str, list[tuple[np.ndarray, float]]]]
    by_model: Curves = {}  # (domain, relevance model) → profile → (F1 curve, α) per crawl
    by_strategy: Curves = {}  # (domain, strategy) → the same
    crawls: dict[tuple[str, str, str], list[CrawlRow]] = {}
    for row in rows:
        scores = np.array([p[0] for p in row["pages"]])
        truth = np.array([p[1] for p in row["pages"]], bool)
        if not truth.any():
            continue  # no relevant page met: no F1 to compare
        best = max(f1(scores, truth, a) for a in GRID)
        strategy = row["label"].split()[0]
        cal, model = thresholds(row["domain"], strategy)
        tolerance = Calibration().tolerance
        near = np.isin(GRID, [s.alpha for s in near_best(cal.positives, cal.negatives, tolerance)])
        alphas = [row["alpha"], *(row["alpha"] + d for d in args.shifts),
                  prior_rule(cal, np.array([0.0]))(scores),
                  prior_rule(cal, np.arange(-0.15, 0.101, 0.01))(scores),
                  *(scaled_alpha(scores, f, row["alpha"]) for f in args.scales),
                  valley_alpha(scores, row["alpha"], near)]  # fmt: skip
        crawl = f"{row['profile']}/{row['domain']}/{row['label']}"
        for name, alpha in zip(names, alphas, strict=True):
            ratios[name].append((f1(scores, truth, alpha) / best, crawl))
        curve = np.array([f1(scores, truth, a) for a in GRID]) / best
        for worlds, key in ((by_model, model), (by_strategy, strategy)):
            worlds.setdefault((row["domain"], key), {}).setdefault(row["profile"], []).append(
                (curve, row["alpha"])
            )
        crawls.setdefault((row["profile"], row["domain"], model), []).append(
            (strategy, scores, truth, best, row["alpha"])
        )
    rng = np.random.default_rng(0)
    for labeller in LABELLERS:
        for n in args.labelled:
            name = f"labelled {labeller} {n}"
            ratios[name] = labelled_ratios(crawls, labeller, n, args.draws, rng)
    print("| rule | crawls | F1 ≥ 0.9 × best | worst | median | short of 0.9 |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, cells in ratios.items():
        values = np.array([r for r, _ in cells])
        short = "; ".join(sorted({f"{c} {r:.2f}" for r, c in cells if r < 0.9}))
        print(f"| {name} | {len(values)} | {int((values >= 0.9).sum())} | {values.min():.2f} "
              f"| {np.median(values):.2f} | {short} |")  # fmt: skip
    print_feasible(by_model, "model")
    print_feasible(by_strategy, "strategy")


def print_histograms(rows: list[dict]) -> None:
    """Per crawl, how many truly relevant and off-topic pages lie in each R(p) bin of 0.05."""
    edges = np.arange(0, 1.0001, 0.05)
    for row in rows:
        scores = np.array([p[0] for p in row["pages"]])
        truth = np.array([p[1] for p in row["pages"]], bool)
        print(f"\n{row['profile']}/{row['domain']}/{row['label']}: {truth.mean():.0%} relevant")
        print("| R(p) from | " + " | ".join(f"{e:.2f}" for e in edges[:-1]) + " |")
        print("| --- |" + " ---: |" * (len(edges) - 1))
        for name, part in (("relevant", scores[truth]), ("off-topic", scores[~truth])):
            print(f"| {name} | " + " | ".join(map(str, np.histogram(part, edges)[0])) + " |")
    if rows:
        print()


def print_feasible(
    worlds: dict[tuple[str, str], dict[str, list[tuple[np.ndarray, float]]]], column: str
) -> None:
    """Per domain and model (or strategy): the α where every crawl of a profile has
    F1 ≥ 0.9 × best."""
    print(f"\n| domain | {column} | calibrated α | " + " | ".join(PROFILES) + " | all profiles |")
    print("| --- | --- | ---: |" + " ---: |" * (len(PROFILES) + 1))
    for (domain, model), profiles in sorted(worlds.items()):
        cells, shared = [], np.ones(len(GRID), bool)
        for profile in PROFILES:
            runs = profiles.get(profile, [])
            passing = np.min([c for c, _ in runs], axis=0) >= 0.9 if runs else shared
            shared &= passing
            cells.append(interval(passing) if runs else "n/a (no relevant page met)")
        alpha = sorted({round(a, 2) for runs in profiles.values() for _, a in runs})
        print(f"| {domain} | {model} | {', '.join(map(str, alpha))} | " + " | ".join(cells)
              + f" | {interval(shared)} |")  # fmt: skip


def interval(passing: np.ndarray) -> str:
    """The thresholds of GRID that pass, as 'lo–hi' (or none)."""
    if not passing.any():
        return "none"
    ok = GRID[passing]
    gaps = "" if len(ok) == round((ok[-1] - ok[0]) * 100) + 1 else " (with gaps)"
    return f"{ok[0]:.2f}–{ok[-1]:.2f}{gaps}"


if __name__ == "__main__":
    main()
