"""Boards: the tiles on the squares, in the layout the C core reads.

A :class:`Board` is immutable. Squares are addressed ``board[row, col]`` (0-based) or by their
standard name (``board["H8"]``: column letter, then row number from 1). A square holds ``None``
or a letter; a blank is shown in lower case. ``board.codes()`` is the exact byte layout of the C
core: ``rows*cols`` bytes, row-major, 0 for empty, else the letter code, ``| 0x80`` for a blank.

Text form (:meth:`Board.from_text`, :meth:`Board.to_text`): one line per row, ``.`` for an empty
square, a letter for a tile, lower case for a blank. Whitespace around and inside lines is
ignored, as are blank lines. A letter of several characters (a digraph tile such as ``CH``) is
written in brackets: ``[CH]``, or ``[ch]`` for a blank.

Every constructor checks the position: the board's size against the rules and every letter
against the alphabet. Problems are :class:`PositionError` naming the square (e.g. ``H8``).
:func:`position_warnings` reports what is merely unusual: tiles not connected to the start
square (floating tiles: solved all the same, a play must touch a tile) and more tiles of a
letter than the bag holds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from .alphabet import BLANK_FLAG, Alphabet, AlphabetError
from .rules import Rules


# What the board needs of the layers above it (a move, a rack), named by shape so that the board
# imports none of them: imports point down only.
class Placement(Protocol):
    """A move's tiles and how it is written (gaddag_solver.move.Move)."""

    tiles: Sequence[tuple[int, int, str, bool]]
    word: str

    @property
    def coord(self) -> str: ...


class Tiles(Protocol):
    """A rack's tiles (gaddag_solver.rack.Rack): letters, ``?`` for a blank."""

    @property
    def tiles(self) -> Sequence[str]: ...


EMPTY = "."
_SQUARE_RE = re.compile(r"([A-Za-z]+)([0-9]+)")


class PositionError(ValueError):
    """A board, rack or position that cannot be used; the message names the square or field."""


class PositionWarning(UserWarning):
    """A position that can be solved but is unusual: tiles not connected to the start square, or
    more tiles of a letter than the bag holds."""


# ---- square names -------------------------------------------------------------------------------


