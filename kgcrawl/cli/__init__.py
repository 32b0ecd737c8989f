"""The `kgcrawl` command line: options in, library calls, rich output. No logic here.

One module per command group; importing them registers their commands on `app`.
Heavy libraries are imported inside the commands so that `kgcrawl --help` starts fast.
"""

from __future__ import annotations

from kgcrawl.cli import (  # noqa: F401
    calibrate,
    crawl,
    evaluate,
    graph,
    ontology,
    pipeline,
    runs,
    sandbox,
)
from kgcrawl.cli.common import Interrupted, Stopped, app, console, notices

# What importing this module must not load (tests/test_cli.py, benchmarks/bench_cli_startup.py).
HEAVY_MODULES = ("numpy", "scipy", "owlready2", "rdflib", "jieba", "lxml", "trafilatura",
                 "falkordb", "neo4j", "matplotlib", "requests")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input becomes one line on stderr and exit code 2; Ctrl-C, 130.

    Click runs without its standalone mode, so a usage error (a wrong option
    value) is one line naming the command and the option too, not a panel.
    """
    import sqlite3

    import typer

    from kgcrawl.errors import KgcrawlError, disk_full, environment_error

    try:
        code = app(args=argv, standalone_mode=False)
    except typer.TyperException as exc:  # click's usage errors, as Typer vendors them
        if type(exc).__name__ == "NoArgsIsHelpError":  # `kgcrawl` alone: the help
            exc.show()
            raise SystemExit(exc.exit_code) from None
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        _error(where + " ".join(exc.format_message().split()), exc.exit_code)
    except (KgcrawlError, OSError, sqlite3.Error) as exc:
        line = str(exc) if isinstance(exc, KgcrawlError) else environment_error(exc)
        if line is None:
            raise
        if disk_full(exc) is not None:
            _drop_stdout()  # what stdout still buffers would fail again at exit
        _error(line)
    except Stopped:  # the command said how it stopped
        raise SystemExit(130) from None
    except (Interrupted, KeyboardInterrupt, typer.Abort) as exc:
        _say_stopped(getattr(exc, "run_id", None))
        raise SystemExit(130) from None
    if code == 130:  # Typer's answer to a Ctrl-C inside a command (evaluate's, a build's)
        _say_stopped(None)
    if isinstance(code, int) and code:
        raise SystemExit(code)


def _error(line: str, code: int = 2) -> None:
    from rich.markup import escape

    notices.print(f"[red]error:[/red] {escape(line)}", highlight=False, soft_wrap=True)
    raise SystemExit(code) from None


def _drop_stdout() -> None:
    import os
    import sys
    from contextlib import suppress

    with suppress(OSError, ValueError):  # no real stdout (a test runner's): nothing to drop
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _say_stopped(run_id: str | None) -> None:
    """How to resume the run, or that it had ended before the Ctrl-C (nothing to resume)."""
    from kgcrawl.crawl.ended import resume_note

    note = resume_note(run_id)
    console.print(f"stopped; {note}" if note else "stopped", highlight=False, soft_wrap=True)
