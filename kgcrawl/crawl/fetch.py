"""Polite HTTP for the crawler (SPEC §6): robots, per-host pauses, limits, decoding.

Every failure comes back as a FetchResult with a `reason` (dns, timeout, reset,
no response, bad status line, bad header, truncated body, bad encoding, tls,
http 404, robots, robots unreachable, too large, not html, decode, refused
address, redirect loop, too many redirects, bad url, stopped); nothing here
raises, whatever the server sends, so no single page, host or response can stop
a crawl.

Turn 2 (SPEC §6): each exchange connects to the address that was checked and has
a wall-clock deadline (crawl/transport.py); `stop` (the crawl's SIGINT/SIGTERM
flag) cuts every exchange and pause at once, and the fetch ends `stopped` — the
engine does not record it. 429 and 503 honour `Retry-After` up to `max_wait`
seconds (the host is paused that long, then the URL is asked again, within
`retries`); robots `Crawl-delay` is capped at `max_wait` too.
"""

from __future__ import annotations

import email.utils
import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from kgcrawl.config import Fetch
from kgcrawl.crawl.addresses import Mapping, Pin, RefusedAddress, checked_address, mapped
from kgcrawl.crawl.decode import DecodeError, decode_html, strip_bom
from kgcrawl.crawl.exchange import BodyDecoder, Exchange
from kgcrawl.crawl.outcome import ROBOTS_DOWN
from kgcrawl.crawl.politeness import HostGate
from kgcrawl.crawl.robots import RobotsCache
from kgcrawl.stop_flag import StopFlag
from kgcrawl.text.urls import host_of, link_url

if TYPE_CHECKING:
    import requests

    from kgcrawl.crawl import transport

HTML_TYPES = ("text/html", "application/xhtml+xml")
REDIRECTS = (301, 302, 303, 307, 308)
RETRY_BACKOFF = 0.25  # seconds, doubled per retry
RETRIED = ("timeout", "reset", "no response")  # transient failures worth another attempt
STALE = ("reset", "no response")  # how a pooled connection the server had closed fails
STOPPED = "stopped"  # the crawl was asked to stop during the fetch: not an outcome
REFUSED = "refused address"  # a private or loopback address that no --resolve maps
DNS = "dns"  # the host name did not resolve
HTTP_VERSIONS = {9: "HTTP/0.9", 10: "HTTP/1.0", 11: "HTTP/1.1", 20: "HTTP/2"}  # urllib3's numbers

log = logging.getLogger("kgcrawl.crawl")


@dataclass
class FetchResult:
    """What one fetch produced: a decoded HTML page, or the reason it did not."""

    url: str
    final_url: str
    status: int | None = None
    reason: str | None = None
    content: bytes = b""
    text: str = ""
    charset: str = ""
    content_type: str = ""
    redirects: tuple[str, ...] = ()
    seconds: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    exchange: Exchange | None = None  # the accepted response as received, for the WARC

    @property
    def ok(self) -> bool:
        return self.reason is None

    def __getstate__(self) -> dict:
        """Pickled (to an analyser process) without `text`: the bytes and charset rebuild it
        (nor the raw exchange, which only the crawl's WARC needs).

        Sending the page twice, as bytes and as text, cost 4–6 % of a crawl's CPU.
        """
        state = dict(self.__dict__)
        if state["charset"] and state["text"]:
            state["text"] = None
        state["exchange"] = None  # the raw answer stays with the crawl (for its WARC)
        return state

    def __setstate__(self, state: dict) -> None:
        if state["text"] is None:  # decode_html decoded these bytes strictly with this charset
            state["text"] = strip_bom(state["content"].decode(state["charset"]))
        self.__dict__.update(state)


