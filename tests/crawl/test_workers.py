"""The worker interface: a URL in, its Outcome and its host's pause out (crawl/workers.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.analyse import StageTimes
from kgcrawl.crawl.analysers import analyser_count
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.workers import LocalWorkers
from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.text.analysis import LinkOptions
from kgcrawl.text.matching import TopicMatcher


def workers_for(sandbox, delay: float) -> LocalWorkers:
    settings = load_settings("tourism", {"fetch.delay": delay}, environ={}).fetch
    fetcher = Fetcher(settings, parse_resolve(tuple(sandbox.resolve)))
    return LocalWorkers(1, TopicMatcher([("旅游",)]), LinkOptions(), fetcher, StageTimes())


def test_the_host_pause_is_the_delay_or_a_longer_robots_crawl_delay(sandbox) -> None:
    workers = workers_for(sandbox, 0.25)
    plain = workers.submit(sandbox.world.seeds("tourism")[0], "resiliparse").result()
    slow = workers.submit(sandbox.world.hazard_urls(Hazard.CRAWL_DELAY)[0], "resiliparse").result()
    workers.close()
    assert plain.outcome.downloaded and plain.delay == 0.25
    assert slow.delay == sandbox.server.crawl_delay > 0.25


def test_a_url_no_host_answers_rests_the_plain_delay(sandbox) -> None:
    workers = workers_for(sandbox, 0.25)
    done = workers.submit("ftp://nowhere.test/", "resiliparse").result()
    workers.close()
    assert not done.outcome.downloaded and done.delay == 0.25


def test_analysers_leave_a_core_to_the_crawl_and_are_at_most_two() -> None:
    assert [analyser_count(cores) for cores in (1, 2, 3, 4, 16)] == [1, 1, 2, 2, 2]
    assert analyser_count() >= 1  # this machine's cores


# A `--workers 1` crawl in a process of its own, as `kgcrawl crawl` runs one: it analyses
# in this process, and says which dictionary jieba cut its pages with (α and β given, so
# that it does not calibrate first).
SEQUENTIAL = """
import sys
import jieba
from kgcrawl.config import load_settings
from kgcrawl.runner import CrawlRequest, crawl
settings = load_settings("tourism", {"crawl.max_pages": 10, "crawl.workers": 1,
                                     "fetch.delay": 0, "graph.uri": "none",
                                     "relevance.alpha": 0.5, "relevance.beta": 0.19})
result = crawl(settings, CrawlRequest(resolve=tuple(sys.argv[1:])))
print(result.dp, type(jieba.dt.FREQ).__name__)
"""


@pytest.mark.parametrize(("cache", "dictionary"), [("cache", "TrieFreq"), ("file/cache", "dict")])
def test_a_sequential_crawl_cuts_with_the_shared_trie_as_analysers_do(
    sandbox, tmp_path, cache, dictionary
) -> None:
    """Not jieba's own dict: ≈ 1.3 CPU-s to load and ≈ 57 MB more at the peak of each
    `--workers 1` crawl (`tests/crawl/test_analysis_golden.py` holds the cuts the same).
    Where the cache folder cannot be written (under a file here), jieba's own, as before."""
    (tmp_path / "file").write_text("", encoding="utf-8")
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path), "KGCRAWL_CACHE": str(tmp_path / cache)}
    done = subprocess.run([sys.executable, "-c", SEQUENTIAL, *sandbox.resolve], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["10", dictionary]
