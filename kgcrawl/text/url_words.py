"""The words of a link's URL, as anchor evidence (SPEC §4.3 turn 2).

Sites name their paths after what they hold (`/courses/geog341-tourism-geography/`,
`/news/暴雨预警.html`, `/floodRisk?topic=flash_flood`), often where the anchor
says only "GEOG 341" or "more". The path and the query are split on every
non-alphanumeric character, at camel-case humps and between letters and digits;
numbers and the file extension of the last segment are dropped. Chinese runs stay
whole: the topic matcher segments them as it does page text (`text.matching`).
The host's words (without `www` and the top-level domain) come first when asked.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit

_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")
_SEPARATOR = re.compile(r"[\W_]+")
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_DIGITS = re.compile(r"(\d+)")
_HOST_NOISE = frozenset({"www", "www1", "www2", "www3", "m", "en"})


def url_words(url: str, host: bool = False) -> str:
    """The words of `url`'s path and query (and host), space-separated; numbers dropped.

    >>> url_words("http://geog.lake.edu/courses/geog341-tourism-geography/syllabus.html")
    'courses geog tourism geography syllabus'
    >>> url_words("http://x.cn/news/%E6%9A%B4%E9%9B%A8.shtml?floodRisk=flash_flood&id=3")
    'news 暴雨 flood risk flash flood id'
    >>> url_words("http://www.flood-watch.org/a", host=True)
    'flood watch a'
    """
    parts = urlsplit(url)
    segments = [s for s in unquote_plus(parts.path).split("/") if s]
    if segments:
        segments[-1] = _EXTENSION.sub("", segments[-1])
    pieces = [*segments, unquote_plus(parts.query)]
    if host:
        labels = (parts.hostname or "").split(".")[:-1]
        pieces = [label for label in labels if label not in _HOST_NOISE] + pieces
    words: list[str] = []
    for piece in pieces:
        for chunk in _SEPARATOR.split(piece):
            for part in _DIGITS.split(_HUMP.sub(" ", chunk)):
                words.extend(w.lower() for w in part.split() if not w.isdigit())
    return " ".join(words)
