"""Segmentation for term extraction: user words, nouns, Unicode words, phrases, noise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgcrawl.text.tokenize import (
    add_user_words,
    is_chinese,
    join_phrases,
    keep_content,
    noun_tokens,
    phrase_of,
    segment,
    tokenize,
    word_tokens,
)

LABELS = ["暴雨灾害", "山体滑坡", "自然景观"]
SENTENCE = "暴雨灾害引发山体滑坡，游客改去欣赏自然景观。"


def test_labels_are_split_without_user_words(jieba_words) -> None:
    tokens = tokenize(SENTENCE)
    assert "暴雨灾害" not in tokens and "山体滑坡" not in tokens
    assert {"暴雨", "灾害", "山体", "滑坡"} <= set(tokens)


def test_user_words_keep_labels_whole(jieba_words) -> None:
    add_user_words(LABELS)
    tokens = tokenize(SENTENCE)
    assert [t for t in tokens if t in LABELS] == LABELS
    assert [t for t in noun_tokens(SENTENCE) if t in LABELS] == LABELS
    assert [t for t in segment(SENTENCE, nouns_only=True) if t in LABELS] == LABELS


def test_user_words_are_normalised_first(jieba_words) -> None:
    add_user_words(["城市 内涝"])  # a space inside a Chinese label would split it
    assert "城市内涝" in tokenize("强降雨造成城市内涝。")


def test_noun_tokens_drop_verbs_and_adverbs(jieba_words) -> None:
    tokens = noun_tokens("游客提前预订酒店，建议乘坐高铁前往景区。")
    assert {"游客", "酒店", "高铁", "景区"} <= set(tokens)
    assert not {"提前", "预订", "乘坐", "前往"} & set(tokens)


def test_word_tokens_are_unicode_words_lower_cased() -> None:
    assert word_tokens("Natural Scenery: the bed-and-breakfast, Zürich’s café, 3rd") == [
        "natural",
        "scenery",
        "the",
        "bed-and-breakfast",
        "zürich’s",
        "café",
        "3rd",
    ]


def test_segment_uses_unicode_words_for_other_languages() -> None:
    assert segment("Heavy rain, HEAVY floods") == ["heavy", "rain", "heavy", "floods"]
    assert segment("暴雨 flood", chinese=False) == ["暴雨", "flood"]


def test_join_phrases_prefers_the_longest() -> None:
    phrases = {phrase_of("Natural Scenery"), phrase_of("natural scenery area"), ("park",)}
    tokens = word_tokens("natural scenery area and natural scenery, natural parks")
    assert join_phrases(tokens, phrases) == [
        "natural scenery area",
        "and",
        "natural scenery",
        "natural",
        "parks",
    ]
    assert join_phrases(tokens, set()) == tokens


@pytest.mark.parametrize(
    ("tokens", "kept"),
    [
        (["the", "flood", "of", "rain"], ["flood", "rain"]),
        (["12", "3.5", "80%", "1,000", "x", "暴雨"], ["暴雨"]),
        (["的", "洪水", "三", "已经", "雨"], ["洪水", "雨"]),
    ],
)
def test_keep_content_drops_stop_words_numbers_and_single_latin(tokens, kept) -> None:
    assert keep_content(tokens) == kept


@pytest.mark.parametrize(
    ("text", "chinese"),
    [
        ("", False),
        ("123 ___ !?", False),  # no letters
        ("暴雨 rain", True),  # 2 Chinese of 6 letters
        ("a暴bcd", True),  # 1 of 5: exactly a fifth
        ("暴 rainfall", False),  # 1 of 9
        ("Ωmega 中文 42", True),  # Greek letters count as letters: 2 of 7
    ],
)
def test_chinese_text_has_a_fifth_of_its_letters_chinese(text: str, chinese: bool) -> None:
    assert is_chinese(text) is chinese


@given(st.text(alphabet="暴雨中文abcΩé 1_,。\n", max_size=40))
def test_chinese_is_counted_per_character(text: str) -> None:
    letters = [c for c in text if c.isalpha()]
    han = [c for c in text if "\u4e00" <= c <= "\u9fff"]
    assert is_chinese(text) == (bool(letters) and len(han) / len(letters) >= 0.2)
