"""Query results for people and programs: a rich table, JSON records, CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from kgcrawl.fit import Records, counted
from kgcrawl.graph.store import QueryResult
from kgcrawl.runs import iso_time

CELL_CHARS = 120
LIST_ITEMS = 50  # items of a list shown to people before "… N more"


def result_table(result: QueryResult, title: str | None = None) -> Records:
    """A table where it fits, else a key: value block per row (kgcrawl/fit.py); long
    text (a page's) cut to CELL_CHARS; the caption counts the rows.

    A list or a map is never cut mid-way: each of its texts is cut on its own
    (`_readable`), so the URLs of a `crawl_path` or a node's properties all show.
    """
    rows, columns = result.rows, result.columns
    times = _time_columns(result)
    numbers = frozenset(
        c for i, c in enumerate(columns) if i not in times and all(_is_number(r[i]) for r in rows)
    )
    caption = counted(len(rows), "row")
    table = Records(columns, title=title, caption=caption, numeric=numbers)
    for cells in readable_rows(result, times):
        table.add_row(*cells)
    return table


def readable_rows(result: QueryResult, times: set[int] | None = None) -> list[list[str]]:
    """The rows as people read them (the terminal, the demo's report).

    The graph stores times as epoch milliseconds (SPEC §8); a column named `…_at`
    that holds them (`times`, found when not given) is shown as local ISO time
    (JSON and CSV keep the numbers).
    """
    times = _time_columns(result) if times is None else times
    return [
        [iso_time(v) if i in times else _readable(v) for i, v in enumerate(row)]
        for row in result.rows
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


def _readable(value: Any, nested: bool = False) -> str:
    """A cell for people: text cut to CELL_CHARS (quoted inside a list or map), floats
    to 6 significant digits, a list to its first LIST_ITEMS items, null inside them.

    >>> _readable({"url": "http://h/", "share": 2 / 3, "seen_at": None})
    '{url: "http://h/", share: 0.666667, seen_at: null}'
    >>> _readable(["x" * 500]) == '["' + "x" * 119 + '…"]', _readable(list(range(52)))[-17:]
    (True, '48, 49, … 2 more]')
    """
    if isinstance(value, list):
        items = [_readable(item, nested=True) for item in value[:LIST_ITEMS]]
        if len(value) > LIST_ITEMS:
            items.append(f"… {len(value) - LIST_ITEMS} more")
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_entry(k, v)}" for k, v in value.items()) + "}"
    if value is None and nested:  # an empty cell says it; an empty item would not
        return "null"
    text = value if isinstance(value, str) else _text(value)
    if len(text) > CELL_CHARS:
        text = text[: CELL_CHARS - 1] + "…"
    return json.dumps(text, ensure_ascii=False) if nested and isinstance(value, str) else text


def _entry(key: str, value: Any) -> str:
    """A map's value as `_readable`, a `…_at` time as `readable_rows` shows a column of them."""
    if key.endswith("_at") and value is not None and _is_epoch_ms(value):
        return iso_time(value)
    return _readable(value, nested=True)


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
