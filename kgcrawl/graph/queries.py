"""`kgcrawl query`: ad-hoc Cypher or a saved query from `neo4j/queries/NAME.cypher`.

A saved query opens with `//` comment lines: the first says what it answers, and
each `// @param NAME [= DEFAULT]  description` declares a parameter; one without
a default is required. Values, on the command line and as defaults, are read as
JSON when they parse (20, 0.7, true, "20") and as plain strings otherwise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgcrawl.config import CHECKOUT
from kgcrawl.fit import counted
from kgcrawl.graph.errors import GraphError, GraphQueryError
from kgcrawl.graph.store import GraphStore, QueryResult, connect
from kgcrawl.suggest import did_you_mean

_PARAM = re.compile(r"//\s*@param\s+(\w+)(?:\s*=\s*(\S+))?")
_REQUIRED = object()


@dataclass(frozen=True)
class SavedQuery:
    """One `neo4j/queries/*.cypher` file: what it answers, its parameters, its Cypher."""

    name: str
    summary: str
    params: dict[str, Any]  # name → default, or _REQUIRED
    cypher: str

    def bind(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with the given values; unknown or missing names are errors."""
        unknown = sorted(set(given) - set(self.params))
        if unknown:
            raise GraphError(
                f"saved query {self.name}: no parameter {unknown[0]!r} "
                f"(it takes: {', '.join(self.params) or 'none'})"
            )
        values = {**self.params, **given}
        missing = [name for name, value in values.items() if value is _REQUIRED]
        if missing:
            raise GraphError(f"saved query {self.name}: needs --param {missing[0]}=VALUE")
        return values


def queries_folder() -> Path:
    """`neo4j/queries/` in the working directory, else the one beside the package."""
    local = Path.cwd() / "neo4j" / "queries"
    return local if local.is_dir() else CHECKOUT / "neo4j" / "queries"


def saved_queries(folder: Path | None = None) -> dict[str, SavedQuery]:
    """Every saved query of the folder, by name."""
    folder = folder or queries_folder()
    return {path.stem: read_saved(path) for path in sorted(folder.glob("*.cypher"))}


def load_saved(name: str, folder: Path | None = None) -> SavedQuery:
    folder = folder or queries_folder()
    path = folder / f"{name}.cypher"
    if not path.is_file():
        names = [p.stem for p in sorted(folder.glob("*.cypher"))]
        hint = did_you_mean(name, names)
        known = ", ".join(names) or "none"
        raise GraphError(f"no saved query {name!r}{hint} in {folder} (known: {known})")
    return read_saved(path)


def read_saved(path: Path) -> SavedQuery:
    """Parse the header comments; the Cypher is sent without them."""
    try:
        lines = path.read_bytes().decode("utf-8-sig").splitlines()  # an editor's BOM too
    except UnicodeDecodeError:
        raise GraphError(f"{path}: not UTF-8 text; save the query as UTF-8") from None
    header = [line.strip() for line in lines if line.strip().startswith("//")]
    body = [line for line in lines if not line.strip().startswith("//")]
    params: dict[str, Any] = {}
    for line in header:
        match = _PARAM.match(line)
        if match:
            name, default = match.groups()
            params[name] = _REQUIRED if default is None else parse_value(default)
    summary = header[0].lstrip("/ ").strip() if header else ""
    return SavedQuery(path.stem, summary, params, "\n".join(body).strip())


