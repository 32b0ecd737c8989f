"""The analyser processes of a crawl with several workers, safe to start from any script.

Parsing is CPU work under the GIL, so with several workers pages are analysed in
processes. They are started with "spawn" (never fork a threaded process), and a
spawned child normally re-runs the parent's main script first: a plain script
that calls `kgcrawl.crawl(...)` without `if __name__ == "__main__":` would crawl
again in every analyser. The children need nothing from that script (the
functions they run live in `kgcrawl.crawl.outcome`), so while they start the
parent's `__main__` is hidden behind an empty module and they import no script.

A Ctrl-C reaches every process of the terminal's group: the analysers ignore
SIGINT and let the crawl stop them, so none prints a traceback. A crawl killed
outright takes them along (kgcrawl/lifetime.py).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import types
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from kgcrawl.crawl.analyse import init_analyser
from kgcrawl.lifetime import die_with_parent
from kgcrawl.text.analysis import LinkOptions

_main_lock = threading.Lock()


def analyser_count(cores: int | None = None) -> int:
    """How many analyser processes a crawl with several workers starts: a core is left to
    the crawl's own process (scheduler, fetch threads), and at most two are started.

    Interpretation (issue 19): the crawl's process takes about 30 % of a crawl's CPU
    (py-spy, 3 000 sandbox pages, fcits_oh, 8 in flight), and each analyser holds its
    own numpy, jieba, lxml and trafilatura (≈ 70 MB). On a 2-core machine, interleaved:
    at load 1–2, two analysers 105 pages/s, 14.0 ms CPU/page, 293 MB peak tree RSS; one
    81 pages/s, 14.4 ms, 203 MB. At load 6–9, two 64 pages/s, 15.2 ms, 279 MB; one 66
    pages/s, 14.4 ms, 205 MB. One analyser keeps the tree within 1.5× Scrapy's 153 MB
    at the price of about a quarter of the pages/s on a lightly loaded 2-core machine.
    With the analysis made faster since (`bench_vs_scrapy.py`, 3 000 pages, against
    Scrapy in the same rounds): two analysers 1.16× Scrapy's pages/s, 11.0 ms CPU/page,
    288 MB (1.87×); one 0.92–1.16×, 8.6–9.2 ms, 208–210 MB (1.35×), and 1.15–1.20× once
    a crawl's end stopped waiting on slow hosts (`crawl/dispatch.py`). An analyser peaks
    at ≈ 85 MB, so with more cores the second is worth its memory to a user. Measured
    again on 2 cores as the analysis now is (3 rounds, Scrapy in each): one analyser
    1.36× Scrapy's pages/s, 0.99× its CPU a page, 1.38× its RSS; two 1.42×, 1.07×,
    1.88×, the machine then at 1.70 of its 2 cores busy (`bench_vs_scrapy.py`).
    """
    return max(1, min(2, (usable_cores() if cores is None else cores) - 1))


def usable_cores() -> int:
    """The cores this process may run on (its affinity; all of them where the system has no
    such call, as macOS)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def start_analysers(
    processes: int, labels: list[tuple[str, ...]], options: LinkOptions
) -> ProcessPoolExecutor:
    """A pool of `processes` analysers, all started before it is returned."""
    pool = ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init,
        initargs=(labels, options, os.getpid()),  # each analyser builds the crawl's matcher
    )
    with _main_hidden():
        list(pool.map(int, range(processes)))  # a task each: every process starts now
    return pool


def _init(labels: list[tuple[str, ...]], options: LinkOptions, crawl_pid: int) -> None:
    die_with_parent(crawl_pid)  # a crawl killed with SIGKILL takes its analysers along
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init_analyser(labels, options)


@contextmanager
def _main_hidden() -> Iterator[None]:
    """`sys.modules["__main__"]` is an empty module meanwhile: spawn then sends no main path."""
    with _main_lock:
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = main
