"""A built English ontology against the shipped tourism.owl on the `sparse` profile (issue 18).

`build-ontology corpus/tourism-en --topic tourism` makes an ontology from the
English tourism corpus written for this project; both ontologies then drive
the same sequential fcits_oh crawl of the sparse sandbox world (English
academic pages with truth, benchmarks/focus.py), and the true harvest at
500 / 1 000 pages is compared (target: the built one ≥ 90 % of the shipped
one's @1 000). Each ontology gets its own world and outcome cache, since a
page's relevance depends on the ontology; α and β are calibrated as `crawl`
does, the built ontology on its own corpus (`calibration.positives`).

Measured 2026-11-24 (fcits_oh, 1 000 pages, anchors as in the paper; true harvest @1 000):

| world | shipped tourism.owl | shipped, α on tourism-en | built from tourism-en | built / shipped |
| --- | --- | --- | --- | --- |
| sparse, seed 0 | 52.2 % (α 0.38) | 52.8 % (α 0.32) | 62.3 % (α 0.60) | 119 % |
| sparse, seed 1 | 59.5 % | 59.5 % | 60.4 % | 102 % |

Run: python -m benchmarks.bench_built_ontology [--max-pages 1000] [--seeds 0 1]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.focus import cell, run_crawl, sandbox_world, settings_for
from kgcrawl.ontology.build import BuildOptions, build_ontology

HERE = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-pages", type=int, default=1000)
    parser.add_argument("--strategy", default="fcits_oh")
    parser.add_argument("--corpus", type=Path, default=HERE / "corpus" / "tourism-en")
    parser.add_argument("--seeds", type=int, nargs="*", default=[0], help="sandbox worlds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kgcrawl-built-") as tmp:
        built = build_ontology(
            args.corpus,
            BuildOptions(
                topic="tourism",
                lattice_dir=Path(tmp),
                out=Path(tmp) / "tourism-en.fca.owl",
            ),
        )
        onto = built.ontology
        print(
            f"built: {len(onto) - 1} classes, depth {onto.max_depth}, "
            f"{len(onto.children[onto.root])} under the root"
        )
        english = {"calibration.positives": str(args.corpus)}
        runs = [
            ("shipped tourism.owl", {}),
            ("shipped, α on tourism-en", english),
            (
                "built from tourism-en",
                {
                    "ontology": str(built.files[-2]),
                    "topic": "tourism",
                    "calibration.positives": str(args.corpus),
                },
            ),
        ]
        for seed in args.seeds:
            results = {}
            for label, overrides in runs:
                settings = settings_for("tourism", {"crawl.strategy": args.strategy} | overrides)
                with sandbox_world("sparse", "tourism", seed) as world:
                    figures = run_crawl(world, settings, label, args.max_pages)
                results[label] = figures
                print(
                    f"seed {seed} {label:26} α {figures.alpha:.3f}  DP {figures.dp}  "
                    f"@500 {cell(figures, 500)}  @1000 {cell(figures, 1000)}  "
                    f"({figures.seconds:.0f} s)",
                    flush=True,
                )
            shipped, mine = results["shipped tourism.owl"], results["built from tourism-en"]
            if 1000 in shipped.harvest and 1000 in mine.harvest and shipped.harvest[1000]:
                ratio = mine.harvest[1000] / shipped.harvest[1000]
                print(f"seed {seed} built / shipped @1000: {ratio:.0%}")


if __name__ == "__main__":
    main()
