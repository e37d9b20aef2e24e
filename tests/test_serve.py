"""scripts/serve.sh (issue 26, item 14): with everything built it skips the set-up (no pip
install, no npm, no lexicon builds) and serves the page within 3 s; what is missing makes it run
the set-up (`serve.sh --check` says why, without running anything)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVE = ROOT / "scripts" / "serve.sh"
BUDGET_S = 3.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_check_says_the_set_up_is_up_to_date() -> None:
    done = subprocess.run(["bash", str(SERVE), "--check"], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "set-up up to date\n"), done.stdout + done.stderr


@pytest.mark.parametrize(
    ("env", "reason"),
    [
        ({"VENV": "/nonexistent/venv"}, "no virtual environment at /nonexistent/venv"),
        ({"SETUP": "1"}, "SETUP=1"),
    ],
)
def test_check_says_why_the_set_up_would_run(env: dict[str, str], reason: str) -> None:
    done = subprocess.run(
        ["bash", str(SERVE), "--check"], capture_output=True, text=True, timeout=30, env={**os.environ, **env}
    )
    assert (done.returncode, done.stdout) == (1, f"set-up needed: {reason}\n")


def test_serves_within_three_seconds_when_everything_is_built(site: Path) -> None:
    # `site` (tests/conftest.py) has built build/site, the wheel included, as serve.sh would
    port = free_port()
    started = time.monotonic()
    server = subprocess.Popen(
        ["bash", str(SERVE)],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, ended below
    )
    try:
        waited = None
        while time.monotonic() - started < 60 and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as answer:
                    if answer.status == 200 and b"<html" in answer.read().lower():
                        waited = time.monotonic() - started
                        break
            except OSError:
                time.sleep(0.05)
        assert waited is not None, "serve.sh did not serve the page"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert "set-up up to date" in output, output
    assert "pip install" not in output and "npm ci" not in output
    assert waited < BUDGET_S, f"served after {waited:.2f} s:\n{output}"
