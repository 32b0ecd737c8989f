"""Reading a corpus folder: every file type, languages, and what is skipped by name."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from kgcrawl.text.corpus import CorpusError, close_old_comments, decode, read_corpus

HTML = """<html><head><meta charset="gbk"><title>标题</title></head><body>
<nav>首页 | 关于我们 | 联系方式</nav>
<article><h1>暴雨预警</h1><p>{body}</p></article>
<footer>版权所有</footer></body></html>"""
BODY = "气象台发布暴雨橙色预警信号，山区需防范山洪和山体滑坡，城市低洼地区注意内涝。" * 4


def _write_corpus(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("暴雨引发洪水，群众紧急转移。", encoding="utf-8")
    (root / "b.md").write_text("# Flood report\n\nHeavy rain flooded the river valley.", "utf-8")
    (root / "sub" / "c.html").write_bytes(HTML.format(body=BODY).encode("gbk"))
    lines = [
        json.dumps({"id": "n1", "text": "山体滑坡阻断公路。"}, ensure_ascii=False),
        "",
        json.dumps({"id": "n2", "text": "Landslide warning for mountain roads."}),
    ]
    (root / "news.jsonl").write_text("\n".join(lines), encoding="utf-8")
    return root


def test_reads_every_type_in_path_order_with_languages(tmp_path) -> None:
    corpus = read_corpus(_write_corpus(tmp_path / "corpus"))
    assert [(d.id, d.lang) for d in corpus.documents] == [
        ("a.txt", "zh"),
        ("b.md", "other"),
        ("news.jsonl#n1", "zh"),
        ("news.jsonl#n2", "other"),
        ("sub/c.html", "zh"),
    ]
    assert corpus.skipped == []
    texts = {d.id: d.text for d in corpus.documents}
    assert texts["a.txt"] == "暴雨引发洪水，群众紧急转移。"
    assert texts["news.jsonl#n1"] == "山体滑坡阻断公路。"
    # trafilatura keeps the article (GBK declared in <meta>), drops navigation and footer.
    assert "暴雨橙色预警信号" in texts["sub/c.html"]
    assert "关于我们" not in texts["sub/c.html"] and "版权所有" not in texts["sub/c.html"]


def test_progress_is_reported_per_file(tmp_path) -> None:
    calls = []
    read_corpus(_write_corpus(tmp_path / "corpus"), lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_bad_files_are_skipped_by_name(tmp_path) -> None:
    root = _write_corpus(tmp_path / "corpus")
    (root / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "latin1.txt").write_bytes("Café menu – crème brûlée, € 4".encode("cp1252"))
    (root / "empty.md").write_text("  \n", encoding="utf-8")
    (root / "gone.txt").symlink_to(root / "nowhere.txt")  # exists in the listing, cannot be read
    (root / "notes.pdf").write_bytes(b"%PDF-1.4")
    (root / ".hidden.txt").write_text("ignored entirely", encoding="utf-8")
    (root / "bad.jsonl").write_text(
        '{"id": 1, "text": "好的文本内容"}\nnot json\n{"id": 2}\n{"id": 1, "text": "重复"}\n',
        encoding="utf-8",
    )
    corpus = read_corpus(root)
    reasons = {s.name: s.reason for s in corpus.skipped}
    assert set(reasons) == {
        "binary.txt",
        "empty.md",
        "gone.txt",
        "notes.pdf",
        "bad.jsonl line 2",
        "bad.jsonl line 3",
        "bad.jsonl line 4",
    }
    assert reasons["binary.txt"].startswith("undecodable")
    texts = {d.id: d.text for d in corpus.documents}
    assert texts["latin1.txt"] == "Café menu – crème brûlée, € 4"  # Windows-1252, not skipped
    assert reasons["empty.md"] == "no text"
    assert reasons["gone.txt"].startswith("unreadable")
    assert reasons["notes.pdf"] == "not a corpus file type (.pdf)"
    assert reasons["bad.jsonl line 2"].startswith("not JSON")
    assert reasons["bad.jsonl line 3"] == 'expected {"id": ..., "text": "..."}'
    assert reasons["bad.jsonl line 4"] == "duplicate id bad.jsonl#1"
    assert "bad.jsonl#1" in [d.id for d in corpus.documents]
    assert len(corpus) == 7


OLD_PAGE = b"""<HTML>
<HEADER><TITLE>Astronomy 101</TITLE></HEADER>
<BODY>
<!-- maintained by the department webmaster >
<H1>Astronomy 101</H1>
<P>Office hours are on Tuesday. The telescope session needs a clear sky.
<HR><ADDRESS>Back to the <A HREF="/">department</A></ADDRESS>
</BODY>
"""


def test_old_html_with_a_comment_closed_by_a_bracket_keeps_its_text(tmp_path) -> None:
    (tmp_path / "astro.html").write_bytes(OLD_PAGE)
    text = read_corpus(tmp_path).documents[0].text
    assert "telescope session" in text and "webmaster" not in text


def test_comments_are_closed_where_old_browsers_closed_them() -> None:
    assert close_old_comments(b"a<!-- x >b<!-- y -->c") == b"a<!-- x -->b<!-- y -->c"
    assert close_old_comments(b"a<!-- ok -->b") == b"a<!-- ok -->b"
    assert close_old_comments(b"a<!-- never closed") == b"a<!-- never closed"


def test_gbk_text_file_is_decoded(tmp_path) -> None:
    (tmp_path / "gbk.txt").write_bytes("山体滑坡".encode("gbk"))
    assert read_corpus(tmp_path).documents[0].text == "山体滑坡"


def test_a_single_file_is_a_corpus(tmp_path) -> None:
    root = _write_corpus(tmp_path / "corpus")
    corpus = read_corpus(root / "news.jsonl")
    assert [d.id for d in corpus.documents] == ["news.jsonl#n1", "news.jsonl#n2"]


def test_missing_corpus_is_an_error(tmp_path) -> None:
    with pytest.raises(CorpusError, match=r"nowhere: no such corpus folder"):
        read_corpus(tmp_path / "nowhere")


def test_empty_folder_is_an_error(tmp_path) -> None:
    with pytest.raises(CorpusError, match=r"empty corpus \(no files\)"):
        read_corpus(tmp_path)


def test_folder_of_bad_files_is_an_error(tmp_path) -> None:
    (tmp_path / "x.txt").write_bytes(b"\x00\x01")
    (tmp_path / "y.doc").write_bytes(b"word")
    with pytest.raises(CorpusError, match=r"empty corpus \(no readable document in 2 file"):
        read_corpus(tmp_path)


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("\ufeff暴雨".encode(), "暴雨"),
        ("暴雨 rain".encode("utf-16"), "暴雨 rain"),  # Notepad's "Unicode": UTF-16 LE, a BOM
        ("\ufeff暴雨".encode("utf-16-be"), "暴雨"),
        ("暴雨".encode("utf-32"), "暴雨"),
        (codecs.BOM_UTF16_LE + b"\x00\xd8", None),  # half a surrogate pair
        ("暴雨".encode("gb18030"), "暴雨"),
        (b"plain", "plain"),
        (b"a\x00b", None),
        (b"\x80\xff", "€ÿ"),  # Windows-1252, the last resort
        ("café “au lait” – Zürich’s".encode("cp1252"), "café “au lait” – Zürich’s"),
        ("Привет, это тест кодировки".encode("cp1251"), "Привет, это тест кодировки"),
    ],
)
def test_decode(raw: bytes, text: str | None) -> None:
    assert decode(raw) == text
