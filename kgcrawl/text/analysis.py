"""A downloaded page as the scoring needs it: topic-word counts per tag group, links, length."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kgcrawl.text.html import GROUPS, OutLink, ParsedPage, parse_html
from kgcrawl.text.matching import TopicMatcher, token_length


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    """`counts[i, k - 1]` = occurrences of topic word i in tag group k (f_{i,k} of Eq. 3).

    `anchor_counts[j]` holds the topic words of `links[j]`'s anchor text (f_{i,j}
    of Eq. 5, only the words present); `length` is the page length in tokens (dl).
    """

    parsed: ParsedPage
    counts: np.ndarray
    anchor_counts: tuple[dict[int, int], ...]
    length: int

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
    def present(self) -> np.ndarray:
        """Which topic words the page contains (for N_i of Eq. 5)."""
        return self.counts.any(axis=1)


def analyse_page(
    body: bytes,
    url: str,
    matcher: TopicMatcher,
    charset: str = "utf-8",
    max_links: int | None = None,
) -> PageAnalysis:
    """Parse the bytes once (in the fetcher's `charset`), count topic words per group and anchor.

    At most `max_links` out-links are kept (the first in document order).
    """
    parsed = parse_html(body, url, charset, max_links)
    counts = np.zeros((matcher.n, GROUPS), dtype=np.int32)
    for k, text in enumerate(parsed.groups):
        for i, c in matcher.count_sparse(text).items():
            counts[i, k] = c
    return PageAnalysis(
        parsed=parsed,
        counts=counts,
        anchor_counts=tuple(matcher.count_sparse(link.anchor) for link in parsed.links),
        length=token_length(parsed.text),
    )
