"""Unseen tiles: what the bag and the opponent's rack hold together, seen from one player.

The full set of the ruleset (every letter's count and the blanks) minus the tiles on the board
minus the player's rack. A blank on the board is a blank, whatever letter it stands for. The
opponent's rack is part of the unseen tiles: ``bag`` is how many of them are still in the bag
(the total less a full opponent's rack, or all of them gone to the rack near the end).

A position may hold more tiles of a letter than the set has (a typo, a home-made set): that
letter then counts as 0 unseen, and ``warnings`` says so in the words of
:func:`~gaddag_solver.board.tile_warnings`. Never a negative count, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board, held_tiles, tile_warnings
from .rack import BLANK, Rack
from .rules import Rules


@dataclass(frozen=True)
class Unseen:
    """The unseen tiles of a position.

    ``counts`` maps every letter of the alphabet, in alphabet order, then ``"?"`` for the blanks,
    to how many are unseen (0 included). ``total`` is their sum; ``bag`` how many of them are in
    the bag rather than on the opponent's rack; ``vowels``, ``consonants`` and ``blanks`` split
    ``total`` by the ruleset's ``vowels`` (a blank is neither a vowel nor a consonant).
    """

    counts: dict[str, int] = field(hash=False)
    total: int
    bag: int
    vowels: int
    consonants: int
    blanks: int
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (the counts keep their order)."""
        return {
            "counts": dict(self.counts),
            "total": self.total,
            "bag": self.bag,
            "vowels": self.vowels,
            "consonants": self.consonants,
            "blanks": self.blanks,
            "warnings": list(self.warnings),
        }


def unseen(board: Board, rack: Rack | str | None, rules: Rules | None = None) -> Unseen:
    """The tiles neither on the board nor on ``rack`` (a Rack, rack text, or None for no rack)."""
    rules = rules or board.rules
    if isinstance(rack, str):
        rack = Rack(rack, rules)
    held = held_tiles(board, rack, rules)
    full = [rules.blanks, *rules.counts]
    left = [max(0, have - used) for have, used in zip(full, held, strict=True)]
    total = sum(left)
    return unseen_from_counts(
        left, total - min(rules.rack_size, total), rules, tile_warnings(board, rack, rules)
    )


def unseen_from_counts(
    counts: list[int], bag: int, rules: Rules, warnings: list[str] | tuple[str, ...] = ()
) -> Unseen:
    """An Unseen from tile counts by code (``counts[0]`` the blanks, ``counts[c]`` letter code c;
    extra entries are ignored) and the number of them in the bag."""
    n = len(rules.alphabet)
    by_letter = dict(zip(rules.alphabet.letters, counts[1 : n + 1], strict=True))
    by_letter[BLANK] = counts[0]
    total = sum(counts[: n + 1])
    vowels = sum(by_letter[letter] for letter in rules.vowels)
    return Unseen(
        counts=by_letter,
        total=total,
        bag=bag,
        vowels=vowels,
        consonants=total - vowels - counts[0],
        blanks=counts[0],
        warnings=tuple(warnings),
    )
