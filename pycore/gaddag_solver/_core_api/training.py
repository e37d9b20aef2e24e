"""Learning leave values in the core.

gd_rack_stats over caller-owned arrays: per leave entry, the summed equity (int64 hundredths)
and the count of the racks that held it. Integer sums, so merging in any order agrees.
"""

from __future__ import annotations

import struct
from typing import Any

from .._binding import ffi, lib
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index
from .selfplay import SelfPlay


class RackStats:
    """Per-leave rack statistics for `entries` leaves (a leave table's count), merged and
    shipped between processes as bytes."""

    __slots__ = ("sums", "seen", "struct", "error")

    def __init__(self, entries: int) -> None:
        self.sums = ffi.new("int64_t[]", max(1, entries))
        self.seen = ffi.new("uint32_t[]", max(1, entries))
        self.struct = ffi.new("gd_rack_stats *")
        self.struct.sum = self.sums
        self.struct.seen = self.seen
        self.struct.entries = entries
        self.error = ffi.new("gd_error *")

    @property
    def entries(self) -> int:
        return int(self.struct.entries)

    @property
    def totals(self) -> tuple[int, int, int]:
        """(racks recorded, their summed equity, their summed squared equity), hundredths."""
        return int(self.struct.racks), int(self.struct.rack_sum), int(self.struct.rack_squares)

    def clear(self) -> None:
        lib.gd_rack_stats_clear(self.struct)

    def merge(self, other: RackStats) -> None:
        if lib.gd_rack_stats_merge(self.struct, other.struct, self.error) != lib.GD_OK:
            raise CoreError(_message(self.error))

    def sums_bytes(self) -> bytes:
        return ffi.buffer(self.sums, 8 * self.entries)[:]

    def seen_bytes(self) -> bytes:
        return ffi.buffer(self.seen, 4 * self.entries)[:]

    def to_bytes(self) -> bytes:
        """The totals, then the sums (int64 little-endian), then the counts (uint32)."""
        racks, total, squares = self.totals
        header = struct.pack("<IQqQ", self.entries, racks, total, squares)
        return header + self.sums_bytes() + self.seen_bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> RackStats:
        head = struct.calcsize("<IQqQ")
        if len(data) < head:
            raise CoreError(f"rack statistics of {len(data)} bytes: too short for their header")
        entries, racks, total, squares = struct.unpack_from("<IQqQ", data)
        if len(data) != head + 12 * entries:
            raise CoreError(
                f"rack statistics for {entries} leaves must be {head + 12 * entries} bytes, not {len(data)}"
            )
        stats = cls(entries)
        ffi.memmove(stats.sums, data[head : head + 8 * entries], 8 * entries)
        ffi.memmove(stats.seen, data[head + 8 * entries :], 4 * entries)
        stats.struct.racks = racks
        stats.struct.rack_sum = total
        stats.struct.rack_squares = squares
        return stats


def train_game(
    lexicon: OpenedLexicon, rules: Any, leaves: Any, seed: int, stats: RackStats, selfplay: SelfPlay
) -> None:
    """One training game (gd_train_game): self-play with `leaves` in both seats, each full rack's
    best equity added to `stats` for every leave it holds (`leaves` a gd_leaves, as Leaves.core).
    The game stays in selfplay.game."""
    ensure_walk_index(lexicon)
    rc = lib.gd_train_game(
        lexicon.struct, rules, leaves, seed & 0xFFFFFFFFFFFFFFFF, stats.struct, selfplay.game,
        selfplay.workspace, selfplay.error,
    )  # fmt: skip
    if rc != lib.GD_OK:
        raise CoreError(_message(selfplay.error) or f"gd_train_game failed with code {rc}")
