"""Logging for the command line: the standard library's, set up once per command.

Modules log under "kgcrawl.<area>" (`kgcrawl.crawl` says one line per failed
fetch at INFO and per page at DEBUG); the library never configures logging
itself, so a script that imports kgcrawl keeps its own. The command line sends
records to stderr — through rich on a terminal, plain text otherwise — and, with
`--log-file`, to a file as well.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from kgcrawl.errors import KgcrawlError

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
FILE_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_installed: list[logging.Handler] = []


def parse_level(name: str) -> int:
    """ "info" → logging.INFO; one clear error for a name that is not a level."""
    from kgcrawl.suggest import did_you_mean

    upper = name.strip().upper()
    if upper not in LEVELS:
        hint = did_you_mean(upper, LEVELS)
        raise KgcrawlError(f"--log-level {name}: not a level{hint} (one of {', '.join(LEVELS)})")
    return getattr(logging, upper)


def configure_logging(
    level: str = "WARNING", file: Path | None = None, quiet: bool = False
) -> None:
    """Handlers on the "kgcrawl" logger for this command (replacing any from an earlier one)."""
    logger = logging.getLogger("kgcrawl")
    for handler in _installed:
        logger.removeHandler(handler)
        handler.close()
    _installed.clear()
    chosen = parse_level(level)
    shown = max(chosen, logging.ERROR) if quiet else chosen  # --quiet: errors only on stderr
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.logging import RichHandler

        terminal: logging.Handler = RichHandler(
            console=Console(stderr=True, emoji=False), show_path=False
        )
    else:
        terminal = logging.StreamHandler(sys.stderr)
        terminal.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    terminal.setLevel(shown)
    _installed.append(terminal)
    if file is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
        to_file = logging.FileHandler(file, encoding="utf-8")
        to_file.setFormatter(logging.Formatter(FILE_FORMAT))
        to_file.setLevel(chosen)
        _installed.append(to_file)
    for handler in _installed:
        logger.addHandler(handler)
    logger.setLevel(chosen)
    logger.propagate = False
