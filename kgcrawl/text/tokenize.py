"""Word segmentation shared by the ontology builder and the crawler.

Both sides must cut text the same way, or a label found in the corpus would be
missed in a page. jieba segments Chinese (and passes Latin words through);
ontology labels become user words so 暴雨灾害 or 山体滑坡 stay whole. jieba keeps
one dictionary per process: we use its default tokenizer, loaded lazily on the
first call, because every `jieba.Tokenizer()` loads its own copy (NOTES.md), and
loaded from the shared trie (`text.dictionary`) wherever the cache folder allows.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Iterable
from functools import cache
from importlib import resources

from kgcrawl.text.dictionary import TrieFreq, import_jieba

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[^\W\d_]")
# What is left when these are removed is the letters / the Chinese characters: counted
# without a list of one-character strings (2.4× faster on crawled pages, issue 19).
_NOT_LETTER = re.compile(r"[\W\d_]+")
_NOT_CJK = re.compile(r"[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_NUMBER = re.compile(r"^[\d.,%]+$")
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# jieba POS flags of words that can name a class: nouns except person names (nr*),
# verbal and adjectival nouns, abbreviations, Latin words; user words are tagged nz.
_NOUN_FLAGS = re.compile(r"^(n(?!r)\w*|vn|an|j|eng)$")


@cache
def _jieba():
    jieba = import_jieba()
    jieba.setLogLevel(logging.WARNING)
    use_trie_dictionary()
    jieba.initialize()  # jieba's own dict, if the trie could not be installed
    return jieba


def use_trie_dictionary() -> bool:
    """jieba's dictionary as a shared, memory-mapped trie (`text.dictionary`), if not loaded yet.

    Same cuts, ≈ 60 MB and ≈ 1.3 CPU-s less in every process that segments text: an
    analyser, a `--workers 1` crawl, and whole-corpus work too (`build-ontology` of
    tourism: 4.51–4.58 CPU-s with it, 5.94–5.98 without). True when the trie is in use.
    """
    from kgcrawl.config import cache_dir
    from kgcrawl.text.dictionary import install

    tokenizer = import_jieba().dt
    try:
        return install(tokenizer, cache_dir()) or isinstance(tokenizer.FREQ, TrieFreq)
    except OSError as exc:  # a read-only cache folder: jieba loads its own, as it would
        logging.getLogger(__name__).warning(
            "jieba's shared dictionary cannot be kept in %s (%s)", cache_dir(), exc
        )
        return False


def normalise_label(label: str) -> str:
    """A label as a single token candidate: spaces inside Chinese text removed."""
    label = _SPACE.sub(" ", label.strip())
    if _CJK.search(label):
        label = label.replace(" ", "")
    return label.lower()


def add_user_words(words: Iterable[str]) -> None:
    """Make jieba keep these words (ontology labels) whole, tagged as nouns (nz)."""
    jieba = _jieba()
    for word in words:
        word = normalise_label(word)
        if _CJK.search(word):
            jieba.add_word(word, freq=max(jieba.get_FREQ(word) or 0, 2000), tag="nz")


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
    return keep_content(tokenize(text))


def keep_content(tokens: Iterable[str]) -> list[str]:
    """Drop stop words, numbers and one-letter Latin tokens (SPEC §3.1.2)."""
    stops = stop_words()
    return [
        tok
        for tok in tokens
        if tok not in stops
        and not _NUMBER.match(tok)
        and not (len(tok) == 1 and not _CJK.match(tok))
    ]


def word_tokens(text: str) -> list[str]:
    """Unicode words, lower-cased: how text that is not Chinese is cut, without jieba."""
    return [match.group().lower() for match in _WORD.finditer(text)]


def noun_tokens(text: str) -> list[str]:
    """The words of Chinese text that jieba's tagger reads as nouns, Latin lower-cased.

    Seven times slower than `tokenize` (≈ 0.1 MB/s), but terms that name classes
    are nouns: without this, verbs and adverbs (提前, 建议, 需要) fill the term list.
    """
    if not text:
        return []
    _jieba()
    import jieba.posseg

    return [pair.word.lower() for pair in jieba.posseg.lcut(text) if _NOUN_FLAGS.match(pair.flag)]


def is_place_name(word: str) -> bool:
    """Whether jieba's dictionary tags the word a place name (ns): 四川, 黄山, not 门票.

    >>> is_place_name("四川"), is_place_name("门票"), is_place_name("Sichuan")
    (True, False, False)
    """
    _jieba()
    import jieba.posseg

    return jieba.posseg.dt.word_tag_tab.get(word) == "ns"


def segment(text: str, chinese: bool | None = None, nouns_only: bool = False) -> list[str]:
    """A document's tokens: jieba for Chinese (only nouns if asked), Unicode words otherwise.

    SPEC §3.1.2. There is no tagger for other languages: they keep every word.
    """
    if chinese is None:
        chinese = is_chinese(text)
    if not chinese:
        return word_tokens(text)
    return noun_tokens(text) if nouns_only else tokenize(text)


def phrase_of(label: str) -> tuple[str, ...]:
    """The word sequence a Latin multi-word label stands for ("Natural  scenery" → 2 words)."""
    return tuple(word_tokens(normalise_label(label)))


def join_phrases(tokens: list[str], phrases: Collection[tuple[str, ...]]) -> list[str]:
    """Merge each run of tokens that spells a phrase into one token, longest phrase first.

    jieba keeps Chinese labels whole through user words; Latin labels of several
    words need this so "natural scenery" counts as one term, as the label it is.
    """
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in sorted(phrases, key=len, reverse=True):
        if len(phrase) > 1:
            by_first.setdefault(phrase[0], []).append(phrase)
    if not by_first:
        return list(tokens)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for phrase in by_first.get(tokens[i], ()):
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                out.append(" ".join(phrase))
                i += len(phrase)
                break
        else:
            out.append(tokens[i])
            i += 1
    return out


LANGS = ("zh", "en")  # what `lang_of` tells apart


def lang_of(text: str) -> str:
    """The language tag of a label or a page's text: zh for Chinese, en for anything else."""
    return "zh" if is_chinese(text) else "en"


def is_chinese(text: str) -> bool:
    """True when Chinese characters make up at least a fifth of the letters."""
    letters = len(_NOT_LETTER.sub("", text))
    return letters > 0 and len(_NOT_CJK.sub("", text)) / letters >= 0.2
