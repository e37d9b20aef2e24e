"""The native core's build target: compiled for x86-64-v3 where the build CPU has it, and refused
with a message (not an illegal instruction) on a CPU without the features it was built for."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver._binding import BINDING, check_cpu, ffi, lib  # noqa: E402
from gaddag_solver.cpu_features import cpu_flags, missing_cpu_features, read_cpu_flags  # noqa: E402

V3 = "cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2 avx avx2 bmi1 bmi2 f16c fma abm movbe"
CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Some CPU
flags\t\t: fpu vme cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2 avx f16c fma abm movbe hypervisor
bogomips\t: 4000.00

processor\t: 1
flags\t\t: fpu vme cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2 avx avx2 bmi1 bmi2 f16c fma abm movbe
"""


def _build_script() -> Any:
    """pycore/gaddag_solver/_ffi_build.py as a module (it is a build script, not in the package)."""
    path = ROOT / "pycore" / "gaddag_solver" / "_ffi_build.py"
    spec = importlib.util.spec_from_file_location("ffi_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_flags_are_the_first_processors() -> None:
    flags = cpu_flags(CPUINFO)
    assert flags is not None
    assert "avx" in flags and "hypervisor" in flags and "avx2" not in flags
    assert cpu_flags("processor\t: 0\nmodel name\t: x\n") is None


def test_the_features_a_cpu_lacks_are_named_in_order() -> None:
    assert missing_cpu_features(V3, cpu_flags(CPUINFO)) == ["avx2", "bmi1", "bmi2"]
    assert missing_cpu_features("popcnt", cpu_flags(CPUINFO)) == []
    assert missing_cpu_features("", cpu_flags(CPUINFO)) == []
    # a CPU that cannot be read is not refused: the core may still run
    assert missing_cpu_features(V3, None) == []
    assert missing_cpu_features(V3, cpu_flags("no flags here")) == []


def test_a_core_built_for_features_the_cpu_lacks_is_refused_with_a_rebuild_hint(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(CPUINFO)
    with pytest.raises(ImportError) as raised:
        check_cpu(V3, str(cpuinfo))
    message = str(raised.value)
    assert "(avx2, bmi1, bmi2)" in message
    assert "pip install -e ." in message and "GADDAG_PORTABLE=1" in message
    check_cpu("popcnt sse4_2", str(cpuinfo))  # features it has: no error
    check_cpu(V3, str(tmp_path / "missing"))  # unreadable: no error


@pytest.mark.skipif(BINDING != "cffi", reason="the native cffi extension only")
def test_the_extension_says_what_it_was_built_for_and_this_cpu_has_it() -> None:
    script = _build_script()
    required = ffi.string(lib.gd_cpu_requires()).decode().split()
    assert required in (script.X86_64_V3, ["popcnt"], [])
    assert missing_cpu_features(" ".join(required), read_cpu_flags()) == []
    if required:  # a targeted build (not GADDAG_PORTABLE) chose as the build script does here
        assert required == script.cpu_target()[1]


def test_the_build_targets_x86_64_v3_only_where_asked_and_possible(monkeypatch: pytest.MonkeyPatch) -> None:
    script = _build_script()
    # the psABI's x86-64-v3 level (v2: CMPXCHG16B, LAHF/SAHF, POPCNT, SSE3, SSSE3, SSE4.1, SSE4.2;
    # v3: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE), as /proc/cpuinfo spells them
    assert script.X86_64_V3 == V3.split()
    monkeypatch.setenv("GADDAG_PORTABLE", "1")
    assert script.cpu_target() == ([], [])
    monkeypatch.delenv("GADDAG_PORTABLE")
    monkeypatch.setattr(script.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(script, "_cpu_flags_here", lambda: set(V3.split()) | {"avx512f"})
    assert script.cpu_target() == (["-march=x86-64-v3", "-mtune=native"], V3.split())
    monkeypatch.setattr(script, "_cpu_flags_here", lambda: {"popcnt", "sse4_2", "avx"})
    assert script.cpu_target() == (["-mpopcnt"], ["popcnt"])
    monkeypatch.setattr(script, "_cpu_flags_here", lambda: {"sse2"})
    assert script.cpu_target() == ([], [])
    monkeypatch.setattr(script.platform, "machine", lambda: "aarch64")
    monkeypatch.setattr(script, "_cpu_flags_here", lambda: set(V3.split()))
    assert script.cpu_target() == ([], [])
