"""Do the sandbox profiles reproduce the crawler's failures? (SPEC §12 "Turn 2 — profiles")

Two measurements per profile and domain, both with the crawler's own R(p) (the
pipeline's ontology and settings) against the sandbox's truth:

- `--sample N` (fast, no crawl): the first N pages of a BFS from the seeds,
  scored as pages: relevant share, dead-link share, max R(p), AUC of R(p)
  against the truth, and the best-F1 threshold of R(p).
- crawl (default): `kgcrawl crawl DOMAIN --sandbox --sandbox-profile P
  --max-pages 3000 --workers 1 --seed 0 --delay 0 --set graph.uri=none` with the
  paper's α/β, then `kgcrawl runs export` for R(p) and the truth of every
  downloaded page: DP reached, LP, whether Q_wait ran dry, and the same figures.

A profile reproduces the failure when the crawl starves before 3 000 pages with
LP = 0, max R(p) ≈ 0.5–0.65, AUC ≥ 0.75 and a best-F1 threshold in ~0.3–0.5.
The turn-2 crawler no longer stops when Q_wait runs dry: it promotes a pool link
and counts it. So "starves" is read as the first promotion: `--turn1` crawls with
the turn-1 settings (PR / max, the paper's α/β) and the table gives the DP at which
Q_wait first ran dry (a sequential replay of the run log) and the promotions.

Run: python benchmarks/bench_profiles.py [--profiles sparse flat] [--domains tourism rainstorm]
     [--strategies ops fcits_oh] [--turn1] [--sample 3000] [--max-pages 3000]
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass

import numpy as np

from kgcrawl.config import load_settings
from kgcrawl.crawl.decode import decode_html
from kgcrawl.ontology.topic import topic_model_for
from kgcrawl.scoring.relevance import page_relevance, topic_matcher
from kgcrawl.scoring.thresholds import ranked_above
from kgcrawl.text.analysis import analyse_page


@dataclass
class Figures:
    """What one profile × domain measurement found."""

    pages: int
    relevant: int
    max_r: float
    auc: float
    best_f1: float
    threshold: float
    dp: int | None = None
    lp: int | None = None
    ran_dry: bool | None = None
    first_dry: int | None = None  # DP when Q_wait first ran dry (a pool link was promoted)
    promoted: int | None = None
    dead_links: float | None = None
    seconds: float = 0.0


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Area under the ROC curve (`thresholds.ranked_above`, a tie counting one half: pages
    that name no topic word all score 0); nan without pages of both kinds."""
    pos, neg = scores[labels], scores[~labels]
    if not len(pos) or not len(neg):
        return float("nan")
    return ranked_above(pos.tolist(), neg.tolist())


