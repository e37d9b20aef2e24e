"""A game turn by turn in the core.

The Game class (game.py) drives a gd_game one move at a time; a gd_game has no pointers, so its
bytes are a snapshot (undo restores them).
"""

from __future__ import annotations

from typing import Any

from .._binding import ffi, lib
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index
from .movegen import MOVE_RECORD_SIZE
from .selfplay import PLAYER_KINDS

GAME_SIZE = ffi.sizeof("gd_game")


class GameState:
    """A gd_game, a workspace for choosing moves, and an error buffer."""

    __slots__ = ("game", "workspace", "error")

    def __init__(self) -> None:
        self.game = ffi.new("gd_game *")
        self.workspace = ffi.new("uint64_t[]", (lib.gd_workspace_size() + 7) // 8)  # 8-byte aligned
        self.error = ffi.new("gd_error *")

    def check(self, rc: int, what: str) -> None:
        if rc != lib.GD_OK:
            raise CoreError(_message(self.error) or f"{what} failed with code {rc}")

    def snapshot(self) -> bytes:
        return ffi.buffer(self.game, GAME_SIZE)[:]

    def restore(self, data: bytes) -> None:
        if len(data) != GAME_SIZE:
            raise CoreError(f"a game snapshot is {GAME_SIZE} bytes, not {len(data)}")
        ffi.memmove(self.game, data, GAME_SIZE)


def new_game(state: GameState, rules: Any, seed: int) -> None:
    state.check(lib.gd_game_new(state.game, rules, seed & 0xFFFFFFFFFFFFFFFF, state.error), "gd_game_new")


def game_from_position(
    state: GameState,
    rules: Any,
    board: bytes,
    racks: tuple[bytes, bytes],
    scores: tuple[int, int],
    to_move: int,
    seed: int,
) -> None:
    """racks: each player's tile counts (64 bytes, [0] the blanks)."""
    both = bytes(racks[0]).ljust(64, b"\0")[:64] + bytes(racks[1]).ljust(64, b"\0")[:64]
    score_array = ffi.new("int32_t[]", 2)
    score_array[0], score_array[1] = scores
    state.check(
        lib.gd_game_from_position(
            state.game, rules, board, both, score_array, to_move, seed & 0xFFFFFFFFFFFFFFFF, state.error
        ),
        "gd_game_from_position",
    )


def game_move(state: GameState, rules: Any, record: bytes) -> None:
    """Make the move of a gd_move record for the player to move."""
    if len(record) != MOVE_RECORD_SIZE:
        raise CoreError(f"a move record is {MOVE_RECORD_SIZE} bytes, not {len(record)}")
    move = ffi.new("gd_move *")
    ffi.memmove(move, record, MOVE_RECORD_SIZE)
    state.check(lib.gd_game_move(state.game, rules, move, state.error), "gd_game_move")


def game_board(state: GameState, squares: int) -> bytes:
    return ffi.buffer(state.game.board, squares)[:]


def game_rack(state: GameState, player: int) -> bytes:
    """Tile counts of a player's rack (64 bytes, [0] the blanks)."""
    return ffi.buffer(state.game.rack, 128)[64 * player : 64 * player + 64]


def game_unseen(state: GameState, player: int) -> list[int]:
    """What `player` cannot see (the bag and the other rack), by code ([0] the blanks)."""
    counts = ffi.new("uint32_t[]", 64)
    lib.gd_game_unseen(state.game, player, counts)
    return [int(counts[c]) for c in range(64)]


def choose_move(lexicon: OpenedLexicon, rules: Any, state: GameState, kind: str, leaves: Any = None) -> bytes:
    """The gd_move record the core's player of `kind` ("greedy" or "equity", with a gd_leaves or
    None) makes for the player to move."""
    if kind not in PLAYER_KINDS:
        raise CoreError(f"unknown player kind {kind!r}; known: {', '.join(PLAYER_KINDS)}")
    ensure_walk_index(lexicon)
    player = ffi.new("gd_player *")
    player.kind = PLAYER_KINDS[kind]
    player.leaves = ffi.NULL if leaves is None else ffi.cast("gd_leaves *", leaves)
    out = ffi.new("gd_move *")
    state.check(
        lib.gd_choose_move(lexicon.struct, rules, state.game, state.workspace, player, out, state.error),
        "gd_choose_move",
    )
    return ffi.buffer(out, MOVE_RECORD_SIZE)[:]
