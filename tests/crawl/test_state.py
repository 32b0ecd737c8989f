"""The run log: outcomes round-trip, only checkpoints are durable, runs are found by id."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState, StateError, new_run_id
from kgcrawl.crawl.view import runs_table


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def page(seq: int, url: str, **kw) -> Outcome:
    return Outcome(
        seq=seq, url=url, final_url=url, status=200, reason=None, fetched_at=1_700_000_000_000,
        seconds=0.01, host="www.a.cn", title="黄山", text="黄山 云海\x00", lang="zh", length=12,
        content_hash="ab", simhash=(1 << 64) - 5, counts={3: [1, 0, 0, 2, 0]}, mentions={3: 2},
        links=[("http://www.a.cn/x", "更多"), ("http://b.cn/", "")],
        anchor_counts=[{}, {2: 1}], url_counts=[{1: 2}, {}], context_counts=[{}, {4: 1}],
        relevance=0.75,
        relevant=True, link_scores=[(0.5, 0.3), (0.0, 0.1)], **kw,
    )  # fmt: skip


def test_round_trip_and_durability(home) -> None:
    run_id = new_run_id("tourism", "ops")
    state = RunState.create(run_id, {"domain": "tourism", "settings": {"a": 1}})
    state.append(page(1, "http://www.a.cn/"))
    failure = Outcome(
        url="http://c.cn/",
        final_url="http://c.cn/",
        status=404,
        reason="http 404",
        fetched_at=1,
        seconds=0.1,
        host="c.cn",
        seq=2,
    )
    state.append(failure)
    state.set_meta({"warc_offset": 123})
    state.checkpoint()
    state.append(page(3, "http://www.a.cn/lost"))  # fetched, never committed
    state.close()

    again = RunState.open(run_id)
    got = list(again.outcomes())
    assert [o.seq for o in got] == [1, 2]
    first = got[0]
    assert first.simhash == (1 << 64) - 5 and first.text == "黄山 云海"
    assert first.counts == {3: [1, 0, 0, 2, 0]} and first.mentions == {3: 2}
    assert first.links == [("http://www.a.cn/x", "更多"), ("http://b.cn/", "")]
    assert first.link_scores == [(0.5, 0.3), (0.0, 0.1)]
    assert first.anchor_counts == [{}, {2: 1}]
    assert first.url_counts == [{1: 2}, {}] and first.context_counts == [{}, {4: 1}]
    assert first.relevant and not got[1].relevant and got[1].reason == "http 404"
    assert again.meta()["warc_offset"] == 123 and again.meta()["run_id"] == run_id
    assert again.meta("run_id", "warc_offset") == {"run_id": run_id, "warc_offset": 123}
    assert [o.seq for o in again.outcomes(after=1)] == [2]
    assert (home / "runs" / run_id / "state.sqlite").is_file()


def test_unknown_run_and_duplicate_id() -> None:
    with pytest.raises(StateError, match="no run 'nope'"):
        RunState.open("nope")
    RunState.create("r1", {}).close()
    with pytest.raises(StateError, match="exists already"):
        RunState.create("r1", {})


# A crawl process killed with SIGKILL at the moment its new run makes its first commit.
KILLED_WHILE_CREATING = """
import os, signal
from kgcrawl.crawl.state import RunState
RunState.checkpoint = lambda self: os.kill(os.getpid(), signal.SIGKILL)
RunState.create("r1", {"domain": "tourism"})
"""


def test_a_run_killed_while_it_is_created_leaves_no_corrupt_run(home) -> None:
    env = {**os.environ, "KGCRAWL_HOME": str(home)}
    killed = subprocess.run([sys.executable, "-c", KILLED_WHILE_CREATING], env=env, timeout=60)
    assert killed.returncode == -9
    assert runs_table().rows == []  # before: listed as "corrupt state"
    assert not (home / "runs" / "r1" / "state.sqlite").exists(), "nothing was crawled: no run"
    RunState.create("r1", {"domain": "tourism"}).close()  # the same id starts afresh
    assert [row[0] for row in runs_table().rows] == ["r1"]
    again = RunState.open("r1")
    assert again.meta()["domain"] == "tourism" and again.count() == 0
    again.close()
