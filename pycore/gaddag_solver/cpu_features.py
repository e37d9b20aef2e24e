"""CPU features as Linux's /proc/cpuinfo names them: what the native build targets and what the
core, once built, asks of the CPU it is loaded on.

Plain Python with no import of the core: the build script (_ffi_build.py) reads it by path before
the core exists, and _binding.py checks a built core against the CPU with it.
"""

from __future__ import annotations

# x86-64-v3 (AVX2, BMI1/2, FMA, LZCNT, MOVBE...; every x86-64 server CPU since about 2015): the
# build targets it when the CPU it is built on has them all (docs/movegen.md, "Build flags")
X86_64_V3 = "cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2 avx avx2 bmi1 bmi2 f16c fma abm movbe".split()


def cpu_flags(cpuinfo: str) -> set[str] | None:
    """The CPU's feature flags from the text of /proc/cpuinfo (its first "flags" line), or None."""
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return None


def read_cpu_flags(path: str = "/proc/cpuinfo") -> set[str] | None:
    """The flags of this machine's CPU, or None when they cannot be read (not Linux)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return cpu_flags(file.read())
    except OSError:
        return None


def missing_cpu_features(required: str, have: set[str] | None) -> list[str]:
    """The features a core built for `required` (gd_cpu_requires, space-separated) would use that
    a CPU with flags `have` lacks; none when the flags are unknown."""
    if have is None:
        return []
    return [feature for feature in required.split() if feature not in have]
