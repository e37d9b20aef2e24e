"""Fuzz target: one CGP line, for the English rules, then solved with a small lexicon.

Contract: parse_cgp either gives a position, or raises PositionError (CgpError and RackError are
subclasses). An accepted position is written back by format_cgp as a line parse_cgp reads as
the same board and rack, and the generator gives its plays for it.
"""

from __future__ import annotations

import warnings

import atheris

with atheris.instrument_imports():
    from _common import fuzz, text
    from gaddag_solver import Lexicon, Rules, build_gaddag, solve
    from gaddag_solver.board import PositionError
    from gaddag_solver.formats.cgp import format_cgp, parse_cgp
    from small_words import WORDS

ENGLISH = Rules.load("english")
LEXICON = Lexicon.load(build_gaddag(WORDS, ENGLISH.alphabet, name="small")[0], ENGLISH)
warnings.simplefilter("ignore")  # PositionWarning: unusual but solvable positions


def test_one_input(data: bytes) -> None:
    try:
        position = parse_cgp(text(data), ENGLISH)
    except PositionError:
        return
    again = parse_cgp(format_cgp(position), ENGLISH)
    assert again.board == position.board
    assert str(again.rack) == str(position.rack)
    if len(position.rack):
        for move in solve(position.board, position.rack, LEXICON, top=3):
            assert move.score >= 0


if __name__ == "__main__":
    fuzz(test_one_input)
