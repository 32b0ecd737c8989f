"""The fetcher against a hostile server (tests/crawl/hostile.py), SPEC §6 turn 2.

Each hazard ends in one FetchResult with a precise reason, within a bound on time
(and on memory where a body could grow); nothing raises. The time bounds carry
generous slack for a loaded CI machine: what they rule out is minutes or hours.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
import time
import tracemalloc
from dataclasses import replace

import pytest

from kgcrawl.config import Fetch
from kgcrawl.crawl import addresses
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.fetch import STOPPED, Fetcher
from kgcrawl.stop_flag import StopFlag
from tests.crawl.hostile import HOST, HostileServer

FAST = Fetch(
    delay=0.0, connect_timeout=1.0, read_timeout=1.0, retries=2, max_bytes=1_000_000, max_wait=2.0
)
EXCHANGE = FAST.connect_timeout + FAST.read_timeout  # the wall-clock deadline of one exchange
SLACK = 3.0


@pytest.fixture(scope="module")
def server():
    with HostileServer(bound=15.0, drip=0.2) as hostile:
        yield hostile


@pytest.fixture
def fetcher(server) -> Fetcher:
    return Fetcher(FAST, parse_resolve([server.resolve]))


def timed(fetcher: Fetcher, url: str):
    start = time.monotonic()
    result = fetcher.fetch(url)
    return result, time.monotonic() - start


# (path, reason, requests the server sees, seconds at most before SLACK)
FAILURES = [
    # a drip is cut at the exchange's deadline and not asked again
    ("/drip-body", "timeout", 1, EXCHANGE),
    ("/drip-headers", "timeout", 1, EXCHANGE),  # before turn 2: an empty page, ok
    ("/silent", "timeout", 3, 3 * FAST.read_timeout + 0.75),  # read timeouts are retried
    ("/reset", "reset", 3, 0.75),
    ("/close", "no response", 3, 0.75),
    ("/bad-status", "bad status line", 1, 0),
    ("/garbage", "bad status line", 1, 0),
    ("/dup-length", "bad content-length", 1, 0),
    ("/truncated", "truncated body", 1, 0),
    ("/bad-chunk", "truncated body", 1, 0),
    ("/redirect/7", "too many redirects", 1, 0),
    ("/loop/a", "redirect loop", 1, 0),
    ("/to-private", "refused address", 1, 0),
    ("/to-nat64", "refused address", 1, 0),
    ("/to-malformed", "bad redirect", 1, 0),  # Location: http://[::1 raised out of a crawl
    ("/retry-after-long", "http 429", 1, 0),  # Retry-After past max_wait: give up at once
]


@pytest.mark.parametrize(("path", "reason", "asked", "seconds"), FAILURES)
def test_each_hazard_is_one_failure_with_its_reason_in_bounded_time(
    server, fetcher, path, reason, asked, seconds
) -> None:
    target = f"{path}?case={path}"
    result, spent = timed(fetcher, server.url(target))
    assert result.reason == reason
    assert server.hits[target] == asked
    assert spent < seconds + SLACK


def test_a_redirect_chain_is_followed(server, fetcher) -> None:
    result = fetcher.fetch(server.url("/redirect/3"))
    assert result.ok and len(result.redirects) == 4
    assert result.final_url == server.url("/ok")


@pytest.mark.parametrize("path", ["/huge", "/huge-declared", "/gzip-bomb", "/deflate-bomb"])
def test_oversized_bodies_and_bombs_are_cut_in_bounded_memory(server, fetcher, path) -> None:
    tracemalloc.start()
    try:
        result, spent = timed(fetcher, server.url(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.reason == "too large"
    assert peak < 8 * FAST.max_bytes  # a bomb is 64 MiB decompressed
    assert spent < 5 + SLACK


BAD_CHARSETS = ["undefined", "punycode", "base64", "utf-7", "rot13", "x" * 300]


@pytest.mark.parametrize("charset", BAD_CHARSETS)
def test_a_charset_that_is_no_page_charset_falls_back_and_keeps_the_page(
    server, fetcher, charset
) -> None:
    result = fetcher.fetch(server.url(f"/charset/{charset}"))
    assert result.ok, result.reason  # before turn 2, `undefined` raised out of decode_html
    assert result.charset == "utf-8" and "景区" in result.text


def test_a_pooled_connection_the_server_closed_costs_no_attempt_but_keeps_the_pause(
    server,
) -> None:
    delay = 0.4
    fetcher = Fetcher(replace(FAST, retries=0, delay=delay), parse_resolve([server.resolve]))
    first = fetcher.fetch(server.url("/keep-alive"))  # the connection is kept for the next
    second, spent = timed(fetcher, server.url("/ok?case=stale"))
    assert first.ok and second.ok, second.reason  # before: "no response" with no retry left
    assert server.hits["/ok?case=stale"] == 2  # on the kept connection, then on a new one
    # the server saw both: the pause comes before each (before: the second went at once)
    assert 2 * delay - 0.05 <= spent < 2 * delay + SLACK


def test_429_with_retry_after_pauses_the_host_then_asks_again(server, fetcher) -> None:
    result, spent = timed(fetcher, server.url("/retry-after?case=honoured"))
    assert result.ok
    assert server.hits["/retry-after?case=honoured"] == 2
    assert spent >= 0.95  # Retry-After: 1, not the 0.25 s backoff


def test_a_retry_after_past_max_wait_pauses_the_host_for_max_wait(server, fetcher) -> None:
    assert fetcher.fetch(server.url("/retry-after-long?case=pause")).reason == "http 429"
    paused = fetcher.gate.ready_at(HOST) - time.monotonic()
    assert FAST.max_wait - 0.5 < paused <= FAST.max_wait


def test_crawl_delay_is_capped_at_max_wait() -> None:
    with HostileServer(robots="User-agent: *\nCrawl-delay: 100000\n") as slow:
        fetcher = Fetcher(replace(FAST, max_wait=1.0), parse_resolve([slow.resolve]))
        start = time.monotonic()
        assert fetcher.fetch(slow.url("/ok")).ok
        assert fetcher.fetch(slow.url("/ok?again")).ok
        spent = time.monotonic() - start
    assert 0.95 <= spent < 1 + SLACK


@pytest.mark.parametrize("hazard", ["/drip-headers", "/drip-body", "/silent"])
def test_robots_txt_has_the_same_deadline(hazard) -> None:
    with HostileServer(robots=hazard, bound=15.0) as server:
        fetcher = Fetcher(replace(FAST, retries=0), parse_resolve([server.resolve]))
        result, spent = timed(fetcher, server.url("/ok"))
        assert result.reason == "robots unreachable"  # no answer: disallow for now
        assert server.hits["/ok"] == 0
    assert spent < EXCHANGE + SLACK


def test_stop_cuts_a_drip_and_a_pause_and_starts_nothing_new(server) -> None:
    stop = StopFlag()  # the crawl's (engine.py)
    fetcher = Fetcher(replace(FAST, read_timeout=30.0), parse_resolve([server.resolve]), stop=stop)
    assert fetcher.fetch(server.url("/ok?case=stop")).ok
    fetcher.gate.defer(HOST, 30.0)  # the host now pauses 30 s
    results = {}
    threads = [
        threading.Thread(target=lambda p=p: results.__setitem__(p, fetcher.fetch(server.url(p))))
        for p in ("/drip-body?case=stop", "/ok?case=stop-paused")
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    stopped_at = time.monotonic()
    stop.set()
    for thread in threads:
        thread.join(10)
    assert time.monotonic() - stopped_at < 1.5
    assert {r.reason for r in results.values()} == {STOPPED}
    asked = sum(server.hits.values())
    assert fetcher.fetch(server.url("/ok?case=after-stop")).reason == STOPPED
    assert sum(server.hits.values()) == asked  # no attempt after the signal


def test_the_connection_goes_to_the_checked_address(server, monkeypatch) -> None:
    """DNS rebinding: the name is resolved once per check, never again to connect."""
    real = addresses.socket.getaddrinfo
    lookups: list[str] = []

    def rebinding(host, port, *args, **kwargs):
        if host != "rebind.test":
            return real(host, port, *args, **kwargs)
        lookups.append(host)  # public to the two checks (page, robots.txt), then private
        address = "127.0.0.1" if len(lookups) <= 2 else "127.0.0.2"
        return real(address, port, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(addresses, "is_public", lambda address: address == "127.0.0.1")
    fetcher = Fetcher(FAST)
    result = fetcher.fetch(f"http://rebind.test:{server.port}/ok")
    assert result.ok, result.reason
    assert len(lookups) == 2  # robots.txt's check and the page's; none by the connection


def test_an_ipv6_literal_keeps_its_brackets(server) -> None:
    fetcher = Fetcher(FAST, parse_resolve([f"::1=127.0.0.1:{server.port}"]))
    result = fetcher.fetch("http://[::1]:8080/ok")
    assert result.ok and result.final_url == "http://[::1]:8080/ok"
    assert Fetcher(FAST).fetch("http://[::1]:8080/ok").reason == "refused address"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_https_to_the_pinned_address_keeps_the_name_for_sni_and_the_certificate(
    tmp_path, monkeypatch
) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=secure.test",
         "-addext", "subjectAltName=DNS:secure.test"],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    names: list[str] = []
    context.sni_callback = lambda _sock, name, _ctx: names.append(name)
    listener = socket.create_server(("127.0.0.1", 0))
    page = b"<html><title>x</title><p>secure</p></html>"

    def serve() -> None:
        listener.settimeout(10)
        for _ in range(2):  # robots.txt, then the page
            conn, _ = listener.accept()
            with context.wrap_socket(conn, server_side=True) as tls:
                tls.recv(65536)
                tls.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(page) + page
                )

    thread = threading.Thread(target=serve)
    thread.start()
    real = addresses.socket.getaddrinfo
    monkeypatch.setattr(
        addresses.socket,
        "getaddrinfo",
        lambda host, *a, **k: real("127.0.0.1" if host == "secure.test" else host, *a, **k),
    )
    monkeypatch.setattr(addresses, "is_public", lambda address: True)
    fetcher = Fetcher(FAST)
    fetcher._session().verify = str(cert)  # trust the test's certificate, check its name
    try:
        result = fetcher.fetch(f"https://secure.test:{listener.getsockname()[1]}/")
    finally:
        thread.join(15)
        listener.close()
    assert result.ok, result.reason
    assert "secure" in result.text and names == ["secure.test", "secure.test"]
