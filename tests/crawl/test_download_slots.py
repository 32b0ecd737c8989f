"""A slot is a download: a host's next request may go out while its last page is analysed.

A real crawl of the sandbox with 8 workers and analyser processes, the server's
access log beside the time each page was folded in. Politeness still holds (one
request at a time per host), and some host is asked again before its previous
page has been folded: its turn ended with the download, not with the analysis.
With the turn ended at the fold instead (as before), no request to a host starts
before its previous page is folded.
"""

from __future__ import annotations

import time
from collections import defaultdict
from itertools import pairwise
from urllib.parse import urlsplit

from kgcrawl.config import load_settings
from kgcrawl.crawl.outcome import Outcome
from kgcrawl.runner import CrawlRequest, crawl

PAGES = 150


def test_a_host_is_asked_again_while_its_last_page_is_analysed(sandbox, tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    values = {"crawl.strategy": "bfs", "crawl.workers": 8, "crawl.max_pages": PAGES,
              "fetch.delay": 0.0, "graph.uri": "none"}  # fmt: skip
    settings = load_settings("tourism", values, environ={})
    folded: dict[tuple[str, str], float] = {}

    def fold_time(outcome: Outcome) -> None:
        parts = urlsplit(outcome.url)
        folded[(parts.hostname or "", parts.path or "/")] = time.monotonic()

    sandbox.clear_log()
    result = crawl(settings, CrawlRequest(resolve=tuple(sandbox.resolve)), on_outcome=fold_time)
    assert result.dp == PAGES
    by_host = defaultdict(list)
    for access in sandbox.access_log():
        by_host[access.host].append(access)
    early = 0
    for accesses in by_host.values():
        accesses.sort(key=lambda a: a.start)
        for before, after in pairwise(accesses):
            assert after.start >= before.end, f"two requests in flight to {before.host}"
            done = folded.get((before.host, before.path.split("?")[0]))
            early += done is not None and after.start < done
    assert early >= 10, "no host was asked again before its last page was folded"
