"""Moves: one play on a board, as the solver reports it.

``row``/``col`` (0-based) is the first square of the main word, which runs ``direction``
(``"across"`` or ``"down"``); ``word`` is the whole main word, letters already on the board
included, with the letters blanks stand for in lower case. ``coord`` is the usual notation:
across, row number then column letter (``"8D"``); down, column letter then row number
(``"D8"``). ``tiles`` are the tiles placed: ``(row, col, letter, is_blank)`` with the letter in
upper case. ``words`` (the main word and every cross-word, with scores) is worked out by the C
core only when asked for.

Besides tile plays (``kind == "play"``) the solver lists exchanges (``"exchange"``: ``exchanged``
holds the tiles put back, ``word`` is empty) and the pass (``"pass"``) when asked to. ``equity``
(points, or None when the move was not valued) is the score plus ``leave_value``: what the tiles
kept are worth by the leave table in use (a leave the table lacks is worth 0), or, with the bag
empty, what going out gains or keeping tiles costs (docs/equity.md).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from . import _core_api as core
from .alphabet import BLANK_FLAG
from .board import PositionError, column_name
from .rack import parse_tiles
from .rules_core import core_rules

if TYPE_CHECKING:
    from .board import Board

ACROSS = "across"
DOWN = "down"
DIRECTIONS = (ACROSS, DOWN)
PLAY = "play"
EXCHANGE = "exchange"
PASS = "pass"
KINDS = (PLAY, EXCHANGE, PASS)

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
    """One move: a tile play, an exchange or the pass. The solver returns them best first: by
    equity when it values them (then score), else by score; then plays before exchanges before
    the pass, row, col, direction (across first), word."""

    row: int
    col: int
    direction: str
    word: str
    score: int
    tiles: tuple[Tile, ...]
    leave: str = ""
    board: Board | None = field(default=None, compare=False, repr=False)
    kind: str = PLAY
    equity: float | None = None
    exchanged: str = ""

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction must be 'across' or 'down', not {self.direction!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {self.kind!r}")

    @classmethod
    def exchange(cls, tiles: str, leave: str = "", equity: float | None = None) -> Move:
        """Putting ``tiles`` (rack text, ``?`` a blank) back in the bag for as many new ones."""
        return cls(0, 0, ACROSS, "", 0, (), leave, None, EXCHANGE, equity, tiles)

    @classmethod
    def pass_turn(cls, leave: str = "", equity: float | None = None) -> Move:
        """Passing: no tiles played, none exchanged."""
        return cls(0, 0, ACROSS, "", 0, (), leave, None, PASS, equity, "")

    @property
    def is_play(self) -> bool:
        return self.kind == PLAY

    @property
    def leave_value(self) -> float | None:
        """What the move's equity adds to its score (None when the move was not valued)."""
        return None if self.equity is None else round(self.equity - self.score, 2)

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
        kind: str = PLAY,
        equity: float | None = None,
        exchanged: str = "",
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
            kind=kind,
            equity=equity,
            exchanged=exchanged,
        )
        return move

    @property
    def is_across(self) -> bool:
        return self.direction == ACROSS

    @property
    def coord(self) -> str:
        """``"8D"`` for a word across from row 8, column D; ``"D8"`` for a word down; ``""`` for
        an exchange or a pass."""
        if self.kind != PLAY:
            return ""
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

    def record(self, rules: Any = None) -> bytes:
        """The move as a gd_move record for the C core. A play needs the board it was found on;
        an exchange needs the ruleset (``rules``) to spell its tiles."""
        equity = round(100 * (self.score if self.equity is None else self.equity))
        if self.kind == PASS:
            return MOVE_RECORD.pack(0, equity, 0, 0, 0, 0, 0, KIND_PASS, b"")
        if self.kind == EXCHANGE:
            rules = rules if rules is not None else (self.board.rules if self.board is not None else None)
            if rules is None:
                raise ValueError("an exchange's record needs the ruleset to spell its tiles")
            codes = sorted(
                0 if tile == "?" else rules.alphabet.code(tile) for tile in parse_tiles(self.exchanged, rules)
            )
            return MOVE_RECORD.pack(0, equity, 0, 0, 0, len(codes), 0, KIND_EXCHANGE, bytes(codes))
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
            equity,
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
        (left to right / top to bottom). Worked out by the C core on first access. Empty for an
        exchange or a pass."""
        if self.kind != PLAY:
            return []
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
        if self.kind != PLAY:
            out["kind"] = self.kind
        if self.kind == EXCHANGE:
            out["exchanged"] = self.exchanged
        if self.equity is not None:
            out["equity"] = self.equity
            out["leave_value"] = self.leave_value
        if words:
            out["words"] = [{"word": word, "score": score} for word, score in self.words]
        return out

    def __str__(self) -> str:
        if self.kind == EXCHANGE:
            return f"exchange {self.exchanged}"
        if self.kind == PASS:
            return "pass"
        return f"{self.coord} {self.word} {self.score}"
