"""CGP (crossword game position) lines: a whole position on one line.

    15/15/15/7Z7/7E7/3CONTROLE4/7D7/7A7/15/15/15/15/15/15/15 AAGLNOS/ 0/0 0 lex SOWPODS;

Fields, separated by spaces:

1. the board: rows top to bottom joined by ``/``; in a row a letter is a tile (lower case: a
   blank standing for it), a number (of any digits) a run of that many empty squares; a letter
   of several characters is written in brackets, ``[CH]``;
2. the racks: the player to move's tiles, ``/``, the opponent's (either may be empty; ``?`` is
   a blank);
3. the scores, ``PLAYER/OPPONENT`` (integers);
4. the number of consecutive scoreless turns;
5. optional opcodes, each ``name [arguments];`` (for example ``lex SOWPODS;``).

Fields 3 and 4 may be left out when reading (they default to ``0/0`` and ``0``);
:func:`format_cgp` always writes them. Errors are :class:`CgpError` naming the field, row and
column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..alphabet import AlphabetError, shown
from ..board import Board, PositionError, letter_tokens, square_name, tile_code, written
from ..limits import score_problem
from ..rack import Rack
from ..rules import Rules

_SCORES_RE = re.compile(r"(-?\d+)/(-?\d+)")
_INT_RE = re.compile(r"\d+")
_OPCODE_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


class CgpError(PositionError):
    """A CGP line that cannot be read; the message says which field and where."""


@dataclass
class Position:
    """A board, the racks and the game state of one CGP line."""

    board: Board
    rack: Rack
    opponent_rack: Rack | None = None
    scores: tuple[int, int] = (0, 0)
    zero_turns: int = 0
    opcodes: dict[str, str] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.board.rules

    @property
    def lexicon(self) -> str | None:
        """The ``lex`` opcode's argument, if any."""
        return self.opcodes.get("lex") or None

    def to_cgp(self) -> str:
        return format_cgp(self)


def parse_cgp(line: str, rules: Rules) -> Position:
    """Read one CGP line for a ruleset (board size, alphabet, rack size)."""
    text = line.strip()
    if not text:
        raise CgpError("empty CGP line")
    parts = text.split(None, 2)
    if len(parts) < 2:
        raise CgpError("CGP needs at least a board and a rack field (e.g. '15/15/…/15 AEINRST/')")
    board = _parse_board(parts[0], rules)
    rack, opponent = _parse_racks(parts[1], rules)
    rest = parts[2] if len(parts) > 2 else ""
    scores = (0, 0)
    zero_turns = 0
    head, _, tail = rest.partition(" ")
    match = _SCORES_RE.fullmatch(head)
    if match:
        scores = (int(match.group(1)), int(match.group(2)))
        for value, field in zip(
            scores, ("CGP score of the player to move", "CGP opponent's score"), strict=True
        ):
            problem = score_problem(value, field)
            if problem:
                raise CgpError(problem)
        head, _, rest = tail.strip().partition(" ")
        if not head:
            raise CgpError("CGP zero-turn count: missing after the scores")
        if not _INT_RE.fullmatch(head):
            raise CgpError(f"CGP zero-turn count: {head!r} is not a whole number")
        zero_turns = int(head)
        if not 0 <= zero_turns <= rules.scoreless_turns:
            raise CgpError(
                f"CGP zero-turn count {head}: the {rules.title} game ends after {rules.scoreless_turns} "
                f"scoreless turns, so it is 0 to {rules.scoreless_turns}"
            )
    elif "/" in head:
        raise CgpError(f"CGP scores: {head!r} is not PLAYER/OPPONENT (two integers)")
    opcodes = _parse_opcodes(rest, line)
    return Position(board, rack, opponent, scores, zero_turns, opcodes)


