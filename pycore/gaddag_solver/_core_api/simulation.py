"""Simulation in the core.

A gd_sim state is one flat buffer; the C keeps pointers to the lexicon, the rules and the leave
table, so the SimState keeps them alive.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, NamedTuple

from .._binding import ffi, lib
from .errors import CoreError, _message
from .game import GameState
from .infer import INFERRED_LEAVE
from .lexicon import OpenedLexicon, ensure_walk_index
from .movegen import MOVE_RECORD_SIZE

SIM_CANDIDATE = struct.Struct("<48sIIQqdddQ")  # gd_sim_candidate
if SIM_CANDIDATE.size != ffi.sizeof("gd_sim_candidate"):  # pragma: no cover - header and layout disagree
    raise ImportError(f"gd_sim_candidate is {ffi.sizeof('gd_sim_candidate')} bytes, not {SIM_CANDIDATE.size}")


class SimCandidateStats(NamedTuple):
    record: bytes  # the candidate's gd_move
    dropped: bool
    iterations: int
    value_sum: int  # hundredths
    value_squares: float  # hundredths squared
    wins: float
    win_squares: float
    opponent_bingos: int


class SimState:
    """A started simulation (gd_sim_start) and what it points at."""

    __slots__ = ("buffer", "options", "error", "keep", "results")

    def __init__(self) -> None:
        self.buffer = ffi.new("uint64_t[]", (lib.gd_sim_size() + 7) // 8)
        self.options = ffi.new("gd_sim_options *")
        self.error = ffi.new("gd_error *")
        self.results = ffi.new("gd_sim_candidate[]", lib.GD_SIM_MAX_CANDIDATES)
        self.keep: tuple[Any, ...] = ()

    def check(self, rc: int, what: str) -> None:
        if rc != lib.GD_OK:
            raise CoreError(_message(self.error) or f"{what} failed with code {rc}")


def sim_start(
    lexicon: OpenedLexicon,
    rules: Any,
    game: GameState,
    candidates: list[bytes],
    leaves: Any,
    plies: int,
    min_iterations: int,
    prune_z: float,
    spread_sigma: float,
    seed: int,
    opponent_leaves: list[tuple[bytes, float]] | None = None,
    win_model: tuple[Sequence[float], Sequence[float]] | None = None,
    rank_by_win: bool = False,
) -> SimState:
    """Start simulating `candidates` (gd_move records) from the game's position; `leaves` a
    gd_leaves or None; `opponent_leaves` what the opponent may have kept (64 counts by code, a
    weight), drawn from by weight for their rack (see gd_infer), or None; `win_model` the fitted
    (mean, sigma) per tiles unplayed, or None for spread_sigma's formula; `rank_by_win` ranks
    and drops by the estimated wins instead of the value."""
    ensure_walk_index(lexicon)
    if any(len(record) != MOVE_RECORD_SIZE for record in candidates):
        raise CoreError(f"a move record is {MOVE_RECORD_SIZE} bytes")
    if len(candidates) > lib.GD_SIM_MAX_CANDIDATES:
        raise CoreError(f"{len(candidates)} candidates: at most {lib.GD_SIM_MAX_CANDIDATES}")
    state = SimState()
    moves = ffi.new("gd_move[]", max(1, len(candidates)))
    if candidates:
        ffi.memmove(moves, b"".join(candidates), len(candidates) * MOVE_RECORD_SIZE)
    options = state.options
    options.leaves = ffi.NULL if leaves is None else ffi.cast("gd_leaves *", leaves)
    options.plies = plies
    options.min_iterations = min_iterations
    options.prune_z = prune_z
    options.spread_sigma = spread_sigma
    options.seed = seed & 0xFFFFFFFFFFFFFFFF
    inferred: Any = ffi.NULL
    if opponent_leaves:
        if any(len(counts) != 64 for counts, _weight in opponent_leaves):
            raise CoreError("an inferred leave is 64 counts")
        data = b"".join(INFERRED_LEAVE.pack(weight, counts) for counts, weight in opponent_leaves)
        inferred = ffi.new("gd_inferred_leave[]", len(opponent_leaves))
        ffi.memmove(inferred, data, len(data))
        options.opponent_leaves = ffi.cast("gd_inferred_leave *", inferred)
        options.opponent_leave_count = len(opponent_leaves)
    model: Any = ()
    if win_model is not None:
        mean, sigma = win_model
        if len(mean) != len(sigma) or not mean:
            raise CoreError("the win model needs as many means as sigmas")
        model = tuple(ffi.new("double[]", len(mean)) for _ in range(2))
        for target, values in zip(model, (mean, sigma), strict=True):
            ffi.memmove(target, struct.pack(f"<{len(values)}d", *values), 8 * len(values))
        options.win_mean = ffi.cast("double *", model[0])
        options.win_sigma = ffi.cast("double *", model[1])
        options.win_tiles = len(mean) - 1
    options.rank_by_win = 1 if rank_by_win else 0
    state.keep = (lexicon, rules, leaves, inferred, model)
    rc = lib.gd_sim_start(
        state.buffer, lexicon.struct, rules, game.game, moves, len(candidates), options, state.error
    )
    state.check(rc, "gd_sim_start")
    return state


def sim_run(state: SimState, iterations: int) -> None:
    """Up to `iterations` more iterations (fewer when one candidate is left)."""
    state.check(lib.gd_sim_run(state.buffer, iterations, state.error), "gd_sim_run")


def sim_results(state: SimState) -> tuple[list[SimCandidateStats], int, int]:
    """(each candidate's statistics in the order given, candidates left, iterations run)."""
    count = ffi.new("uint32_t[]", 1)
    live = ffi.new("uint32_t[]", 1)
    iterations = ffi.new("uint64_t[]", 1)
    state.check(
        lib.gd_sim_results(
            state.buffer, state.results, lib.GD_SIM_MAX_CANDIDATES, count, live, iterations, state.error
        ),
        "gd_sim_results",
    )
    n = int(count[0])
    data = ffi.buffer(state.results, n * SIM_CANDIDATE.size)[:]
    stats = [
        SimCandidateStats(record, bool(dropped), its, total, squares, wins, win_squares, bingos)
        for record, dropped, _, its, total, squares, wins, win_squares, bingos in SIM_CANDIDATE.iter_unpack(
            data
        )
    ]
    return stats, int(live[0]), int(iterations[0])


class SimScratch:
    """A thread's scratch for gd_sim_play, the row it plays into and an error buffer of its own."""

    __slots__ = ("buffer", "row", "error")

    def __init__(self) -> None:
        self.buffer = ffi.new("uint64_t[]", (lib.gd_sim_scratch_size() + 7) // 8)
        self.row = ffi.new("gd_sim_playout[]", lib.GD_SIM_MAX_CANDIDATES)
        self.error = ffi.new("gd_error *")


PLAYOUT_SIZE = ffi.sizeof("gd_sim_playout")


def sim_seeds(state: SimState, iterations: int) -> list[int]:
    """The seeds of the next `iterations` iterations (the state's generator moves on)."""
    seeds = ffi.new("uint64_t[]", max(1, iterations))
    state.check(lib.gd_sim_seeds(state.buffer, iterations, seeds, state.error), "gd_sim_seeds")
    return [int(seeds[i]) for i in range(iterations)]


def sim_play(state: SimState, scratch: SimScratch, seed: int, count: int) -> bytes:
    """The playouts of iteration `seed` for the `count` candidates (any thread, its own scratch)."""
    rc = lib.gd_sim_play(state.buffer, scratch.buffer, seed, scratch.row, scratch.error)
    if rc != lib.GD_OK:
        raise CoreError(_message(scratch.error) or f"gd_sim_play failed with code {rc}")
    return ffi.buffer(scratch.row, count * PLAYOUT_SIZE)[:]


def sim_merge(state: SimState, rows: list[bytes]) -> None:
    """Add the iterations' playouts (sim_play's rows) in order, with the stopping rule after each."""
    data = b"".join(rows)
    playouts = ffi.new("gd_sim_playout[]", max(1, len(data) // PLAYOUT_SIZE))
    if data:
        ffi.memmove(playouts, data, len(data))
    state.check(lib.gd_sim_merge(state.buffer, playouts, len(rows), state.error), "gd_sim_merge")


def sim_drop(state: SimState, index: int) -> None:
    """Mark candidate `index` dropped in a state that only plays (gd_sim_drop)."""
    state.check(lib.gd_sim_drop(state.buffer, index, state.error), "gd_sim_drop")