def parse_value(text: str) -> Any:
    """JSON when it parses (numbers, booleans, quoted strings, lists), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_params(pairs: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """`k=v` strings from `--param` into a parameter map."""
    params: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip().isidentifier():
            raise GraphError(f"--param {pair!r}: expected NAME=VALUE")
        params[name.strip()] = parse_value(value)
        _check_keys(params[name.strip()], f"--param {pair!r}")
    return params


def _check_keys(value: Any, where: str) -> None:
    """Map keys go into the Cypher text of the parameters: a backtick there would break it."""
    if isinstance(value, dict):
        for key, item in value.items():
            if "`" in str(key):
                raise GraphError(f"{where}: a map key may not contain a backtick")
            _check_keys(item, where)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_keys(item, where)


def run_query(
    cypher: str | None = None,
    *,
    saved: str | None = None,
    params: Mapping[str, Any] | None = None,
    uri: str | None = None,
    home: Path | None = None,
    write: bool = False,
) -> QueryResult:
    """Run ad-hoc Cypher or a saved query against the graph the URI names (read-only unless
    `write`: the server refuses a write, and the message says how to allow one)."""
    if (cypher is None) == (saved is None):
        raise GraphError("give either a Cypher statement or --saved NAME")
    values = dict(params or {})
    for name, value in values.items():
        _check_keys(value, f"parameter {name!r}")
    if saved is not None:
        query = load_saved(saved)
        cypher, values = query.cypher, query.bind(values)
    with _store(uri, home) as store:
        return _run(store, cypher, values, write)


def _store(uri: str | None, home: Path | None) -> GraphStore:
    store = connect(uri, home=home, schema_setup=False)
    if store is None:
        raise GraphError("the graph is disabled (--graph none)")
    return store


def _run(store: GraphStore, cypher: str, values: dict[str, Any], write: bool) -> QueryResult:
    """One statement; a graph never written and a refused write said plainly."""
    try:
        return store.run(cypher, values, read_only=not write)
    except GraphQueryError as exc:
        if "empty key" in str(exc):  # FalkorDB reads a graph that was never written
            empty = f"{store.uri}: the graph is empty (no crawl wrote it yet)"
            raise GraphQueryError(empty) from None
        missing = _missing(str(exc), cypher, values)
        if missing:  # FalkorDB names none
            raise GraphQueryError(f"{exc}: {missing} (give each with --param NAME=VALUE)") from None
        if write or not _refused_write(str(exc)):
            raise
        raise GraphQueryError(f"{exc} (queries are read-only; --write allows changes)") from None


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`")
_NAMED = re.compile(r"\$(\w+)")


def _missing(message: str, cypher: str, values: dict[str, Any]) -> str:
    """For a "Missing parameters" error, the `$names` of the statement not given ("" else)."""
    if "missing parameters" not in message.lower():
        return ""
    return ", ".join(f"${name}" for name in named_parameters(cypher) if name not in values)


def named_parameters(cypher: str) -> list[str]:
    """The `$name` parameters a statement uses, in order, once each (not in quotes).

    >>> named_parameters("MATCH (p) WHERE p.url = $url AND p.title <> '$x' RETURN $url, $n")
    ['url', 'n']
    """
    return list(dict.fromkeys(_NAMED.findall(_QUOTED.sub("", cypher))))


def _refused_write(message: str) -> bool:
    """FalkorDB: "graph.RO_QUERY is to be executed only on read-only queries";
    Neo4j: "Writing in read access mode not allowed"."""
    lowered = message.lower()
    return "read-only" in lowered or "read access mode" in lowered


@dataclass(frozen=True)
class Contents:
    """What a graph holds, for `kgcrawl graph status`: its crawls by domain, and nodes."""

    crawls: dict[str, int]  # domain → crawls written
    pages: int  # downloaded by a crawl (status "ok")
    linked: int  # Page nodes no crawl downloaded: link targets, failed fetches
    hosts: int
    concepts: int

    def __str__(self) -> str:
        """One line.

        >>> print(Contents({"tourism": 2, "rainstorm": 1}, 5812, 20311, 240, 162))
        ... # doctest: +NORMALIZE_WHITESPACE
        holds 3 crawls (rainstorm 1, tourism 2): 5,812 pages downloaded (20,311 more linked or
        failed) on 240 hosts; 162 concepts
        >>> print(Contents({"tourism": 1}, 1, 0, 1, 0))
        holds 1 crawl (tourism 1): 1 page downloaded on 1 host; 0 concepts
        >>> print(Contents({}, 0, 0, 0, 0))
        holds nothing yet (no crawl wrote it)
        """
        if not (self.crawls or self.pages or self.linked or self.concepts):
            return "holds nothing yet (no crawl wrote it)"
        domains = ", ".join(f"{domain} {n}" for domain, n in sorted(self.crawls.items()))
        linked = f" ({self.linked:,} more linked or failed)" if self.linked else ""
        return (
            f"holds {counted(sum(self.crawls.values()), 'crawl')} ({domains or 'none'}): "
            f"{counted(self.pages, 'page')} downloaded{linked} on {counted(self.hosts, 'host')}; "
            f"{counted(self.concepts, 'concept')}"
        )


def graph_contents(home: Path | None = None) -> Contents:
    """Count what the embedded graph holds (read-only, one connection; the connection
    puts the schema in place, so even a graph no crawl wrote answers, with zeros)."""
    crawls = "MATCH (c:Crawl) RETURN c.domain AS domain, count(c) AS n"
    counts = (
        "MATCH (p:Page) RETURN count(CASE WHEN p.status = 'ok' THEN 1 END), "
        "count(CASE WHEN p.status IS NULL OR p.status <> 'ok' THEN 1 END)",
        "MATCH (h:Host) RETURN count(h)",
        "MATCH (c:Concept) RETURN count(c)",
    )
    with _store("embedded", home) as store:
        domains = {str(d): n for d, n in _run(store, crawls, {}, write=False).rows}
        counted_rows = [_run(store, query, {}, write=False).rows[0] for query in counts]
    (pages, linked), (hosts,), (concepts,) = counted_rows
    return Contents(domains, pages, linked, hosts, concepts)
