"""Deterministic random streams keyed by strings.

Every choice the world makes comes from a `random.Random` seeded with a
BLAKE2b digest of (seed, host, path, purpose): the same key gives the same
stream in every process and on every run — Python's salted `hash()` would not.
Separate purposes (head, links, text) keep a cheap question (what is this page
about?) from paying for an expensive one (its whole text).
"""

from __future__ import annotations

import hashlib
import random


def digest(*parts: object) -> int:
    """A 64-bit integer from the parts, stable across processes."""
    key = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


def stream(*parts: object) -> random.Random:
    """A random generator seeded by the parts."""
    return random.Random(digest(*parts))
