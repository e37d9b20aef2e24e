"""Moves: one play on a board, as the solver reports it.

``row``/``col`` (0-based) is the first square of the main word, which runs ``direction``
(``"across"`` or ``"down"``); ``word`` is the whole main word, letters already on the board
included, with the letters blanks stand for in lower case. ``coord`` is the usual notation:
across, row number then column letter (``"8D"``); down, column letter then row number
(``"D8"``). ``tiles`` are the tiles placed: ``(row, col, letter, is_blank)`` with the letter in
upper case. ``words`` (the main word and every cross-word, with scores) is worked out by the C
core only when asked for.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .alphabet import BLANK_FLAG
from .board import PositionError, column_name

if TYPE_CHECKING:
    from .board import Board

ACROSS = "across"
DOWN = "down"
DIRECTIONS = (ACROSS, DOWN)

# The gd_move record of csrc/gaddag_solver.h: int32 score; int32 equity (hundredths of a point);
# uint8 row, col, direction, length, tiles_placed, kind; 2 reserved bytes; uint8 word[32].
# Little-endian (x86, ARM and wasm alike).
MOVE_RECORD = struct.Struct("<ii6B2x32s")
KIND_PLAY = 0
KIND_EXCHANGE = 1
KIND_PASS = 2
ON_BOARD_FLAG = 64
MAX_WORD = 32

Tile = tuple[int, int, str, bool]


@dataclass(frozen=True)
class Move:
    """One play. Sort order (as the solver returns them): score descending, then row, col,
    direction (across first), word."""

    row: int
    col: int
    direction: str
    word: str
    score: int
    tiles: tuple[Tile, ...]
    leave: str = ""
    board: Board | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction must be 'across' or 'down', not {self.direction!r}")

    @classmethod
    def _fast(
        cls,
        row: int,
        col: int,
        direction: str,
        word: str,
        score: int,
        tiles: tuple[Tile, ...],
        leave: str,
        board: Board | None,
    ) -> Move:
        """Build a Move from trusted parts without the dataclass __init__ (the solver makes
        tens of thousands at a time)."""
        move = object.__new__(cls)
        move.__dict__.update(
            row=row,
            col=col,
            direction=direction,
            word=word,
            score=score,
            tiles=tiles,
            leave=leave,
            board=board,
        )
        return move

    @property
    def is_across(self) -> bool:
        return self.direction == ACROSS

    @property
    def coord(self) -> str:
        """``"8D"`` for a word across from row 8, column D; ``"D8"`` for a word down."""
        if self.direction == ACROSS:
            return f"{self.row + 1}{column_name(self.col)}"
        return f"{column_name(self.col)}{self.row + 1}"

    @property
    def tiles_used(self) -> str:
        """The rack tiles the play uses, in word order: letters, ``?`` for a blank."""
        return "".join(
            "?" if blank else (letter if len(letter) == 1 else f"[{letter}]")
            for _r, _c, letter, blank in self.tiles
        )

    @property
    def length(self) -> int:
        """Letters in the main word (tiles already on the board included)."""
        if self.board is not None:
            return len(self._squares())
        return len(self.word)

    def _squares(self) -> list[tuple[int, int]]:
        """The squares of the main word, read off the board and the placed tiles."""
        assert self.board is not None
        dr, dc = (0, 1) if self.direction == ACROSS else (1, 0)
        placed = {(r, c) for r, c, _l, _b in self.tiles}
        rules = self.board.rules
        squares = []
        r, c = self.row, self.col
        while 0 <= r < rules.rows and 0 <= c < rules.cols and ((r, c) in placed or self.board.code(r, c)):
            squares.append((r, c))
            r, c = r + dr, c + dc
        return squares

    def record(self) -> bytes:
        """The move as a gd_move record for the C core (needs the board it was found on)."""
        board = self._board()
        alphabet = board.rules.alphabet
        placed = {(r, c): (letter, blank) for r, c, letter, blank in self.tiles}
        codes = bytearray()
        for r, c in self._squares():
            if (r, c) in placed:
                letter, blank = placed[(r, c)]
                code = alphabet.code(letter)
                codes.append(code | BLANK_FLAG if blank else code)
            else:
                codes.append(board.code(r, c) | ON_BOARD_FLAG)
        if len(codes) > MAX_WORD:
            raise PositionError(f"{self.coord} {self.word}: longer than {MAX_WORD} letters")
        return MOVE_RECORD.pack(
            self.score,
            100 * self.score,
            self.row,
            self.col,
            0 if self.direction == ACROSS else 1,
            len(codes),
            len(self.tiles),
            KIND_PLAY,
            bytes(codes),
        )

    def _board(self) -> Board:
        if self.board is None:
            raise ValueError(
                f"{self.coord} {self.word}: the words formed need the board the move was found on"
            )
        return self.board

    @cached_property
    def words(self) -> list[tuple[str, int]]:
        """Every word the play forms with its score: the main word first, then cross-words
        (left to right / top to bottom). Worked out by the C core on first access."""
        from . import _core_api as core
        from .solver import core_rules

        board = self._board()
        rules = board.rules
        alphabet = rules.alphabet
        placed = {(r, c): (letter, blank) for r, c, letter, blank in self.tiles}
        found = core.move_words(core_rules(rules), board.codes(), self.record())
        result: list[tuple[str, int]] = []
        for row, col, direction, length, score in found:
            dr, dc = (0, 1) if direction == 0 else (1, 0)
            letters = []
            for i in range(length):
                r, c = row + i * dr, col + i * dc
                if (r, c) in placed:
                    letter, blank = placed[(r, c)]
                    letters.append(letter.lower() if blank else letter)
                else:
                    code = board.code(r, c)
                    letter = alphabet.letters[(code & ~BLANK_FLAG) - 1]
                    letters.append(letter.lower() if code & BLANK_FLAG else letter)
            result.append(("".join(letters), score))
        return result

    def to_dict(self, words: bool = False) -> dict[str, Any]:
        """A JSON-ready mapping: row, col, direction, word, score, coord, tiles_used, leave (and
        ``words``: ``[{"word": .., "score": ..}, ..]`` when asked for)."""
        out: dict[str, Any] = {
            "row": self.row,
            "col": self.col,
            "direction": self.direction,
            "word": self.word,
            "score": self.score,
            "coord": self.coord,
            "tiles_used": self.tiles_used,
            "leave": self.leave,
        }
        if words:
            out["words"] = [{"word": word, "score": score} for word, score in self.words]
        return out

    def __str__(self) -> str:
        return f"{self.coord} {self.word} {self.score}"
