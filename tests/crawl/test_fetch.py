"""The fetcher against the sandbox web over real HTTP: every failure kind, robots, politeness."""

from __future__ import annotations

import threading
from dataclasses import replace
from itertools import pairwise

import pytest

from kgcrawl.config import Fetch
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.sandbox.hazards import Hazard

FAST = Fetch(delay=0.0, connect_timeout=2.0, read_timeout=5.0, retries=2)


@pytest.fixture
def fetcher(sandbox) -> Fetcher:
    return Fetcher(FAST, parse_resolve(sandbox.resolve))


def first(sandbox, hazard: Hazard, path_part: str = "") -> str:
    return next(u for u in sandbox.world.hazard_urls(hazard) if path_part in u)


def test_a_page_is_fetched_and_decoded(fetcher, sandbox) -> None:
    url = sandbox.world.seeds("tourism")[0]
    result = fetcher.fetch(url)
    assert result.ok, result.reason
    assert result.status == 200 and result.final_url == url
    assert "<html" in result.text.lower() and result.content


@pytest.mark.parametrize("hazard", [Hazard.GBK, Hazard.GBK_META, Hazard.GBK_BARE])
def test_gbk_pages_decode_as_gb18030(fetcher, sandbox, hazard) -> None:
    result = fetcher.fetch(first(sandbox, hazard))
    assert result.ok, result.reason
    assert result.charset == "gb18030"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in result.text)


@pytest.mark.parametrize(
    ("hazard", "reason"),
    [
        (Hazard.NOT_FOUND, "http 404"),
        (Hazard.PDF, "not html"),
        (Hazard.IMAGE, "not html"),
        (Hazard.OVERSIZED, "too large"),
        (Hazard.RESET, "reset"),
        (Hazard.REDIRECT_LONG, "too many redirects"),
        (Hazard.REDIRECT_LOOP, "redirect loop"),
        (Hazard.DOWN, "robots unreachable"),  # its robots.txt answers 503 too
        (Hazard.ROBOTS_ERROR, "robots unreachable"),
    ],
)
def test_failures_are_recorded_with_their_reason(fetcher, sandbox, hazard, reason) -> None:
    url = first(sandbox, hazard)
    if hazard is Hazard.ROBOTS_ERROR:
        url = url.replace("robots.txt", "")
    result = fetcher.fetch(url)
    assert result.reason == reason
    assert not result.ok


def test_both_oversized_forms_are_cut(fetcher, sandbox) -> None:
    base = first(sandbox, Hazard.OVERSIZED).rsplit("/", 1)[0]
    for n in (0, 1):  # with and without Content-Length
        assert fetcher.fetch(f"{base}/{n}.html").reason == "too large"


def test_server_errors_and_transient_errors(fetcher, sandbox) -> None:
    failing = fetcher.fetch(first(sandbox, Hazard.SERVER_ERROR))
    assert failing.reason in ("http 500", "http 502")
    transient = fetcher.fetch(first(sandbox, Hazard.TRANSIENT_ERROR))
    assert transient.ok, "a 503 that clears is retried"


def test_redirects_are_followed_and_recorded(fetcher, sandbox) -> None:
    url = first(sandbox, Hazard.REDIRECT)
    result = fetcher.fetch(url)
    assert result.ok and len(result.redirects) >= 1
    assert "/jump/" not in result.final_url
    moved = fetcher.fetch(first(sandbox, Hazard.MOVED))
    assert moved.ok and moved.final_url != moved.url


def test_robots_rules_are_obeyed(fetcher, sandbox) -> None:
    member = first(sandbox, Hazard.ROBOTS)
    assert fetcher.fetch(member).reason == "robots"
    host_root = member.split("/member/")[0]
    assert fetcher.fetch(host_root + "/").ok


def test_stalled_page_times_out(sandbox) -> None:
    fetcher = Fetcher(replace(FAST, read_timeout=0.5, retries=0), parse_resolve(sandbox.resolve))
    assert fetcher.fetch(first(sandbox, Hazard.STALL)).reason == "timeout"


def test_private_address_refused_unless_mapped(sandbox) -> None:
    unmapped = Fetcher(FAST)
    assert unmapped.fetch(f"http://127.0.0.1:{sandbox.port}/").reason == "refused address"
    assert unmapped.fetch(f"http://localhost:{sandbox.port}/").reason == "refused address"
    mapped = Fetcher(FAST, parse_resolve([f"localhost=127.0.0.1:{sandbox.port}"]))
    assert mapped.fetch("http://localhost/").reason != "refused address"


def test_one_request_in_flight_per_host_and_delay_kept(sandbox) -> None:
    delay = 0.15
    fetcher = Fetcher(replace(FAST, delay=delay), parse_resolve(sandbox.resolve))
    seed = sandbox.world.seeds("tourism")[0]
    host = seed.split("/")[2]
    links = [u for u in sandbox.world.links(seed) if u.split("/")[2] == host][:6]
    assert len(links) >= 4
    fetcher.fetch(seed)  # robots.txt and the seed come first
    sandbox.clear_log()
    threads = [threading.Thread(target=fetcher.fetch, args=(u,)) for u in links]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = sorted(sandbox.access_log(host), key=lambda a: a.start)
    assert len(log) == len(links)
    for before, after in pairwise(log):
        assert after.start >= before.end, "two requests in flight to one host"
        assert after.start - before.end >= delay * 0.95


def test_crawl_delay_is_honoured(sandbox) -> None:
    robots = first(sandbox, Hazard.CRAWL_DELAY)
    host = robots.split("/")[2]
    fetcher = Fetcher(FAST, parse_resolve(sandbox.resolve))
    sandbox.clear_log()
    fetcher.fetch(robots.replace("robots.txt", ""))
    fetcher.fetch(robots.replace("robots.txt", "") + "?again=1")
    log = sorted(sandbox.access_log(host), key=lambda a: a.start)
    assert [a.path.split("?")[0] for a in log][:1] == ["/robots.txt"]
    assert log[-1].start - log[-2].end >= sandbox.server.crawl_delay * 0.95
