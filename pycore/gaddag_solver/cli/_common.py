"""What every command shares: exit statuses, error messages, argument types, JSON and status lines."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

EXIT_USAGE = 2
EXIT_FAILURE = 1
NO_TABLE = "none"  # --leaves none: equity with every leave worth 0


def _error(message: str, status: int = EXIT_FAILURE) -> int:
    print(f"error: {message}", file=sys.stderr)
    return status


def _whole(text: str, least: int) -> int:
    """An argument that is a whole number, ``least`` or more (an argparse type's error otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def _count(text: str) -> int:
    return _whole(text, 0)


def _at_least_one(text: str) -> int:
    return _whole(text, 1)


def _seconds(text: str) -> float:
    """A time limit in seconds: a finite number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, not {text}")
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _status_line(text: str) -> None:
    """Redraw one line of live status on stderr."""
    sys.stderr.write(f"\r{text}\x1b[K")
    sys.stderr.flush()


def _print_columns(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    """A plain table: each column as wide as its widest cell."""
    widths = [max(len(h), *(len(r[k]) for r in rows)) if rows else len(h) for k, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
    for row in rows:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
