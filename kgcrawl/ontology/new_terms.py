"""Step 1 of `refresh-ontology` (refresh.py, SPEC §9): which words of the crawled pages
are candidate new terms.

Candidate new terms are the tokens of the pages, segmented as `build-ontology`
segments (labels as jieba user words, Latin phrases joined, stop words and numbers
dropped; English text also gives its lemmas and phrases, text/english.py), that are
no label or altLabel of the ontology, in at least `min_pages` relevant pages and
`min_share` of them, and at least `min_lift` times as common among the
relevant pages as among the irrelevant ones (and the off-topic documents, below).
Ranked by relevant share − irrelevant share (the more a word separates the two, the
more it says about the domain), the best `max_new` are accepted. "Rare in irrelevant
pages" is relative: the contrast set comes from the same crawl and shares much of the
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
**Interpretation** (the contrast of a crawl whose focus works): the better a crawl
focuses, the fewer irrelevant pages it meets, and the test above then accepts next to
nothing: fcits_oh crawls of 1 000 pages of the default sandbox web (world seeds 0–2,
both domains) judged 0–4 pages irrelevant, and the refresh added no term in four of
the six, 1 and 3 in the others. So the off-topic documents calibration uses
(`calibration.negatives`, the shipped background corpus without the folders as on
topic as the domain's corpus, calibrate.corpora) join the contrast: for a word, the
test counts those of its own script beside the crawl's irrelevant pages (a Chinese
document cannot hold an English word), and its lift and score take the larger of the
two shares. Documents written elsewhere lack the web's own register, its neighbouring
topics and its places, so they speak only for a word that (a) is in at least
CORE_SHARE of the relevant pages, (b) the crawl's irrelevant pages hold no more often
than they do, and (c) is no place name (jieba's tag ns); every other word is judged by
the crawl's pages alone, as before. `python benchmarks/refresh_terms.py --world-seed N
[--set background=0] [--ablate share|register|place]` (fcits_oh, 1 000 pages, one
worker, the shipped ontologies): terms added and, of them, the domain's own by the
sandbox's lexicons (sandbox/lexicon.py, which the refresh never reads), with the
crawl's pages only → with the documents; the rules were chosen on seeds 0 and 1:

| world | seed 0 | seed 1 | seed 2 |
| --- | --- | --- | --- |
| default/tourism | 0 → 20, 19 (市民) | 0 → 20, 19 (市民) | 0 → 20, 20 |
| default/rainstorm | 0 → 20, 20 | 3, 3 → 20, 20 | 1, 1 → 20, 20 |
| sparse/tourism, sparse/rainstorm | 20, 20 both | 20, 20 both | 20, 20 both |
| flat/tourism | 3, 2 (网红) both | 2, 1 → 3, 1 (网红, 旅游网) | 2, 2 both |
| flat/rainstorm | 2, 2 both | 3, 3 both | 1, 1 both |

Without (a), flat's refresh (3–8 irrelevant pages) filled its 20 with the weather,
food and entertainment words that a fifth to a third of its relevant pages also name
(气温, 紫外线, 火锅, 粉丝, 景区 for rainstorm, …): 1–3 of 20 the domain's, seeds 0 and 1.
Without (b), flat gained 2–3 of the domain's words and took 市民 (citizens) in all four
worlds, and 气温 in one. Without (c), the provinces its pages name everywhere came in:
default 1–4 of 20 (江苏, 浙江, 广东, 四川, …), flat/rainstorm seed 1 six of nine.
With neither irrelevant pages nor documents to contrast with, no split is evidence,
and nothing is accepted.
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
from kgcrawl.text.tokenize import is_chinese, is_place_name

if TYPE_CHECKING:
    import numpy as np

    from kgcrawl.ontology.refresh import RefreshOptions

GENERAL_ZIPF = 5.3  # module docstring: wordfreq's log10 per 10⁹ words
GENERAL = 10 ** (GENERAL_ZIPF - 9)  # the same, as a frequency
CORE_SHARE = 0.5  # module docstring: the off-topic documents speak for these words only


class Candidate(NamedTuple):
    """A word that may become a term, and the counts that rank it."""

    term: str
    relevant_pages: int
    irrelevant_pages: int
    score: float  # relevant share − the larger of the irrelevant and background shares
    background: int = 0  # off-topic documents of the term's script holding it
    contrast: int = 0  # irrelevant pages + off-topic documents of the term's script


class Background(NamedTuple):
    """The terms of each off-topic document, by script: a document can only speak against
    a word it could hold, so Chinese terms are contrasted with the Chinese documents and
    other terms with the others."""

    chinese: list[set[str]]
    other: list[set[str]]

    @classmethod
    def of(cls, documents: list[set[str]], chinese: list[bool]) -> Background:
        return cls(
            [terms for terms, zh in zip(documents, chinese, strict=True) if zh],
            [terms for terms, zh in zip(documents, chinese, strict=True) if not zh],
        )


NO_BACKGROUND = Background([], [])


def candidates(
    relevant: list[set[str]],
    irrelevant: list[set[str]],
    known: set[str],
    opts: RefreshOptions,
    background: Background = NO_BACKGROUND,
) -> tuple[list[Candidate], int]:
    """The candidates best first, and how many terms were tested: the filters of the
    module docstring but the test for chance."""
    rel_df = Counter(t for terms in relevant for t in terms)
    irr_df = Counter(t for terms in irrelevant for t in terms)
    off_df = [Counter(t for terms in docs for t in terms) for docs in background]
    n_off = [len(docs) for docs in background]
    n_rel, n_irr = len(relevant), len(irrelevant)
    out, tested = [], 0
    for term, df in rel_df.items():
        if term in known or len(term) < opts.min_chars:
            continue
        if df < opts.min_pages or df / n_rel < opts.min_share or general_frequency(term) >= GENERAL:
            continue
        tested += 1
        rel_share = df / n_rel
        side = 0 if is_chinese(term) else 1  # Background's fields: chinese, other
        off, docs = off_df[side][term], n_off[side]
        if not vouches(rel_share, irr_df[term], n_irr, off, docs) or is_place_name(term):
            off, docs = 0, 0  # only the crawl's irrelevant pages speak for it
        irr_share = max(irr_df[term] / n_irr if n_irr else 0.0, off / docs if docs else 0.0)
        if rel_share >= opts.min_lift * irr_share:
            score = rel_share - irr_share
            out.append(Candidate(term, df, irr_df[term], score, off, n_irr + docs))
    out.sort(key=lambda c: (-c.score, -c.relevant_pages, c.term))
    return out, tested


def vouches(rel_share: float, in_irrelevant: int, n_irr: int, in_docs: int, n_docs: int) -> bool:
    """Whether the off-topic documents may speak for a word (module docstring): it is in at
    least CORE_SHARE of the relevant pages, and the crawl's irrelevant pages hold it no
    more often than the documents do.

    >>> vouches(0.9, 0, 8, 0, 90), vouches(0.3, 0, 8, 0, 90), vouches(0.9, 0, 8, 0, 0)
    (True, False, False)
    >>> vouches(0.9, 1, 8, 0, 90), vouches(0.9, 1, 8, 12, 90)
    (False, True)
    """
    if rel_share < CORE_SHARE or not n_docs:
        return False
    return not in_irrelevant or in_irrelevant * n_docs <= in_docs * n_irr


def beyond_chance(
    scored: list[Candidate], n_rel: int, tested: int, significance: float
) -> list[Candidate]:
    """The candidates whose split has p < `significance` / `tested` (module docstring)."""
    if significance >= 1 or not scored:
        return scored
    chance = split_by_chance(
        [c.relevant_pages for c in scored],
        [c.irrelevant_pages + c.background for c in scored],
        n_rel,
        [c.contrast for c in scored],
    )
    return [c for c, p in zip(scored, chance, strict=True) if p < significance / tested]


def split_by_chance(
    in_relevant: list[int], in_contrast: list[int], n_rel: int, n_contrast: int | list[int]
) -> np.ndarray:
    """One-sided Fisher exact p of each term: the chance that `n_rel` pages drawn at random
    from the `n_rel` relevant ones and its `n_contrast` others hold at least `in_relevant`
    of the term's pages. With nothing to contrast with no split is evidence: p = 1.

    >>> [round(float(p), 4) for p in split_by_chance([4, 3], [0, 1], 4, 2)]
    [0.0667, 0.6]
    >>> [round(float(p), 4) for p in split_by_chance([4, 4], [0, 0], 4, [2, 0])]
    [0.0667, 1.0]
    """
    import numpy as np
    from scipy.stats import hypergeom

    held = [a + b for a, b in zip(in_relevant, in_contrast, strict=True)]
    total = n_rel + np.asarray(n_contrast)
    return hypergeom.sf([a - 1 for a in in_relevant], total, held, n_rel)
