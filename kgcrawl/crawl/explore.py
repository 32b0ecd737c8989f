"""Exploration: a focused crawl that has found nothing fetches the pages most pages link to.

**Interpretation** (beyond the papers; SPEC §5 is silent on a crawl that meets no
relevant page). Every priority of Eq. 9 is evidence: the parents' R(p), the
anchor's R(A). On an academic web where the relevant pages sit in courses of a
department whose name carries no topic word, that evidence can be noise that leads
nowhere: on the sparse profile, world seed 2, the tourism ontology's label
"coach" (a tour bus) gave every page of two sports departments R(p) ≈ 0.11, and
Eq. 9 led fcits_oh (first relevant page at 665) and OPS (none in 1 000) through
lectures on football while the department's home page, linked from each of those
pages and listing its tourism courses by name, waited unfetched. A site's home
and index pages are what many pages link to; fetching the unvisited page with the
most known in-links (backlink count, Cho, Garcia-Molina and Page 1998) is the
classic way to find such hubs early, and a hub's links carry the URL and anchor
words the focus needs.

So once a focused strategy (one that filters by β) has downloaded
`crawl.explore_after` pages (200) without judging one relevant, every other
selection is the most-linked unvisited link (ties: the higher P, then the older
link), until a page is judged relevant. A crawl whose focus works never gets
there; BFS never explores. On the sparse profile's world seeds 0–5, both domains,
1 000 pages (benchmarks/bench_explore.py, table in its docstring), it acted only
in that world: fcits_oh found its first relevant page at 211 instead of 665 and
its true harvest at 1 000 pages went 24.1 % → 59.7 % (OPS: none → 204, 0 → 62.9 %),
by exploring 8 and 2 links; the other 22 crawls did not explore and are unchanged.
On world seeds 6–9, not looked at before the rule was fixed, it acted in 4 of 16
crawls and each gained (at 1 000 pages 39.5 → 57.2 %, 25.2 → 58.0 %, 28.7 → 52.0 %,
59.4 → 60.7 %); the other 12 are unchanged.

Exploration stops for good when it does not pay (`fruitless`): once half as many
pages again (100) have come after page `crawl.explore_after`, with still none
judged relevant, and they scored no higher mean R(p) than the pages before, if
most of those named a topic word. Nothing judged relevant has three causes: a
focus that follows noise (exploring feeds it hubs, and the pages after score
higher); an α above every page of a focus that works (hubs there are off-topic,
and the pages after score lower); a focus with nothing to follow (the pages
before name no topic word, so exploration is the crawl's only lead and goes on).
The window is half of `explore_after`, so one setting scales both. Measured
(benchmarks/bench_explore.py --alpha 0.70 --world-seeds 0 1, 1 000 pages; true
harvest at 1 000 in %, before the rule / with it / exploration off):

| world | fcits_oh tourism | OPS tourism | fcits_oh rainstorm | OPS rainstorm |
| --- | ---: | ---: | ---: | ---: |
| flat 0 | 56.8 / 87.6 / 92.8 | 64.1 / 87.6 / 93.3 | 47.6 / 87.6 / 94.1 | 60.0 / 90.7 / 94.6 |
| flat 1 | 55.5 / 86.6 / 91.3 | 61.0 / 86.9 / 90.7 | 46.2 / 87.6 / 93.6 | 59.4 / 89.5 / 93.5 |

It ended exploration at page 300 in those 8 crawls and in fcits_oh on default
tourism, seed 0 (86.7 → 90.5 %; exploration off 95.2 %); the others of default
explore ≤ 5 links or none. On sparse, seeds 0 and 1, the pages since scored higher
and exploration went on, as before (@500 fcits_oh tourism 65.6 % against 57.6 %
without it). With the calibrated α, sparse world seeds 0–9 (`--profiles sparse`)
are page for page as before (bench_explore.py's tables). The condition on the
pages before comes from seed 7, rainstorm, OPS: its first 200 pages had mean R(p)
0.001 and the 100 after them 0.000, yet exploration led to its first relevant
page at 324; judged anyway, exploration ended at page 300 and the first relevant
page came at 637 (@1 000 30.4 % against 52.0 %).

On world seeds 2 and 3, run after the rule was fixed (`--world-seeds 2 3`), the 8
flat crawls went from 45.6–63.1 % to 85.4–89.4 % (exploration off 91.4–93.9 %),
each ending at page 300; the 16 crawls of sparse and default are page for page as
before.
"""

from __future__ import annotations

import numpy as np


def exploring(dp: int, lp: int, outcomes: int, after: int, focused: bool) -> bool:
    """Whether this selection explores: a focused crawl, `after` pages downloaded (DP) and
    none judged relevant (LP), and every other outcome (failed fetches count, so a dead
    link does not hand the next turn to exploration again).

    >>> [exploring(200, 0, n, 200, True) for n in (310, 311)], exploring(200, 0, 310, 0, True)
    ([True, False], False)
    >>> exploring(200, 1, 310, 200, True), exploring(199, 0, 310, 200, True)
    (False, False)
    """
    return bool(after) and focused and lp == 0 and dp >= after and outcomes % 2 == 0


def fruitless(before: np.ndarray, sum_since: float, pages_since: int) -> bool:
    """Whether exploration ends, given R(p) of the pages `before` it could begin: half as
    many pages since, most pages before named a topic word (R > 0), and the mean R(p)
    since is no higher than before.

    >>> focus = np.full(200, 0.45)
    >>> [fruitless(focus, s, 100) for s in (40.0, 46.0)], fruitless(focus, 40.0, 99)
    ([True, False], False)
    >>> fruitless(np.r_[np.zeros(101), np.ones(99)], 40.0, 100)  # a blind focus: go on
    False
    """
    return bool(
        pages_since >= len(before) // 2
        and np.mean(before > 0) >= 0.5
        and sum_since / pages_since <= before.mean()
    )


def most_linked(links: np.ndarray, parents: np.ndarray, priorities: np.ndarray) -> int | None:
    """The link with the most parents; ties go to the higher P, then to the older link.

    >>> most_linked(np.array([4, 7, 9]), np.array([3, 5, 5]), np.array([0.2, 0.1, 0.3]))
    9
    >>> most_linked(np.array([], dtype=int), np.array([]), np.array([])) is None
    True
    """
    if not len(links):
        return None
    tied = np.flatnonzero(parents == parents.max())
    return int(links[tied[np.argmax(priorities[tied])]])
