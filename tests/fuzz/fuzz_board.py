"""Fuzz target: a board file as the command line reads it (`solve --board FILE`), the rack given
with --rack or on the line after the board (the first input byte picks which), then solved with
a small lexicon.

Contract: the CLI's board reader either gives a board and a rack, or raises PositionError
(RackError is a subclass); the generator gives the plays of any board it accepts.
"""

from __future__ import annotations

import os
import tempfile
import warnings

import atheris

with atheris.instrument_imports():
    from _common import fuzz
    from gaddag_solver import Lexicon, Rules, build_gaddag, solve
    from gaddag_solver.board import PositionError
    from gaddag_solver.cli._positions import _board_position
    from small_words import WORDS

ENGLISH = Rules.load("english")
LEXICON = Lexicon.load(build_gaddag(WORDS, ENGLISH.alphabet, name="small")[0], ENGLISH)
warnings.simplefilter("ignore")  # PositionWarning: unusual but solvable positions
FOLDER = tempfile.mkdtemp(prefix="fuzz_board_")
PATH = os.path.join(FOLDER, "board.txt")


def test_one_input(data: bytes) -> None:
    if not data:
        return
    rack = "AEIRST?" if data[0] & 1 else None
    with open(PATH, "wb") as file:
        file.write(data[1:])
    try:
        board, rack_found = _board_position(PATH, rack, ENGLISH)
    except PositionError:
        return
    for move in solve(board, rack_found, LEXICON, top=3):
        assert move.score >= 0


if __name__ == "__main__":
    fuzz(test_one_input)
