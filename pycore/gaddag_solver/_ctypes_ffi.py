"""The C core through ctypes: a stand-in for the part of cffi's ``ffi``/``lib`` that
the _core_api package uses, so one wrapper serves both bindings.

Inside Pyodide there is no cffi; the core is a WebAssembly side module
(``libgaddag_core.so``, shipped in the browser wheel) that Pyodide's ctypes loads. The same
module works natively over a shared library built from csrc/ (set GADDAG_SOLVER_BINDING=ctypes
and GADDAG_SOLVER_CTYPES_LIB=path), which is how the tests check that both bindings agree.

The structures below mirror csrc/gaddag_solver.h; test_bindings.py checks their sizes and
offsets against cffi's view of the header.
"""

from __future__ import annotations

import ctypes as C
import os
from pathlib import Path
from typing import Any

GD_OK = 0
GD_ERR_FORMAT = 1
GD_ERR_ARGUMENT = 2
GD_ERR_NOMEM = 3
GD_ERR_EMPTY = 4
GD_FORMAT_VERSION = 1
GD_MAX_ALPHABET = 63
GD_MAX_WORD = 32
GD_HEADER_FIXED_SIZE = 36
GD_LEAVES_FIXED_SIZE = 28
GD_BLANK_FLAG = 128
GD_MAX_DIM = 32
GD_MAX_SQUARES = 1024
GD_MAX_TILE_VALUE = 10000
GD_MAX_BINGO_BONUS = 100000
GD_MAX_SCORE = 1000000
GD_MAX_GOING_OUT = 10
GD_MAX_RACK_VALUE = 500000
GD_ON_BOARD_FLAG = 64
GD_ACROSS = 0
GD_DOWN = 1
GD_LEXICON_DAWG = 0x80000000
GD_DIRECTIONS_BOTH = 0
GD_DIRECTIONS_ACROSS = 1
GD_DIRECTIONS_DOWN = 2


class gd_error(C.Structure):
    _fields_ = [("offset", C.c_uint64), ("message", C.c_char * 240)]


class gd_lexicon(C.Structure):
    _fields_ = [
        ("data", C.c_void_p),
        ("size", C.c_size_t),
        ("arcs", C.c_void_p),
        ("arc_count", C.c_uint32),
        ("state_count", C.c_uint32),
        ("word_count", C.c_uint32),
        ("flags", C.c_uint32),
        ("alphabet_size", C.c_uint32),
        ("max_word_length", C.c_uint32),
        ("header_size", C.c_uint32),
        ("root", C.c_uint32),
        ("alphabet_offset", C.c_uint32 * 64),
        ("alphabet_length", C.c_uint32 * 64),
        ("name_offset", C.c_uint32),
        ("name_length", C.c_uint32),
        ("walk", C.c_void_p),
        ("walk_high", C.c_void_p),
        ("anagram_filter", C.c_void_p),
        ("anagram_filter_mask", C.c_uint32),
        ("word_map", C.c_void_p),
    ]


class gd_work(C.Structure):
    _fields_ = [("arcs", C.c_uint64), ("dead_ends", C.c_uint64)]


class gd_build_stats(C.Structure):
    _fields_ = [
        ("word_count", C.c_uint32),
        ("state_count", C.c_uint32),
        ("arc_count", C.c_uint32),
        ("arc_count_unshared", C.c_uint32),
        ("max_word_length", C.c_uint32),
        ("file_size", C.c_uint64),
    ]


class gd_build_progress(C.Structure):
    _fields_ = [("phase", C.c_uint32), ("done", C.c_uint64), ("total", C.c_uint64)]


