"""jieba's dictionary as a memory-mapped MARISA trie, for processes that only count topic words.

jieba keeps its dictionary (every word and every prefix of one, ≈ 500 000 keys)
in a Python dict: ≈ 70 MB in each process and ≈ 1.2 CPU-s to load from its
marshal cache (NOTES.md), paid by every analyser of a crawl. The same mapping as
a MARISA trie plus an array of frequencies is ≈ 3 MB in the cache folder, built
once per dictionary and memory-mapped by every process that uses it, so the
operating system keeps one copy and a process opens it in milliseconds.

`TrieFreq` answers what jieba asks of its `FREQ` (`in`, `[]`, `get`, and
`add_word`'s writes, which go to a small dict on top), with the same values, so
jieba cuts every text as it does with its own dict. A first lookup costs ≈ 0.5 µs
instead of ≈ 0.05 µs (a repeated one is remembered); the topic-word matcher asks
jieba only about the few regions where a label's ends are in doubt, so the process
comes out ahead. Beside them, a trie of the 299 310 pairs of characters that stand
side by side in some word (0.7 MB) tells the matcher where no word can cross a label's
ends (`TrieFreq.pair_sets`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import sys
import tempfile
import threading
from array import array
from collections.abc import Iterator
from pathlib import Path

from kgcrawl.text.memo import Memo

_FORMAT = 2  # bump when the files' layout changes
_KNOWN = 1 << 15  # answers a TrieFreq remembers (≈ 3 MB), emptied when full


class TrieFreq:
    """jieba's `FREQ` (word or prefix → frequency, 0 for a bare prefix) over a read-only trie."""

    __slots__ = ("_added", "_added_pairs", "_freqs", "_known", "_pairs", "_size", "_trie",
                 "longest")  # fmt: skip

    def __init__(self, trie, freqs: array, longest: int, pairs) -> None:
        self._trie = trie
        self._freqs = freqs
        self._pairs = pairs  # a trie of `word_pairs` of the dictionary's words
        self._added: dict[str, int] = {}
        self._added_pairs: set[str] = set()
        self._known = Memo(self._look_up, _KNOWN)  # frequency, None if absent
        self._size = len(trie)
        self.longest = longest  # the longest key, in characters

    @property
    def key_sets(self) -> tuple:
        """(trie, added words): `key in` either is `key in self` without a Python call."""
        return self._trie, self._added

    @property
    def pair_sets(self) -> tuple:
        """(trie, added words' pairs): the two characters side by side in some word
        (frequency > 0) are in one of them (`word_pairs`); the matcher's `_is_token`
        needs no other look when no word holds the pair across a hit's end."""
        return self._pairs, self._added_pairs

    def _look_up(self, key: str) -> int | None:
        """The key's frequency (None when absent), for `_known` to remember.

        jieba asks about the same characters and prefixes over and over, and a dict
        answers again in a tenth of the trie's time: the 42 478 regions the topic
        matcher tokenises in the pages of a 3 000-page crawl of the default sandbox
        (89 307 keys asked) took 47–48 µs each, 36–38 remembering 32 768 (issue 19).
        """
        value = self._added.get(key)
        if value is None and (index := self._trie.get(key)) is not None:
            value = self._freqs[index]
        return value

    def __contains__(self, key: object) -> bool:
        return self._known[key] is not None  # type: ignore[index]

    def __getitem__(self, key: str) -> int:
        value = self._known[key]
        if value is None:
            raise KeyError(key)  # as a dict
        return value

    def get(self, key: str, default: int | None = None) -> int | None:
        value = self._known[key]
        return default if value is None else value

    def __setitem__(self, key: str, value: int) -> None:
        if key not in self:
            self._size += 1
        self._added[key] = value
        self._known[key] = value
        if value:
            self._added_pairs.update(word_pairs(key))
        self.longest = max(self.longest, len(key))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[str]:
        yield from (key for key in self._trie if key not in self._added)
        yield from self._added


def word_pairs(word: str) -> Iterator[str]:
    """Each two characters that stand side by side in `word`.

    >>> list(word_pairs("暴雨灾害"))
    ['暴雨', '雨灾', '灾害']
    """
    return (word[i : i + 2] for i in range(len(word) - 1))


_importing = threading.Lock()


def import_jieba():
    """The jieba module, imported without pkg_resources.

    jieba imports pkg_resources only to open its own data files, and opens them
    directly when that import fails; importing it cost 136 ms of CPU and 10 MB in
    every process that segments text, each analyser of a crawl among them (issue 19).
    One thread imports: another would find jieba in `sys.modules` half imported.
    """
    with _importing:
        if "jieba" not in sys.modules:
            absent = "pkg_resources" not in sys.modules
            if absent:
                sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # import fails
            try:
                import jieba  # noqa: F401
            finally:
                if absent:
                    del sys.modules["pkg_resources"]
        return sys.modules["jieba"]


def install(tokenizer, cache: Path) -> bool:
    """Give a jieba tokenizer that has not loaded its dictionary the trie instead (built if new).

    False, and nothing changed, when the tokenizer is loaded already: words added
    to its dict would be lost.
    """
    if tokenizer.initialized:
        return False
    folder = cache / f"jieba-trie-{_key(tokenizer)}"
    if not (folder / "meta.json").exists():
        _build(tokenizer, folder)
    freq, total = load(folder)
    tokenizer.FREQ, tokenizer.total, tokenizer.initialized = freq, total, True
    return True


def load(folder: Path) -> tuple[TrieFreq, int]:
    """The trie-backed FREQ and jieba's `total` from a folder `_build` wrote."""
    import marisa_trie

    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    trie = marisa_trie.Trie()
    trie.mmap(str(folder / "words.marisa"))
    freqs = array("I")
    freqs.frombytes((folder / "freqs.bin").read_bytes())
    pairs = marisa_trie.Trie()
    pairs.mmap(str(folder / "pairs.marisa"))
    return TrieFreq(trie, freqs, meta["longest"], pairs), meta["total"]


def _key(tokenizer) -> str:
    """Names the dictionary file's version (path, size, modification time) and the format."""
    jieba = import_jieba()

    path = Path(tokenizer.dictionary or jieba.DEFAULT_DICT_NAME)
    if not path.is_absolute():
        path = Path(jieba.__file__).parent / path
    stat = path.stat()
    text = f"{_FORMAT} {jieba.__version__} {path} {stat.st_size} {stat.st_mtime_ns}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _build(tokenizer, folder: Path) -> None:
    """Load the dictionary the usual way once, in a tokenizer of its own, and write the trie."""
    import marisa_trie

    jieba = import_jieba()

    jieba.setLogLevel(logging.WARNING)
    source = jieba.Tokenizer(tokenizer.dictionary)
    source.initialize()
    trie = marisa_trie.Trie(source.FREQ)
    freqs = array("I", bytes(4 * len(trie)))
    for word, freq in source.FREQ.items():
        freqs[trie[word]] = freq
    pairs = marisa_trie.Trie(pair for w, f in source.FREQ.items() if f for pair in word_pairs(w))
    meta = {"total": source.total, "longest": max(map(len, source.FREQ), default=1)}
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=folder.name, dir=folder.parent))
    try:
        trie.save(str(staging / "words.marisa"))
        pairs.save(str(staging / "pairs.marisa"))
        (staging / "freqs.bin").write_bytes(freqs.tobytes())
        (staging / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        with contextlib.suppress(OSError):  # another process built it meanwhile: keep theirs
            os.rename(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
