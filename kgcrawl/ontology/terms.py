"""Choosing the terms that become the formal context's attributes (SPEC §3.1.3).

A term must occur in at least `min_df` documents (rarer words say nothing about
the domain's structure) and in at most `max_df` of them (words in nearly every
document, like the topic word itself, order nothing). Survivors are ranked by
*termhood* (turn 2): how much more often the term occurs in the corpus than in
the general language, times its document frequency,

    termhood(t) = df(t) · ln(f_corpus(t) / f_general(t))²   for f_corpus > f_general,

f_corpus = the term's occurrences / all word tokens of the corpus, f_general =
wordfreq's frequency of the term (zh for Chinese, else en; a phrase gets
wordfreq's estimate from its words; words wordfreq does not know get its
floor, 10⁻⁸). A term no more common than in general language is no candidate
at all. **Interpretation** of "how much more often … times its document
frequency": the ratio is taken as a log, so that a word unknown to wordfreq (a
name, a typo) does not outrank everything by its ratio alone, and the log is
squared, so that specificity weighs as much as spread: with ln alone, "week"
(35× commoner than in general English, in half the documents) outranked
"tomato" (2 000×). Generic words (wordfreq zipf ≥ 5.3: day, week, city,
season, change, …) among the 50 best terms, measured on gardening-en /
tourism-en / tourism: df·ln 3 / 9 / 0, df·ln^1.5 2 / 7 / 0, df·ln² 1 / 6 / 0
(the one in gardening-en is "water"), with the same reference concepts found.
Under df·ln(N/df), the turn-1 rank, "please" (in 60 % of 120 course pages)
outranked "homework".

A term that occurs mostly inside one longer term (≥ `NESTED` of its
occurrences: "cherry" in "cherry tomato", "office" in "office hours") is left
to that term, after C-value's nested terms (Frantzi et al. 2000). An English
term whose every occurrence has the same word before and after it comes from
one repeated sentence (boilerplate) and is left out, and so is a one-word
English term almost never seen heading a noun phrase (`_names_a_thing`). Terms shorter
than `min_chars` characters are left out: one Chinese character (县, 票, 区) is
too ambiguous to name a class. Pinned terms (`--term`, `--terms-file`) are
always kept, first, in the order given, unless no document holds them.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from kgcrawl.errors import KgcrawlError
from kgcrawl.text.corpus import decode
from kgcrawl.text.english import plural_forms
from kgcrawl.text.tokenize import normalise_label

GENERAL_FLOOR = 1e-8  # wordfreq's frequency for a word it does not list
# On the gardening corpus the reference nouns head a noun phrase in 12–100 % of their
# occurrences (carrot 12 %: "carrot fly", "Carrot seed"), the adjectives and verbs that
# reached the top terms without this rule in 0–44 % (green, damp, pick, sow: 0 %).
MIN_HEAD_SHARE = 0.1
NESTED = 0.8  # share of a term's occurrences inside one longer term that hands it over
# Why `select_terms` leaves a candidate out, in the order its filters apply.
LEFT_OUT = {
    "rare": "in too few documents (--min-df)",
    "common": "in too many documents (--max-df)",
    "short": "too short (--min-chars)",
    "nested": "inside a longer term",
    "no noun": "boilerplate or no noun",
    "general": "no commoner than in general language",
    "cut": "beyond --max-terms",
}
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


class TermsError(KgcrawlError):
    """Bad term options or an unreadable terms file."""


@dataclass
class TermStats:
    """Corpus counts that termhood needs: per-document term sets, occurrences, nesting."""

    doc_terms: list[set[str]] = field(default_factory=list)
    count: Counter[str] = field(default_factory=Counter)  # occurrences in the corpus
    tokens: int = 0  # word tokens of the corpus, stop words included
    inside: Counter[tuple[str, str]] = field(default_factory=Counter)  # (term, longer term)
    contexts: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # (before, after)
    heads: Counter[str] = field(default_factory=Counter)  # one-word terms in a noun slot

    def add(
        self,
        counts: Counter[str],
        tokens: int,
        inside: Counter[tuple[str, str]] | None = None,
        contexts: Iterable[tuple[str, str, str]] = (),
        heads: Counter[str] | None = None,
    ) -> None:
        """One document's term counts, its length in tokens, nesting and contexts if known."""
        self.doc_terms.append(set(counts))
        self.count.update(counts)
        self.tokens += tokens
        self.inside.update(inside or {})
        self.heads.update(heads or {})
        for term, before, after in contexts:
            self.contexts.setdefault(term, set()).add((before, after))

    def merge(self, into: dict[str, str]) -> None:
        """Count each term of `into` as the term it maps to, in every document."""

        def term(t: str) -> str:
            return into.get(t, t)

        self.doc_terms = [{term(t) for t in terms} for terms in self.doc_terms]
        self.count = rekeyed(self.count, term)
        self.inside = rekeyed(self.inside, lambda pair: (term(pair[0]), term(pair[1])))
        self.heads = rekeyed(self.heads, term)
        contexts: dict[str, set[tuple[str, str]]] = {}
        for t, seen in self.contexts.items():
            contexts.setdefault(term(t), set()).update(seen)
        self.contexts = contexts

    @classmethod
    def from_sets(cls, doc_terms: Sequence[Iterable[str]], tokens_per_doc: int = 100) -> TermStats:
        """Each term once per document that holds it: for callers with no counts."""
        stats = cls()
        for terms in doc_terms:
            stats.add(Counter(set(terms)), tokens_per_doc)
        return stats


