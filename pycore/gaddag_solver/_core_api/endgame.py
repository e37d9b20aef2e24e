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
    value: int  # points the player to move gains from here to the end (or a bound on it)
    depth: int
    complete: bool
    stopped: bool
    nodes: int
    line: list[bytes]  # gd_move records, both sides' moves in turn
    bound: int = 0  # GD_BOUND_EXACT, _LOWER (value reached beta) or _UPPER (value did not pass alpha)
    # gd_endgame_stats: generations, horizon generations, hint cuts, killer tries, killer cuts, deferred,
    # moves refuted by the opponent's going out, positions refuted by the player's best alone
    stats: tuple[int, ...] = ()


class EndgameState:
    """A started endgame search (gd_endgame_start): its state, table and what it points at."""

    __slots__ = ("buffer", "size", "table", "error", "result", "keep")

    def __init__(self, move_capacity: int, table_bytes: int, table: Any = None) -> None:
        self.size = int(lib.gd_endgame_size(move_capacity))
        self.buffer = ffi.new("uint64_t[]", (self.size + 7) // 8)
        self.table = ffi.new("uint64_t[]", max(2048, table_bytes // 8)) if table is None else table
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


def endgame_search(
    state: EndgameState,
    depth: int,
    node_limit: int = 0,
    window: tuple[int, int] | None = None,
) -> EndgameResult:
    """Search `depth` plies, searching at most `node_limit` positions the table does not answer
    (0: no limit); with `window` (alpha, beta) a value outside it is only a bound
    (gd_endgame_search_window)."""
    out = state.result
    if window is None:
        rc = lib.gd_endgame_search(state.buffer, depth, node_limit, out, state.error)
    else:
        alpha, beta = window
        rc = lib.gd_endgame_search_window(state.buffer, depth, alpha, beta, node_limit, out, state.error)
    state.check(rc, "gd_endgame_search")
    length = int(out.line_length) if not out.stopped else 0
    data = ffi.buffer(out.line, length * MOVE_RECORD_SIZE)[:] if length else b""
    line = [data[i : i + MOVE_RECORD_SIZE] for i in range(0, len(data), MOVE_RECORD_SIZE)]
    st = out.stats
    stats = (
        int(st.generations),
        int(st.horizon_generations),
        int(st.hint_cuts),
        int(st.killer_tries),
        int(st.killer_cuts),
        int(st.deferred),
        int(st.out_bound_cuts),
        int(st.solo_cuts),
        int(st.last_tile_cuts),
    )
    return EndgameResult(
        int(out.value),
        int(out.depth),
        bool(out.complete),
        bool(out.stopped),
        int(out.nodes),
        line,
        int(out.bound) if not out.stopped else 0,
        stats,
    )


def endgame_root_moves(state: EndgameState, records: list[bytes], exclude: bool) -> None:
    """Search only these first moves (exclude False) or all but these (gd_endgame_root_moves)."""
    moves = ffi.new("gd_move[]", max(1, len(records)))
    if records:
        ffi.memmove(moves, b"".join(records), len(records) * MOVE_RECORD_SIZE)
    rc = lib.gd_endgame_root_moves(state.buffer, moves, len(records), int(exclude), state.error)
    state.check(rc, "gd_endgame_root_moves")


def endgame_restart(state: EndgameState, game: GameState) -> None:
    """Set a started search to another position (the bag empty), keeping its table."""
    state.check(lib.gd_endgame_restart(state.buffer, game.game, state.error), "gd_endgame_restart")


def endgame_share(started: EndgameState, move_capacity: int = ENDGAME_MOVE_CAPACITY) -> EndgameState:
    """Another state of `started`'s search, sharing its table (gd_endgame_share): for a thread of
    its own, searching the same position together with it."""
    state = EndgameState(move_capacity, 0, table=started.table)
    state.keep = started.keep
    shared = lib.gd_endgame_share(state.buffer, state.size, started.buffer, state.error)
    state.check(shared, "gd_endgame_share")
    return state
