"""Eq. 10–12, true harvest, recall and Friedman ranks against hand-computed values and the paper."""

from __future__ import annotations

import math

import pytest

from kgcrawl.crawl.outcome import Outcome
from kgcrawl.evaluate.metrics import (
    EvaluationError,
    MetricsRecorder,
    MetricsRow,
    accuracy,
    average_ranks,
    average_relevance,
    compared_rows,
    friedman_from_rows,
    friedman_ranks,
    recall,
    record_outcomes,
    relevance_sd,
    true_harvest,
)

# The paper's Table 2 at DP = 15 000: LP, AC (%), AR, SD; None where it has "-".
TABLE_2 = {
    "tourism": {
        "BFS": (5610, 37.4, 0.4247, 0.2848),
        "OPS": (10230, 68.2, 0.6966, 0.2317),
        "FCSA": (11255, 75.03, 0.7292, 0.1769),
        "FCWSEO": (12129, 80.86, 0.7553, 0.1293),
        "OLMOACO": None,
        "FCTS": (10822, 72.15, 0.7066, 0.1726),
        "FCITS": (11581, 77.21, 0.7534, 0.1446),
        "FCOITS": (12679, 84.53, 0.7806, 0.1413),
        "FCITS_OH": (13082, 87.21, 0.7912, 0.1340),
    },
    "rainstorm": {
        "BFS": (3549, 23.66, 0.2947, 0.3096),
        "OPS": (9813, 65.42, 0.6376, 0.2599),
        "FCSA": (10506, 70.04, 0.6627, 0.1953),
        "FCWSEO": (12162, 81.03, 0.8200, 0.1570),
        "OLMOACO": (11126, 74.17, 0.7781, 0.1375),
        "FCTS": (10254, 68.36, 0.6523, 0.1962),
        "FCITS": (11054, 73.69, 0.7002, 0.1589),
        "FCOITS": (11954, 79.69, 0.7306, 0.1495),
        "FCITS_OH": (12393, 82.62, 0.7421, 0.1444),
    },
}
# The paper's Table 3: Friedman ranks LP, AC, AR, SD and their average.
TABLE_3 = {
    "tourism": {
        "BFS": (8, 8, 8, 8, 8),
        "OPS": (7, 7, 7, 7, 7),
        "FCSA": (5, 5, 5, 6, 5.25),
        "FCWSEO": (3, 3, 3, 1, 2.5),
        "FCTS": (6, 6, 6, 5, 5.75),
        "FCITS": (4, 4, 4, 4, 4),
        "FCOITS": (2, 2, 2, 3, 2.25),
        "FCITS_OH": (1, 1, 1, 2, 1.25),
    },
    "rainstorm": {
        "BFS": (9, 9, 9, 9, 9),
        "OPS": (8, 8, 8, 8, 8),
        "FCSA": (6, 6, 6, 6, 6),
        "FCWSEO": (2, 2, 1, 4, 2.25),
        "OLMOACO": (4, 4, 2, 1, 2.75),
        "FCTS": (7, 7, 7, 7, 7),
        "FCITS": (5, 5, 5, 5, 5),
        "FCOITS": (3, 3, 4, 3, 3.25),
        "FCITS_OH": (1, 1, 3, 2, 1.75),
    },
}


def _table_2(domain: str) -> dict[str, dict[str, float]]:
    return {
        name: dict(zip(("lp", "ac", "ar", "sd"), values, strict=True))
        for name, values in TABLE_2[domain].items()
        if values is not None
    }


@pytest.mark.parametrize("domain", ["tourism", "rainstorm"])
def test_friedman_ranks_reproduce_table_3(domain: str) -> None:
    table = friedman_ranks([_table_2(domain)])
    got = {
        name: (*(table.ranks[name][m] for m in ("lp", "ac", "ar", "sd")), table.average[name])
        for name in table.strategies
    }
    assert got == TABLE_3[domain]
    assert table.blocks == 4


def test_friedman_statistic_on_table_3() -> None:
    # Tourism, k = 8, N = 4: Σ R² = 202.5, χ² = 12·4/(8·9) · (202.5 − 8·81/4) = 27.
    tourism = friedman_ranks([_table_2("tourism")])
    assert tourism.statistic == pytest.approx(27.0)
    # Rainstorm, k = 9: Σ R² = 281.25, χ² = 48/90 · (281.25 − 225) = 30; with 8 degrees of
    # freedom the tail is e^{-15} (1 + 15 + 15²/2 + 15³/6) = 691 e^{-15}.
    rainstorm = friedman_ranks([_table_2("rainstorm")])
    assert rainstorm.statistic == pytest.approx(30.0)
    assert rainstorm.p_value == pytest.approx(691 * math.exp(-15))


