"""The C core under AddressSanitizer + UndefinedBehaviorSanitizer.

Compiles every csrc/*.c file (so files added later are at least compiled with -Werror under the
sanitizers) together with tests/c/test_core_sanitized.c, which builds a lexicon, runs every
query against brute force, and opens and queries thousands of damaged copies. Skipped only when
gcc is missing; any warning, sanitizer report or failed check fails the test.

The same sources are also built as a sanitized shared library, and the Python suites for move
generation, scoring, the reference vectors and the queries run against it through the ctypes
binding (the one Pyodide uses), with the sanitizer runtimes preloaded into Python: every
oracle comparison then doubles as a memory-safety run of the generator.

The sources are compiled once for the whole run, into position-independent objects that both the
driver and the library are linked from (one file a compiler process, all of them at once; with
pytest-xdist the workers share that one build), and the Python suites run in shards that the
workers take in parallel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from build_lock import locked, shared_temp

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
    "-pthread",  # the endgame searched on two threads sharing a table
    # the endgame's one-tile plays also listed by the generator and compared, move for move, its
    # horizon's best move compared with the best of every move, and every move refuted by the
    # opponent's going out searched anyway and held to that bound
    "-DGD_ENDGAME_CROSS_CHECK",
    # the endgame's bounds from a side's best alone asked from the first position (not after
    # 50,000), so that the small endgames check them against every line played out
    "-DGD_ENDGAME_SOLO_AFTER=0",
    # gd_sort_moves' quicksort hands over to its heap sort after one partition, so that the sort
    # tests run both
    "-DGD_SORT_PARTITIONS=1",
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


def compile_objects(sources: list[Path], folder: Path) -> list[Path]:
    """Each source compiled on its own (-c, position-independent) into `folder`, as many compilers
    at once as there are cores; the objects in the order of `sources`."""
    folder.mkdir(parents=True, exist_ok=True)
    objects = [folder / f"{source.stem}.o" for source in sources]

    def one(pair: tuple[Path, Path]) -> None:
        compile_program([pair[0]], pair[1], ("-c", "-fPIC"))

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(one, zip(sources, objects, strict=True)))
    return objects


def link(objects: list[Path], output: Path, extra: tuple[str, ...] = ()) -> None:
    result = subprocess.run(
        [GCC, *FLAGS, *extra, *map(str, objects), "-o", str(output), "-lm"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, f"gcc failed:\n{result.stderr}"
    assert result.stderr == "", f"gcc printed:\n{result.stderr}"


def run(program: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], capture_output=True, text=True, env=ENV, timeout=300)


@dataclass(frozen=True)
class Sanitized:
    """The core built once under the sanitizers: its objects (by source file name), the driver
    linked from them with tests/c/test_core_sanitized.c, and the shared library."""

    objects: dict[str, Path]
    driver: Path
    library: Path


@pytest.fixture(scope="session")
def sanitized(tmp_path_factory: pytest.TempPathFactory) -> Sanitized:
    sources = sorted(CSRC.glob("*.c"))
    assert {"gaddag.c", "gaddag_build.c"} <= {p.name for p in sources}
    folder = shared_temp(tmp_path_factory) / "sanitized"
    driver, library = folder / "test_core_sanitized", folder / "libgaddag_sanitized.so"
    objects = {source.name: folder / "objects" / f"{source.stem}.o" for source in sources}
    with locked(folder / "lock"):  # the first worker builds, the others wait for it
        done = folder / "built"
        if not done.exists():
            compile_objects([*sources, DRIVER], folder / "objects")
            link([*objects.values(), folder / "objects" / f"{DRIVER.stem}.o"], driver)
            link(list(objects.values()), library, ("-shared", "-fPIC"))
            done.write_text("")
    return Sanitized(objects, driver, library)


@pytest.fixture(scope="session")
def driver(sanitized: Sanitized) -> Path:
    return sanitized.driver


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
    # and a side's best alone against every line played out, on small and English endgames
    "tests/test_endgame.py::test_endgame_values_equal_a_brute_force_minimax[6]",
    "tests/test_endgame.py::test_short_english_endgames_equal_a_brute_force_minimax",
    # the pre-endgame's model in the core against the same model in Python, and its refusals
    "tests/test_preendgame.py::test_the_model_in_the_core_gives_the_python_model_s_every_figure[1]",
    "tests/test_preendgame.py::test_the_core_refuses_a_move_or_a_world_the_position_cannot_have",
    # and on two threads sharing its table
    "tests/test_preendgame_threads.py::test_two_threads_match_the_brute_force_model",
    # the DAWG generator through the ctypes binding (what Pyodide uses), on the largest positions
    "tests/test_dawg.py::test_reference_vectors_by_the_dawg_engine",
    "tests/test_dawg.py::test_damaged_and_forged_dawgs_are_refused",
    "tests/test_dawg.py::test_self_play_positions",
]
# The suites in shards the workers run in parallel (each pytest run costs seconds to start under
# the sanitizers). tests/test_movegen.py, the longest, is cut by -k expressions: the first two,
# and what neither selects, so each of its tests runs in exactly one shard.
MOVEGEN = "tests/test_movegen.py"


def suites_of(*files: str) -> list[str]:
    return [suite for suite in PYTHON_SUITES if suite.split("::")[0] in {f"tests/{name}" for name in files}]


MOVEGEN_PARTS = (
    "random_games and (polish or super or russian or wwf)",
    "random_games and not (polish or super or russian or wwf)",
)
SHARDS = {
    "movegen-1": [MOVEGEN, "-k", MOVEGEN_PARTS[0]],
    "movegen-2": [MOVEGEN, "-k", MOVEGEN_PARTS[1]],
    "movegen-rest": [MOVEGEN, "-k", " and ".join(f"not ({part})" for part in MOVEGEN_PARTS)],
    "queries": suites_of("test_scoring.py", "test_reference_vectors.py", "test_lexicon_queries.py"),
    "dawg-simulate": suites_of("test_dawg.py", "test_simulate.py"),
    "games": suites_of("test_game.py", "test_endgame.py", "test_preendgame.py", "test_preendgame_threads.py"),
}


def sanitizer_runtimes() -> str:
    paths = []
    for name in ("libasan.so", "libubsan.so"):
        asked = subprocess.run([GCC, f"-print-file-name={name}"], capture_output=True, text=True)
        found = asked.stdout.strip()
        if not os.path.isabs(found):
            pytest.skip(f"gcc has no {name} to preload")
        paths.append(found)
    return " ".join(paths)


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


def test_the_shards_hold_every_suite_once() -> None:
    """Each of PYTHON_SUITES is in one shard, test_movegen.py in its -k parts alone."""
    others = [suite for shard in SHARDS.values() if shard[0] != MOVEGEN for suite in shard]
    assert sorted([*others, MOVEGEN]) == sorted(PYTHON_SUITES)
    assert [shard[0] for shard in SHARDS.values()].count(MOVEGEN) == len(MOVEGEN_PARTS) + 1


@pytest.mark.parametrize("shard", SHARDS)
def test_python_suites_on_the_sanitized_core(sanitized: Sanitized, tmp_path: Path, shard: str) -> None:
    result, reports = run_suites(sanitized.library, tmp_path / "logs", *SHARDS[shard])
    assert reports == "", reports[-6000:]
    assert result.returncode == 0, (result.stdout + result.stderr)[-6000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout, result.stdout[-2000:]


def test_sanitized_suites_catch_a_read_past_the_walk_index(sanitized: Sanitized, tmp_path: Path) -> None:
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
    # the planted movegen.c, and every other file as the run built it
    others = [path for name, path in sanitized.objects.items() if name != "movegen.c"]
    link([*others, *compile_objects([movegen], tmp_path / "objects")], library, ("-shared", "-fPIC"))
    result, reports = run_suites(library, tmp_path / "logs", "tests/test_movegen.py", "-k", "test_full_line")
    assert result.returncode != 0
    assert "heap-buffer-overflow" in reports, (reports + result.stdout)[-3000:]
