"""`--warc FILE`: what the crawl received, as a gzipped WARC 1.1 file an archive can replay.

The file starts with a `warcinfo` record (the software, the run). Every page the
crawl accepted then gets a `request` record (the GET as sent) and a `response`
record: the real status line (`HTTP/1.1 200 OK`), the headers as received and
the body as received — still gzip-encoded when the server sent it so — written
with warcio (its records pass `warcio check` and `warcio index`; it computes
the block and payload digests). One header is dropped: `Transfer-Encoding`,
because the body is stored with its chunking undone (a reader would otherwise
try to de-chunk it again).

Records are written when the engine folds the outcome in, in the run log's
order, so the size of the file at a checkpoint covers exactly the committed
outcomes; `truncate_to` cuts it back there when a run resumes, so a response is
never archived twice.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

import kgcrawl
from kgcrawl.crawl.exchange import Exchange
from kgcrawl.text.urls import request_target

DROPPED_HEADERS = frozenset({"transfer-encoding"})


def archive_problem(path: Path, run_id: str, offset: int) -> str:
    """Why the file at `path` cannot be run `run_id`'s archive checkpointed at `offset` bytes
    (its warcinfo record names the run it is part of), or "" when it can be."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    size = path.stat().st_size if path.is_file() else None
    if not offset and not size:  # nothing archived yet: the resume starts the file
        return ""
    if size is None:
        return "no such file (moved? put it back to resume)"
    if size < offset:
        return f"shorter than the {offset} bytes the run had archived"
    try:
        with path.open("rb") as archive:
            first = next(iter(ArchiveIterator(archive)), None)
            info = first.content_stream().read() if first and first.rec_type == "warcinfo" else b""
        problem = "" if f"isPartOf: {run_id}\r\n".encode() in info else "another run's WARC"
    except (ArchiveLoadFailed, OSError, EOFError, ValueError) as exc:
        problem = f"not a WARC file ({type(exc).__name__})"
    if problem and not offset:
        problem += "; the run had archived nothing yet: remove it to resume"
    return problem


class WarcArchive:
    """Appends request/response pairs; `offset` is the file size after the last record."""

    def __init__(self, path: Path, truncate_to: int | None = None, run_id: str = "") -> None:
        from warcio.warcwriter import WARCWriter

        self.path = path
        self._file = open(path, "r+b" if path.exists() else "w+b")  # noqa: SIM115 - lives with self
        if truncate_to is not None:
            self._file.truncate(truncate_to)
        self._file.seek(0, io.SEEK_END)
        self._writer = WARCWriter(self._file, gzip=True, warc_version="WARC/1.1")
        self._lock = threading.Lock()
        if self._file.tell() == 0:
            self._write_info(run_id)

    def _write_info(self, run_id: str) -> None:
        info = {"software": f"kgcrawl/{kgcrawl.__version__}", "format": "WARC File Format 1.1"}
        if run_id:
            info["isPartOf"] = run_id
        record = self._writer.create_warcinfo_record(self.path.name, info)
        self._writer.write_record(record)

    def write(self, url: str, exchange: Exchange) -> None:
        """The request for `url` and the response to it, as a pair (WARC-Concurrent-To)."""
        from warcio.statusandheaders import StatusAndHeaders

        target = request_target(url)
        request_headers = StatusAndHeaders(
            f"GET {target} {exchange.http_version}",
            exchange.request_headers,
            is_http_request=True,
        )
        response_headers = StatusAndHeaders(
            exchange.status_line,
            [(k, v) for k, v in exchange.headers if k.lower() not in DROPPED_HEADERS],
            protocol=exchange.http_version,
        )
        writer = self._writer
        request = writer.create_warc_record(
            url, "request", payload=io.BytesIO(b""), http_headers=request_headers
        )
        response = writer.create_warc_record(
            url, "response", payload=io.BytesIO(exchange.body), http_headers=response_headers
        )
        with self._lock:
            writer.write_request_response_pair(request, response)

    @property
    def offset(self) -> int:
        with self._lock:
            self._file.flush()
            return self._file.tell()

    def close(self) -> None:
        self._file.close()
