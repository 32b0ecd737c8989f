"""Bytes → text for HTML pages: header, BOM, <meta charset>, then detection (SPEC §6).

GBK and GB2312 decode as GB18030, their superset: real "GBK" pages use characters
outside GB2312 and strict GB2312 decoding would reject them.

A page that declares no charset (or none that fits) and is not UTF-8 is read as
`text.charsets` reads a corpus file: GB18030 only when it reads as Chinese.
"""

from __future__ import annotations

import codecs
import re

from kgcrawl.errors import KgcrawlError
from kgcrawl.text.charsets import bom_encoding, legacy_decode

_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEADER = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
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
    if bom := bom_encoding(body):
        found.append(bom)
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
        decoded = legacy_decode(body)
    if decoded is None:
        raise DecodeError(f"cannot decode the page (tried {', '.join(candidates) or 'detection'})")
    return decoded


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text
