"""The one place that chooses how Python reaches the C core: ``ffi`` and ``lib``.

- Natively: the cffi extension ``gaddag_solver._core`` (API mode), compiled from csrc/ by
  ``pip install -e .``.
- Inside Pyodide: ctypes over the WebAssembly side module shipped in the browser wheel
  (gaddag_solver/_ctypes_ffi.py offers the same ``ffi``/``lib`` surface).

GADDAG_SOLVER_BINDING=ctypes selects the ctypes path natively too (with
GADDAG_SOLVER_CTYPES_LIB naming a native build of csrc/), so the tests can hold the two
bindings to the same results.
"""

from __future__ import annotations

import os
import sys

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


def cpu_flags(cpuinfo: str) -> set[str] | None:
    """The CPU's feature flags from the text of /proc/cpuinfo (its first "flags" line), or None."""
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return None


def missing_cpu_features(required: str, cpuinfo: str | None) -> list[str]:
    """The features a core built for `required` (gd_cpu_requires) would use that the CPU
    described by `cpuinfo` lacks; none when the CPU cannot be read."""
    have = cpu_flags(cpuinfo) if cpuinfo is not None else None
    if have is None:
        return []
    return [feature for feature in required.split() if feature not in have]


def check_cpu(required: str, cpuinfo_path: str = "/proc/cpuinfo") -> None:
    """Refuse (ImportError) a core compiled for CPU features (`required`, gd_cpu_requires) that
    the CPU described at `cpuinfo_path` lacks: built for x86-64-v3 on one machine and loaded on
    a CPU without those features, it would die at its first such instruction."""
    if not required:
        return
    try:
        with open(cpuinfo_path, encoding="utf-8", errors="replace") as file:
            cpuinfo: str | None = file.read()
    except OSError:
        cpuinfo = None
    missing = missing_cpu_features(required, cpuinfo)
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
