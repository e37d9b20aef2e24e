"""Work done once across pytest-xdist workers (and any other process), under a file lock.

The site (build/site*) and the browser wheel (build/wasm) are built in place, through partial
files of fixed names: two builds at once would write the same files. Under the lock the second
build finds everything up to date and writes nothing. The same lock, on another file, lets the
workers share one build of anything costly (tests/test_c_sanitizers.py's sanitized core).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

LOCK = Path(__file__).resolve().parent.parent / "build" / ".build.lock"


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (made if missing) for the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_lock() -> contextlib.AbstractContextManager[None]:
    """The lock of build/: one build of the site or the wheel at a time."""
    return locked(LOCK)


def shared_temp(factory: pytest.TempPathFactory) -> Path:
    """A temporary folder every worker of this run sees: the run's base folder (each
    pytest-xdist worker has its own below it, popen-gwN)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
