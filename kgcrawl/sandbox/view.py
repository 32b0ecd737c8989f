"""Rich tables for the `kgcrawl sandbox` commands."""

from __future__ import annotations

from rich.table import Table

from kgcrawl.fit import Records, folding_table
from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS
from kgcrawl.sandbox.truth import Truth


def truth_table(truths: list[Truth]) -> Records:
    """One row per URL: status, page type, relevance per domain, largest topic shares (a
    table when it fits the terminal, else key: value lines: a URL is never cut)."""
    table = Records(("url", "status", "type", *DOMAIN_TOPICS, "shares", "canonical", "hazards"))
    for t in truths:
        shares = " ".join(f"{topic}={share:.2f}" for topic, share in t.shares[:3])
        canonical = "" if t.canonical == t.url else f"{t.canonical} ({t.duplicate})"
        table.add_row(
            t.url,
            str(t.status),
            t.page_type,
            *("yes" if t.relevant(d) else "no" for d in DOMAIN_TOPICS),
            shares,
            canonical or (t.location or ""),
            " ".join(t.hazards),
        )
    return table


def info_table(info: dict) -> Table:
    """World statistics as a two-column table."""
    about = f"seed={info['seed']} size={info['size']} profile={info['profile']}"
    table = folding_table("statistic", "value", title=f"sandbox world {about}")
    for key, value in info.items():
        if key in ("seed", "size", "profile"):
            continue
        if isinstance(value, dict):
            value = ", ".join(
                f"{k}: {v}" if not isinstance(v, dict) else f"{k}: {_inline(v)}"
                for k, v in value.items()
            )
        table.add_row(key, str(value))
    return table


def _inline(values: dict) -> str:
    return "(" + ", ".join(f"{k} {v}" for k, v in values.items()) + ")"
