"""kgcrawl against a fair Scrapy spider on the same sandbox world (issue 19).

python benchmarks/bench_vs_scrapy.py [--pages 3000] [--workers 8] [--rounds 3]
    [--strategy fcits_oh] [--profile default] [--trees OLD_TREE .]

One sandbox server (a child process, not measured) serves both crawlers; they
run one after the other, interleaved A B A B A B, each in its own process tree:
`python -m kgcrawl crawl tourism --resolve …` (robots on, delay 0, no graph)
and `scrapy_peer.py` (lxml parse, link extraction, url/title/text item, keyword
best-first, robots on, delay 0). Both keep `--workers` requests in flight.
Per run: downloaded pages, wall pages/s, CPU ms per page of the whole process
tree (user + system, from wait4, which adds the reaped analysers) and peak RSS
of the tree (the sum over its processes, sampled every 50 ms), the CPU the
server spent per page in that run (the server shares the machine's cores), and
the cores both kept busy: a run near the machine's core count is bound by CPU,
and only less CPU a page makes it faster. Printed as
medians and as kgcrawl ÷ Scrapy ratios. With `--trees`, kgcrawl runs from each
source tree in turn (PYTHONPATH; OLD_TREE e.g. `git worktree add /tmp/old HEAD~1`),
each round A B … then Scrapy, and each tree gets its own line of medians and
ratios. Needs the `bench` extra (scrapy).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
FIGURES = (("pages_per_s", "wall pages/s"), ("cpu_ms", "CPU ms/page"),
           ("peak_mb", "peak RSS MB"), ("server_ms", "server ms/page"),
           ("cores_busy", "cores busy"))  # fmt: skip


@dataclass
class Run:
    pages: int
    seconds: float
    cpu: float
    peak_mb: float
    server_cpu: float = 0.0

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds

    @property
    def cpu_ms(self) -> float:
        return self.cpu / max(self.pages, 1) * 1000

    @property
    def server_ms(self) -> float:
        return self.server_cpu / max(self.pages, 1) * 1000

    @property
    def cores_busy(self) -> float:
        """The crawler's and the server's CPU over the run's wall time: on a machine of
        N cores, a run near N could not go faster whatever the crawler did."""
        return (self.cpu + self.server_cpu) / self.seconds


def _tree_rss(process: psutil.Process) -> int:
    total = 0
    for p in [process, *process.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):  # a process that just ended
            total += p.memory_info().rss
    return total


def measured(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds of the tree, peak tree RSS in MB of one command."""
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, cwd=HERE)
    process = psutil.Process(child.pid)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.05):
            try:
                peak = max(peak, _tree_rss(process))
            except psutil.Error:
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{command[:3]} exited with {child.returncode}")
    return seconds, usage.ru_utime + usage.ru_stime, peak / 2**20


def kgcrawl_run(resolve: str, args, env: dict[str, str]) -> Run:
    """One crawl by `python -m kgcrawl` from the source tree first on env's PYTHONPATH."""
    with tempfile.TemporaryDirectory() as home:
        command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve", resolve,
                   "--max-pages", str(args.pages), "--workers", str(args.workers),
                   "--strategy", args.strategy, "--run-id", "bench",
                   "--set", "fetch.delay=0", "--set", "graph.uri=none"]  # fmt: skip
        seconds, cpu, peak = measured(command, {**env, "KGCRAWL_HOME": home})
        with sqlite3.connect(Path(home) / "runs" / "bench" / "state.sqlite") as db:
            pages = db.execute("SELECT count(*) FROM outcomes WHERE reason IS NULL").fetchone()[0]
    return Run(pages, seconds, cpu, peak)


def scrapy_run(port: int, seeds: list[str], keywords: list[str], args, env) -> Run:
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.json"
        out = Path(tmp) / "stats.json"
        spec.write_text(json.dumps({"proxy": f"http://127.0.0.1:{port}", "seeds": seeds,
                                    "keywords": keywords, "pages": args.pages,
                                    "workers": args.workers, "out": str(out)}))  # fmt: skip
        seconds, cpu, peak = measured([sys.executable, "scrapy_peer.py", str(spec)], env)
        pages = json.loads(out.read_text())["pages"]
    return Run(pages, seconds, cpu, peak)


def _median(runs: list[Run], key: str) -> float:
    return statistics.median(getattr(r, key) for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--strategy", default="fcits_oh")
    parser.add_argument("--profile", default="default")
    parser.add_argument(
        "--trees",
        nargs="+",
        type=Path,
        default=[HERE.parent],
        help="kgcrawl source trees to run, in turn (default: this one)",
    )
    args = parser.parse_args()

    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.config import load_settings
    from kgcrawl.ontology.topic import topic_model_for
    from kgcrawl.runner import sandbox_process
    from kgcrawl.sandbox.world import World

    settings = load_settings("tourism")
    # α and β are calibrated once per ontology and cached (SPEC §4.6): done here, so that
    # no measured crawl pays for it (a first round did: 315 MB peak against 203 MB)
    resolve_thresholds(load_settings("tourism", {"crawl.strategy": args.strategy}))
    topic = topic_model_for(settings)
    keywords = [label for c in topic.ontology.concepts.values() for label in c.all_labels()]
    seeds = list(World(0, "default", args.profile).seeds("tourism"))
    paths = [tree.resolve() for tree in args.trees]
    for path in paths:  # else kgcrawl would come from wherever it is installed
        if not (path / "kgcrawl" / "__init__.py").is_file():
            parser.error(f"--trees {path}: not a kgcrawl source tree (no kgcrawl/__init__.py)")
    # named "kgcrawl" when there is one tree, else by its path
    trees = {"kgcrawl" if len(paths) == 1 else str(path): path for path in paths}
    with sandbox_process(0, "default", profile=args.profile) as resolve:
        port = int(resolve[0].rsplit(":", 1)[1])
        (server,) = psutil.Process().children()
        runs: dict[str, list[Run]] = {name: [] for name in [*trees, "scrapy"]}
        for round_ in range(args.rounds):
            for name in runs:
                before = sum(server.cpu_times()[:2])
                if name in trees:
                    run = kgcrawl_run(resolve[0], args, _env(trees[name]))
                else:
                    run = scrapy_run(port, seeds, keywords, args, _env(HERE.parent))
                run.server_cpu = sum(server.cpu_times()[:2]) - before
                runs[name].append(run)
                print(f"round {round_ + 1} {name:8s} {run.pages} pages, {run.seconds:6.1f} s, "
                      f"{run.pages_per_s:6.1f} pages/s, {run.cpu_ms:5.2f} ms CPU/page, "
                      f"peak RSS {run.peak_mb:5.0f} MB, server {run.server_ms:5.2f} ms CPU/page, "
                      f"{run.cores_busy:4.2f} cores busy",
                      flush=True)  # fmt: skip
    print(f"\nmedians over {args.rounds} rounds, {args.pages} pages, {args.workers} in flight, "
          f"{args.strategy} vs Scrapy keyword best-first, profile {args.profile}:")  # fmt: skip
    for name in trees:
        if len(trees) > 1:
            print(f" {name}:")
        for key, label in FIGURES:
            k, s = _median(runs[name], key), _median(runs["scrapy"], key)
            print(f"  {label:13s} kgcrawl {k:7.2f}  scrapy {s:7.2f}  ratio {k / s:5.2f}x")


def _env(tree: Path) -> dict[str, str]:
    """This environment with `tree`'s kgcrawl first on the path, and these benchmarks."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(HERE)])}


if __name__ == "__main__":
    main()
