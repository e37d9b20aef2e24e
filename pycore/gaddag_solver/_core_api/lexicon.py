"""Lexicons in the core: a .gaddag or .dawg file validated and opened, its walk index, the word
queries, and the builder.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._binding import ffi, lib
from .errors import CoreBuildError, CoreError, CoreFormatError, _message

ProgressCallback = Callable[[str, float, float], None]  # (phase, fraction done, seconds elapsed)


PHASES = {0: "starting", 1: "expanding", 2: "sorting", 3: "minimizing", 4: "laying out", 5: "done"}
OUTPUT_START = 1 << 16


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
