"""Choosing the terms that become the formal context's attributes (SPEC §3.1.3).

A term must occur in at least `min_df` documents (rarer words say nothing about
the domain's structure) and in at most `max_df` of them (words in nearly every
document, like the topic word itself, order nothing). Survivors are ranked by
document frequency × IDF, df·ln(N/df). **Interpretation** of the SPEC's
"document frequency × IDF spread": the product rewards terms that are both
common and discriminating; it peaks at df = N/e and falls to 0 at df = N, so
mid-frequency terms, the ones whose extents nest into a taxonomy, come first.
Terms shorter than `min_chars` characters are left out: one Chinese character
(县, 票, 区) is too ambiguous to name a class. Pinned terms (`--term`,
`--terms-file`) are always kept, first, in the order given, unless no document
holds them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcrawl.errors import KgcrawlError
from kgcrawl.text.corpus import decode
from kgcrawl.text.tokenize import normalise_label


class TermsError(KgcrawlError):
    """Bad term options or an unreadable terms file."""


@dataclass(frozen=True)
class TermSelection:
    """The chosen terms in rank order (pinned first), with their document frequencies."""

    terms: tuple[str, ...]
    df: dict[str, int]
    missing: tuple[str, ...]  # pinned terms that no document holds
    candidates: int  # distinct tokens before selection


def term_score(df: int, n_docs: int) -> float:
    """df × IDF = df · ln(N / df) (module docstring)."""
    return df * math.log(n_docs / df)


def select_terms(
    doc_terms: Sequence[Iterable[str]],
    min_df: int = 2,
    max_df: float = 0.8,
    max_terms: int = 120,
    pinned: Sequence[str] = (),
    min_chars: int = 2,
) -> TermSelection:
    """Keep terms with min_df ≤ df ≤ max_df·N, best `max_terms` by df·ln(N/df), pins first."""
    check_term_options(min_df, max_df, max_terms, min_chars)
    n_docs = len(doc_terms)
    df = Counter(term for tokens in doc_terms for term in set(tokens))
    pins = list(dict.fromkeys(normalise_label(t) for t in pinned if normalise_label(t)))
    kept_pins = [t for t in pins if df[t] > 0]
    pinned_set = set(kept_pins)
    ceiling = max_df * n_docs
    ranked = sorted(
        (
            t
            for t, f in df.items()
            if min_df <= f <= ceiling and len(t) >= min_chars and t not in pinned_set
        ),
        key=lambda t: (-term_score(df[t], n_docs), -df[t], t),
    )
    chosen = kept_pins + ranked[: max(0, max_terms - len(kept_pins))]
    return TermSelection(
        terms=tuple(chosen),
        df={t: df[t] for t in chosen},
        missing=tuple(t for t in pins if df[t] == 0),
        candidates=len(df),
    )


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
