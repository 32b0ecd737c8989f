"""One selected link, fetched and analysed: the record the crawl folds in and the run log keeps.

Workers make it (crawl/analyse.py), `Crawl.fold` reads it and returns what it
decided (crawl/core.py: `Decision`), the run state stores the two together
(crawl/state.py), and replay folds the stored records back in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A page refused because its host's robots.txt could not be read (5xx, timeout: SPEC §6,
# "disallow for now and retry later")…
ROBOTS_DOWN = "robots unreachable"
# …as the run log keeps it when the crawl asks for the page again later (`Crawl.fold`):
# no failure of the URL, whose last outcome says what became of it.
DEFERRED = "robots unreachable, asked again later"


@dataclass
class Outcome:
    """One selected link, fetched and analysed: the unit the run log stores and replays.

    `reason` is None for a downloaded page (a DP); otherwise it says why not
    (a fetch failure, or `duplicate of URL`). `counts` maps a topic-word index to
    its occurrences per tag group (Table 1), `mentions` to its occurrences in the
    main text; `links` are the page's out-links as (canonical URL, anchor text), and
    `anchor_counts[j]` the topic words in link j's anchor (f_{i,j} of Eq. 5),
    `url_counts[j]` and `context_counts[j]` those of its URL and context (§4.3 turn 2).
    """

    url: str
    final_url: str
    status: int | None
    reason: str | None
    fetched_at: int
    seconds: float
    host: str
    title: str = ""
    text: str = ""
    lang: str = ""
    length: int = 0
    content_hash: str = ""
    simhash: int = 0
    counts: dict[int, list[int]] = field(default_factory=dict)
    mentions: dict[int, int] = field(default_factory=dict)
    links: list[tuple[str, str]] = field(default_factory=list)
    anchor_counts: list[dict[int, int]] = field(default_factory=list)
    url_counts: list[dict[int, int]] = field(default_factory=list)  # [] in runs logged before
    context_counts: list[dict[int, int]] = field(default_factory=list)
    # Filled in when the crawl folds the outcome in:
    seq: int = 0
    relevance: float | None = None
    relevant: bool = False
    link_scores: list[tuple[float, float]] = field(default_factory=list)  # (R(A), P) per link

    @property
    def downloaded(self) -> bool:
        return self.reason is None
