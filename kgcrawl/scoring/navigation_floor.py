"""The R(p) a web's pages reach through their navigation alone: a floor for α.

R(p) (Eq. 3–4) counts topic words in every tag group, and on a web of topical
sites a page's menus, related-link lists and site name name the topic whatever
the page is about. A page whose main text (the article, `crawl/analyse.py`) names
no topic word is not about the domain, yet it still scores through them.
Calibration (SPEC §4.6) composes its pages from documents, which have no
navigation, so the α it finds can lie below what navigation alone reaches.
A crawl that meets many such pages then judges them relevant; BFS meets many.

So the α a page language is judged by is raised to the `quantile` of R(p) over
the pages in that language whose main text names no topic word but whose R(p)
is above 0, leaving out those that score above the median R(p) of the pages whose
main text does name a topic word and that the crawl's α passes. It is found once
`min_pages` such pages of one language have been met (each language with as many
gets its floor then), at the probe of α (`crawl/core.py` `_judge_pending`) or later
within the first `calibration.navigation_within` pages, if they came at least at that
rate before the probe (`sought_past_probe`). A crawl that focuses meets few
such pages and keeps its α.

**Interpretation** (the spec calibrates α on the corpora only), with the figures
that chose it (shipped pipelines, one worker):
- The premise: none of the 150–330 BFS pages of each 1 000 (620–960 of each 3 000)
  whose main text names no topic word is truly relevant, on any profile or seed.
- The quantile (`python benchmarks/bench_navigation_floor.py --strategies bfs
  --max-pages 1000 --quantiles 0.9 0.95 --world-seed N`, before the median below):
  F1 of BFS's own judgement ÷ the best threshold's, floor off → the 95th percentile
  (default tourism, default rainstorm, flat tourism, flat rainstorm), seed 0: 0.89 →
  0.97, 0.82 → 1.00, 0.81 → 0.94, 0.75 → 0.97; seed 1: 0.89 → 0.99, 0.81 → 0.95,
  0.81 → 0.94, 0.77 → 0.99. The 90th percentile left flat tourism seed 1 at 0.83
  (floor 0.395, below the range 0.41–0.44 that gives 0.9 × the best F1).
- The median: a few navigation-only pages can outscore most relevant pages (on flat
  rainstorm, seed 2, FCSA's first 200 pages held 32, five of them at R(p) 0.55–0.57
  from four hosts, where the relevant pages' median is 0.53). Their 95th percentile
  (0.568) judged 65 of 1 000 pages relevant: F1 0.14 of the best. No α can judge
  such a page irrelevant without judging irrelevant most of what the crawl's pages
  say of themselves, so the floor is taken below them. Replayed over every strategy,
  profile and domain (`python benchmarks/navigation_rules.py --world-seed N`: 1 000
  pages crawled with the floor off, each rule applied to the pages met), crawls below
  0.9 × the best F1, and the worst ratio:

  | floor | seed 0 | seed 1 | seed 2 | seed 3 (held out) |
  | --- | --- | --- | --- | --- |
  | 95th percentile | 1 (0.88) | 2 (0.43) | 2 (0.14) | 2 (0.44) |
  | 95th, at most the median | 0 (0.92) | 0 (0.94) | 1 (0.88) | 0 (0.95) |
  | 95th, at most the 25th percentile | 2 (0.77) | 4 (0.81) | 3 (0.82) | 3 (0.85) |
  | 90th percentile | 0 (0.92) | 2 (0.85) | 2 (0.19) | 0 (0.91) |

  (seed 0 at 3 000 pages; seed 2's remaining one is FCTS on flat rainstorm, whose
  keyword-model α 0.433 no floor touches). Seeds 0–2 were seen when choosing;
  seed 3 was run after.
- The sparse (English) web: BFS meets 2–20 such pages in 1 000 (their R(p)
  0.11–0.18, below α) and no relevant page.
- Found after the probe: FCOSA_G on default tourism met 15 such pages among its first
  200, and judged at α 0.39 (0.90 of the best); its 20th Chinese one came at page
  230, whose floor 0.480 gives 0.99 (`bench_focus.py --max-pages 3000`).
- fcits_oh and OPS meet 0–2 such pages in 1 000 on every world measured, and are
  never floored.

>>> navigation_floors([("zh", 0.40), ("zh", 0.50), ("zh", 0.45), ("en", 0.9)], [], 0.5, 3)
{'zh': 0.45}
>>> navigation_floors([("zh", 0.40), ("zh", 0.50)], [], 0.5, 3)
{}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from kgcrawl.scoring.web_alpha import ANY_LANGUAGE, WebAlpha


def navigation_floors(
    navigation: Iterable[tuple[str, float]],
    passed: Iterable[tuple[str, float]],
    quantile: float,
    min_pages: int,
) -> dict[str, float]:
    """{page language: the `quantile` of R(p) over its `navigation` pages}, each page given
    as (language, R(p)). Those are the pages whose main text names no topic word and
    whose R(p) > 0; a language needs at least `min_pages` of them (none when 0). The
    quantile is taken over those that score no higher than the median of the language's
    `passed` pages: those whose main text names a topic word and that the crawl's α
    passes. A navigation page above that median could only be judged irrelevant by
    judging irrelevant half of the pages the crawl judges relevant on their own words.

    >>> navigation_floors([("zh", .40), ("zh", .45), ("zh", .60), ("en", .9)],
    ...                   [("zh", .50), ("zh", .55), ("zh", .70)], 1.0, 3)
    {'zh': 0.45}
    """
    scores, cut = _by_language(navigation), _by_language(passed)
    floors = {}
    for lang, values in sorted(scores.items()):
        median = float(np.median(cut[lang])) if lang in cut else 1.0
        kept = [r for r in values if r <= median]
        if min_pages and len(values) >= min_pages and kept:
            floors[lang] = round(float(np.quantile(kept, quantile)), 4)
    return floors


def sought_past_probe(met: int, probe: int, min_pages: int, within: int) -> bool:
    """True when the `met` pages of one language whose main text names no topic word in the
    first `probe` pages came at the rate that makes `min_pages` within the first `within`:
    the floor is looked for past the probe only then (`crawl/core.py` `_judge_pending`).

    **Interpretation** (issue 19: looking for the floor costs CPU, as pages are read
    with trafilatura meanwhile, `Crawl.extractor`): past the probe the floor is looked for
    only while such pages keep that rate, 4 in 200 with the shipped settings. Crawled
    with the floor off (every strategy, profile and domain, 1 000 pages, world seeds
    0–3: 240 crawls; `benchmarks/navigation_rules.py`), the 8 crawls of the default
    and flat profiles that found their floor after the probe had met 15–19 such pages
    by it (their 20th at pages 216–268), and none that had met fewer than 4 found
    one. On the sparse (English) profile 13 crawls that had met 2–7 found one at
    pages 675–988, at R(p) 0.115–0.143, below their α: with or without it every page
    is judged alike, and the 7 of them that had met 2 or 3 lose it. fcits_oh met 0–1
    such pages by the probe on the default and flat worlds (0–6 on sparse), so it
    stops reading with trafilatura at the probe, not at page 1 000: 3 000 pages, 8 in
    flight, took 8.44 ms of CPU a page instead of 9.03 at 157 pages/s instead of 147
    (medians of 4 interleaved rounds), and 9.29 instead of 9.99 at 145 instead of 130
    on a slower day (3 rounds; `python benchmarks/bench_vs_scrapy.py --trees OLD .`).

    >>> sought_past_probe(4, 200, 20, 1000), sought_past_probe(3, 200, 20, 1000)
    (True, False)
    """
    return met * within >= min_pages * probe


def _by_language(pages: Iterable[tuple[str, float]]) -> dict[str, list[float]]:
    by_lang: dict[str, list[float]] = {}
    for lang, relevance in pages:
        by_lang.setdefault(lang, []).append(relevance)
    return by_lang


def floored(
    web: WebAlpha | None, alpha: float, floors: dict[str, float], pages: int
) -> WebAlpha | None:
    """`web` (or, when None, the crawl's `alpha` for every language) with each language's α
    raised to its floor where the floor is higher; `pages` set the floors.

    >>> floored(None, 0.39, {"zh": 0.44, "en": 0.12}, 29).alphas
    {'': 0.39, 'zh': 0.44}
    >>> floored(None, 0.39, {"en": 0.12}, 29) is None
    True
    """
    base = web or WebAlpha(0, None, {ANY_LANGUAGE: alpha})
    raised = {lang: floor for lang, floor in floors.items() if floor > base.alpha(lang)}
    if not raised:
        return web
    return replace(base, alphas={**base.alphas, **raised}, floors=raised, navigation=pages)
