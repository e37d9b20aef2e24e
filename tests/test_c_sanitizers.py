"""The C core under AddressSanitizer + UndefinedBehaviorSanitizer.

Compiles every csrc/*.c file (so files added later are at least compiled with -Werror under the
sanitizers) together with tests/c/test_core_sanitized.c, which builds a lexicon, runs every
query against brute force, and opens and queries thousands of damaged copies. Skipped only when
gcc is missing; any warning, sanitizer report or failed check fails the test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
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
]
ENV = {
    **os.environ,
    "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
REPORT_MARKERS = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "FAIL ")

GCC = shutil.which("gcc")
pytestmark = pytest.mark.skipif(GCC is None, reason="gcc is not installed")


def compile_program(sources: list[Path], output: Path) -> None:
    result = subprocess.run(
        [GCC, *FLAGS, f"-I{CSRC}", *map(str, sources), "-o", str(output)],
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


@pytest.mark.parametrize("mode", ["null-name", "null-data"])
def test_null_pointer_with_zero_size(driver: Path, mode: str) -> None:
    """(NULL, 0) arguments the API accepts must not reach memcpy/memcmp (UB even for 0 bytes)."""
    result = run(driver, mode)
    report = result.stdout + result.stderr
    assert result.returncode == 0 and "runtime error" not in report, report[-3000:]
    assert result.stdout.startswith("OK: "), report
