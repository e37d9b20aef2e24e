"""Inference of the opponent's rack in the core (gd_infer)."""

from __future__ import annotations

import struct
from typing import Any, NamedTuple

from .._binding import ffi, lib
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index
from .movegen import MOVE_RECORD_SIZE

INFERRED_LEAVE = struct.Struct("<d64s")  # gd_inferred_leave
if INFERRED_LEAVE.size != ffi.sizeof("gd_inferred_leave"):  # pragma: no cover - header and layout disagree
    raise ImportError("gd_inferred_leave's layout differs from the header's")


class InferSummary(NamedTuple):
    racks: int
    consistent: int
    exhaustive: bool
    rack_tiles: int
    bag_count: int
    prior_weight: float
    weight: float
    weight_squares: float


def infer(
    lexicon: OpenedLexicon,
    rules: Any,
    board: bytes,
    unseen: list[int],
    move: bytes,
    leaves: Any,
    tolerance: int,
    max_racks: int,
    seed: int,
) -> tuple[list[tuple[bytes, float]], InferSummary]:
    """(each leave with weight > 0 as 64 counts by code and its weight, the summary) for the
    opponent who made `move` (a gd_move record) on `board`; `unseen` by code ([0] blanks);
    `leaves` a gd_leaves or None; tolerance in hundredths."""
    ensure_walk_index(lexicon)
    if len(move) != MOVE_RECORD_SIZE:
        raise CoreError(f"a move record is {MOVE_RECORD_SIZE} bytes")
    if not 1 <= max_racks <= 10_000_000:
        raise CoreError(f"max_racks must be from 1 to 10,000,000, not {max_racks}")
    if any(not 0 <= n <= 255 for n in unseen) or len(unseen) > 64:
        raise CoreError("unseen: at most 64 counts from 0 to 255")
    options = ffi.new("gd_infer_options *")
    options.leaves = ffi.NULL if leaves is None else ffi.cast("gd_leaves *", leaves)
    options.tolerance = tolerance
    options.max_racks = max_racks
    options.seed = seed & 0xFFFFFFFFFFFFFFFF
    out = ffi.new("gd_inferred_leave[]", max_racks)
    summary = ffi.new("gd_infer_summary *")
    error = ffi.new("gd_error *")
    workspace = ffi.new("uint64_t[]", (lib.gd_workspace_size() + 7) // 8)
    moves = ffi.new("gd_move[]", 1)
    ffi.memmove(moves, move, MOVE_RECORD_SIZE)
    unseen_bytes = bytes(unseen).ljust(64, b"\0")
    board_bytes = bytes(board)
    rc = lib.gd_infer(
        lexicon.struct,
        rules,
        board_bytes,
        workspace,
        unseen_bytes,
        moves,
        options,
        out,
        max_racks,
        summary,
        error,
    )
    if rc != lib.GD_OK:
        raise CoreError(_message(error) or f"gd_infer failed with code {rc}")
    n = int(summary.leaves)
    data = ffi.buffer(out, n * INFERRED_LEAVE.size)[:] if n else b""
    leaves_out = [(counts, weight) for weight, counts in INFERRED_LEAVE.iter_unpack(data)]
    return leaves_out, InferSummary(
        int(summary.racks),
        int(summary.consistent),
        bool(summary.exhaustive),
        int(summary.rack_tiles),
        int(summary.bag_count),
        float(summary.prior_weight),
        float(summary.weight),
        float(summary.weight_squares),
    )
