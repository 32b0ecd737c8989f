"""One lxml pass over a page: the tag groups of Table 1, the title, the out-links.

SPEC §4.1: text counts once, in the innermost group element that holds it;
`<script>`, `<style>`, `<noscript>`, `<template>` and comments are ignored.
Group 1 also takes the `content` of `<meta name=keywords|description>`.
Text pieces of one group are glued as the browser shows them: nothing between
inline elements (`暴雨<a>灾害</a>` reads 暴雨灾害), a line break at block
boundaries and wherever text of another group came in between, so a label is
never made of two pieces that are apart on the page.

Links are made absolute (`<base href>` honoured) and canonical (`text.urls`);
besides `<a>` and `<area>`, the pages a browser would show in its place or inside
it are links too: `<frame>` and `<iframe>` sources and a `<meta http-equiv=refresh>`
target, as the framesets and "this page has moved" notes of older webs need.
`<noframes>` is skipped like `<noscript>` (lxml hands its markup over as text), and
a page whose `<meta name=robots>` says nofollow (or none) gives no links. A link
found twice on a page keeps one entry with both anchor texts (and both contexts,
`link_context`, when asked for). A hostile page loses only what is bad
in it: an href no URL parser accepts drops that link, a `<base href>` that is not
an http(s) URL is ignored (as browsers do), and once `max_links` distinct links
(document order) are found, later anchors are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgcrawl.text.urls import canonical_url, link_url

# Table 1 (SPEC §4.1): the innermost of these elements decides a text's group.
GROUP_OF_TAG: dict[str, int] = {
    "title": 1,
    "h1": 1,
    "h2": 2,
    "h3": 2,
    "h4": 3,
    "h5": 3,
    "h6": 3,
    "b": 3,
    "strong": 3,
    "p": 4,
    "td": 4,
    "li": 4,
}
GROUPS = 5
_OTHER = 5  # all other visible text
_HIDDEN = 0  # <head> content other than the title
_SKIPPED = frozenset({"script", "style", "noscript", "noframes", "template"})
_META_GROUP_1 = frozenset({"keywords", "description"})
_FRAMES = frozenset({"frame", "iframe"})  # their `src` is a page shown in this one
_NOFOLLOW = frozenset({"nofollow", "none"})  # <meta name=robots> words that forbid links
# Elements that flow inside a line: no break between their text and the text around them.
_INLINE = frozenset(
    {
        *("a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em"),
        *("font", "i", "img", "ins", "kbd", "label", "mark", "q", "s", "samp", "small"),
        *("span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var"),
    }
)


@dataclass(frozen=True, slots=True)
class OutLink:
    """A link of the page: canonical absolute URL, anchor text (fallbacks applied), context."""

    url: str
    anchor: str
    context: str = ""


@dataclass(frozen=True, slots=True)
class ParsedPage:
    """What one pass over the HTML gives; `groups[k - 1]` is the text of Table 1 group k."""

    url: str
    title: str
    groups: tuple[str, str, str, str, str]
    links: tuple[OutLink, ...]
    depth: int = 0  # how deep elements nest (libxml2 stops at 256), for `text.main_text`

    @property
    def text(self) -> str:
        """All visible text, group by group."""
        return "\n".join(self.groups)


# A refresh's content: the seconds, a separator, then the URL (after an optional `url=`).
_REFRESH = re.compile(r"\s*[\d.]+\s*[;,\s]\s*(?:url\s*=\s*)?(.*)", re.IGNORECASE | re.DOTALL)


def refresh_target(content: str) -> str | None:
    """Where `<meta http-equiv=refresh content=…>` sends the browser (WHATWG HTML, "shared
    declarative refresh steps"), or None if it only reloads the page.

    >>> refresh_target("0; URL='moved.html'"), refresh_target("5;url=/new/")
    ('moved.html', '/new/')
    >>> refresh_target("30") is None, refresh_target("0; url=") is None
    (True, True)
    """
    found = _REFRESH.match(content)
    target = found.group(1).strip() if found else ""
    if target[:1] in ("'", '"'):
        target = target[1:].split(target[0], 1)[0]
    return target or None


def parse_html(
    body: bytes,
    url: str,
    charset: str = "utf-8",
    context_words: int = 0,
    max_links: int | None = None,
) -> ParsedPage:
    """Tag groups, title and out-links of a page, in one pass over the lxml tree.

    `charset` is the one the fetcher settled on (`crawl.decode`); lxml gets the
    text as UTF-8 bytes with that encoding named, so a `<meta charset>` that
    contradicts the fetcher cannot make it decode the page a second time, wrongly.
    With `context_words` > 0 each link also gets its `link_context`.
    """
    from lxml import etree

    page_url = canonical_url(url) or url
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True
    )
    data = body.decode(charset, "replace").encode("utf-8", "replace")
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        root = None
    walker = _Walker(page_url, context_words, max_links)
    if root is not None:
        walker.walk(etree.iterwalk(root, events=("start", "end")))
    return ParsedPage(
        url=page_url,
        title=walker.title,
        groups=tuple("".join(pieces).strip() for pieces in walker.pieces),  # type: ignore[arg-type]
        links=()
        if walker.nofollow
        else tuple(
            OutLink(link, " ".join(anchors), " ".join(walker.contexts.get(link, ())))
            for link, anchors in walker.links.items()
        ),
        depth=walker.depth,
    )


class _Anchor:
    """An open `<a href>`: its text so far and its fallbacks."""

    __slots__ = ("alt", "element", "pieces", "title", "url")

    def __init__(self, element, url: str, title: str) -> None:
        self.element = element
        self.url = url
        self.title = title
        self.alt = ""
        self.pieces: list[str] = []

    def text(self) -> str:
        for candidate in ("".join(self.pieces), self.title, self.alt):
            words = candidate.split()
            if words:
                return " ".join(words)
        return ""


class _Walker:
    """The state of the single pass: group stack, skip depth, open anchors, output."""

    def __init__(self, url: str, context_words: int = 0, max_links: int | None = None) -> None:
        self.context_words = context_words
        self.contexts: dict[str, list[str]] = {}
        self.base = url
        self.max_links = max_links
        self.base_set = False
        self.title = ""
        self.pieces: list[list[str]] = [[] for _ in range(GROUPS)]
        self.links: dict[str, list[str]] = {}
        self.groups: list[int] = [_OTHER]
        self.anchors: list[_Anchor] = []
        self.last_group = 0
        self.boundary = True
        self.nofollow = False
        self.depth = 0

    def emit(self, text: str | None, group: int) -> None:
        if not text or group == _HIDDEN:
            return
        if group != self.last_group or self.boundary:
            self.pieces[group - 1].append("\n")
            self.boundary = False
            self.last_group = group
        self.pieces[group - 1].append(text)
        for anchor in self.anchors:
            anchor.pieces.append(text)

    def walk(self, events) -> None:
        skip = 0
        for event, el in events:
            tag = el.tag
            if not isinstance(tag, str):
                continue
            tag = tag.lower()
            if event == "start":
                if skip or tag in _SKIPPED:
                    skip += 1
                    continue
                self.start(el, tag)
                continue
            if skip:
                skip -= 1
                if skip == 0:
                    self.emit(el.tail, self.groups[-1])
                continue
            self.end(el, tag)

    def start(self, el, tag: str) -> None:
        parent = self.groups[-1]
        group = _HIDDEN if tag == "head" else GROUP_OF_TAG.get(tag, parent)
        self.groups.append(group)
        self.depth = max(self.depth, len(self.groups) - 1)
        if tag not in _INLINE:
            self.boundary = True
        if tag == "title" and not self.title:
            self.title = " ".join("".join(el.itertext()).split())
        elif tag == "meta":
            self.meta(el)
        elif tag == "base" and not self.base_set and el.get("href"):
            self.base = link_url(el.get("href"), self.base) or self.base
            self.base_set = True
        elif tag in ("a", "area") and el.get("href") is not None:
            url = self.add_link(el.get("href"))  # its text comes in until the element ends
            if url is not None:
                self.anchors.append(_Anchor(el, url, el.get("title") or ""))
        elif tag in _FRAMES and el.get("src"):
            self.add_link(el.get("src"), el.get("title") or "")
        elif tag == "img" and self.anchors and not self.anchors[-1].alt:
            self.anchors[-1].alt = el.get("alt") or ""
        self.emit(el.text, group)

    def meta(self, el) -> None:
        name = (el.get("name") or "").lower()
        content = el.get("content") or ""
        if name in _META_GROUP_1:
            self.emit(content, 1)
            self.boundary = True
        elif name == "robots":
            self.nofollow |= not _NOFOLLOW.isdisjoint(re.split(r"[\s,]+", content.lower()))
        elif (el.get("http-equiv") or "").lower() == "refresh":
            target = refresh_target(content)
            if target is not None:
                self.add_link(target)

    def add_link(self, href: str, anchor: str = "") -> str | None:
        """The link's URL, recorded where it first appears (document order), with `anchor`
        as its text if given (a frame's title); None if it is no http(s) URL or the page is
        full."""
        url = None if self._full() else link_url(href, self.base)
        if url is not None:
            texts = self.links.setdefault(url, [])
            if anchor.split():
                texts.append(" ".join(anchor.split()))
        return url

    def _full(self) -> bool:
        return self.max_links is not None and len(self.links) >= self.max_links

    def end(self, el, tag: str) -> None:
        self.groups.pop()
        if tag not in _INLINE:
            self.boundary = True
        if self.anchors and self.anchors[-1].element is el:
            anchor = self.anchors.pop()
            text = anchor.text()
            if text:
                self.links[anchor.url].append(text)
            if self.context_words:
                context = link_context(el, self.context_words)
                if context:
                    self.contexts.setdefault(anchor.url, []).append(context)
        self.emit(el.tail, self.groups[-1])


# -- the words around a link (anchor evidence, SPEC §4.3 turn 2) -----------------------

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_UNIT = re.compile(f"[{_HAN}]|[^\\s{_HAN}]+")  # a Chinese character, or a Latin word
_HAN_UNIT = re.compile(f"[{_HAN}]")
_WORDLIKE = re.compile(r"[^\W_]")
HAN_PER_WORD = 1.9  # Chinese characters per word (text.matching.CJK_CHARS_PER_TOKEN)


class _Window:
    """Word units on one side of a link, nearest first, up to `words` words."""

    __slots__ = ("cost", "limit", "units")

    def __init__(self, words: int) -> None:
        self.units: list[str] = []
        self.cost = 0.0
        self.limit = words * HAN_PER_WORD  # a Chinese character costs 1, a Latin word 1.9

    @property
    def full(self) -> bool:
        return self.cost >= self.limit

    def take(self, text: str | None, forward: bool) -> None:
        if not text or self.full:
            return
        units = _UNIT.findall(text)
        for unit in units if forward else reversed(units):
            if self.full:
                return
            self.units.append(unit)
            if _HAN_UNIT.match(unit):
                self.cost += 1.0
            elif _WORDLIKE.search(unit):  # punctuation is free
                self.cost += HAN_PER_WORD


def link_context(el, words: int) -> str:
    """Up to `words` words each side of the link element `el`, inside its enclosing block.

    The block is the nearest ancestor that is not an inline element (a `<p>`,
    `<li>`, `<td>`, `<div>`): the sentence or list entry the link sits in. The
    link's own text is left out (it is the anchor), hidden elements too. The
    walk goes outwards from the link sibling by sibling and stops when the
    window is full, so a block with many links costs O(window) per link.
    """
    before, after = _Window(words), _Window(words)
    node = el
    while node is not None:
        after.take(node.tail, forward=True)
        sibling = node.getnext()
        while sibling is not None and not after.full:
            after.take(_text_of(sibling), forward=True)
            after.take(sibling.tail, forward=True)
            sibling = sibling.getnext()
        sibling = node.getprevious()
        while sibling is not None and not before.full:
            before.take(sibling.tail, forward=False)
            before.take(_text_of(sibling), forward=False)
            sibling = sibling.getprevious()
        parent = node.getparent()
        if parent is None:
            break
        before.take(parent.text, forward=False)
        if not isinstance(parent.tag, str) or parent.tag.lower() not in _INLINE:
            break
        node = parent
    return f"{_join(before.units[::-1])} {_join(after.units)}".strip()


def _text_of(el) -> str:
    """The visible text of an element and its descendants (not its tail)."""
    if not isinstance(el.tag, str) or el.tag.lower() in _SKIPPED:
        return ""
    return " ".join(el.itertext())


def _join(units: list[str]) -> str:
    """Units back to text: Chinese characters glued together, Latin words apart (the two
    sides are joined with a space, so no label is read across the link)."""
    out: list[str] = []
    for unit in units:
        if out and not (_HAN_UNIT.match(unit) and _HAN_UNIT.match(out[-1])):
            out.append(" ")
        out.append(unit)
    return "".join(out)
