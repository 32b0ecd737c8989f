"""One process at a time per run: an exclusive `flock` on `<run>/run.lock`.

Two crawls of one run would both append outcomes with the same sequence numbers
(the second dies at its first checkpoint) and both append to the WARC. The lock
is taken before the run is read for crawling and held until the crawl ends; the
kernel releases it when the holder exits in any way (`kill -9` included), so a
killed run never stays locked. The holder's pid is written into the file only to
name it in the refusal.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from kgcrawl.errors import KgcrawlError

LOCK_NAME = "run.lock"


class RunLocked(KgcrawlError):
    """Another process crawls this run now."""


class RunLock:
    """Held from `acquire` to `release` (or the end of the process)."""

    def __init__(self, folder: Path, run_id: str) -> None:
        self.path = folder / LOCK_NAME
        self.run_id = run_id
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        """Take the lock now or raise RunLocked naming the holder; never waits."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise RunLocked(
                f"run {self.run_id} is being crawled by another process (pid {holder}); "
                "wait for it to end or stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
