"""Term selection (df window, df·ln(N/df) rank, pins) and the terms file."""

from __future__ import annotations

import math

import pytest

from kgcrawl.ontology.terms import TermsError, read_terms_file, select_terms, term_score

DOCS = [
    {"暴雨", "洪水", "预警"},
    {"暴雨", "洪水"},
    {"暴雨", "滑坡"},
    {"暴雨", "滑坡", "预警", "县"},
    {"暴雨", "洪水", "rare"},
]
# df: 暴雨 5, 洪水 3, 滑坡 2, 预警 2, 县 1, rare 1; N = 5, so max_df 0.8 allows df ≤ 4.


def test_score_is_df_times_idf() -> None:
    assert term_score(3, 5) == pytest.approx(3 * math.log(5 / 3))  # 1.5325
    assert term_score(2, 5) == pytest.approx(2 * math.log(5 / 2))  # 1.8326
    assert term_score(5, 5) == 0


def test_window_and_rank() -> None:
    selection = select_terms(DOCS)
    # 暴雨 is in every document (> 0.8·N), 县 and rare in one (< min_df 2).
    # 滑坡 and 预警 tie at 1.8326 (then df, then code point: 滑 U+6ED1 < 预 U+9884); 洪水 1.5325.
    assert selection.terms == ("滑坡", "预警", "洪水")
    assert selection.df == {"滑坡": 2, "预警": 2, "洪水": 3}
    assert selection.candidates == 6 and selection.missing == ()


def test_max_terms_cuts_the_ranking() -> None:
    assert select_terms(DOCS, max_terms=2).terms == ("滑坡", "预警")


def test_max_df_of_one_keeps_the_everywhere_term_last() -> None:
    assert select_terms(DOCS, max_df=1.0).terms == ("滑坡", "预警", "洪水", "暴雨")


def test_min_chars_drops_single_characters() -> None:
    assert "县" not in select_terms(DOCS, min_df=1).terms
    assert "县" in select_terms(DOCS, min_df=1, min_chars=1).terms


def test_pins_come_first_and_bypass_every_filter() -> None:
    selection = select_terms(DOCS, max_terms=2, pinned=["县", "暴雨", "台风", "县"])
    assert selection.terms == ("县", "暴雨")
    assert selection.missing == ("台风",)
    selection = select_terms(DOCS, max_terms=3, pinned=["洪水"])
    assert selection.terms == ("洪水", "滑坡", "预警")


def test_pins_are_normalised_like_labels() -> None:
    docs = [{"natural scenery", "城市内涝"}, {"natural scenery"}]
    assert select_terms(docs, pinned=["Natural  Scenery", "城市 内涝"]).terms == (
        "natural scenery",
        "城市内涝",
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"min_df": 0}, "--min-df must be at least 1"),
        ({"max_df": 0.0}, r"--max-df is a share of the documents in \(0, 1\]"),
        ({"max_df": 1.5}, r"--max-df is a share"),
        ({"max_terms": 0}, "--max-terms must be at least 1"),
        ({"min_chars": 0}, "--min-chars must be at least 1"),
    ],
)
def test_bad_options(kwargs, message: str) -> None:
    with pytest.raises(TermsError, match=message):
        select_terms(DOCS, **kwargs)


def test_terms_file(tmp_path) -> None:
    path = tmp_path / "terms.txt"
    text = "# pinned terms\n暴雨灾害\n\n  山体滑坡  # landslide\nnatural scenery\n"
    path.write_bytes(text.encode("gbk"))
    assert read_terms_file(path) == ["暴雨灾害", "山体滑坡", "natural scenery"]


def test_terms_file_errors_name_the_file(tmp_path) -> None:
    with pytest.raises(TermsError, match=r"none\.txt: no such terms file"):
        read_terms_file(tmp_path / "none.txt")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n", encoding="utf-8")
    with pytest.raises(TermsError, match=r"empty\.txt: the terms file lists no term"):
        read_terms_file(empty)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\x01\x02")
    with pytest.raises(TermsError, match=r"binary\.txt: the terms file is not UTF-8"):
        read_terms_file(binary)
    with pytest.raises(TermsError, match=r"cannot read the terms file"):
        read_terms_file(tmp_path)
