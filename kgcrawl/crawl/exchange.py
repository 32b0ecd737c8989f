"""One HTTP exchange as it went over the wire, for the WARC archive, and the body decoding.

The fetcher reads the body as received (`decode_content=False`) so that the
archive holds the bytes the server sent under the headers it sent them with; it
undoes the Content-Encoding itself with urllib3's decoders, at most `limit` bytes
per call, so a compression bomb is cut at `max_bytes` after decompression as
before (SPEC §6) and never inflated whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Exchange:
    """The request sent and the response received for one fetch (the last hop)."""

    request_headers: list[tuple[str, str]]
    http_version: str  # "HTTP/1.1"
    status: int
    reason: str  # "OK"
    headers: list[tuple[str, str]] = field(default_factory=list)  # as received, repeats kept
    body: bytes = b""  # as received: still content-encoded, transfer coding undone

    @property
    def status_line(self) -> str:
        return f"{self.status} {self.reason}".strip()


class BodyDecoder:
    """Undoes a Content-Encoding chunk by chunk; ValueError for one it does not know."""

    def __init__(self, content_encoding: str) -> None:
        from urllib3.response import HTTPResponse, MultiDecoder

        modes = [m.strip() for m in content_encoding.lower().split(",") if m.strip()]
        modes = [m for m in modes if m != "identity"]
        unknown = [m for m in modes if m not in HTTPResponse.CONTENT_DECODERS]
        if unknown:
            raise ValueError(f"unknown content encoding {unknown[0]!r}")
        self._decoder = MultiDecoder(",".join(modes)) if modes else None

    def feed(self, data: bytes, limit: int) -> bytes:
        """The decoded bytes of `data` (b"" to drain what is buffered), at most `limit` of them."""
        if self._decoder is None:
            return data
        try:
            return self._decoder.decompress(data, max_length=max(limit, 1))
        except Exception as exc:  # zlib.error, brotli.error, zstd errors: all "bad data"
            raise ValueError(f"bad compressed data ({type(exc).__name__})") from None
