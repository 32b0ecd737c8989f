"""One regular expression that finds, at each place of a text, the longest of many labels.

The topic-word matcher (`text/matching.py`) looks for every label of an ontology
in every text a crawl reads: 241 Chinese labels and the Latin ones of the shipped
ontologies. Written as a trie of the labels' characters, the regex follows the one
path the text allows instead of trying each label in turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")


def label_pattern(
    labels: Iterable[Sequence[str]],
    prefix: str = "",
    end_guard: bool = False,
    ignore_case: bool = True,
) -> re.Pattern | None:
    """One regex (case-blind unless `ignore_case` is off) that matches, at each place,
    the longest of `labels`.

    A label is a sequence of words; between two words the text may hold any
    run of punctuation and spaces (`[\\W_]+`, as `tokenize` drops them). With
    `end_guard`, a label that ends in an ASCII letter or digit must not be
    followed by one (jieba cuts Latin text into runs of those).

    The labels share their prefixes (旅(?:游(?:业|)|行)): `re` tries each
    alternative of an alternation in turn, so the flat alternation of the 241
    Chinese labels, longest first, cost 0.87 ms per sandbox page to scan, this
    form 0.38 ms, with the same spans on all 32 696 texts of 500 pages (issue
    19). No character of the text can enter two branches of a node (keys are
    lower-cased, and with `ignore_case` those `re.I` still takes for one another are merged;
    words are letters and digits, separators are not), so the one path the
    text allows is followed as far as it goes, and the match ends at the last
    label on it, since a node's end is tried after its branches: the longest.
    That is what the flat alternation found too, sorted by length (Chinese) or
    by words, then letters (Latin: of two labels that match at one place, the
    one with fewer words stops inside a word the other reads whole, so it is
    also the shorter).

    >>> label_pattern([("暴雨",), ("暴雨灾害",), ("大暴雨",)]).pattern
    '(?:大暴雨|暴雨(?:灾害|))'
    >>> label_pattern([("hotel",), ("hotel", "chain")], end_guard=True).pattern
    'hotel(?:[\\\\W_]+chain(?![A-Za-z0-9])|(?![A-Za-z0-9]))'
    """
    trie: dict = {}
    for words in labels:
        node = trie
        for n, word in enumerate(words):
            if n:
                node = node.setdefault(_BETWEEN, {})
            for char in word:
                node = node.setdefault(_fold(char), {})
        node[_END] = {}
    if not trie:
        return None
    return re.compile(prefix + _branches(trie, end_guard, ignore_case), re.I if ignore_case else 0)


def latin_patterns(labels: Iterable[Sequence[str]]) -> list[re.Pattern]:
    """Latin labels (sequences of words) as regexes, case-blind, that neither start
    right after nor end right before an ASCII letter or digit, as jieba cuts Latin text.

    Those that start with one share one lookbehind, in a pattern of their own, so that
    the regex engine can still skip ahead to the places where a label can start.

    >>> [p.pattern for p in latin_patterns([("hotel",), ("5a",), ("é",)])]
    ['(?<![A-Za-z0-9])(?:5a(?![A-Za-z0-9])|hotel(?![A-Za-z0-9]))', 'é']
    """
    labels = list(labels)
    guarded = [words for words in labels if _ASCII_ALNUM.match(words[0])]
    free = [words for words in labels if not _ASCII_ALNUM.match(words[0])]
    patterns = (label_pattern(guarded, "(?<![A-Za-z0-9])", True), label_pattern(free, "", True))
    return [pattern for pattern in patterns if pattern is not None]


_BETWEEN = "[\\W_]+"  # a trie key: the separator between two words (never one character)
_END = ""  # a trie key: a label ends here


def _fold(char: str) -> str:
    """The trie key of a character: lower case, where that is one character (İ is not)."""
    lower = char.lower()
    return lower if len(lower) == 1 else char


def _branches(node: dict, end_guard: bool, ignore_case: bool, last: str = "") -> str:
    """The regex of a trie node: its branches in turn, then (if a label ends here) the end."""
    arms = [
        (key if key == _BETWEEN else re.escape(key)) + _branches(child, end_guard, ignore_case, key)
        for key, child in (_distinct(node) if ignore_case else _sorted(node))
    ]
    if _END in node:
        arms.append("(?![A-Za-z0-9])" if end_guard and _ASCII_ALNUM.match(last) else "")
    return arms[0] if len(arms) == 1 else "(?:" + "|".join(arms) + ")"


def _sorted(node: dict) -> list[tuple[str, dict]]:
    """A node's branches, in order."""
    return [(key, child) for key, child in sorted(node.items()) if key != _END]


def _distinct(node: dict) -> list[tuple[str, dict]]:
    """A node's branches, those whose characters `re.I` takes for one another (ſ and s,
    ς and σ) made one, so that no character of the text can enter two of them."""
    merged: list[tuple[str, dict]] = []
    for key, child in _sorted(node):
        twin = None
        if key != _BETWEEN and key.lower() != key.upper():  # Chinese has no case
            same = re.compile(re.escape(key), re.I).fullmatch
            twin = next((c for k, c in merged if k != _BETWEEN and same(k)), None)
        if twin is None:
            merged.append((key, child))
        else:
            _merge(twin, child)
    return merged


def _merge(into: dict, other: dict) -> None:
    for key, child in other.items():
        if key in into:
            _merge(into[key], child)
        else:
            into[key] = child
