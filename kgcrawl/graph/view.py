"""Query results for people and programs: a rich table, JSON records, CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from kgcrawl.fit import Records
from kgcrawl.graph.store import QueryResult
from kgcrawl.runs import iso_time

CELL_CHARS = 120


def result_table(result: QueryResult, title: str | None = None) -> Records:
    """A table where it fits, else a key: value block per row (kgcrawl/fit.py); long
    values (page text) cut to CELL_CHARS; the caption counts the rows."""
    rows, columns = result.rows, result.columns
    times = _time_columns(result)
    numbers = frozenset(
        c for i, c in enumerate(columns) if i not in times and all(_is_number(r[i]) for r in rows)
    )
    caption = f"{len(rows)} row{'s' * (len(rows) != 1)}"
    table = Records(columns, title=title, caption=caption, numeric=numbers)
    for cells in readable_rows(result, times):
        table.add_row(*(c if len(c) <= CELL_CHARS else c[: CELL_CHARS - 1] + "…" for c in cells))
    return table


def readable_rows(result: QueryResult, times: set[int] | None = None) -> list[list[str]]:
    """The rows as people read them (the terminal, the demo's report).

    The graph stores times as epoch milliseconds (SPEC §8); a column named `…_at`
    that holds them (`times`, found when not given) is shown as local ISO time
    (JSON and CSV keep the numbers).
    """
    times = _time_columns(result) if times is None else times
    return [
        [iso_time(v) if i in times else _text(v) for i, v in enumerate(row)] for row in result.rows
    ]


def _time_columns(result: QueryResult) -> set[int]:
    return {
        i
        for i, c in enumerate(result.columns)
        if c.endswith("_at") and all(_is_epoch_ms(r[i]) for r in result.rows)
    }


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_epoch_ms(value: Any) -> bool:
    """An integer from 1973 on in epoch milliseconds, or no value."""
    return value is None or (
        isinstance(value, int) and not isinstance(value, bool) and value >= 10**11
    )


def result_json(result: QueryResult) -> str:
    """A JSON array of records, keys in column order, non-ASCII kept readable."""
    return json.dumps(result.records(), ensure_ascii=False, indent=2)


def result_csv(result: QueryResult) -> str:
    """CSV with a header row; lists and maps as JSON in their cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(result.columns)
    for row in result.rows:
        writer.writerow([_text(value, exact=True) for value in row])
    return out.getvalue()


def _text(value: Any, exact: bool = False) -> str:
    """A cell: floats to 6 significant digits for reading, in full (`exact`) for programs."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not exact:
        return f"{value:.6g}"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
