"""WARC round trip (GBK body included) and truncation on resume."""

from warcio.archiveiterator import ArchiveIterator

from kgcrawl.crawl.warc import WarcArchive

GBK = "<html><head><meta charset=gbk></head><body>暴雨 山体滑坡</body></html>".encode("gbk")


def read_back(path):
    with open(path, "rb") as fh:
        return [
            (
                r.rec_headers.get_header("WARC-Target-URI"),
                r.http_headers.get_statuscode(),
                r.content_stream().read(),
            )
            for r in ArchiveIterator(fh)
            if r.rec_type == "response"
        ]


def test_round_trip_and_truncate(tmp_path) -> None:
    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(path)
    archive.write("http://a.cn/1", 200, {"content-type": "text/html; charset=gbk"}, GBK)
    kept = archive.offset
    archive.write("http://a.cn/2", 200, {"content-type": "text/html"}, b"<p>two</p>")
    archive.close()
    assert read_back(path) == [
        ("http://a.cn/1", "200", GBK),
        ("http://a.cn/2", "200", b"<p>two</p>"),
    ]

    resumed = WarcArchive(path, truncate_to=kept)
    resumed.write("http://a.cn/3", 404, {}, b"gone")
    resumed.close()
    assert [url for url, _, _ in read_back(path)] == ["http://a.cn/1", "http://a.cn/3"]
