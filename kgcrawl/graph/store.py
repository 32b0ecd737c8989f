"""GraphStore: one interface, one Cypher, two adapters (native FalkorDB client, Neo4j driver).

`connect()` turns a graph URI into a store:

| URI | store |
| --- | --- |
| `embedded` (default) | the embedded FalkorDB of `<data>/graph/`, started if needed |
| `none` | no graph (None) |
| `falkordb://HOST:PORT[/GRAPH]` | a FalkorDB server already running |
| `bolt://…`, `neo4j://…` (`+s`, `+ssc`) | Neo4j 5 through the official driver |

The URI comes from the argument, else `KGCRAWL_GRAPH_URI`; Neo4j credentials from
`KGCRAWL_GRAPH_USER` and `KGCRAWL_GRAPH_PASSWORD`. FalkorDB's own Bolt endpoint is
never the embedded default (it aborts on writes with AOF on, NOTES.md); the Neo4j
adapter can talk to it for smoke tests.
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kgcrawl.crawl.state import data_home
from kgcrawl.graph import schema, server
from kgcrawl.graph.errors import GraphError, GraphQueryError, GraphUnavailable

DEFAULT_GRAPH = "kgcrawl"
SOCKET_TIMEOUT = 120.0  # seconds; a whole-graph CO_OCCURS refresh is the longest statement
# A query log this long took seconds to replay at start: fold it into the RDB preamble.
REPLAY_COMPACT_BYTES = 4_000_000
NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
STAT_NAMES = (
    "nodes_created",
    "nodes_deleted",
    "relationships_created",
    "relationships_deleted",
    "properties_set",
)


@dataclass(frozen=True)
class QueryResult:
    """Columns, rows of plain Python values (nodes as property maps), and write counters."""

    columns: list[str]
    rows: list[list[Any]]
    stats: dict[str, int] = field(default_factory=dict)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


class GraphStore(ABC):
    """A Cypher graph database: run statements, set up the schema, compact, close."""

    uri: str

    @abstractmethod
    def run(
        self, cypher: str, params: dict[str, Any] | None = None, read_only: bool = False
    ) -> QueryResult:
        """Run one statement; GraphUnavailable when the server is unreachable.

        `read_only`: the server itself refuses a write (GraphQueryError), so a
        query that a person types cannot change the graph by mistake.
        """

    @abstractmethod
    def ensure_schema(self) -> None:
        """Create the indexes and unique constraints that are missing."""

    @abstractmethod
    def compact(self) -> None:
        """Make the next restart fast (after a crawl)."""

    @abstractmethod
    def close(self) -> None:
        """Release connections (and stop an embedded server this store started)."""

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FalkorStore(GraphStore):
    """FalkorDB through its native client (Redis protocol): parameters round-trip exactly."""

    def __init__(
        self,
        host: str,
        port: int,
        graph: str = DEFAULT_GRAPH,
        *,
        lease: tuple[Path, str] | None = None,
    ) -> None:
        import falkordb
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.uri = f"falkordb://{host}:{port}/{graph}"
        self.graph_name = graph
        self._lease = lease  # (home, token) of an embedded server, given back on close
        self._redis = redis
        try:
            # One quick retry (a pooled connection may predate a server restart); the
            # writer does its own retries with backoff, redis-py's ten would take ~5 s.
            # A read timeout, so a server that hangs rather than dies cannot hang a crawl.
            self._db = falkordb.FalkorDB(
                host=host,
                port=port,
                socket_connect_timeout=5.0,
                socket_timeout=SOCKET_TIMEOUT,
                retry=Retry(NoBackoff(), 1),
            )
        except redis.exceptions.ConnectionError as exc:
            raise GraphUnavailable(f"{self.uri}: {_one_line(exc)}") from exc
        self._graph = self._db.select_graph(graph)

    def run(
        self, cypher: str, params: dict[str, Any] | None = None, read_only: bool = False
    ) -> QueryResult:
        errors = self._redis.exceptions
        try:
            query = self._graph.ro_query if read_only else self._graph.query  # GRAPH.RO_QUERY
            result = query(cypher, params)
        except (errors.ConnectionError, errors.TimeoutError) as exc:
            raise GraphUnavailable(f"{self.uri}: {_one_line(exc)}") from exc
        except errors.ResponseError as exc:
            raise GraphQueryError(f"{self.uri}: {_one_line(exc)}") from exc
        columns = [str(name) for _, name in result.header]
        rows = [[_plain(value, _falkordb_entity) for value in row] for row in result.result_set]
        return QueryResult(columns, rows, {name: int(getattr(result, name)) for name in STAT_NAMES})

    def ensure_schema(self) -> None:
        """Indexes, then unique constraints (a Redis command), then an AOF rewrite at once.

        An index created inside the AOF being replayed is not used during the
        replay, so without the rewrite a large AOF loads for minutes (NOTES.md).
        """
        have = schema.indexed(self.run(schema.FALKORDB.existing).rows)
        statements = schema.FALKORDB.statements(skip=have)
        for statement in statements:
            self.run(statement)
        constrained = {
            (label, props[0]) for label, props, _ in self.run(schema.FALKORDB_CONSTRAINTS).rows
        }
        missing = [key for key in schema.UNIQUE_KEYS if key not in constrained]
        for label, prop in missing:
            self._command(*schema.falkordb_constraint(self.graph_name, label, prop))
        if missing:
            self._wait_constraints()
        if statements or missing:
            self.compact()

    def compact(self, timeout: float = 300.0) -> None:
        """BGREWRITEAOF and wait: data and indexes become the RDB preamble, loaded in seconds.

        Waiting matters: a shutdown kills a rewrite still running, and the
        indexes would then stay in the AOF that the next start replays.
        """
        if not int(self._command("INFO", "persistence").get("aof_enabled", 0)):
            return
        try:
            self._command("BGREWRITEAOF")
        except GraphQueryError as exc:
            if "in progress" not in str(exc):
                raise
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            info = self._command("INFO", "persistence")
            if not (info["aof_rewrite_in_progress"] or info["aof_rewrite_scheduled"]):
                return
            time.sleep(0.02)

    def close(self) -> None:
        self._db.connection.close()
        if self._lease is not None:
            home, token = self._lease
            self._lease = None
            server.release(token, home)

    def _command(self, *args: str) -> Any:
        errors = self._redis.exceptions
        try:
            return self._db.connection.execute_command(*args)
        except (errors.ConnectionError, errors.TimeoutError) as exc:
            raise GraphUnavailable(f"{self.uri}: {_one_line(exc)}") from exc
        except errors.ResponseError as exc:
            raise GraphQueryError(f"{self.uri}: {' '.join(args[:2])}: {_one_line(exc)}") from exc

    def _wait_constraints(self, timeout: float = 60.0) -> None:
        """Constraints start PENDING while FalkorDB checks the existing nodes."""
        deadline = time.monotonic() + timeout
        while True:
            rows = self.run(schema.FALKORDB_CONSTRAINTS).rows
            failed = [f"{label}.{props[0]}" for label, props, st in rows if st == "FAILED"]
            if failed:
                names = ", ".join(failed)
                raise GraphQueryError(f"{self.uri}: duplicates, no unique constraint on {names}")
            if all(st == "OPERATIONAL" for *_, st in rows) or time.monotonic() > deadline:
                return
            time.sleep(0.05)


class Neo4jStore(GraphStore):
    """Neo4j 5 (or any Bolt peer) through the official driver: one driver, auto-commit runs."""

    def __init__(self, uri: str, user: str | None = None, password: str | None = None) -> None:
        import neo4j

        self.uri = uri
        self._neo4j = neo4j
        auth = (user, password or "") if user else None
        try:
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth)
            self._driver.verify_connectivity()
        except neo4j.exceptions.AuthError as exc:
            raise GraphError(f"{uri}: authentication failed (KGCRAWL_GRAPH_USER/PASSWORD)") from exc
        except (neo4j.exceptions.DriverError, neo4j.exceptions.Neo4jError, OSError) as exc:
            raise GraphUnavailable(f"{uri}: {_one_line(exc)}") from exc

    def run(
        self, cypher: str, params: dict[str, Any] | None = None, read_only: bool = False
    ) -> QueryResult:
        errors = self._neo4j.exceptions

        def work(tx) -> tuple[list[str], list[list[Any]], Any]:
            result = tx.run(cypher, params or {})
            rows = [[_plain(value, self._entity) for value in rec.values()] for rec in result]
            return list(result.keys()), rows, result.consume().counters

        try:
            with self._driver.session() as session:
                if read_only:  # a read transaction: the server refuses writes in it
                    columns, rows, counters = session.execute_read(work)
                else:
                    result = session.run(cypher, params or {})
                    columns = list(result.keys())
                    rows = [[_plain(v, self._entity) for v in rec.values()] for rec in result]
                    counters = result.consume().counters
        except (errors.ServiceUnavailable, errors.SessionExpired, errors.TransientError) as exc:
            raise GraphUnavailable(f"{self.uri}: {_one_line(exc)}") from exc
        except errors.Neo4jError as exc:
            raise GraphQueryError(f"{self.uri}: {_one_line(exc.message or exc)}") from exc
        except errors.DriverError as exc:
            raise GraphUnavailable(f"{self.uri}: {_one_line(exc)}") from exc
        return QueryResult(columns, rows, {name: getattr(counters, name) for name in STAT_NAMES})

    def ensure_schema(self) -> None:
        """Neo4j's constraints; a FalkorDB Bolt peer (it calls itself Neo4j) gets its indexes."""
        dialect = self._dialect()
        have = schema.indexed(self.run(dialect.existing).rows) if dialect.existing else set()
        for statement in dialect.statements(skip=have):
            self.run(statement)

    def compact(self) -> None:
        """Nothing to do: Neo4j restarts from its own store files."""

    def close(self) -> None:
        self._driver.close()

    def _dialect(self) -> schema.Dialect:
        try:
            self.run(schema.NEO4J.probe)
        except GraphQueryError:
            return schema.FALKORDB
        return schema.NEO4J

    def _entity(self, value: Any) -> Any:
        graph = self._neo4j.graph
        if isinstance(value, graph.Node):
            return {"_labels": sorted(value.labels), **dict(value)}
        if isinstance(value, graph.Relationship):
            return {"_type": value.type, **dict(value)}
        if isinstance(value, graph.Path):
            return _interleave(
                [self._entity(n) for n in value.nodes],
                [self._entity(r) for r in value.relationships],
            )
        if hasattr(value, "iso_format"):
            return value.iso_format()
        return value


