"""Word segmentation shared by the ontology builder and the crawler.

Both sides must cut text the same way, or a label found in the corpus would be
missed in a page. jieba segments Chinese (and passes Latin words through);
ontology labels become user words so 暴雨灾害 or 山体滑坡 stay whole. jieba keeps
one dictionary per process: we use its default tokenizer, loaded lazily on the
first call, because every `jieba.Tokenizer()` loads its own copy (NOTES.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import resources

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[^\W\d_]")
_NUMBER = re.compile(r"^[\d.,%]+$")
_SPACE = re.compile(r"\s+")


@cache
def _jieba():
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


def normalise_label(label: str) -> str:
    """A label as a single token candidate: spaces inside Chinese text removed."""
    label = _SPACE.sub(" ", label.strip())
    if _CJK.search(label):
        label = label.replace(" ", "")
    return label.lower()


def add_user_words(words: Iterable[str]) -> None:
    """Make jieba keep these words (ontology labels) whole."""
    jieba = _jieba()
    for word in words:
        word = normalise_label(word)
        if _CJK.search(word):
            jieba.add_word(word, freq=max(jieba.get_FREQ(word) or 0, 2000))


def tokenize(text: str) -> list[str]:
    """All word tokens of `text`, Latin lower-cased; spaces and punctuation dropped."""
    if not text:
        return []
    return [tok.lower() for tok in _jieba().lcut(text) if _LETTER.search(tok) or tok.isdigit()]


def label_tokens(label: str) -> tuple[str, ...]:
    """How a label reads as tokens: one for a Chinese label, several for "natural scenery"."""
    return tuple(tokenize(normalise_label(label)))


@cache
def stop_words() -> frozenset[str]:
    """The shipped Chinese and English stop-word lists."""
    words: set[str] = set()
    for name in ("stopwords_zh.txt", "stopwords_en.txt"):
        text = resources.files("kgcrawl.text").joinpath(name).read_text(encoding="utf-8")
        words.update(line.strip().lower() for line in text.splitlines() if line.strip())
    return frozenset(words)


def content_tokens(text: str) -> list[str]:
    """Tokens worth counting as terms: no stop words, numbers or one-letter Latin."""
    stops = stop_words()
    return [
        tok
        for tok in tokenize(text)
        if tok not in stops
        and not _NUMBER.match(tok)
        and not (len(tok) == 1 and not _CJK.match(tok))
    ]


def is_chinese(text: str) -> bool:
    """True when Chinese characters make up at least a fifth of the letters."""
    letters = len(_LETTER.findall(text))
    return letters > 0 and len(_CJK.findall(text)) / letters >= 0.2
