"""Lexicon and leave files are judged by their fixed header before the rest is read.

A file that is not ours (an 800 MB sparse file with a bad magic), or whose header declares another
size than the file has, is refused with the loader's usual message while holding only a few bytes
in memory: Lexicon.load, Leaves.load and a CGP line's ``lex`` opcode in a batch.
"""

from __future__ import annotations

import json
import struct
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from gaddag_solver import Lexicon, LexiconFormatError, Rules, build_gaddag
from gaddag_solver.cli import main
from gaddag_solver.formats.leaves import Leaves, LeavesError

ENGLISH = Rules.load("english").alphabet

BIG = 800 * 2**20
SMALL = 4 * 2**20  # the peak allowed while refusing a BIG file: what the interpreter needs anyway


def peak_while(action: Callable[[], object]) -> int:
    """Bytes Python allocated at the peak while `action` ran."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def sparse(path: Path, head: bytes, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.write(head)
        handle.truncate(size)
    return path


def refused(load: Callable[[], object], error: type[Exception], match: str) -> int:
    def attempt() -> None:
        with pytest.raises(error, match=match):
            load()

    return peak_while(attempt)


def test_a_big_file_that_is_not_a_lexicon_is_refused_from_its_header(tmp_path: Path) -> None:
    path = sparse(tmp_path / "big.gaddag", b"NOT A LEXICON\n", BIG)
    peak = refused(lambda: Lexicon.load(path), LexiconFormatError, r"big\.gaddag: not a \.gaddag file")
    assert peak < SMALL


def test_a_lexicon_header_declaring_another_size_is_refused_before_the_rest(tmp_path: Path) -> None:
    data, _ = build_gaddag(["CAT", "CATS", "TA"], ENGLISH, name="ab")
    # a real header on a file extended to 800 MB: the size field says len(data)
    path = sparse(tmp_path / "extended.gaddag", data, BIG)
    peak = refused(
        lambda: Lexicon.load(path),
        LexiconFormatError,
        rf"{BIG - len(data)} unexpected bytes.*at byte {len(data)}",
    )
    assert peak < SMALL
    # a header saying the file is 800 MB on a file of a few bytes: named truncated
    (tmp_path / "short.gaddag").write_bytes(data[:16] + struct.pack("<I", BIG) + data[20:])
    said = rf"truncated: the file has {len(data)} bytes, its header says {BIG}"
    with pytest.raises(LexiconFormatError, match=said):
        Lexicon.load(tmp_path / "short.gaddag")
    # the arc count is checked against the size from the header too
    damaged = bytearray(data)
    struct.pack_into("<II", damaged, 16, BIG, (BIG - 96) // 4)
    path = sparse(tmp_path / "arcs.gaddag", bytes(damaged), BIG)
    assert refused(lambda: Lexicon.load(path), LexiconFormatError, "does not fit the file size") < SMALL
    # and a good file still loads
    (tmp_path / "good.gaddag").write_bytes(data)
    assert "CATS" in Lexicon.load(tmp_path / "good.gaddag")


def test_a_big_file_that_is_not_a_leave_table_is_refused_from_its_header(tmp_path: Path) -> None:
    rules = Rules.load("english")
    path = sparse(tmp_path / "big.leaves", b"\x89GADDAG\n", BIG)
    assert refused(lambda: Leaves.load(path, rules), LeavesError, r"big\.leaves: not a \.leaves file") < SMALL
    table = Leaves.zero(rules).to_bytes()
    path = sparse(tmp_path / "extended.leaves", table[:64], BIG)
    peak = refused(
        lambda: Leaves.load(path, rules), LeavesError, rf"{BIG - len(table)} unexpected bytes after the end"
    )
    assert peak < SMALL


def test_a_cgp_lex_opcode_naming_a_big_file_fails_its_line_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lexicon_path: str
) -> None:
    big = sparse(tmp_path / "big.gaddag", b"\0" * 64, BIG)
    empty = "/".join(["15"] * 15)
    bad_line = f"{empty} AB/ 0/0 0 lex {big};\n"
    (tmp_path / "bad.cgp").write_text(bad_line)
    status = [0]
    peak = peak_while(lambda: status.__setitem__(0, main(["solve", "--batch", str(tmp_path / "bad.cgp")])))
    assert status[0] == 1 and peak < SMALL
    (tmp_path / "both.cgp").write_text(bad_line + f"{empty} AB/ 0/0 0 lex {lexicon_path};\n")
    capsys.readouterr()
    assert main(["solve", "--batch", str(tmp_path / "both.cgp")]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["line"] == 1 and "not a .gaddag file (bad magic bytes)" in lines[0]["error"]
    assert lines[1]["line"] == 2 and lines[1]["count"] == 8  # AB and BA through the start square, each 4 ways
