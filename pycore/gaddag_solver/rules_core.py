"""A ruleset as the C core reads it: the gd_rules struct, made once per ruleset.

Its own module so that everything that calls the core with a ruleset (moves, the solver, the
game, self-play) can import it without importing each other.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import _core_api as core
from .rules import Rules

__all__ = ["core_rules"]


@lru_cache(maxsize=32)
def core_rules(rules: Rules) -> Any:
    """The ruleset as the C core's gd_rules (built once per ruleset)."""
    squares = [(r, c) for r in range(rules.rows) for c in range(rules.cols)]
    return core.new_rules(
        rows=rules.rows,
        cols=rules.cols,
        rack_size=rules.rack_size,
        bingo_bonus=rules.bingo_bonus,
        start_row=rules.start[0],
        start_col=rules.start[1],
        values=[rules.blank_value, *rules.values],
        letter_multiplier=bytes(rules.letter_multiplier(r, c) for r, c in squares),
        word_multiplier=bytes(rules.word_multiplier(r, c) for r, c in squares),
        alphabet_size=len(rules.alphabet),
        tile_counts=[rules.blanks, *rules.counts],
        exchange_minimum=rules.exchange_minimum,
        scoreless_turns=rules.scoreless_turns,
        going_out_bonus=rules.going_out_bonus,
        going_out_penalty=rules.going_out_penalty,
    )
