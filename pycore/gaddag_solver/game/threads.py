"""Starting the helper threads of a search so that Ctrl-C cannot leave one running unwaited.

Ctrl-C raises KeyboardInterrupt in the main thread at its next bytecode. Raised inside
``Thread.start()`` (while it waits for the new thread to say it runs), it leaves a thread running
that ``is_alive()`` does not report yet: the caller's ``finally``, which waits for every live
helper before the state they share is freed, would skip it, and the helper would go on reading
that state while the process exits (a crash seen once in the test of Ctrl-C during a
simulation). So the signal is held back while the threads start, and delivered once they have.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable


def start_all(threads: Iterable[threading.Thread]) -> None:
    """Start ``threads``, SIGINT held back until every one has started (where the platform can
    hold a signal back and this is the main thread, the only one Python delivers signals to)."""
    hold = getattr(signal, "pthread_sigmask", None)
    if hold is None or threading.current_thread() is not threading.main_thread():
        for thread in threads:
            thread.start()
        return
    before = hold(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for thread in threads:
            thread.start()
    finally:
        hold(signal.SIG_SETMASK, before)
