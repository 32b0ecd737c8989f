"""The crawl's results are those the analysis gave before it was made faster (issue 19).

A sequential crawl of the small sandbox world, in the default profile and the
sparse one, must select the same URLs in the same order and compute for each the
same R(p) (to 1e-9), counts per tag group, mentions, length, fingerprints, title,
main text, links and anchor counts as recorded in `analysis_golden.json` by
`tests/fixtures/analysis_golden.py` on the code before the change.
"""

from __future__ import annotations

import json

import pytest

from tests.fixtures.analysis_golden import GOLDEN, PROFILES, record

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("profile", PROFILES)
def test_a_sequential_crawl_computes_what_it_computed_before(profile: str) -> None:
    before = json.loads(GOLDEN.read_text(encoding="utf-8"))[profile]
    now = record(profile)
    assert [o["url"] for o in now] == [o["url"] for o in before], "another DP sequence"
    for old, new in zip(before, now, strict=True):
        if old["relevance"] is not None:
            r_old, r_new = float.fromhex(old["relevance"]), float.fromhex(new["relevance"])
            assert abs(r_old - r_new) <= 1e-9, f"{old['url']}: R(p) {r_new} != {r_old}"
        same = {k: v for k, v in old.items() if k != "relevance"}
        assert {k: new[k] for k in same} == same, f"{old['url']} analysed differently"
