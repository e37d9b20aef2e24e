"""The one place that chooses how Python reaches the C core: ``ffi`` and ``lib``.

- Natively: the cffi extension ``gaddag_solver._core`` (API mode), compiled from csrc/ by
  ``pip install -e .``.
- Inside Pyodide: ctypes over the WebAssembly side module shipped in the browser wheel
  (gaddag_solver/_ctypes_ffi.py offers the same ``ffi``/``lib`` surface).

GADDAG_SOLVER_BINDING=ctypes selects the ctypes path natively too (with
GADDAG_SOLVER_CTYPES_LIB naming a native build of csrc/), so the tests can hold the two
bindings to the same results.

A native core built for CPU features this CPU lacks (a tree built on one machine and moved to
another) is refused on import with a message rather than left to die at an illegal instruction.
"""

from __future__ import annotations

import os
import sys

from .cpu_features import missing_cpu_features, read_cpu_flags

BINDING = os.environ.get("GADDAG_SOLVER_BINDING") or ("ctypes" if sys.platform == "emscripten" else "cffi")

if BINDING == "ctypes":
    from ._ctypes_ffi import ffi, lib
elif BINDING == "cffi":
    try:
        from ._core import ffi, lib
    except ImportError as exc:  # pragma: no cover - exercised only on a broken install
        raise ImportError(
            "the native extension gaddag_solver._core is not built or cannot be loaded "
            f"({exc}). From the repository root run `pip install -e .` (or `bash scripts/setup_env.sh`) "
            "to compile csrc/ into it; rerun it after changing any C file."
        ) from exc
else:
    raise ImportError(f"GADDAG_SOLVER_BINDING must be 'cffi' or 'ctypes', not {BINDING!r}")


def check_cpu(required: str, cpuinfo_path: str = "/proc/cpuinfo") -> None:
    """Refuse (ImportError) a core compiled for CPU features (`required`, gd_cpu_requires) that
    the CPU described at `cpuinfo_path` lacks: built for x86-64-v3 on one machine and loaded on
    a CPU without those features, it would die at its first such instruction."""
    if not required:
        return
    missing = missing_cpu_features(required, read_cpu_flags(cpuinfo_path))
    if missing:
        raise ImportError(
            "the native extension gaddag_solver._core was built on a CPU with features this one "
            f"lacks ({', '.join(missing)}), probably on another machine. Rebuild it here from the "
            "repository root: `pip install -e .` (or `GADDAG_PORTABLE=1 pip install -e .` for a "
            "build that runs on any x86-64 CPU)."
        )


if BINDING == "cffi":
    check_cpu(ffi.string(lib.gd_cpu_requires()).decode("ascii", "replace"))

__all__ = ["BINDING", "ffi", "lib"]