def _parse_board(text: str, rules: Rules) -> Board:
    rows = text.split("/")
    if len(rows) != rules.rows:
        raise CgpError(f"CGP board has {len(rows)} rows, the {rules.title} rules need {rules.rows}")
    codes = bytearray()
    for r, row in enumerate(rows):
        if not row:
            raise CgpError(f"CGP board row {r + 1} is empty (an empty row is written {rules.cols})")
        col = 0
        digits = ""
        try:
            tokens = list(letter_tokens(row))
        except ValueError as exc:
            raise CgpError(f"CGP board row {r + 1}: {exc}") from None
        for i, (_, token) in enumerate(tokens):
            if len(token) == 1 and token.isascii() and token.isdigit():
                digits += token
                following = tokens[i + 1][1] if i + 1 < len(tokens) else ""
                if len(following) == 1 and following.isascii() and following.isdigit():
                    continue
                run = int(digits)
                if digits.startswith("0"):  # "0", and "05" as well: a run is written as a plain number
                    what = (
                        "a run of 0 empty squares" if run == 0 else f"a run written {digits!r}, write {run}"
                    )
                    raise CgpError(f"CGP board row {r + 1}, column {col + 1}: {what}")
                digits = ""
                col += run
                if col > rules.cols:
                    break
                codes.extend(bytes(run))
                continue
            if col >= rules.cols:
                col += 1
                break
            try:
                codes.append(tile_code(token, rules.alphabet))
            except AlphabetError:
                raise CgpError(
                    f"CGP board row {r + 1}, column {col + 1} ({square_name(r, col)}): "
                    f"{token!r} is not a letter of the {rules.title} alphabet"
                    f"{rules.alphabet.script_hint(token)}"
                ) from None
            col += 1
        if col > rules.cols:
            raise CgpError(
                f"CGP board row {r + 1} has more than {rules.cols} squares (the {rules.title} rules "
                f"need {rules.cols})"
            )
        if col != rules.cols:
            raise CgpError(
                f"CGP board row {r + 1} has {col} squares, the {rules.title} rules need {rules.cols}"
            )
    try:
        return Board(rules, bytes(codes))
    except CgpError:
        raise
    except PositionError as exc:
        raise CgpError(f"CGP board: {exc}") from None


def _parse_racks(text: str, rules: Rules) -> tuple[Rack, Rack | None]:
    if text.count("/") > 1:
        raise CgpError(f"CGP racks: {text!r} has more than one '/' (PLAYER/OPPONENT)")
    mine, slash, theirs = text.partition("/")
    racks: list[Rack | None] = []
    for label, value in (("rack", mine), ("opponent's rack", theirs)):
        if label != "rack" and not slash:
            racks.append(None)
            continue
        try:
            racks.append(Rack(value, rules))
        except PositionError as exc:
            raise CgpError(f"CGP {label}: {exc}") from None
    rack, opponent = racks
    assert rack is not None
    return rack, opponent


def _parse_opcodes(text: str, line: str) -> dict[str, str]:
    """``name args; name args;`` → {name: args}. Semicolons inside double quotes do not end an
    opcode; the semicolon of a lone opcode may be left out (``lex NWL20``), but text after the
    last semicolon of several is refused with its column in ``line``."""
    opcodes: dict[str, str] = {}
    current = ""
    quoted = False
    pieces: list[str] = []
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            pieces.append(current)
            current = ""
        else:
            current += char
    if quoted:
        raise CgpError("CGP opcodes: a double quote is not closed")
    if current.strip():
        if pieces:
            junk = current.strip()
            column = len(line.rstrip()) - len(junk) + 1
            raise CgpError(
                f"CGP opcodes: {shown(junk)!r} at column {column} follows the last opcode's ';' "
                "(each opcode ends with ';')"
            )
        pieces.append(current)
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        name, _, args = piece.partition(" ")
        if not _OPCODE_NAME_RE.fullmatch(name):
            raise CgpError(f"CGP opcodes: {name!r} is not an opcode name")
        if name in opcodes:
            raise CgpError(f"CGP opcodes: {name!r} appears twice")
        opcodes[name] = args.strip()
    return opcodes


def format_board(board: Board) -> str:
    """The CGP board field: rows joined by ``/``, runs of empty squares as numbers."""
    rows = []
    for line in board.grid():
        out = []
        run = 0
        for token in line:
            if token is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(written(token))
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


def format_cgp(position: Position) -> str:
    """The CGP line of a position; ``parse_cgp(format_cgp(p), rules)`` gives ``p`` back."""
    opponent = str(position.opponent_rack) if position.opponent_rack is not None else ""
    fields = [
        format_board(position.board),
        f"{position.rack}/{opponent}",
        f"{position.scores[0]}/{position.scores[1]}",
        str(position.zero_turns),
    ]
    fields.extend(f"{name} {args};" if args else f"{name};" for name, args in position.opcodes.items())
    return " ".join(fields)
