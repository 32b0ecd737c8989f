"""Are the terms refresh-ontology adds the domain's own words? Judged by the sandbox's lexicons.

For each profile × domain: one fcits_oh crawl of the sandbox (`--pages`, one worker,
seed 0, no graph; slow hosts and stalls shortened as in bench_focus.py), kept in
`--home` so that a second call refreshes the same pages again, then
`refresh-ontology --run … --dry-run` with the default options (`--set` changes
them: `--set background=0` is the refresh that contrasts the crawl's own
irrelevant pages only; `--ablate` switches off a rule by which the off-topic
documents speak for a word). Each added term is looked up in the world's own topic
vocabularies (kgcrawl/sandbox/lexicon.py, which the refresh never reads): the
domain's word, another topic's word (which topic), or neither (filler, place
names, words of no topic). Printed per world: the relevant and irrelevant pages
read, the background documents contrasted, the terms added and how many are the
domain's, and the terms that are not.

    python benchmarks/refresh_terms.py [--pages 1000] [--home DIR] [--world-seed N]
        [--profiles …] [--domains …] [--set key=value …] [--ablate share register place]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from dataclasses import fields
from pathlib import Path

import kgcrawl
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError
from kgcrawl.ontology import new_terms
from kgcrawl.ontology.refresh import RefreshOptions, refresh_ontology
from kgcrawl.runner import sandbox_process
from kgcrawl.sandbox.lexicon import TOPICS, topic_words
from kgcrawl.text.tokenize import is_chinese

PROFILES = ("default", "sparse", "flat")
DOMAINS = ("tourism", "rainstorm")


def topic_of(term: str, domain: str) -> str:
    """The topic whose vocabulary holds the term (the domain first), else "".

    A whole entry is looked for first, then a part of one, since the refresh proposes
    the words a compound is segmented into: "park" of "theme park", 农作物 of 农作物受灾.
    """
    word = term.lower()
    order = (domain, *(topic for topic in TOPICS if topic != domain))
    for whole in (True, False):
        for topic in order:
            entries = _LEXICON.setdefault(topic, topic_words(topic))
            if word in entries if whole else _part_of(word, entries):
                return topic
    return ""


_LEXICON: dict[str, frozenset[str]] = {}


def _part_of(word: str, entries: frozenset[str]) -> bool:
    if is_chinese(word):
        return any(word in entry for entry in entries)
    return any(set(word.split()) <= set(entry.split()) for entry in entries)


# Each rule by which the off-topic documents speak for a word (new_terms.py), switched off.
ABLATIONS = {
    "share": lambda: setattr(new_terms, "CORE_SHARE", 0.0),  # (a) a word of most pages
    "register": lambda: setattr(  # (b) no more often in the irrelevant pages
        new_terms, "vouches", lambda rel, _irr, _n_irr, _held, n_docs: rel >= 0.5 and n_docs > 0
    ),
    "place": lambda: setattr(new_terms, "is_place_name", lambda term: False),  # (c) no place
}


def crawled(home: Path, profile: str, domain: str, pages: int, seed: int) -> str:
    """The run id of a finished fcits_oh crawl of the world, crawled now if `home` has none."""
    run_id = f"{profile}-{domain}-{pages}" + (f"-w{seed}" if seed else "")
    try:
        state = RunState.open(run_id)
        done = state.meta().get("ended")
        state.close()
        if done:
            return run_id
    except KgcrawlError:
        pass
    with sandbox_process(seed, "default", slow_delay=0.01, hang=0.5, profile=profile,
                         crawl_delay=0.0) as resolve:  # fmt: skip
        kgcrawl.crawl(domain, resolve=resolve, delay=0.0, workers=1, seed=0, max_pages=pages,
                      graph="none", strategy="fcits_oh", run_id=run_id)  # fmt: skip
    return run_id


def options(pairs: list[str], run_id: str) -> RefreshOptions:
    """RefreshOptions for a dry run of `run_id`, with `key=value` pairs of its fields."""
    kinds = {f.name: f.type for f in fields(RefreshOptions)}
    given = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in kinds:
            raise SystemExit(f"--set {pair}: RefreshOptions has no field {key!r}")
        kind = kinds[key]
        given[key] = value if "str" in kind else float(value) if "float" in kind else int(value)
    return RefreshOptions(run=run_id, dry_run=True, **given)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--home", type=Path, help="keep the crawls here (default: a temp dir)")
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    parser.add_argument("--world-seed", type=int, default=0)
    parser.add_argument("--set", nargs="*", default=[], dest="pairs")
    parser.add_argument("--ablate", nargs="*", default=[], choices=list(ABLATIONS))
    args = parser.parse_args()
    for rule in args.ablate:
        ABLATIONS[rule]()
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp)
        os.environ["KGCRAWL_HOME"] = str(home)
        print("| world | relevant / irrelevant pages | background | added | domain's | "
              "other topics' | of no topic |")  # fmt: skip
        print("| --- | --- | ---: | ---: | ---: | --- | --- |")
        for profile in args.profiles:
            for domain in args.domains:
                run_id = crawled(home, profile, domain, args.pages, args.world_seed)
                result = refresh_ontology(domain, options(args.pairs, run_id))
                kinds = {t.term: topic_of(t.term, domain) for t in result.added}
                own = sum(kind == domain for kind in kinds.values())
                other = ", ".join(f"{t} ({k})" for t, k in kinds.items() if k not in ("", domain))
                none = ", ".join(t for t, k in kinds.items() if not k)
                print(f"| {profile}/{domain} | {result.relevant_pages} / "
                      f"{result.irrelevant_pages} | {result.background_documents} | "
                      f"{len(kinds)} | {own} | {other} | {none} |")  # fmt: skip


if __name__ == "__main__":
    main()
