"""The C core's functions for the rest of the package, in bytes and ints.

Written against cffi's ``ffi``/``lib``; _binding.py supplies either the real cffi extension
(native) or _ctypes_ffi's stand-in over the wasm side module (Pyodide), so this one module
serves both and the layers above cannot tell which runs."""

from __future__ import annotations

import os
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ._binding import ffi, lib

ProgressCallback = Callable[[str, float, float], None]  # (phase, fraction done, seconds elapsed)

PHASES = {0: "starting", 1: "expanding", 2: "sorting", 3: "minimizing", 4: "laying out", 5: "done"}
OUTPUT_START = 1 << 16


class CoreFormatError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class CoreBuildError(Exception):
    pass


@dataclass
class OpenedLexicon:
    """A validated lexicon and the memory that must outlive it."""

    struct: Any
    buffer: Any
    alphabet: list[str]
    name: str
    words: int
    states: int
    arcs: int
    size: int
    max_word_length: int
    walk_index: Any = None  # built by ensure_walk_index before the first generation
    walk_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)


def _message(err: Any) -> str:
    return ffi.string(err.message).decode("utf-8", "replace")


def _aligned_buffer(data: bytes | bytearray | memoryview) -> Any:
    """A 4-byte-aligned view of the data; copies only when the buffer is misaligned."""
    view = ffi.from_buffer(data)
    if int(ffi.cast("uintptr_t", view)) % 4 == 0:
        return view
    copy = ffi.new("uint8_t[]", len(view))
    ffi.memmove(copy, view, len(view))
    return copy


_HEADER_CHECKS = {
    "gaddag": ("gd_lexicon_check_header", lib.GD_HEADER_FIXED_SIZE),
    "dawg": ("gd_dawg_check_header", lib.GD_HEADER_FIXED_SIZE),
    "leaves": ("gd_leaves_check_header", lib.GD_LEAVES_FIXED_SIZE),
}


def read_checked(path: str | os.PathLike[str], kind: str) -> bytes:
    """The bytes of a .gaddag (`kind` "gaddag"), .dawg ("dawg") or .leaves ("leaves") file, read
    whole only after its fixed header has passed the core's checks against the file's real size:
    a file that is not ours, or whose header declares another size, costs a few bytes, not its
    size in memory.
    Raises CoreFormatError (as the loaders do) and OSError."""
    check, fixed = _HEADER_CHECKS[kind]
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(fixed)
        err = ffi.new("gd_error *")
        if getattr(lib, check)(head, len(head), size, err) != lib.GD_OK:
            raise CoreFormatError(_message(err), int(err.offset))
        handle.seek(0)
        return handle.read(size)


