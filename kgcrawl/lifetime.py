"""Processes a crawl starts die with it, even when it is killed with SIGKILL.

A child that outlives its crawl (the sandbox server, an analyser) holds a port,
memory and a core for nothing. On Linux the child asks the kernel for a signal
when its parent goes (`prctl(PR_SET_PDEATHSIG)`); elsewhere a daemon thread
watches the parent's pid. Either way the child then checks the parent is still
the one that started it, because the parent may have died before the request.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
WATCH_SECONDS = 1.0


def die_with_parent(parent_pid: int, sig: int = signal.SIGTERM) -> None:
    """Call in the child, first thing: `sig` arrives when `parent_pid` exits."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
            _watch(parent_pid, sig)
    else:
        _watch(parent_pid, sig)
    if os.getppid() != parent_pid:  # gone already: the kernel will send nothing
        os.kill(os.getpid(), sig)


def _watch(parent_pid: int, sig: int) -> None:
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(WATCH_SECONDS)
        os.kill(os.getpid(), sig)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
