"""Fuzz target: the bytes of a GCG file, decoded and parsed as `review` reads them.

Contract: decode_gcg gives text (or GcgError for binary data), and parse_gcg gives a game whose
every problem is a warning with a line number inside the file, or raises GcgError.
"""

from __future__ import annotations

import atheris

with atheris.instrument_imports():
    from _common import fuzz
    from gaddag_solver.formats.gcg import GcgError, decode_gcg, parse_gcg


def test_one_input(data: bytes) -> None:
    try:
        text, issues = decode_gcg(data)
        game = parse_gcg(text)
    except GcgError:
        return
    lines = max(1, len(text.splitlines()))
    for issue in [*issues, *game.warnings]:
        assert 1 <= issue.line <= lines, issue


if __name__ == "__main__":
    fuzz(test_one_input)
