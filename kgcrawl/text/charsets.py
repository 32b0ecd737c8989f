"""Bytes that are not UTF-8 and say nothing of their charset: which legacy code page?

Both a corpus file and a crawled page that declares no charset end here. On the
Chinese and English webs kgcrawl reads, such bytes are mostly GBK or Windows-1252,
the defaults browsers fall back to in those locales. GB18030 (GBK's superset) also
"decodes" much Windows-1252 text, into nonsense Han characters ("España" reads
"Espa馻", "Zürich" "Z黵ich"), so it is taken only when the result reads as Chinese:
most of its CJK characters stand next to another, where a wrong code page scatters
them one by one among Latin letters.

Measured on the seven Latin-1 sentences of tests/crawl/test_decode.py (Spanish,
German, Portuguese, French, English with accented names, Italian, Swedish): the
crawl's decoder, which tried GB18030 first, read four of them as Chinese and two as
cp1250; charset_normalizer alone chose cp1250 for six. This order reads all seven
as Windows-1252, and the project's 143 Chinese corpus texts and 389 sandbox pages
served as undeclared GBK all as GB18030, as before.
"""

from __future__ import annotations

import codecs
import contextlib
import re

# The encoding each byte-order mark names. UTF-32's little-endian mark begins with
# UTF-16's, so it is looked for first.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def bom_encoding(raw: bytes) -> str | None:
    """The encoding a byte-order mark at the start of `raw` names (the mark stays in the
    text it decodes to), or None: for a crawled page and a corpus file alike.

    >>> bom_encoding(b"\\xff\\xfeh\\x00"), bom_encoding(b"\\xff\\xfe\\x00\\x00h\\x00\\x00\\x00")
    ('utf-16-le', 'utf-32-le')
    >>> bom_encoding(b"<html>") is None
    True
    """
    return next((name for bom, name in _BOMS if raw.startswith(bom)), None)


# Below this share of non-ASCII bytes, bytes that are neither UTF-8 nor Chinese are read
# as Windows-1252 without asking charset_normalizer, which guesses Cyrillic or Japanese
# code pages for short Western texts ("café" in 8 bytes → "cafщ"). Greek or Russian text
# in a single-byte code page is 60–80 % non-ASCII bytes.
WESTERN_HIGH_SHARE = 0.3
_HIGH_BYTES = bytes(range(0x80, 0x100))
_WIDE_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_WIDE = re.compile(f"[{_WIDE_CHARS}]")  # Han, kana, Hangul: what a wrong code page makes
_WIDE_RUN = re.compile(f"[{_WIDE_CHARS}]{{2,}}")
DETECT_BYTES = 200_000  # charset_normalizer reads this much of a long text


def legacy_decode(raw: bytes) -> tuple[str, str] | None:
    """(text, codec) of bytes that are not UTF-8: GB18030 when it reads as Chinese, else
    the code page charset_normalizer finds, else Windows-1252; None when none fits.

    >>> legacy_decode("España".encode("latin-1")), legacy_decode("北京 travel".encode("gbk"))
    (('España', 'cp1252'), ('北京 travel', 'gb18030'))
    """
    with contextlib.suppress(UnicodeDecodeError):
        text = raw.decode("gb18030")
        if wide_in_runs(text):
            return text, "gb18030"
    high = len(raw) - len(raw.translate(None, _HIGH_BYTES))
    if high < WESTERN_HIGH_SHARE * len(raw):
        with contextlib.suppress(UnicodeDecodeError):  # mostly ASCII, a few accents: Western
            return raw.decode("cp1252"), "cp1252"
    import charset_normalizer

    best = charset_normalizer.from_bytes(raw[:DETECT_BYTES]).best()
    guess = None
    # utf_16/32 without NUL bytes, or stray CJK characters, is a wrong guess.
    if best is not None and best.encoding and not best.encoding.startswith("utf_"):
        with contextlib.suppress(UnicodeError, LookupError):
            guess = raw.decode(best.encoding), best.encoding
    if guess is not None and (not _WIDE.search(guess[0]) or wide_in_runs(guess[0])):
        return guess
    with contextlib.suppress(UnicodeDecodeError):
        return raw.decode("cp1252"), "cp1252"
    return guess


def wide_in_runs(text: str) -> bool:
    """True when there are CJK characters and at least half of them stand next to another."""
    wide = len(_WIDE.findall(text))
    return wide > 0 and sum(len(run) for run in _WIDE_RUN.findall(text)) * 2 >= wide
