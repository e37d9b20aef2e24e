#!/usr/bin/env bash
# Build and serve the app: set up the environment (scripts/setup_env.sh), assemble build/site
# (scripts/build_site.py: the page from web/, Pyodide, the wasm wheel, lexicons, rules data;
# only what is missing or stale is redone), then serve it over http on 127.0.0.1 (Pyodide
# needs http, not file://).
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

python scripts/build_site.py

echo "==> serving $ROOT/build/site (Ctrl-C to stop)" >&2
echo "GADDAG Solver: http://127.0.0.1:$PORT/"
exec python -m http.server --bind 127.0.0.1 "$PORT" --directory build/site
