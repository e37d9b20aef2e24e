"""The C core through cffi (native). Everything above this module deals in bytes and ints,
so another binding (ctypes inside Pyodide) can offer the same functions."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


def open_lexicon(data: bytes | bytearray | memoryview) -> OpenedLexicon:
    buffer = _aligned_buffer(data)
    size = len(data)
    struct = ffi.new("gd_lexicon *")
    err = ffi.new("gd_error *")
    scratch = ffi.new("uint8_t[]", lib.gd_validate_scratch_size(size))
    rc = lib.gd_lexicon_open(struct, ffi.cast("uint8_t *", buffer), size, scratch, err)
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


def contains(lexicon: OpenedLexicon, codes: bytes) -> bool:
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
) -> tuple[bytes, dict[str, int]]:
    """Build a .gaddag file from 0-separated letter codes. Runs the build in a thread (cffi
    releases the GIL) so `progress` can be called about every 0.2 s."""
    out = ffi.new("uint8_t **")
    out_size = ffi.new("size_t *")
    stats = ffi.new("gd_build_stats *")
    state = ffi.new("gd_build_progress *")
    err = ffi.new("gd_error *")
    result: list[int] = []

    def run() -> None:
        result.append(
            lib.gd_build(
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
    worker.start()
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
