"""A page plan → HTML, with its text drawn from the lexicons.

The world decides what a page is (its topic mixture, title, links); this module
writes it the way real sites do: title, meta keywords and description, a nav
bar, breadcrumbs, headings, paragraphs with inline links and bold words,
tables, lists, figures with `alt`, side boxes, pagers and a footer, plus the
script and style blocks and comments a parser must ignore. Text words are drawn
from each topic's vocabulary in proportion to the page's mixture, mixed with
filler words, so the latent shares are what the text shows.

A malformed page (hazard) is written by the same code with sloppy habits:
unclosed `<p>`/`<li>`/`<td>`, unquoted attributes, misnested `<b><p>`, bare `&`
and `<`, stray end tags and no `</body></html>`.
"""

from __future__ import annotations

import datetime as dt
import html
import itertools
import random
from dataclasses import dataclass, field
from functools import cache

from kgcrawl.sandbox.lexicon import Vocabulary, filler, vocabulary

TOPICAL_FRACTION = (0.45, 0.6)  # share of topic words among all words of a text


@dataclass(frozen=True)
class Link:
    """An anchor as written: href, text, optional title attribute, or an image with alt."""

    href: str
    text: str
    title: str = ""
    alt: str = ""
    image: int = -1  # image number when the anchor holds an <img>


@dataclass
class Section:
    """One block of a page body."""

    kind: str  # text | links | table | posts | figure | pager | events | listing | prose
    heading: str = ""
    links: list[Link] = field(default_factory=list)
    count: int = 0  # paragraphs, rows, posts
    notes: list[str] = field(default_factory=list)  # per link: a date, a description, or
    # (prose) the sentence the link sits in, "{}" marking its place


@dataclass
class Plan:
    """Everything the world decided about a page; the text is drawn when rendering."""

    lang: str
    title: str
    mixture: tuple[tuple[str, float], ...]
    site: str  # site title, for headers and footers
    home: str  # absolute URL of the site's home
    text_key: int  # seed of the text stream
    topbar: list[Link] = field(default_factory=list)  # site-wide links above the logo
    nav: list[Link] = field(default_factory=list)
    crumbs: list[Link] = field(default_factory=list)
    body: list[Section] = field(default_factory=list)
    side: list[Section] = field(default_factory=list)
    footer: list[Link] = field(default_factory=list)
    date: dt.date | None = None
    html5: bool = True
    malformed: bool = False
    printable: bool = False  # printer copy: body only
    register: str = "full"  # which part of the domain lexicons the text draws on (lexicon.NARROW)

    def links(self) -> list[Link]:
        """Every real link of the page, in document order."""
        out = [*self.topbar, *self.nav, *self.crumbs]
        for section in (*self.body, *self.side):
            out.extend(section.links)
        return out + self.footer


@cache
def _probabilities(vocab: Vocabulary) -> tuple[float, ...]:
    """Each word's probability within a lexicon vocabulary (a fixed few: cached for good)."""
    total = vocab.cum_weights[-1]
    return tuple((b - a) / total for a, b in itertools.pairwise((0.0, *vocab.cum_weights)))


class Writer:
    """Draws words, sentences and paragraphs for a topic mixture.

    Every word is drawn from one blended vocabulary: topic words with probability
    `fraction` split by the mixture's shares, filler words otherwise.
    """

    def __init__(
        self,
        rng: random.Random,
        mixture: tuple[tuple[str, float], ...],
        lang: str,
        register: str = "full",
    ):
        self.rng = rng
        self.lang = lang
        self.mixture = mixture
        self.fraction = rng.uniform(*TOPICAL_FRACTION)
        parts = [(vocabulary(t, lang, register), share) for t, share in mixture]
        words = tuple(w for vocab, _ in parts for w in vocab.words)
        weights = [p * share for vocab, share in parts for p in _probabilities(vocab)]
        self._topical = Vocabulary(words, tuple(itertools.accumulate(weights)))
        fill, f = filler(lang), self.fraction
        blended = itertools.chain(
            (w * f for w in weights), (p * (1 - f) for p in _probabilities(fill))
        )
        self._all = Vocabulary(words + fill.words, tuple(itertools.accumulate(blended)))
        self._topic_words = frozenset(words)

    def topical(self, n: int) -> list[str]:
        """n topic words, drawn by the mixture's shares."""
        vocab = self._topical
        return self.rng.choices(vocab.words, cum_weights=vocab.cum_weights, k=n)

    def words(self, n: int, bold: float = 0.0) -> list[str]:
        """n words, topic words and filler mixed; about `bold` of the topic words in <strong>."""
        rng = self.rng
        out = rng.choices(self._all.words, cum_weights=self._all.cum_weights, k=n)
        for _ in range(int(n * self.fraction * bold + rng.random())):
            i = rng.randrange(n)
            if out[i] in self._topic_words:
                out[i] = f"<strong>{out[i]}</strong>"
        return out

    def sentence_text(self, words: list[str]) -> str:
        rng = self.rng
        if self.lang == "zh":
            clauses, i = [], 0
            while i < len(words):
                step = 3 + int(rng.random() * 6)
                clauses.append("".join(words[i : i + step]))
                i += step
            return "，".join(clauses) + "。"
        text = " ".join(words)
        return text[:1].upper() + text[1:] + "."

    def paragraph(self, n_words: int, inline: list[str] = (), bold: float = 0.03) -> str:
        """A paragraph of about n words; `inline` HTML snippets (anchors) are placed inside."""
        rng = self.rng
        words = self.words(n_words, bold)
        for snippet in inline:
            words.insert(rng.randrange(len(words) + 1), snippet)
        sentences, i = [], 0
        while i < len(words):
            step = 8 + int(rng.random() * 11)
            sentences.append(self.sentence_text(words[i : i + step]))
            i += step
        return ("" if self.lang == "zh" else " ").join(sentences)

    def phrase(self, n: int) -> str:
        return ("" if self.lang == "zh" else " ").join(self.topical(max(1, n)))


