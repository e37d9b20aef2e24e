"""What every command shares: exit statuses, error messages, argument types, JSON and status lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_USAGE = 2
EXIT_FAILURE = 1
NO_TABLE = "none"  # --leaves none: equity with every leave worth 0


def _error(message: str, status: int = EXIT_FAILURE) -> int:
    print(f"error: {message}", file=sys.stderr)
    return status


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _status_line(text: str) -> None:
    """Redraw one line of live status on stderr."""
    sys.stderr.write(f"\r{text}\x1b[K")
    sys.stderr.flush()
