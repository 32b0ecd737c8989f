"""The Scrapy spider `bench_vs_scrapy.py` runs as kgcrawl's peer (a benchmark-only dependency).

python benchmarks/scrapy_peer.py SPEC.json
    SPEC: {"proxy": "http://127.0.0.1:PORT", "seeds": [...], "keywords": [...],
    "pages": N, "workers": 8, "out": "stats.json"}

A fair focused crawler, not a stripped one: it obeys robots.txt, parses every
page with lxml (parsel), extracts its links (LinkExtractor), yields an item with
url, title and body text, and crawls keyword best-first: a link's priority is
the number of topic-word hits in its anchor text. Every request goes through
the sandbox server as an HTTP proxy (the server reads the absolute request
line); the sandbox ignores the scheme, so https links are fetched as http.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor


class ProxyAll:
    """Downloader middleware: send every request (robots.txt included) to the sandbox."""

    def __init__(self, proxy: str) -> None:
        self.proxy = proxy

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.settings["SANDBOX_PROXY"])

    def process_request(self, request, spider=None):
        if request.url.startswith("https://"):  # a redirect to https: the server has no TLS
            return request.replace(url=_http(request.url), dont_filter=True)
        request.meta["proxy"] = self.proxy
        return None


def _http(url: str) -> str:
    return "http://" + url[len("https://") :] if url.startswith("https://") else url


class FocusedSpider(scrapy.Spider):
    name = "focused"

    def __init__(self, seeds: list[str], keywords: list[str], **kw) -> None:
        super().__init__(**kw)
        self.seeds = [_http(s) for s in seeds]
        words = sorted({k.lower() for k in keywords if k.strip()}, key=len, reverse=True)
        self.keyword = re.compile("|".join(re.escape(w) for w in words), re.I)
        self.links = LinkExtractor()

    async def start(self):
        for url in self.seeds:
            yield scrapy.Request(url, priority=1000)

    def parse(self, response):
        if not isinstance(response, scrapy.http.HtmlResponse):
            return
        yield {
            "url": response.url,
            "title": response.xpath("normalize-space(//title)").get(""),
            "text": " ".join(response.xpath("//body//text()").getall()),
        }
        for link in self.links.extract_links(response):
            priority = len(self.keyword.findall(link.text or ""))
            yield scrapy.Request(_http(link.url), priority=priority, callback=self.parse)


def main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    process = CrawlerProcess(
        {
            "LOG_LEVEL": "CRITICAL",
            "TELNETCONSOLE_ENABLED": False,
            "ROBOTSTXT_OBEY": True,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS": spec["workers"],
            "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
            "DOWNLOAD_TIMEOUT": 20,
            "CLOSESPIDER_ITEMCOUNT": spec["pages"],
            "SANDBOX_PROXY": spec["proxy"],
            "DOWNLOADER_MIDDLEWARES": {"scrapy_peer.ProxyAll": 1},
            "COOKIES_ENABLED": False,
        }
    )
    crawler = process.create_crawler(FocusedSpider)
    process.crawl(crawler, seeds=spec["seeds"], keywords=spec["keywords"])
    process.start()
    stats = crawler.stats.get_stats()
    Path(spec["out"]).write_text(json.dumps({"pages": stats.get("item_scraped_count", 0)}))


if __name__ == "__main__":
    main(sys.argv[1])