class _Failure(Exception):
    """Internal: ends a fetch with a reason; `final` when another attempt would not help."""

    def __init__(self, reason: str, status: int | None = None, final: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.final = final


class _Stale(_Failure):
    """Internal: the request went out on a pooled keep-alive connection that the server
    closed without a byte (its idle timeout fired as the request came, `Fetcher._gated`)."""


@dataclass
class _Response:
    status: int
    headers: dict[str, str]
    body: bytes
    exchange: Exchange | None = None


class Fetcher:
    """Thread-safe: one requests session per thread, one request in flight per host."""

    def __init__(
        self,
        settings: Fetch,
        mappings: tuple[Mapping, ...] = (),
        gate: HostGate | None = None,
        stop: StopFlag | None = None,
    ) -> None:
        from kgcrawl.crawl.transport import Watchdog

        self.settings = settings
        self.mappings = mappings
        self.stop = stop or StopFlag()
        self.gate = gate or HostGate(sleep=self.stop.wait)
        self.robots = RobotsCache(self._load_robots, retry_after=settings.robots_retry)
        self.watchdog = Watchdog(self.stop)
        self._local = threading.local()

    def fetch(self, url: str) -> FetchResult:
        """GET an HTML page, following and checking up to `max_redirects` redirects."""
        start = time.perf_counter()
        result = FetchResult(url=url, final_url=url)
        current, hops = url, [url]
        try:
            for _ in range(self.settings.max_redirects + 1):
                response = self._get_allowed(current)
                result.status = response.status
                location = response.headers.get("location")
                if response.status in REDIRECTS and location:
                    target = link_url(location, current)
                    if target is None:
                        raise _Failure("bad redirect", response.status)
                    if target in hops:
                        raise _Failure("redirect loop", response.status)
                    hops.append(target)
                    current = target
                    continue
                self._accept(response, result)
                break
            else:
                raise _Failure("too many redirects", result.status)
        except _Failure as failure:
            result.reason = failure.reason
            result.status = failure.status if failure.status is not None else result.status
        except Exception as exc:  # the last guard: no response may raise out of a fetch
            log.debug("fetch of %s raised", current, exc_info=True)
            result.reason = f"error: {type(exc).__name__}"
        result.final_url = current
        result.redirects = tuple(hops[1:])
        result.seconds = time.perf_counter() - start
        return result

    def _accept(self, response: _Response, result: FetchResult) -> None:
        if response.status >= 400:
            raise _Failure(f"http {response.status}", response.status)
        content_type = response.headers.get("content-type", "")
        result.content_type = content_type
        result.headers = response.headers
        result.content = response.body
        result.exchange = response.exchange
        try:
            result.text, result.charset = decode_html(response.body, content_type)
        except DecodeError:
            raise _Failure("decode", response.status) from None

    def _get_allowed(self, url: str) -> _Response:
        """One request after the address and robots checks, with retries."""
        try:
            parts = urlsplit(url)
            _ = parts.port  # raises ValueError for a port out of range
        except ValueError:
            raise _Failure("bad url") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise _Failure("bad url")
        host = host_of(url)
        pin = self._target(url)
        rules = self.robots.rules(f"{parts.scheme}://{parts.netloc}")
        self._check_stop()  # a robots.txt cut by the stop is no "disallowed"
        if not rules.allowed(url, self.settings.user_agent):
            raise _Failure(ROBOTS_DOWN if rules.unreachable else "robots")
        crawl_delay = min(rules.crawl_delay(self.settings.user_agent), self.settings.max_wait)
        delay = max(self.settings.delay, crawl_delay)
        for attempt in range(self.settings.retries + 1):
            last = attempt == self.settings.retries
            try:
                response = self._gated(host, delay, url, pin, page=True)
            except _Failure as failure:
                if failure.final or failure.reason not in RETRIED or last:
                    raise
            else:
                if (response.status != 429 and response.status < 500) or last:
                    return response
                pause = retry_after(response.headers.get("retry-after", ""))
                if pause is not None:  # the host asked for a pause: every worker keeps it
                    self.gate.defer(host, min(pause, self.settings.max_wait))
                    if pause > self.settings.max_wait:
                        return response  # longer than we wait: fail now, ask again later
                    continue
            self.stop.wait(RETRY_BACKOFF * 2**attempt)
        raise AssertionError("the retry loop always returns or raises")

    def _gated(self, host: str, delay: float, url: str, pin: Pin, page: bool) -> _Response:
        """One exchange with `host`, through its gate.

        A request that went out on a pooled connection the server had closed (`_Stale`)
        is sent once more on a new one: a race of the connection, not an attempt that
        failed, so it costs no retry and no backoff. But the server may have seen it (a
        reset can also be its answer to the page), so the host's pause comes first:
        resent at once, a page that resets got two requests 3 ms apart (a Ray crawl's
        politeness test, in CI).
        """
        for resend in (False, True):
            try:
                with self.gate.request(host, delay):
                    self._check_stop()
                    return self._request(url, pin, page)
            except _Stale:
                if resend:
                    raise
        raise AssertionError("the second exchange returns or raises")

    def _check_stop(self) -> None:
        if self.stop.is_set():
            raise _Failure(STOPPED)

    def _target(self, url: str) -> Pin:
        """Where the request goes: a --resolve address, or the name's checked public address."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        mapping = mapped(host, self.mappings)
        if mapping is not None:
            return Pin(mapping.address, mapping.port, "http")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            return Pin(checked_address(host, port), port, parts.scheme)
        except RefusedAddress:
            raise _Failure(REFUSED) from None
        except (OSError, UnicodeError):
            raise _Failure(DNS) from None

    def _load_robots(self, robots_url: str) -> tuple[int, bytes]:
        """RobotsCache's loader: (status, body); OSError for timeouts and resets."""
        host = host_of(robots_url)
        try:
            pin = self._target(robots_url)
            response = self._gated(host, self.settings.delay, robots_url, pin, page=False)
        except _Failure as failure:
            raise OSError(failure.reason) from None
        return response.status, response.body

    def _session(self):
        session = getattr(self._local, "session", None)
        if session is None:
            import requests

            from kgcrawl.crawl.transport import PinnedAdapter

            session = requests.Session()
            session.headers["User-Agent"] = self.settings.user_agent
            session.headers["Accept"] = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
            session.trust_env = False
            adapter = PinnedAdapter()
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._local.session, self._local.adapter = session, adapter
        return session

    def _request(self, url: str, pin: Pin, page: bool) -> _Response:
        """One GET to `pin`, no redirects, within the wall-clock deadline; body cut at `max_bytes`.

        Interpretation (SPEC §6 turn 2): the deadline of one exchange is connect_timeout +
        read_timeout (25 s by default), the bound the old per-chunk check meant; the timeouts
        still bound each connect and each read inside it.
        """
        import requests
        import urllib3

        settings = self.settings
        session = self._session()
        self._local.adapter.pin = pin
        netloc = urlsplit(url).netloc.rpartition("@")[2]
        seconds = settings.connect_timeout + settings.read_timeout
        with self.watchdog.exchange(seconds) as exchange:
            try:
                response = self._send(session, url, netloc, exchange)
            except ValueError:  # requests parses a 3xx's Location even without redirects
                raise _Failure("bad redirect") from None
            with response:
                status = response.status_code
                headers = {k.lower(): v for k, v in response.headers.items()}
                if page and status < 300:
                    kind = headers.get("content-type", "text/html").split(";")[0].strip().lower()
                    if kind not in HTML_TYPES:
                        raise _Failure("not html", status)
                    declared = headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > settings.max_bytes:
                        raise _Failure("too large", status)
                try:  # the body as received, for the archive; decoded here (crawl/exchange.py)
                    decoder = BodyDecoder(headers.get("content-encoding", ""))
                except ValueError:
                    raise _Failure("decode", status) from None
                chunks, received, size = [], [], 0
                try:
                    for piece in response.raw.stream(65536, decode_content=False):
                        received.append(piece)
                        chunk = decoder.feed(piece, settings.max_bytes - size + 1)
                        size += len(chunk)
                        if size > settings.max_bytes:
                            raise _Failure("too large", status)
                        chunks.append(chunk)
                except ValueError:
                    raise _Failure("decode", status) from None
                except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
                    raise _cut_or(exchange.cut, failure_reason(exc), status) from None
                archived = Exchange(
                    request_headers=list(response.request.headers.items()),
                    http_version=HTTP_VERSIONS.get(response.raw.version, "HTTP/1.1"),
                    status=status,
                    reason=response.reason or "",
                    headers=list(response.raw.headers.items()),
                    body=b"".join(received),
                )
            if exchange.cut:  # cut while the body was read to the connection's end
                raise _cut_or(exchange.cut, "", status)
        return _Response(status, headers, b"".join(chunks), archived)

    def _send(
        self, session: requests.Session, url: str, netloc: str, exchange: transport.Exchange
    ) -> requests.Response:
        """The GET; `_Stale` when it went out on a pooled keep-alive connection that the
        server closed without a byte."""
        import requests

        timeout = (self.settings.connect_timeout, self.settings.read_timeout)
        try:
            return session.get(url, headers={"Host": netloc}, allow_redirects=False,
                               stream=True, timeout=timeout)  # fmt: skip
        except requests.RequestException as exc:
            reason = failure_reason(exc)
            if not exchange.cut and not exchange.opened and reason in STALE:
                raise _Stale(reason) from None
            raise _cut_or(exchange.cut, reason) from None


def _cut_or(cut: str | None, reason: str, status: int | None = None) -> _Failure:
    """An exchange the watchdog cut failed for that (not retried: a drip is no glitch)."""
    return _Failure(cut, status, final=True) if cut else _Failure(reason, status)


def retry_after(value: str) -> float | None:
    """Seconds a `Retry-After` header asks for (delta-seconds or an HTTP date); None if unusable."""
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def failure_reason(exc: BaseException) -> str:
    """The precise reason of a failed exchange, from the exception chain requests raised."""
    import http.client
    import ssl

    import requests
    import urllib3.exceptions as u3

    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(chain) < 20:
        chain.append(seen)
        chain += [arg for arg in seen.args if isinstance(arg, BaseException)]
        seen = seen.__cause__ or seen.__context__
    kinds: list[tuple[tuple[type, ...], str]] = [
        ((u3.ReadTimeoutError, u3.ConnectTimeoutError, TimeoutError, socket.timeout), "timeout"),
        ((u3.NameResolutionError, socket.gaierror), DNS),
        ((http.client.RemoteDisconnected,), "no response"),
        ((http.client.BadStatusLine,), "bad status line"),
        ((http.client.LineTooLong, requests.exceptions.InvalidHeader), "bad header"),
        ((u3.InvalidChunkLength, http.client.IncompleteRead, u3.IncompleteRead), "truncated body"),
        ((u3.DecodeError, requests.exceptions.ContentDecodingError), "bad encoding"),
        ((ssl.SSLError, u3.SSLError), "tls"),
        ((ConnectionRefusedError,), "connection refused"),
        ((ConnectionResetError, BrokenPipeError), "reset"),
        ((u3.LocationParseError, requests.exceptions.InvalidURL, UnicodeError), "bad url"),
        ((http.client.HTTPException, u3.ProtocolError), "bad response"),
    ]
    for types, reason in kinds:
        if any(isinstance(e, types) for e in chain):
            if reason == "bad header" and "content-length" in str(exc).lower():
                return "bad content-length"  # e.g. two that disagree (request smuggling)
            return reason
    return "reset" if isinstance(exc, requests.ConnectionError) else "bad response"