class gd_rules(C.Structure):
    _fields_ = [
        ("rows", C.c_uint32),
        ("cols", C.c_uint32),
        ("rack_size", C.c_uint32),
        ("bingo_bonus", C.c_int32),
        ("start_row", C.c_uint32),
        ("start_col", C.c_uint32),
        ("values", C.c_int32 * 64),
        ("letter_multiplier", C.c_uint8 * GD_MAX_SQUARES),
        ("word_multiplier", C.c_uint8 * GD_MAX_SQUARES),
        ("alphabet_size", C.c_uint32),
        ("tile_counts", C.c_uint32 * 64),
        ("exchange_minimum", C.c_uint32),
        ("scoreless_turns", C.c_uint32),
        ("going_out_bonus", C.c_int32),
        ("going_out_penalty", C.c_int32),
    ]


class gd_move(C.Structure):
    _fields_ = [
        ("score", C.c_int32),
        ("equity", C.c_int32),
        ("row", C.c_uint8),
        ("col", C.c_uint8),
        ("direction", C.c_uint8),
        ("length", C.c_uint8),
        ("tiles_placed", C.c_uint8),
        ("kind", C.c_uint8),
        ("reserved", C.c_uint8 * 2),
        ("word", C.c_uint8 * GD_MAX_DIM),
    ]


class gd_word(C.Structure):
    _fields_ = [
        ("row", C.c_uint8),
        ("col", C.c_uint8),
        ("direction", C.c_uint8),
        ("length", C.c_uint8),
        ("score", C.c_int32),
    ]


GD_LEAVES_VERSION = 1
GD_MAX_LEAVE = 15
GD_PLAY = 0
GD_EXCHANGE = 1
GD_PASS = 2
GD_MAX_TILES = 1024
GD_MAX_TURNS = 512
GD_GAME_MAGIC = 0x47444741
GD_PLAYER_GREEDY = 0
GD_PLAYER_EQUITY = 1
GD_PLAYER_EQUITY_PASS_ZERO = 2


class gd_leaves(C.Structure):
    _fields_ = [
        ("data", C.c_void_p),
        ("size", C.c_size_t),
        ("values", C.c_void_p),
        ("count", C.c_uint32),
        ("alphabet_size", C.c_uint32),
        ("max_leave", C.c_uint32),
        ("limit", C.c_uint32 * 64),
        ("size_offset", C.c_uint32 * (GD_MAX_LEAVE + 2)),
        ("ways", (C.c_uint32 * (GD_MAX_LEAVE + 1)) * 65),
        ("ruleset_offset", C.c_uint32),
        ("ruleset_length", C.c_uint32),
    ]


class gd_equity_options(C.Structure):
    _fields_ = [
        ("leaves", C.c_void_p),
        ("bag_count", C.c_uint32),
        ("opponent_rack_value", C.c_int32),
        ("exchanges", C.c_uint32),
        ("pass", C.c_uint32),
        ("by_equity", C.c_uint32),
        ("prune", C.c_uint32),
        ("directions", C.c_uint32),
        ("work", C.c_void_p),
        ("pass_as_zero", C.c_uint32),
    ]


class gd_rng(C.Structure):
    _fields_ = [("state", C.c_uint64 * 4)]


GD_STREAM_START = 0
GD_STREAM_RESUME = 1
GD_STREAM_DONE = 2


class gd_stream(C.Structure):
    _fields_ = [
        ("state", C.c_uint32),
        ("direction", C.c_uint32),
        ("line", C.c_uint32),
        ("anchor", C.c_uint32),
        ("next", gd_move),
    ]


class gd_turn(C.Structure):
    _fields_ = [
        ("move", gd_move),
        ("player", C.c_uint8),
        ("rack_length", C.c_uint8),
        ("drawn", C.c_uint8),
        ("reserved", C.c_uint8),
        ("rack", C.c_uint8 * GD_MAX_DIM),
        ("total", C.c_int32),
    ]


