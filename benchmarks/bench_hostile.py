"""Hazard → outcome → time → peak RSS: the crawler against the hostile server (SPEC §6 turn 2).

Each hazard is fetched (and, when the fetch succeeds, analysed as the crawl does,
`fetch.max_links` links kept) in a fresh Python process, which reports its own peak
RSS (VmHWM: `wait4`'s would keep this process's from before `exec`); "seconds" is
the fetch + analysis inside that process, without interpreter start-up. "crawl:
SIGTERM during a drip" runs `kgcrawl crawl` on a seed whose fourth link drips,
signals it 0.3 s into the drip and reports the seconds from the signal to the exit,
and the outcomes committed.

Settings: defaults except `fetch.delay = 0` and `read_timeout = --read-timeout`
(5 s: the exchange deadline is connect 5 s + read 5 s = 10 s; at the default
20 s every drip takes 25 s). The server drips one byte per 0.2 s.

Run: python benchmarks/bench_hostile.py [--read-timeout 5] [--only PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.crawl.hostile import HostileServer  # noqa: E402

LINKS = 100_000
NESTING = 100_000
HAZARDS = [
    ("plain page", "/ok"),
    ("1 byte / 0.2 s body", "/drip-body"),
    ("1 byte / 0.2 s headers", "/drip-headers"),
    ("never answers", "/silent"),
    ("TCP reset", "/reset"),
    ("closed without a byte", "/close"),
    ("bad status line", "/bad-status"),
    ("two Content-Lengths", "/dup-length"),
    ("truncated body", "/truncated"),
    ("bad chunk size", "/bad-chunk"),
    ("50 MB, no Content-Length", "/huge"),
    ("50 MB declared", "/huge-declared"),
    ("gzip bomb (64 MiB)", "/gzip-bomb"),
    ("deflate bomb (64 MiB)", "/deflate-bomb"),
    ("redirect chain of 3", "/redirect/3"),
    ("redirect chain of 7", "/redirect/7"),
    ("redirect loop", "/loop/a"),
    ("redirect to 127.0.0.1", "/to-private"),
    ("redirect to NAT64 of 127.0.0.1", "/to-nat64"),
    ("redirect to http://[::1", "/to-malformed"),
    ("charset=undefined", "/charset/undefined"),
    ("charset=punycode", "/charset/punycode"),
    ("429, Retry-After: 1", "/retry-after"),
    ("429, Retry-After: 100000", "/retry-after-long"),
    (f"{LINKS:,} links on a page", "/links"),
    (f"{NESTING:,} nested <div>", "/nested"),
    ("poison page (bad hrefs, <base>)", "/poison"),
]
POISON = """<html><head><title>旅游</title><base href="http://["></head><body><p>景区</p>
<a href="http://[::1">x</a><a href="http://[::1]:1/x">y</a><a href="/ok">ok</a></body></html>"""


def extra_pages() -> dict[str, str]:
    links = "".join(f'<li><a href="/p/{i}">旅游 {i}</a>' for i in range(LINKS))
    nested = "<div>" * NESTING + "旅游" + "</div>" * NESTING
    return {
        "/links": f"<html><title>links</title><body><ul>{links}</ul></body></html>",
        "/nested": f"<html><title>nested</title><body>{nested}</body></html>",
        "/poison": POISON,
    }


def one(url: str, resolve: str, read_timeout: float) -> None:
    """Child process: fetch and analyse one URL, print what came of it as JSON."""
    from kgcrawl.config import Fetch
    from kgcrawl.crawl.addresses import parse_resolve
    from kgcrawl.crawl.analyse import analyse_result
    from kgcrawl.crawl.fetch import Fetcher
    from kgcrawl.text.analysis import LinkOptions
    from kgcrawl.text.matching import TopicMatcher

    settings = Fetch(delay=0.0, read_timeout=read_timeout)
    matcher = TopicMatcher([("旅游",), ("景区",)])
    start = time.monotonic()
    result = Fetcher(settings, parse_resolve([resolve])).fetch(url)
    outcome = analyse_result(
        url, result, matcher, options=LinkOptions(max_links=settings.max_links)
    )
    seconds = time.monotonic() - start
    with open("/proc/self/status", encoding="ascii") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    print(json.dumps({"reason": outcome.reason, "links": len(outcome.links), "seconds": seconds,
                      "peak_mb": peak_kb / 1024}))  # fmt: skip


def measure(url: str, resolve: str, read_timeout: float) -> tuple[dict, float]:
    """(the child's report, its peak RSS in MB)."""
    command = [sys.executable, __file__, "--one", url, "--resolve", resolve,
               "--read-timeout", str(read_timeout)]  # fmt: skip
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, stdout=out, env={**os.environ, "PYTHONPATH": str(ROOT)})
        status = child.wait()
        out.seek(0)
        text = out.read().decode()
    if status != 0:
        return {"reason": f"exit {status}", "links": 0, "seconds": float("nan")}, 0.0
    report = json.loads(text.strip().splitlines()[-1])
    return report, report.pop("peak_mb")


