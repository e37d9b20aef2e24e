"""game/threads.py: Ctrl-C while a search's helper threads start is held back until every one of
them has started, so the search's ``finally`` waits for all of them. Run in a process of its own:
Python delivers signals to the main thread, and a test may not run in it (pytest-xdist)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

SCRIPT = """
import os, signal, sys, threading
from gaddag_solver.game.threads import start_all

class InterruptedAtStart(threading.Thread):
    def start(self):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C comes as the thread starts
        super().start()

release = threading.Event()
threads = [InterruptedAtStart(target=release.wait, daemon=True) for _ in range(3)]
try:
    start_all(threads) if sys.argv[1] == "held" else [thread.start() for thread in threads]
    print("no interrupt")
except KeyboardInterrupt:
    print(sum(thread.is_alive() for thread in threads), "of 3 started")
release.set()
"""


def started(how: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, how], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no way to hold a signal back here")
def test_ctrl_c_while_threads_start_comes_once_all_have_started() -> None:
    assert started("held") == "3 of 3 started"  # every one can be waited for
    assert started("plain") == "0 of 3 started"  # Ctrl-C inside the first start: none started
