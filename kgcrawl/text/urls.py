"""URL canonical form: one spelling per page, so dedup, the frontier and the graph agree;
and the canonical URL a link on a page points to (`link_url`)."""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

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


def link_url(href: str, base: str) -> str | None:
    r"""The canonical absolute URL an `href` points to (`canonical_url`), or None if not http(s).

    Before the query, a backslash is a slash, as the WHATWG URL parser reads it for
    http(s) and browsers follow it (`urljoin` would keep `http:\\host` as a path):

    >>> link_url("http:\\\\example.org\\a\\b.html?q=\\", "http://h.test/dir/")
    'http://example.org/a/b.html?q=%5C'
    """
    head, mark, tail = _BEFORE_QUERY.match(href.strip()).groups()
    ref = head.replace("\\", "/") + mark + tail
    return _resolved(_scope(ref, base), ref)


def _scope(ref: str, base: str) -> str:
    """The part of `base` that `urljoin(base, ref)` reads, so pages share resolved links.

    An absolute or scheme-relative `ref` needs the base's scheme, a root-relative one its
    origin, a relative path its folder, a query or fragment the whole base. A site links
    its menus from every page: over 1 000 pages of a default-sandbox crawl, resolving and
    canonicalising a link took 13–15 µs (0.35–0.4 ms a page), answered from this cache
    ≈ 1 µs (issue 19).

    >>> base = "http://h.test/dir/page.html?x=1"
    >>> [_scope(ref, base) for ref in ("//o.test/", "/a", "b/c", "?q", "HTTP://o.test/")]
    ['http:', 'http://h.test', 'http://h.test/dir/', 'http://h.test/dir/page.html?x=1', 'http:']
    """
    for n, pattern in enumerate(_SCOPES):
        if pattern.match(ref):
            return _parts(base)[n]
    return base


@lru_cache(maxsize=1 << 10)
def _parts(base: str) -> tuple[str, str, str]:
    """(scheme + ":", origin, folder) of a base URL: what `_scope` answers with (the
    whole base thrice when it does not parse, and `urljoin` says so)."""
    try:
        scheme, netloc, path, _, _ = urlsplit(base)
    except ValueError:
        return base, base, base
    origin = f"{scheme}://{netloc}"
    return f"{scheme}:", origin, origin + path[: path.rfind("/") + 1]


# Navigation links repeat on every page of a site, and canonical_url takes ≈ 12 µs.
@lru_cache(maxsize=1 << 16)
def _resolved(scope: str, ref: str) -> str | None:
    try:
        return canonical_url(urljoin(scope, ref))
    except ValueError:  # urljoin on `http://[::1` and the like
        return None


_BEFORE_QUERY = re.compile(r"([^?#]*)([?#]?)(.*)", re.DOTALL)
# What a reference reads of its base (`_scope`), in `_parts`' order: a host named (after
# `//`, by a character `urlsplit` keeps), the scheme; a path from the root, the origin; a
# relative path (its first segment starts plainly, with no ":" as `http:?q` has), the
# folder. Anything else (a query, `;params`, a bare `//`) reads the whole base.
_SCOPES = (
    re.compile(r"(?:https?:)?//[^/?#\\\x00-\x20]", re.IGNORECASE),
    re.compile(r"/(?:$|[^/\t\r\n])"),
    re.compile(r"[^/?#;:\x00-\x20][^/?#:]*(?:[/?#]|$)"),
)