def sigterm_during_drip(server: HostileServer, read_timeout: float) -> tuple[str, float, float]:
    """(outcome, seconds from SIGTERM to exit, peak RSS MB) of a crawl signalled in a drip.

    The peak is `wait4`'s, which counts this process's RSS before `exec` too: that is
    smaller than a crawl's, so the figure is the crawl's own."""
    pages = {f"/d{i}": f"<html><title>旅游 {i}</title><p>景区 {i}</p></html>" for i in range(3)}
    links = "".join(f"<a href='{p}'>{p}</a>" for p in [*pages, "/drip-body"])
    server.pages.update({**pages, "/drip-seed": f"<html><title>旅游</title>{links}</html>"})
    with tempfile.TemporaryDirectory() as home:
        sets = {"seeds": server.url("/drip-seed"), "crawl.strategy": "bfs", "fetch.delay": 0,
                "fetch.read_timeout": read_timeout, "graph.uri": "none",
                "relevance.alpha": 0.5, "relevance.beta": 0.19}  # fmt: skip
        args = [a for k, v in sets.items() for a in ("--set", f"{k}={v}")]
        command = [sys.executable, "-m", "kgcrawl", "crawl", "tourism", "--resolve",
                   server.resolve, "--run-id", "drip", *args]  # fmt: skip
        env = {**os.environ, "KGCRAWL_HOME": home, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        before = server.hits["/drip-body"]
        while server.hits["/drip-body"] == before:
            time.sleep(0.05)
        time.sleep(0.3)
        signalled = time.monotonic()
        child.send_signal(signal.SIGTERM)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - signalled
        import sqlite3

        db = sqlite3.connect(Path(home) / "runs" / "drip" / "state.sqlite")
        (count,) = db.execute("SELECT count(*) FROM outcomes").fetchone()
        db.close()
    return f"exit {status >> 8}, {count} outcomes committed", seconds, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--read-timeout", type=float, default=5.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--one", default="")
    parser.add_argument("--resolve", default="")
    args = parser.parse_args()
    if args.one:
        one(args.one, args.resolve, args.read_timeout)
        return
    with HostileServer(bound=120.0, drip=0.2) as server:
        server.pages.update(extra_pages())
        print("| hazard | outcome | links kept | seconds | peak RSS MB |")
        print("| --- | --- | --- | --- | --- |")
        for name, path in HAZARDS:
            if args.only and args.only != path:
                continue
            report, rss = measure(server.url(path), server.resolve, args.read_timeout)
            outcome, links, seconds = report["reason"] or "ok", report["links"], report["seconds"]
            print(f"| {name} | {outcome} | {links} | {seconds:.2f} | {rss:.0f} |")
        if not args.only:
            outcome, seconds, rss = sigterm_during_drip(server, args.read_timeout)
            print(f"| crawl: SIGTERM during a drip | {outcome} | – | {seconds:.2f} | {rss:.0f} |")


if __name__ == "__main__":
    main()
