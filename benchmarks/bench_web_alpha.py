"""Ontologies built from a corpus, on every profile: α recalibrated on the web's words or not.

`kgcrawl build-ontology corpus/DOMAIN --base ontologies/DOMAIN.owl` (as `kgcrawl demo`
builds tourism's) holds the corpus's vocabulary; on a web that names little of it the
corpora's α can sit above every page. Each domain's built ontology drives the same
sequential crawls (benchmarks/focus.py: seed 0, one worker, α and β calibrated as
`crawl` does) with `calibration.probe_pages` = 0 (never recalibrate) and 200 (the
default, crawl/core.py `_judge_pending`). Printed per crawl: LP, the F1 of the crawl's own
judgement against the truth ÷ the best threshold's, the true harvest @1 000, and the α
the crawl moved to.

    python -m benchmarks.bench_web_alpha [--max-pages 1000] [--strategies fcits_oh bfs]
        [--profiles …] [--domains …] [--seed 0]

Measured 2026-11-27, with the probe also taking an α below the corpora's near-best
range (crawl/core.py `_judge_pending`; 1 000 pages; F1 of the crawl's judgement against the
truth ÷ the best threshold's, probe 0 → 200):

| domain | profile | fcits_oh | BFS | α (other / zh / en pages; fcits_oh, BFS) |
| --- | --- | --- | --- | --- |
| tourism | default | 0.99 → 1.00 | 0.98 → 0.95 | .41 → .32/.32/.38 both |
| tourism | sparse | 1.00 → 1.00 | no relevant page met | .41 → .26/.26/.36, .41 |
| tourism | flat | 0 → 1.00 (LP 0→985) | 0 → 0.68 (LP 0→626) | .41 → .29/.30/.41, .26/.27/.41 |
| rainstorm | default | 0.98 → 1.00 | 0.92 → 0.98 | .44 → .40/.40/.47, .39/.40/.47 |
| rainstorm | sparse | 0.86 → 0.86 | no relevant page met | 0.44 |
| rainstorm | flat | 0 → 0.98 (LP 0→937) | 0 → 0.99 (LP 0→270) | .44 → .37/.37/.44, .35/.35/.42 |

Before that rule (2026-11-25) default and sparse kept α: 0.99 / 0.98 (tourism fcits_oh /
BFS) and 0.98 / 0.92 (rainstorm) on default, the same figures on sparse and flat.
True harvest @1 000 is the same with either on default and sparse (tourism fcits_oh on
sparse 66.6 → 66.4 %), and for BFS (which reads no judgement) on flat; fcits_oh's on
flat rises 38.1 → 92.3 % (tourism) and 42.1 → 93.1 % (rainstorm): judging no page
relevant, a crawl that never recalibrates explores (`crawl.explore_after`) every other
turn to its end. On the sparse profile BFS meets no relevant page in 1 000, α judged
none relevant, and the probe does trigger; the pages there name 1–3 topic words and the
guard keeps α. On another world (`--seed 1`, before the probe pages were judged again
and before the near-best rule) the same: default and sparse unchanged, flat 0 → 0.91 /
0.83 (fcits_oh, tourism / rainstorm) and 0 → 0.69 / 0.88 (BFS).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.focus import DOMAINS, PROFILES, cell, run_crawl, sandbox_world, settings_for
from kgcrawl.ontology.build import BuildOptions, build_ontology

HERE = Path(__file__).resolve().parents[1]
PROBES = (0, 200)


def built_ontology(domain: str, folder: Path) -> Path:
    """The domain's corpus built into an ontology merged into the shipped one, as the demo."""
    options = BuildOptions(domain=domain, base=HERE / "ontologies" / f"{domain}.owl",
                           out=folder / f"{domain}.fca.owl", lattice_dir=folder)  # fmt: skip
    return Path(build_ontology(HERE / "corpus" / domain, options).files[-2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-pages", type=int, default=1000)
    parser.add_argument("--strategies", nargs="+", default=["fcits_oh", "bfs"])
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    parser.add_argument("--seed", type=int, default=0, help="sandbox world")
    args = parser.parse_args()
    print("| domain | profile | strategy | probe | LP | F1 ÷ best (best α) | @1 000 | α moved |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | --- |")
    with tempfile.TemporaryDirectory(prefix="kgcrawl-web-alpha-") as tmp:
        for domain in args.domains:
            owl = built_ontology(domain, Path(tmp))
            for profile in args.profiles:
                with sandbox_world(profile, domain, args.seed) as world:
                    for strategy in args.strategies:
                        for probe in PROBES:
                            overrides = {"ontology": str(owl), "crawl.strategy": strategy,
                                         "calibration.probe_pages": str(probe)}  # fmt: skip
                            f = run_crawl(world, settings_for(domain, overrides), strategy,
                                          args.max_pages)  # fmt: skip
                            ratio = f"{f.f1 / f.best_f1:.2f}" if f.best_f1 else "n/a"
                            print(f"| {domain} | {profile} | {strategy} | {probe} | {f.lp} | "
                                  f"{ratio} ({f.best_alpha:.2f}) | {cell(f, 1000)} | "
                                  f"{f.web_alpha or '–'} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
