"""Instructions a Python snippet executes inside one C function, counted by valgrind's callgrind:
the same count on every run, so two builds of the core can be compared on a busy machine."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile


def instructions_in(function: str, code: str) -> int:
    """Run `code` in a fresh interpreter under callgrind; the instructions executed while inside
    `function` (and what it calls). Exits with a message when valgrind is missing or fails."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        raise SystemExit("--instructions needs valgrind")
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run(
            [valgrind, "--tool=callgrind", "--collect-atstart=no", f"--toggle-collect={function}",
             f"--callgrind-out-file={folder}/callgrind.out", sys.executable, "-c", code],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or not found:
        raise SystemExit(f"callgrind gave no count inside {function}:\n{result.stderr[-2000:]}")
    return int(found.group(1))
