"""The words on a board, and those a lexicon does not hold.

A word on the board is a run of two or more tiles along a row (across) or a column (down),
bounded by empty squares or the edge. A position typed in by hand can hold runs that are not
words (a typing slip, a board copied wrongly); the page lists them and marks their squares as a
warning. The position is still solved: move generation checks only the words a move forms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .alphabet import BLANK_FLAG
from .board import Board, column_name, letter_text
from .lexicon import Lexicon


@dataclass(frozen=True)
class BoardWord:
    """A run of tiles: as shown (lower case for blanks), as spelled (the letters the blanks
    stand for in upper case), its first square and its direction."""

    shown: str
    spelled: str
    row: int
    col: int
    across: bool
    length: int

    @property
    def coord(self) -> str:
        """``"8D"`` across from row 8, column D; ``"D8"`` down (as a move is written)."""
        if self.across:
            return f"{self.row + 1}{column_name(self.col)}"
        return f"{column_name(self.col)}{self.row + 1}"

    @property
    def squares(self) -> list[tuple[int, int]]:
        step = (0, 1) if self.across else (1, 0)
        return [(self.row + k * step[0], self.col + k * step[1]) for k in range(self.length)]

    def to_dict(self) -> dict[str, object]:
        return {
            "word": self.shown,
            "coord": self.coord,
            "direction": "across" if self.across else "down",
            "squares": [list(square) for square in self.squares],
        }


def board_words(board: Board) -> list[BoardWord]:
    """Every run of two or more tiles: the rows' runs (top to bottom, left to right), then the
    columns' (left to right, top to bottom)."""
    rules = board.rules
    alphabet = rules.alphabet
    rows, cols = rules.rows, rules.cols
    codes = board.codes()
    found: list[BoardWord] = []

    def scan(lines: int, length: int, index: Callable[[int, int], int], across: bool) -> None:
        for line in range(lines):
            k = 0
            while k < length:
                start = k
                while k < length and codes[index(line, k)]:
                    k += 1
                if k - start >= 2:
                    run = [codes[index(line, j)] for j in range(start, k)]
                    shown = "".join(letter_text(code, alphabet) for code in run)
                    spelled = alphabet.decode(code & ~BLANK_FLAG for code in run)
                    row, col = (line, start) if across else (start, line)
                    found.append(BoardWord(shown, spelled, row, col, across, k - start))
                k += 1

    scan(rows, cols, lambda r, c: r * cols + c, True)
    scan(cols, rows, lambda c, r: r * cols + c, False)
    return found


def unknown_words(board: Board, lexicon: Lexicon) -> list[BoardWord]:
    """The runs of tiles on ``board`` that ``lexicon`` does not hold, in board_words' order."""
    return [word for word in board_words(board) if word.spelled not in lexicon]
