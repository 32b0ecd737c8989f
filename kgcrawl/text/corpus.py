"""Read a corpus folder into documents (SPEC §3.1.1).

A corpus is a folder (searched recursively, in sorted order so runs repeat) of
`.txt`, `.md`, `.html`/`.htm` (main text via trafilatura) and `.jsonl` files
(`{"id": ..., "text": ...}` per line). Text is UTF-8 (or UTF-16/32 with a byte-order
mark), else GB18030 when it reads as Chinese, else whatever charset_normalizer finds
(Windows-1252 and the other legacy code pages of old English files). Old HTML still yields its
text: a comment closed by `>` alone (`<!-- x >`, which Netscape-era browsers
ended there) would hide the rest of the page from a modern parser, so it is
closed where the old browsers closed it, and a page trafilatura finds no main
text in gives all its visible text. One bad file must not cost the user the
whole corpus, so unreadable, undecodable or empty files and bad JSONL lines are
skipped and named in `Corpus.skipped`; a corpus with no document at all is an
error, because nothing downstream can work from it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kgcrawl.errors import KgcrawlError
from kgcrawl.text.charsets import bom_encoding, legacy_decode
from kgcrawl.text.tokenize import is_chinese

TEXT_SUFFIXES = (".txt", ".md")
HTML_SUFFIXES = (".html", ".htm")
JSONL_SUFFIXES = (".jsonl",)
SUFFIXES = TEXT_SUFFIXES + HTML_SUFFIXES + JSONL_SUFFIXES


class CorpusError(KgcrawlError):
    """The corpus is missing or holds no readable document."""


@dataclass(frozen=True)
class Document:
    """One text of the corpus; `id` is unique (the relative path, `#id` for JSONL lines)."""

    id: str
    text: str
    lang: str  # "zh" when Chinese (tokenize.is_chinese), else "other"


@dataclass(frozen=True)
class Skipped:
    """A file (or JSONL line) left out, and why."""

    name: str
    reason: str


@dataclass
class Corpus:
    """The documents read, in path order, and what was skipped."""

    root: Path
    documents: list[Document] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.documents)


def read_corpus(path: str | Path, progress: Callable[[int, int], None] | None = None) -> Corpus:
    """Every document under `path` (a folder, or a single corpus file).

    `progress(done, total)` is called after each file. Raises CorpusError when
    the path does not exist or no document could be read.
    """
    root = Path(path)
    if not root.exists():
        raise CorpusError(f"{root}: no such corpus folder")
    if root.is_dir():
        files = sorted(p for p in root.rglob("*") if not p.is_dir() and not _hidden(p, root))
    else:
        files, root = [root], root.parent
    corpus = Corpus(root=root)
    seen: set[str] = set()
    for done, file in enumerate(files, start=1):
        name = file.relative_to(root).as_posix()
        suffix = file.suffix.lower()
        if suffix not in SUFFIXES:
            corpus.skipped.append(Skipped(name, f"not a corpus file type ({suffix or 'none'})"))
        else:
            try:
                raw = file.read_bytes()
            except OSError as exc:
                corpus.skipped.append(Skipped(name, f"unreadable ({exc.strerror or exc})"))
            else:
                if suffix in JSONL_SUFFIXES:
                    _add_jsonl(corpus, name, raw, seen)
                else:
                    _add(corpus, name, _file_text(name, suffix, raw, corpus), seen)
        if progress is not None:
            progress(done, len(files))
    if not corpus.documents:
        what = "no files" if not files else f"no readable document in {len(files)} file(s)"
        raise CorpusError(f"{path}: empty corpus ({what})")
    return corpus


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def _file_text(name: str, suffix: str, raw: bytes, corpus: Corpus) -> str | None:
    """The text of a .txt/.md/.html file, or None (recorded in `corpus.skipped`)."""
    if suffix in HTML_SUFFIXES:
        return _html_text(raw)
    text = decode(raw)
    if text is None:
        corpus.skipped.append(Skipped(name, UNDECODABLE))
    return text


UNDECODABLE = "undecodable (binary, or no text encoding fits)"
_COMMENT_OPEN = re.compile(rb"<!--")


def decode(raw: bytes) -> str | None:
    """UTF-16 or UTF-32 with a BOM (what Windows Notepad saves as "Unicode"), UTF-8 (BOM
    allowed), else the legacy code page `text.charsets` finds (Chinese GB18030 only when
    it reads as Chinese); None for binary data (NUL bytes) or when nothing fits.
    """
    wide = bom_encoding(raw)
    if wide is not None and wide != "utf-8":
        try:
            return raw.decode(wide).removeprefix("\ufeff")
        except UnicodeDecodeError:
            return None
    if b"\x00" in raw:
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        decoded = legacy_decode(raw)
    return decoded[0] if decoded else None


def close_old_comments(raw: bytes) -> bytes:
    """End each `<!--` that has no `-->` before the next `<!--` (or the end) at its first `>`."""
    if b"<!--" not in raw:
        return raw
    out: list[bytes] = []
    pos = 0
    for match in _COMMENT_OPEN.finditer(raw):
        start = match.start()
        if start < pos:
            continue
        close = raw.find(b"-->", start + 4)
        following = raw.find(b"<!--", start + 4)
        if close != -1 and (following == -1 or close < following):
            out.append(raw[pos : close + 3])
            pos = close + 3
            continue
        gt = raw.find(b">", start + 4)
        if gt == -1:
            break
        out.append(raw[pos:gt] + b"-->")
        pos = gt + 1
    out.append(raw[pos:])
    return b"".join(out)


def _html_text(raw: bytes) -> str:
    """Main text via trafilatura; all visible text when it finds no main part (short pages)."""
    import trafilatura

    raw = close_old_comments(raw)
    return trafilatura.extract(raw) or trafilatura.html2txt(raw) or ""


def _add_jsonl(corpus: Corpus, name: str, raw: bytes, seen: set[str]) -> None:
    text = decode(raw)
    if text is None:
        corpus.skipped.append(Skipped(name, UNDECODABLE))
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            corpus.skipped.append(Skipped(where, f"not JSON ({exc.msg})"))
            continue
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            corpus.skipped.append(Skipped(where, 'expected {"id": ..., "text": "..."}'))
            continue
        doc_id = record.get("id", number)
        _add(corpus, f"{name}#{doc_id}", record["text"], seen, where)


def _add(
    corpus: Corpus, doc_id: str, text: str | None, seen: set[str], where: str | None = None
) -> None:
    if text is None:
        return
    if not text.strip():
        corpus.skipped.append(Skipped(where or doc_id, "no text"))
    elif doc_id in seen:
        corpus.skipped.append(Skipped(where or doc_id, f"duplicate id {doc_id}"))
    else:
        seen.add(doc_id)
        corpus.documents.append(Document(doc_id, text, "zh" if is_chinese(text) else "other"))
