"""Counting topic words in text, as the shared tokenizer would, but fast.

A topic word (one concept) occurs wherever the tokens of the text read one of
its labels or altLabels (`tokenize.label_tokens`). Tokenising a whole 50 KB
Chinese page with jieba takes 50–80 ms (≈ 0.65–1.3 MB/s, NOTES.md), four times
the page budget, so we find candidates with one compiled regular expression
and ask jieba only where its answer could differ:

* Chinese labels (added as jieba user words): one regex of all of them
  (`text/label_pattern.py`), longest first, finds every place where a label is
  spelled. jieba cuts each run of "block" characters (`jieba.re_han_default`) on
  its own, by the most probable path through the dictionary words of that run.
  If no dictionary word crosses the start or the end of the hit, every path is
  cut there, so the hit is cut exactly as the label alone is: one token. Only
  when a word crosses (旅游 inside 旅游业, 暴雨 inside 大暴雨) is the run tokenised, and
  its tokens are counted. On Chinese news text about one hit in seven needs
  this.
* Other labels (Latin words): a regex of the label's words separated by
  non-word characters, not glued to ASCII letters or digits, which is how jieba
  cuts Latin text and how `tokenize` drops punctuation between tokens.

The counts equal counting `label_tokens` sequences in `tokenize(text)` except
next to the few jieba dictionary entries that mix Latin with symbols or Han
(AT&T, B超), and for labels with characters outside jieba's runs (暴雨·灾害)
whose pieces the tokenizer would also match across punctuation.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence

import numpy as np

from kgcrawl.text.dictionary import import_jieba
from kgcrawl.text.label_pattern import label_pattern, latin_patterns
from kgcrawl.text.memo import Memo
from kgcrawl.text.tokenize import add_user_words, label_tokens, normalise_label, tokenize

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# jieba.re_han_default: jieba segments each maximal run of these characters on its own.
_NO_CJK = re.compile(r"[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_RUN_CHARS = "\u4e00-\u9fd5a-zA-Z0-9+#&._%\\-"
_RUN = re.compile(f"[{_RUN_CHARS}]*")
_RUN_ONLY = re.compile(f"[{_RUN_CHARS}]+")
_LATIN_WORD = re.compile(r"[A-Za-z0-9]+")
_NON_WORD = re.compile(r"[\W_]+")
_WORD_CHAR = re.compile(r"[^\W_]")  # what `_latin_parts` keeps: a label's letters and digits
# Mean length of a Chinese jieba token: 1.87 and 1.92 characters in the shipped
# tourism and rainstorm corpora, 1.79 in text drawn from jieba's dictionary by frequency.
CJK_CHARS_PER_TOKEN = 1.9
# Answers each of the matcher's two caches holds, emptied when full. The topic words of a
# region (the jieba runs around some hits) are remembered: a page is counted twice, its
# tag groups and its main text, which repeat most regions, and a site's pages share their
# navigation: over the 3 000 pages of a fcits_oh crawl of the
# default sandbox a cache of 4 096 regions answers 55 % of 488 712 asks (16 384: 57 %,
# 65 536: 59 %). Against the cache of tokenised runs it replaced (benchmarks/
# bench_analysis.py, 500 pages, interleaved, the same results), counting alone took
# 0.2–1.2 ms a page less in four runs, the main-text stage 0.6–1.0 ms less in three of
# them; the whole analysis (14–19 ms) varies more from run to run (issue 19).
_CACHED = 1 << 12
# Short texts (anchors, a URL's words, most contexts) are counted once while the cache
# holds them: a site's menus repeat on its pages, and 60 % of the anchors of 500 sandbox
# pages and 57 % of their URLs had been seen before; counting those anchors and URLs in
# one pass took 0.16 ms a page instead of 0.24–0.25 (issue 19).
_SHORT_TEXT = 64


def token_length(text: str) -> int:
    """Page length in tokens for BM25 (Eq. 5), estimated without running jieba.

    Latin words and numbers count one each, Chinese characters 1/1.9 each; BM25
    uses only dl / avgdl, so one consistent estimate is all it needs.
    """
    # counted by what `sub` removes: no list of every match (0.07 → 0.04 ms a page)
    chinese = len(_NO_CJK.sub("", text))
    return _LATIN_WORD.subn("", text)[1] + round(chinese / CJK_CHARS_PER_TOKEN)


class TopicMatcher:
    """Counts of every topic word in a text; topic word i has the labels `words[i]`.

    Where labels overlap, the longest wins, leftmost first, as jieba keeps
    暴雨灾害 whole instead of counting 暴雨: "hotel chain" counts once, for the
    concept labelled so, not again for "hotel". Building a matcher adds the
    Chinese labels to jieba as user words (process-wide, as `build-ontology`
    does) when it first counts, so keep one matcher per topic model.
    """

    def __init__(self, words: Sequence[Sequence[str]]) -> None:
        self.words = [tuple(labels) for labels in words]  # what another process rebuilds it from
        self.n = len(words)
        self._built = False
        self._lock = threading.Lock()

    def _build(self) -> None:
        """Load jieba, add the labels, compile the patterns: on the first count, not before.

        A crawl with analyser processes never counts in its main process, which then
        needs only `words`; building there cost ≈ 1.2 CPU-s and ≈ 70 MB for jieba.
        """
        jieba = import_jieba()
        words = self.words
        add_user_words(label for labels in words for label in labels if _CJK.search(label))
        self._freq = jieba.dt.FREQ
        self._dictionary_size = -1
        self._longest_word = 0
        self._regions = Memo(self._words_of_region, _CACHED)
        self._short = Memo(self._counted_items, _CACHED)

        # label tokens → topic word indexes (two concepts may share a label)
        self._cjk_words: dict[tuple[str, ...], list[int]] = {}
        self._latin_words: dict[tuple[str, ...], list[int]] = {}
        for i, labels in enumerate(words):
            for label in labels:
                norm = normalise_label(label)
                if _CJK.search(norm):
                    key = label_tokens(norm)
                    index = self._cjk_words
                else:
                    key = _latin_parts(norm)
                    index = self._latin_words
                if key and i not in index.setdefault(key, []):
                    index[key].append(i)
        self._single_token = {
            tokens[0]
            for tokens in self._cjk_words
            if len(tokens) == 1 and len(tokens[0]) > 1 and _RUN_ONLY.fullmatch(tokens[0])
        }
        self._max_tokens = max(map(len, self._cjk_words), default=1)
        # Chinese labels are looked for in the lower-cased text, case-sensitively (`_lowered`)
        self._cjk = label_pattern({("".join(t),) for t in self._cjk_words}, ignore_case=False)
        latin = self._latin_words
        self._shortest_latin = min((len(" ".join(p)) for p in latin), default=0)
        self._latin = latin_patterns(latin)  # "hotel chain" before "hotel"
        self._built = True  # last: a thread that reads it True finds everything above

    def count(self, text: str) -> np.ndarray:
        """Occurrences of each topic word in `text` (an int array of length n)."""
        counts = np.zeros(self.n, dtype=np.int32)
        for i, c in self.count_sparse(text).items():
            counts[i] = c
        return counts

    def count_sparse(self, text: str) -> dict[int, int]:
        """{topic word index: occurrences}, only the words that occur."""
        if not text:
            return {}
        if not self._built or len(self._freq) != self._dictionary_size:
            self._prepare()
        if len(text) <= _SHORT_TEXT:
            return dict(self._short[text])
        return self._counted(text)

    def _prepare(self) -> None:
        """Build on the first count, start afresh when words were added to jieba since.

        One thread at a time: a Ray actor counts in several threads, and while the
        first built (jieba's dictionary loading, ≈ 1 s) the others found the matcher
        half made and lost their pages (28 of a 400-page crawl with 4 workers).
        """
        with self._lock:
            if not self._built:
                self._build()
            if len(self._freq) != self._dictionary_size:
                self._restart()

    def _counted(self, text: str) -> dict[int, int]:
        counts: dict[int, int] = {}
        if self._latin:
            self._count_latin(text, counts)
        if self._cjk is not None:
            self._count_cjk(text, counts)
        return counts

    def _counted_items(self, text: str) -> tuple[tuple[int, int], ...]:
        return tuple(self._counted(text).items())

    def _restart(self) -> None:
        """Forget what was worked out with jieba's dictionary as it was."""
        self._longest_word = _longest_key(self._freq)
        self._key_sets = getattr(self._freq, "key_sets", (self._freq, {}))
        self._pair_sets = getattr(self._freq, "pair_sets", ())  # jieba's dict has none
        self._regions.clear()
        self._short.clear()
        self._dictionary_size = len(self._freq)  # last, as `_built` in `_build`

    def _count_latin(self, text: str, counts: dict[int, int]) -> None:
        """Latin labels, looked for only between Chinese characters.

        A Latin label holds no Chinese character and its pattern's separators and
        look-arounds match none, so no hit crosses one: searching each stretch
        without them (the look-arounds see the real text around it) finds the same
        hits as searching the whole text, while the regex is no longer tried at
        every position of Chinese text (≈ 20 % of a crawl's CPU, issue 19).
        """
        latin = self._latin_words
        shortest = self._shortest_latin
        for stretch in _NO_CJK.finditer(text):
            start, end = stretch.span()
            # a hit starts with a label's first letter: white space and punctuation
            # between Chinese sentences need not be searched (−0.13 ms per page)
            if end - start < shortest or not _WORD_CHAR.search(text, start, end):
                continue
            for pattern in self._latin:
                for match in pattern.finditer(text, start, end):
                    _add(counts, latin[_latin_parts(match.group().lower())])

    def _count_cjk(self, text: str, counts: dict[int, int]) -> None:
        """Hits grouped by the jieba runs around them; a run is tokenised only when needed.

        The labels' regex runs case-sensitively over the lower-cased text: with `re.I`
        over the text as it is, the scan took 4× as long (0.23 against 0.06 ms per
        sandbox page, issue 19), as `re` then folds every character it compares. A
        label is lower case, and `tokenize` lower-cases each token, so this reads the
        text as the tokenizer does; everything else (runs, jieba) sees the text as it is.

        A hit that starts before the last region's end lies in the run that region ends
        with, so it joins the region without its run being looked for: 84 of the 256
        hits a page of a fcits_oh crawl, and the long texts of 1 000 pages, every region
        remembered, were counted in 0.77–0.81 ms a page instead of 0.88–0.96 (issue 19).
        """
        # [start, end, hit start, hit end, …]: the jieba runs around hits, in text order,
        # merged when they overlap, with the hits' places in them
        regions: list[list[int]] = []
        reverse = ""
        n = len(text)
        reach = -1  # where the last region ends
        for hit in self._cjk.finditer(_lowered(text)):
            start, end = hit.span()
            if start >= reach:  # past the last region's run: where does its own run start?
                if not reverse:
                    reverse = text[::-1]
                left = n - _RUN.match(reverse, n - start).end()
                if left >= reach:  # a run of its own: a new region
                    reach = _RUN.match(text, end).end()
                    regions.append([left, reach, start - left, end - left])
                    continue
            region = regions[-1]  # it joins the last region, which may reach further now
            if end > reach:
                reach = region[1] = _RUN.match(text, end).end()
            region += (start - region[0], end - region[0])
        for left, right, *spans in regions:
            # only that stretch of the text and the hits' places in it decide their words
            for words in self._regions[(text[left:right], *spans)]:
                _add(counts, words)

    def _words_of_region(self, key: tuple) -> tuple[list[int], ...]:
        """The topic words of a region, key (run, start, end, start, end, …), in order: the
        hits (spans of the run) when jieba cuts each as one token, else the labels in its
        tokens."""
        run, ends = key[0], range(1, len(key), 2)
        if all(self._is_token(run, key[i], key[i + 1]) for i in ends):
            return tuple(self._cjk_words[(run[key[i] : key[i + 1]],)] for i in ends)
        return tuple(self._token_words(tuple(tokenize(run))))

    def _is_token(self, run: str, start: int, end: int) -> bool:
        """True when jieba must cut run[start:end], a hit in the run, as one token: no
        dictionary word crosses its ends.

        jieba (get_DAG, calc) takes the most probable path through the words of
        the run; when no word spans the hit's start or end, every path is cut
        there, and inside the hit the best path is the label's own, one token.
        A hit in capitals is not (jieba's words are case-sensitive): it is tokenised.
        """
        if run[start:end] not in self._single_token:
            return False
        return not (
            self._crossed(run, start, range(max(0, start - self._longest_word + 1), start))
            or self._crossed(run, end, range(start, end))
        )

    def _crossed(self, run: str, place: int, starts: range) -> bool:
        """True when a dictionary word that starts at one of `starts` (all before `place`)
        runs past `place`.

        Such a word holds the two characters around `place`, so where no word of the
        trie holds them (`_joined`) there is nothing to walk: on the 3 000 pages of a
        fcits_oh crawl of the default sandbox, 229 827 of the 331 283 single-token hits
        `_is_token` was asked about had no such pair at either end, and counting the
        topic words took 1.84–1.91 ms a page instead of 1.94–2.06 (three interleaved
        runs), the same counts (issue 19).
        """
        if self._pair_sets and not _joined(run, place, self._pair_sets):
            return False
        freq = self._freq
        keys, added = self._key_sets
        right = len(run)
        for a in starts:
            # jieba's dictionary holds every prefix of its words, so if run[a:b] is not in
            # it, no longer word starts at a (one lookup where there were up to b - a).
            b = place + 1
            while b <= right:
                fragment = run[a:b]
                if fragment not in keys and fragment not in added:
                    break
                if freq[fragment]:
                    return True
                b += 1
        return False

    def _token_words(self, tokens: tuple[str, ...]) -> Iterator[list[int]]:
        """Label token sequences in `tokens`, longest first, not overlapping."""
        pos = 0
        while pos < len(tokens):
            for size in range(min(self._max_tokens, len(tokens) - pos), 0, -1):
                words = self._cjk_words.get(tokens[pos : pos + size])
                if words:
                    yield words
                    pos += size
                    break
            else:
                pos += 1


def _lowered(text: str) -> str:
    r"""`text` lower-cased character by character, as `tokenize` lower-cases its tokens, so
    that positions stay. A character whose lower case is two (İ, whose lower case is i
    and a combining dot) becomes NUL, which no label holds.

    >>> _lowered("5A级景区"), _lowered("İ级")
    ('5a级景区', '\x00级')
    """
    lower = text.lower()
    if len(lower) == len(text):  # the usual case: one C call
        return lower
    return "".join(low if len(low) == 1 else "\0" for low in map(str.lower, text))


def _joined(run: str, place: int, pair_sets: tuple) -> bool:
    """True when the two characters around `place` (between two characters of `run`)
    stand side by side in a word of the dictionary (`TrieFreq.pair_sets`)."""
    if 0 < place < len(run):
        pair, (pairs, added) = run[place - 1 : place + 1], pair_sets
        return pair in pairs or pair in added
    return False


def _longest_key(freq) -> int:
    """The longest word of jieba's dictionary: the trie knows it, a dict is scanned."""
    longest = getattr(freq, "longest", None)
    return longest if longest is not None else max(map(len, freq), default=1)


def _add(counts: dict[int, int], words: list[int]) -> None:
    for i in words:
        counts[i] = counts.get(i, 0) + 1


def _latin_parts(label: str) -> tuple[str, ...]:
    """The words of a Latin label or match: "Natural  scenery" → (natural, scenery)."""
    return tuple(part for part in _NON_WORD.split(label.lower()) if part)
