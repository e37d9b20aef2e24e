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

import importlib.util
import os
import platform
from pathlib import Path
from typing import Any

from cffi import FFI

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
HEADER = CSRC / "gaddag_solver.h"
COMPILE_ARGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Werror"]


def _cpu_features() -> Any:
    """gaddag_solver/cpu_features.py, read by path: the package cannot be imported before its
    core is built."""
    spec = importlib.util.spec_from_file_location(
        "gaddag_cpu_features", Path(__file__).with_name("cpu_features.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CPU_FEATURES = _cpu_features()
X86_64_V3: list[str] = CPU_FEATURES.X86_64_V3


def _cpu_flags_here() -> set[str]:
    return CPU_FEATURES.read_cpu_flags() or set()


def cpu_target() -> tuple[list[str], list[str]]:
    """The compiler options for the CPU the extension is built on, and the CPU features they
    require (as /proc/cpuinfo names them).

    - x86-64 with every x86-64-v3 feature: ``-march=x86-64-v3 -mtune=native``. Measured on an
      Intel Xeon (docs/movegen.md, "Build flags"): all-moves generation 11% faster than
      ``-mpopcnt`` alone, the endgame 5-10%, self-play and simulation the same; ``-march=native``
      gained a little more (14%) but would tie the build to the one CPU model.
    - x86-64 with POPCNT only: ``-mpopcnt``. Move generation counts bits at every step of its
      walk; without the instruction the compiler counts them in a dozen (8% of a self-play game).
    - ``GADDAG_PORTABLE=1``, or another architecture: nothing beyond the baseline."""
    if os.environ.get("GADDAG_PORTABLE") or platform.machine().lower() not in ("x86_64", "amd64"):
        return [], []
    here = _cpu_flags_here()
    if all(flag in here for flag in X86_64_V3):
        return ["-march=x86-64-v3", "-mtune=native"], X86_64_V3
    if "popcnt" in here:
        return ["-mpopcnt"], ["popcnt"]
    return [], []


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


CPU_OPTIONS, CPU_REQUIRES = cpu_target()
ffibuilder = FFI()
ffibuilder.cdef(header_cdef(HEADER.read_text(encoding="utf-8")))
ffibuilder.set_source(
    "gaddag_solver._core",
    '#include "gaddag_solver.h"\n',
    include_dirs=[_relative(CSRC)],
    sources=c_sources(),
    depends=[_relative(path) for path in sorted(CSRC.glob("*.h"))],
    extra_compile_args=COMPILE_ARGS + CPU_OPTIONS + [f'-DGD_CPU_REQUIRES="{" ".join(CPU_REQUIRES)}"'],
    libraries=["m"],  # sim.c: sqrt and exp
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True, tmpdir=os.environ.get("GADDAG_FFI_TMPDIR", "."))