class gd_game(C.Structure):
    _fields_ = [
        ("magic", C.c_uint32),
        ("squares", C.c_uint32),
        ("rng", gd_rng),
        ("board", C.c_uint8 * GD_MAX_SQUARES),
        ("rack", (C.c_uint8 * 64) * 2),
        ("bag", C.c_uint8 * GD_MAX_TILES),
        ("bag_count", C.c_uint32),
        ("score", C.c_int32 * 2),
        ("to_move", C.c_uint32),
        ("scoreless", C.c_uint32),
        ("over", C.c_uint32),
        ("turn_count", C.c_uint32),
        ("end_adjustment", C.c_int32 * 2),
        ("history", gd_turn * GD_MAX_TURNS),
    ]


class gd_player(C.Structure):
    _fields_ = [("kind", C.c_uint32), ("leaves", C.c_void_p)]


class gd_rack_stats(C.Structure):
    _fields_ = [
        ("sum", C.c_void_p),
        ("seen", C.c_void_p),
        ("entries", C.c_uint32),
        ("reserved", C.c_uint32),
        ("rack_sum", C.c_int64),
        ("rack_squares", C.c_uint64),
        ("racks", C.c_uint64),
    ]


GD_SIM_MAX_CANDIDATES = 64
GD_SIM_MAX_PLIES = 16
GD_ENDGAME_MAX_PLY = 64
GD_ENDGAME_MAX_ROOT_MOVES = 256
GD_BOUND_EXACT = 0
GD_BOUND_LOWER = 1
GD_BOUND_UPPER = 2
GD_PEG_MAX_BAG = 6
GD_PEG_UNIT = 1440
GD_PEG_DONE = 0
GD_PEG_OVER_BUDGET = 1
GD_PEG_PAUSED = 2


class gd_infer_options(C.Structure):
    _fields_ = [
        ("leaves", C.c_void_p),
        ("tolerance", C.c_int32),
        ("max_racks", C.c_uint32),
        ("seed", C.c_uint64),
    ]


class gd_inferred_leave(C.Structure):
    _fields_ = [("weight", C.c_double), ("counts", C.c_uint8 * 64)]


class gd_infer_summary(C.Structure):
    _fields_ = [
        ("racks", C.c_uint64),
        ("consistent", C.c_uint64),
        ("exhaustive", C.c_uint32),
        ("leaves", C.c_uint32),
        ("rack_tiles", C.c_uint32),
        ("bag_count", C.c_uint32),
        ("prior_weight", C.c_double),
        ("weight", C.c_double),
        ("weight_squares", C.c_double),
    ]


class gd_sim_options(C.Structure):
    _fields_ = [
        ("leaves", C.c_void_p),
        ("plies", C.c_uint32),
        ("min_iterations", C.c_uint32),
        ("prune_z", C.c_double),
        ("spread_sigma", C.c_double),
        ("seed", C.c_uint64),
        ("opponent_leaves", C.c_void_p),
        ("opponent_leave_count", C.c_uint32),
        ("win_mean", C.c_void_p),
        ("win_sigma", C.c_void_p),
        ("win_tiles", C.c_uint32),
        ("rank_by_win", C.c_uint32),
    ]


class gd_sim_candidate(C.Structure):
    _fields_ = [
        ("move", gd_move),
        ("dropped", C.c_uint32),
        ("reserved", C.c_uint32),
        ("iterations", C.c_uint64),
        ("value_sum", C.c_int64),
        ("value_squares", C.c_double),
        ("wins", C.c_double),
        ("win_squares", C.c_double),
        ("opponent_bingos", C.c_uint64),
    ]


class gd_sim_playout(C.Structure):
    _fields_ = [
        ("value", C.c_int64),
        ("win", C.c_double),
        ("bingo", C.c_uint32),
        ("played", C.c_uint32),
    ]


class gd_endgame_stats(C.Structure):
    _fields_ = [
        ("generations", C.c_uint64),
        ("horizon_generations", C.c_uint64),
        ("hint_cuts", C.c_uint64),
        ("killer_tries", C.c_uint64),
        ("killer_cuts", C.c_uint64),
        ("deferred", C.c_uint64),
        ("out_bound_cuts", C.c_uint64),
        ("solo_cuts", C.c_uint64),
        ("last_tile_cuts", C.c_uint64),
    ]


