"""The atheris fuzz targets (tests/fuzz/), each run for a few seconds over its seed corpus so that
they keep working, and the regressions of what they found.

A target exits 0 only when libFuzzer finished its runs without a finding: an exception other
than the documented error of its format, a crash or a hang (libFuzzer's -timeout). The new
corpus entries of the run go to a temporary folder; the committed seeds are only read. Longer
runs: scripts/fuzz.sh. The C target (tests/fuzz/c/fuzz_lexicon.c) is built with clang's
libFuzzer, ASan and UBSan, and skipped when clang or its libFuzzer runtime is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Rules, web_api
from gaddag_solver.formats.gcg import EXCHANGE, parse_gcg
from gaddag_solver.rules import RulesError

FUZZ = Path(__file__).resolve().parent / "fuzz"
TARGETS = sorted(path.stem.removeprefix("fuzz_") for path in FUZZ.glob("fuzz_*.py"))
SECONDS = 2
CLANG = shutil.which("clang")
REPO = FUZZ.parent.parent


def test_every_target_has_a_seed_corpus() -> None:
    assert len(TARGETS) >= 7, TARGETS
    for target in TARGETS:
        seeds = list((FUZZ / "corpus" / target).iterdir())
        assert len(seeds) >= 3, f"{target}: {len(seeds)} seeds"


@pytest.mark.parametrize("target", TARGETS)
def test_target_runs_clean(target: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(FUZZ / f"fuzz_{target}.py"),
            f"-max_total_time={SECONDS}",
            "-timeout=10",
            "-rss_limit_mb=2048",
            f"-artifact_prefix={tmp_path}/",
            str(tmp_path),
            str(FUZZ / "corpus" / target),
        ],
        capture_output=True,
        text=True,
        timeout=SECONDS + 60,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    output = result.stderr + result.stdout
    assert result.returncode == 0, output[-4000:]
    assert "Done " in output, output[-4000:]
    # the seeds were read: the corpus was not empty when the fuzzing began
    assert "INITED cov:" in output and "corp: 0/" not in output, output[-4000:]


def libfuzzer_missing(folder: Path) -> str | None:
    """Why clang's libFuzzer cannot be used here (None when it can)."""
    if CLANG is None:
        return "clang is not installed"
    probe = folder / "probe.c"
    probe.write_text(
        "#include <stdint.h>\n#include <stddef.h>\n"
        "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return (int)(n && !d); }\n"
    )
    result = subprocess.run(
        [CLANG, "-fsanitize=fuzzer", str(probe), "-o", str(folder / "probe")], capture_output=True, text=True
    )
    return None if result.returncode == 0 else f"clang has no libFuzzer runtime: {result.stderr[-300:]}"


def test_c_target_runs_clean(tmp_path: Path) -> None:
    missing = libfuzzer_missing(tmp_path)
    if missing:
        pytest.skip(missing)
    binary = tmp_path / "fuzz_lexicon"
    sources = sorted(str(path) for path in (REPO / "csrc").glob("*.c"))
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-O1", "-fno-sanitize-recover=all"]
    build = subprocess.run(
        [CLANG, *flags, "-fsanitize=fuzzer,address,undefined", f"-I{REPO / 'csrc'}"]
        + [str(FUZZ / "c" / "fuzz_lexicon.c"), *sources, "-o", str(binary), "-lm"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0 and build.stderr == "", build.stderr
    (tmp_path / "corpus").mkdir()
    result = subprocess.run(
        [str(binary), f"-max_total_time={SECONDS}", "-timeout=10", f"-artifact_prefix={tmp_path}/"]
        + [str(tmp_path / "corpus"), str(FUZZ / "corpus" / "c_lexicon")],
        capture_output=True,
        text=True,
        timeout=SECONDS + 60,
    )
    output = result.stderr + result.stdout
    assert result.returncode == 0, output[-4000:]
    assert "Done " in output and "INITED cov:" in output, output[-4000:]


# ---- what the targets found --------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["load_lexicon", "load_leaves"])
def test_web_api_load_without_file_is_bad_input(kind: str) -> None:
    """Found by fuzz_web_api: a load without the file's bytes was an internal error."""
    answer, _ = web_api.call(kind, json.dumps({"name": "nofile", "rules": "english"}), None)
    field = "lexicon" if kind == "load_lexicon" else "leaves"
    assert json.loads(answer) == {"error": f"no {field} file was given", "field": field}


def test_rules_path_with_nul_is_rules_error() -> None:
    """Found by fuzz_web_api: a ruleset name read as a path, holding a NUL byte, raised a bare
    ValueError (and the API answered "internal")."""
    with pytest.raises(RulesError, match="NUL"):
        Rules.load("/x\0y")
    answer, _ = web_api.call("unseen", json.dumps({"rules": "/\x01\x00", "board": [], "rack": ""}))
    assert json.loads(answer)["field"] == "rules"


def test_gcg_exchange_count_in_other_digits_is_read_as_tiles() -> None:
    """Found by fuzz_gcg: "-³" (str.isdigit() is true for a superscript, int() refuses it) raised
    ValueError from parse_gcg instead of being read as the tiles exchanged."""
    game = parse_gcg("#player1 a A\n#player2 b B\n>a: ABC -³ +0 0\n>b: ABC -2 +0 0\n")
    assert [(e.kind, e.exchanged, e.exchange_count) for e in game.events] == [
        (EXCHANGE, "³", 1),
        (EXCHANGE, "", 2),
    ]


@pytest.mark.parametrize("min_ms", [["1"], "abc", True, float("nan"), -1, 1e12])
def test_web_api_bench_min_ms_must_be_milliseconds(min_ms: object) -> None:
    """Found by fuzz_web_api: a bench request whose min_ms was not a number was an internal
    error (and NaN or a huge one would never finish)."""
    web_api.load_lexicon("bench_small", (FUZZ / "corpus" / "lexicon" / "small").read_bytes()[1:], "english")
    positions = "\n".join(["." * 15] * 15 + ["AEIRST?"])
    request = {"lexicon": "bench_small", "rules": "english", "positions": positions, "min_ms": min_ms}
    answer, _ = web_api.call("bench", json.dumps(request))
    assert json.loads(answer) == {
        "error": f"min_ms must be a number of milliseconds (0 to 60000), not {min_ms!r}",
        "field": "request",
    }
