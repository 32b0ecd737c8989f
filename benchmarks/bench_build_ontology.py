"""`kgcrawl build-ontology` on synthetic corpora: seconds per stage, concepts, peak memory.

Budget (issue 3): end to end (read, segment, terms, context, lattice, taxonomy,
diagram, OWL) on 500 documents × 120 terms ≤ 30 s on the 2-core machine.

Each size runs in a fresh process, so peak RSS (`resource.getrusage`) is that
build's own. The corpora are generated, not shipped: documents of 200–2 000
characters, about nine in ten Chinese, written from topic vocabularies (nouns
from jieba's own dictionary, Zipf-weighted within a topic) with verbs and
function words between them, and one in ten English. On each build's formal
context the script then times the `concepts` library (Lindig's algorithm) on
the transposed context, and on the untransposed one only up to
`--untransposed-max` documents (default 100: NOTES.md measured 285 s for
500 × 120), each in its own process under `--timeout` seconds.

Run: python benchmarks/bench_build_ontology.py [--sizes 100 500 1500] [--corpus corpus/tourism]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_ENGLISH = """
river flood rain storm warning station reservoir levee village county road bridge tunnel
landslide rescue shelter hotel museum temple lake mountain park ticket train airport bus
guide tour route cruise beach island garden palace market festival campsite hostel resort
valley canyon waterfall forest desert glacier harbour pagoda monastery gallery theatre
stadium castle fortress lighthouse vineyard
"""
ENGLISH_NOUNS = tuple(_ENGLISH.split())


def _vocabulary(seed: int) -> tuple[list[list[str]], list[str], list[str]]:
    """Topic noun lists, background nouns and verbs drawn from jieba's dictionary."""
    import jieba

    rng = random.Random(seed)
    nouns, verbs = [], []
    path = Path(jieba.__file__).with_name("dict.txt")
    for line in path.read_text(encoding="utf-8").splitlines():
        word, freq, tag = line.split(" ")
        if 2 <= len(word) <= 4 and 300 <= int(freq) <= 20000:
            if tag == "n":
                nouns.append(word)
            elif tag == "v" and len(word) == 2:
                verbs.append(word)
    rng.shuffle(nouns)
    rng.shuffle(verbs)
    topics = [nouns[i * 30 : (i + 1) * 30] for i in range(16)]
    return topics, nouns[480:640], verbs[:300]


def _zipf(rng: random.Random, words: list[str]) -> str:
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(words))]
    return rng.choices(words, weights)[0]


def write_corpus(folder: Path, n_docs: int, seed: int = 1) -> None:
    """n_docs .txt files of 200–2 000 characters, deterministic from `seed`."""
    topics, background, verbs = _vocabulary(seed)
    rng = random.Random(seed)
    glue = ["的", "和", "在", "对", "将", "与", "为", "从"]
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n_docs):
        length = int(min(2000, max(200, rng.lognormvariate(6.4, 0.6))))
        if rng.random() < 0.1:
            words = []
            while sum(len(w) + 1 for w in words) < length:
                words += ["the", rng.choice(ENGLISH_NOUNS), "of", rng.choice(ENGLISH_NOUNS)]
            text = " ".join(words) + "."
        else:
            main, *side = rng.sample(range(len(topics)), 3)
            parts: list[str] = []
            while sum(len(p) for p in parts) < length:
                pick = rng.random()
                pool = topics[main] if pick < 0.6 else topics[rng.choice(side)]
                if pick >= 0.85:
                    pool = background
                parts += [_zipf(rng, pool), rng.choice(verbs), _zipf(rng, topics[main])]
                parts += [rng.choice(glue), _zipf(rng, pool), "。"]
            text = "".join(parts)
        (folder / f"doc{i:05d}.txt").write_text(text, encoding="utf-8")


def run_one(corpus: Path, work: Path, min_support: int, max_concepts: int) -> dict:
    """Build once (in this process) and report stages, sizes and peak memory."""
    from kgcrawl.ontology.build import BuildOptions, build_ontology
    from kgcrawl.ontology.lattice import LatticeError

    options = BuildOptions(
        domain="bench",
        lattice_dir=work / "lattice",
        out=work / "bench.fca.owl",
        min_support=min_support,
        max_concepts=max_concepts,
    )
    start = time.perf_counter()
    try:
        result = build_ontology(corpus, options)
    except LatticeError as exc:
        return {"guard": str(exc), "seconds": time.perf_counter() - start}
    return {
        "documents": len(result.corpus),
        "terms": len(result.context.attributes),
        "density": result.context.density(),
        "concepts": len(result.lattice),
        "min_support": min_support,
        "classes": len(result.taxonomy.classes),
        "depth": result.ontology.max_depth,
        "stages": result.timings,
        "wall": time.perf_counter() - start,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cxt": str(work / "lattice" / "bench.cxt"),
    }


