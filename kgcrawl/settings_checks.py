"""What valid settings are (SPEC §11): each key's bounds, what a graph URI must look like,
and the rules across keys; `config.load_settings` refuses any other.

A value outside its range is refused when the settings are loaded, with one line
naming the key, rather than failing (or silently doing nothing) mid-crawl:
`fetch.read_timeout = 0` used to pass `pipeline check` and crash the crawl, and
`fetch.max_bytes = -1` gave a crawl of 0 pages that exited 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import urlsplit

from kgcrawl.suggest import did_you_mean

if TYPE_CHECKING:
    from kgcrawl.config import Anchors, Settings

AUTO = "auto"
Fail = Callable[[str, str], NoReturn]  # fail(key, message) raises the settings' error
# Bounds of the numeric settings not checked one by one in `check_settings`:
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
# The pages' languages: `text.tokenize.lang_of` tells only these apart, and a concept's
# label in the graph and in run exports is picked by it (`Concept.label(language)`).
LANGUAGES = ("en", "zh")
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


def seed_problem(url: str) -> str:
    """What keeps `url` from being a seed ("" when nothing): a pipeline's and `pipeline init
    --seeds` are checked alike.

    >>> seed_problem("http://a.cn/"), seed_problem("ftp://a.cn/"), seed_problem("http://a b/")
    ('', 'not an http(s) URL', 'a space in the host name')
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is no port
    except ValueError as exc:  # "http://[::1": "Invalid IPv6 URL"
        return f"not a URL ({exc})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "not an http(s) URL"
    if any(char.isspace() for char in parts.netloc):
        return "a space in the host name"
    return ""


def check_settings(settings: Settings, fail: Fail, check_ontology: bool) -> None:
    """Calls `fail` with the first key whose value is refused, and why."""
    language = settings.language
    if language not in LANGUAGES:
        hint = did_you_mean(language, LANGUAGES)
        fail("language", f"must be one of {', '.join(LANGUAGES)}, got {language!r}{hint}")
    rel = settings.relevance
    for key, value in (("relevance.alpha", rel.alpha), ("relevance.beta", rel.beta)):
        if value != AUTO and not 0 <= value <= 1:
            fail(key, f'must be "auto" or lie in [0, 1], got {value}')
    from kgcrawl.crawl.strategies.base import REGISTRY
    from kgcrawl.scoring.priority import PAGERANK_SCALES

    strategy = settings.crawl.strategy
    if strategy not in REGISTRY:
        known = ", ".join(sorted(REGISTRY))
        fail("crawl.strategy", f"unknown strategy {strategy!r}{did_you_mean(strategy, REGISTRY)} "
             f"(known: {known})")  # fmt: skip

    from kgcrawl.text.main_text import EXTRACTORS

    if settings.crawl.main_text not in EXTRACTORS:
        fail("crawl.main_text", f"must be one of {', '.join(EXTRACTORS)}, "
             f"got {settings.crawl.main_text!r}")  # fmt: skip
    if rel.pagerank_scale not in PAGERANK_SCALES:
        fail("relevance.pagerank_scale", f"must be one of {', '.join(PAGERANK_SCALES)}")
    _check_anchors(settings.anchors, fail)
    cal = settings.calibration
    if not 0 <= cal.precision < 1:
        fail("calibration.precision", f"must lie in [0, 1) (0 = best F1), got {cal.precision}")
    for key in ("tolerance", "labelled_tolerance"):
        if not 0 <= getattr(cal, key) < 1:
            fail(f"calibration.{key}", f"must lie in [0, 1), got {getattr(cal, key)}")
    if not 0 < cal.beta_margin <= 1:
        fail("calibration.beta_margin", f"must lie in (0, 1], got {cal.beta_margin}")
    if not 0 < cal.share < 1:
        fail("calibration.share", f"must lie in (0, 1), got {cal.share}")
    for key, count in (
        ("calibration.page_tokens", cal.page_tokens),
        ("calibration.pages", cal.pages),
    ):
        if count < 10:
            fail(key, f"must be at least 10, got {count}")
    for key in ("probe_pages", "navigation_pages"):
        if getattr(cal, key) < 0:
            fail(f"calibration.{key}", f"must be 0 (never) or more, got {getattr(cal, key)}")
    if cal.navigation_within < cal.probe_pages:
        fail(
            "calibration.navigation_within",
            f"must be at least probe_pages ({cal.probe_pages}), got {cal.navigation_within}",
        )
    if not 0 < (quantile := cal.navigation_quantile) <= 1:
        fail("calibration.navigation_quantile", f"must lie in (0, 1], got {quantile}")
    for key, vector in (("relevance.r", rel.r), ("relevance.k", rel.k)):
        if any(not 0 <= x <= 1 for x in vector):
            fail(key, f"every value must lie in [0, 1], got {list(vector)}")
        if not math.isclose(sum(vector), 1.0, abs_tol=1e-9):
            fail(key, f"must sum to 1, got {sum(vector):g}")
    if not 0 < rel.damping < 1:
        fail("relevance.damping", f"must lie in (0, 1), got {rel.damping}")
    if rel.tau <= 0:
        fail("relevance.tau", f"must be positive, got {rel.tau}")
    tabu = settings.tabu
    if tabu.host_min_ratio != AUTO and not 0 <= tabu.host_min_ratio <= 1:
        fail("tabu.host_min_ratio", f'must be "auto" or lie in [0, 1], got {tabu.host_min_ratio}')
    if not 0 <= tabu.escape <= 1:
        fail("tabu.escape", f"must lie in [0, 1], got {tabu.escape}")
    for key in ("tenure", "host_tenure", "its_tries", "host_tick_pages", "inject_links"):
        if getattr(tabu, key) < 0:
            fail(f"tabu.{key}", f"must not be negative, got {getattr(tabu, key)}")
    ann = settings.annealing
    if ann.t0 <= 0 or ann.floor <= 0 or not 0 < ann.cooling <= 1:
        fail("annealing.cooling", "t0 and floor must be positive and cooling in (0, 1]")
    if settings.crawl.max_pages < 1:
        fail("crawl.max_pages", "must be at least 1")
    if settings.crawl.workers < 1:
        fail("crawl.workers", "must be at least 1")
    colony = settings.colony
    for key, value in (
        ("annealing.phi", settings.annealing.phi),
        ("annealing.eta", settings.annealing.eta),
        ("annealing.target_weight", settings.annealing.target_weight),
        ("colony.rho", colony.rho),
        ("colony.q0", colony.q0),
        ("colony.eta", colony.eta),
    ):
        if not 0 <= value <= 1:
            fail(key, f"must lie in [0, 1], got {value}")
    for key, count in (
        ("annealing.local_ontologies", settings.annealing.local_ontologies),
        ("colony.ants", colony.ants),
        ("colony.max_depth", colony.max_depth),
    ):
        if count < 1:
            fail(key, "must be at least 1")
    if any(w < 0 for w in colony.link_weights) or not math.isclose(
        sum(colony.link_weights), 1.0, abs_tol=1e-9
    ):
        fail("colony.link_weights", f"must be ≥ 0 and sum to 1, got {list(colony.link_weights)}")
    if settings.fetch.delay < 0:
        fail("fetch.delay", "must not be negative")
    flat = settings.flat()
    for key, bounds in RANGES.items():
        message = out_of_range(flat[key], bounds)
        if message:
            fail(key, f"{message}, got {flat[key]}")
    if settings.tabu.host_max_visits < settings.tabu.host_min_visits:
        fail("tabu.host_max_visits", "must not be below tabu.host_min_visits")
    if not settings.fetch.user_agent.strip():
        fail("fetch.user_agent", "must name the crawler (it may not be empty)")
    wrong_uri = graph_uri_problem(settings.graph.uri)
    if wrong_uri:
        fail("graph.uri", wrong_uri)
    if not settings.seeds:
        fail("seeds", "needs at least one seed URL")
    for seed in settings.seeds:
        problem = seed_problem(seed)
        if problem:
            fail("seeds", f"{problem}: {seed!r}")
    if not check_ontology:
        return
    if not settings.ontology.is_file():
        fail("ontology", f"no such file: {settings.ontology}")
    from kgcrawl.ontology.model import OntologyError
    from kgcrawl.ontology.owl import read_ontology

    try:
        onto = read_ontology(settings.ontology)
    except OntologyError as exc:
        fail("ontology", str(exc))
    if onto.find(settings.topic) is None:
        fail("topic", f"the ontology {settings.ontology.name} has no concept {settings.topic!r}")


def _check_anchors(anchors: Anchors, fail: Fail) -> None:
    from kgcrawl.scoring.evidence import SOURCES

    unknown = [e for e in anchors.evidence if e not in SOURCES]
    if unknown or not anchors.evidence:
        fail("anchors.evidence", f"a non-empty list of {', '.join(SOURCES)}; got "
             f"{list(anchors.evidence)}")  # fmt: skip
    if any(not 0 <= w <= 1 for w in anchors.weights):
        fail("anchors.weights", f"every value must lie in [0, 1], got {list(anchors.weights)}")
    if anchors.context_words < 0:
        fail("anchors.context_words", f"must not be negative, got {anchors.context_words}")
