"""URL canonical form: one spelling per page, so dedup, the frontier and the graph agree."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
# Session ids make endless spellings of one page; these names never select content.
SESSION_PARAMS = frozenset({"sid", "sessionid", "session_id", "jsessionid", "phpsessid", "sessid"})
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid)=[^/?#;]*", re.IGNORECASE)


def canonical_url(url: str) -> str | None:
    """w3lib's canonical form, fragment dropped, default port stripped; None if not http(s).

    w3lib keeps an explicit `:80`/`:443` (NOTES.md), so we drop it ourselves; session
    ids (`;jsessionid=…` in the path, `sid=…` and the like in the query) are dropped too.
    """
    from w3lib.url import canonicalize_url

    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        return None
    canon = urlsplit(canonicalize_url(url, keep_fragments=False))
    netloc = canon.hostname or ""
    if port is not None and port != _DEFAULT_PORTS[canon.scheme]:
        netloc = f"{netloc}:{port}"
    if canon.username:
        netloc = f"{canon.username}@{netloc}"
    path = _PATH_SESSION.sub("", canon.path) or "/"
    query = canon.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if k.lower() not in SESSION_PARAMS]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    return urlunsplit((canon.scheme, netloc, path, query, ""))


def host_of(url: str) -> str:
    """The host name of a URL, lower-cased, without port (the unit of politeness)."""
    return (urlsplit(url).hostname or "").lower()