def time_library(cxt: str, transpose: bool) -> dict:
    """The `concepts` library's lattice on a saved context (in this process)."""
    from kgcrawl.ontology.fca import read_cxt
    from kgcrawl.ontology.lattice import library_concepts

    ctx = read_cxt(cxt)
    start = time.perf_counter()
    count = len(library_concepts(ctx, transpose=transpose))
    return {"seconds": time.perf_counter() - start, "concepts": count}


def _child(args: list[str], timeout: float) -> dict | None:
    """Run this script with `args` in a fresh process; None when it times out."""
    command = [sys.executable, __file__, *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


STAGES = ("read", "segment", "terms", "context", "lattice", "taxonomy", "diagram", "owl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 500, 1500])
    parser.add_argument("--corpus", type=Path, nargs="*", default=[], help="real corpora too")
    parser.add_argument("--timeout", type=float, default=300, help="per library run, seconds")
    parser.add_argument("--untransposed-max", type=int, default=100, help="documents")
    parser.add_argument("--library-max-concepts", type=int, default=100_000)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--min-support", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--max-concepts", type=int, default=200_000, help=argparse.SUPPRESS)
    parser.add_argument("--library", help=argparse.SUPPRESS)
    parser.add_argument("--transpose", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.work, args.min_support, args.max_concepts)))
        return
    if args.library:
        print(json.dumps(time_library(args.library, args.transpose)))
        return

    print(
        "| corpus | options | docs × terms | density | concepts | classes | "
        + " | ".join(STAGES)
        + " | end to end | peak RSS | `concepts` transposed | untransposed |"
    )
    print("|" + " --- |" * (len(STAGES) + 10))
    with tempfile.TemporaryDirectory(prefix="kgcrawl-bench-") as tmp:
        runs: list[tuple[str, Path, list[str]]] = []
        for size in args.sizes:
            folder = Path(tmp) / f"synthetic-{size}"
            write_corpus(folder, size)
            runs.append((f"synthetic {size}", folder, []))
            if size >= 1500:
                runs.append((f"synthetic {size}", folder, ["--min-support", str(size // 50)]))
                runs.append((f"synthetic {size}", folder, ["--max-concepts", "5000000"]))
        runs += [(str(path), path, []) for path in args.corpus]
        for n, (name, folder, options) in enumerate(runs):
            work = Path(tmp) / f"run{n}"
            one = _child(["--one", str(folder), "--work", str(work), *options], 3600)
            shown = " ".join(options) or "defaults"
            if one is None or "guard" in one:
                what = (
                    "timed out" if one is None else f"guard stopped it after {one['seconds']:.2f} s"
                )
                print(f"| {name} | {shown} | {what} |", flush=True)
                continue
            library = [
                _library(one, args, transpose=True),
                _library(one, args, transpose=False),
            ]
            stages = " | ".join(f"{one['stages'][s]:.2f}" for s in STAGES)
            print(
                f"| {name} | {shown} | {one['documents']} × {one['terms']} | "
                f"{one['density']:.1%} | {one['concepts']:,} | {one['classes']} | {stages} | "
                f"{sum(one['stages'].values()):.2f} s | {one['peak_rss_mb']:.0f} MB | "
                f"{library[0]} | {library[1]} |",
                flush=True,
            )
    print(f"\ncpu count {os.cpu_count()}; budget: synthetic 500, defaults, end to end ≤ 30 s")


def _library(one: dict, args: argparse.Namespace, transpose: bool) -> str:
    """Seconds of the `concepts` library on the run's context, or why it was not run."""
    if one["min_support"]:
        return "not run (the library has no support threshold)"
    if one["concepts"] > args.library_max_concepts:
        return f"not run (> {args.library_max_concepts:,} concepts)"
    if not transpose and one["documents"] > args.untransposed_max:
        return f"not run (> {args.untransposed_max} docs)"
    flags = ["--transpose"] if transpose else []
    run = _child(["--library", one["cxt"], *flags], args.timeout)
    if run is None:
        return f"> {args.timeout:.0f} s (timeout)"
    assert run["concepts"] == one["concepts"], "the engines disagree"
    return f"{run['seconds']:.2f} s"


if __name__ == "__main__":
    main()
