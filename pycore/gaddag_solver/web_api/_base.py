"""What every request shares: bad input as an answer (ApiError), and the request's fields read
and checked: names, bytes, choices, flags, numbers, the board and the rack."""

from __future__ import annotations

import re
from typing import Any

from ..board import Board
from ..limits import MAX_COUNT
from ..rack import Rack, RackError
from ..rules import Rules

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_SQUARE_IN_MESSAGE = re.compile(r"\b(?:square|at|tile \S+ at) ([A-Z]{1,2}[0-9]{1,2})\b")


class ApiError(Exception):
    """Bad input: reported to the page as {"error": message, "field": field}."""

    def __init__(self, message: str, field: str = "request") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _error(message: str, field: str) -> dict[str, Any]:
    out: dict[str, Any] = {"error": message, "field": field}
    match = _SQUARE_IN_MESSAGE.search(message)
    if match and field in ("board", "cgp"):
        out["square"] = match.group(1)
    return out


def _choice(request: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    """request[key], one of `choices` (the first when absent or null)."""
    value = request.get(key)
    if value is None:
        return choices[0]
    if value not in choices:
        raise ApiError(f"{key} must be one of {', '.join(choices)}, not {value!r}", key)
    return str(value)


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise ApiError(f"{name!r} is not a {what} name", what)
    return name


def _as_bytes(data: Any, what: str) -> bytes:
    """bytes as they are; a JS Uint8Array proxy (``to_bytes()``) copied once; other buffers once."""
    if data is None:
        raise ApiError(f"no {what} file was given", what)
    if not isinstance(data, bytes | bytearray | memoryview):
        if not callable(getattr(data, "to_bytes", None)) or isinstance(data, int):
            raise ApiError(f"the {what} file must come as bytes, not {type(data).__name__}", "request")
        data = data.to_bytes()
        if not isinstance(data, bytes | bytearray | memoryview):
            raise ApiError(f"the {what} file must come as bytes, not {type(data).__name__}", "request")
    return data if isinstance(data, bytes) else bytes(data)


def _board(rows: object, rules: Rules) -> Board:
    """A Board from the page's rows (``.`` empty, letters, lower case for blanks, ``[CH]``). The
    tiles need not be connected (a position being typed in; floating tiles are solved with a
    warning)."""
    if isinstance(rows, str):
        rows = [line for line in re.split(r"[\n/]", rows) if line.strip()]
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ApiError("the board must be a list of row strings", "board")
    try:
        return Board.from_rows(rows, rules)
    except ValueError as exc:  # PositionError, or a bracket error (board.letter_tokens)
        raise ApiError(str(exc), "board") from None


def _rack(text: object, rules: Rules) -> Rack:
    if not isinstance(text, str):
        raise ApiError("the rack must be text", "rack")
    if not text.strip():
        raise ApiError("the rack is empty: type your tiles (? for a blank)", "rack")
    try:
        return Rack(text, rules)
    except RackError as exc:
        raise ApiError(str(exc), "rack") from None


def _flag(request: dict[str, Any], key: str) -> bool:
    value = request.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(f"{key} must be true or false, not {value!r}", "request")
    return value


def _whole(request: dict[str, Any], key: str) -> int | None:
    value = request.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ApiError(f"{key} must be a whole number, not {value!r}", "request")
    if value is not None and value > MAX_COUNT:
        raise ApiError(f"{key} must be at most {MAX_COUNT}, not {value}", "request")
    return value


def _placed(move: Any) -> list[list[Any]]:
    return [[r, c, letter, blank] for r, c, letter, blank in move.tiles] if move is not None else []
