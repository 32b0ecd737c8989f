"""Which address a host is fetched from, and which addresses a crawler may touch.

By default private, loopback and link-local addresses are refused: a crawler must
not be steered into a local network by a link (SPEC §6). IPv6 forms that carry an
IPv4 address or reach a local network by translation count as private too (SPEC §6
turn 2): Python's `is_global` says True for most of them (`_EMBEDDING`). The fetch
then connects to the address that was checked (`Pin`, crawl/transport.py), so a name
cannot answer the check with a public address and the connection with a private one.
`--resolve HOST=ADDR:PORT` (HOST may be a glob such as `*.cn` or `*`) maps names to
an address and allows it; the request keeps the original Host header. A mapped host
is spoken to in plain HTTP whatever the URL's scheme: the map exists for sandboxes
and test servers.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import socket
from dataclasses import dataclass

from kgcrawl.errors import KgcrawlError


class AddressError(KgcrawlError):
    """A --resolve entry is malformed."""


class RefusedAddress(KgcrawlError):
    """A name resolves to an address a crawler must not touch."""


# Refused although `ipaddress` calls most of them global: each embeds or translates to
# an IPv4 address (which may be 127.0.0.1 or 10.x), or is the deprecated site-local range.
_EMBEDDING = tuple(
    ipaddress.ip_network(net)
    for net in (
        "64:ff9b::/96",  # NAT64, well-known prefix (RFC 6052)
        "64:ff9b:1::/48",  # NAT64, local use (RFC 8215)
        "2002::/16",  # 6to4 (RFC 3056)
        "::/96",  # IPv4-compatible ::a.b.c.d (RFC 4291, deprecated)
        "::ffff:0:0/96",  # IPv4-mapped
        "fec0::/10",  # site-local (RFC 3879, deprecated)
    )
)


@dataclass(frozen=True)
class Pin:
    """Where a request really goes: the checked address, its port, the scheme spoken there."""

    address: str
    port: int
    scheme: str


@dataclass(frozen=True)
class Mapping:
    pattern: str
    address: str
    port: int


def parse_resolve(entries: list[str] | tuple[str, ...]) -> tuple[Mapping, ...]:
    """`["*.cn=127.0.0.1:8080"]` → mappings, first match wins."""
    out = []
    for entry in entries:
        pattern, sep, target = entry.partition("=")
        address, colon, port = target.rpartition(":")
        if not sep or not colon or not pattern or not port.isdigit():
            raise AddressError(f"--resolve {entry}: expected HOST=ADDR:PORT")
        address = address.strip("[]")
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise AddressError(f"--resolve {entry}: {address!r} is not an IP address") from None
        out.append(Mapping(pattern.lower(), address, int(port)))
    return tuple(out)


def mapped(host: str, mappings: tuple[Mapping, ...]) -> Mapping | None:
    """The first mapping whose glob matches the host."""
    host = host.lower()
    return next((m for m in mappings if fnmatch.fnmatchcase(host, m.pattern)), None)


def is_public(address: str) -> bool:
    """False for private, loopback, link-local, multicast, reserved and unspecified addresses,
    and for the IPv6 forms of `_EMBEDDING`."""
    ip = ipaddress.ip_address(address.partition("%")[0])
    if ip.version == 6 and any(ip in net for net in _EMBEDDING):
        return False
    return ip.is_global and not ip.is_multicast


def checked_address(host: str, port: int) -> str:
    """Resolve an unmapped host once; the address to connect to, when every answer is public.

    Raises RefusedAddress naming the first non-public answer, OSError (socket.gaierror)
    when the name does not resolve.
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    for info in infos:
        address = str(info[4][0])
        if not is_public(address):
            raise RefusedAddress(f"{host} resolves to {address}")
    if not infos:
        raise socket.gaierror(f"{host}: no address")
    return str(infos[0][4][0])
