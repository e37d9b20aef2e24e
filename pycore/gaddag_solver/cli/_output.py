"""JSON written a piece at a time: a result's moves, each made as it is written."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from ..move import Move
from ._common import _dumps


class _MoveDicts:
    """A result's moves as JSON-ready dicts, each made when it is written: iterating a stream of
    moves twice generates them twice rather than holding them."""

    def __init__(self, moves: Iterable[Move], words: bool) -> None:
        self.moves = moves
        self.words = words

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (move.to_dict(words=self.words) for move in self.moves)


def _write_json(value: Any, indent: int | None, level: int = 0) -> None:
    """Write ``json.dumps(value, ensure_ascii=False, indent=indent)`` to stdout a piece at a time:
    the moves of a result (_MoveDicts) are written as a list, one move at a time."""
    write = sys.stdout.write
    inner = level + 1
    if isinstance(value, dict) and value:
        write("{")
        for i, (key, item) in enumerate(value.items()):
            write(_json_gap(i, indent, inner) + _dumps(key) + ": ")
            _write_json(item, indent, inner)
        write(_json_gap(-1, indent, level) + "}")
    elif isinstance(value, (list, tuple, _MoveDicts)) and value:
        write("[")
        written = 0
        for item in value:
            write(_json_gap(written, indent, inner))
            if isinstance(value, _MoveDicts):  # flat dicts: one dumps each
                text = json.dumps(item, ensure_ascii=False, indent=indent)
                write(text if indent is None else text.replace("\n", "\n" + " " * (indent * inner)))
            else:
                _write_json(item, indent, inner)
            written += 1
        write(_json_gap(-1, indent, level) + "]" if written else "]")
    else:
        write(json.dumps(value, ensure_ascii=False, indent=indent))


def _json_gap(index: int, indent: int | None, level: int) -> str:
    """What json.dumps writes before item `index` of a container at `level` (-1: before its end)."""
    comma = "," if index > 0 else ""
    if indent is None:
        return comma + " " if index > 0 else ""
    return comma + "\n" + " " * (indent * level)
