"""The endgame search in the core."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._binding import ffi, lib
from .errors import CoreError, _message
from .game import GameState
from .lexicon import OpenedLexicon, ensure_walk_index
from .movegen import MOVE_RECORD_SIZE

ENDGAME_MOVE_CAPACITY = 1 << 17  # moves on the search's stack: plenty for 7-tile racks, blanks included
ENDGAME_TABLE_BYTES = 1 << 24  # 16 MiB: a million positions


class EndgameResult(NamedTuple):
    value: int  # points the player to move gains from here to the end
    depth: int
    complete: bool
    stopped: bool
    nodes: int
    line: list[bytes]  # gd_move records, both sides' moves in turn


class EndgameState:
    """A started endgame search (gd_endgame_start): its state, table and what it points at."""

    __slots__ = ("buffer", "size", "table", "error", "result", "keep")

    def __init__(self, move_capacity: int, table_bytes: int) -> None:
        self.size = int(lib.gd_endgame_size(move_capacity))
        self.buffer = ffi.new("uint64_t[]", (self.size + 7) // 8)
        self.table = ffi.new("uint64_t[]", max(2048, table_bytes // 8))
        self.error = ffi.new("gd_error *")
        self.result = ffi.new("gd_endgame_result *")
        self.keep: tuple[Any, ...] = ()

    def check(self, rc: int, what: str) -> None:
        if rc != lib.GD_OK:
            raise CoreError(_message(self.error) or f"{what} failed with code {rc}")


def endgame_start(
    lexicon: OpenedLexicon,
    rules: Any,
    game: GameState,
    move_capacity: int = ENDGAME_MOVE_CAPACITY,
    table_bytes: int = ENDGAME_TABLE_BYTES,
) -> EndgameState:
    ensure_walk_index(lexicon)
    state = EndgameState(move_capacity, table_bytes)
    state.keep = (lexicon, rules)
    table_size = max(2048, table_bytes // 8) * 8
    rc = lib.gd_endgame_start(
        state.buffer, state.size, lexicon.struct, rules, game.game, state.table, table_size, state.error
    )
    state.check(rc, "gd_endgame_start")
    return state


def endgame_search(state: EndgameState, depth: int, node_limit: int = 0) -> EndgameResult:
    """Search `depth` plies, visiting at most `node_limit` positions (0: no limit)."""
    out = state.result
    state.check(lib.gd_endgame_search(state.buffer, depth, node_limit, out, state.error), "gd_endgame_search")
    length = int(out.line_length) if not out.stopped else 0
    data = ffi.buffer(out.line, length * MOVE_RECORD_SIZE)[:] if length else b""
    line = [data[i : i + MOVE_RECORD_SIZE] for i in range(0, len(data), MOVE_RECORD_SIZE)]
    return EndgameResult(
        int(out.value), int(out.depth), bool(out.complete), bool(out.stopped), int(out.nodes), line
    )