def best_f1(scores: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """(F1, threshold) of the best rule "relevant when R(p) > t"."""
    best = (0.0, float("nan"))
    for t in np.unique(scores):
        predicted = scores > t - 1e-12
        tp = int((predicted & labels).sum())
        if tp:
            precision, recall = tp / predicted.sum(), tp / labels.sum()
            f1 = 2 * precision * recall / (precision + recall)
            best = max(best, (f1, float(t)))
    return best


def figures(scores: list[float], labels: list[bool], **extra) -> Figures:
    s, y = np.asarray(scores), np.asarray(labels, dtype=bool)
    f1, threshold = best_f1(s, y)
    return Figures(len(s), int(y.sum()), float(s.max()), auc(s, y), f1, threshold, **extra)


def sample(profile: str, domain: str, pages: int) -> Figures:
    """Score the first `pages` BFS pages of the world with the crawler's R(p)."""
    from kgcrawl.sandbox.manifest import bfs
    from kgcrawl.sandbox.world import World

    start = time.monotonic()
    world = World(0, "default", profile)
    topic = topic_model_for(load_settings(domain))
    matcher = topic_matcher(topic)
    scores, labels, links, dead = [], [], 0, 0
    for row in bfs(world, domain, pages):
        reply = world.get(row.url)
        content_type = dict(reply.headers).get("Content-Type", "")
        _, charset = decode_html(reply.body, content_type)
        analysis = analyse_page(reply.body, row.url, matcher, charset)
        scores.append(page_relevance(analysis.counts.astype(float), topic.vector))
        labels.append(row.relevant)
        for link in world.links(row.url):
            links += 1
            dead += world.truth(link).status == 404
    return figures(
        scores, labels, dead_links=dead / max(1, links), seconds=time.monotonic() - start
    )


TURN1 = {  # the turn-1 crawler's settings: PR / max, the paper's α/β per pipeline
    "tourism": ("relevance.pagerank_scale=max", "relevance.alpha=0.70", "relevance.beta=0.19"),
    "rainstorm": ("relevance.pagerank_scale=max", "relevance.alpha=0.62", "relevance.beta=0.15"),
}


def first_dry(run_id: str, home: str) -> int | None:
    """DP at which Q_wait first ran dry: replay the (one-worker) log through a Crawl."""
    import random

    os.environ["KGCRAWL_HOME"] = home
    from kgcrawl.crawl.core import Crawl
    from kgcrawl.crawl.state import RunState
    from kgcrawl.graph.sync import run_settings

    state = RunState.open(run_id)
    settings = run_settings(state)
    replay = Crawl(settings, random.Random(settings.crawl.seed))
    replay.seed(list(settings.seeds))
    try:
        for outcome in state.outcomes():
            link = replay.select()
            if replay.counters.promoted:
                return replay.counters.dp
            replay.fold(link, outcome)
        return None
    finally:
        state.close()


def crawl(
    profile: str, domain: str, max_pages: int, home: str, strategy: str = "", turn1: bool = False
) -> Figures:
    """The paper's crawl on the profile, then its pages' R(p) against the truth."""
    env = os.environ | {"KGCRAWL_HOME": home}
    kgcrawl = [sys.executable, "-m", "kgcrawl"]
    run_id = f"{profile}-{domain}-{strategy or 'default'}-{int(time.time())}"
    extra = ["--strategy", strategy] if strategy else []
    for setting in TURN1[domain] if turn1 else ():
        extra += ["--set", setting]
    start = time.monotonic()
    done = subprocess.run(
        [*kgcrawl, "crawl", domain, "--sandbox", "--sandbox-profile", profile,
         "--max-pages", str(max_pages), "--workers", "1", "--seed", "0", "--delay", "0",
         "--set", "graph.uri=none", "--run-id", run_id, *extra],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    seconds = time.monotonic() - start
    exported = subprocess.run(
        [*kgcrawl, "runs", "export", run_id], env=env, capture_output=True, text=True, check=True
    ).stdout
    rows = [r for r in csv.DictReader(io.StringIO(exported)) if r["relevance"]]
    scores = [float(r["relevance"]) for r in rows]
    labels = [r["truth"] == "1" for r in rows]
    promoted = re.search(r"(\d+)\s+links\s+promoted", done.stdout)
    return figures(
        scores,
        labels,
        dp=len(rows),
        lp=sum(r["relevant"] == "1" for r in rows),
        ran_dry=bool(re.search(r"ran\s+dry", done.stdout)),
        first_dry=first_dry(run_id, home),
        promoted=int(promoted.group(1)) if promoted else 0,
        seconds=seconds,
    )


def row(profile: str, domain: str, f: Figures, strategy: str = "") -> str:
    dry = "no" if f.first_dry is None else f"at DP {f.first_dry} ({f.promoted} promoted)"
    crawled = f"| {f.dp} | {f.lp} | {dry} " if f.dp is not None else f"| {f.pages} | - | - "
    dead = f"{f.dead_links:.0%}" if f.dead_links is not None else "-"
    return (
        f"| {profile} | {domain} | {strategy or '-'} {crawled}"
        f"| {f.relevant / max(1, f.pages):.1%} | {dead} "
        f"| {f.max_r:.3f} | {f.auc:.3f} | {f.threshold:.3f} | {f.best_f1:.3f} "
        f"| {f.seconds:.0f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", nargs="+", default=["sparse", "flat"])
    parser.add_argument("--domains", nargs="+", default=["tourism", "rainstorm"])
    parser.add_argument("--sample", type=int, default=0, help="BFS pages to score (no crawl)")
    parser.add_argument("--strategies", nargs="+", default=[""], help="default: the pipeline's")
    parser.add_argument("--turn1", action="store_true", help="the turn-1 settings (TURN1)")
    parser.add_argument("--max-pages", type=int, default=3000)
    parser.add_argument("--home", default="/tmp/kg-bench-profiles", help="KGCRAWL_HOME of runs")
    args = parser.parse_args()
    print(
        "| profile | domain | strategy | DP | LP | Q_wait first ran dry | relevant share "
        "| dead links | max R(p) | AUC | best-F1 α | best F1 | time |"
    )
    print("|" + " --- |" * 13)
    for profile in args.profiles:
        for domain in args.domains:
            if args.sample:
                print(row(profile, domain, sample(profile, domain, args.sample)), flush=True)
                continue
            for strategy in args.strategies:
                f = crawl(profile, domain, args.max_pages, args.home, strategy, args.turn1)
                print(row(profile, domain, f, strategy), flush=True)


if __name__ == "__main__":
    main()