def _a(link: Link, malformed: bool) -> str:
    href = html.escape(link.href, quote=True)
    attr = f"href={href}" if malformed and " " not in href and '"' not in href else f'href="{href}"'
    if link.title:
        attr += f' title="{html.escape(link.title, quote=True)}"'
    if link.image >= 0:
        alt = html.escape(link.alt, quote=True)
        img = f'<img src="/images/{link.image}.png" alt="{alt}" width="120" height="80">'
        return f"<a {attr}>{img}</a>"
    return f"<a {attr}>{html.escape(link.text, quote=False)}</a>"


class _Out:
    """HTML assembly with the page's good or sloppy habits."""

    def __init__(self, malformed: bool):
        self.parts: list[str] = []
        self.malformed = malformed

    def add(self, *chunks: str) -> None:
        self.parts.extend(chunks)

    def close(self, tag: str) -> str:
        return "" if self.malformed and tag in ("p", "li", "td") else f"</{tag}>"


def render(plan: Plan, charset_meta: str) -> str:
    """The HTML of a plan; its `text_key` seeds the text, so the same plan gives the same bytes.

    `charset_meta` is the `<meta>` line declaring the encoding, or "" for none.
    """
    rng = random.Random(plan.text_key)
    w = Writer(rng, plan.mixture, plan.lang, plan.register)
    out = _Out(plan.malformed)
    zh = plan.lang == "zh"
    keywords = ("," if zh else ", ").join(dict.fromkeys(w.topical(8)))
    description = w.paragraph(24, bold=0.0)
    lang_attr = "zh-CN" if zh else "en"
    out.add(
        "<!DOCTYPE html>\n",
        f'<html lang="{lang_attr}">\n<head>\n',
        charset_meta,
        f"<title>{html.escape(plan.title)}</title>\n",
        f'<meta name="keywords" content="{html.escape(keywords)}">\n',
        f'<meta name="description" content="{html.escape(description)}">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        "<style>body{font-family:sans-serif}.nav li{display:inline;margin:0 6px}</style>\n",
        '<script>var _hmt = _hmt || []; var pageTopic = "' + w.phrase(2) + '";</script>\n',
        "</head>\n<body>\n",
    )
    if plan.printable:
        _article_body(out, w, plan, rng)
        out.add("</body>\n</html>\n")
        return "".join(out.parts)
    _header(out, plan, rng)
    out.add('<div class="main">\n')
    if plan.crumbs:
        sep = " &gt; "
        out.add(
            '<div class="crumbs">', sep.join(_a(c, out.malformed) for c in plan.crumbs), "</div>\n"
        )
    _article_body(out, w, plan, rng)
    out.add("</div>\n")
    if plan.side:
        out.add('<div class="side">\n')
        for section in plan.side:
            _section(out, w, section, rng)
        out.add("</div>\n")
    _footer(out, plan, w)
    return "".join(out.parts)


