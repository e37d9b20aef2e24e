#!/usr/bin/env bash
# Long fuzz runs: bash scripts/fuzz.sh [TARGET|all] [SECONDS]
#
# Runs one atheris target of tests/fuzz/ (lexicon, leaves, rules, cgp, board, gcg, web_api) or all
# of them in turn, each for SECONDS (default 60), over the committed seeds plus a work corpus kept
# outside the repository ($FUZZ_WORK, default ~/.cache/gaddag-solver-fuzz/TARGET), which grows from
# run to run. A finding (crash, unexpected exception, hang over 10 s) is written to
# $FUZZ_WORK/findings/ and the run of that target stops. At the end: a table of the executions
# per second and the coverage (libFuzzer's cov: and ft:) each target reached.
# The C target (tests/fuzz/c/fuzz_lexicon.c, clang's libFuzzer) is run as c_lexicon when clang is there.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${1:-all}"
SECONDS_EACH="${2:-60}"
WORK="${FUZZ_WORK:-$HOME/.cache/gaddag-solver-fuzz}"
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
mkdir -p "$WORK/findings" "$WORK/logs"

targets=()
if [ "$TARGET" = all ]; then
    for file in tests/fuzz/fuzz_*.py; do
        name="${file#tests/fuzz/fuzz_}"
        targets+=("${name%.py}")
    done
    command -v clang >/dev/null && targets+=(c_lexicon)
else
    targets=("$TARGET")
fi

build_c() {  # the libFuzzer build of the C loader and generator, with ASan and UBSan
    local binary="$WORK/c_lexicon.bin"
    clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -Icsrc tests/fuzz/c/fuzz_lexicon.c csrc/*.c -o "$binary" -lm >&2
    echo "$binary"
}

rows=()
status=0
for target in "${targets[@]}"; do
    corpus="$WORK/$target"
    log="$WORK/logs/$target.log"
    mkdir -p "$corpus"
    if [ "$target" = c_lexicon ]; then
        if ! binary=$(build_c); then
            rows+=("$(printf '%-10s %8s  %s' "$target" - "clang could not build it (is libclang-rt-14-dev installed?)")")
            status=1
            continue
        fi
        command=("$binary")
        seeds=tests/fuzz/corpus/c_lexicon
    else
        [ -f "tests/fuzz/fuzz_$target.py" ] || { echo "no target tests/fuzz/fuzz_$target.py" >&2; exit 2; }
        command=("$PYTHON" "tests/fuzz/fuzz_$target.py")
        seeds="tests/fuzz/corpus/$target"
    fi
    echo "== $target: ${SECONDS_EACH}s, corpus $corpus, log $log" >&2
    set +e
    "${command[@]}" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$WORK/findings/$target-" "$corpus" "$seeds" >"$log" 2>&1
    rc=$?
    set -e
    # the last status line libFuzzer printed: "#N DONE cov: C ft: F corp: ... exec/s: E ..."
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    execs=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(sed -nE 's/.* exec\/s: ([0-9]+).*/\1/p' <<<"$last")
    corpus_size=$(find "$corpus" -type f | wc -l)
    result=ok
    if [ "$rc" -ne 0 ]; then
        result="FINDING (exit $rc): see $log"
        status=1
        grep -E "Uncaught|Error|ERROR|SUMMARY" "$log" | head -5 >&2 || true
    fi
    rows+=("$(printf '%-10s %8s %10s %8s %8s %8s  %s' "$target" "${SECONDS_EACH}s" "${runs:-?}" \
        "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result (corpus $corpus_size)")")
done

printf '\n%-10s %8s %10s %8s %8s %8s  %s\n' target time runs exec/s cov ft result
printf '%s\n' "${rows[@]}"
exit "$status"
