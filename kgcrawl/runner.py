"""Running a domain's crawl end to end: settings, sandbox web, engine, knowledge graph.

This is what `kgcrawl crawl` does, as a library call: it sits above `crawl` and
`graph` and wires them — the engine commits outcomes to the run state, and a
sink turns each commit into graph rows; a graph that is down never stops the
crawl (the rows wait in the run state; `graph sync` brings the graph to parity,
and the end of a crawl runs it).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from kgcrawl.config import Settings
from kgcrawl.crawl.engine import CrawlResult, Engine, Progress, start_run
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError

SANDBOX_START_SECONDS = 30


class SandboxStartError(KgcrawlError):
    """The background sandbox server did not come up."""


@contextmanager
def sandbox_process(seed: int = 0, size: str = "default") -> Iterator[list[str]]:
    """`kgcrawl sandbox serve` in a child process (its own core); yields the --resolve list."""
    command = [sys.executable, "-m", "kgcrawl", "sandbox", "serve", "--port", "0",
               "--seed", str(seed), "--size", size]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
    )
    try:
        resolve = None
        for line in process.stdout:  # bounded: the server prints two lines, then waits
            found = re.search(r"--resolve '([^']+)'", line)
            if found:
                resolve = [found.group(1)]
                break
        if resolve is None:
            raise SandboxStartError(f"the sandbox server exited (code {process.wait(5)})")
        yield resolve
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()


@dataclass
class CrawlRequest:
    """What the command line asked for, beyond the settings."""

    resolve: tuple[str, ...] = ()
    sandbox: bool = False
    sandbox_seed: int = 0
    sandbox_size: str = "default"
    warc: Path | None = None
    run_id: str | None = None


def crawl(
    settings: Settings,
    request: CrawlRequest,
    on_progress: Callable[[Progress], None] | None = None,
    state: RunState | None = None,
) -> CrawlResult:
    """Start (or, given its state, resume) a run and crawl until done or stopped."""
    with ExitStack() as stack:
        resolve = request.resolve
        if request.sandbox:
            resolve = (*stack.enter_context(
                sandbox_process(request.sandbox_seed, request.sandbox_size)), *resolve)  # fmt: skip
        if state is None:
            sandbox = (
                {"seed": request.sandbox_seed, "size": request.sandbox_size}
                if request.sandbox
                else None
            )
            state = start_run(settings, resolve=request.resolve, run_id=request.run_id,
                              warc=request.warc, sandbox=sandbox)  # fmt: skip
        stack.callback(state.close)
        sink, store = _graph_sink(settings, state)
        if store is not None:
            stack.callback(store.close)
        engine = Engine(settings, state, resolve=resolve, warc=request.warc,
                        on_commit=sink, on_progress=on_progress)  # fmt: skip
        engine.replay()
        result = engine.run()
        if sink is not None:
            _finish_graph(sink)
        return result


def resume(run_id: str, request: CrawlRequest, on_progress=None) -> CrawlResult:
    """Continue a run from its last checkpoint with the settings it was started with."""
    from kgcrawl.graph.sync import run_settings

    state = RunState.open(run_id)
    meta = state.meta()
    settings = run_settings(state)
    request.resolve = tuple(meta.get("resolve", ())) + tuple(request.resolve)
    if meta.get("sandbox"):
        request.sandbox = True
        request.sandbox_seed = meta["sandbox"]["seed"]
        request.sandbox_size = meta["sandbox"]["size"]
    if meta.get("warc"):
        request.warc = Path(meta["warc"])
    return crawl(settings, request, on_progress, state=state)


def _graph_sink(settings: Settings, state: RunState):
    """The graph sink for this run, or (None, None) when no graph is configured or reachable."""
    from kgcrawl.graph.errors import GraphError
    from kgcrawl.graph.store import connect
    from kgcrawl.graph.sync import begin_run_graph

    try:
        store = connect(settings.graph.uri)
    except GraphError as exc:
        print(f"graph unavailable, crawling without it: {exc}", file=sys.stderr)
        return None, None
    if store is None:
        return None, None
    try:
        return begin_run_graph(store, state), store
    except GraphError as exc:
        print(f"graph unavailable, crawling without it: {exc}", file=sys.stderr)
        store.close()
        return None, None


def _finish_graph(sink) -> None:
    from kgcrawl.graph.errors import GraphError

    try:
        sink.writer.finish()
    except GraphError as exc:
        print(f"graph not finished ({exc}); run `kgcrawl graph sync`", file=sys.stderr)
