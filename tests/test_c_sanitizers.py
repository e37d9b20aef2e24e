"""The C core under AddressSanitizer + UndefinedBehaviorSanitizer.

Compiles every csrc/*.c file (so files added later are at least compiled with -Werror under the
sanitizers) together with tests/c/test_core_sanitized.c, which builds a lexicon, runs every
query against brute force, and opens and queries thousands of damaged copies. Skipped only when
gcc is missing; any warning, sanitizer report or failed check fails the test.

The same sources are also built as a sanitized shared library, and the Python suites for move
generation, scoring, the reference vectors and the queries run against it through the ctypes
binding (the one Pyodide uses), with the sanitizer runtimes preloaded into Python: every
oracle comparison then doubles as a memory-safety run of the generator.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CSRC = REPO / "csrc"
DRIVER = REPO / "tests" / "c" / "test_core_sanitized.c"
FLAGS = [
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-g",
    "-O1",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    # the endgame's one-tile plays also listed by the generator and compared, move for move, and
    # its horizon's best move compared with the best of every move
    "-DGD_ENDGAME_CROSS_CHECK",
]
ENV = {
    **os.environ,
    "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
REPORT_MARKERS = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "FAIL ")

GCC = shutil.which("gcc")
pytestmark = pytest.mark.skipif(GCC is None, reason="gcc is not installed")


def compile_program(sources: list[Path], output: Path, extra: tuple[str, ...] = ()) -> None:
    result = subprocess.run(
        [GCC, *FLAGS, *extra, f"-I{CSRC}", *map(str, sources), "-o", str(output), "-lm"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, f"gcc failed:\n{result.stderr}"
    assert result.stderr == "", f"gcc printed:\n{result.stderr}"


def run(program: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], capture_output=True, text=True, env=ENV, timeout=300)


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> Path:
    sources = sorted(CSRC.glob("*.c"))
    assert {"gaddag.c", "gaddag_build.c"} <= {p.name for p in sources}
    output = tmp_path_factory.mktemp("sanitized") / "test_core_sanitized"
    compile_program([*sources, DRIVER], output)
    return output


def test_sanitizers_catch_a_bad_program(tmp_path: Path) -> None:
    """The harness itself: a heap overflow and a signed overflow must both be reported."""
    source = tmp_path / "bad.c"
    source.write_text(
        "#include <limits.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
        "int main(int argc, char **argv) {\n"
        "    (void)argv;\n"
        '    if (argc > 1) { volatile int x = INT_MAX; int y = x + argc; printf("%d\\n", y); return 0; }\n'
        "    char *p = malloc(4); memset(p, 0, 4); int r = p[argc + 3]; free(p); return r;\n"
        "}\n"
    )
    compile_program([source], tmp_path / "bad")
    overflow = run(tmp_path / "bad")
    # ASan (heap-buffer-overflow) or UBSan's object-size check, whichever sees it first
    assert overflow.returncode != 0
    assert "heap-buffer-overflow" in overflow.stderr or "insufficient space" in overflow.stderr
    signed = run(tmp_path / "bad", "x")
    assert signed.returncode != 0 and "runtime error: signed integer overflow" in signed.stderr


def test_core_under_sanitizers(driver: Path) -> None:
    result = run(driver)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report[-6000:]
    assert not any(marker in report for marker in REPORT_MARKERS), report[-6000:]
    assert result.stdout.startswith("OK: "), report
    # the damaged copies really reached the queries
    opened = int(result.stdout.split(" opened and queried")[0].rsplit(" ", 1)[1])
    assert opened >= 1000, result.stdout
    # and whole games were played on them (self-play, incremental cross-sets checked each play)
    games = int(result.stdout.split(" games (")[0].rsplit(" ", 1)[1])
    assert games >= 1000, result.stdout


@pytest.mark.parametrize("mode", ["null-name", "null-data"])
def test_null_pointer_with_zero_size(driver: Path, mode: str) -> None:
    """(NULL, 0) arguments the API accepts must not reach memcpy/memcmp (UB even for 0 bytes)."""
    result = run(driver, mode)
    report = result.stdout + result.stderr
    assert result.returncode == 0 and "runtime error" not in report, report[-3000:]
    assert result.stdout.startswith("OK: "), report


# ---- the Python suites on a sanitized core -------------------------------------------------------

PYTHON_SUITES = [
    "tests/test_movegen.py",
    "tests/test_scoring.py",
    "tests/test_reference_vectors.py",
    "tests/test_lexicon_queries.py",
    "tests/test_game.py",
    "tests/test_simulate.py",
    # the endgame search against the brute-force minimax, its one-tile plays cross-checked
    "tests/test_endgame.py::test_endgame_values_equal_a_brute_force_minimax[2]",
    # and its horizon's best move against the best of all the moves, on English endgames
    "tests/test_endgame.py::test_each_depth_equals_a_depth_limited_minimax",
    # the DAWG generator through the ctypes binding (what Pyodide uses), on the largest positions
    "tests/test_dawg.py::test_reference_vectors_by_the_dawg_engine",
    "tests/test_dawg.py::test_damaged_and_forged_dawgs_are_refused",
    "tests/test_dawg.py::test_self_play_positions",
]


def sanitizer_runtimes() -> str:
    paths = []
    for name in ("libasan.so", "libubsan.so"):
        asked = subprocess.run([GCC, f"-print-file-name={name}"], capture_output=True, text=True)
        found = asked.stdout.strip()
        if not os.path.isabs(found):
            pytest.skip(f"gcc has no {name} to preload")
        paths.append(found)
    return " ".join(paths)


def compile_library(sources: list[Path], output: Path) -> None:
    compile_program(sources, output, ("-shared", "-fPIC"))


def run_suites(library: Path, logs: Path, *pytest_args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    """pytest on the suites with the core from `library`; returns the run and any sanitizer report."""
    logs.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "LD_PRELOAD": sanitizer_runtimes(),
        "ASAN_OPTIONS": f"detect_leaks=0:halt_on_error=1:log_path={logs / 'asan'}",
        "UBSAN_OPTIONS": f"halt_on_error=1:print_stacktrace=1:log_path={logs / 'ubsan'}",
        "GADDAG_SOLVER_BINDING": "ctypes",
        "GADDAG_SOLVER_CTYPES_LIB": str(library),
    }
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *pytest_args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    reports = "".join(path.read_text(errors="replace") for path in sorted(logs.iterdir()))
    return result, reports


def test_python_suites_on_the_sanitized_core(tmp_path: Path) -> None:
    library = tmp_path / "libgaddag_sanitized.so"
    compile_library(sorted(CSRC.glob("*.c")), library)
    result, reports = run_suites(library, tmp_path / "logs", *PYTHON_SUITES)
    assert reports == "", reports[-6000:]
    assert result.returncode == 0, (result.stdout + result.stderr)[-6000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout, result.stdout[-2000:]


def test_sanitized_suites_catch_a_read_past_the_walk_index(tmp_path: Path) -> None:
    """The harness itself: a generator reading one entry past the walk index must be reported."""
    planted = tmp_path / "src"
    shutil.copytree(CSRC, planted)
    movegen = planted / "movegen.c"
    line = "    const uint64_t root_letters = next_letters(&w, 0);\n"
    source = movegen.read_text()
    assert line in source, "the line the bug is planted after is gone: update this test"
    read_past_end = "    volatile uint64_t past_end = lex->walk[lex->arc_count];\n    (void)past_end;\n"
    movegen.write_text(source.replace(line, line + read_past_end))
    library = tmp_path / "libgaddag_planted.so"
    compile_library(sorted(planted.glob("*.c")), library)
    result, reports = run_suites(library, tmp_path / "logs", "tests/test_movegen.py", "-k", "test_full_line")
    assert result.returncode != 0
    assert "heap-buffer-overflow" in reports, (reports + result.stdout)[-3000:]
