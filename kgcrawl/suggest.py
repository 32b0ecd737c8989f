"""Did-you-mean hints for names people type: domains, setting keys, strategies."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """The hint " (did you mean 'x'?)" for the closest choice, or "" when none is close.

    >>> did_you_mean("tourisim", ["tourism", "rainstorm"])
    " (did you mean 'tourism'?)"
    >>> did_you_mean("zzz", ["tourism"])
    ''
    """
    by_lower = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[close[0]]!r}?)" if close else ""
