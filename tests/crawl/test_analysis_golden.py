"""The crawl's results are those the analysis gave before it was made faster (issue 19).

A sequential crawl of the small sandbox world, in each profile (default, sparse,
flat), must select the same URLs in the same order and compute for each the
same R(p) (to 1e-9), counts per tag group, mentions, length, fingerprints, title,
main text, links and anchor counts as recorded in `analysis_golden.json` by
`tests/fixtures/analysis_golden.py` on the code before the change, whose main
text was trafilatura's. So must the shipped settings: these 150 pages all come
before the navigation floor could be settled, and until then pages are read
with trafilatura (`Crawl.extractor`). Read with resiliparse (no floor sought),
only the main text and the mentions counted in it may differ. Each crawl runs in
a fresh process with jieba's dictionary as the trie, as an analyser has it.
"""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from kgcrawl.text.tokenize import use_trie_dictionary
from tests.fixtures.analysis_golden import GOLDEN, PROFILES, record

pytestmark = pytest.mark.slow

READ = {
    "trafilatura": {"crawl.main_text": "trafilatura"},
    "shipped": {},
    "resiliparse": {"calibration.navigation_pages": 0},  # no floor to seek: resiliparse at once
}
MAIN_TEXT = {"text", "mentions"}  # what the extractor decides


def record_as_analyser(profile: str, read: str) -> list[dict]:
    assert use_trie_dictionary(), "jieba was loaded before the trie could be installed"
    return record(profile, READ[read])


@pytest.fixture(scope="module")
def crawled() -> dict[tuple[str, str], list[dict]]:
    spawn = multiprocessing.get_context("spawn")
    runs = [(p, read) for p in PROFILES for read in READ]
    with ProcessPoolExecutor(len(PROFILES), mp_context=spawn) as pool:
        futures = {run: pool.submit(record_as_analyser, *run) for run in runs}
        return {run: future.result(timeout=600) for run, future in futures.items()}


@pytest.mark.parametrize("read", READ)
@pytest.mark.parametrize("profile", PROFILES)
def test_a_sequential_crawl_computes_what_it_computed_before(crawled, profile, read) -> None:
    before = json.loads(GOLDEN.read_text(encoding="utf-8"))[profile]
    now = crawled[profile, read]
    assert [o["url"] for o in now] == [o["url"] for o in before], "another DP sequence"
    kept = {"relevance"} | (MAIN_TEXT if read == "resiliparse" else set())
    for old, new in zip(before, now, strict=True):
        if old["relevance"] is not None:
            r_old, r_new = float.fromhex(old["relevance"]), float.fromhex(new["relevance"])
            assert abs(r_old - r_new) <= 1e-9, f"{old['url']}: R(p) {r_new} != {r_old}"
        same = {k: v for k, v in old.items() if k not in kept}
        assert {k: new[k] for k in same} == same, f"{old['url']} analysed differently"
    if read == "resiliparse":  # the extractor acts: another text on most pages
        changed = sum(old["text"] != new["text"] for old, new in zip(before, now, strict=True))
        assert changed > sum(o["reason"] is None for o in now) / 2  # of the pages downloaded