class gd_endgame_result(C.Structure):
    _fields_ = [
        ("value", C.c_int32),
        ("depth", C.c_uint32),
        ("complete", C.c_uint32),
        ("stopped", C.c_uint32),
        ("nodes", C.c_uint64),
        ("line_length", C.c_uint32),
        ("bound", C.c_uint32),
        ("line", gd_move * GD_ENDGAME_MAX_PLY),
        ("stats", gd_endgame_stats),
    ]


class gd_peg_result(C.Structure):
    _fields_ = [
        ("value", C.c_int64),
        ("status", C.c_uint32),
        ("reserved", C.c_uint32),
        ("nodes", C.c_uint64),
        ("endgames", C.c_uint64),
    ]


STRUCTS: dict[str, type[C.Structure]] = {
    cls.__name__: cls
    for cls in (
        gd_error,
        gd_lexicon,
        gd_build_stats,
        gd_build_progress,
        gd_rules,
        gd_move,
        gd_word,
        gd_leaves,
        gd_equity_options,
        gd_stream,
        gd_rng,
        gd_turn,
        gd_game,
        gd_player,
        gd_rack_stats,
        gd_infer_options,
        gd_inferred_leave,
        gd_infer_summary,
        gd_sim_options,
        gd_sim_candidate,
        gd_sim_playout,
        gd_endgame_stats,
        gd_endgame_result,
        gd_peg_result,
        gd_work,
    )
}
SCALARS: dict[str, Any] = {
    "uint8_t": C.c_uint8,
    "uint32_t": C.c_uint32,
    "int16_t": C.c_int16,
    "int32_t": C.c_int32,
    "int64_t": C.c_int64,
    "uint64_t": C.c_uint64,
    "size_t": C.c_size_t,
    "double": C.c_double,
    "uint8_t *": C.c_void_p,  # only ever as the pointee of "uint8_t **"
}


class _Buffer:
    """What ffi.from_buffer gives: the address of a Python buffer, without copying it."""

    __slots__ = ("address", "length", "keep")

    def __init__(self, data: bytes | bytearray | memoryview) -> None:
        if isinstance(data, memoryview):
            data = bytes(data) if data.readonly or not data.c_contiguous else data
        if isinstance(data, bytes):
            self.keep: Any = C.c_char_p(data)
            self.address = C.cast(self.keep, C.c_void_p).value or 0
        else:
            self.keep = (C.c_char * len(data)).from_buffer(data)
            self.address = C.addressof(self.keep)
        self.length = len(data)

    def __len__(self) -> int:
        return self.length


class _View:
    """What ffi.buffer gives: memory read only when sliced, and only the slice."""

    __slots__ = ("address", "size")

    def __init__(self, address: Any, size: int) -> None:
        if isinstance(address, bytes):
            address = C.cast(C.c_char_p(address), C.c_void_p).value
        self.address = int(address or 0)
        self.size = size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: slice) -> bytes:
        start, stop, step = index.indices(self.size)
        if step != 1:
            raise ValueError("only contiguous slices")
        return C.string_at(self.address + start, stop - start) if stop > start else b""


class _ArrayView:
    """ffi.buffer over a ctypes array: its bytes through a memoryview, copied only when sliced
    (in Pyodide a third of the cost of going through its address: 1.1 µs for 300 moves)."""

    __slots__ = ("view",)

    def __init__(self, array: C.Array, size: int) -> None:  # type: ignore[type-arg]
        if size > C.sizeof(array):
            raise ValueError(f"a buffer of {size} bytes over an array of {C.sizeof(array)}")
        self.view = memoryview(array).cast("B")[:size]

    def __len__(self) -> int:
        return len(self.view)

    def __getitem__(self, index: slice) -> bytes:
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise ValueError("only contiguous slices")
        return self.view[index].tobytes()


