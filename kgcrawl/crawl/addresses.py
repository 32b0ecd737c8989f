"""Which address a host is fetched from, and which addresses a crawler may touch.

By default private, loopback and link-local addresses are refused: a crawler must
not be steered into a local network by a link (SPEC §6). `--resolve HOST=ADDR:PORT`
(HOST may be a glob such as `*.cn` or `*`) maps names to an address and allows it;
the request keeps the original Host header. A mapped host is spoken to in plain
HTTP whatever the URL's scheme: the map exists for sandboxes and test servers.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import socket
from dataclasses import dataclass

from kgcrawl.errors import KgcrawlError


class AddressError(KgcrawlError):
    """A --resolve entry is malformed."""


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
    """False for private, loopback, link-local, multicast, reserved and unspecified addresses."""
    ip = ipaddress.ip_address(address)
    return ip.is_global and not ip.is_multicast


def refused_address(host: str, port: int) -> str | None:
    """Resolve an unmapped host; the first non-public address it resolves to, else None.

    Raises OSError (socket.gaierror) when the name does not resolve.
    """
    for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = info[4][0]
        if not is_public(address):
            return address
    return None
