"""Charset order of SPEC §6: header, BOM, <meta>, then detection; GBK as GB18030."""

import codecs
import pickle

import pytest

from kgcrawl.crawl.decode import DecodeError, decode_html
from kgcrawl.crawl.fetch import FetchResult

PAGE = "<html><head>{meta}<title>暴雨预警</title></head><body>山体滑坡 堃 囧</body></html>"


def test_gbk_with_meta() -> None:
    body = PAGE.format(meta="<meta charset=gbk>").encode("gbk")
    text, charset = decode_html(body)
    assert "山体滑坡 堃 囧" in text and charset == "gb18030"


def test_gbk_http_equiv_and_undeclared() -> None:
    equiv = '<meta http-equiv="Content-Type" content="text/html; charset=GB2312">'
    assert decode_html(PAGE.format(meta=equiv).encode("gbk"))[1] == "gb18030"
    text, charset = decode_html(PAGE.format(meta="").encode("gbk"))
    assert "暴雨预警" in text and charset == "gb18030"


def test_header_beats_meta() -> None:
    body = PAGE.format(meta="<meta charset=gbk>").encode("utf-8")
    assert decode_html(body, "text/html; charset=UTF-8") == (
        PAGE.format(meta="<meta charset=gbk>"),
        "utf-8",
    )


def test_wrong_declaration_falls_back() -> None:
    body = PAGE.format(meta="<meta charset=utf-8>").encode("gb18030")
    text, charset = decode_html(body)
    assert "暴雨预警" in text and charset == "gb18030"


def test_bom_is_used_and_stripped() -> None:
    text, charset = decode_html(codecs.BOM_UTF8 + PAGE.format(meta="").encode("utf-8"))
    assert text.startswith("<html>") and charset == "utf-8"


def test_binary_bytes_are_an_error() -> None:
    """Random bytes (an image served as text/html) decode neither as declared nor by detection."""
    import random

    rng = random.Random(1)
    blob = bytes(rng.randrange(256) for _ in range(3000))
    with pytest.raises(DecodeError, match="cannot decode"):
        decode_html(blob, "text/html; charset=utf-8")


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("\ufeff<html><body><p>暴雨灾害预警</p></body></html>".encode(), "text/html"),
        ('<meta charset="gbk"><p>山体滑坡，游客请注意</p>'.encode("gbk"), "text/html"),
    ],
)
def test_a_page_travels_to_an_analyser_as_bytes_only(body: bytes, content_type: str) -> None:
    text, charset = decode_html(body, content_type)
    result = FetchResult(url="http://a.cn/", final_url="http://a.cn/", status=200,
                         content=body, text=text, charset=charset)  # fmt: skip
    blob = pickle.dumps(result)
    tail = text[-12:].encode("utf-8")
    assert blob.count(tail) == body.count(tail), "the text was sent beside the bytes"
    assert pickle.loads(blob) == result
    assert pickle.loads(pickle.dumps(FetchResult("u", "u", reason="timeout"))).reason == "timeout"


@pytest.mark.parametrize(
    "text",
    [
        "Turismo en España: Peñíscola, Málaga, Córdoba y Andalucía.",  # GB18030 decodes these
        "Die Universität Zürich: Größere Überschwemmungen nach Regenfällen.",
        "São Paulo: previsão de chuvas, inundações na região.",
        "Le département de géographie: tourisme, hôtellerie, régions côtières.",
        "Faculty: José Martínez, Jürgen Müller. Copyright © 1997, 20° ± 2.",
        "L'università offre corsi di turismo; è possibile visitare città, musei. Perché no?",
        "Universitetet i Göteborg: kraftiga regnskurar och översvämningar på fredag.",
    ],
)
def test_undeclared_latin_1_pages_read_as_windows_1252(text: str) -> None:
    page = f"<html><body><p>{text}</p></body></html>"
    assert decode_html(page.encode("latin-1"), "text/html") == (page, "cp1252")


def test_undeclared_gbk_stays_chinese_with_few_characters() -> None:
    page = "<html><body><p>Beijing 北京 travel guide, Great Wall 长城</p></body></html>"
    assert decode_html(page.encode("gbk"), "text/html") == (page, "gb18030")