def connect(
    uri: str | None = None, *, home: Path | None = None, schema_setup: bool = True
) -> GraphStore | None:
    """The store a graph URI names (module docstring); None for `none`.

    The embedded server always gets its schema (it must precede the data, see
    `FalkorStore.ensure_schema`); other servers when `schema_setup`, which a
    read-only query turns off.
    """
    uri = (uri or os.environ.get("KGCRAWL_GRAPH_URI") or "embedded").strip()
    if uri == "none":
        return None
    if uri == "embedded":
        return _embedded(home if home is not None else data_home())
    store = _remote(uri)
    if schema_setup:
        store.ensure_schema()
    return store


def _embedded(home: Path) -> FalkorStore:
    """The data folder's server, started if needed; the last command to close it stops it."""
    info, token, started = server.lease(home)
    store = FalkorStore("127.0.0.1", info.port, lease=(home, token))
    store.ensure_schema()
    if started and server.replay_bytes(home) > REPLAY_COMPACT_BYTES:
        store.compact()
    return store


def _remote(uri: str) -> GraphStore:
    parts = urlsplit(uri)
    if parts.scheme == "falkordb":
        if not parts.hostname or not parts.port:
            raise GraphError(f"{uri}: a FalkorDB URI needs a host and a port")
        return FalkorStore(parts.hostname, parts.port, parts.path.strip("/") or DEFAULT_GRAPH)
    if parts.scheme in NEO4J_SCHEMES:
        return Neo4jStore(
            uri, os.environ.get("KGCRAWL_GRAPH_USER"), os.environ.get("KGCRAWL_GRAPH_PASSWORD")
        )
    raise GraphError(f"{uri}: unknown graph URI (embedded, none, falkordb://, bolt://, neo4j://)")


