"""Self-play in the core.

One gd_autoplay call plays a whole game in C; Python only reads the finished gd_game back as
plain data. A SelfPlay holds the game buffer, the workspace and the two players, made once
and reused for every game a process plays.
"""

from __future__ import annotations

import struct
from typing import Any, NamedTuple

from .._binding import ffi, lib
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index

TURN_RECORD = struct.Struct("<ii6B2x32sBBBx32si")  # gd_turn: the gd_move, then its bookkeeping
TURN_SIZE = ffi.sizeof("gd_turn")
if TURN_RECORD.size != TURN_SIZE:  # pragma: no cover - the header and this layout disagree
    raise ImportError(f"gd_turn is {TURN_SIZE} bytes, but _core_api reads {TURN_RECORD.size}")
PLAYER_KINDS = {
    "greedy": lib.GD_PLAYER_GREEDY,
    "equity": lib.GD_PLAYER_EQUITY,
    "equity-pass0": lib.GD_PLAYER_EQUITY_PASS_ZERO,
}


class Turn(NamedTuple):
    """One turn of a finished game, as gd_turn records it."""

    player: int  # the seat: 0 moved first
    kind: int  # GD_PLAY, GD_EXCHANGE or GD_PASS
    score: int
    equity: int  # hundredths of a point, as the player valued the move
    row: int
    col: int
    direction: int
    word: bytes  # a play's codes (| 64 already on the board, | 128 a blank); an exchange's tiles
    tiles_placed: int
    rack: bytes  # the rack before the turn: codes ascending, 0 for a blank
    drawn: int
    total: int  # the player's score after the turn (end adjustments not included)


class PlayedGame(NamedTuple):
    """A finished game, by seat (seat 0 moved first)."""

    scores: tuple[int, int]  # final, end adjustments included
    end_adjustments: tuple[int, int]
    turns: tuple[Turn, ...]
    racks: tuple[bytes, bytes]  # what each seat held at the end: codes ascending, 0 for a blank


class SelfPlay:
    """A game buffer, a workspace and two players for gd_autoplay, reused across games."""

    __slots__ = ("game", "workspace", "players", "error", "leaves")

    def __init__(self) -> None:
        self.game = ffi.new("gd_game *")
        self.workspace = ffi.new("uint64_t[]", (lib.gd_workspace_size() + 7) // 8)  # 8-byte aligned
        self.players = ffi.new("gd_player[]", 2)
        self.error = ffi.new("gd_error *")
        self.leaves: list[Any] = [None, None]  # keeps the tables the players point at alive

    def set_player(self, seat: int, kind: str, leaves: Any = None) -> None:
        """Seat 0 or 1: kind "greedy" or "equity"; `leaves` a gd_leaves (equity only; None: every
        leave is worth 0)."""
        if kind not in PLAYER_KINDS:
            raise CoreError(f"unknown player kind {kind!r}; known: {', '.join(PLAYER_KINDS)}")
        self.players[seat].kind = PLAYER_KINDS[kind]
        self.players[seat].leaves = ffi.NULL if leaves is None else ffi.cast("gd_leaves *", leaves)
        self.leaves[seat] = leaves


def autoplay(lexicon: OpenedLexicon, rules: Any, selfplay: SelfPlay, seed: int) -> PlayedGame:
    """Play one whole game in C between the SelfPlay's players (seat 0 moves first) from the
    bag `seed` shuffles."""
    ensure_walk_index(lexicon)
    game = selfplay.game
    rc = lib.gd_autoplay(
        lexicon.struct, rules, selfplay.players, seed & 0xFFFFFFFFFFFFFFFF, game, selfplay.workspace,
        selfplay.error,
    )  # fmt: skip
    if rc != lib.GD_OK:
        raise CoreError(_message(selfplay.error) or f"gd_autoplay failed with code {rc}")
    return read_game(game)


def read_game(game: Any) -> PlayedGame:
    """A gd_game's scores, end adjustments, turns and racks as plain data."""
    count = min(int(game.turn_count), lib.GD_MAX_TURNS)
    turns = tuple(
        Turn(player, kind, score, equity, row, col, direction, word[:length], placed, rack[:rack_length],
             drawn, total)
        for (score, equity, row, col, direction, length, placed, kind, word, player, rack_length, drawn,
             rack, total) in TURN_RECORD.iter_unpack(ffi.buffer(game.history, count * TURN_SIZE)[:])
    )  # fmt: skip
    counts = ffi.buffer(game.rack, 128)[:]
    racks = tuple(
        bytes(code for code in range(64) for _ in range(counts[64 * seat + code])) for seat in (0, 1)
    )
    return PlayedGame(
        (int(game.score[0]), int(game.score[1])),
        (int(game.end_adjustment[0]), int(game.end_adjustment[1])),
        turns,
        (racks[0], racks[1]),
    )
