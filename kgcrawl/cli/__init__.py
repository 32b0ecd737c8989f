"""The `kgcrawl` command line: options in, library calls, rich output. No logic here.

One module per command group; importing them registers their commands on `app`.
Heavy libraries are imported inside the commands so that `kgcrawl --help` starts fast.
"""

from __future__ import annotations

from rich.console import Console

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
from kgcrawl.cli.common import Interrupted, app

# What importing this module must not load (tests/test_cli.py, benchmarks/bench_cli_startup.py).
HEAVY_MODULES = ("numpy", "scipy", "owlready2", "rdflib", "jieba", "lxml", "trafilatura",
                 "falkordb", "neo4j", "matplotlib", "requests")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Entry point: project errors become one line on stderr and exit code 2; Ctrl-C, 130."""
    from rich.markup import escape

    from kgcrawl.errors import KgcrawlError

    try:
        app(args=argv, standalone_mode=True)
    except KgcrawlError as exc:
        message = f"[red]error:[/red] {escape(str(exc))}"
        Console(stderr=True).print(message, highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except (Interrupted, KeyboardInterrupt) as exc:
        Console().print(_stopped(getattr(exc, "run_id", None)), highlight=False, soft_wrap=True)
        raise SystemExit(130) from None


def _stopped(run_id: str | None) -> str:
    from kgcrawl.crawl.state import runs_dir

    if run_id and (runs_dir() / run_id / "state.sqlite").is_file():
        return f"stopped; continue with `kgcrawl crawl --resume {run_id}`"
    return "stopped"