def _address(value: Any) -> Any:
    """A ctypes argument for a pointer parameter."""
    if value is None or isinstance(value, (bytes, int)):
        return value
    if isinstance(value, _Buffer):
        return value.address
    if isinstance(value, (C.Structure, C.Array)):
        return C.addressof(value)
    if isinstance(value, bytearray):
        return C.addressof((C.c_char * len(value)).from_buffer(value))
    raise TypeError(f"cannot pass {type(value).__name__} as a pointer")


# The types a c_void_p parameter takes as they are (each array type joins once seen), and the
# structure types it takes by reference (each joins once seen).
_AS_THEY_ARE: set[type] = {type(None), bytes, int}
_BY_REFERENCE: set[type] = set()


def _argument(value: Any) -> Any:
    """What a c_void_p parameter is passed: as _address, but arrays and byref as they are,
    which spares an addressof per pointer on every call."""
    kind = type(value)
    if kind in _AS_THEY_ARE:
        return value
    if kind is _Buffer:
        return value.address
    if isinstance(value, C.Array):
        _AS_THEY_ARE.add(kind)
        return value
    if isinstance(value, C.Structure):
        _BY_REFERENCE.add(kind)
        return C.byref(value)
    return _address(value)


class _FFI:
    NULL = None

    @staticmethod
    def new(ctype: str, length: int | None = None) -> Any:
        ctype = ctype.strip()
        if ctype.endswith("[]"):
            base = ctype[:-2].strip()
            item = STRUCTS.get(base) or SCALARS[base]
            return (item * int(length or 0))()
        if ctype.endswith("*"):
            base = ctype[:-1].strip()
            if base in STRUCTS:
                return STRUCTS[base]()
            return (SCALARS[base] * 1)()
        raise TypeError(f"unsupported type {ctype!r}")

    @staticmethod
    def from_buffer(data: bytes | bytearray | memoryview) -> _Buffer:
        return _Buffer(data)

    @staticmethod
    def cast(ctype: str, value: Any) -> Any:
        address = _address(value)
        if isinstance(address, bytes):
            address = C.cast(C.c_char_p(address), C.c_void_p).value
        return int(address or 0) if ctype == "uintptr_t" else address

    @staticmethod
    def buffer(pointer: Any, size: int) -> _View | _ArrayView:
        if isinstance(pointer, C.Array):
            return _ArrayView(pointer, size)
        return _View(_address(pointer), size)

    @staticmethod
    def memmove(destination: Any, source: Any, size: int) -> None:
        C.memmove(_address(destination), _address(source), size)

    @staticmethod
    def sizeof(ctype: str) -> int:
        return C.sizeof(STRUCTS[ctype])

    @staticmethod
    def string(value: bytes) -> bytes:
        return value.split(b"\0", 1)[0]


ffi = _FFI()

