"""The one place that exposes the C core to Python: ``ffi`` and ``lib``.

Natively this is the cffi extension ``gaddag_solver._core`` (API mode), compiled from csrc/
by ``pip install -e .``. (Inside Pyodide a ctypes binding over the wasm side module will be
selected here instead; every other module imports ``ffi``/``lib`` from this module only.)
"""

from __future__ import annotations

try:
    from ._core import ffi, lib
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "the native extension gaddag_solver._core is not built or cannot be loaded "
        f"({exc}). From the repository root run `pip install -e .` (or `bash scripts/setup_env.sh`) "
        "to compile csrc/ into it; rerun it after changing any C file."
    ) from exc

__all__ = ["ffi", "lib"]
