#!/usr/bin/env bash
# Run every test: set up the environment (scripts/setup_env.sh), lint, then pytest on every core
# (pytest-xdist; how the tests are shared out: tests/conftest.py). pytest covers the C core too
# (including the sanitizer build under tests/). Extra arguments go to pytest, e.g.
# `bash scripts/test.sh -k movegen`; PYTEST_WORKERS (default auto: one per core) sets -n. The ten
# slowest tests are listed at the end (--durations=10), so a slow one is seen when it appears.
# The time each step took is printed at the end, passed or not.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${VENV:-$ROOT/.venv}"
export VENV

started=$SECONDS
steps=""
step_started=$SECONDS
step_done() {
    # step_done NAME: the time since the last step, for the summary
    steps="$steps, $1 $(minutes $((SECONDS - step_started)))"
    step_started=$SECONDS
}
minutes() {
    printf '%d min %02d s' $(($1 / 60)) $(($1 % 60))
}
summary() {
    echo "==> total $(minutes $((SECONDS - started)))${steps:+ (${steps#, })}" >&2
}
trap summary EXIT

bash scripts/setup_env.sh
step_done "set-up"
# shellcheck disable=SC1091
source "$VENV/bin/activate"

echo "==> ruff check . && ruff format --check ." >&2
ruff check .
ruff format --check .
step_done "lint"

workers="${PYTEST_WORKERS:-auto}"
echo "==> python -m pytest -q -n $workers --dist loadscope --durations=10 tests $*" >&2
status=0
python -m pytest -q -n "$workers" --dist loadscope --durations=10 tests "$@" || status=$?
step_done "pytest"
if [ "$status" -eq 5 ]; then
    echo "FAILED: pytest collected no tests (exit code 5); an empty run never counts as a pass" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "FAILED: pytest exit code $status" >&2
    exit "$status"
fi
echo "==> all tests passed" >&2
