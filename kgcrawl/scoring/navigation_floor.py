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
is above 0. This needs at least `min_pages` such pages, counted among the pages
the crawl probes its α on (`crawl/core.py` `_probe`). A crawl that focuses meets
few such pages and keeps its α.

**Interpretation** (the spec calibrates α on the corpora only). The figures that
chose it come from `benchmarks/bench_navigation_floor.py`: the sandbox profiles, world
seed 0, 3 000 pages, the first 200 probed. For every profile and domain, none of the
650–960 BFS pages whose main text names no topic word is truly relevant. On default
and flat the 90th percentile of their R(p) lands inside the range of α that gives
BFS's own judgement at least 0.9 × the best F1 against the truth:
- flat tourism: 0.405, in 0.41–0.45 (F1 ÷ best 0.81 → 0.92);
- flat rainstorm: 0.480, in 0.48–0.51 (0.72 → 0.98).

fcits_oh and OPS meet 1–6 such pages in 3 000 and keep the corpora's α.

>>> navigation_floors([("zh", 0.40), ("zh", 0.50), ("zh", 0.45), ("en", 0.9)], 0.5, 3)
{'zh': 0.45}
>>> navigation_floors([("zh", 0.40), ("zh", 0.50)], 0.5, 3)
{}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from kgcrawl.scoring.web_alpha import ANY_LANGUAGE, WebAlpha


def navigation_floors(
    pages: Iterable[tuple[str, float]], quantile: float, min_pages: int
) -> dict[str, float]:
    """{page language: the `quantile` of R(p)} over `pages`, given as (language, R(p)).
    These are the pages whose main text names no topic word and whose R(p) > 0. Only
    languages with at least `min_pages` of them are given, and none when `min_pages`
    is 0."""
    by_lang: dict[str, list[float]] = {}
    for lang, relevance in pages:
        by_lang.setdefault(lang, []).append(relevance)
    return {
        lang: round(float(np.quantile(scores, quantile)), 4)
        for lang, scores in sorted(by_lang.items())
        if min_pages and len(scores) >= min_pages
    }


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