def test_average_ranks_share_ties_and_follow_direction() -> None:
    assert average_ranks({"a": 3.0, "b": 5.0, "c": 5.0, "d": 1.0}) == {
        "a": 3.0,
        "b": 1.5,
        "c": 1.5,
        "d": 4.0,
    }
    assert average_ranks({"a": 0.2, "b": 0.2, "c": 0.2, "d": 0.1}, higher_is_better=False) == {
        "a": 3.0,
        "b": 3.0,
        "c": 3.0,
        "d": 1.0,
    }


def test_friedman_from_rows_averages_repeats() -> None:
    def row(strategy: str, repeat: int, dp: int, lp: int, ar: float, sd: float) -> MetricsRow:
        return MetricsRow(strategy, "tourism", repeat, dp, lp, lp / dp, ar, sd)

    rows = [
        row("ops", 0, 10, 1, 0.2, 0.1),  # an earlier checkpoint: not ranked
        row("ops", 0, 20, 8, 0.6, 0.3),
        row("bfs", 0, 20, 4, 0.4, 0.2),
        row("ops", 1, 20, 6, 0.7, 0.3),
        row("bfs", 1, 20, 6, 0.5, 0.1),
    ]
    table = friedman_from_rows(rows)
    # Repeat 0: ops wins LP, AC, AR; bfs wins SD. Repeat 1: tie on LP and AC, ops wins AR,
    # bfs wins SD. Means over the repeats:
    assert table.ranks["ops"] == {"lp": 1.25, "ac": 1.25, "ar": 1.0, "sd": 2.0}
    assert table.ranks["bfs"] == {"lp": 1.75, "ac": 1.75, "ar": 2.0, "sd": 1.0}
    assert table.average == {"ops": 1.375, "bfs": 1.625}
    assert table.blocks == 8


def test_friedman_refuses_mismatched_strategies() -> None:
    with pytest.raises(EvaluationError, match="different strategies"):
        friedman_ranks([{"a": {"lp": 1}}, {"b": {"lp": 2}}], metrics=("lp",))
    with pytest.raises(EvaluationError, match="no value for sd"):
        friedman_ranks([{"a": {"lp": 1, "sd": None}, "b": {"lp": 2, "sd": 0.1}}], ("lp", "sd"))


def test_equations_10_to_12() -> None:
    relevances = [0.9, 0.5, 0.8, 0.2]
    assert accuracy(2, 4) == 0.5
    assert average_relevance(relevances) == pytest.approx(0.6)
    # Deviations 0.3, −0.1, 0.2, −0.4: squares sum to 0.30, over DP = 4.
    assert relevance_sd(relevances) == pytest.approx(math.sqrt(0.075))
    assert relevance_sd([0.4, 0.4]) == 0.0
    assert true_harvest(3, 5) == 0.6
    assert recall(["a", "b", "x", "a"], {"a", "b", "c", "d"}) == 0.5
    assert recall(["a"], set()) is None


def test_recorder_rows_every_n_pages_and_at_the_end() -> None:
    recorder = MetricsRecorder(
        "fcits_oh", "tourism", repeat=1, report_every=2, relevant_urls={"a", "b", "e", "z"}
    )
    pages = [
        ("a", 0.9, True, True),
        ("b", 0.5, False, True),
        ("c", 0.8, True, False),
        ("d", 0.2, False, False),
        ("e", 0.6, False, True),
    ]
    due = [recorder.add(r, rel, truth, url) for url, r, rel, truth in pages]
    assert [row.dp if row else None for row in due] == [None, 2, None, 4, None]
    last = recorder.finish()
    assert last is not None and recorder.finish() is None
    rows = recorder.rows
    assert [(r.dp, r.lp) for r in rows] == [(2, 1), (4, 2), (5, 2)]
    assert [r.ac for r in rows] == [0.5, 0.5, 0.4]
    assert [r.ar for r in rows] == pytest.approx([0.7, 0.6, 0.6])
    assert [r.sd for r in rows] == pytest.approx([0.2, math.sqrt(0.075), math.sqrt(0.06)])
    assert [r.true_harvest for r in rows] == [1.0, 0.5, 0.6]
    assert [r.recall for r in rows] == [0.5, 0.5, 0.75]
    assert {(r.strategy, r.domain, r.repeat) for r in rows} == {("fcits_oh", "tourism", 1)}


