"""Polite HTTP for the crawler (SPEC §6): robots, per-host pauses, limits, decoding.

Every failure comes back as a FetchResult with a `reason` (dns, timeout, reset,
http 404, robots, too large, not html, decode, refused address, redirect loop,
too many redirects, bad url); nothing here raises for a bad page, so no single
page, host or response can stop a crawl.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit

from kgcrawl.config import Fetch
from kgcrawl.crawl.addresses import Mapping, mapped, refused_address
from kgcrawl.crawl.decode import DecodeError, decode_html, strip_bom
from kgcrawl.crawl.politeness import HostGate
from kgcrawl.crawl.robots import RobotsCache
from kgcrawl.text.urls import canonical_url, host_of

HTML_TYPES = ("text/html", "application/xhtml+xml")
REDIRECTS = (301, 302, 303, 307, 308)
RETRY_BACKOFF = 0.25  # seconds, doubled per retry


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

    @property
    def ok(self) -> bool:
        return self.reason is None

    def __getstate__(self) -> dict:
        """Pickled (to an analyser process) without `text`: the bytes and charset rebuild it.

        Sending the page twice, as bytes and as text, cost 4–6 % of a crawl's CPU.
        """
        state = dict(self.__dict__)
        if state["charset"] and state["text"]:
            state["text"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        if state["text"] is None:  # decode_html decoded these bytes strictly with this charset
            state["text"] = strip_bom(state["content"].decode(state["charset"]))
        self.__dict__.update(state)


class _Failure(Exception):
    """Internal: ends a fetch with a reason."""

    def __init__(self, reason: str, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass
class _Response:
    status: int
    headers: dict[str, str]
    body: bytes


class Fetcher:
    """Thread-safe: one requests session per thread, one request in flight per host."""

    def __init__(
        self,
        settings: Fetch,
        mappings: tuple[Mapping, ...] = (),
        gate: HostGate | None = None,
        robots_retry: float = 60.0,
    ) -> None:
        self.settings = settings
        self.mappings = mappings
        self.gate = gate or HostGate()
        self.robots = RobotsCache(self._load_robots, retry_after=robots_retry)
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
                    target = canonical_url(urljoin(current, location))
                    if target is None:
                        raise _Failure("bad url", response.status)
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
        try:
            result.text, result.charset = decode_html(response.body, content_type)
        except DecodeError:
            raise _Failure("decode", response.status) from None

    def _get_allowed(self, url: str) -> _Response:
        """One request after the address and robots checks, with retries."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise _Failure("bad url")
        host = host_of(url)
        target = self._target(url)
        rules = self.robots.rules(f"{parts.scheme}://{parts.netloc}")
        if not rules.allowed(url, self.settings.user_agent):
            raise _Failure("robots")
        delay = max(self.settings.delay, rules.crawl_delay(self.settings.user_agent))
        for attempt in range(self.settings.retries + 1):
            try:
                with self.gate.request(host, delay):
                    response = self._request(target, host, page=True)
            except _Failure as failure:
                if failure.reason not in ("timeout", "reset") or attempt == self.settings.retries:
                    raise
            else:
                if response.status < 500 or attempt == self.settings.retries:
                    return response
            time.sleep(RETRY_BACKOFF * 2**attempt)
        raise AssertionError("the retry loop always returns or raises")

    def _target(self, url: str) -> str:
        """The URL actually requested: rewritten to a --resolve address, or checked as public."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        mapping = mapped(host, self.mappings)
        if mapping is not None:
            netloc = f"[{mapping.address}]" if ":" in mapping.address else mapping.address
            return urlunsplit(
                ("http", f"{netloc}:{mapping.port}", parts.path or "/", parts.query, "")
            )
        try:
            refused = refused_address(host, parts.port or (443 if parts.scheme == "https" else 80))
        except OSError:
            raise _Failure("dns") from None
        if refused is not None:
            raise _Failure("refused address")
        return url

    def _load_robots(self, robots_url: str) -> tuple[int, bytes]:
        """RobotsCache's loader: (status, body); OSError for timeouts and resets."""
        host = host_of(robots_url)
        try:
            target = self._target(robots_url)
        except _Failure as failure:
            raise OSError(failure.reason) from None
        try:
            with self.gate.request(host, self.settings.delay):
                response = self._request(target, host, page=False)
        except _Failure as failure:
            raise OSError(failure.reason) from None
        return response.status, response.body

    def _session(self):
        session = getattr(self._local, "session", None)
        if session is None:
            import requests

            session = requests.Session()
            session.headers["User-Agent"] = self.settings.user_agent
            session.headers["Accept"] = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
            session.trust_env = False
            self._local.session = session
        return session

    def _request(self, target: str, host: str, page: bool) -> _Response:
        """One GET without redirects; the body is streamed and cut at `max_bytes`."""
        import requests

        settings = self.settings
        deadline = time.monotonic() + settings.connect_timeout + settings.read_timeout
        try:
            response = self._session().get(
                target,
                headers={"Host": host},
                allow_redirects=False,
                stream=True,
                timeout=(settings.connect_timeout, settings.read_timeout),
            )
        except requests.Timeout:
            raise _Failure("timeout") from None
        except requests.ConnectionError as exc:
            raise _Failure("dns" if "resolve" in str(exc).lower() else "reset") from None
        except requests.RequestException:
            raise _Failure("bad url") from None
        with response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            status = response.status_code
            if page and status < 300:
                kind = headers.get("content-type", "text/html").split(";")[0].strip().lower()
                if kind not in HTML_TYPES:
                    raise _Failure("not html", status)
                declared = headers.get("content-length", "")
                if declared.isdigit() and int(declared) > settings.max_bytes:
                    raise _Failure("too large", status)
            chunks, size = [], 0
            try:
                for chunk in response.iter_content(chunk_size=65536):
                    size += len(chunk)
                    if size > settings.max_bytes:
                        raise _Failure("too large", status)
                    if time.monotonic() > deadline:
                        raise _Failure("timeout", status)
                    chunks.append(chunk)
            except requests.RequestException as exc:
                raise _Failure("timeout" if _timed_out(exc) else "reset", status) from None
        return _Response(status, headers, b"".join(chunks))


def _timed_out(exc: BaseException) -> bool:
    """requests wraps a read timeout while streaming in a ConnectionError."""
    from urllib3.exceptions import ReadTimeoutError

    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ReadTimeoutError | TimeoutError) or any(
            isinstance(arg, ReadTimeoutError) for arg in seen.args
        ):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
