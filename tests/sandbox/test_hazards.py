"""Every hazard exists in the test world and behaves as documented, measured over real HTTP."""

from __future__ import annotations

import difflib
import re
import socket
import time
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from lxml import html as lxml_html
from protego import Protego

from kgcrawl.sandbox.hazards import CRAWL_DELAY_SECONDS, LONG_CHAIN, OVERSIZED_BYTES, Hazard
from kgcrawl.sandbox.hosts import Host, Kind
from kgcrawl.sandbox.lexicon import vocabulary
from kgcrawl.sandbox.routes import PageType, Route
from tests.fixtures.sandbox import HANG_SECONDS, SLOW_DELAY, sandbox_web


def first(sandbox, hazard: Hazard) -> str:
    urls = sandbox.world.hazard_urls(hazard)
    assert urls, f"no {hazard} in the test world"
    return urls[0]


def hrefs(response) -> list[str]:
    return lxml_html.fromstring(response.content).xpath("//a/@href")


@pytest.mark.parametrize("hazard", list(Hazard))
def test_every_hazard_is_in_the_test_world(sandbox, hazard):
    assert sandbox.world.hazard_urls(hazard)


def test_calendar_is_endless(sandbox):
    url = first(sandbox, Hazard.CALENDAR)
    for _ in range(24):  # two years forward, one month at a time
        response = sandbox.fetch(url)
        assert response.status_code == 200
        links = hrefs(response)
        assert sum("/calendar/" in h for h in links) >= 28  # every day of the month, and more
        url = urljoin(
            url,
            next(
                h
                for h in links
                if re.search(r"/calendar/\d{4}-\d{2}\.html", h) and h > urlsplit(url).path
            ),
        )
    assert urlsplit(url).path == "/calendar/2026-06.html"
    day = urljoin(url, "/calendar/9999-12-31.html")
    assert sandbox.fetch(day).status_code == 200
    assert sandbox.fetch(urljoin(url, "/calendar/2024-02-30.html")).status_code == 404
    assert not sandbox.world.truth(url).relevant("tourism")


def test_session_ids_make_endless_variants_of_one_page(sandbox):
    url = first(sandbox, Hazard.SESSION_ID)
    page = sandbox.fetch(url)
    assert page.status_code == 200
    sids = set(re.findall(r"(?:sid=|jsessionid=)([0-9a-f]{16})", page.text))
    assert len(sids) == 1 and "0123456789abcdef" not in sids  # a new id on every page
    variant = url.replace("0123456789abcdef", sids.pop())
    other = sandbox.fetch(variant)
    assert other.status_code == 200 and other.content != page.content
    strip = re.compile(r"(?:sid=|jsessionid=)[0-9a-f]{16}")
    assert strip.sub("", other.text) == strip.sub("", page.text)
    truth = sandbox.world.truth(variant)
    assert truth.duplicate == "near" and "0123456789abcdef" not in truth.canonical
    assert sandbox.world.truth(truth.canonical).canonical == truth.canonical


def test_deep_paths_go_ever_deeper(sandbox):
    url = first(sandbox, Hazard.DEEP_PATH)
    for _ in range(30):
        response = sandbox.fetch(url)
        assert response.status_code == 200
        url = urljoin(url, next(h for h in hrefs(response) if h in ("api/", "guide/", "v2/")))
    assert urlsplit(url).path.count("/") > 32


def test_mirrors_copy_their_source(sandbox):
    world = sandbox.world
    exact = first(sandbox, Hazard.MIRROR)
    source = world.truth(exact).canonical
    assert sandbox.fetch(exact).content == sandbox.fetch(source).content
    assert world.truth(exact).duplicate == "exact"
    near = first(sandbox, Hazard.NEAR_MIRROR)
    a, b = sandbox.fetch(near).text, sandbox.fetch(world.truth(near).canonical).text
    assert a != b
    assert difflib.SequenceMatcher(None, a, b).ratio() > 0.95
    assert world.truth(near).duplicate == "near"


def robots_host(world) -> Host:
    return next(
        h
        for h in sorted(world.hosts.values(), key=lambda h: h.name)
        if Hazard.ROBOTS in h.hazards and h.kind is not Kind.MIRROR and h.channels[0].size > 2
    )


