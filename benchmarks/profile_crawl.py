"""Where a crawl's CPU goes: py-spy over every process of one sandbox crawl (issue 19).

python benchmarks/profile_crawl.py [--pages 3000] [--workers 8] [--strategy fcits_oh]
                                   [--raw FILE] [--top 15]

Runs `kgcrawl crawl tourism` (robots on, delay 0, no graph) against the default
sandbox world under `py-spy record --subprocesses` (200 samples a second, the
analyser processes included), or reads a raw profile py-spy wrote before
(`--raw` of an existing file). Idle samples (threads waiting on a lock, a socket
or the executor's queue) are left out. Printed: the share of busy samples per
stage of the page's way (the first stage found from the innermost frame out),
per process kind, and the functions with the most own samples. Needs the
`bench` extra (py-spy).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from kgcrawl.runner import sandbox_process

# A sample waiting, not working: its innermost frame is one of these (StopFlag.wait's
# poll, `_readable`, too: py-spy counted it busy).
IDLE = ("Condition.wait", "Event.wait", "_PollLikeSelector.select", "SocketIO.readinto",
        "_ConnectionBase.recv", "Connection._recv", "_wait_for_tstate_lock", "sleep",
        "_worker (concurrent/futures/thread.py:81)", "_readable (kgcrawl/stop_flag.py")  # fmt: skip
# (stage, a substring of a frame); from the innermost frame out, the first match names it.
STAGES = (
    ("trafilatura", "trafilatura/"),
    ("resiliparse", "extract_resiliparse"),
    ("topic words", "TopicMatcher.count_sparse"),
    ("lxml pass", "parse_html"),
    ("SimHash", "simhash"),
    ("page length", "token_length"),
    ("exact hash", "exact_hash"),
    ("fetch", "Fetcher.fetch"),
    ("fold", "Crawl.fold"),
    ("checkpoint", "Engine._checkpoint"),
    ("PageRank", "solve_pagerank"),
    ("select, dispatch", "Dispatcher"),
    ("start (imports)", "_find_and_load"),
    ("pickling, executor", "ForkingPickler"),
    ("pickling, executor", "Connection._send"),
    ("pickling, executor", "_sendback_result"),
    ("pickling, executor", "ThreadPoolExecutor.submit"),
)


def record(path: Path, pages: int, workers: int, strategy: str) -> None:
    with (
        sandbox_process(0, "default", profile="default") as resolve,
        tempfile.TemporaryDirectory() as home,
    ):
        crawl = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve", resolve[0],
                 "--max-pages", str(pages), "--workers", str(workers), "--strategy", strategy,
                 "--run-id", "profile", "--set", "fetch.delay=0",
                 "--set", "graph.uri=none"]  # fmt: skip
        spy = ["py-spy", "record", "--subprocesses", "--format", "raw", "-r", "200",
               "-o", str(path), "--"]  # fmt: skip
        env = {**os.environ, "KGCRAWL_HOME": home}
        subprocess.run([*spy, *crawl], env=env, stdout=subprocess.DEVNULL, check=True)


def busy_samples(path: Path) -> list[tuple[list[str], int]]:
    """(frames outermost first, count) of every sample that was not waiting."""
    samples = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")
        if not any(idle in frames[-1] for idle in IDLE):
            samples.append((frames, int(count)))
    return samples


def stage_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        for stage, marker in STAGES:
            if marker in frame:
                return stage
    return "other"


def report(samples: list[tuple[list[str], int]], top: int) -> None:
    stages: Counter[tuple[str, str]] = Counter()
    own: Counter[str] = Counter()
    for frames, n in samples:
        kind = "analyser" if len(frames) > 1 and "spawn_main" in frames[1] else "main"
        stages[kind, stage_of(frames)] += n
        own[frames[-1]] += n
    total = sum(stages.values())
    print(f"{total} busy samples; share per stage:")
    for (kind, stage), n in stages.most_common():
        print(f"  {kind:9} {stage:20} {n / total:6.1%}")
    print(f"the {top} functions with the most own samples:")
    for frame, n in own.most_common(top):
        print(f"  {n / total:6.1%}  {frame[:100]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--strategy", default="fcits_oh")
    parser.add_argument(
        "--raw", type=Path, help="py-spy's raw output: read if it exists, else written"
    )
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.raw or Path(tmp) / "profile.raw"
        if not path.exists():
            record(path, args.pages, args.workers, args.strategy)
        report(busy_samples(path), args.top)


if __name__ == "__main__":
    main()
