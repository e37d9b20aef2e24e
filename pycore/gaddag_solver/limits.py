"""The largest numbers a position may hold, checked where positions are read.

The core keeps scores in 32-bit integers. A file or a caller could give a score of 2147483648 or
more, which would overflow on its way into the core (an ``OverflowError`` deep in a search), or a
score that wraps later when the game adds to it. No real game comes near: the highest scores
recorded in a game are in the low thousands, even on a 21×21 board. So every reader (CGP, GCG,
:class:`~gaddag_solver.game.play.Game`, the page's requests) bounds scores at ``MAX_GAME_SCORE`` and
refuses more with a message naming the field; the rest of the program can then add scores
without overflow checks (2 × ``MAX_GAME_SCORE`` plus a game's moves stays far below 2**31).
"""

from __future__ import annotations

MAX_GAME_SCORE = 1_000_000  # a score or a cumulative total, either sign
MAX_COUNT = 2**31 - 1  # a count or a seed the core holds in 32 bits


def score_problem(value: int, field: str) -> str | None:
    """Why ``value`` cannot be the ``field`` (a score), or None when it can."""
    if -MAX_GAME_SCORE <= value <= MAX_GAME_SCORE:
        return None
    return f"{field} {value} is out of range (a score is at most {MAX_GAME_SCORE:,} either way)"
