"""The hazards of the sandbox web and the URLs where a crawler meets them.

A host carries some hazards as flags (`Host.hazards`); `World.hazard_urls(h)`
returns example URLs of each. Paths below are on the flagged host; `<k>` is an
article's index in its channel, `<aid>` its public id.

- calendar — `/calendar/YYYY-MM.html`, `/calendar/YYYY-MM-DD.html`: endless trap;
  every month and day of years 1–9999 exists and links to its neighbours.
- session-id — every internal link of the host carries `;jsessionid=<16 hex>` (path
  styles) or `sid=<16 hex>` (query styles), new on every page; any id is accepted and
  shows the same page (truth: canonical URL without the id, a near duplicate).
- deep-path — `/doc/` + any run of `api/ guide/ ref/ v2/ docs/`: ever-deeper trap;
  each page links relatively to `<seg>/` and `../`.
- mirror — a host of kind mirror: every path answers its source's page byte for byte.
- near-mirror — a mirror that adds a notice to every page (near duplicate).
- robots — `/robots.txt` has `Disallow: /member/` for all agents (pages
  `/member/<k>.html` exist and are linked) and `Disallow: /print/` for `kgcrawl` only
  (`/print/<aid>.html`, printer copies of articles, linked from them).
- crawl-delay — `/robots.txt` has `Crawl-delay: 2` (`crawl_delay`, a server option).
- robots-error — `/robots.txt` answers 503.
- slow — every path answers after `slow_delay` seconds (server option).
- stall — `/live/<n>.html` on slow hosts sends its headers and 1 KB, then stalls
  `hang_seconds` (server option) before the rest.
- server-error — articles with k % 9 in (4, 7) answer 500 or 502, always.
- transient-error — other articles with k % 5 == 2 on the same hosts answer 503 with
  `Retry-After: 1` the first time a URL is asked for, 200 afterwards.
- reset — articles with k % 6 == 1: the connection is closed with a TCP reset.
- redirect — `/jump/<n>/<path>` → 302 `/jump/<n-1>/<path>`, `/jump/0/<path>` → 301
  `/<path>`; articles link through chains of 1–3 hops.
- redirect-long — `/jump/7/<path>`: 7 hops, more than a crawler's 5; about 1 article
  in 8 links one.
- redirect-loop — `/loop/<i>.html` → 302 `/loop/<1-i>.html`, endless; footers link one.
- moved — a host of kind moved: every path → 301 to the same path on its new host.
- down — a whole host: every request, robots.txt included, → 503.
- oversized — `/export/<n>.html`: a 6 MB HTML table; even n with `Content-Length`,
  odd n streamed without it (connection close).
- gbk — pages in GBK, `charset=GBK` in the header and in `<meta charset>`.
- gbk-meta — pages in GBK declared only by `<meta http-equiv … charset=gb2312>`.
- gbk-bare — pages in GBK declared nowhere.
- malformed — unclosed and misnested tags, unquoted attributes, bare `&` and `<`,
  stray end tags, no `</body></html>`; a link inside a comment and one written by a
  script (neither is a real link).
- not-found — any unknown path; about 1 article in 30 links a missing article.
- pdf — `/files/<n>.pdf` (`application/pdf`); gov hosts attach them to articles.
- image — `/images/<n>.png` (`image/png`); pages embed them and link some.

The server ignores the URL scheme: an `https://` seed's host is served like any
other, and the crawler's `--resolve` map sends it plain HTTP to the sandbox.
"""

from __future__ import annotations

import struct
import zlib
from enum import StrEnum


class Hazard(StrEnum):
    """A hazard a crawler must survive; see the module table for URLs and behaviour."""

    CALENDAR = "calendar"
    SESSION_ID = "session-id"
    DEEP_PATH = "deep-path"
    MIRROR = "mirror"
    NEAR_MIRROR = "near-mirror"
    ROBOTS = "robots"
    CRAWL_DELAY = "crawl-delay"
    ROBOTS_ERROR = "robots-error"
    SLOW = "slow"
    STALL = "stall"
    SERVER_ERROR = "server-error"
    TRANSIENT_ERROR = "transient-error"
    RESET = "reset"
    REDIRECT = "redirect"
    REDIRECT_LONG = "redirect-long"
    REDIRECT_LOOP = "redirect-loop"
    MOVED = "moved"
    DOWN = "down"
    OVERSIZED = "oversized"
    GBK = "gbk"
    GBK_META = "gbk-meta"
    GBK_BARE = "gbk-bare"
    MALFORMED = "malformed"
    NOT_FOUND = "not-found"
    PDF = "pdf"
    IMAGE = "image"


GBK_HAZARDS = frozenset({Hazard.GBK, Hazard.GBK_META, Hazard.GBK_BARE})
CRAWL_DELAY_SECONDS = 2
OVERSIZED_BYTES = 6_000_000
LIVE_HEAD_BYTES = 1024
DEEP_SEGMENTS = ("api", "guide", "ref", "v2", "docs")
LONG_CHAIN = 7  # redirect hops past a polite crawler's limit of 5
CALENDAR_START = "2024-06"  # the month a calendar trap is entered at


def server_fault(k: int) -> Hazard | None:
    """What article k of a server-error host suffers: a permanent or a transient error."""
    if k % 9 in (4, 7):
        return Hazard.SERVER_ERROR
    if k % 5 == 2:
        return Hazard.TRANSIENT_ERROR
    return None


def error_status(k: int) -> int:
    """Status of a permanently failing article k."""
    return 500 if k % 9 == 4 else 502


def resets(k: int) -> bool:
    """Whether article k on a reset host drops the connection."""
    return k % 6 == 1


def pdf_document(text: str) -> bytes:
    """A small valid one-page PDF whose content stream shows `text` (ASCII-escaped)."""
    safe = (
        text.encode("ascii", "backslashreplace").decode("ascii").replace("(", "").replace(")", "")
    )
    content = f"BT /F1 12 Tf 72 720 Td ({safe}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def png_image(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A valid PNG of one colour."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )
