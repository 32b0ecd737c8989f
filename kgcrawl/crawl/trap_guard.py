"""The trap guard: how many new links one URL template of a host may breed by itself.

A crawler trap is a site that makes up URLs without end: an events calendar
whose every month and day links to the next ones, session ids, generated
archives. Each of its pages looks fine; what gives it away is that pages of one
URL *template* keep linking to new URLs of that same template. The template of
a URL is its host and its path and query with every run of digits (and the
separators between them: `2024-06-17`, `20240617_123`) written `#`, so
`/calendar/2024-06.html` and `/calendar/1999-01-31.html` are one template, and
an article `/travel/202406/t20240617_123.html` another.

The guard counts, per (host, template), the new links that pages of that
template brought into the frontier (links of a template found on other pages,
home pages, lists, other hosts, are not counted and always admitted). Past
`cap` such links, a new link found on a page of its own template is not
admitted: it is counted as trapped and scored 0. `Crawl.fold` asks it for every
link it has not seen, in log order, so a replayed run rebuilds the same counts.

**Interpretation** (SPEC §12 lists endless calendars among the hazards; §6 says
nothing of them). The guard sits at frontier admission, inside `fold`, so it
holds for every strategy, and a trap page already queued is still fetched. The
default `trap_cap` = 100 was chosen with `python benchmarks/bench_traps.py`
(sequential crawls, seed 0, shipped tourism pipeline):
- entered at a calendar (small world, seeds: the calendar and its host's home),
  calendar pages fetched of 1 000, cap 0 → 50 → 100: BFS 292 → 53 → 103,
  FCOSA_G 36 → 35 → 36, MOACO 35 → 35 → 35, FCSA 13 → 9 → 13; of 300: BFS
  131 → 51 → 101, the other strategies 0–35 at every cap;
- normal crawls of 1 000 pages, every strategy, profiles default, sparse and flat
  (30 crawls), true harvest with cap 0 → 100: 27 unchanged; FCOSA_LG 93.6 → 94.0 %
  (default) and 89.5 → 89.1 % (flat), FCSA 76.5 → 76.6 % (flat). Sparse pages breed at
  most 7 links of their own template, so no cap ≥ 8 changes its crawls. Cap 50
  changed 13 of the 30 harvests (−1.2 to +0.6 points; FCITS on flat −1.2) and kept
  out up to 725 links of ordinary templates (forum threads linking threads) per
  crawl, where 100 kept out 0–472.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlsplit

_DIGIT_RUN = re.compile(r"\d+(?:[-_.:/]\d+)*")


def url_template(url: str) -> tuple[str, str]:
    """(host, path?query with digit runs as `#`): the pages a site makes from one pattern.

    >>> url_template("http://www.a.cn/calendar/2024-06-17.html?page=3")
    ('www.a.cn', '/calendar/#.html?page=#')
    >>> url_template("http://www.a.cn/travel/202406/t20240617_123.html")
    ('www.a.cn', '/travel/#/t#.html')
    """
    parts = urlsplit(url)
    shape = parts.path + (f"?{parts.query}" if parts.query else "")
    return (parts.hostname or "", _DIGIT_RUN.sub("#", shape))


class TrapGuard:
    """Admits new links until a (host, template) has bred `cap` of them itself; 0 = no guard."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.bred: Counter[tuple[str, str]] = Counter()
        self._page: tuple[str, tuple[str, str]] = ("", ("", ""))  # the last page and its template

    def admits(self, page_url: str, url: str) -> bool:
        """Whether `url`, not seen before and found on `page_url`, may join the frontier."""
        if not self.cap:
            return True
        if self._page[0] != page_url:  # a page's links come one after another
            self._page = (page_url, url_template(page_url))
        template = url_template(url)
        if template != self._page[1]:
            return True
        if self.bred[template] >= self.cap:
            return False
        self.bred[template] += 1
        return True
