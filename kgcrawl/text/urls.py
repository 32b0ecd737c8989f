"""URL canonical form: one spelling per page, so dedup, the frontier and the graph agree."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
# Session ids make endless spellings of one page; these names never select content.
SESSION_PARAMS = frozenset({"sid", "sessionid", "session_id", "jsessionid", "phpsessid", "sessid"})
# Nor do click-tracking ids (every `utm_*`; Google's, Facebook's, Microsoft's, Yandex's,
# Mailchimp's, HubSpot's; `spm`/`scm` on Alibaba's sites, common on the Chinese web): a
# page shared in many places is otherwise fetched once per campaign.
TRACKING_PARAMS = frozenset({"gclid", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid",
                             "mc_cid", "mc_eid", "_hsenc", "_hsmi", "spm", "scm"})  # fmt: skip
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid)=[^/?#;]*", re.IGNORECASE)


def canonical_url(url: str) -> str | None:
    """w3lib's canonical form, fragment dropped, default port stripped; None if not http(s).

    w3lib keeps an explicit `:80`/`:443` (NOTES.md), so we drop it ourselves; session
    ids (`;jsessionid=…` in the path, `sid=…` and the like in the query) and click-tracking
    ids (`utm_source=…`, `fbclid=…`, `spm=…`) are dropped too.
    An IPv6 literal keeps its brackets (`http://[::1]:8080/`); a URL no parser agrees
    on (`http://[::1`, `http://[v1.x]/`, a port past 65535) is None, never an exception.
    """
    try:
        return _canonical(url.strip())
    except (ValueError, UnicodeError):  # urlsplit / IDNA on a hostile URL
        return None


def _canonical(url: str) -> str | None:
    from w3lib.url import canonicalize_url

    parts = urlsplit(url)
    port = parts.port
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        return None
    if "[" in parts.netloc and not _ipv6(parts.hostname):
        return None
    canon = urlsplit(canonicalize_url(url, keep_fragments=False))
    netloc = canon.hostname or ""
    if not netloc:
        return None
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if port is not None and port != _DEFAULT_PORTS[canon.scheme]:
        netloc = f"{netloc}:{port}"
    if canon.username:
        netloc = f"{canon.username}@{netloc}"
    path = _PATH_SESSION.sub("", canon.path) or "/"
    query = canon.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if not _ignored(k.lower())]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    return urlunsplit((canon.scheme, netloc, path, query, ""))


def _ignored(name: str) -> bool:
    return name in SESSION_PARAMS or name in TRACKING_PARAMS or name.startswith("utm_")


def request_target(url: str) -> str:
    """What the request line of `GET url` names: the path ("/" if none) and the query.

    >>> request_target("http://h.test/a/b?x=1#top"), request_target("http://h.test")
    ('/a/b?x=1', '/')
    """
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def host_of(url: str) -> str:
    """The host name of a URL, lower-cased, without port (the unit of politeness); "" if none."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def _ipv6(host: str) -> bool:
    """A bracketed host must be a plain IPv6 address (no zone id, no IPvFuture)."""
    try:
        ipaddress.IPv6Address(host)
    except ValueError:
        return False
    return True
