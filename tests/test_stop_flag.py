"""The crawl's and the sandbox server's stop flag may be set by a signal at any moment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
# SIGTERM raised before each line the main thread runs inside `wait`, one line further
# each time: its handler sets the flag there, whatever `wait` holds at that moment.
EVERY_LINE = """
import signal, sys
from kgcrawl.stop_flag import StopFlag, stopped_by_signals

def woken_by_a_signal_at(n):
    flag, lines = StopFlag(), 0
    def trace(frame, event, arg):
        nonlocal lines
        if event == "line":
            lines += 1
            if lines == n:
                signal.raise_signal(signal.SIGTERM)  # Python runs the handler before returning
        return trace
    with stopped_by_signals(flag):
        sys.settrace(trace)
        try:
            woken = flag.wait(0.01)
        finally:
            sys.settrace(None)
    return lines >= n, woken

n = 1
while (reached := woken_by_a_signal_at(n))[0]:
    assert reached[1], n
    n += 1
print("lines", n - 1, flush=True)
"""


def test_a_signal_at_any_line_of_wait_sets_the_flag_without_a_deadlock() -> None:
    """With a threading.Event the handler's `set` waited for the lock its own `wait` held
    (a sandbox server deaf to SIGTERM, gdb): this script then never ends."""
    done = subprocess.run([sys.executable, "-c", EVERY_LINE], capture_output=True, text=True,
                          timeout=30, env={**os.environ, "PYTHONPATH": ROOT})  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    assert int(done.stdout.split()[-1]) >= 2  # `wait` ran lines, each one signalled
