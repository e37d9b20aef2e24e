"""Leave tables in the core.

A .leaves file (docs/leaves-format.md) opens into a gd_leaves that points into its bytes; the
OpenedLeaves keeps both together. Tile sets travel as lists of ints: [0] the blanks, [c] the
tiles of letter code c. Values are int16 hundredths of a point, as little-endian bytes in bulk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._binding import ffi, lib
from .errors import CoreBuildError, CoreError, CoreFormatError, _message
from .lexicon import _aligned_buffer

LEAVES_TILE_COUNTS_OFFSET = 28  # where the file's tile counts (u16 each, blanks first) start


@dataclass
class OpenedLeaves:
    """A validated leave table and the memory that must outlive it."""

    struct: Any
    buffer: Any
    ruleset: str
    count: int
    alphabet_size: int
    max_leave: int
    tile_counts: list[int]
    size: int


def _tile_set(tile_counts: list[int]) -> Any:
    counts = ffi.new("uint32_t[]", 64)
    for code, number in enumerate(tile_counts[:64]):
        counts[code] = max(0, min(number, 0xFFFFFFFF))
    return counts


def leaves_count(tile_counts: list[int], max_leave: int) -> int:
    """How many leaves of 1..max_leave tiles the tile set has (0 if unusable or over 2^31)."""
    counts = _tile_set(tile_counts)
    return int(lib.gd_leaves_count(counts, len(tile_counts) - 1, max_leave))


def build_leaves(tile_counts: list[int], max_leave: int, ruleset: bytes, values: bytes) -> bytes:
    """A .leaves file from `values` (int16 little-endian, in entry order)."""
    counts = _tile_set(tile_counts)
    entries = len(values) // 2
    array = ffi.new("int16_t[]", max(entries, 1))
    ffi.memmove(array, values, 2 * entries)
    out = ffi.new("uint8_t **")
    out_size = ffi.new("size_t *")
    err = ffi.new("gd_error *")
    rc = lib.gd_leaves_build(
        counts, len(tile_counts) - 1, max_leave, ruleset, len(ruleset), array, entries, out, out_size, err
    )
    if rc != lib.GD_OK:
        raise CoreBuildError(_message(err))
    try:
        return ffi.buffer(out[0], out_size[0])[:]
    finally:
        lib.gd_free(out[0])


def open_leaves(data: bytes | bytearray | memoryview) -> OpenedLeaves:
    buffer = _aligned_buffer(data)
    size = len(data)
    struct = ffi.new("gd_leaves *")
    err = ffi.new("gd_error *")
    rc = lib.gd_leaves_open(struct, ffi.cast("uint8_t *", buffer), size, err)
    if rc != lib.GD_OK:
        raise CoreFormatError(_message(err), int(err.offset))
    raw = ffi.buffer(ffi.cast("uint8_t *", buffer), struct.ruleset_offset + struct.ruleset_length)[:]
    n = struct.alphabet_size
    start = LEAVES_TILE_COUNTS_OFFSET
    tile_counts = [int.from_bytes(raw[start + 2 * c : start + 2 * c + 2], "little") for c in range(n + 1)]
    return OpenedLeaves(
        struct,
        buffer,
        raw[struct.ruleset_offset :].decode("ascii"),
        int(struct.count),
        int(n),
        int(struct.max_leave),
        tile_counts,
        size,
    )


def leaves_values(leaves: OpenedLeaves) -> bytes:
    """Every value of the table, int16 little-endian, in entry order."""
    return ffi.buffer(leaves.struct.values, 2 * leaves.count)[:]


def leaves_index(leaves: OpenedLeaves, counts: bytes) -> int | None:
    """The entry of the leave with counts[c] tiles of code c, or None if the table has none."""
    index = ffi.new("uint32_t *")
    if lib.gd_leaves_index(leaves.struct, bytes(counts).ljust(64, b"\0"), index) != lib.GD_OK:
        return None
    return int(index[0])


def leaves_tiles(leaves: OpenedLeaves, index: int) -> bytes:
    """The tile counts (alphabet_size + 1 bytes) of entry `index`."""
    counts = ffi.new("uint8_t[]", 64)
    if not 0 <= index < leaves.count or lib.gd_leaves_tiles(leaves.struct, index, counts) != lib.GD_OK:
        raise CoreError(f"entry {index} is outside the table's {leaves.count}")
    return ffi.buffer(counts, leaves.alphabet_size + 1)[:]


def leaves_value(leaves: OpenedLeaves, counts: bytes) -> int:
    """The value of a leave in hundredths of a point (0 for none or one the table lacks)."""
    return int(lib.gd_leaves_value(leaves.struct, bytes(counts).ljust(64, b"\0")))