def rekeyed(counts: Counter, key: Callable) -> Counter:
    """`counts` with each key mapped by `key`, the counts of keys that meet added up."""
    out: Counter = Counter()
    for k, n in counts.items():
        out[key(k)] += n
    return out


def plurals_of_terms(terms: Iterable[str]) -> dict[str, str]:
    """English terms that are the plural of another term of the corpus → that term.

    simplemma leaves a plural it does not know as written ("stratovolcanoes" beside
    "stratovolcano" made two concepts of one). A plural merges only into a singular the
    corpus holds as a term, by the forms the crawler matches (`plural_forms`), so
    "news" never becomes "new" (a stop word, no term) nor "physics" "physic".

    >>> plurals_of_terms(["stratovolcano", "stratovolcanoes", "news", "lava flow",
    ...                   "lava flows", "熔岩"])
    {'lava flows': 'lava flow', 'stratovolcanoes': 'stratovolcano'}
    """
    known = set(terms)
    return {plural: term for term in sorted(known) for plural in plural_forms(term)
            if plural in known}  # fmt: skip


@dataclass(frozen=True)
class TermSelection:
    """The chosen terms in rank order (pinned first), with their document frequencies."""

    terms: tuple[str, ...]
    df: dict[str, int]
    missing: tuple[str, ...]  # pinned terms that no document holds
    candidates: int  # distinct tokens before selection
    termhood: dict[str, float] = field(default_factory=dict)
    left_out: dict[str, int] = field(default_factory=dict)  # reason → candidates, `LEFT_OUT`

    def left_out_text(self) -> str:
        """The reasons candidates were left out, with their counts, commonest first.

        >>> TermSelection((), {}, (), 5, left_out={"rare": 1, "common": 4}).left_out_text()
        '4 in too many documents (--max-df), 1 in too few documents (--min-df)'
        """
        counts = sorted(self.left_out.items(), key=lambda item: -item[1])
        return ", ".join(f"{n} {LEFT_OUT[reason]}" for reason, n in counts if n)


@cache
def general_frequency(term: str) -> float:
    """wordfreq's frequency of `term` in general Chinese or English, at least the floor."""
    import wordfreq

    lang = "zh" if _CJK.search(term) else "en"
    return max(wordfreq.word_frequency(term, lang), GENERAL_FLOOR)


def termhood(df: int, count: int, tokens: int, general: float) -> float:
    """df · ln(f_corpus / f_general)², 0 when the term is no commoner than in general language."""
    ratio = count / tokens / general
    return df * math.log(ratio) ** 2 if ratio > 1 else 0.0


