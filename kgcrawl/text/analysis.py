"""A downloaded page as the scoring needs it: topic-word counts per tag group, links, length.

Each link gets the topic words of its three evidence sources (SPEC §4.3 turn 2):
the anchor text, the URL's words (`text.url_words`) and, when a window is asked
for, the words around it (`text.html.link_context`); `scoring.evidence` weighs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kgcrawl.text.html import GROUPS, OutLink, ParsedPage, parse_html
from kgcrawl.text.matching import TopicMatcher, token_length
from kgcrawl.text.tokenize import lang_of
from kgcrawl.text.url_words import url_words


@dataclass(frozen=True, slots=True)
class LinkOptions:
    """How a page's links are read: the context window in words (0: none), host words as
    URL evidence, and at most `max_links` links (None: all)."""

    context_words: int = 0
    url_host: bool = False
    max_links: int | None = None


NO_CONTEXT = LinkOptions()
# A site's menus link the same URLs from each of its pages: over the 3 000 pages of a
# fcits_oh crawl of the default sandbox (23 links a page, 24 % of them distinct) this
# cache answers 76 % of the calls, for ≈ 3 MB, and the URLs' words take 0.07 ms a page
# instead of 0.21 (issue 19).
_url_words = lru_cache(maxsize=1 << 14)(url_words)


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    """`counts[i, k - 1]` = occurrences of topic word i in tag group k (f_{i,k} of Eq. 3).

    `anchor_counts[j]` holds the topic words of `links[j]`'s anchor text (f_{i,j}
    of Eq. 5, only the words present), `url_counts[j]` and `context_counts[j]` those
    of its URL and its context; `length` is the page length in tokens (dl).
    """

    parsed: ParsedPage
    counts: np.ndarray
    anchor_counts: tuple[dict[int, int], ...]
    length: int
    url_counts: tuple[dict[int, int], ...] = ()
    context_counts: tuple[dict[int, int], ...] = ()

    @property
    def url(self) -> str:
        return self.parsed.url

    @property
    def title(self) -> str:
        return self.parsed.title

    @property
    def links(self) -> tuple[OutLink, ...]:
        return self.parsed.links

    @property
    def lang(self) -> str:
        """The page's language (`lang_of`), told by its first 4 000 visible characters."""
        return lang_of(self.parsed.text[:4000])

    @property
    def present(self) -> np.ndarray:
        """Which topic words the page contains (for N_i of Eq. 5)."""
        return self.counts.any(axis=1)


def analyse_page(
    body: bytes,
    url: str,
    matcher: TopicMatcher,
    charset: str = "utf-8",
    options: LinkOptions = NO_CONTEXT,
) -> PageAnalysis:
    """Parse the bytes once (in the fetcher's `charset`), count topic words per group and link.

    At most `options.max_links` out-links are kept (the first in document order).
    """
    parsed = parse_html(body, url, charset, options.context_words, options.max_links)
    counts = np.zeros((matcher.n, GROUPS), dtype=np.int32)
    for k, text in enumerate(parsed.groups):
        for i, c in matcher.count_sparse(text).items():
            counts[i, k] = c
    return PageAnalysis(
        parsed=parsed,
        counts=counts,
        anchor_counts=tuple(matcher.count_sparse(link.anchor) for link in parsed.links),
        length=token_length(parsed.text),
        url_counts=tuple(
            matcher.count_sparse(_url_words(link.url, options.url_host)) for link in parsed.links
        ),
        context_counts=tuple(
            matcher.count_sparse(link.context) if link.context else {} for link in parsed.links
        ),
    )