def test_robots_rules_for_all_agents_and_for_kgcrawl(sandbox):
    world = sandbox.world
    host = robots_host(world)
    base = f"{host.scheme}://{host.name}"
    robots = Protego.parse(sandbox.fetch(base + "/robots.txt").text)
    member = base + "/member/0.html"
    assert not robots.can_fetch(member, "kgcrawl")
    assert not robots.can_fetch(member, "otherbot")
    assert sandbox.fetch(member).status_code == 200  # the page exists: only politeness hides it
    assert "/member/0.html" in hrefs(sandbox.fetch(base + "/"))
    article = world.url(host.name, Route(PageType.ARTICLE, 0, 2))
    printed = f"{base}/print/{host.base_id + 2}.html"
    assert any(printed.endswith(h.split(";")[0]) for h in hrefs(sandbox.fetch(article)))
    assert not robots.can_fetch(printed, "kgcrawl")
    assert robots.can_fetch(printed, "otherbot")
    assert robots.can_fetch(article, "kgcrawl")


def test_printer_copies_are_near_duplicates(sandbox):
    world = sandbox.world
    host = robots_host(world)
    article = world.url(host.name, Route(PageType.ARTICLE, 0, 2))
    printed = world.url(host.name, Route(PageType.PRINT, 0, 2))
    truth = world.truth(printed)
    assert truth.canonical == article and truth.duplicate == "near"
    paragraphs = lxml_html.fromstring(sandbox.fetch(printed).content).xpath("//p/text()")
    assert paragraphs
    assert (
        paragraphs
        == lxml_html.fromstring(sandbox.fetch(article).content).xpath("//p/text()")[
            : len(paragraphs)
        ]
    )


def test_crawl_delay_and_robots_errors(sandbox):
    url = first(sandbox, Hazard.CRAWL_DELAY)
    robots = Protego.parse(sandbox.fetch(url).text)
    assert robots.crawl_delay("kgcrawl") == sandbox.server.crawl_delay != CRAWL_DELAY_SECONDS
    world = sandbox.world.get(url).body.decode()  # the world's own, unless the server shortens it
    assert Protego.parse(world).crawl_delay("kgcrawl") == CRAWL_DELAY_SECONDS
    assert sandbox.fetch(first(sandbox, Hazard.ROBOTS_ERROR)).status_code == 503


def test_slow_hosts_answer_late(sandbox):
    url = first(sandbox, Hazard.SLOW)
    host = urlsplit(url).hostname
    sandbox.clear_log()
    start = time.monotonic()
    assert sandbox.fetch(url).status_code == 200
    assert time.monotonic() - start >= SLOW_DELAY
    (entry,) = sandbox.access_log(host)
    assert entry.end - entry.start >= SLOW_DELAY


def test_stalling_pages_send_a_head_then_hang(sandbox):
    url = first(sandbox, Hazard.STALL)
    start = time.monotonic()
    with pytest.raises(requests.exceptions.ConnectionError):  # ReadTimeout while reading the body
        sandbox.fetch(url, timeout=(2, SLOW_DELAY + 0.5))
    assert time.monotonic() - start < HANG_SECONDS


def test_server_errors_persist(sandbox):
    url = first(sandbox, Hazard.SERVER_ERROR)
    assert sandbox.fetch(url).status_code in (500, 502)
    assert sandbox.fetch(url).status_code in (500, 502)
    assert not sandbox.world.truth(url).is_page


def test_transient_errors_clear_on_retry():
    with sandbox_web() as web:  # its own server: the first request must really be the first
        url = web.world.hazard_urls(Hazard.TRANSIENT_ERROR)[0]
        first_try = web.fetch(url)
        assert first_try.status_code == 503 and first_try.headers["Retry-After"] == "1"
        assert web.fetch(url).status_code == 200
        assert web.world.truth(url).is_page


def test_resets_drop_the_connection(sandbox):
    url = first(sandbox, Hazard.RESET)
    with pytest.raises(requests.exceptions.ConnectionError):
        sandbox.fetch(url)
    parts = urlsplit(url)
    with socket.create_connection(("127.0.0.1", sandbox.port), timeout=5) as conn:
        conn.sendall(f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}\r\n\r\n".encode())
        with pytest.raises(ConnectionResetError):
            assert conn.recv(100) == b""  # a RST, not a FIN
    assert sandbox.access_log(parts.hostname)[-1].status == 0


def follow(sandbox, url: str, limit: int) -> tuple[int, list[str]]:
    chain = [url]
    for _ in range(limit):
        response = sandbox.fetch(url)
        if response.status_code not in (301, 302):
            return response.status_code, chain
        url = urljoin(url, response.headers["Location"])
        chain.append(url)
    return -1, chain