def test_recorder_without_truth_and_its_errors() -> None:
    recorder = MetricsRecorder("bfs", "rainstorm", report_every=10)
    recorder.add(0.5, False, True)
    recorder.add(0.9, True)  # one unknown label: the true harvest is unknown from here on
    row = recorder.finish()
    assert row is not None and row.true_harvest is None and row.recall is None
    assert MetricsRecorder("bfs", "x").finish() is None
    with pytest.raises(EvaluationError, match="URL"):
        MetricsRecorder("bfs", "x", relevant_urls={"a"}).add(0.1, False)
    with pytest.raises(EvaluationError, match="report_every"):
        MetricsRecorder("bfs", "x", report_every=0)


def test_record_outcomes_reads_downloaded_pages_of_a_run_log() -> None:
    def outcome(seq: int, url: str, relevance: float | None, reason: str | None = None):
        return Outcome(
            url=url, final_url=url, status=200 if reason is None else 404, reason=reason,
            fetched_at=0, seconds=0.0, host="h", seq=seq, relevance=relevance,
            relevant=relevance is not None and relevance > 0.7,
        )  # fmt: skip

    outcomes = [
        outcome(1, "http://h/1", 0.8),
        outcome(2, "http://h/2", None, "http 404"),
        outcome(3, "http://h/3", 0.4),
        outcome(4, "http://h/4", 1.0),
    ]
    truth = {"http://h/1": True, "http://h/3": True, "http://h/4": False}
    rows = record_outcomes(
        outcomes, "ops", "tourism", report_every=2, truth=truth.get, relevant_urls={"http://h/3"}
    )
    assert [(r.dp, r.lp, r.true_harvest, r.recall) for r in rows] == [
        (2, 1, 1.0, 1.0),
        (3, 2, 2 / 3, 1.0),
    ]
    assert rows[-1].ar == pytest.approx(2.2 / 3)
    assert compared_rows(rows).rows == [rows[-1]]
    also = record_outcomes(outcomes, "ops", "tourism", report_every=2, also_at=(1,))
    assert [r.dp for r in also] == [1, 2, 3]


# ---- where runs are compared: the largest DP every run reached ---------------------------


def _rows(strategy: str, dps: list[int], repeat: int = 0) -> list[MetricsRow]:
    """Rows whose LP is their DP's tenth, so that which row was taken shows in LP."""
    return [MetricsRow(strategy, "tourism", repeat, dp, dp // 10, 0.1, 0.5, 0.1) for dp in dps]


def test_runs_are_compared_at_the_largest_dp_every_run_reached() -> None:
    # bfs ran dry at 1 200; the others went on to 2 000: all are compared at 1 200.
    rows = (_rows("ops", [500, 1000, 1200, 1500, 2000]) + _rows("bfs", [500, 1000, 1200])
            + _rows("fcsa", [500, 1000, 1200, 1500, 2000]))  # fmt: skip
    compared = compared_rows(rows)
    assert (compared.dp, compared.reached) == (1200, 1200)
    assert [(r.strategy, r.dp, r.lp) for r in compared.rows] == [
        ("ops", 1200, 120),
        ("bfs", 1200, 120),
        ("fcsa", 1200, 120),
    ]
    ranks = friedman_from_rows(rows)  # equal values at 1 200: every strategy ties
    assert set(ranks.average.values()) == {2.0}


def test_without_a_row_at_the_dp_all_reached_the_last_shared_one_is_taken() -> None:
    # bfs ended at 1 234 with no row there in the others (rows read back from a CSV).
    rows = _rows("ops", [500, 1000, 1500]) + _rows("bfs", [500, 1000, 1234])
    compared = compared_rows(rows)
    assert (compared.dp, compared.reached) == (1000, 1234)
    assert {r.dp for r in compared.rows} == {1000}
    repeats = _rows("ops", [10, 20]) + _rows("ops", [10, 15], repeat=1)
    assert compared_rows(repeats).dp == 10  # each repeat is a run of its own
    with pytest.raises(EvaluationError, match="no DP at which every run"):
        compared_rows(_rows("ops", [10]) + _rows("bfs", [7]))
    with pytest.raises(EvaluationError, match="no metrics rows"):
        compared_rows([])
