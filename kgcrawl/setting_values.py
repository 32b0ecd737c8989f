"""A setting's value as written (TOML, an environment variable, `--set`) read as its type.

Strict, so that a typo is an error rather than a silent default: `on` or `flase` for
a switch, or TOML's `true` for a number, used to load as False or 1. Each reader
raises ValueError saying what it expected; `config` names the key and the file.

>>> as_flag("On"), as_whole("3"), as_numbers("[0.1, 0.5, 0.4]", (0.0, 0.0, 0.0))
(True, 3, (0.1, 0.5, 0.4))
"""

from __future__ import annotations

import math
import tomllib
from contextlib import suppress
from typing import Any

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def _shown(value: Any) -> str:
    """A value as the user wrote it: TOML's true/false, text quoted."""
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, str) else str(value)


def as_flag(value: Any) -> bool:
    """true/false (yes/no, on/off, 1/0, any case); anything else is refused, not False."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower() if isinstance(value, str | int) else ""
    if word not in TRUE_WORDS + FALSE_WORDS:
        raise ValueError(f"expected true or false (or yes/no, on/off, 1/0), got {_shown(value)}")
    return word in TRUE_WORDS


def as_number(value: Any, what: str) -> float:
    """A finite number; TOML's true/false is none (Python would read it as 1/0)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"expected {what}, got {_shown(value)}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"expected {what}, got {_shown(value)}") from None
    if not math.isfinite(number):
        raise ValueError(f"expected {what}, got {_shown(value)} (not finite)")
    return number


def as_whole(value: Any) -> int:
    """A whole number: 3, "3" or 3.0; an int is kept exact (no round trip through float)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        with suppress(ValueError):
            return int(value)
    number = as_number(value, "a whole number")
    if not number.is_integer():
        raise ValueError(f"expected a whole number, got {_shown(value)}")
    return int(number)


def as_items(value: Any, what: str) -> list[Any]:
    """A list setting's items: a TOML array, or text written `a,b` or `[a, b]`.

    The bracketed text is read as TOML reads it (`[0.1, 0.5, 0.4]`, `["anchor", "url"]`);
    unquoted words inside brackets (`[anchor,url]`, as a shell passes them) are split on
    commas.
    """
    if isinstance(value, list | tuple):
        return list(value)
    if not isinstance(value, str):
        raise ValueError(f"expected {what}, got {_shown(value)}")
    text = value.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            return list(tomllib.loads(f"v = {text}")["v"])
        except tomllib.TOMLDecodeError:
            return [item.strip().strip("\"'") for item in text[1:-1].split(",")]
    return text.split(",")


def as_numbers(value: Any, like: tuple[float, ...]) -> tuple[float, ...]:
    """As many numbers as the default `like` has, as `[0.1, 0.5, 0.4]` or `0.1,0.5,0.4`."""
    count = len(like)
    what = f"a list of {count} numbers, such as {list(like)}"
    items = as_items(value, what)
    try:
        numbers = tuple(as_number(item, "a number") for item in items)
    except ValueError:
        raise ValueError(f"expected {what}, got {_shown(value)}") from None
    if len(numbers) != count:
        raise ValueError(f"expected {what}, got {len(numbers)} numbers")
    return numbers
