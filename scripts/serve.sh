#!/usr/bin/env bash
# Build and serve the app. For now: set up the environment, then serve web/ over http on
# 127.0.0.1 (the page itself comes in a later issue; Pyodide needs http, not file://).
# Environment: PORT (default 8000).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${VENV:-$ROOT/.venv}"
export VENV
PORT="${PORT:-8000}"

bash scripts/setup_env.sh
# shellcheck disable=SC1091
source "$VENV/bin/activate"

# >>> later issues: build the wasm wheel and copy Pyodide + lexicons into web/ here <<<

mkdir -p web
echo "==> serving $ROOT/web at http://127.0.0.1:$PORT/ (Ctrl-C to stop)" >&2
exec python -m http.server --bind 127.0.0.1 "$PORT" --directory web
