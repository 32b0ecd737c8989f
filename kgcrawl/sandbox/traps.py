"""Crawler traps of a portal web: the endless calendar and the ever-deeper document tree.

Each page is cheap and links onwards forever, so only a crawler that bounds
depth or notices near-empty pages gets out (`hazards.py` lists where they are).
"""

from __future__ import annotations

import calendar as months
import datetime as dt
from typing import TYPE_CHECKING

from kgcrawl.sandbox.hazards import DEEP_SEGMENTS
from kgcrawl.sandbox.render import Link, Plan, Section

if TYPE_CHECKING:
    from kgcrawl.sandbox.pages import PageBuilder


def calendar(b: PageBuilder, plan: Plan) -> None:
    """A month (links to its days and the neighbouring months) or a day of the endless calendar."""
    words, text = b.words, b.route.text
    year, month = int(text[:4]), int(text[5:7])
    links: list[Link] = []
    if len(text) == 7:
        prev_m = (year, month - 1) if month > 1 else (year - 1, 12)
        next_m = (year, month + 1) if month < 12 else (year + 1, 1)
        if prev_m[0] >= 1:
            links.append(
                Link(
                    b.internal(f"/calendar/{prev_m[0]:04d}-{prev_m[1]:02d}.html"),
                    words["prev_month"],
                )
            )
        if next_m[0] <= 9999:
            links.append(
                Link(
                    b.internal(f"/calendar/{next_m[0]:04d}-{next_m[1]:02d}.html"),
                    words["next_month"],
                )
            )
        if year < 9999:
            links.append(
                Link(
                    b.internal(f"/calendar/{year + 1:04d}-{month:02d}.html"),
                    words["next_year"],
                )
            )
        days = _days_in_month(year, month)
        links += [
            Link(b.internal(f"/calendar/{text}-{d:02d}.html"), str(d)) for d in range(1, days + 1)
        ]
    else:
        day = dt.date(year, month, int(text[8:10]))
        for delta, label in ((-1, "prev_day"), (1, "next_day")):
            try:
                other = day + dt.timedelta(days=delta)
            except OverflowError:
                continue
            links.append(Link(b.internal(f"/calendar/{other:%Y-%m-%d}.html"), words[label]))
        links.append(Link(b.internal(f"/calendar/{text[:7]}.html"), text[:7]))
    plan.body = [Section("events", heading=text, count=b.rng.randint(2, 8), links=links)]


def deep(b: PageBuilder, plan: Plan) -> None:
    """A page of the ever-deeper /doc/ tree: relative links one level down and one up."""
    words = b.words
    links = [Link(f"{seg}/", seg) for seg in DEEP_SEGMENTS]
    if b.route.text:
        links.append(Link("../", words["up"]))
    plan.body = [Section("text", count=2), Section("links", heading=words["doc"], links=links)]


def _days_in_month(year: int, month: int) -> int:
    return months.monthrange(year, month)[1]
