"""Which of FCITS_OH's mechanisms pull their weight? Ablation over the sandbox profiles.

For each profile × domain, sequential crawls of `--max-pages` pages with the shipped
pipeline: fcits_oh, and fcits_oh with one mechanism switched off by its setting —
H1 (`tabu.tenure = 0`), aspiration, the global escape (`tabu.escape = 0`), H2
(`tabu.host_tenure = 0`), step 5 (`tabu.inject_links = 0`) — against OPS, FCOSA_LG
and BFS. Randomised strategies run with `--seeds` strategy seeds (0, 1, …); the
table gives the mean true harvest at 500 / 1 000 / 3 000 pages and its spread
(max − min over seeds). Every crawl of one world shares one cache of outcomes
(benchmarks/focus.py), so each URL is fetched once.

    python benchmarks/bench_its_ablation.py [--max-pages 3000] [--seeds 3] [--jobs 2]
        [--escapes 0.9 1.0]   # also fcits_oh at these escape thresholds γ
"""

from __future__ import annotations

import argparse
import statistics

from focus import MARKS, grid_jobs, save_rows, world_arguments

VARIANTS = {
    "fcits_oh": {},
    "fcits_oh −H1": {"tabu.tenure": "0"},
    "fcits_oh −aspiration": {"tabu.aspiration": "false"},
    "fcits_oh −escape": {"tabu.escape": "0"},
    "fcits_oh −H2": {"tabu.host_tenure": "0"},
    "fcits_oh −step 5": {"tabu.inject_links": "0"},
}
BASELINES = {"ops": False, "fcosa_lg": True, "bfs": False}  # name: randomised


def variants(escapes: list[float]) -> dict[str, dict[str, str]]:
    """The fcits_oh variants: one mechanism off each, and the escape at each γ asked for."""
    return VARIANTS | {f"fcits_oh γ={g}": {"tabu.escape": str(g)} for g in escapes}


def configs(seeds: int, escapes: list[float]) -> list[tuple[str, dict[str, str]]]:
    out = []
    for label, switch in variants(escapes).items():
        for seed in range(seeds):
            out.append((f"{label} #{seed}", {"crawl.strategy": "fcits_oh",
                                             "crawl.seed": str(seed), **switch}))  # fmt: skip
    for name, randomised in BASELINES.items():
        for seed in range(seeds if randomised else 1):
            out.append((f"{name} #{seed}", {"crawl.strategy": name, "crawl.seed": str(seed)}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    world_arguments(parser)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--escapes", type=float, nargs="*", default=[])
    args = parser.parse_args()
    rows = grid_jobs(
        configs(args.seeds, args.escapes),
        args.profiles,
        args.domains,
        args.max_pages,
        args.jobs,
        args.world_seed,
    )
    save_rows(rows, args.save)
    marks = [m for m in MARKS if m <= args.max_pages]
    print("\n| profile | domain | setting | " + " | ".join(f"@{m} (spread)" for m in marks) + " |")
    print("| --- | --- | --- | " + " | ".join("---:" for _ in marks) + " |")
    for profile in args.profiles:
        for domain in args.domains:
            for label in [*variants(args.escapes), *BASELINES]:
                runs = [
                    f
                    for p, d, f in rows
                    if (p, d) == (profile, domain) and f.label.rsplit(" #", 1)[0] == label
                ]
                cells = []
                for m in marks:
                    values = [f.harvest.get(m, 0.0) for f in runs]
                    early = "†" if any(f.dp < m for f in runs) else ""
                    spread = max(values) - min(values)
                    cells.append(f"{statistics.fmean(values):.1%}{early} ({spread:.1%})")
                print(f"| {profile} | {domain} | {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
