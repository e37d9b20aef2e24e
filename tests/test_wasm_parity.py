"""The browser build gives the same answers as the native one, to the last play and point.

tests/parity_job.py runs one fixed workload — every play of the 62 reference positions and
the four named examples, lexicon queries, corrupt lexicons and bad positions (error class
and message) — and prints JSON. It runs three ways and the outputs must be byte-identical:

- natively through cffi (the normal install);
- natively through the ctypes binding over a shared library built from csrc/ (the code path
  Pyodide uses, on CPython);
- inside Pyodide under Node, from the npm package, with our browser wheel (wasm side module).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from build_lock import build_lock
from leave_csv import full_rack_hundredths
from parity_job import PASS_CSV

ROOT = Path(__file__).resolve().parent.parent
JOB = ROOT / "tests" / "parity_job.py"
RUNNER = ROOT / "tests" / "pyodide" / "run.mjs"
DATA = ROOT / "tests" / "data" / "sowpods"
LEXICON = ROOT / "lexicons" / "sowpods.gaddag"


def require(condition: bool, message: str) -> None:
    # Set-up (scripts/setup_env.sh) provides all of these; a missing piece is a failure, not a skip.
    if not condition:
        pytest.fail(message)


@pytest.fixture(scope="module")
def wheel() -> Path:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_wasm
    finally:
        sys.path.pop(0)
    require(shutil.which("emcc") is not None, "emcc is missing: run scripts/setup_env.sh")
    with build_lock():
        return build_wasm.build(ROOT / "build" / "wasm")


@pytest.fixture(scope="module")
def native_output() -> str:
    require(LEXICON.exists(), f"{LEXICON} is missing: run scripts/setup_env.sh")
    result = subprocess.run(
        [sys.executable, str(JOB), str(LEXICON), str(DATA)], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def first_difference(expected: str, actual: str) -> str:
    a, b = json.loads(expected), json.loads(actual)
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            if isinstance(a.get(key), dict) and isinstance(b.get(key), dict):
                for inner in sorted(set(a[key]) | set(b[key])):
                    if a[key].get(inner) != b[key].get(inner):
                        return f"{key}/{inner}: native {a[key].get(inner)!r} != other {b[key].get(inner)!r}"
            return f"{key}: native {str(a.get(key))[:400]} != other {str(b.get(key))[:400]}"
    return "outputs differ in formatting only"


def test_native_workload_is_meaningful(native_output: str) -> None:
    result = json.loads(native_output)
    positions = result["positions"]
    assert len(positions) == 66
    # the named examples (README of the reference data): counts and best plays
    assert positions["examples.txt:0"]["count"] == 2916 and positions["examples.txt:0"]["best"][0][4] == 66
    assert (
        positions["examples.txt:1"]["count"] == 1385
        and positions["examples.txt:1"]["best"][0][3] == "URALITES"
    )
    assert positions["examples.txt:3"]["count"] == 59772 and positions["examples.txt:3"]["best"][0][4] == 110
    assert result["lexicon_used_in_place"] is True
    assert all(error is not None for name, error in result["errors"].items() if name != "empty_board_ok")
    # the pass keeps the full rack: its 6-tile sub-racks' values (parity_job.PASS_CSV) summed
    # over 6, halves away from 0 (leave_csv.full_rack_hundredths)
    csv = {"".join(sorted(leave)): value for leave, value in (line.split(",") for line in PASS_CSV.split())}
    for rack, equities in result["games"]["pass"].items():
        expected = full_rack_hundredths(lambda key: round(100 * float(csv.get(key, 0))), rack) / 100
        assert equities == [expected], rack
    assert all(equities != [0.0] for equities in result["games"]["pass"].values())
    floating = result["floating"]  # the tile in the corner is played through, and named
    assert floating["warnings"][0].startswith("floating tile A at A1: not connected")
    assert floating["count"] > 100 and any(play[2] == "across" for play in floating["corner"])


def test_ctypes_binding_matches_cffi_natively(native_output: str, ctypes_library: Path) -> None:
    env = dict(os.environ, GADDAG_SOLVER_BINDING="ctypes", GADDAG_SOLVER_CTYPES_LIB=str(ctypes_library))
    result = subprocess.run(
        [sys.executable, str(JOB), str(LEXICON), str(DATA)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == native_output, first_difference(native_output, result.stdout)


def test_pyodide_under_node_matches_native(native_output: str, wheel: Path) -> None:
    node = shutil.which("node")
    require(node is not None, "node is missing: run scripts/setup_env.sh")
    require((ROOT / "node_modules" / "pyodide").is_dir(), "node_modules/pyodide is missing: run `npm ci`")
    result = subprocess.run(
        [node, str(RUNNER), "--wheel", str(wheel), str(JOB), str(LEXICON), str(DATA)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout == native_output, first_difference(native_output, result.stdout)


def test_wheel_holds_wasm_and_no_native_code(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        binaries = {name: archive.read(name)[:4] for name in names if name.endswith(".so")}
    assert binaries == {"gaddag_solver/libgaddag_core.so": b"\0asm"}, binaries
    assert not any(name.endswith((".pyc", "_ffi_build.py")) for name in names)
    modules = ("lexicon.py", "solver.py", "_core_api/__init__.py", "_core_api/movegen.py", "_ctypes_ffi.py")
    for module in (*modules, "web_api/__init__.py", "web_api/moves.py", "rules/english.json"):
        assert f"gaddag_solver/{module}" in names
