"""`--warc FILE`: every response of the crawl as a gzipped WARC response record (warcio).

The file only grows between checkpoints; `truncate(offset)` cuts it back to the
size it had at the last checkpoint when a run resumes, so a response is never
archived twice.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path


class WarcArchive:
    """Appends response records; `offset` is the file size after the last record."""

    def __init__(self, path: Path, truncate_to: int | None = None) -> None:
        from warcio.warcwriter import WARCWriter

        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "r+b" if path.exists() else "w+b")  # noqa: SIM115 - lives with self
        if truncate_to is not None:
            self._file.truncate(truncate_to)
        self._file.seek(0, io.SEEK_END)
        self._writer = WARCWriter(self._file, gzip=True)
        self._lock = threading.Lock()  # fetch workers write concurrently

    def write(self, url: str, status: int, headers: dict[str, str], body: bytes) -> None:
        from warcio.statusandheaders import StatusAndHeaders

        http_headers = StatusAndHeaders(
            f"{status} -", [(k.title(), v) for k, v in headers.items()], protocol="HTTP/1.1"
        )
        record = self._writer.create_warc_record(
            url, "response", payload=io.BytesIO(body), http_headers=http_headers
        )
        with self._lock:
            self._writer.write_record(record)

    @property
    def offset(self) -> int:
        with self._lock:
            self._file.flush()
            return self._file.tell()

    def close(self) -> None:
        self._file.close()
