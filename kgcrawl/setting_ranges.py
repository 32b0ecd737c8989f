"""The bounds of the numeric settings, and what a graph URI must look like (SPEC §11).

A value outside its range is refused when the settings are loaded, with one line
naming the key, rather than failing (or silently doing nothing) mid-crawl:
`fetch.read_timeout = 0` used to pass `pipeline check` and crash the crawl, and
`fetch.max_bytes = -1` gave a crawl of 0 pages that exited 0.
"""

from __future__ import annotations

from urllib.parse import urlsplit

# Bounds of the numeric settings not checked one by one in `_validate`:
# key → (lowest, highest, lowest allowed, highest allowed); None = no bound.
RANGES: dict[str, tuple[float | None, float | None, bool, bool]] = {
    "relevance.omega": (0, 1, True, True),
    "relevance.bm25_k": (0, None, True, False),
    "relevance.bm25_b": (0, 1, True, True),
    "relevance.pagerank_every": (1, None, True, False),
    "crawl.seed": (0, None, True, False),
    "crawl.workers": (1, 256, True, True),
    "crawl.checkpoint_every": (1, None, True, False),
    "crawl.discard_keep": (0, None, True, False),
    "crawl.report_every": (1, None, True, False),
    "crawl.trap_cap": (0, None, True, False),
    "crawl.explore_after": (0, None, True, False),
    "tabu.seeds_per_host": (1, None, True, False),
    "tabu.early_fraction": (0, 1, True, True),
    "tabu.min_hosts": (0, None, True, False),
    "tabu.host_min_visits": (0, None, True, False),
    "tabu.host_max_visits": (1, None, True, False),
    "colony.alpha": (0, None, True, False),
    "colony.beta": (0, None, True, False),
    "colony.c0": (0, None, False, False),
    "fetch.connect_timeout": (0, 600, False, True),
    "fetch.read_timeout": (0, 3600, False, True),
    "fetch.max_redirects": (0, 50, True, True),
    "fetch.retries": (0, 20, True, True),
    "fetch.max_bytes": (1, None, True, False),
    "fetch.robots_retry": (0, 86_400, True, True),
    "fetch.robots_tries": (1, 100, True, True),
}
GRAPH_SCHEMES = ("falkordb", "bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def out_of_range(value: float, bounds: tuple[float | None, float | None, bool, bool]) -> str:
    """What the value must be (`must lie in (0, 600]`), or the empty string when it is."""
    low, high, low_ok, high_ok = bounds
    below = low is not None and (value < low or (value == low and not low_ok))
    above = high is not None and (value > high or (value == high and not high_ok))
    if not (below or above):
        return ""
    if high is None:
        return f"must be {'≥' if low_ok else '>'} {low:g}"
    return f"must lie in {'[' if low_ok else '('}{low:g}, {high:g}{']' if high_ok else ')'}"


def graph_uri_problem(uri: str) -> str:
    """Why `graph.store.connect` would refuse the URI, or the empty string when it takes it."""
    uri = uri.strip()
    if uri in ("embedded", "none"):
        return ""
    parts = urlsplit(uri)
    if parts.scheme not in GRAPH_SCHEMES:
        return f"{uri!r}: expected embedded, none, falkordb://, bolt:// or neo4j:// (and +s, +ssc)"
    try:
        port = parts.port
    except ValueError:
        return f"{uri!r}: the port is not a number in 0-65535"
    if not parts.hostname or (parts.scheme == "falkordb" and port is None):
        return f"{uri!r}: needs a host" + (" and a port" if parts.scheme == "falkordb" else "")
    return ""
