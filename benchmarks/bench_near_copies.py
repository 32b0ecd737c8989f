"""Does SimHash find the sandbox's near copies, and at what cost? Old tree beside new.

python benchmarks/bench_near_copies.py [--trees OLD_TREE .] [--pairs 200]
                                       [--profiles default flat] [--world-seed 0]

OLD_TREE is a source tree, e.g. `git archive HEAD~1 kgcrawl | tar -x -C /tmp/old`.
Walks each profile's world breadth-first from both domains' seeds (no network:
`World.respond` and the fetcher's `decode_html`) until `--pairs` pages the truth
calls near copies of another page and whose visible text differs from it
(near-mirror pages and printer copies; session-id variants have the same text)
have been met. Each tree's `crawl/dedup.py` `simhash` is then run, in a child
process in that tree, on both pages of every pair (the analysis's visible text,
`ParsedPage.text`) and on the first 500 pages met: printed are the pairs it finds
(within 3 bits, `Fingerprints.max_distance`), a histogram of their distances,
and its CPU per page. The sparse (English) profile has no such pages.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

from kgcrawl.crawl.decode import decode_html
from kgcrawl.sandbox.world import World
from kgcrawl.text.html import parse_html

MAX_VISITS = 60_000
CHILD = """
import json, pickle, sys, time
from kgcrawl.crawl.dedup import simhash
pairs, pages = pickle.load(open(sys.argv[1], "rb"))
start = time.process_time()
for text in pages:
    simhash(text)
cpu = (time.process_time() - start) / len(pages) * 1000
distances = [(simhash(a) ^ simhash(b)).bit_count() for a, b in pairs]
print(json.dumps({"ms": cpu, "distances": distances}))
"""


def visible_text(world: World, url: str) -> str | None:
    reply = world.get(url)
    kind = dict(reply.headers).get("Content-Type", "")
    if reply.status != 200 or not kind.startswith("text/html"):
        return None
    _, charset = decode_html(reply.body, kind)
    return parse_html(reply.body, url, charset).text


def near_pairs(world: World, wanted: int) -> tuple[list[tuple[str, str]], list[str]]:
    """(near copy, its canonical page) texts that differ, and the first 500 pages' texts."""
    seeds = world.seeds("tourism") + world.seeds("rainstorm")
    seen, queue, pairs, pages = set(), deque(seeds), [], []
    while queue and len(seen) < MAX_VISITS and len(pairs) < wanted:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        queue.extend(world.links(url))
        truth = world.truth(url)
        if len(pages) < 500 and (text := visible_text(world, url)) is not None:
            pages.append(text)
        if truth is None or truth.duplicate != "near":
            continue
        copy, canonical = visible_text(world, url), visible_text(world, truth.canonical)
        if copy and canonical and copy != canonical:
            pairs.append((copy, canonical))
    return pairs, pages


def measure(tree: Path, data: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(data)], env=env, cwd=tree,
                         capture_output=True, text=True)  # fmt: skip
    if out.returncode:
        raise SystemExit(f"{tree}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=["."])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--profiles", nargs="+", default=["default", "flat"])
    parser.add_argument("--world-seed", type=int, default=0)
    args = parser.parse_args()
    for profile in args.profiles:
        started = time.perf_counter()
        pairs, pages = near_pairs(World(args.world_seed, "default", profile), args.pairs)
        print(f"profile {profile}: {len(pairs)} near copies whose text differs "
              f"({time.perf_counter() - started:.0f} s to find)")  # fmt: skip
        if not pairs:
            continue
        with tempfile.NamedTemporaryFile(suffix=".pkl") as data:
            pickle.dump((pairs, pages), data)
            data.flush()
            for tree in args.trees:
                result = measure(Path(tree).resolve(), Path(data.name))
                found = sum(d <= 3 for d in result["distances"])
                histogram = sorted(collections.Counter(result["distances"]).items())[:10]
                print(f"  {tree:30s} found {found} of {len(pairs)}, "
                      f"{result['ms']:.3f} ms a page; distances {histogram}")  # fmt: skip


if __name__ == "__main__":
    main()