def start_embedded(home: Path | None = None) -> tuple[server.ServerInfo, bool]:
    """`kgcrawl graph start`: a server left running for later commands, its schema in place."""
    info, started = server.start(home)
    with FalkorStore("127.0.0.1", info.port) as store:
        store.ensure_schema()
    return info, started


def _one_line(error: object) -> str:
    """Server messages (Neo4j's draw a caret under the query) as one line for the CLI."""
    return " ".join(str(error).split())


def _plain(value: Any, entity: Callable[[Any], Any]) -> Any:
    """Lists and maps recursively; graph entities through the adapter's `entity`."""
    if isinstance(value, list | tuple):
        return [_plain(v, entity) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, entity) for k, v in value.items()}
    return entity(value)


def _falkordb_entity(value: Any) -> Any:
    from falkordb import Edge, Node, Path

    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, Node):
        return {"_labels": list(value.labels or []), **value.properties}
    if isinstance(value, Edge):
        return {"_type": value.relation, **value.properties}
    if isinstance(value, Path):
        nodes = [_falkordb_entity(n) for n in value.nodes()]
        return _interleave(nodes, [_falkordb_entity(e) for e in value.edges()])
    return _iso_temporal(value)


def _iso_temporal(value: Any) -> Any:
    """FalkorDB's dates, times and durations as ISO 8601 text, as Neo4j's adapter gives
    them (`iso_format`), so `query --json` can write them and a table shows them as typed.

    The client reads FalkorDB's local (zone-less) temporals as UTC datetimes and a
    duration as a `relativedelta`; the zone it adds is dropped.

    >>> from datetime import datetime, timezone
    >>> from dateutil.relativedelta import relativedelta
    >>> _iso_temporal(datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone.utc))
    '2024-01-02T03:04:05'
    >>> _iso_temporal(relativedelta(days=1, hours=2, seconds=1.5)), _iso_temporal(relativedelta())
    ('P1DT2H1.5S', 'PT0S')
    """
    import datetime as dt

    from dateutil.relativedelta import relativedelta

    if isinstance(value, dt.datetime | dt.time):
        return value.replace(tzinfo=None).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, relativedelta):
        return value
    seconds = f"{value.seconds + value.microseconds / 1e6:.6f}".rstrip("0").rstrip(".")
    date = [(value.years, "Y"), (value.months, "M"), (value.days, "D")]
    time = [(value.hours, "H"), (value.minutes, "M"), (seconds, "S")]
    text = "".join(f"{n}{unit}" for n, unit in date if n)
    clock = "".join(f"{n}{unit}" for n, unit in time if n not in (0, "0"))
    return "P" + text + ("T" + clock if clock else "") if text or clock else "PT0S"


def _interleave(nodes: list[Any], rels: list[Any]) -> list[Any]:
    """A path as node, relationship, node, …"""
    out = [nodes[0]] if nodes else []
    for rel, node in zip(rels, nodes[1:], strict=True):
        out += [rel, node]
    return out
