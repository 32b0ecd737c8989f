"""Graph write and query budgets (issue 7): embedded FalkorDB in a temporary data folder.

Budgets: ≥ 5 000 page rows/s (each with ~5 KB of main text) and ≥ 20 000 link
rows/s written in batches; `kgcrawl query` ≤ 1.5 s wall with the server running.

    /work/venv/bin/python benchmarks/bench_graph.py [--pages 20000] [--links 100000]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kgcrawl.graph import server
from kgcrawl.graph.store import connect
from kgcrawl.graph.writer import GraphWriter, LinkRow, MentionRow, PageRow

WORDS = "旅游 景点 酒店 路线 门票 自由行 hotel travel beach mountain museum tour".split()


def main_text(rng: random.Random, size: int = 5000) -> str:
    """About `size` bytes of UTF-8 text, mixed Chinese and English like the crawled pages."""
    out: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(WORDS)
        out.append(word)
        length += len(word.encode()) + 1
    return " ".join(out)


def pages(n: int, rng: random.Random) -> list[PageRow]:
    texts = [main_text(rng) for _ in range(64)]
    return [
        PageRow(
            crawl="bench",
            order=i,
            url=f"http://h{i % 400}.example.com/p/{i}.html",
            host=f"h{i % 400}.example.com",
            title=f"page {i}",
            text=texts[i % len(texts)],
            relevance=rng.random(),
            relevant=rng.random() > 0.5,
            fetched_at=1_700_000_000_000 + i,
            lang="zh",
            hash=f"{rng.getrandbits(64):016x}",
            status="ok",
        )
        for i in range(n)
    ]


def links(n: int, n_pages: int, rng: random.Random) -> list[LinkRow]:
    return [
        LinkRow(
            source=f"http://h{(i % n_pages) % 400}.example.com/p/{i % n_pages}.html",
            target=f"http://h{rng.randrange(400)}.example.com/p/{rng.randrange(4 * n_pages)}.html",
            anchor=rng.choice(WORDS),
            anchor_relevance=rng.random(),
            priority=rng.random(),
        )
        for i in range(n)
    ]


def mentions(n_pages: int, rng: random.Random) -> list[MentionRow]:
    return [
        MentionRow(f"http://h{i % 400}.example.com/p/{i}.html", f"c{k}", rng.randint(1, 9), 0.5)
        for i in range(n_pages)
        for k in rng.sample(range(60), 5)
    ]


def rate(writer: GraphWriter, rows: list, label: str) -> float:
    start = time.perf_counter()
    writer.write(rows)
    per_s = len(rows) / (time.perf_counter() - start)
    print(f"{label:<24} {len(rows):>8} rows  {per_s:>10,.0f} rows/s")
    return per_s


def query_wall(home: Path, runs: int = 5) -> float:
    """Median wall time of the `kgcrawl query` command against the running server."""
    env = {**os.environ, "KGCRAWL_HOME": str(home)}
    cmd = [sys.executable, "-m", "kgcrawl", "query", "MATCH (p:Page) RETURN count(p) AS pages"]
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
    median = statistics.median(walls)
    print(f"{'kgcrawl query (wall)':<24} {runs:>8} runs  {median:>10.3f} s median")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20_000)
    parser.add_argument("--links", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(7)
    home = Path(tempfile.mkdtemp(prefix="kgcrawl-bench-"))
    try:
        server.start(home)
        with connect("embedded", home=home) as store:
            writer = GraphWriter(store)
            page_rate = rate(writer, pages(args.pages, rng), "pages (~5 KB text)")
            link_rate = rate(writer, links(args.links, args.pages, rng), "links")
            rate(writer, mentions(args.pages, rng), "mentions")
            rate(writer, pages(args.pages, rng), "pages again (MERGE)")
        wall = query_wall(home)
    finally:
        server.stop(home)
        shutil.rmtree(home, ignore_errors=True)
    ok = page_rate >= 5000 and link_rate >= 20000 and wall <= 1.5
    print("budget", "met" if ok else "MISSED")


if __name__ == "__main__":
    main()
