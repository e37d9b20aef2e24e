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

__all__ = ["BINDING", "ffi", "lib"]
