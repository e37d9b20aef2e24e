"""cffi build script for the native extension ``gaddag_solver._core`` (API mode, out-of-line).

Run by setuptools through ``cffi_modules`` in setup.py during ``pip install -e .`` (or a wheel
build). The C declarations come from csrc/gaddag_solver.h itself, so the header stays the one
ABI both bindings see: the cdef is the header's text between ``#include <stdint.h>`` and the
final ``#endif`` (no include guard or system include reaches cffi; ``#define NAME number``
lines are understood by cffi as integer constants).

Standalone use: ``python pycore/gaddag_solver/_ffi_build.py`` compiles ``_core`` into the
current directory.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
HEADER = CSRC / "gaddag_solver.h"
COMPILE_ARGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"]


def cpu_flags() -> list[str]:
    """``-mpopcnt`` when building on an x86-64 CPU that has the instruction: move generation
    counts bits at every step of its walk, and without the flag the compiler counts them in a
    dozen instructions instead of one (about 8% of a self-play game). Set GADDAG_PORTABLE=1 to
    build for x86-64 CPUs older than 2008 that lack it."""
    if os.environ.get("GADDAG_PORTABLE") or platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return ["-mpopcnt"] if " popcnt" in cpuinfo else []


def _relative(path: Path) -> str:
    """`path` relative to the working directory when below it (setuptools prefers that)."""
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def header_cdef(text: str) -> str:
    """The part of the public header that cffi's cdef reads."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if "#include <stdint.h>" in line]
    ends = [i for i, line in enumerate(lines) if line.strip().startswith("#endif")]
    if not starts or not ends or ends[-1] <= starts[0]:
        raise RuntimeError(f"{HEADER}: expected '#include <stdint.h>' followed by a final '#endif'")
    return "\n".join(lines[starts[0] + 1 : ends[-1]]) + "\n"


def c_sources() -> list[str]:
    sources = sorted(CSRC.glob("*.c"))
    if not sources:
        raise RuntimeError(f"no C sources in {CSRC}")
    return [_relative(path) for path in sources]


ffibuilder = FFI()
ffibuilder.cdef(header_cdef(HEADER.read_text(encoding="utf-8")))
ffibuilder.set_source(
    "gaddag_solver._core",
    '#include "gaddag_solver.h"\n',
    include_dirs=[_relative(CSRC)],
    sources=c_sources(),
    depends=[_relative(path) for path in sorted(CSRC.glob("*.h"))],
    extra_compile_args=COMPILE_ARGS + cpu_flags(),
    libraries=["m"],  # sim.c: sqrt and exp
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True, tmpdir=os.environ.get("GADDAG_FFI_TMPDIR", "."))
