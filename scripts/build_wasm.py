#!/usr/bin/env python3
"""Build the browser package: csrc/ compiled by emcc into a WebAssembly side module, packed
with the pure-Python package into a wheel that ``pyodide.loadPackage(url)`` installs.

    python scripts/build_wasm.py [--out build/wasm] [--force]

Inside Pyodide the package binds the side module with ctypes (gaddag_solver/_ctypes_ffi.py);
natively it keeps the cffi extension. No native (ELF) file goes into this wheel.
The wheel is rebuilt only when a source is newer than it, unless --force.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
PACKAGE = ROOT / "pycore" / "gaddag_solver"
SIDE_MODULE = "libgaddag_core.so"
# How the code is optimized (docs/browser.md has the measurements behind the choice);
# bench/wasm.py --emcc-flags measures others.
OPTIMIZE_FLAGS = ["-O3"]
# WASM_BIGINT: 64-bit arguments (seeds) cross to JavaScript as BigInt, as Pyodide passes them
BASE_FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-sSIDE_MODULE=1", "-sWASM_BIGINT"]
# Files of the package that have no place in the browser: the native extension and its build.
NATIVE_ONLY = re.compile(r"(^_core\..*\.so$|^_core\.c$|^_core\.o$|^_ffi_build\.py$|\.pyc$)")


def project_version() -> str:
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
    if not match:
        raise SystemExit("pyproject.toml has no version")
    return match.group(1)


def package_files() -> list[Path]:
    files = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or NATIVE_ONLY.search(path.name):
            continue
        if path.suffix in (".py", ".json"):
            files.append(path)
    return files


def sources() -> list[Path]:
    return sorted(CSRC.glob("*.c")) + sorted(CSRC.glob("*.h")) + package_files() + [Path(__file__)]


def compile_side_module(out_dir: Path, optimize: list[str] | None = None) -> Path:
    """csrc/ into out_dir/libgaddag_core.so, optimized with `optimize` (default OPTIMIZE_FLAGS)."""
    emcc = shutil.which("emcc")
    if not emcc:
        raise SystemExit("emcc not found: install Debian's emscripten (apt-get install -y emscripten)")
    target = out_dir / SIDE_MODULE
    flags = [*(OPTIMIZE_FLAGS if optimize is None else optimize), *BASE_FLAGS]
    command = [emcc, *flags, f"-I{CSRC}", *map(str, sorted(CSRC.glob("*.c"))), "-o", str(target)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"emcc failed:\n{result.stderr}")
    if target.read_bytes()[:4] != b"\0asm":
        raise SystemExit(f"{target} is not a WebAssembly module")
    return target


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def write_wheel(out_dir: Path, side_module: Path, version: str) -> Path:
    dist_info = f"gaddag_solver-{version}.dist-info"
    wheel = out_dir / f"gaddag_solver-{version}-py3-none-any.whl"
    entries: list[tuple[str, bytes]] = []
    for path in package_files():
        entries.append((f"gaddag_solver/{path.relative_to(PACKAGE).as_posix()}", path.read_bytes()))
    entries.append((f"gaddag_solver/{SIDE_MODULE}", side_module.read_bytes()))
    metadata = f"Metadata-Version: 2.1\nName: gaddag-solver\nVersion: {version}\nRequires-Python: >=3.11\n"
    wheel_info = (
        "Wheel-Version: 1.0\nGenerator: gaddag-solver build_wasm.py\n"
        "Root-Is-Purelib: false\nTag: py3-none-any\n"
    )
    entries.append((f"{dist_info}/METADATA", metadata.encode()))
    entries.append((f"{dist_info}/WHEEL", wheel_info.encode()))
    record = "\n".join(_record_line(name, data) for name, data in entries) + f"\n{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))
    partial = wheel.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    partial.replace(wheel)
    return wheel


def build(out_dir: Path, force: bool = False, optimize: list[str] | None = None) -> Path:
    """The wheel in out_dir, built unless up to date; `optimize` replaces OPTIMIZE_FLAGS (a
    variant to measure: give it a folder of its own, as the wheel's name does not say)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    version = project_version()
    wheel = out_dir / f"gaddag_solver-{version}-py3-none-any.whl"
    if not force and wheel.exists():
        newest = max(path.stat().st_mtime for path in sources())
        if wheel.stat().st_mtime >= newest:
            print(f"up to date: {wheel}", file=sys.stderr)
            return wheel
    started = time.perf_counter()
    side_module = compile_side_module(out_dir, optimize)
    compiled = time.perf_counter()
    wheel = write_wheel(out_dir, side_module, version)
    finished = time.perf_counter()
    print(
        f"built {wheel} ({wheel.stat().st_size:,} bytes; side module {side_module.stat().st_size:,} bytes) "
        f"in {finished - started:.2f} s (emcc {compiled - started:.2f} s)",
        file=sys.stderr,
    )
    return wheel


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "wasm", help="output folder")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args()
    build(args.out, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
