"""Which of a refresh's candidate terms split the crawl's pages beyond chance (new_terms.py).

For each world: one fcits_oh crawl of the sandbox (`--pages`, one worker, seed 0,
no graph; slow hosts and stalls shortened as in bench_focus.py), then
`refresh-ontology --run … --dry-run` without the test for chance, and for its best
candidates the relevant and irrelevant pages holding each, the
score (relevant share − irrelevant share) and the one-sided Fisher p against the
bar 0.05 / terms tested: the terms above the bar are those the refresh now leaves
out.

Run: python benchmarks/refresh_chance.py [--pages 2000] [--top 20]
    [--worlds default/tourism flat/tourism flat/rainstorm sparse/tourism]
"""

from __future__ import annotations

import argparse
import os
import tempfile

import kgcrawl
from kgcrawl.ontology.new_terms import split_by_chance
from kgcrawl.ontology.refresh import RefreshOptions, refresh_ontology
from kgcrawl.runner import sandbox_process

WORLDS = ("default/tourism", "flat/tourism", "flat/rainstorm", "sparse/tourism")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--worlds", nargs="+", default=list(WORLDS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["KGCRAWL_HOME"] = home
        for world in args.worlds:
            profile, domain = world.split("/")
            with sandbox_process(0, "default", slow_delay=0.01, hang=0.5, profile=profile,
                                 crawl_delay=0.0) as resolve:  # fmt: skip
                crawled = kgcrawl.crawl(domain, resolve=resolve, delay=0.0, workers=1, seed=0,
                                        max_pages=args.pages, graph="none", strategy="fcits_oh",
                                        run_id=f"{profile}-{domain}")  # fmt: skip
            # the test against the crawl's own pages, as it was (refresh_terms.py: with both)
            options = RefreshOptions(run=crawled.run_id, dry_run=True, significance=1.0,
                                     max_new=args.top, background=False)  # fmt: skip
            result = refresh_ontology(domain, options)
            bar = 0.05 / result.tested
            print(f"{world}: {result.relevant_pages} relevant and {result.irrelevant_pages} "
                  f"irrelevant pages, {result.tested} terms tested, {result.candidates} "
                  f"candidates; bar p < {bar:.1e}")  # fmt: skip
            terms = result.added
            chance = split_by_chance([t.relevant_pages for t in terms],
                                     [t.irrelevant_pages for t in terms],
                                     result.relevant_pages, result.irrelevant_pages)  # fmt: skip
            for term, p in zip(terms, chance, strict=True):
                print(f"    {term.term:16} {term.relevant_pages:5} {term.irrelevant_pages:5} "
                      f"{term.score:6.3f}  p {p:.1e}{'' if p < bar else '  left out'}")  # fmt: skip


if __name__ == "__main__":
    main()