def open_lexicon(data: bytes | bytearray | memoryview, kind: str = "gaddag") -> OpenedLexicon:
    """Validate a .gaddag file (`kind` "gaddag") or a .dawg file ("dawg") and open it."""
    buffer = _aligned_buffer(data)
    size = len(data)
    struct = ffi.new("gd_lexicon *")
    err = ffi.new("gd_error *")
    scratch = ffi.new("uint64_t[]", (lib.gd_validate_scratch_size(size) + 7) // 8)  # 8-byte aligned
    opener = lib.gd_dawg_open if kind == "dawg" else lib.gd_lexicon_open
    rc = opener(struct, ffi.cast("uint8_t *", buffer), size, scratch, err)
    if rc != lib.GD_OK:
        raise CoreFormatError(_message(err), int(err.offset))
    raw = ffi.buffer(ffi.cast("uint8_t *", buffer), size)
    alphabet = [
        bytes(raw[struct.alphabet_offset[c] : struct.alphabet_offset[c] + struct.alphabet_length[c]]).decode()
        for c in range(1, struct.alphabet_size + 1)
    ]
    name = bytes(raw[struct.name_offset : struct.name_offset + struct.name_length]).decode()
    return OpenedLexicon(
        struct,
        buffer,
        alphabet,
        name,
        struct.word_count,
        struct.state_count,
        struct.arc_count,
        size,
        struct.max_word_length,
    )


def ensure_walk_index(lexicon: OpenedLexicon) -> None:
    """Derive the walk index move generation reads (see gd_build_walk_index): once per
    lexicon, on first need, so loading for word queries alone does not pay for it."""
    if lexicon.walk_index is not None:
        return
    with lexicon.walk_lock:
        if lexicon.walk_index is not None:
            return
        size = lib.gd_walk_index_size(lexicon.struct)
        index = ffi.new("uint64_t[]", (size + 7) // 8)  # 8-byte aligned
        err = ffi.new("gd_error *")
        if lib.gd_build_walk_index(lexicon.struct, index, size, err) != lib.GD_OK:
            raise CoreError(_message(err))
        lexicon.walk_index = index


def contains(lexicon: OpenedLexicon, codes: bytes) -> bool:
    if lib.gd_is_dawg(lexicon.struct):
        return bool(lib.gd_dawg_contains(lexicon.struct, codes, len(codes)))
    return bool(lib.gd_contains(lexicon.struct, codes, len(codes)))


def _collect(call: Callable[[Any, int, Any, Any], int]) -> bytes:
    """Run a query into a buffer, once more with the exact size if the first was too small."""
    capacity = OUTPUT_START
    needed = ffi.new("size_t *")
    count = ffi.new("uint32_t *")
    while True:
        out = ffi.new("uint8_t[]", capacity)
        rc = call(out, capacity, needed, count)
        if rc != lib.GD_OK:
            raise ValueError("the query's letters are outside the lexicon's alphabet")
        if needed[0] <= capacity:
            return ffi.buffer(out, needed[0])[:]
        capacity = needed[0]


def anagrams(lexicon: OpenedLexicon, counts: bytes, partial: bool) -> bytes:
    return _collect(
        lambda out, cap, needed, count: lib.gd_anagrams(
            lexicon.struct, counts, int(partial), out, cap, needed, count
        )
    )


def pattern(lexicon: OpenedLexicon, codes: bytes) -> bytes:
    return _collect(
        lambda out, cap, needed, count: lib.gd_pattern(
            lexicon.struct, codes, len(codes), out, cap, needed, count
        )
    )


def endgame_words(
    lexicon: OpenedLexicon, rules: Any, board: bytes, counts: bytes, step_limit: int
) -> bytes | None:
    """The words an endgame can form through the board's tiles (gd_endgame_words), or None when
    finding them would take more than step_limit steps."""
    finished = ffi.new("uint32_t *")
    words = _collect(
        lambda out, cap, needed, count: lib.gd_endgame_words(
            lexicon.struct, rules, board, counts, step_limit, out, cap, needed, count, finished
        )
    )
    return words if finished[0] else None


def containing(lexicon: OpenedLexicon, codes: bytes) -> bytes:
    return _collect(
        lambda out, cap, needed, count: lib.gd_containing(
            lexicon.struct, codes, len(codes), out, cap, needed, count
        )
    )


def crc32(data: bytes) -> int:
    return int(lib.gd_crc32(data, len(data)))


def build(
    words: bytes,
    alphabet_size: int,
    alphabet_header: bytes,
    name: bytes,
    progress: ProgressCallback | None = None,
    kind: str = "gaddag",
) -> tuple[bytes, dict[str, int]]:
    """Build a .gaddag file (`kind` "gaddag") or a .dawg file ("dawg") from 0-separated letter
    codes. Runs the build in a thread (cffi releases the GIL) so `progress` can be called about
    every 0.2 s."""
    builder = lib.gd_dawg_build if kind == "dawg" else lib.gd_build
    out = ffi.new("uint8_t **")
    out_size = ffi.new("size_t *")
    stats = ffi.new("gd_build_stats *")
    state = ffi.new("gd_build_progress *")
    err = ffi.new("gd_error *")
    result: list[int] = []

    def run() -> None:
        result.append(
            builder(
                words,
                len(words),
                alphabet_size,
                alphabet_header,
                len(alphabet_header),
                name,
                len(name),
                out,
                out_size,
                stats,
                state,
                err,
            )
        )

    started = time.perf_counter()
    worker = threading.Thread(target=run, name="gaddag-build")
    try:
        worker.start()
    except RuntimeError:  # no threads (Pyodide): build in this thread, without progress
        run()
    while worker.is_alive():
        worker.join(0.2)
        if progress and worker.is_alive():
            total = state.total or 1
            progress(
                PHASES.get(state.phase, "building"),
                min(1.0, state.done / total),
                time.perf_counter() - started,
            )
    rc = result[0]
    if rc != lib.GD_OK:
        raise CoreBuildError(_message(err))
    try:
        data = ffi.buffer(out[0], out_size[0])[:]
    finally:
        lib.gd_free(out[0])
    return data, {
        "words": stats.word_count,
        "states": stats.state_count,
        "arcs": stats.arc_count,
        "arcs_unshared": stats.arc_count_unshared,
        "max_word_length": stats.max_word_length,
        "bytes": stats.file_size,
    }


# ---- move generation ---------------------------------------------------------------------------
#
# Binding-neutral contract (the ctypes twin offers the same names):
#   new_rules(...)            -> an opaque gd_rules
#   new_workspace()           -> a Workspace (scratch memory + a growing move buffer)
#   prepare_and_generate(...) -> (count, records): records are count gd_move structs as bytes
#   generate(...)             -> the same, for the board last prepared in the workspace
#   count_plays(...)          -> how many plays there are, for the board last prepared
#   move_words(...)           -> [(row, col, direction, length, score), ...]
# Records are MOVE_RECORD_SIZE bytes each, laid out as gaddag_solver.move.MOVE_RECORD.

MOVE_RECORD_SIZE = ffi.sizeof("gd_move")
DIRECTIONS = {
    "both": lib.GD_DIRECTIONS_BOTH,
    "across": lib.GD_DIRECTIONS_ACROSS,
    "down": lib.GD_DIRECTIONS_DOWN,
}
WORD_RECORD_SIZE = ffi.sizeof("gd_word")
MOVES_START = 4096
WORDS_CAPACITY = 2 * lib.GD_MAX_DIM + 1  # a main word and at most one cross-word per tile placed


class CoreError(ValueError):
    """The generator refused its input; the message is the core's."""


def new_rules(
    rows: int,
    cols: int,
    rack_size: int,
    bingo_bonus: int,
    start_row: int,
    start_col: int,
    values: list[int],
    letter_multiplier: bytes,
    word_multiplier: bytes,
    alphabet_size: int,
    tile_counts: list[int],
    exchange_minimum: int,
    scoreless_turns: int,
    going_out_bonus: int,
    going_out_penalty: int,
) -> Any:
    """A gd_rules: values[c] for letter code c, values[0] a blank's; multipliers row-major.

    The game fields (move generation ignores them): tile_counts[c] tiles of letter c in the
    full set, tile_counts[0] the blanks; the exchange, scoreless-turn and going-out rules."""
    squares = rows * cols
    if squares > lib.GD_MAX_SQUARES or len(letter_multiplier) != squares or len(word_multiplier) != squares:
        raise CoreError(
            f"a {rows}×{cols} board needs {squares} multipliers per kind (at most {lib.GD_MAX_SQUARES})"
        )
    if len(values) > 64:
        raise CoreError(f"{len(values)} tile values; at most 64")
    if not 1 <= alphabet_size <= 63 or len(tile_counts) != alphabet_size + 1:
        raise CoreError(
            f"{len(tile_counts)} tile counts for {alphabet_size} letters; want the blanks and one per letter"
            " (at most 63 letters)"
        )
    rules = ffi.new("gd_rules *")
    rules.rows, rules.cols = rows, cols
    rules.rack_size = rack_size
    rules.bingo_bonus = bingo_bonus
    rules.start_row, rules.start_col = start_row, start_col
    for code, value in enumerate(values):
        rules.values[code] = value
    ffi.memmove(rules.letter_multiplier, letter_multiplier, squares)
    ffi.memmove(rules.word_multiplier, word_multiplier, squares)
    rules.alphabet_size = alphabet_size
    for code, count in enumerate(tile_counts):
        rules.tile_counts[code] = count
    rules.exchange_minimum = exchange_minimum
    rules.scoreless_turns = scoreless_turns
    rules.going_out_bonus = going_out_bonus
    rules.going_out_penalty = going_out_penalty
    return rules


class Workspace:
    """Scratch memory for one generator (not shared between threads) and the move buffer."""

    __slots__ = ("memory", "moves", "capacity", "board", "prepared_for", "error", "count", "work")

    def __init__(self, size: int | None = None, capacity: int = MOVES_START) -> None:
        """`size`: bytes of scratch (default gd_workspace_size()); `capacity`: moves at first."""
        size = lib.gd_workspace_size() if size is None else size
        self.memory = ffi.new("uint64_t[]", (size + 7) // 8)  # 8-byte aligned
        self.capacity = capacity
        self.moves = ffi.new("gd_move[]", self.capacity)
        self.board: bytes | None = None  # the board the workspace was prepared for
        self.prepared_for: tuple[Any, Any] | None = None  # (lexicon struct, rules struct)
        self.error = ffi.new("gd_error *")
        self.count = ffi.new("size_t *")  # gd_generate's out-parameter, made once
        self.work: Any = None  # the DAWG generator's gd_work (DawgWorkspace)

    def grow(self, capacity: int) -> None:
        if capacity > self.capacity:
            self.capacity = max(capacity, 2 * self.capacity)
            self.moves = ffi.new("gd_move[]", self.capacity)


def new_workspace() -> Workspace:
    return Workspace()


def prepare(lexicon: OpenedLexicon, rules: Any, workspace: Workspace, board: bytes) -> None:
    """Cross-sets and anchors of `board` into the workspace (skipped when already prepared)."""
    key = (lexicon.struct, rules)
    if workspace.board == board and workspace.prepared_for == key:
        return
    ensure_walk_index(lexicon)
    workspace.board = None
    rc = lib.gd_prepare(lexicon.struct, rules, board, workspace.memory, workspace.error)
    if rc != lib.GD_OK:
        raise CoreError(_message(workspace.error) or f"gd_prepare failed with code {rc}")
    workspace.board = bytes(board)
    workspace.prepared_for = key


def _run_generator(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    top_n: int,
    out: Any,
    capacity: int,
    options: Any = None,
) -> int:
    """One generator call for the prepared board (gd_generate_equity; without ``options`` it is
    gd_generate); returns how many moves there are."""
    if workspace.board is None or workspace.prepared_for != (lexicon.struct, rules):
        raise CoreError("the workspace holds no board prepared for this lexicon and ruleset")
    rc = lib.gd_generate_equity(
        lexicon.struct, rules, workspace.board, workspace.memory, rack_counts,
        ffi.NULL if options is None else options, top_n, out, capacity, workspace.count, workspace.error,
    )  # fmt: skip
    if rc != lib.GD_OK:
        raise CoreError(_message(workspace.error) or f"gd_generate_equity failed with code {rc}")
    return int(workspace.count[0])


def generate(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    top_n: int = 0,
    options: Any = None,
) -> tuple[int, bytes]:
    """``(count, records)`` for the prepared board: count is how many moves there are; records
    hold them all (top_n = 0) or the best min(count, top_n). The move buffer grows and the call
    is repeated when the moves do not fit. ``options``: a gd_equity_options (see
    :func:`generate_equity`), or None for plays valued by score.
    """
    if top_n:
        workspace.grow(top_n)
    while True:
        found = _run_generator(
            lexicon, rules, workspace, rack_counts, top_n, workspace.moves, workspace.capacity, options
        )
        written = min(found, top_n) if top_n else found
        if written <= workspace.capacity:
            return found, ffi.buffer(workspace.moves, written * MOVE_RECORD_SIZE)[:]
        workspace.grow(written)


def generate_equity(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    valuation: Any,
    top_n: int = 0,
    directions: str = "both",
) -> tuple[int, bytes]:
    """:func:`generate` with equity, exchanges and the pass (gd_generate_equity) for the prepared
    board. ``valuation`` has ``leaves`` (a gd_leaves, or None), ``bag``, ``opponent_rack_value``,
    ``exchanges`` and ``by_equity`` (solver.Valuation). Never prunes, so the count is exact."""
    return generate(lexicon, rules, workspace, rack_counts, top_n, equity_options(valuation, directions))


def direction_options(directions: str) -> Any:
    """Options for plays valued by score alone (as no options give: no table, and a bag, so the
    tiles kept are worth 0) in ``directions`` ("both", "across" or "down")."""
    if directions not in DIRECTIONS:
        raise CoreError(f"unknown direction {directions!r}; known: {', '.join(DIRECTIONS)}")
    options = ffi.new("gd_equity_options *")
    options.bag_count = 1
    options.directions = DIRECTIONS[directions]
    return options


def equity_options(valuation: Any, directions: str = "both") -> Any:
    """A gd_equity_options for ``valuation`` (solver.Valuation: ``leaves``, a gd_leaves or None,
    ``bag``, ``opponent_rack_value``, ``exchanges``, ``by_equity``), never pruning, for plays in
    ``directions``."""
    options = direction_options(directions)
    options.leaves = ffi.NULL if valuation.leaves is None else ffi.cast("gd_leaves *", valuation.leaves)
    options.bag_count = valuation.bag
    options.opponent_rack_value = valuation.opponent_rack_value
    options.exchanges = int(valuation.exchanges)
    setattr(options, "pass", int(valuation.exchanges))  # a keyword in Python
    options.by_equity = int(valuation.by_equity)
    options.prune = 0
    return options


STREAM_CHUNK = 4096  # moves per gd_generate_stream call: 192 KB of records


def count_moves(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    options: Any,
) -> int:
    """How many moves the prepared board has (with ``options``, a gd_equity_options or None:
    exchanges and the pass included), none written."""
    return _run_generator(lexicon, rules, workspace, rack_counts, 0, ffi.NULL, 0, options)


def stream(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    options: Any = None,
    chunk: int = STREAM_CHUNK,
    by_equity: bool | None = None,
) -> Iterator[bytes]:
    """Every move of the prepared board as gd_move records, ``chunk`` at a time in generation
    order (gd_generate_stream), in memory that does not grow with their number. With
    ``by_equity`` (True or False) each chunk is sorted best first (gd_sort_moves) before it is
    given out. The workspace must stay prepared for the board until the iteration ends."""
    if workspace.board is None or workspace.prepared_for != (lexicon.struct, rules):
        raise CoreError("the workspace holds no board prepared for this lexicon and ruleset")
    state = ffi.new("gd_stream *")
    out = ffi.new("gd_move[]", chunk)
    count = ffi.new("size_t *")
    err = ffi.new("gd_error *")
    while state.state != lib.GD_STREAM_DONE:
        rc = lib.gd_generate_stream(
            lexicon.struct, rules, workspace.board, workspace.memory, rack_counts,
            ffi.NULL if options is None else options, state, out, chunk, count, err,
        )  # fmt: skip
        if rc != lib.GD_OK:
            raise CoreError(_message(err) or f"gd_generate_stream failed with code {rc}")
        written = int(count[0])
        if by_equity is not None:
            lib.gd_sort_moves(out, written, int(by_equity))
        if written:
            yield ffi.buffer(out, written * MOVE_RECORD_SIZE)[:]


def count_plays(lexicon: OpenedLexicon, rules: Any, workspace: Workspace, rack_counts: bytes) -> int:
    """How many plays the prepared board has for a rack (nothing is written)."""
    return _run_generator(lexicon, rules, workspace, rack_counts, 0, ffi.NULL, 0)


def prepare_and_generate(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    board: bytes,
    rack_counts: bytes,
    top_n: int = 0,
) -> tuple[int, bytes]:
    """:func:`prepare` then :func:`generate`."""
    prepare(lexicon, rules, workspace, board)
    return generate(lexicon, rules, workspace, rack_counts, top_n)


def move_words(rules: Any, board: bytes, record: bytes) -> list[tuple[int, int, int, int, int]]:
    """The words one play (a gd_move record) forms: (row, col, direction, length, score), main
    word first."""
    if len(record) != MOVE_RECORD_SIZE:
        raise CoreError(f"a move record is {MOVE_RECORD_SIZE} bytes, not {len(record)}")
    move = ffi.new("gd_move *")
    ffi.memmove(move, record, MOVE_RECORD_SIZE)
    out = ffi.new("gd_word[]", WORDS_CAPACITY)
    count = ffi.new("size_t *")
    rc = lib.gd_move_words(rules, board, move, out, WORDS_CAPACITY, count)
    if rc != lib.GD_OK:
        raise CoreError(f"gd_move_words failed with code {rc}")
    return [
        (out[i].row, out[i].col, out[i].direction, out[i].length, out[i].score)
        for i in range(min(int(count[0]), WORDS_CAPACITY))
    ]


# ---- the DAWG generator (Appel & Jacobson) ---------------------------------------------------------


class DawgWorkspace(Workspace):
    """Scratch memory for the DAWG generator (not shared between threads), its move buffer, and
    the work its last generation did."""

    def __init__(self) -> None:
        super().__init__(lib.gd_dawg_workspace_size(), 256)  # the buffer grows to the plays
        self.work = ffi.new("gd_work *")


def dawg_prepare(dawg: OpenedLexicon, rules: Any, workspace: DawgWorkspace, board: bytes) -> None:
    """The DAWG's cross-sets and anchors of `board` (skipped when already prepared)."""
    key = (dawg.struct, rules)
    if workspace.board == board and workspace.prepared_for == key:
        return
    ensure_walk_index(dawg)
    workspace.board = None
    if lib.gd_dawg_prepare(dawg.struct, rules, board, workspace.memory, workspace.error) != lib.GD_OK:
        raise CoreError(_message(workspace.error))
    workspace.board = bytes(board)
    workspace.prepared_for = key


def dawg_generate(
    dawg: OpenedLexicon, rules: Any, workspace: DawgWorkspace, rack_counts: bytes, directions: str = "both"
) -> tuple[int, bytes, tuple[int, int]]:
    """``(count, records, (arcs, dead ends))``: every play of the prepared board in ``directions``
    ("both", "across" or "down") as gd_move records, unsorted, and the work it took."""
    if workspace.board is None or workspace.prepared_for != (dawg.struct, rules):
        raise CoreError("the workspace holds no board prepared for this DAWG and ruleset")
    if directions not in DIRECTIONS:
        raise CoreError(f"unknown direction {directions!r}; known: {', '.join(DIRECTIONS)}")
    while True:
        rc = lib.gd_dawg_generate(
            dawg.struct, rules, workspace.board, workspace.memory, rack_counts, DIRECTIONS[directions],
            workspace.moves, workspace.capacity, workspace.count, workspace.work, workspace.error,
        )  # fmt: skip
        if rc != lib.GD_OK:
            raise CoreError(_message(workspace.error))
        found = int(workspace.count[0])
        if found <= workspace.capacity:
            work = (int(workspace.work.arcs), int(workspace.work.dead_ends))
            return found, ffi.buffer(workspace.moves, found * MOVE_RECORD_SIZE)[:], work
        workspace.grow(found)


# ---- leave tables ------------------------------------------------------------------------------
#
# A .leaves file (docs/leaves-format.md) opens into a gd_leaves that points into its bytes; the
# OpenedLeaves keeps both together. Tile sets travel as lists of ints: [0] the blanks, [c] the
# tiles of letter code c. Values are int16 hundredths of a point, as little-endian bytes in bulk.

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


# ---- self-play ---------------------------------------------------------------------------------
#
# One gd_autoplay call plays a whole game in C; Python only reads the finished gd_game back as
# plain data. A SelfPlay holds the game buffer, the workspace and the two players, made once
# and reused for every game a process plays.

TURN_RECORD = struct.Struct("<ii6B2x32sBBBx32si")  # gd_turn: the gd_move, then its bookkeeping
TURN_SIZE = ffi.sizeof("gd_turn")
if TURN_RECORD.size != TURN_SIZE:  # pragma: no cover - the header and this layout disagree
    raise ImportError(f"gd_turn is {TURN_SIZE} bytes, but _core_api reads {TURN_RECORD.size}")
PLAYER_KINDS = {"greedy": lib.GD_PLAYER_GREEDY, "equity": lib.GD_PLAYER_EQUITY}


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


# ---- a game turn by turn -----------------------------------------------------------------------
#
# The Game class (game.py) drives a gd_game one move at a time; a gd_game has no pointers, so its
# bytes are a snapshot (undo restores them).

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


# ---- learning leave values ------------------------------------------------------------------------
#
# gd_rack_stats over caller-owned arrays: per leave entry, the summed equity (int64 hundredths)
# and the count of the racks that held it. Integer sums, so merging in any order agrees.


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


# ---- simulation --------------------------------------------------------------------------------
#
# A gd_sim state is one flat buffer; the C keeps pointers to the lexicon, the rules and the leave
# table, so the SimState keeps them alive.

SIM_CANDIDATE = struct.Struct("<48sIIQqddQ")  # gd_sim_candidate
if SIM_CANDIDATE.size != ffi.sizeof("gd_sim_candidate"):  # pragma: no cover - header and layout disagree
    raise ImportError(f"gd_sim_candidate is {ffi.sizeof('gd_sim_candidate')} bytes, not {SIM_CANDIDATE.size}")


class SimCandidateStats(NamedTuple):
    record: bytes  # the candidate's gd_move
    dropped: bool
    iterations: int
    value_sum: int  # hundredths
    value_squares: float  # hundredths squared
    wins: float
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
) -> SimState:
    """Start simulating `candidates` (gd_move records) from the game's position; `leaves` a
    gd_leaves or None."""
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
    state.keep = (lexicon, rules, leaves)
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
        SimCandidateStats(record, bool(dropped), its, total, squares, wins, bingos)
        for record, dropped, _reserved, its, total, squares, wins, bingos in SIM_CANDIDATE.iter_unpack(data)
    ]
    return stats, int(live[0]), int(iterations[0])


# ---- endgame search ----------------------------------------------------------------------------

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
    # gd_endgame_stats: generations, horizon generations, hint cuts, killer tries, killer cuts
    stats: tuple[int, ...] = ()


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


def endgame_search(
    state: EndgameState,
    depth: int,
    node_limit: int = 0,
    window: tuple[int, int] | None = None,
) -> EndgameResult:
    """Search `depth` plies, visiting at most `node_limit` positions (0: no limit); with `window`
    (alpha, beta) a value outside it is only a bound (gd_endgame_search_window)."""
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
