"""The ctypes stand-in (the binding Pyodide uses) against cffi's reading of the public header.

_ctypes_ffi.py writes the structures, constants and signatures of csrc/gaddag_solver.h by hand;
cffi compiles the header itself. Every structure must have the same size and every field the same
offset, every constant the same value, and every function of the header a ctypes signature, or
the browser would read the core's memory wrongly.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from gaddag_solver._core import ffi, lib

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "csrc" / "gaddag_solver.h"
STRUCT_NAMES = sorted(set(re.findall(r"typedef struct (\w+) \{", HEADER.read_text())))


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """_ctypes_ffi over a native build of csrc/ (the module loads its library when imported)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None, "no C compiler"
    library = tmp_path_factory.mktemp("bindings") / "libgaddag_core.so"
    sources = sorted(str(p) for p in (ROOT / "csrc").glob("*.c"))
    subprocess.run(
        [
            compiler,
            "-std=c11",
            "-O0",
            "-shared",
            "-fPIC",
            f"-I{ROOT / 'csrc'}",
            *sources,
            "-o",
            str(library),
            "-lm",
        ],
        check=True,
    )
    previous = os.environ.get("GADDAG_SOLVER_CTYPES_LIB")
    os.environ["GADDAG_SOLVER_CTYPES_LIB"] = str(library)
    try:
        sys.modules.pop("gaddag_solver._ctypes_ffi", None)
        return importlib.import_module("gaddag_solver._ctypes_ffi")
    finally:
        if previous is None:
            del os.environ["GADDAG_SOLVER_CTYPES_LIB"]
        else:
            os.environ["GADDAG_SOLVER_CTYPES_LIB"] = previous


def test_the_header_declares_structures() -> None:
    assert len(STRUCT_NAMES) >= 10


@pytest.mark.parametrize("name", STRUCT_NAMES)
def test_structure_layout(mirror: ModuleType, name: str) -> None:
    assert name in mirror.STRUCTS, f"{name} is not mirrored in _ctypes_ffi.py"
    struct = mirror.STRUCTS[name]
    assert ctypes.sizeof(struct) == ffi.sizeof(name), name
    fields = [field for field, _kind in struct._fields_]
    assert fields, name
    for field in fields:
        assert getattr(struct, field).offset == ffi.offsetof(name, field), f"{name}.{field}"


def test_no_structure_beyond_the_header(mirror: ModuleType) -> None:
    assert set(mirror.STRUCTS) == set(STRUCT_NAMES)


def test_constants(mirror: ModuleType) -> None:
    names = re.findall(r"^#define (GD_\w+) ", HEADER.read_text(), flags=re.M)
    assert len(names) >= 20
    for name in names:
        assert getattr(mirror, name) == getattr(lib, name), name


def test_every_function_has_a_signature(mirror: ModuleType) -> None:
    functions = set(re.findall(r"^(?:[\w ]+?[ *])(gd_\w+)\(", HEADER.read_text(), flags=re.M))
    assert len(functions) >= 20
    assert functions == {name for name, _result, _parameters in mirror._SIGNATURES}


def test_a_buffer_over_an_array_reads_what_cffi_reads(mirror: ModuleType) -> None:
    """ffi.buffer over a ctypes array (how the move records are copied out in Pyodide)."""
    size = 5 * ffi.sizeof("gd_move")
    ours, theirs = mirror.ffi.new("gd_move[]", 5), ffi.new("gd_move[]", 5)
    for moves in (ours, theirs):
        moves[2].score = -77
        moves[4].word[3] = 9
    assert mirror.ffi.buffer(ours, size)[:] == ffi.buffer(theirs, size)[:]
    assert mirror.ffi.buffer(ours, size)[100:150] == ffi.buffer(theirs, size)[100:150]
    assert len(mirror.ffi.buffer(ours, 100)) == 100
    taken = mirror.ffi.buffer(ours, size)[:]
    ours[2].score = 5
    assert taken == ffi.buffer(theirs, size)[:], "a slice is a copy, not a view"
    with pytest.raises(ValueError, match="over an array of"):
        mirror.ffi.buffer(ours, size + 1)
