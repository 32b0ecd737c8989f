"""Names that become file and folder names: a domain's (pipelines/NAME.toml, the prefix of
its runs' ids) and a run's (runs/ID/). One rule for both, so that a domain that can be named
can be crawled."""

from __future__ import annotations

import re

from kgcrawl.config import SettingsError

# A name that becomes a file or folder name (a domain: pipelines/NAME.toml and the runs'
# ids; a run id: runs/ID/): letters of any script (a domain may be named 旅游), digits, `.`,
# `_`, `-`; no path, no `..`.
NAME = re.compile(r"\w[\w.-]{0,127}")


def is_name(text: str) -> bool:
    """True when `text` names a file or folder as it is (`NAME`, and no `..`).

    >>> is_name("咖啡"), is_name("cold-brew_2"), is_name("a b"), is_name("../x")
    (True, True, False, False)
    """
    return NAME.fullmatch(text) is not None and ".." not in text


def check_domain_name(name: str, option: str) -> None:
    """SettingsError naming `option` unless `name` can be a domain's name (`is_name`)."""
    if not is_name(name):
        raise SettingsError(
            f"{option} {name!r}: a domain name is one word of letters, digits, '-', '_' or '.' "
            "(it names pipelines/NAME.toml and the runs)"
        )
