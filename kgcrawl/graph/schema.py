"""The one place where the servers' Cypher differs: creating indexes and unique constraints.

Every read and write elsewhere uses the Cypher subset FalkorDB and Neo4j 5 share
(SPEC §8). Schema set-up does not fit that subset: Neo4j 5 says `CREATE CONSTRAINT
… IF NOT EXISTS … REQUIRE … IS UNIQUE`; FalkorDB has no `IF NOT EXISTS`, fails on
re-creating an index, and takes unique constraints only as the Redis command
`GRAPH.CONSTRAINT CREATE`, on top of an exact-match index (NOTES.md).
"""

from __future__ import annotations

from dataclasses import dataclass

# SPEC §8: Page.url, Concept.iri, Host.name, Crawl.id are unique.
UNIQUE_KEYS: tuple[tuple[str, str], ...] = (
    ("Page", "url"),
    ("Concept", "iri"),
    ("Host", "name"),
    ("Crawl", "id"),
)


@dataclass(frozen=True)
class Dialect:
    """How one server creates the index behind a unique key, and how it says what exists."""

    name: str
    probe: str
    create: str
    existing: str | None

    def statements(self, skip: set[tuple[str, str]] = frozenset()) -> list[str]:
        """The schema statements for every unique key not in `skip`."""
        return [
            self.create.format(label=label, prop=prop, name=f"{label.lower()}_{prop}")
            for label, prop in UNIQUE_KEYS
            if (label, prop) not in skip
        ]


NEO4J = Dialect(
    name="neo4j",
    probe="CALL dbms.components() YIELD name RETURN name",
    create="CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE",
    existing=None,
)
FALKORDB = Dialect(
    name="falkordb",
    probe="CALL db.indexes() YIELD label RETURN label",
    create="CREATE INDEX FOR (n:{label}) ON (n.{prop})",
    existing="CALL db.indexes() YIELD label, properties RETURN label, properties",
)
FALKORDB_CONSTRAINTS = "CALL db.constraints() YIELD label, properties, status RETURN *"


def falkordb_constraint(graph: str, label: str, prop: str) -> tuple[str, ...]:
    """FalkorDB's unique constraint: a Redis command, valid once the property's index exists."""
    return ("GRAPH.CONSTRAINT", "CREATE", graph, "UNIQUE", "NODE", label, "PROPERTIES", "1", prop)


def indexed(rows: list[list]) -> set[tuple[str, str]]:
    """(label, property) pairs from rows of (label, [properties])."""
    return {(label, prop) for label, props in rows for prop in props}
