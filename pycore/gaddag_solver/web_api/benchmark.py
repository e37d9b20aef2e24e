"""The benchmark the page runs in the browser: move generation alone, per position, on prepared boards."""

from __future__ import annotations

import re
import statistics
import time
from typing import Any

from ..board import Board, PositionError
from ..rack import Rack
from ..rules import Rules
from ._base import ApiError, _error
from .loaded import (
    _solver,
)


def parse_positions(text: str, rules: Rules) -> list[tuple[Board, Rack]]:
    """Blocks of ``rules.rows`` board lines and one rack line, separated by blank lines
    (tests/data/sowpods/positions.txt)."""
    positions = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if len(lines) != rules.rows + 1:
            raise ApiError(f"a position needs {rules.rows} board lines and a rack line", "request")
        positions.append((Board.from_rows(lines[:-1], rules), Rack(lines[-1], rules)))
    return positions


def bench(request: dict[str, Any]) -> dict[str, Any]:
    """Move generation alone: for each position, the board is prepared once (cross-sets), then
    ``Solver.solve_raw`` is timed over repeated calls (at least ``min_ms`` per position, default
    20 ms) and the mean per call is the position's figure.

    request: ``lexicon``, ``rules``, ``positions`` (text, see :func:`parse_positions`),
    ``min_ms``. Returns ``us`` (per position), ``median_us``, ``mean_us``, ``moves`` (plays per
    position) and ``calls``.
    """
    try:
        solver = _solver(request.get("lexicon"), request.get("rules"))
        text = request.get("positions")
        if not isinstance(text, str):
            raise ApiError("positions must be text", "request")
        try:
            positions = parse_positions(text, solver.rules)
        except PositionError as exc:
            raise ApiError(str(exc), "request") from None
        min_ms = request.get("min_ms", 20)
        if isinstance(min_ms, bool) or not isinstance(min_ms, int | float) or not 0 <= min_ms <= 60_000:
            raise ApiError(f"min_ms must be a number of milliseconds (0 to 60000), not {min_ms!r}", "request")
        min_s = min_ms / 1e3
        clock = time.perf_counter
        per_position: list[float] = []
        moves: list[int] = []
        calls: list[int] = []
        for board, rack in positions:
            count, _ = solver.solve_raw(board, rack)  # prepares the board
            moves.append(count)
            n = 0
            started = clock()
            elapsed = 0.0
            while elapsed < min_s or n < 3:
                solver.solve_raw(board, rack)
                n += 1
                elapsed = clock() - started
            per_position.append(elapsed / n * 1e6)
            calls.append(n)
        return {
            "positions": len(positions),
            "us": per_position,
            "median_us": statistics.median(per_position) if per_position else 0.0,
            "mean_us": statistics.fmean(per_position) if per_position else 0.0,
            "moves": moves,
            "calls": calls,
        }
    except ApiError as exc:
        return _error(exc.message, exc.field)
