"""CPU of the per-page analysis on the same sandbox pages, old tree beside new (issue 19).

python benchmarks/bench_analysis.py [--trees OLD_TREE .] [--pages 500] [--rounds 3]
                                    [--profiles default sparse] [--domains tourism]
                                    [--urls FILE]

OLD_TREE is a source tree, e.g. `git archive HEAD~1 kgcrawl | tar -x -C /tmp/old`.
Each measurement runs in a fresh child process in one tree (PYTHONPATH and cwd):
it renders `--pages` HTML pages of the default sandbox world (the URLs of FILE, one
a line, e.g. the pages a crawl downloaded, else BFS from the domain's seeds; no
network: `World.respond` and the fetcher's `decode_html`, so the input is what a
fetch would give), analyses 100 other pages of the world to warm up (caches are
not handed the measured pages), then times `analyse_result` on every page
(process CPU time) with jieba's dictionary as the trie, as an analyser has it.
Trees are interleaved round by round (A B A B). Printed per tree: median ms CPU
per page, each stage's wall ms per page (inflated on a loaded machine), and a
digest of every outcome field the analysis decides (title, main text, counts,
mentions, length, exact hash, links and their counts): equal digests mean the
trees computed the same results on these pages. Then the pairs of pages whose
texts differ but whose SimHashes lie within 3 bits (near copies, `crawl/dedup.py`).
"of which topic words" is the CPU of `TopicMatcher.count_sparse` in a second
analysis of the same pages by a matcher whose caches start empty (timed call by
call, so it includes ≈ 1 µs a call).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import hashlib, json, time
from collections import deque
from urllib.parse import urlsplit
from kgcrawl.config import load_settings
from kgcrawl.crawl.analyse import StageTimes, analyse_result, link_options
from kgcrawl.crawl.decode import decode_html
from kgcrawl.crawl.fetch import FetchResult
from kgcrawl.ontology.topic import topic_model_for
from kgcrawl.sandbox.world import World
from kgcrawl.scoring.relevance import topic_matcher
from kgcrawl.text.matching import TopicMatcher
from kgcrawl.text.tokenize import use_trie_dictionary

use_trie_dictionary()
world = World(0, "default", {profile!r})


def page(url):
    parts = urlsplit(url)  # not World.get: the child also runs in trees older than it
    reply = world.respond(parts.hostname, (parts.path or "/") + (parts.query and "?" + parts.query))
    kind = dict(reply.headers).get("Content-Type", "")
    if reply.status != 200 or not kind.startswith("text/html"):
        return None
    text, charset = decode_html(reply.body, kind)
    return FetchResult(url, url, 200, content=reply.body, text=text, charset=charset,
                       content_type=kind)


urls = {urls!r}
bfs, seen, queue = [], set(urls), deque(world.seeds({domain!r}))
while queue and len(bfs) < {pages} + 100:
    url = queue.popleft()
    if url in seen:
        continue
    seen.add(url)
    if (fetched := page(url)) is not None:
        bfs.append(fetched)
        queue.extend(world.links(url))
given = [p for p in map(page, urls) if p is not None]
pages, warm = (given[:{pages}], bfs[:100]) if given else (bfs[:{pages}], bfs[{pages}:])
settings = load_settings({domain!r})
matcher = topic_matcher(topic_model_for(settings, keywords=True))
options = link_options(settings)
for p in warm:
    analyse_result(p.url, p, matcher, None, options)
times = StageTimes()
start = time.process_time()
outcomes = [analyse_result(p.url, p, matcher, times, options) for p in pages]
cpu = time.process_time() - start
fields = [[o.title, o.text, o.lang, o.length, o.content_hash, sorted(o.counts.items()),
           sorted(o.mentions.items()), o.links, [sorted(c.items()) for c in o.anchor_counts],
           [sorted(c.items()) for c in o.url_counts],
           [sorted(c.items()) for c in o.context_counts]] for o in outcomes]
digest = hashlib.blake2b(json.dumps(fields, ensure_ascii=False).encode(), digest_size=8)
near = [(i, j) for i, a in enumerate(outcomes) for j, b in enumerate(outcomes[:i])
        if a.content_hash != b.content_hash and (a.simhash ^ b.simhash).bit_count() <= 3]
counter = TopicMatcher(matcher.words)  # its caches start empty, as in a fresh analyser
count = 0.0
count_sparse = counter.count_sparse


def timed_count(text):  # the same analysis again, its topic-word counting timed
    global count
    start = time.process_time()
    try:
        return count_sparse(text)
    finally:
        count += time.process_time() - start


counter.count_sparse = timed_count
for p in pages:
    analyse_result(p.url, p, counter, None, options)
print(json.dumps({{"pages": len(pages), "cpu": cpu, "stages": times.seconds, "count": count,
                  "digest": digest.hexdigest(), "near": near}}))
"""


def measure(tree: Path, profile: str, domain: str, pages: int, urls: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    code = CHILD.format(profile=profile, domain=domain, pages=pages, urls=urls)
    # `python -c` puts its working directory first on sys.path: run it in the tree
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=tree)  # fmt: skip
    if out.returncode:
        raise SystemExit(f"{tree}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=["."])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profiles", nargs="+", default=["default"])
    parser.add_argument("--domains", nargs="+", default=["tourism"])
    parser.add_argument("--urls", type=Path, help="URLs to analyse, one a line (else BFS)")
    args = parser.parse_args()
    trees = [Path(t).resolve() for t in args.trees]
    urls = args.urls.read_text(encoding="utf-8").split() if args.urls else []
    for domain, profile in itertools.product(args.domains, args.profiles):
        runs: dict[Path, list[dict]] = {tree: [] for tree in trees}
        for _ in range(args.rounds):
            for tree in trees:
                runs[tree].append(measure(tree, profile, domain, args.pages, urls))
        print(f"{domain}, profile {profile}, {args.pages} pages, {args.rounds} rounds (median):")
        for tree, results in runs.items():
            n = results[0]["pages"]
            ms = statistics.median(r["cpu"] for r in results) / n * 1000
            stages = {k: statistics.median(r["stages"][k] for r in results) / n * 1000
                      for k in results[0]["stages"]}  # fmt: skip
            stages["of which topic words"] = (
                statistics.median(r["count"] for r in results) / n * 1000
            )
            split = ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
            digests = sorted({r["digest"] for r in results})
            near = results[0]["near"]
            print(
                f"  {tree!s:40s} {ms:6.2f} ms CPU/page ({split}) results {' '.join(digests)}, "
                f"{len(near)} near copies {near[:5]}"
            )


if __name__ == "__main__":
    main()
