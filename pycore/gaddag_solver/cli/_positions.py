"""Positions from the command line: board files, lexicons by name, and what makes a position unusable."""

from __future__ import annotations

import codecs
import sys

from .._core_api import CoreError
from ..alphabet import AlphabetError
from ..board import Board, PositionError
from ..dawg import DawgMismatchError
from ..lexicon import Lexicon, LexiconFormatError
from ..lexicons import LexiconNotFoundError, resolve_lexicon
from ..rack import Rack, RackError
from ..rules import Rules
from ..solver import EngineError, LexiconMismatchError
from ..wordlist import LINE_BREAK_BYTES

# what makes one position unusable; in batch mode such a line gets an error object
POSITION_ERRORS = (
    PositionError,
    EngineError,
    DawgMismatchError,
    LexiconNotFoundError,
    LexiconFormatError,
    LexiconMismatchError,
    AlphabetError,
    CoreError,
)


class _Lexicons:
    """Lexicons by name or path, each loaded once: --lexicon, else the CGP's ``lex`` opcode,
    else the ruleset's default."""

    def __init__(self, rules: Rules, explicit: str | None) -> None:
        self.rules = rules
        self.explicit = explicit
        self.loaded: dict[str, Lexicon] = {}

    def get(self, from_position: str | None = None) -> Lexicon:
        name = self.explicit or from_position or self.rules.default_lexicon
        if not name:
            raise LexiconNotFoundError(
                f"ruleset {self.rules.name!r} has no default lexicon: give --lexicon NAME|PATH"
            )
        if name not in self.loaded:
            self.loaded[name] = Lexicon.load(resolve_lexicon(name))
        return self.loaded[name]


def _text_lines(path: str) -> list[str | UnicodeDecodeError]:
    """The lines of a text file ('-': stdin), ends LF, CRLF or CR, a UTF-8 byte order mark at the
    start skipped. Each line is decoded on its own: one that is not UTF-8 is its UnicodeDecodeError
    (see :func:`_not_text`), so a bad byte spoils only its own line."""
    if path == "-":
        stdin = sys.stdin
        data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    lines = LINE_BREAK_BYTES.split(data.removeprefix(codecs.BOM_UTF8))
    if lines[-1] == b"":
        lines.pop()
    decoded: list[str | UnicodeDecodeError] = []
    for raw in lines:
        try:
            decoded.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            decoded.append(exc)
    return decoded


def _not_text(error: UnicodeDecodeError) -> str:
    """What is wrong with a line that is not UTF-8 text, and where in the line."""
    return f"not UTF-8 text (byte 0x{error.object[error.start]:02x} at column {error.start + 1})"


def _board_position(path: str, rack_text: str | None, rules: Rules) -> tuple[Board, Rack]:
    """A board file in the grid form; the rack is --rack or the line after the board, not both."""
    lines = []
    for number, line in enumerate(_text_lines(path), 1):
        if isinstance(line, UnicodeDecodeError):
            raise PositionError(f"{path}: line {number}: {_not_text(line)}; a board file is text")
        if "\0" in line:
            raise PositionError(f"{path}: line {number}: a NUL byte; a board file is text")
        if squares := "".join(line.split()):
            lines.append(squares)
    if len(lines) == rules.rows + 1:  # positions.txt blocks: the rack follows the board
        last = lines.pop()
        if rack_text is not None:
            raise PositionError(
                f"{path}: {rules.rows} board rows and a rack ({last!r}), and --rack gives the rack too: "
                "give the rack in one place"
            )
        try:
            return Board.from_rows(lines, rules), Rack(last, rules)
        except RackError as exc:
            raise RackError(f"{path}: the line after the board is read as the rack: {exc}") from None
    if rack_text is None:
        raise PositionError(f"{path}: give the rack with --rack (or on the line after the board)")
    return Board.from_rows(lines, rules), Rack(rack_text, rules)
