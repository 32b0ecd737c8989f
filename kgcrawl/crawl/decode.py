"""Bytes → text for HTML pages: header, BOM, <meta charset>, then detection (SPEC §6).

GBK and GB2312 decode as GB18030, their superset: real "GBK" pages use characters
outside GB2312 and strict GB2312 decoding would reject them.

**Interpretation** (detection): a page that declares nothing and is not UTF-8 is,
on the Chinese and English webs kgcrawl crawls, GBK or windows-1252 — the defaults
browsers fall back to in those locales. GB18030 decodes much Latin-1 text without
error, so trying it first turned undeclared Western pages (the norm on a 1997 web)
into Chinese: "España" read "Espa馻", "Müller" "M黮ler", and the page then counted
as Chinese text. GB18030 is now taken only when the bytes look like Chinese
(`gbk_like`); otherwise charset_normalizer chooses between the two, and only then
among all it knows. Measured: the project's 143 Chinese corpus texts and 389
sandbox pages served as undeclared GBK all read as GB18030; Spanish, German,
Portuguese, French, Italian and Swedish sentences and English with accented names,
as undeclared Latin-1, all read as windows-1252 (unrestricted, charset_normalizer
chose cp1250, cp1257 or iso8859-3 for five of them).
"""

from __future__ import annotations

import codecs
import contextlib
import re

from kgcrawl.errors import KgcrawlError

_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
# A double-byte character of GBK; GB2312's (lead A1–F7, trail ≥ A1) hold nearly all
# of modern Chinese, while a Latin-1 letter before an ASCII one falls outside it.
_GBK_PAIR = re.compile(rb"[\x81-\xfe][\x40-\xfe]")
GB2312_SHARE = 0.7  # Chinese text 0.8–1.0 (the test page full of rarer GBK characters
# 0.8), Latin-1 text of six languages 0–0.5 (Portuguese's ção, não: 0.5)
_HEADER = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_SUPERSETS = {
    "gbk": "gb18030",
    "gb2312": "gb18030",
    "x-gbk": "gb18030",
    "gb_2312-80": "gb18030",
    "euc-cn": "gb18030",
    "cp936": "gb18030",
    "iso-8859-1": "cp1252",
    "latin-1": "cp1252",
    "ascii": "cp1252",
    "us-ascii": "cp1252",
}


# Python codecs a response may name that are not character sets of a web page: they
# raise on any input (undefined), transform text (punycode, idna, the escapes), or
# let the page smuggle markup past the parser (utf-7, which WHATWG forbids).
_NOT_PAGE_CHARSETS = frozenset(
    {"undefined", "punycode", "idna", "unicode-escape", "raw-unicode-escape", "utf-7", "mbcs"}
)


class DecodeError(KgcrawlError):
    """No charset we tried turns the bytes into text."""


def _normal(name: str) -> str | None:
    """The codec to decode a declared charset with; None for a name that is no page charset."""
    try:
        info = codecs.lookup(name.strip().lower())
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_PAGE_CHARSETS:
        return None  # base64, zlib, rot13 … are codecs, not charsets
    return _SUPERSETS.get(name.strip().lower(), _SUPERSETS.get(info.name, info.name))


def declared_charsets(body: bytes, content_type: str = "") -> list[str]:
    """The charsets the response names, in SPEC order: header, BOM, <meta>."""
    found = []
    header = _HEADER.search(content_type or "")
    if header:
        found.append(header.group(1))
    found += [name for bom, name in _BOMS if body.startswith(bom)]
    meta = _META.search(body[:4096])
    if meta:
        found.append(meta.group(1).decode("ascii", "replace"))
    return [n for n in (_normal(name) for name in found) if n]


def decode_html(body: bytes, content_type: str = "") -> tuple[str, str]:
    """(text, charset); raises DecodeError when nothing decodes the bytes strictly."""
    candidates = declared_charsets(body, content_type)
    for charset in dict.fromkeys(candidates):
        try:
            return strip_bom(body.decode(charset)), charset
        except (UnicodeError, LookupError):
            continue
    try:
        return strip_bom(body.decode("utf-8")), "utf-8"
    except UnicodeDecodeError:
        return _detected(body, candidates)


def _detected(body: bytes, tried: list[str]) -> tuple[str, str]:
    """A page that is not UTF-8 and declares no charset that decodes it (Interpretation)."""
    if gbk_like(body):
        with contextlib.suppress(UnicodeDecodeError):
            return body.decode("gb18030"), "gb18030"
    from charset_normalizer import from_bytes

    for among in (["gb18030", "cp1252"], None):
        best = from_bytes(body[:200_000], cp_isolation=among).best()
        charset = _normal(best.encoding) if best is not None and best.encoding else None
        if charset:
            with contextlib.suppress(UnicodeError, LookupError):
                return strip_bom(body.decode(charset)), charset
    raise DecodeError(f"cannot decode the page (tried {', '.join(tried) or 'detection'})")


def gbk_like(body: bytes) -> bool:
    """Whether most double-byte characters of these bytes lie in GB2312, as Chinese text's do.

    >>> gbk_like("暴雨 Beijing 北京".encode("gbk")), gbk_like("España, Müller".encode("latin-1"))
    (True, False)
    """
    pairs = _GBK_PAIR.findall(body)
    common = sum(1 for lead, trail in pairs if 0xA1 <= lead <= 0xF7 and trail >= 0xA1)
    return bool(pairs) and common >= GB2312_SHARE * len(pairs)


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text
