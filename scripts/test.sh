#!/usr/bin/env bash
# Run every test: set up the environment (scripts/setup_env.sh), lint, then pytest.
# pytest covers the C core too (including the sanitizer build under tests/).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k movegen`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${VENV:-$ROOT/.venv}"
export VENV

bash scripts/setup_env.sh
# shellcheck disable=SC1091
source "$VENV/bin/activate"

echo "==> ruff check . && ruff format --check ." >&2
ruff check .
ruff format --check .

echo "==> python -m pytest -q tests $*" >&2
status=0
python -m pytest -q tests "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "FAILED: pytest collected no tests (exit code 5); an empty run never counts as a pass" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "FAILED: pytest exit code $status" >&2
    exit "$status"
fi
echo "==> all tests passed" >&2