def test_redirect_chains_end_at_the_article(sandbox):
    url = first(sandbox, Hazard.REDIRECT)
    status, chain = follow(sandbox, url, 10)
    assert status == 200 and len(chain) == 5  # /jump/3 → 2 → 1 → 0 → article
    assert "/jump/" not in chain[-1]
    assert sandbox.world.truth(url).location == chain[1]


def test_long_chains_and_loops_exceed_a_polite_limit(sandbox):
    status, chain = follow(sandbox, first(sandbox, Hazard.REDIRECT_LONG), 10)
    assert status == 200 and len(chain) == LONG_CHAIN + 2
    assert follow(sandbox, first(sandbox, Hazard.REDIRECT_LOOP), 10)[0] == -1
    session = requests.Session()
    session.max_redirects = 5
    loop = urlsplit(first(sandbox, Hazard.REDIRECT_LOOP))
    with pytest.raises(requests.exceptions.TooManyRedirects):
        session.get(sandbox.base_url + loop.path, headers={"Host": loop.hostname}, timeout=5)


def test_moved_hosts_redirect_to_their_new_name(sandbox):
    url = first(sandbox, Hazard.MOVED)
    response = sandbox.fetch(url + "about.html")
    assert response.status_code == 301
    new = response.headers["Location"]
    assert urlsplit(new).hostname != urlsplit(url).hostname and new.endswith("/about.html")
    assert sandbox.fetch(new).status_code == 200


def test_down_hosts_answer_503_even_for_robots(sandbox):
    url = first(sandbox, Hazard.DOWN)
    assert sandbox.fetch(url).status_code == 503
    assert sandbox.fetch(url + "robots.txt").status_code == 503


def test_oversized_pages_with_and_without_length(sandbox):
    url = first(sandbox, Hazard.OVERSIZED)
    sized = sandbox.fetch(url)
    assert int(sized.headers["Content-Length"]) == len(sized.content) > OVERSIZED_BYTES
    streamed = sandbox.fetch(url.replace("/export/0.html", "/export/1.html"), stream=True)
    assert "Content-Length" not in streamed.headers
    received = 0
    for chunk in streamed.iter_content(1 << 16):
        received += len(chunk)
    assert received > 5_000_000


def chinese_words(host_topic: str) -> list[str]:
    return list(vocabulary(host_topic, "zh").words[:10])


@pytest.mark.parametrize(
    ("hazard", "header_charset", "meta"),
    [
        (Hazard.GBK, "GBK", '<meta charset="gbk">'),
        (Hazard.GBK_META, None, "charset=gb2312"),
        (Hazard.GBK_BARE, None, None),
    ],
)
def test_gbk_pages_with_and_without_declarations(sandbox, hazard, header_charset, meta):
    url = first(sandbox, hazard)
    response = sandbox.fetch(url)
    content_type = response.headers["Content-Type"]
    assert (
        (f"charset={header_charset}" in content_type)
        if header_charset
        else "charset" not in content_type
    )
    raw = response.content
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    text = raw.decode("gb18030")
    assert (meta in text) if meta else "charset" not in text
    topic = sandbox.world.hosts[urlsplit(url).hostname].topic
    assert any(w in text for w in chinese_words(topic))


def test_malformed_pages_still_parse_and_hide_fake_links(sandbox):
    url = first(sandbox, Hazard.MALFORMED)
    text = sandbox.fetch(url).text
    assert "</html>" not in text and "<li><a href=" in text.replace('"', "")
    assert re.search(r"<a href=[^\"' >]+>", text)  # unquoted attributes
    assert "A&B < 30" in text and "</span></div>" in text
    tree = lxml_html.fromstring(text)
    assert tree.findtext(".//title")
    real = set(sandbox.world.links(url))
    assert not any("/hidden/" in u for u in real)  # the commented and scripted links are not links
    assert "/hidden/commented.html" in text and "/hidden/script.html" in text


def test_not_found(sandbox):
    assert sandbox.fetch(first(sandbox, Hazard.NOT_FOUND)).status_code == 404
    assert sandbox.fetch("http://www.cntour.cn/no/such/page.html").status_code == 404
    assert sandbox.fetch("http://unknown.example.org/").status_code == 404


def test_pdf_and_image_content(sandbox):
    pdf = sandbox.fetch(first(sandbox, Hazard.PDF))
    assert pdf.headers["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF-1.4")
    assert pdf.content.rstrip().endswith(b"%%EOF")
    png = sandbox.fetch(first(sandbox, Hazard.IMAGE))
    assert png.headers["Content-Type"] == "image/png" and png.content.startswith(b"\x89PNG\r\n")
