"""Term selection: the df window, termhood (hand-computed and against wordfreq), nesting,
boilerplate and noun-slot rules, pins; and the terms file."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from kgcrawl.ontology.terms import (
    TermsError,
    TermStats,
    read_terms_file,
    select_terms,
    termhood,
)
from kgcrawl.text.english import english_terms

DOCS = [
    {"暴雨", "洪水", "预警"},
    {"暴雨", "洪水"},
    {"暴雨", "滑坡"},
    {"暴雨", "滑坡", "预警", "县"},
    {"暴雨", "洪水", "rare"},
]
# df: 暴雨 5, 洪水 3, 滑坡 2, 预警 2, 县 1, rare 1; N = 5, so max_df 0.8 allows df ≤ 4.
STATS = TermStats.from_sets(DOCS)


def _english(*texts: str) -> TermStats:
    """Term statistics of the texts plus one unrelated document (so max_df 0.8 admits
    terms that every text holds)."""
    stats = TermStats()
    for text in (*texts, "Bats hunt moths over the pond at dusk."):
        found = english_terms(text)
        stats.add(found.counts, found.tokens, found.inside, found.contexts, found.heads)
    return stats


def test_termhood_is_df_times_squared_log_ratio() -> None:
    # 6 occurrences in 1 000 tokens = 6e-3, against 1e-4 in general language: ratio 60.
    assert termhood(3, 6, 1000, 1e-4) == pytest.approx(3 * math.log(60) ** 2)  # 50.2890
    assert termhood(2, 1, 1000, 1e-3) == 0  # as common as in general language
    assert termhood(2, 1, 1000, 1e-2) == 0  # rarer than in general language


def test_window() -> None:
    selection = select_terms(STATS)
    # 暴雨 is in every document (> 0.8·N), 县 and rare in one (< min_df 2).
    assert set(selection.terms) == {"滑坡", "预警", "洪水"}
    assert selection.df == {"滑坡": 2, "预警": 2, "洪水": 3}
    assert selection.candidates == 6 and selection.missing == ()
    assert {k: n for k, n in selection.left_out.items() if n} == {"rare": 2, "common": 1}
    assert set(select_terms(STATS, max_df=1.0).terms) == {"滑坡", "预警", "洪水", "暴雨"}
    cut = select_terms(STATS, max_terms=2)  # the lowest termhood of the three is cut
    assert len(cut.terms) == 2 and cut.left_out["cut"] == 1
    assert len(cut.terms) + sum(cut.left_out.values()) == cut.candidates


def test_homework_outranks_please() -> None:
    # Same counts; "please" is 34× commoner in general English (wordfreq zipf 5.66 vs 4.13).
    stats = TermStats()
    for counts in ({"please": 2, "homework": 2}, {"please": 1, "homework": 1}, {"exam": 1}):
        stats.add(Counter(counts), 100)
    assert select_terms(stats).terms[:2] == ("homework", "please")
    # In English text both "please" and "following" are on the maintained stop list.
    assert set(english_terms("Please do the following homework").counts) == {"homework"}


def test_terms_no_commoner_than_in_general_language_are_dropped() -> None:
    stats = TermStats()
    for _ in range(3):  # "time" once per 10 000 tokens; wordfreq: ≈ 1.3 per 1 000
        stats.add(Counter({"time": 1, "telescope": 1}), 10_000)
    selection = select_terms(stats, max_df=1.0)
    assert selection.terms == ("telescope",) and selection.left_out["general"] == 1


def test_a_word_found_only_inside_a_phrase_is_left_to_it() -> None:
    stats = _english(
        "Cherry tomatoes split after rain; a tomato in a pot does not. The solar system is old.",
        "Pick cherry tomatoes daily, and water each tomato plant well. Our solar system has a sun.",
    )
    terms = select_terms(stats).terms
    assert {"cherry tomato", "tomato", "solar system"} <= set(terms)
    # "system" heads a noun phrase, but only ever inside "solar system"; "cherry" heads none.
    assert "system" not in terms and "cherry" not in terms


def test_one_repeated_sentence_is_boilerplate() -> None:
    footer = "Dig plenty of compost into the soil."
    stats = _english(f"Roses like sun. {footer}", f"Tulips like sun too. {footer}")
    assert stats.count["dig plenty"] == 2
    assert "dig plenty" not in select_terms(stats).terms


def test_adjectives_never_heading_a_noun_phrase_are_no_terms() -> None:
    stats = _english(
        "Damp leaves rot. The damp soil of the border suits ferns.",
        "A damp corner and damp soil suit ferns and the leaves.",
    )
    terms = select_terms(stats).terms
    assert "fern" in terms and "leaf" in terms and "damp" not in terms


def test_min_chars_drops_single_characters() -> None:
    selection = select_terms(STATS, min_df=1)
    assert "县" not in selection.terms and selection.left_out["short"] == 1
    assert "县" in select_terms(STATS, min_df=1, min_chars=1).terms


def test_pins_come_first_and_bypass_every_filter() -> None:
    selection = select_terms(STATS, max_terms=2, pinned=["县", "暴雨", "台风", "县"])
    assert selection.terms == ("县", "暴雨")
    assert selection.missing == ("台风",)
    selection = select_terms(STATS, max_terms=3, pinned=["洪水"])
    assert selection.terms[0] == "洪水" and set(selection.terms) == {"洪水", "滑坡", "预警"}


def test_pins_are_normalised_like_labels() -> None:
    stats = TermStats.from_sets([{"natural scenery", "城市内涝"}, {"natural scenery"}])
    assert select_terms(stats, pinned=["Natural  Scenery", "城市 内涝"]).terms == (
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
        select_terms(STATS, **kwargs)


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


def test_merging_a_plural_counts_it_as_its_singular_everywhere() -> None:
    stats = TermStats()
    stats.add(Counter({"cone": 2, "cones": 1}), 10, Counter({("cone", "cinder cone"): 1}),
              [("cones", "the", "")], Counter({"cones": 1}))  # fmt: skip
    stats.add(Counter({"cones": 3}), 5, contexts=[("cone", "a", "")])
    stats.merge({"cones": "cone"})
    assert stats.doc_terms == [{"cone"}, {"cone"}]
    assert stats.count == Counter({"cone": 6}) and stats.tokens == 15
    assert stats.inside == Counter({("cone", "cinder cone"): 1})
    assert stats.heads == Counter({"cone": 1})
    assert stats.contexts == {"cone": {("the", ""), ("a", "")}}