def column_name(col: int) -> str:
    """Column letters as on a real board: A, B, … Z, then AA, AB, … (spreadsheet style)."""
    if col < 0:
        raise ValueError(f"column {col} is negative")
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def square_name(row: int, col: int) -> str:
    """Standard notation of a square: column letter then row number, ``(7, 7)`` → ``"H8"``."""
    return f"{column_name(col)}{row + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """``"H8"`` → ``(7, 7)``; raises ValueError for anything else."""
    match = _SQUARE_RE.fullmatch(name.strip())
    if not match:
        raise ValueError(f"{name!r} is not a square name like 'H8'")
    col = 0
    for char in match.group(1).upper():
        col = col * 26 + ord(char) - ord("A") + 1
    row = int(match.group(2))
    if row < 1:
        raise ValueError(f"{name!r}: rows are numbered from 1")
    return row - 1, col - 1


# ---- letters in text ------------------------------------------------------------------------------


def letter_tokens(text: str) -> Iterator[tuple[int, str]]:
    """Split text into ``(position, token)``: single characters, or ``[..]`` groups (brackets
    removed). Raises ValueError for an unclosed or empty bracket."""
    i = 0
    while i < len(text):
        char = text[i]
        if char == "[":
            end = text.find("]", i + 1)
            if end < 0:
                raise ValueError(f"'[' at position {i + 1} is not closed")
            if end == i + 1:
                raise ValueError(f"empty '[]' at position {i + 1}")
            yield i, text[i + 1 : end]
            i = end + 1
        else:
            yield i, char
            i += 1


def tile_code(token: str, alphabet: Alphabet) -> int:
    """The board code of one tile written as text: lower case is a blank (code | 0x80)."""
    blank = token != token.upper()
    try:
        code = alphabet.code(token)
    except AlphabetError:
        raise AlphabetError(
            f"{token!r} is not a letter of the alphabet{alphabet.script_hint(token)}"
        ) from None
    return code | BLANK_FLAG if blank else code


def letter_text(code: int, alphabet: Alphabet) -> str:
    """A tile code as text: its letter, lower case for a blank."""
    letter = alphabet.letters[(code & ~BLANK_FLAG & 0xFF) - 1]
    return letter.lower() if code & BLANK_FLAG else letter


def written(letter: str) -> str:
    """A letter as written in a grid or CGP: brackets around a letter of several characters."""
    return letter if len(letter) == 1 else f"[{letter}]"


def tiles_text(tiles: Iterable[str], alphabet: Alphabet) -> str:
    """Rack tiles (``?`` a blank) as text that reads back as the same tiles. A letter of several
    characters goes in brackets. Text without brackets is read by the longest letter first, so
    where single letters side by side would read as one tile (Spanish L, L as LL; C, H as CH),
    the first tile is put in brackets too: text holding a bracket is read a character at a time."""
    tiles = list(tiles)
    text = "".join(written(tile) for tile in tiles)
    if "[" in text or alphabet.single_characters:
        return text
    letters = [tile for tile in tiles if tile != "?"]
    if alphabet.split(alphabet.normalize("".join(letters))) == [alphabet.normalize(t) for t in letters]:
        return text
    first = tiles.index(letters[0])  # a letter, not a blank, goes in the brackets
    return "".join(tiles[:first]) + f"[{tiles[first]}]" + "".join(tiles[first + 1 :])


@functools.cache
def _valid_codes(size: int) -> bytes:
    """Every code a square may hold for an alphabet of ``size`` letters: 0 (empty), a letter, a blank."""
    return bytes([0, *range(1, size + 1), *range(BLANK_FLAG + 1, BLANK_FLAG + size + 1)])


# ---- the board ----------------------------------------------------------------------------------


class Board:
    """The tiles on a board for one ruleset. Immutable; :meth:`play` returns a new board."""

    __slots__ = ("rules", "_codes")

    def __init__(self, rules: Rules, codes: bytes | bytearray | None = None, *, check: bool = True) -> None:
        """A board from its C layout (``rows*cols`` bytes), or empty. ``check`` validates it
        (size, letters, connectivity) and raises PositionError."""
        self.rules = rules
        size = rules.rows * rules.cols
        self._codes = bytes(size) if codes is None else bytes(codes)
        if len(self._codes) != size:
            raise PositionError(
                f"a {rules.rows}×{rules.cols} board has {size} squares, not {len(self._codes)}"
            )
        self._check_codes()
        if check:
            self.validate()

    def _check_codes(self) -> None:
        """Raise PositionError unless every square is empty or a letter of the alphabet (with or
        without the blank flag): checked even when ``check`` is off, since nothing can read a
        square holding another code."""
        size = len(self.rules.alphabet)
        if not self._codes.translate(None, _valid_codes(size)):
            return
        cols = self.rules.cols
        index = next(
            i for i, code in enumerate(self._codes) if code and not 1 <= (code & ~BLANK_FLAG) <= size
        )
        square, code = square_name(index // cols, index % cols), self._codes[index]
        raise PositionError(
            f"square {square}: code {code} is not a letter of the {self.rules.title} alphabet "
            f"(1 to {size}, or {BLANK_FLAG} + that for a blank)"
        )

    # ---- construction ---------------------------------------------------------------------

    @classmethod
    def empty(cls, rules: Rules) -> Board:
        """A board with no tiles."""
        return cls(rules, check=False)

    @classmethod
    def from_text(cls, text: str, rules: Rules) -> Board:
        """Parse the grid form: one line per row, ``.`` empty, a letter a tile, lower case a blank.

        Blank lines and all whitespace are ignored (so the board blocks of
        tests/data/sowpods/positions.txt are read as they are).
        """
        rows = [re.sub(r"\s+", "", line) for line in text.splitlines()]
        rows = [row for row in rows if row]
        return cls.from_rows(rows, rules)

    @classmethod
    def from_rows(cls, rows: Iterable[str], rules: Rules) -> Board:
        """A board from its rows as text (``.`` empty, letters, ``[..]`` for long letters)."""
        rows = list(rows)
        if len(rows) != rules.rows:
            raise PositionError(f"board has {len(rows)} rows, the {rules.title} rules need {rules.rows}")
        codes = bytearray()
        for r, line in enumerate(rows):
            try:
                tokens = list(letter_tokens(line))
            except ValueError as exc:
                raise PositionError(f"board row {r + 1}: {exc}") from None
            if len(tokens) != rules.cols:
                raise PositionError(
                    f"board row {r + 1} has {len(tokens)} squares, the {rules.title} rules need {rules.cols}"
                )
            for c, (_, token) in enumerate(tokens):
                if token == EMPTY:
                    codes.append(0)
                    continue
                try:
                    codes.append(tile_code(token, rules.alphabet))
                except AlphabetError:
                    raise PositionError(
                        f"square {square_name(r, c)}: {token!r} is not a letter of the {rules.title} alphabet"
                        f"{rules.alphabet.script_hint(token)}"
                    ) from None
        return cls(rules, bytes(codes))

    # ---- reading --------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self.rules.rows

    @property
    def cols(self) -> int:
        return self.rules.cols

    def codes(self) -> bytes:
        """The C layout: ``rows*cols`` bytes, 0 empty, else letter code ``| 0x80`` for a blank."""
        return self._codes

    def code(self, row: int, col: int) -> int:
        """The C code of one square (0 when empty)."""
        self._check_square(row, col)
        return self._codes[row * self.rules.cols + col]

    def _check_square(self, row: int, col: int) -> None:
        if not (0 <= row < self.rules.rows and 0 <= col < self.rules.cols):
            raise IndexError(f"square ({row}, {col}) is off the {self.rules.rows}×{self.rules.cols} board")

    def __getitem__(self, key: tuple[int, int] | str) -> str | None:
        """``board[row, col]`` or ``board["H8"]``: the letter there (lower case for a blank) or None."""
        row, col = parse_square(key) if isinstance(key, str) else key
        code = self.code(row, col)
        return letter_text(code, self.rules.alphabet) if code else None

    @property
    def is_empty(self) -> bool:
        return not any(self._codes)

    def tile_count(self) -> int:
        """How many tiles are on the board."""
        return len(self._codes) - self._codes.count(0)

    def tiles(self) -> Iterator[tuple[int, int, str]]:
        """``(row, col, letter)`` for every tile, row by row; a blank's letter is lower case."""
        cols = self.rules.cols
        alphabet = self.rules.alphabet
        for index, code in enumerate(self._codes):
            if code:
                yield index // cols, index % cols, letter_text(code, alphabet)

    def grid(self) -> list[list[str | None]]:
        """The board as rows of squares: None for empty, else the letter (lower case for a blank)."""
        cols = self.rules.cols
        alphabet = self.rules.alphabet
        return [
            [letter_text(code, alphabet) if code else None for code in self._codes[r * cols : (r + 1) * cols]]
            for r in range(self.rules.rows)
        ]

    def to_rows(self) -> list[str]:
        cols = self.rules.cols
        alphabet = self.rules.alphabet
        return [
            "".join(
                written(letter_text(code, alphabet)) if code else EMPTY
                for code in self._codes[r * cols : (r + 1) * cols]
            )
            for r in range(self.rules.rows)
        ]

    def to_text(self) -> str:
        """The grid form, one line per row, newline-terminated; ``Board.from_text`` reads it back."""
        return "\n".join(self.to_rows()) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<Board {self.rules.name} {self.rules.rows}×{self.rules.cols}, {self.tile_count()} tiles>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self._codes == other._codes
            and (self.rules.rows, self.rules.cols, self.rules.alphabet)
            == (other.rules.rows, other.rules.cols, other.rules.alphabet)
        )

    def __hash__(self) -> int:
        return hash((self._codes, self.rules.rows, self.rules.cols))

    # ---- changing -------------------------------------------------------------------------

    def play(self, move: Placement) -> Board:
        """A new board with the move's tiles placed (this board is unchanged).

        Raises PositionError if a square the move places a tile on is occupied or off the board.
        """
        codes = bytearray(self._codes)
        cols = self.rules.cols
        for row, col, letter, blank in move.tiles:
            if not (0 <= row < self.rules.rows and 0 <= col < cols):
                raise PositionError(f"{move.coord} {move.word}: square ({row}, {col}) is off the board")
            if codes[row * cols + col]:
                raise PositionError(
                    f"{move.coord} {move.word}: square {square_name(row, col)} already holds "
                    f"{self[row, col]!r}"
                )
            try:
                code = self.rules.alphabet.code(letter)
            except AlphabetError:
                raise PositionError(
                    f"{move.coord} {move.word}: {letter!r} is not a letter of the {self.rules.title} alphabet"
                    f"{self.rules.alphabet.script_hint(letter)}"
                ) from None
            codes[row * cols + col] = code | BLANK_FLAG if blank else code
        return Board(self.rules, bytes(codes), check=False)

    # ---- checking -------------------------------------------------------------------------

    def validate(self) -> None:
        """Raise PositionError unless every tile is a letter of the alphabet. Tiles that are not
        connected to the start square are allowed (an edited board, a position from another
        program): :func:`floating_tiles` finds them and :func:`position_warnings` reports them."""
        self._check_codes()


