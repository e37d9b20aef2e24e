#!/usr/bin/env bash
# Build and serve the app: set up the environment (scripts/setup_env.sh) unless what it makes is
# already in place and up to date, assemble build/site (scripts/build_site.py: the page from web/,
# Pyodide, the wasm wheel, lexicons, rules data; only what is missing or stale is redone), then
# serve it over http on 127.0.0.1 (Pyodide needs http, not file://). With everything built it
# serves within a second or two; a fresh machine gets the whole set-up first.
# `serve.sh --check` only says whether the set-up would run (exit status 1 when it would).
# Environment: PORT (default 8000), VENV (default .venv), SETUP=1 (run the set-up anyway).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${VENV:-$ROOT/.venv}"
export VENV
PORT="${PORT:-8000}"

# Why the set-up must run (printed), or nothing when its outputs are up to date: the virtual
# environment with this checkout's package installed editable, its native core newer than csrc/
# and the cffi build script, the install newer than pyproject.toml, every default lexicon built
# (.gaddag and .dawg) and the npm packages installed from the current package-lock.json.
# (Lexicons older than their word lists and a stale browser wheel are build_site.py's and
# build_default_lexicons.py's to notice; the set-up runs them.)
setup_needed() {
    [ "${SETUP:-}" = 1 ] && { echo "SETUP=1"; return; }
    [ -x "$VENV/bin/python" ] || { echo "no virtual environment at $VENV"; return; }
    [ -f node_modules/pyodide/pyodide.mjs ] && [ -f node_modules/axe-core/axe.min.js ] \
        || { echo "the npm packages are not installed"; return; }
    [ package-lock.json -nt node_modules/.package-lock.json ] && { echo "package-lock.json changed"; return; }
    "$VENV/bin/python" - "$ROOT" <<'PY' || echo "the package cannot be checked"
import sys
from pathlib import Path

root = Path(sys.argv[1])
try:
    import gaddag_solver
    import gaddag_solver._core as core
    from gaddag_solver.lexicons import SOURCES
except ImportError as exc:
    print(f"the package is not installed ({exc})")
    sys.exit()
package = Path(gaddag_solver.__file__).resolve().parent
if package != root / "pycore" / "gaddag_solver":
    print(f"the package installed is {package}, not this checkout's")
    sys.exit()
built = Path(core.__file__).stat().st_mtime
sources = [*(root / "csrc").iterdir(), package / "_ffi_build.py"]
newer = [path.name for path in sources if path.is_file() and path.stat().st_mtime > built]
if newer:
    print(f"the native core is older than {', '.join(sorted(newer))}")
    sys.exit()
installed = [p.stat().st_mtime for p in Path(sys.prefix).glob("lib/python*/site-packages/gaddag_solver-*.dist-info")]
if not installed or (root / "pyproject.toml").stat().st_mtime > max(installed):
    print("pyproject.toml is newer than the install")
    sys.exit()
missing = [f"{name}{suffix}" for name in SOURCES for suffix in (".gaddag", ".dawg")
           if not (root / "lexicons" / f"{name}{suffix}").is_file()]
if missing:
    print(f"lexicons not built: {', '.join(missing)}")
PY
}

reason="$(setup_needed)"
if [ "${1:-}" = --check ]; then
    [ -z "$reason" ] && { echo "set-up up to date"; exit 0; }
    echo "set-up needed: $reason"
    exit 1
fi
if [ -n "$reason" ]; then
    echo "==> set-up needed: $reason" >&2
    bash scripts/setup_env.sh
else
    echo "==> set-up up to date (SETUP=1 runs it anyway)" >&2
fi
# shellcheck disable=SC1091
source "$VENV/bin/activate"

python scripts/build_site.py

echo "==> serving $ROOT/build/site (Ctrl-C to stop)" >&2
echo "GADDAG Solver: http://127.0.0.1:$PORT/"
exec python -m http.server --bind 127.0.0.1 "$PORT" --directory build/site
