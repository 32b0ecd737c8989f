"""Running a domain's crawl end to end: settings, sandbox web, engine, knowledge graph.

This is what `kgcrawl crawl` does, as a library call: it sits above `crawl` and
`graph` and wires them — the engine commits outcomes to the run state, and a
sink turns each commit into graph rows; a graph that is down never stops the
crawl (the rows wait in the run state; `graph sync` brings the graph to parity,
and the end of a crawl runs it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from kgcrawl.config import Settings
from kgcrawl.crawl.budget import change_budget
from kgcrawl.crawl.engine import (
    CrawlResult,
    Engine,
    Executor,
    OnOutcome,
    Progress,
    start_run,
)
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.versions import switch_ontology
from kgcrawl.crawl.workers import WorkersUnavailable
from kgcrawl.errors import KgcrawlError
from kgcrawl.sandbox.hazards import CRAWL_DELAY_SECONDS

if TYPE_CHECKING:
    from kgcrawl.graph.sync import GraphSink

SANDBOX_START_SECONDS = 30


class SandboxStartError(KgcrawlError):
    """The background sandbox server did not come up."""


@contextmanager
def sandbox_process(
    seed: int = 0,
    size: str = "default",
    slow_delay: float = 0.5,
    hang: float = 30.0,
    profile: str = "default",
    crawl_delay: float = CRAWL_DELAY_SECONDS,
) -> Iterator[list[str]]:
    """`kgcrawl sandbox serve` in a child process (its own core); yields the --resolve list."""
    command = [sys.executable, "-m", "kgcrawl", "sandbox", "serve", "--port", "0",
               "--seed", str(seed), "--size", size, "--profile", profile,
               "--slow-delay", str(slow_delay), "--hang", str(hang),
               "--crawl-delay", str(crawl_delay),
               "--parent", str(os.getpid())]  # fmt: skip
    # its error output goes to a file, not to a pipe nobody reads while it serves
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=errors, text=True, bufsize=1
        )
        try:
            yield _resolve_list(process, errors)
        finally:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()


def _resolve_list(process: subprocess.Popen, errors: IO[str]) -> list[str]:
    """The --resolve mapping the server prints once it listens, or why it did not start."""
    for line in process.stdout:  # bounded: the server prints two lines, then waits
        found = re.search(r"--resolve '([^']+)'", line)
        if found:
            return [found.group(1)]
    code = process.wait(5)
    errors.seek(0)
    lines = errors.read().strip().splitlines()
    said = lines[-1].removeprefix("error: ") if lines else "it said nothing"
    raise SandboxStartError(f"the sandbox server exited (code {code}): {said}")


@dataclass
class CrawlRequest:
    """What the command line asked for, beyond the settings."""

    resolve: tuple[str, ...] = ()
    sandbox: bool = False
    sandbox_seed: int = 0
    sandbox_size: str = "default"
    sandbox_profile: str = "default"
    warc: Path | None = None
    run_id: str | None = None
    ontology: Path | None = None  # resume: go on with this ontology version
    max_pages: int | None = None  # resume: go on to this page budget (crawl/budget.py)
    executor: str = "local"  # or "ray": where the workers run (crawl/workers.py)
    ray_address: str | None = None  # ray: "auto", "ray://HOST:10001", None for a local Ray


class RequestError(KgcrawlError):
    """A crawl option is wrong; found before any run exists."""


def check_request(request: CrawlRequest, new_run: bool, new_archive: bool) -> None:
    """Every option that could fail later checked now, so a mistake leaves no empty run.

    `new_archive`: the WARC starts with this crawl (a resume goes on with its own).
    """
    from kgcrawl.crawl.addresses import parse_resolve
    from kgcrawl.crawl.state import StateError, check_run_id, state_path

    for mapping, entry in zip(parse_resolve(request.resolve), request.resolve, strict=True):
        if not 1 <= mapping.port <= 65535:
            raise RequestError(f"--resolve {entry}: port {mapping.port} is not in 1-65535")
    if new_run and request.run_id is not None:
        check_run_id(request.run_id)
        if state_path(request.run_id).exists():
            raise StateError(f"--run-id {request.run_id}: a run of that id exists already")
    warc = request.warc
    if warc is not None:
        if warc.is_dir():
            raise RequestError(f"--warc {warc}: is a folder; name a file (e.g. crawl.warc.gz)")
        if not warc.parent.is_dir():
            raise RequestError(f"--warc {warc}: no folder {warc.parent}")
        if warc.exists() and not warc.is_file():
            raise RequestError(f"--warc {warc}: not a regular file")
        if new_archive and warc.is_file() and warc.stat().st_size:
            raise RequestError(f"--warc {warc}: the file exists; a new run starts a new archive")


def crawl(
    settings: Settings,
    request: CrawlRequest,
    on_progress: Callable[[Progress], None] | None = None,
    state: RunState | None = None,
    on_outcome: OnOutcome | None = None,
) -> CrawlResult:
    """Start (or, given its state, resume) a run and crawl until done or stopped.

    A new run's `alpha = "auto"` / `beta = "auto"` are calibrated first (cached per
    ontology), so the run records the numbers it used.
    """
    from kgcrawl.calibrate import composed_for, resolve_thresholds

    Executor(request.executor, request.ray_address).check()  # before anything is started
    new_archive = state is None or not state.meta().get("warc")
    check_request(request, new_run=state is None, new_archive=new_archive)
    if state is None:
        settings = resolve_thresholds(settings, _announce)
    begun = state is None  # a run this call begins: removed if its workers never start
    with ExitStack() as stack:
        if state is not None:
            stack.callback(state.close)  # and its run lock, whatever happens next
        resolve = request.resolve
        if request.sandbox:
            server = sandbox_process(request.sandbox_seed, request.sandbox_size,
                                     profile=request.sandbox_profile)  # fmt: skip
            resolve = (*stack.enter_context(server), *resolve)
        if state is None:
            sandbox = None
            if request.sandbox:
                sandbox = {"seed": request.sandbox_seed, "size": request.sandbox_size,
                           "profile": request.sandbox_profile}  # fmt: skip
            state = start_run(settings, resolve=request.resolve, run_id=request.run_id,
                              warc=request.warc, sandbox=sandbox,
                              composed=composed_for(settings))  # fmt: skip
            stack.callback(state.close)
        sink = _graph_sink(settings, state)
        if sink is not None:
            stack.callback(sink.store.close)
        engine = Engine(settings, state, resolve=resolve, warc=request.warc,
                        on_commit=sink, on_progress=on_progress, on_outcome=on_outcome,
                        executor=Executor(request.executor, request.ray_address))  # fmt: skip
        replayed = engine.replay()
        try:
            result = engine.run()
        except WorkersUnavailable:
            if begun and not state.count():
                _discard(state, sink)
            raise
        if sink is not None and _finish_graph(sink, settings, state, replayed):
            result.graph = settings.graph.uri.strip()
        return result


def resume(
    run_id: str,
    request: CrawlRequest,
    on_progress: Callable[[Progress], None] | None = None,
    on_outcome: OnOutcome | None = None,
) -> CrawlResult:
    """Continue a run from its last checkpoint with the settings it was started with."""
    from kgcrawl.graph.sync import run_settings

    state = RunState.open(run_id, lock=True)  # released by state.close() in `crawl`
    try:
        meta = state.meta()
        settings = run_settings(state)
        request.resolve = tuple(meta.get("resolve", ())) + tuple(request.resolve)
        if meta.get("sandbox"):
            request.sandbox = True
            request.sandbox_seed = meta["sandbox"]["seed"]
            request.sandbox_size = meta["sandbox"]["size"]
            request.sandbox_profile = meta["sandbox"].get("profile", "default")  # older: default
        if meta.get("warc"):
            request.warc = _own_archive(run_id, Path(meta["warc"]), meta, request.warc)
        elif request.warc is not None:  # archived from this resume on
            check_request(request, new_run=False, new_archive=True)
            request.warc = request.warc.resolve()
            state.set_meta({"warc": str(request.warc), "warc_offset": 0})
        if request.ontology is not None:
            switch_ontology(state, settings, request.ontology)
        if request.max_pages is not None:
            settings = change_budget(state, settings, request.max_pages)
    except BaseException:
        state.close()
        raise
    return crawl(settings, request, on_progress, state=state, on_outcome=on_outcome)


def _own_archive(run_id: str, recorded: Path, meta: dict, given: Path | None) -> Path:
    """The run's WARC file, checked before a resume cuts it back to its checkpoint: the file
    there must be the run's own, or a resume from another folder would cut a stranger's
    archive of the same name and zero-fill a missing one (both happened)."""
    from kgcrawl.crawl.warc import archive_problem

    if given is not None and given.resolve() != recorded.resolve():
        raise RequestError(f"--warc {given}: run {run_id} archives to {recorded}; a run keeps "
                           "its archive")  # fmt: skip
    problem = archive_problem(recorded, run_id, meta.get("warc_offset") or 0)
    if problem:
        raise RequestError(f"run {run_id}'s archive {recorded}: {problem}")
    return recorded


def _discard(state: RunState, sink: GraphSink | None) -> None:
    """Remove a run that fetched nothing, and its Crawl node: its --run-id starts afresh."""
    from kgcrawl.graph.errors import GraphError
    from kgcrawl.runs import delete_run

    run_id = state.meta()["run_id"]
    if sink is not None:
        with suppress(GraphError):  # a node left behind counts no page
            sink.writer.forget_crawl(run_id)
    state.close()  # its lock too, which delete_run takes
    delete_run(run_id)


def _graph_sink(settings: Settings, state: RunState) -> GraphSink | None:
    """The graph sink for this run, or None when no graph is configured or reachable."""
    from kgcrawl.graph.errors import GraphError
    from kgcrawl.graph.store import connect
    from kgcrawl.graph.sync import begin_run_graph

    try:
        store = connect(settings.graph.uri)
    except GraphError as exc:
        _graph_behind(state, exc, "crawling without it")
        return None
    if store is None:
        return None
    try:
        return begin_run_graph(store, state)
    except GraphError as exc:
        _graph_behind(state, exc, "crawling without it")
        store.close()
        return None


def _finish_graph(sink: GraphSink, settings: Settings, state: RunState, replayed: int) -> bool:
    """Bring the graph to parity at the end of a crawl (True), or say plainly that it is behind.

    An embedded server that died during the crawl is started again (as the
    command would start it) and the run rewritten into it; any other graph
    that is still down is left to `kgcrawl graph sync RUN`.
    """
    from kgcrawl.graph.errors import GraphError, GraphUnavailable
    from kgcrawl.graph.store import connect
    from kgcrawl.graph.sync import sync_state

    try:
        sink.finish(state, replayed)
        return True
    except GraphUnavailable as exc:
        if settings.graph.uri.strip() != "embedded":
            _graph_behind(state, exc)
            return False
    except GraphError as exc:
        _graph_behind(state, exc)
        return False
    try:
        with connect("embedded") as store:  # starts it again under this command's lease
            sync_state(store, state)
    except GraphError as exc:
        _graph_behind(state, exc)
        return False
    return True


def _announce(line: str) -> None:
    print(line, file=sys.stderr)


def _graph_behind(state: RunState, error: Exception, doing: str = "") -> None:
    """One plain line: what failed, and the command that brings the graph to parity."""
    run_id = state.meta()["run_id"]
    print(
        f"graph: {error}{'; ' + doing if doing else ''}; the graph lacks part of run {run_id}: "
        f"run `kgcrawl graph sync {run_id}` once it is reachable",
        file=sys.stderr,
    )
