"""Step 1 of `refresh-ontology` (refresh.py, SPEC §9): which words of the crawled pages
are candidate new terms.

Candidate new terms are the tokens of the pages, segmented as `build-ontology`
segments (labels as jieba user words, Latin phrases joined, stop words and numbers
dropped; English text also gives its lemmas and phrases, text/english.py), that are
no label or altLabel of the ontology, in at least `min_pages` relevant pages and
`min_share` of them, and at least `min_lift` times as common among the
relevant pages as among the irrelevant ones. Ranked by relevant share −
irrelevant share (the more a word separates the two, the more it says about
the domain), the best `max_new` are accepted. "Rare in irrelevant pages" is
relative: the contrast set comes from the same crawl and shares much of the
domain's vocabulary (on the sandbox, 游船 and 瀑布 are in 70 % and 30 % of the
relevant and irrelevant pages of a BFS crawl), so an absolute cut-off on
the irrelevant share would keep only noise.
**Interpretation** ("rare in irrelevant ones", beyond chance): a candidate's split
must be one the two page sets would show by chance with probability below
`significance` / the number of terms tested (one-sided Fisher exact test,
Bonferroni over every term that passed the other filters, so 0.05 bounds the
chance that any accepted term is a fluke; 1 turns the test off). Where the crawl's
relevant and irrelevant pages differ in length more than in topic, a weak lift is
common: on the flat sandbox web the demo's refresh added 紫外线, 空气质量, 货币政策,
存款, 排球, 创业板, 利率 (UV, air quality, monetary policy, deposits, volleyball,
the growth board, interest rate; score ≤ 0.066) from the portal sections of long
pages. `python benchmarks/refresh_chance.py` (2 000-page fcits_oh crawls, one
worker, the shipped ontologies; the best 20 candidates without the test):
- default/tourism and sparse/tourism: all 20 kept (p ≤ 2.3e-5 and ≤ 1e-120; bar
  1.4e-4 and 1.3e-4);
- flat/tourism: 门票 (ticket) kept (5.1e-6); left out the provinces, 气温, 紫外线,
  暴雪, 联赛, 粤菜, 中药, 专辑, 癌症 (temperature, UV, blizzard, league, Cantonese
  food, Chinese medicine, album, cancer; p ≥ 0.012);
- flat/rainstorm: 险情 (flood danger) kept (8.8e-6); left out the provinces, 景区,
  游客, 股票, 基金, 宾馆 (tourist sights, tourists, stocks, funds, hotel), and also
  雨情 and 水位 (rain and water levels, p 1.9e-3 and 2.9e-3): with 7 irrelevant
  pages to contrast with, only a word in nearly every relevant page is evidence.
With no irrelevant page no split is evidence, and nothing is accepted.
**Interpretation** ("candidate new terms"): a word of general language is no
term, however it splits the crawl. Words commoner than GENERAL_ZIPF in
wordfreq's general Chinese or English (the measure build-ontology's termhood
uses, terms.py) are left out: the demo's refresh on the default web added
year, day, national (zipf 5.5–6.0), and one of the shipped tourism ontology
from a 300-page crawl 记者, 发展, 国家, 社会, 活动, 地区, 人员, 城市, 全国
(5.5–6.2), beside terms of 3.0–5.2 (缆车 3.4, 导游 3.9, resort 4.4, hotel
5.0, park and town 5.2).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

from kgcrawl.ontology.terms import general_frequency

if TYPE_CHECKING:
    import numpy as np

    from kgcrawl.ontology.refresh import RefreshOptions

GENERAL_ZIPF = 5.3  # module docstring: wordfreq's log10 per 10⁹ words
GENERAL = 10 ** (GENERAL_ZIPF - 9)  # the same, as a frequency


class Candidate(NamedTuple):
    """A word that may become a term, and the counts that rank it."""

    term: str
    relevant_pages: int
    irrelevant_pages: int
    score: float  # relevant share − irrelevant share


def candidates(
    relevant: list[set[str]],
    irrelevant: list[set[str]],
    known: set[str],
    opts: RefreshOptions,
) -> tuple[list[Candidate], int]:
    """The candidates best first, and how many terms were tested: the filters of the
    module docstring but the test for chance."""
    rel_df = Counter(t for terms in relevant for t in terms)
    irr_df = Counter(t for terms in irrelevant for t in terms)
    n_rel, n_irr = len(relevant), len(irrelevant)
    out, tested = [], 0
    for term, df in rel_df.items():
        if term in known or len(term) < opts.min_chars:
            continue
        if df < opts.min_pages or df / n_rel < opts.min_share or general_frequency(term) >= GENERAL:
            continue
        tested += 1
        rel_share, irr_share = df / n_rel, irr_df[term] / n_irr if n_irr else 0.0
        if rel_share >= opts.min_lift * irr_share:
            out.append(Candidate(term, df, irr_df[term], rel_share - irr_share))
    out.sort(key=lambda c: (-c.score, -c.relevant_pages, c.term))
    return out, tested


def beyond_chance(
    scored: list[Candidate], n_rel: int, n_irr: int, tested: int, significance: float
) -> list[Candidate]:
    """The candidates whose split has p < `significance` / `tested` (module docstring)."""
    if significance >= 1 or not scored:
        return scored
    in_relevant = [c.relevant_pages for c in scored]
    chance = split_by_chance(in_relevant, [c.irrelevant_pages for c in scored], n_rel, n_irr)
    return [c for c, p in zip(scored, chance, strict=True) if p < significance / tested]


def split_by_chance(
    in_relevant: list[int], in_irrelevant: list[int], n_rel: int, n_irr: int
) -> np.ndarray:
    """One-sided Fisher exact p of each term: the chance that `n_rel` pages drawn at random
    from all `n_rel + n_irr` hold at least `in_relevant` of the term's pages.

    >>> [round(float(p), 4) for p in split_by_chance([4, 3], [0, 1], 4, 2)]
    [0.0667, 0.6]
    """
    from scipy.stats import hypergeom

    held = [a + b for a, b in zip(in_relevant, in_irrelevant, strict=True)]
    return hypergeom.sf([a - 1 for a in in_relevant], n_rel + n_irr, held, n_rel)