def select_terms(
    stats: TermStats,
    min_df: int = 2,
    max_df: float = 0.8,
    max_terms: int = 120,
    pinned: Sequence[str] = (),
    min_chars: int = 2,
) -> TermSelection:
    """Keep terms with min_df ≤ df ≤ max_df·N, best `max_terms` by termhood, pins first."""
    check_term_options(min_df, max_df, max_terms, min_chars)
    n_docs = len(stats.doc_terms)
    df = Counter(term for terms in stats.doc_terms for term in terms)
    pins = list(dict.fromkeys(normalise_label(t) for t in pinned if normalise_label(t)))
    kept_pins = [t for t in pins if df[t] > 0]
    pinned_set = set(kept_pins)
    ceiling = max_df * n_docs
    outside = {
        t: _outside_window(t, f, min_df, ceiling, min_chars)
        for t, f in df.items()
        if t not in pinned_set
    }
    window = {t for t, why in outside.items() if not why}
    left_out = Counter(why for why in outside.values() if why)
    nested = {
        t
        for (t, longer), n in stats.inside.items()
        if t in window and longer in window and n >= NESTED * stats.count[t]
    }
    candidates = [t for t in window if t not in nested and _names_a_thing(stats, t)]
    score = {
        t: termhood(df[t], stats.count[t], stats.tokens, general_frequency(t)) for t in candidates
    }
    ranked = sorted((t for t in candidates if score[t] > 0), key=lambda t: (-score[t], -df[t], t))
    left_out["nested"] = len(nested)
    left_out["no noun"] = len(window) - left_out["nested"] - len(candidates)
    left_out["general"] = len(candidates) - len(ranked)
    chosen = kept_pins + ranked[: max(0, max_terms - len(kept_pins))]
    left_out["cut"] = len(ranked) - (len(chosen) - len(kept_pins))
    return TermSelection(
        terms=tuple(chosen),
        df={t: df[t] for t in chosen},
        missing=tuple(t for t in pins if df[t] == 0),
        candidates=len(df),
        termhood={t: score[t] for t in chosen if t in score},
        left_out={reason: left_out[reason] for reason in LEFT_OUT},
    )


def _outside_window(term: str, df: int, min_df: int, ceiling: float, min_chars: int) -> str:
    """Why a term is outside the df window or too short (a key of LEFT_OUT), "" if neither."""
    if df < min_df:
        return "rare"
    if df > ceiling:
        return "common"
    return "short" if len(term) < min_chars else ""


def _names_a_thing(stats: TermStats, term: str) -> bool:
    """False for English terms that come from one repeated sentence or are no noun.

    A term whose every occurrence has the same words either side lives in one
    sentence repeated across documents (a footer, a template), not in the
    domain's language. A one-word term that heads a noun phrase in fewer than
    `MIN_HEAD_SHARE` of its occurrences is an adjective or a verb.
    """
    seen = stats.contexts.get(term)
    if seen is None:  # Chinese: jieba's tagger chose nouns already
        return True
    if len(seen) == 1:
        return False
    return " " in term or stats.heads[term] >= MIN_HEAD_SHARE * stats.count[term]


def check_term_options(min_df: int, max_df: float, max_terms: int, min_chars: int = 1) -> None:
    """Raise TermsError naming the option that cannot work."""
    if min_df < 1:
        raise TermsError(f"--min-df must be at least 1, got {min_df}")
    if not 0 < max_df <= 1:
        raise TermsError(f"--max-df is a share of the documents in (0, 1], got {max_df}")
    if max_terms < 1:
        raise TermsError(f"--max-terms must be at least 1, got {max_terms}")
    if min_chars < 1:
        raise TermsError(f"--min-chars must be at least 1, got {min_chars}")


def read_terms_file(path: str | Path) -> list[str]:
    """One term per line, UTF-8 or GB18030; blank lines and `#` comments ignored."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise TermsError(f"{path}: no such terms file") from None
    except OSError as exc:
        raise TermsError(f"{path}: cannot read the terms file ({exc.strerror or exc})") from None
    text = decode(raw)
    if text is None:
        raise TermsError(f"{path}: the terms file is not UTF-8 or GB18030 text")
    terms = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    terms = [t for t in terms if t]
    if not terms:
        raise TermsError(f"{path}: the terms file lists no term")
    return terms
