"""The pre-endgame's model in the core (gd_peg_value): one move's expected outcome in one world."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._binding import ffi, lib
from .endgame import ENDGAME_MOVE_CAPACITY, EndgameState
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index
from .movegen import MOVE_RECORD_SIZE

PEG_TABLE_BYTES = 1 << 25  # 32 MiB: half a million move values, decisions and endgame outcomes
PEG_UNIT = int(lib.GD_PEG_UNIT)  # values are whole numbers of 1/PEG_UNIT of a win


class PegValue(NamedTuple):
    value: int  # in PEG_UNITs, when done
    status: int  # GD_PEG_DONE, GD_PEG_OVER_BUDGET or GD_PEG_PAUSED
    nodes: int
    endgames: int


class PegState:
    """A started pre-endgame state (gd_peg_start), its table and what it points at."""

    __slots__ = ("buffer", "size", "table", "error", "result", "move", "keep")

    def __init__(self, move_capacity: int, table_bytes: int, own_table: bool = True) -> None:
        self.size = int(lib.gd_peg_size(move_capacity))
        self.buffer = ffi.new("uint64_t[]", (self.size + 7) // 8)
        self.table = ffi.new("uint64_t[]", max(8192, table_bytes // 8)) if own_table else None
        self.error = ffi.new("gd_error *")
        self.result = ffi.new("gd_peg_result *")
        self.move = ffi.new("gd_move *")
        self.keep: tuple[Any, ...] = ()

    def check(self, rc: int, what: str) -> None:
        if rc != lib.GD_OK:
            raise CoreError(_message(self.error) or f"{what} failed with code {rc}")


def peg_start(
    lexicon: OpenedLexicon,
    rules: Any,
    leaves: Any,
    endgame: EndgameState,
    move_capacity: int = ENDGAME_MOVE_CAPACITY,
    table_bytes: int = PEG_TABLE_BYTES,
) -> PegState:
    """A pre-endgame state whose endgames are searched in ``endgame`` (a started endgame state of
    the same lexicon and rules); ``leaves`` (a gd_leaves, or None) orders the candidates."""
    ensure_walk_index(lexicon)
    state = PegState(move_capacity, table_bytes)
    state.keep = (lexicon, rules, leaves, endgame)
    table_size = max(8192, table_bytes // 8) * 8
    leaves_struct = ffi.NULL if leaves is None else ffi.cast("gd_leaves *", leaves)
    rc = lib.gd_peg_start(
        state.buffer, state.size, lexicon.struct, rules, leaves_struct, endgame.buffer,
        state.table, table_size, state.error,
    )  # fmt: skip
    state.check(rc, "gd_peg_start")
    return state


def peg_share(
    started: PegState, endgame: EndgameState, move_capacity: int = ENDGAME_MOVE_CAPACITY
) -> PegState:
    """A state for another thread sharing ``started``'s table (gd_peg_share), searching its
    endgames in ``endgame`` (that thread's own endgame search)."""
    state = PegState(move_capacity, 0, own_table=False)
    state.keep = (started, endgame)
    rc = lib.gd_peg_share(state.buffer, state.size, started.buffer, endgame.buffer, state.error)
    state.check(rc, "gd_peg_share")
    return state


def peg_value(
    state: PegState,
    board: bytes,
    mine: bytes,
    theirs: bytes,
    bag: bytes,
    spread: int,
    scoreless: int,
    record: bytes,
    budget: int = 0,
    node_limit: int = 0,
) -> PegValue:
    """The expected outcome of the move ``record`` (a gd_move) in one world (gd_peg_value); racks
    and bag as tile counts (64 bytes, [0] the blanks)."""
    if len(record) != MOVE_RECORD_SIZE:
        raise CoreError(f"a move record is {MOVE_RECORD_SIZE} bytes, not {len(record)}")
    ffi.memmove(state.move, record, MOVE_RECORD_SIZE)
    racks = [bytes(r).ljust(64, b"\0")[:64] for r in (mine, theirs, bag)]
    out = state.result
    rc = lib.gd_peg_value(
        state.buffer, board, racks[0], racks[1], racks[2], spread, scoreless, state.move,
        budget, node_limit, out, state.error,
    )  # fmt: skip
    state.check(rc, "gd_peg_value")
    return PegValue(int(out.value), int(out.status), int(out.nodes), int(out.endgames))
