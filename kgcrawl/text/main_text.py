"""A page's main text (the article without menus, footers or link lists), for the graph.

The crawl stores it as the page's text and counts the concepts it mentions, and
the navigation floor (`crawl/core.py`) calls a page whose main text names no
topic word navigation. It is extracted from every page the crawl downloads, so
its cost is paid per page (`crawl.main_text` chooses the extractor):

* "resiliparse" (the default): resiliparse's main-content extractor, in C on a
  Lexbor tree; where it finds nothing, trafilatura's.
* "trafilatura": trafilatura alone (fast mode, tables kept), as before issue 19,
  and as the corpus reader extracts HTML documents (`text.corpus`).

Interpretation (issue 19): trafilatura cost 3.1–3.7 ms of CPU a sandbox page,
about a quarter of a crawl's; resiliparse 0.3 ms. The issue allows a faster
extractor that passes a quality check against trafilatura. On the first 500
pages of each sandbox profile and domain (benchmarks/bench_main_text.py) the
shipped extractor's text holds 84–87 % of trafilatura's words (94 % on the
sparse profile), and 93–95 % of its words are in trafilatura's (99 %); on the
corpora's HTML documents 100 % and 93–96 %. They differ in kind: on a home or
list page trafilatura, finding no article, keeps every menu and link list,
resiliparse only the page's own text blocks; under an article resiliparse keeps
the crumbs, the date line and the previous/next titles, which trafilatura drops.
The concepts mentioned agree by a mean Jaccard of 0.72–0.84 (0.99–1.00 sparse).
resiliparse alone finds nothing on up to 11 % of the pages (markup it reads as
all boilerplate, such as a `<div class=banner>` left open around the article);
trafilatura reads those, and with it as the fallback the text of 673 of the 675
truly relevant pages names a topic word (trafilatura's: all 675). The crawl's
navigation floor was measured on trafilatura's text, so pages are read with it
until the floor is settled (`Crawl.extractor`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

# resiliparse's main-content pass costs time quadratic in how deep elements nest: 14 ms
# for 1 000 nested <div>, 2 s for 10 000, 45 s for 30 000 (a 150 KB page), where
# trafilatura, on lxml's tree, which libxml2 stops nesting at 256, took 0.14 s for
# 200 000. A page our lxml pass finds nested this deep goes to trafilatura. Below it,
# 5 MB of <div> chains 250 deep took resiliparse 2.3 s and trafilatura 14 s.
DEEP = 256


def extract_resiliparse(html: str) -> str:
    """resiliparse's main content, blocks apart by a blank line ("" when it finds none)."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    text = extract_plain_text(
        HTMLTree.parse(html),
        preserve_formatting=True,
        main_content=True,
        list_bullets=False,
        alt_texts=False,
        comments=False,
    )
    return text.strip()


def extract_trafilatura(html: str) -> str:
    """trafilatura's main text, fast mode, tables kept ("" when it finds none)."""
    import trafilatura

    return trafilatura.extract(html, options=_trafilatura_options()) or ""


@cache
def _trafilatura_options():
    """One `trafilatura.settings.Extractor` for every page: `extract` otherwise builds one
    a call, reading eight settings through configparser, 0.15 ms of its 5.3 ms a page
    (1 000 crawled pages, 60 interleaved batches, the same texts; issue 19). trafilatura
    only reads it (a recall retry works on a copy), so threads may share it."""
    from trafilatura.settings import Extractor

    return Extractor(fast=True, comments=False, tables=True, dedup=False)


def _resiliparse_else_trafilatura(html: str) -> str:
    return extract_resiliparse(html) or extract_trafilatura(html)


EXTRACTORS: dict[str, Callable[[str], str]] = {
    "resiliparse": _resiliparse_else_trafilatura,
    "trafilatura": extract_trafilatura,
}


def main_text(html: str, fallback: str, extractor: str = "resiliparse", depth: int = 0) -> str:
    r"""The page's main text by `extractor` (a key of EXTRACTORS), else `fallback`; a page
    whose elements nest `DEEP` deep (`ParsedPage.depth`) goes to trafilatura.

    >>> page = "<html><body><nav><a href='/'>Home</a></nav><article><h1>Rain</h1>"
    >>> page += "<p>Heavy rain flooded the old town's streets overnight.</p>"
    >>> page += "<p>The river rose two metres by dawn.</p></article></body></html>"
    >>> for block in main_text(page, "body text").split("\n\n"):  # no menu; blank lines
    ...     print(block)
    Rain
    Heavy rain flooded the old town's streets overnight.
    The river rose two metres by dawn.
    >>> main_text("<html><body></body></html>", "body text")
    'body text'
    """
    if depth >= DEEP:
        extractor = "trafilatura"
    return EXTRACTORS[extractor](html) or fallback
