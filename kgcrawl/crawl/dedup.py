"""Content fingerprints, so mirrors and session-id variants do not count twice (SPEC §6).

Exact duplicates share a hash of the whitespace-normalised text; near duplicates
share a 64-bit SimHash within `max_distance` bits (Charikar 2002). Candidates are
found through four 16-bit bands: two fingerprints within 3 bits agree on at least
one band, so a lookup touches one bucket per band, never every page.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

import numpy as np

from kgcrawl.text.memo import Memo

_SPACE = re.compile(r"\s+")
_TOKEN = re.compile(r"[\u3400-\u9fff]|[^\W_]+", re.UNICODE)
BANDS = 4
BAND_BITS = 16
_SHINGLE = 3
# distinct tokens whose hashes are remembered (pages repeat their words, a site its menus),
# ≈ 4.7 MB when full; a 3 000-page crawl of the default sandbox meets 9 605
_TOKEN_HASHES = 1 << 15


def exact_hash(text: str) -> str:
    """Hash of the text with white space folded."""
    folded = _SPACE.sub(" ", text).strip()
    return hashlib.blake2b(folded.encode("utf-8"), digest_size=16).hexdigest()


def _token_hash(token: str) -> int:
    """64-bit blake2b of a token."""
    return int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")


_token_hashes = Memo(_token_hash, _TOKEN_HASHES)


def simhash(text: str) -> int:
    """64-bit SimHash over overlapping 3-token shingles (a CJK character is a token).

    A shingle's hash is its tokens' hashes, each rotated by its place, XORed and
    mixed (SplitMix64's finalizer, so that shingles sharing tokens vote apart);
    each bit of the fingerprint is the majority vote of the shingles' bits.

    Interpretation (issue 19): the shingles were hashed with blake2b one by one in
    Python, 0.74–0.85 ms a page (`python benchmarks/bench_near_copies.py --trees OLD
    .`, the first 500 pages of a BFS of the default and flat profiles); hashing each
    distinct token once and the shingles in numpy takes 0.31–0.33 ms. The
    fingerprints differ, the near copies found hardly: of 200 the truth names
    (near-mirror pages, printer copies) 65 → 63 within 3 bits on the default
    profile, 73 → 64 on flat, where either hash keyed six ways finds 55–78. A run
    checkpointed by an older kgcrawl keeps the old fingerprints, so after a resume a
    near copy of one of its pages goes unrecognised (an exact copy does not).

    >>> near = " ".join(f"黄山 云海 第{i}段 奇松 怪石 温泉" for i in range(30))
    >>> (simhash(near) ^ simhash(near.replace("第7段", "第七段"))).bit_count() <= 3
    True
    """
    tokens = _TOKEN.findall(text.lower())
    hashes = np.fromiter(map(_token_hashes.__getitem__, tokens), np.uint64, len(tokens))
    n = max(1, len(tokens) - _SHINGLE + 1)  # a text of fewer tokens is one shingle
    shingles = np.zeros(n, dtype=np.uint64)
    for place in range(_SHINGLE):
        part = hashes[place : place + n]
        shingles[: len(part)] ^= _rotated(part, 21 * place) if place else part
    mixed = _mixed(shingles)
    bits = np.unpackbits(mixed.view(np.uint8).reshape(n, 8), axis=1)
    votes = 2 * bits.sum(axis=0, dtype=np.int64) - n  # +1 per set bit, −1 per clear
    return int.from_bytes(np.packbits(votes > 0).tobytes(), "big")


def _rotated(x: np.ndarray, bits: int) -> np.ndarray:
    """The uint64 array `x` rotated left by 0 < `bits` < 64."""
    return (x << np.uint64(bits)) | (x >> np.uint64(64 - bits))


def _mixed(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finalizer over a uint64 array (multiplications wrap, as meant)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _bands(fingerprint: int) -> list[tuple[int, int]]:
    mask = (1 << BAND_BITS) - 1
    return [(band, fingerprint >> (band * BAND_BITS) & mask) for band in range(BANDS)]


@dataclass
class Fingerprints:
    """Seen pages by exact hash and by SimHash band; `match` names the first copy."""

    max_distance: int = 3
    _exact: dict[str, str] = field(default_factory=dict)
    _buckets: dict[tuple[int, int], list[tuple[int, str]]] = field(default_factory=dict)

    def match(self, exact: str, near: int) -> str | None:
        """The URL of an earlier page with the same or nearly the same text, if any."""
        if exact in self._exact:
            return self._exact[exact]
        for key in _bands(near):
            for other, url in self._buckets.get(key, ()):
                if (other ^ near).bit_count() <= self.max_distance:
                    return url
        return None

    def add(self, exact: str, near: int, url: str) -> None:
        self._exact.setdefault(exact, url)
        for key in _bands(near):
            self._buckets.setdefault(key, []).append((near, url))