# (name, result type, parameter types); every pointer travels as c_void_p.
P = C.c_void_p
_SIGNATURES: list[tuple[str, Any, list[Any]]] = [
    ("gd_validate_scratch_size", C.c_size_t, [C.c_size_t]),
    ("gd_lexicon_open", C.c_int, [P, P, C.c_size_t, P, P]),
    ("gd_lexicon_check_header", C.c_int, [P, C.c_size_t, C.c_uint64, P]),
    ("gd_walk_index_size", C.c_size_t, [P]),
    ("gd_build_walk_index", C.c_int, [P, P, C.c_size_t, P]),
    ("gd_contains", C.c_int, [P, P, C.c_size_t]),
    ("gd_anagrams", C.c_int, [P, P, C.c_int, P, C.c_size_t, P, P]),
    ("gd_pattern", C.c_int, [P, P, C.c_size_t, P, C.c_size_t, P, P]),
    ("gd_containing", C.c_int, [P, P, C.c_size_t, P, C.c_size_t, P, P]),
    ("gd_endgame_words", C.c_int, [P, P, P, P, C.c_uint64, P, C.c_size_t, P, P, P]),
    ("gd_build", C.c_int, [P, C.c_size_t, C.c_uint32, P, C.c_size_t, P, C.c_size_t, P, P, P, P, P]),
    ("gd_free", None, [P]),
    ("gd_cpu_requires", P, []),
    ("gd_crc32", C.c_uint32, [P, C.c_size_t]),
    ("gd_workspace_size", C.c_size_t, []),
    ("gd_prepare", C.c_int, [P, P, P, P, P]),
    ("gd_generate", C.c_int, [P, P, P, P, P, C.c_uint32, P, C.c_size_t, P, P]),
    ("gd_move_words", C.c_int, [P, P, P, P, C.c_size_t, P]),
    ("gd_leaves_count", C.c_uint64, [P, C.c_uint32, C.c_uint32]),
    ("gd_leaves_open", C.c_int, [P, P, C.c_size_t, P]),
    ("gd_leaves_check_header", C.c_int, [P, C.c_size_t, C.c_uint64, P]),
    ("gd_leaves_build", C.c_int, [P, C.c_uint32, C.c_uint32, P, C.c_size_t, P, C.c_size_t, P, P, P]),
    ("gd_leaves_index", C.c_int, [P, P, P]),
    ("gd_leaves_tiles", C.c_int, [P, C.c_uint32, P]),
    ("gd_leaves_value", C.c_int32, [P, P]),
    ("gd_leaves_keep_value", C.c_int32, [P, P]),
    ("gd_generate_equity", C.c_int, [P, P, P, P, P, P, C.c_uint32, P, C.c_size_t, P, P]),
    ("gd_generate_stream", C.c_int, [P, P, P, P, P, P, P, P, C.c_size_t, P, P]),
    ("gd_sort_moves", None, [P, C.c_size_t, C.c_int]),
    ("gd_update_after_play", C.c_int, [P, P, P, P, P, P]),
    ("gd_rng_seed", None, [P, C.c_uint64]),
    ("gd_rng_next", C.c_uint64, [P]),
    ("gd_rng_below", C.c_uint32, [P, C.c_uint32]),
    ("gd_game_size", C.c_size_t, []),
    ("gd_game_new", C.c_int, [P, P, C.c_uint64, P]),
    ("gd_game_from_position", C.c_int, [P, P, P, P, P, C.c_uint32, C.c_uint64, P]),
    ("gd_game_move", C.c_int, [P, P, P, P]),
    ("gd_game_unseen", None, [P, C.c_uint32, P]),
    ("gd_choose_move", C.c_int, [P, P, P, P, P, P, P]),
    ("gd_autoplay", C.c_int, [P, P, P, C.c_uint64, P, P, P]),
    ("gd_rack_stats_clear", None, [P]),
    ("gd_rack_stats_merge", C.c_int, [P, P, P]),
    ("gd_train_game", C.c_int, [P, P, P, C.c_uint64, P, P, P, P]),
    ("gd_infer", C.c_int, [P, P, P, P, P, P, P, P, C.c_size_t, P, P]),
    ("gd_sim_size", C.c_size_t, []),
    ("gd_sim_start", C.c_int, [P, P, P, P, P, C.c_uint32, P, P]),
    ("gd_sim_run", C.c_int, [P, C.c_uint32, P]),
    ("gd_sim_results", C.c_int, [P, P, C.c_uint32, P, P, P, P]),
    ("gd_sim_scratch_size", C.c_size_t, []),
    ("gd_sim_seeds", C.c_int, [P, C.c_uint32, P, P]),
    ("gd_sim_play", C.c_int, [P, P, C.c_uint64, P, P]),
    ("gd_sim_merge", C.c_int, [P, P, C.c_uint32, P]),
    ("gd_sim_drop", C.c_int, [P, C.c_uint32, P]),
    ("gd_endgame_size", C.c_size_t, [C.c_uint32]),
    ("gd_endgame_start", C.c_int, [P, C.c_size_t, P, P, P, P, C.c_size_t, P]),
    ("gd_endgame_search", C.c_int, [P, C.c_uint32, C.c_uint64, P, P]),
    ("gd_endgame_search_window", C.c_int, [P, C.c_uint32, C.c_int32, C.c_int32, C.c_uint64, P, P]),
    ("gd_endgame_root_moves", C.c_int, [P, P, C.c_uint32, C.c_uint32, P]),
    ("gd_endgame_restart", C.c_int, [P, P, P]),
    ("gd_endgame_share", C.c_int, [P, C.c_size_t, P, P]),
    ("gd_peg_size", C.c_size_t, [C.c_uint32]),
    ("gd_peg_start", C.c_int, [P, C.c_size_t, P, P, P, P, P, C.c_size_t, P]),
    ("gd_peg_share", C.c_int, [P, C.c_size_t, P, P, P]),
    ("gd_peg_value", C.c_int, [P, P, P, P, P, C.c_int32, C.c_uint32, P, C.c_uint64, C.c_uint64, P, P]),
    ("gd_dawg_check_header", C.c_int, [P, C.c_size_t, C.c_uint64, P]),
    ("gd_dawg_open", C.c_int, [P, P, C.c_size_t, P, P]),
    ("gd_is_dawg", C.c_int, [P]),
    ("gd_dawg_build", C.c_int, [P, C.c_size_t, C.c_uint32, P, C.c_size_t, P, C.c_size_t, P, P, P, P, P]),
    ("gd_dawg_contains", C.c_int, [P, P, C.c_size_t]),
    ("gd_dawg_workspace_size", C.c_size_t, []),
    ("gd_dawg_prepare", C.c_int, [P, P, P, P, P]),
    ("gd_dawg_generate", C.c_int, [P, P, P, P, P, C.c_uint32, P, C.c_size_t, P, P, P]),
]


