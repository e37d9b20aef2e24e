"""Positions from the command line: board files, lexicons by name, and what makes a position unusable."""

from __future__ import annotations

import codecs
import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any

from .._core_api import CoreError
from ..alphabet import AlphabetError
from ..board import Board, PositionError
from ..dawg import DawgMismatchError
from ..file_io import BOARD_CAP, MIB, POSITION_LINE_CAP, read_capped
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
    """The lines of a board file ('-': stdin), at most BOARD_CAP bytes (a PositionError beyond),
    ends LF, CRLF or CR, a UTF-8 byte order mark at the start skipped. Each line is decoded on its
    own: one that is not UTF-8 is its UnicodeDecodeError (see :func:`_not_text`), so a bad byte
    spoils only its own line."""
    data = read_capped(path, BOARD_CAP, "board file", PositionError)
    lines = LINE_BREAK_BYTES.split(data.removeprefix(codecs.BOM_UTF8))
    if lines[-1] == b"":
        lines.pop()
    return [_decoded(raw) for raw in lines]


def _batch_lines(path: str) -> Iterator[str | UnicodeDecodeError]:
    """:func:`_text_lines` of a position batch ('-': stdin), read as it comes: a batch may be as
    long as it likes, each line is given as soon as it is complete, and only a line longer than
    POSITION_LINE_CAP (no CGP is) is refused, with a PositionError."""
    name = "standard input" if path == "-" else path
    with _binary_input(path) as handle:
        read = getattr(handle, "read1", None) or handle.read  # what is there, not a full block (a pipe)
        carry = b""
        number = 0  # lines given so far
        while True:
            block = read(MIB)
            data = carry + block
            tail = b"\r" if block and data.endswith(b"\r") else b""  # its \n may come next
            lines = LINE_BREAK_BYTES.split(data[: len(data) - len(tail)])
            carry = lines.pop() + tail
            if not block and carry:  # the end: the last line need not end with a line break
                lines.append(carry)
            if number == 0 and lines:
                lines[0] = lines[0].removeprefix(codecs.BOM_UTF8)
            number += len(lines)
            yield from map(_decoded, lines)
            if not block:
                return
            if len(carry) > POSITION_LINE_CAP:
                raise PositionError(
                    f"{name}: line {number + 1} is longer than {POSITION_LINE_CAP // MIB} MiB, "
                    "the most a line of a position batch may be"
                )


def _binary_input(path: str) -> Any:
    """The file, or stdin's bytes, to read in a ``with`` (stdin is not closed)."""
    if path != "-":
        return open(path, "rb")
    stdin: Any = sys.stdin
    stream = getattr(stdin, "buffer", None) or io.BytesIO(stdin.read().encode())
    return contextlib.nullcontext(stream)


def _decoded(raw: bytes) -> str | UnicodeDecodeError:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc


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
