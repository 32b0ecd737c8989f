"""The sandbox server under load: pages per second and memory over many requests.

Budget (issue 4): ≥ 500 pages/s served on loopback with 2 cores; server memory
flat (± 50 MB) over 50 000 requests.

The server runs as `kgcrawl sandbox serve` in its own process (slow hosts set to
no delay, so the figure is generation and HTTP, not sleeping); the clients are
threads of this process with keep-alive `http.client` connections, each walking
a shuffled list of HTML page URLs (home, list and article pages of every host
without whole-host hazards, faulting articles left out). The same machine runs
both sides, so the clients' CPU counts against the server's. Server RSS is read
from /proc every half second; "growth" is the last sample minus the one taken
after the warm-up requests.

Run: python benchmarks/bench_sandbox.py [--requests 50000] [--clients 4] [--size default]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.hosts import Kind
from kgcrawl.sandbox.routes import PageType, Route, list_pages
from kgcrawl.sandbox.world import World

WHOLE_HOST = {Hazard.SLOW, Hazard.DOWN, Hazard.SERVER_ERROR, Hazard.RESET}


def page_urls(world: World, limit: int, seed: int) -> list[tuple[str, str]]:
    """(host, path) of HTML pages across the world, shuffled."""
    out = []
    for host in world.hosts.values():
        if host.kind in (Kind.MOVED, Kind.DIRECTORY) or host.hazards & WHOLE_HOST:
            continue
        routes = [Route(PageType.HOME)]
        for i, channel in enumerate(host.channels):
            routes += [Route(PageType.LIST, i, n) for n in range(list_pages(host, i))]
            routes += [Route(PageType.ARTICLE, i, k) for k in range(channel.size)]
        for route in routes:
            url = world.url(host.name, route)
            parts = urlsplit(url)
            out.append((host.name, parts.path + (f"?{parts.query}" if parts.query else "")))
    random.Random(seed).shuffle(out)
    return out[:limit]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def client(port: int, urls: list[tuple[str, str]], counts: list[int], index: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    ok = 0
    for host, path in urls:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        response.read()
        ok += response.status == 200
    conn.close()
    counts[index] = ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--size", default="default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warmup", type=int, default=2_000)
    args = parser.parse_args()

    world = World(args.seed, args.size)
    urls = page_urls(world, args.requests + args.warmup, args.seed)
    while len(urls) < args.requests + args.warmup:
        urls += urls
    command = [sys.executable, "-m", "kgcrawl", "sandbox", "serve", "--size", args.size]
    command += ["--seed", str(args.seed), "--port", "0", "--slow-delay", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        server.stdout.readline()
        port = int(server.stdout.readline().strip().strip("'").rsplit(":", 1)[1])
        rss_start = rss_mb(server.pid)
        warm = [0]
        client(port, urls[: args.warmup], warm, 0)
        rss_warm = rss_mb(server.pid)

        samples: list[float] = []
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.5):
                samples.append(rss_mb(server.pid))

        work = urls[args.warmup : args.warmup + args.requests]
        shares = [work[i :: args.clients] for i in range(args.clients)]
        counts = [0] * args.clients
        threads = [
            threading.Thread(target=client, args=(port, shares[i], counts, i))
            for i in range(args.clients)
        ]
        monitor = threading.Thread(target=sample)
        monitor.start()
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        done.set()
        monitor.join()
        rss_end = rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        json.dumps(
            {
                "size": args.size,
                "hosts": len(world.hosts),
                "clients": args.clients,
                "requests": args.requests,
                "ok": sum(counts),
                "seconds": round(elapsed, 2),
                "pages_per_second": round(args.requests / elapsed, 1),
                "rss_mb": {
                    "start": round(rss_start, 1),
                    "after_warmup": round(rss_warm, 1),
                    "max": round(max(samples, default=rss_end), 1),
                    "end": round(rss_end, 1),
                    "growth": round(rss_end - rss_warm, 1),
                },
                "server_exit": server.returncode,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