def library_path() -> Path:
    configured = os.environ.get("GADDAG_SOLVER_CTYPES_LIB")
    return Path(configured) if configured else Path(__file__).with_name("libgaddag_core.so")


class _Lib:
    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise ImportError(f"the core library {path} is missing (scripts/build_wasm.py builds it)")
        self._dll = C.CDLL(str(path))
        for name, result, parameters in _SIGNATURES:
            function = getattr(self._dll, name)
            function.restype = result
            function.argtypes = parameters
            setattr(self, name, self._wrap(function, parameters))
        for name, value in globals().items():
            if name.startswith("GD_"):
                setattr(self, name, value)

    @staticmethod
    def _wrap(function: Any, parameters: list[Any]) -> Any:
        # Written out per signature: a pointer already in a form ctypes takes costs one set
        # lookup, not a call (in Pyodide a loop calling _argument per pointer cost more than
        # crossing into the wasm core: 4.7 of the 11 µs of an empty generate call).
        names = [f"a{i}" for i in range(len(parameters))]
        passed = [
            f"{n} if type({n}) in as_they_are else byref({n}) if type({n}) in by_reference else argument({n})"
            if kind is P
            else n
            for n, kind in zip(names, parameters, strict=True)
        ]
        source = f"def call({', '.join(names)}):\n    return function({', '.join(passed)})\n"
        scope = {
            "function": function,
            "as_they_are": _AS_THEY_ARE,
            "by_reference": _BY_REFERENCE,
            "byref": C.byref,
            "argument": _argument,
        }
        exec(source, scope)  # noqa: S102 - the source is built above from the signature only
        call = scope["call"]
        call.__name__ = function.__name__
        return call


lib = _Lib(library_path())
