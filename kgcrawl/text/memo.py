"""A dict that works out a missing value, remembers it, and forgets everything when full.

The analysis asks the same small questions page after page: a token's hash for
SimHash (`crawl/dedup.py`), a word's frequency in jieba's dictionary trie
(`text/dictionary.py`). Asked again, a `Memo` answers with a plain dict lookup, in
C; only a first question calls Python. Emptying it whole when it holds `size`
answers keeps it bounded at no cost per question, where an LRU pays on each.

>>> lengths = Memo(len, size=2)
>>> lengths["ab"], lengths["abc"], dict(lengths)
(2, 3, {'ab': 2, 'abc': 3})
>>> lengths["a"], dict(lengths)  # full: forgotten, then remembered afresh
(1, {'a': 1})
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V]):
    """`memo[key]` is `compute(key)`, worked out once while the memo holds it."""

    __slots__ = ("compute", "size")

    def __init__(self, compute: Callable[[K], V], size: int) -> None:
        super().__init__()
        self.compute = compute
        self.size = size

    def __missing__(self, key: K) -> V:
        if len(self) >= self.size:
            self.clear()
        value = self[key] = self.compute(key)
        return value
