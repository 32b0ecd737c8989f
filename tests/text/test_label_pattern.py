"""The labels' regex finds what the longest-first alternation of them found (issue 19)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcrawl.text.label_pattern import label_pattern
from kgcrawl.text.matching import _lowered


def _longest_first(labels: set[tuple[str, ...]], prefix: str, guard: bool) -> re.Pattern:
    """The plain definition: every label's pattern, more words first, then more letters."""
    patterns = []
    for words in sorted(labels, key=lambda words: (-len(words), -len("".join(words)))):
        pattern = r"[\W_]+".join(re.escape(word) for word in words)
        if guard and re.match("[A-Za-z0-9]", words[-1][-1]):
            pattern += "(?![A-Za-z0-9])"
        patterns.append(pattern)
    return re.compile(prefix + "(?:" + "|".join(patterns) + ")", re.I)


@pytest.mark.parametrize(
    ("prefix", "guard", "ignore_case"),
    [("", False, True), ("(?<![A-Za-z0-9])", True, True), ("", False, False)],
)
def test_the_label_pattern_finds_what_the_longest_first_alternation_finds(
    prefix: str, guard: bool, ignore_case: bool
) -> None:
    """The prefix-sharing regex of the labels against the alternation it replaced, on
    labels as the matcher has them (lower case; Chinese, Latin words) and any text;
    without `ignore_case`, over the lower-cased text (as the Chinese labels are found)."""
    word = st.text(st.sampled_from("暴雨灾大skiaé1"), min_size=1, max_size=3)
    label = st.lists(word, min_size=1, max_size=2).map(tuple)

    @settings(max_examples=500, deadline=None)
    @given(st.sets(label, min_size=1, max_size=8),
           st.text(st.sampled_from("暴雨灾大sSkKiIaAéÉ1 -_,"), max_size=40))  # fmt: skip
    def check(labels: set[tuple[str, ...]], text: str) -> None:
        expected = [m.span() for m in _longest_first(labels, prefix, guard).finditer(text)]
        pattern = label_pattern(labels, prefix, guard, ignore_case)
        found = pattern.finditer(text if ignore_case else _lowered(text))
        assert [m.span() for m in found] == expected

    check()


def test_the_label_pattern_merges_letters_re_takes_for_one_another() -> None:
    """ſ is s and ς is σ to `re.I`: with a branch for each, the text would go down the
    first and stop at the shorter label there, never reaching the longer one."""
    pattern = label_pattern([("sa",), ("ſab",), ("σx",), ("ςxy",)])
    assert [m.group() for m in pattern.finditer("SAB ΣXY sa σx")] == ["SAB", "ΣXY", "sa", "σx"]
