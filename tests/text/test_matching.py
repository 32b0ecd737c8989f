"""Topic-word counting: the fast scan must count what the shared tokenizer would."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcrawl.text import matching
from kgcrawl.text.matching import TopicMatcher, token_length
from kgcrawl.text.tokenize import label_tokens, normalise_label, tokenize

# Overlapping labels on purpose: 暴雨 / 暴雨灾害 / 大暴雨 (a jieba word), 旅游 / 旅游业
# (a jieba word, not a label), 滑坡 / 山体滑坡, hotel / hotel chain, one label
# shared by two concepts, one concept with a Chinese and an English label.
WORDS = [
    ["旅游"],
    ["暴雨"],
    ["暴雨灾害", "暴雨灾难"],
    ["山体滑坡"],
    ["滑坡"],
    ["城市内涝", "内涝"],
    ["景区", "风景区"],
    ["民宿", "bed-and-breakfast"],
    ["酒店", "Hotel"],
    ["hotel chain"],
    ["natural scenery"],
    ["tour"],
    ["游客", "tour"],
    ["国家5a级景区"],  # a Chinese label with a Latin letter: the text may spell it 5A
]


@pytest.fixture
def matcher(jieba_words) -> TopicMatcher:
    return TopicMatcher(WORDS)


def by_tokens(text: str) -> dict[int, int]:
    """The reference: label token sequences in tokenize(text), longest first, left to right."""
    index: dict[tuple[str, ...], list[int]] = {}
    for i, labels in enumerate(WORDS):
        for label in labels:
            index.setdefault(label_tokens(normalise_label(label)), []).append(i)
    longest = max(map(len, index))
    tokens, counts, pos = tuple(tokenize(text)), {}, 0
    while pos < len(tokens):
        for size in range(min(longest, len(tokens) - pos), 0, -1):
            for i in index.get(tokens[pos : pos + size], ()):
                counts[i] = counts.get(i, 0) + 1
            if tokens[pos : pos + size] in index:
                pos += size
                break
        else:
            pos += 1
    return counts


PIECES = [
    *(label for labels in WORDS for label in labels),
    *("大暴雨", "旅游业", "山体", "风景", "城市", "内", "灾害", "发展", "我们", "今天", "雨"),
    *("hotels", "tourism", "chain", "scenery", "Natural", "HOTEL", "2024", "5A"),
    *("国家5A级景区", "国家5a级", "5A级景区", "国家", "级"),
    *("，", "。", "、", " ", "-", "_", "·", "\n", "  "),
]


def test_counts_equal_the_tokenizer_on_mixed_text(matcher: TopicMatcher) -> None:
    @settings(max_examples=400, deadline=None)
    @given(st.lists(st.sampled_from(PIECES), max_size=25))
    def check(pieces: list[str]) -> None:
        text = "".join(pieces)
        assert matcher.count_sparse(text) == by_tokens(text), tokenize(text)

    check()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # jieba reads 旅游业 as one word: 旅游 is not counted there (a crossing word)
        ("旅游业发展，旅游。", {0: 1}),
        # two hits in one jieba run, one tokenised: the run is counted once, not per hit
        ("旅游业景区", {6: 1}),
        # 暴雨灾害 is kept whole (a label, a user word): 暴雨 is not counted inside it
        ("暴雨灾害与暴雨", {2: 1, 1: 1}),
        # 大暴雨灾害: the user word 暴雨灾害 crosses 大暴雨's end; jieba cuts 大 | 暴雨灾害
        ("大暴雨灾害", {2: 1}),
        ("山体滑坡后又滑坡", {3: 1, 4: 1}),
        # labels of one concept add up; a label shared by two concepts counts for both
        ("风景区和景区", {6: 2}),
        ("tour, Tour!", {11: 2, 12: 2}),
        # Latin words: case-insensitive, any punctuation between words, no partial words
        ("Hotel chains, hotel-chain; HOTEL CHAIN hotels hotel2 酒店hotel", {8: 3, 9: 2}),
        ("natural\n scenery, naturalscenery", {10: 1}),
        ("bed and breakfast", {7: 1}),
        ("", {}),
    ],
)
def test_worked_examples(matcher: TopicMatcher, text: str, expected: dict[int, int]) -> None:
    assert matcher.count_sparse(text) == expected
    assert matcher.count_sparse(text) == by_tokens(text)


def test_count_is_the_dense_form(matcher: TopicMatcher) -> None:
    counts = matcher.count("暴雨灾害与暴雨，暴雨")
    assert counts.dtype == np.int32
    assert counts.tolist() == [0, 2, 1] + [0] * 11


@pytest.mark.parametrize(
    "text",
    [
        "大暴雨灾害。" * 3,  # 大暴雨 crosses the label: the region is tokenised
        "去景区，暴雨灾害与暴雨。" * 3,  # every hit is one token: jieba is not asked
    ],
)
def test_a_region_seen_before_is_counted_from_the_cache(
    matcher: TopicMatcher, text: str, monkeypatch
) -> None:
    first = matcher.count_sparse(text)

    def asked(*args):
        raise AssertionError("a region seen before was worked out again")

    monkeypatch.setattr(matching, "tokenize", asked)
    monkeypatch.setattr(TopicMatcher, "_is_token", asked)
    assert matcher.count_sparse("前言：" + text) == first == by_tokens(text)


def test_token_length_estimate() -> None:
    # 3 Latin words/numbers + 4 Chinese characters / 1.9 = 2.1 → 2
    assert token_length("暴雨灾害 rain storm, 2024!") == 5
    assert token_length("") == 0


@pytest.mark.parametrize("domain", ["tourism", "rainstorm"])
def test_token_length_is_close_to_the_tokenizer_on_chinese_prose(domain: str) -> None:
    folder = Path(__file__).parents[2] / "corpus" / domain
    text = "\n".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.txt")))
    assert len(text) > 5000
    assert token_length(text) == pytest.approx(len(tokenize(text)), rel=0.1)


def test_words_added_to_jieba_later_are_taken_into_account(matcher: TopicMatcher) -> None:
    from kgcrawl.text.tokenize import add_user_words

    text = "大暴雨灾害预警"  # 大暴雨 crosses the label: the run is tokenised (and cached)
    assert matcher.count_sparse(text) == by_tokens(text) == {2: 1}
    add_user_words(["暴雨灾害预警"])  # e.g. the ontology builder's labels, later
    assert by_tokens(text) == {}
    assert matcher.count_sparse(text) == {}


def test_threads_counting_while_the_matcher_is_built_wait_for_it(jieba_words, monkeypatch) -> None:
    # A Ray actor counts in several threads; the first count builds the matcher, which
    # takes jieba's dictionary load (≈ 1 s in a new process): the sleep stands for it.
    adding = matching.add_user_words

    def slowly(words) -> None:
        time.sleep(0.3)
        adding(words)

    monkeypatch.setattr(matching, "add_user_words", slowly)
    texts = ["暴雨灾害预警", "hotel chain 酒店", "国家5A级景区的游客", "大暴雨"] * 2
    fresh = TopicMatcher(WORDS)
    with ThreadPoolExecutor(len(texts)) as pool:
        counted = list(pool.map(fresh.count_sparse, texts))
    assert counted == [by_tokens(text) for text in texts]
