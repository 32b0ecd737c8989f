"""Graph errors: the crawl catches `GraphUnavailable` and goes on; the rest are bad input."""

from kgcrawl.errors import KgcrawlError


class GraphError(KgcrawlError):
    """A graph URI, saved query or parameter is wrong."""


class GraphUnavailable(GraphError):
    """The graph server cannot be reached (down, loading too long, refused): worth a retry."""


class GraphQueryError(GraphError):
    """The server rejected a Cypher statement: retrying will not help."""