def floating_tiles(board: Board) -> list[tuple[int, int]]:
    """The squares (row, col) of the tiles not orthogonally connected to the tile on the start
    square (every tile, when the start square is empty), in reading order."""
    rules = board.rules
    cols = rules.cols
    occupied = {(i // cols, i % cols) for i, code in enumerate(board.codes()) if code}
    start = rules.start
    seen = {start} if start in occupied else set()
    stack = list(seen)
    while stack:
        row, col = stack.pop()
        for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if nxt in occupied and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return sorted(occupied - seen)


# ---- warnings -----------------------------------------------------------------------------------


def held_tiles(board: Board, rack: Tiles | None, rules: Rules | None = None) -> list[int]:
    """The tiles the board and the rack hold together, counted as the core counts a set:
    ``[0]`` blanks (a blank on the board counts as a blank, not as its letter), ``[c]`` the
    tiles of letter code ``c``; ``len(alphabet) + 1`` entries."""
    rules = rules or board.rules
    held = [0] * (len(rules.alphabet) + 1)
    for code in board.codes():
        if code:
            held[0 if code & BLANK_FLAG else code] += 1
    if rack is not None:
        counts = rack.counts()
        for code in range(len(held)):
            held[code] += counts[code]
    return held


def position_warnings(board: Board, rack: Tiles | None, rules: Rules | None = None) -> list[str]:
    """What is unusual about a position: tiles not connected to the start square (the position
    is solved all the same, as other engines do: a play must touch a tile), then
    :func:`tile_warnings`. An empty list when all is plausible."""
    return floating_warnings(board) + tile_warnings(board, rack, rules)


def floating_warnings(board: Board) -> list[str]:
    """One message naming the first floating tile (:func:`floating_tiles`), or none."""
    floating = floating_tiles(board)
    if not floating:
        return []
    start = square_name(*board.rules.start)
    row, col = floating[0]
    first = f"{board[row, col]} at {square_name(row, col)}"
    more = f" and {len(floating) - 1} more" if len(floating) > 1 else ""
    if board.code(*board.rules.start):
        what = f"floating tile {first}{more}: not connected to the tiles on the start square {start}"
    else:
        what = f"the start square {start} is empty, but the board has tiles ({first}{more})"
    return [f"{what}; solved anyway: every play must touch a tile"]


def tile_warnings(board: Board, rack: Tiles | None, rules: Rules | None = None) -> list[str]:
    """What is unlikely about the tiles: the board and rack together hold more tiles of a letter,
    or more blanks, than the bag has."""
    rules = rules or board.rules
    held = held_tiles(board, rack, rules)
    warnings: list[str] = []
    for code, letter in enumerate(rules.alphabet.letters, start=1):
        have = held[code]
        bag = rules.counts[code - 1]
        if have > bag:
            warnings.append(
                f"the board and rack hold {have} {letter} tiles, but the {rules.title} bag has only {bag}"
            )
    if held[0] > rules.blanks:
        warnings.append(
            f"the board and rack hold {held[0]} blanks, but the {rules.title} bag has only {rules.blanks}"
        )
    return warnings