def _header(out: _Out, plan: Plan, rng: random.Random) -> None:
    tag = "nav" if plan.html5 else "div"
    site = html.escape(plan.site)
    if plan.topbar:
        links = " | ".join(_a(link, out.malformed) for link in plan.topbar)
        out.add(f'<div class="topbar">{links}</div>\n')
    out.add(f'<div class="top"><a href="{html.escape(plan.home)}" class="logo">{site}</a></div>\n')
    out.add(f'<{tag} class="nav"><ul>')
    for link in plan.nav:
        out.add("<li>", _a(link, out.malformed), out.close("li"))
    out.add(f"</ul></{tag}>\n")
    if out.malformed:
        out.add(
            "</span></div>\n<div class=banner><b><p>",
            html.escape(plan.site),
            " &nbsp; A&B < 30</b></p>\n",
        )
        out.add('<!-- <a href="/hidden/commented.html">旧链接</a> -->\n')
        out.add(
            "<script>document.write('<a href=\"/hidden/script.html\">script link</a>');</script>\n"
        )


def _article_body(out: _Out, w: Writer, plan: Plan, rng: random.Random) -> None:
    out.add(f"<h1>{html.escape(plan.title)}</h1>\n")
    if plan.date is not None:
        label = ("发布时间：", "来源：") if plan.lang == "zh" else ("Published: ", "Source: ")
        site = html.escape(plan.site)
        out.add(f'<div class="info">{label[0]}{plan.date:%Y-%m-%d} {label[1]}{site}</div>\n')
    for section in plan.body:
        _section(out, w, section, rng)


def _section(out: _Out, w: Writer, section: Section, rng: random.Random) -> None:
    kind, m = section.kind, out.malformed
    if section.heading:
        level = "h2" if kind in ("text", "links", "listing") else "h3"
        out.add(f"<{level}>{html.escape(section.heading)}</{level}>\n")
    if kind == "text":
        inline = [_a(link, m) for link in section.links]
        for i in range(section.count):
            here = inline[i :: section.count] if section.count else []
            out.add("<p>", w.paragraph(rng.randint(30, 90), here), out.close("p"), "\n")
        return
    if kind in ("links", "listing"):
        out.add("<ul>\n")
        for i, link in enumerate(section.links):
            note = section.notes[i] if i < len(section.notes) else ""
            extra = f" <span>{html.escape(note)}</span>" if note else ""
            out.add("<li>", _a(link, m), extra, out.close("li"), "\n")
        out.add("</ul>\n")
        return
    if kind == "prose":
        for link, sentence in zip(section.links, section.notes, strict=True):
            before, _, after = sentence.partition("{}")
            out.add("<p>", html.escape(before), _a(link, m), html.escape(after))
            out.add(out.close("p"), "\n")
        return
    if kind == "table":
        cols = rng.randint(3, 5)
        out.add("<table>\n<tr>", "".join(f"<th>{w.phrase(1)}</th>" for _ in range(cols)), "</tr>\n")
        for _ in range(section.count):
            cells = [w.phrase(1)] + [str(rng.randint(1, 999)) for _ in range(cols - 1)]
            out.add("<tr>", "".join(f"<td>{c}{out.close('td')}" for c in cells), "</tr>\n")
        out.add("</table>\n")
        return
    if kind == "figure":
        for link in section.links:
            out.add("<figure>", _a(link, m), f"<figcaption>{w.phrase(3)}</figcaption></figure>\n")
        return
    if kind == "posts":
        _posts(out, w, section, rng)
        return
    if kind == "pager":
        out.add('<div class="pager">', " ".join(_a(link, m) for link in section.links), "</div>\n")
        return
    if kind == "events":
        out.add("<ul>\n")
        for _ in range(section.count):
            out.add("<li>", w.phrase(4), out.close("li"), "\n")
        out.add("</ul>\n")
        for link in section.links:
            out.add(_a(link, m), "\n")
        return
    raise AssertionError(kind)


def _posts(out: _Out, w: Writer, section: Section, rng: random.Random) -> None:
    spam = {i % max(1, section.count): link for i, link in enumerate(section.links)}
    for i in range(section.count):
        user = f"{'游客' if w.lang == 'zh' else 'user'}{rng.randint(1000, 99999)}"
        out.add(f'<div class="post"><div class="author"><b>{user}</b></div>\n<div class="content">')
        inline = [_a(spam[i], out.malformed)] if i in spam else []
        out.add("<p>", w.paragraph(rng.randint(15, 60), inline), out.close("p"), "</div></div>\n")


def _footer(out: _Out, plan: Plan, w: Writer) -> None:
    tag = "footer" if plan.html5 else "div"
    links = " | ".join(_a(link, out.malformed) for link in plan.footer)
    site = html.escape(plan.site)
    if plan.lang == "zh":
        notice = f"Copyright © 2024 {site} 版权所有 ICP备{w.rng.randint(10000000, 99999999)}号"
    else:
        notice = f"Copyright © 2024 {site}. All rights reserved."
    out.add(f'<{tag} class="footer"><p>{links}</p><p>{notice}</p></{tag}>\n')
    if not out.malformed:
        out.add("</body>\n</html>\n")
