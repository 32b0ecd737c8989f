"""kill -9 at random moments of an 8-worker crawl with the graph and a WARC on (issue 15).

python benchmarks/bench_kill.py [--kills 10] [--pages 600] [--workers 8] [--seed 1]

One `kgcrawl crawl` process is started, then SIGKILLed (only that process: its
helpers must die with it) at a random moment, resumed, killed again, … `--kills`
times, and finally resumed to its end. One kill in four lands during start-up
(0.5–5 s); the others 0–2.5 s after the segment's first commit, so they hit a
crawl with fetches in flight and outcomes waiting for their checkpoint. Then the
run is checked against itself:

- pages: outcome numbers 1..n with no gap, no selected URL twice, DP = budget;
- graph: the crawl's FETCHED edges are exactly the pages its outcomes name, and
  the `ok` ones are exactly its downloaded pages (parity, SPEC §8);
- WARC: `warcio check` passes, and the response records are the run's accepted
  fetches, URL for URL (none lost, none twice across the resumes);
- processes: every child a killed crawl had (analysers) is gone within 10 s.

Prints one line per kill (moment, outcomes committed) and the checks.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from kgcrawl.crawl.state import committed_count

RUN = "bench-kill"


def children(pid: int) -> list[int]:
    """The crawl's helpers; not the embedded graph server, which outlives it by design
    (shared by commands; the next command to use it takes it over and stops it)."""
    out = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(pid)], capture_output=True,
                         text=True)  # fmt: skip
    return [int(line.split()[0]) for line in out.stdout.splitlines() if "redis" not in line]


def outlived(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    home = Path(tempfile.mkdtemp(prefix="kgcrawl-kill-"))
    env = {**os.environ, "KGCRAWL_HOME": str(home), "COLUMNS": "120"}
    warc = home / "crawl.warc.gz"
    state = home / "runs" / RUN / "state.sqlite"
    serve = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kgcrawl",
            "sandbox",
            "serve",
            "--size",
            "small",
            "--slow-delay",
            "0.05",
            "--hang",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )  # fmt: skip (the server's own notes on connections reset by a killed crawl)
    resolve = next(line.split("'")[1] for line in serve.stdout if "--resolve" in line)
    base = [sys.executable, "-m", "kgcrawl", "--quiet", "crawl"]
    start = [*base, "tourism", "--run-id", RUN, "--workers", str(args.workers),
             "--max-pages", str(args.pages), "--resolve", resolve, "--warc", str(warc),
             "--graph", "embedded", "--set", "fetch.delay=0", "--set", "relevance.alpha=0.5",
             "--set", "relevance.beta=0.2", "--set", "crawl.checkpoint_every=20"]  # fmt: skip
    resume = [*base, "--resume", RUN, "--resolve", resolve]
    log = (home / "stderr.txt").open("w")
    orphans = 0
    began = time.monotonic()
    try:
        command = start
        for kill in range(1, args.kills + 1):
            before = committed_count(state)
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
            began_segment = time.monotonic()
            while not state.exists() and process.poll() is None:  # a run to resume
                time.sleep(0.02)
            if kill % 4 == 1:  # now and then during start-up (replay, graph, analysers)
                time.sleep(rng.uniform(0.5, 5.0))
            else:  # otherwise while it crawls: after its first commit, at a random moment
                while committed_count(state) <= before and process.poll() is None:
                    time.sleep(0.02)
                time.sleep(rng.uniform(0.0, 2.5))
            moment = time.monotonic() - began_segment
            if process.poll() is not None:
                print(f"kill {kill}: the crawl had ended (exit {process.returncode})")
                break
            helpers = children(process.pid)
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            left = outlived(helpers)
            orphans += len(left)
            print(f"kill {kill}: at +{moment:.2f} s, {committed_count(state)} outcomes committed, "
                  f"{len(helpers)} helpers, {len(left)} left alive")  # fmt: skip
            command = resume
        finished = subprocess.run(resume, env=env, stdout=subprocess.DEVNULL, stderr=log)
        print(f"final resume: exit {finished.returncode}, {time.monotonic() - began:.0f} s in all")
        check(home, warc, args.pages, orphans)
    finally:
        serve.terminate()
        serve.wait(10)
        log.close()


def check(home: Path, warc: Path, pages: int, orphans: int) -> None:
    os.environ["KGCRAWL_HOME"] = str(home)
    from warcio.archiveiterator import ArchiveIterator

    from kgcrawl.crawl.state import RunState
    from kgcrawl.graph.store import connect

    state = RunState.open(RUN)
    outcomes = list(state.outcomes())
    state.close()
    seqs = [o.seq for o in outcomes]
    urls = Counter(o.url for o in outcomes)
    downloaded = {o.final_url for o in outcomes if o.downloaded}
    dp = sum(o.downloaded for o in outcomes)
    print(f"pages: {len(outcomes)} outcomes, DP {dp} / {pages}, "
          f"numbers 1..n {'yes' if seqs == list(range(1, len(seqs) + 1)) else 'NO'}, "
          f"URLs selected twice {sum(c > 1 for c in urls.values())}")  # fmt: skip

    named = downloaded | {o.url for o in outcomes if not o.downloaded and o.url not in downloaded}
    with connect("embedded") as store:
        rows = store.run(
            "MATCH (:Crawl {id: $id})-[f:FETCHED]->(p:Page) RETURN p.url, f.status", {"id": RUN}
        ).rows
    in_graph = {url for url, _ in rows}
    ok = {url for url, status in rows if status == "ok"}
    print(f"graph: {len(rows)} FETCHED for {len(named)} pages named, "
          f"parity {'yes' if in_graph == named and ok == downloaded else 'NO'}")  # fmt: skip

    accepted = Counter(
        o.final_url for o in outcomes
        if o.reason is None or o.reason == "decode"
        or o.reason.startswith(("duplicate of", "parse:"))
    )  # fmt: skip
    with warc.open("rb") as fh:
        kinds = Counter()
        archived = Counter()
        for record in ArchiveIterator(fh):
            kinds[record.rec_type] += 1
            if record.rec_type == "response":
                archived[record.rec_headers.get_header("WARC-Target-URI")] += 1
    checked = subprocess.run([sys.executable, "-m", "warcio.cli", "check", str(warc)],
                             capture_output=True, text=True)  # fmt: skip
    print(f"warc: {dict(kinds)}, {sum(accepted.values())} accepted fetches, "
          f"equal {'yes' if archived == accepted else 'NO'}, "
          f"warcio check exit {checked.returncode}")  # fmt: skip
    print(f"processes: {orphans} helpers outlived their killed crawl")


if __name__ == "__main__":
    main()
