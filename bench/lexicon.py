#!/usr/bin/env python3
"""Benchmark: building and loading the default English lexicons (ENABLE, SOWPODS, TWL06).

For each word list (fetched and cached by ``gaddag_solver.lexicons.fetch_word_list``, built
with the ``english`` rules, so words longer than 15 letters are dropped) this measures:

- read + filter: reading the list and normalizing/filtering it for the alphabet (Python),
  including encoding the kept words into letter codes for the builder;
- C build: the C builder alone (``gd_build``: expand, sort, minimize, lay out);
  both are the median of ``--repeat`` runs (default 3);
- the automaton: words, states, arcs, arcs before tail sharing, file bytes, bytes per arc,
  and the file's size under gzip -9 (zlib, level 9);
- load + validate: ``Lexicon.load`` with the full validation pass, from bytes already in
  memory and from the file path (which includes reading it), median of ``--loads`` runs
  (default 20).

A second table sets the SOWPODS figures beside published reference points measured
elsewhere (quoted, not re-measured here), and a third checks the targets: SOWPODS build
under 1 s and load with full validation under 20 ms.

This is a benchmark, not a test: it always exits 0 unless it is used wrongly. A list that
cannot be fetched or built is reported as unavailable. Run it from the repository root:

    .venv/bin/python bench/lexicon.py
    .venv/bin/python bench/lexicon.py --lists sowpods --repeat 5 --json results.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LISTS = ("enable", "sowpods", "twl06")
RULES = "english"

# Published reference points for SOWPODS, as quoted in our issue (measured elsewhere).
REF_TS_ARCS = 1_203_339  # @kamilmielnik/gaddag (TypeScript): arcs of its minimized GADDAG
REF_KWG_BYTES = 4_656_156  # wolges KWG file: a DAWG and a GADDAG together
REF_TS_BUILD_S = 0.41  # @kamilmielnik/gaddag build time
REF_MAGPIE_BUILD_S = (0.4, 0.8)  # MAGPIE's builder, a range

# Targets.
TARGET_BUILD_S = 1.0
TARGET_LOAD_S = 0.020


def _import_package() -> None:
    """Make `gaddag_solver` importable from the checkout when it is not installed."""
    try:
        import gaddag_solver  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(ROOT / "pycore"))


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class ListResult:
    """Everything measured for one word list; `error` set means it was unavailable."""

    name: str
    available: bool = False
    error: str = ""
    word_list: str = ""
    entries: int = 0
    words: int = 0
    states: int = 0
    arcs: int = 0
    arcs_unshared: int = 0
    bytes: int = 0
    gzip9_bytes: int = 0
    max_word_length: int = 0
    read_filter_s: float = 0.0
    build_s: float = 0.0
    total_build_s: float = 0.0
    load_bytes_s: float = 0.0
    load_file_s: float = 0.0
    deterministic: bool = True
    read_filter_runs: list[float] = field(default_factory=list)
    build_runs: list[float] = field(default_factory=list)
    load_bytes_runs: list[float] = field(default_factory=list)
    load_file_runs: list[float] = field(default_factory=list)

    @property
    def bytes_per_arc(self) -> float:
        return self.bytes / self.arcs if self.arcs else 0.0

    @property
    def shared_fraction(self) -> float:
        return 1 - self.arcs / self.arcs_unshared if self.arcs_unshared else 0.0


def _timed(func: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = func()
    return time.perf_counter() - started, value


def _median_time(func: Callable[[], Any], runs: int) -> tuple[float, list[float]]:
    func()  # warm-up (page cache, allocator), not counted
    times = [_timed(func)[0] for _ in range(runs)]
    return statistics.median(times), times


def measure(name: str, repeat: int, loads: int, sources_dir: Path | None, workdir: Path) -> ListResult:
    """Fetch, build `repeat` times and load one list; never raises for an unavailable list."""
    from gaddag_solver.lexicon import Lexicon, build_gaddag
    from gaddag_solver.rules import Rules
    from gaddag_solver.wordlist import read_entries

    result = ListResult(name=name)
    try:
        from gaddag_solver.lexicons import fetch_word_list

        path = fetch_word_list(name, sources_dir, log=_stderr)
    except Exception as exc:  # network, npm missing, registry errors, unknown name ...
        result.error = f"cannot fetch: {exc}".splitlines()[0]
        return result
    result.word_list = str(path)
    ruleset = Rules.load(RULES)

    data = b""
    try:
        for _ in range(repeat):
            read_s, (entries, unit) = _timed(lambda: read_entries(path))
            built, report = build_gaddag(
                entries,
                ruleset.alphabet,
                name=name,
                max_length=ruleset.longest_line,
                source=str(path),
                unit=unit,
            )
            # report.seconds covers filtering, encoding and the C build; split off the C part.
            result.read_filter_runs.append(read_s + report.seconds - report.build_seconds)
            result.build_runs.append(report.build_seconds)
            if data and built != data:
                result.deterministic = False
            data = built
    except Exception as exc:  # a list that does not build is reported, not fatal
        result.error = f"cannot build: {exc}".splitlines()[0]
        return result

    result.entries = report.filter.entries
    result.words = report.words
    result.states = report.states
    result.arcs = report.arcs
    result.arcs_unshared = report.arcs_unshared
    result.bytes = report.bytes
    result.max_word_length = report.max_word_length
    result.read_filter_s = statistics.median(result.read_filter_runs)
    result.build_s = statistics.median(result.build_runs)
    result.total_build_s = statistics.median(
        [a + b for a, b in zip(result.read_filter_runs, result.build_runs, strict=True)]
    )
    result.gzip9_bytes = len(gzip.compress(data, compresslevel=9, mtime=0))

    out = workdir / f"{name}.gaddag"
    out.write_bytes(data)
    try:
        result.load_bytes_s, result.load_bytes_runs = _median_time(lambda: Lexicon.load(data), loads)
        result.load_file_s, result.load_file_runs = _median_time(lambda: Lexicon.load(out), loads)
        loaded = Lexicon.load(data)
    except Exception as exc:  # a built file that fails validation is a bug worth showing
        result.error = f"built, but does not load: {exc}".splitlines()[0]
        return result
    stats = loaded.stats
    if (stats.words, stats.arcs, stats.bytes) != (result.words, result.arcs, result.bytes):
        result.error = "built, but the loaded counts differ from the build report"
        return result
    result.available = True
    return result


# ---- printing ----------------------------------------------------------------------------------


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Fixed-width columns: the first `left` columns left-aligned, the rest right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.ljust(width) if index < left else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=False))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return [line(headers), rule, *(line(row) for row in rows)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _s(seconds: float) -> str:
    return f"{seconds:.3f} s"


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}x"


def main_table(results: Sequence[ListResult], repeat: int, loads: int) -> list[str]:
    headers = [
        "list",
        "words",
        "states",
        "arcs",
        "arcs unshared",
        "shared",
        "bytes",
        "B/arc",
        "gzip -9",
        "read+filter",
        "C build",
        "load (mem)",
        "load (file)",
    ]
    rows: list[list[str]] = []
    notes: list[str] = []
    for r in results:
        if not r.available:
            rows.append([r.name, "unavailable", *["-"] * (len(headers) - 2)])
            notes.append(f"  {r.name}: {r.error}")
            continue
        rows.append(
            [
                r.name,
                f"{r.words:,}",
                f"{r.states:,}",
                f"{r.arcs:,}",
                f"{r.arcs_unshared:,}",
                f"{r.shared_fraction:.1%}",
                f"{r.bytes:,}",
                f"{r.bytes_per_arc:.3f}",
                f"{r.gzip9_bytes:,}",
                _s(r.read_filter_s),
                _s(r.build_s),
                _ms(r.load_bytes_s),
                _ms(r.load_file_s),
            ]
        )
        if not r.deterministic:
            notes.append(f"  {r.name}: WARNING: repeated builds produced different bytes")
    lines = [
        f"Lexicons ({RULES} rules, words of at most 15 letters); times are medians of {repeat} build(s) "
        f"and {loads} load(s)",
        "",
        *_table(headers, rows),
    ]
    lines += [
        "",
        "  shared      = arcs removed by tail sharing (1 - arcs / arcs unshared)",
        "  read+filter = read the list, normalize and filter it, encode it for the builder (Python)",
        "  C build     = gd_build alone; load = Lexicon.load with full validation (file: includes the read)",
    ]
    if notes:
        lines += ["", "Notes:", *notes]
    return lines


def reference_table(sowpods: ListResult | None) -> list[str]:
    lines = [
        "SOWPODS against published reference points",
        "(reference figures as quoted in our issue: measured elsewhere, on other machines, not here)",
        "",
    ]
    if sowpods is None or not sowpods.available:
        why = "not measured (add sowpods to --lists)" if sowpods is None else sowpods.error
        return [*lines, f"  SOWPODS unavailable: {why}"]
    magpie_lo, magpie_hi = REF_MAGPIE_BUILD_S
    build_ours = f"{_s(sowpods.build_s)} C / {_s(sowpods.total_build_s)} all"
    rows = [
        [
            "arcs, minimized GADDAG",
            "@kamilmielnik/gaddag (TypeScript)",
            f"{REF_TS_ARCS:,}",
            f"{sowpods.arcs:,}",
            _ratio(sowpods.arcs, REF_TS_ARCS),
        ],
        [
            "file bytes",
            "wolges KWG (DAWG + GADDAG together)",
            f"{REF_KWG_BYTES:,}",
            f"{sowpods.bytes:,}",
            _ratio(sowpods.bytes, REF_KWG_BYTES),
        ],
        [
            "build time",
            "@kamilmielnik/gaddag (TypeScript)",
            f"~{REF_TS_BUILD_S:.2f} s",
            build_ours,
            f"{_ratio(sowpods.build_s, REF_TS_BUILD_S)} / {_ratio(sowpods.total_build_s, REF_TS_BUILD_S)}",
        ],
        [
            "build time",
            "MAGPIE builder (C)",
            f"~{magpie_lo:.1f}-{magpie_hi:.1f} s",
            build_ours,
            f"{sowpods.build_s / magpie_hi:.2f}-{sowpods.build_s / magpie_lo:.2f}x / "
            f"{sowpods.total_build_s / magpie_hi:.2f}-{sowpods.total_build_s / magpie_lo:.2f}x",
        ],
    ]
    lines += _table(["what", "reference", "reference figure", "ours", "ours / ref"], rows, left=2)
    lines += [
        "",
        "  build time: 'C' is gd_build alone, 'all' adds reading, filtering and encoding the list",
        "  (what the references include is not known exactly). The KWG holds a DAWG as well as a",
        "  GADDAG, so its size is an upper reference point, not a like-for-like one.",
    ]
    return lines


def target_rows(sowpods: ListResult | None) -> tuple[list[str], list[dict[str, Any]]]:
    checks: list[dict[str, Any]] = []
    specs = [
        ("SOWPODS build, C builder", TARGET_BUILD_S, "build_s", _s),
        ("SOWPODS build, read+filter+C", TARGET_BUILD_S, "total_build_s", _s),
        ("SOWPODS load + validate, from memory", TARGET_LOAD_S, "load_bytes_s", _ms),
        ("SOWPODS load + validate, from file", TARGET_LOAD_S, "load_file_s", _ms),
    ]
    rows: list[list[str]] = []
    for label, limit, attr, fmt in specs:
        if sowpods is None or not sowpods.available:
            rows.append([label, f"< {fmt(limit)}", "-", "UNAVAILABLE"])
            checks.append({"target": label, "limit_s": limit, "measured_s": None, "result": "UNAVAILABLE"})
            continue
        value: float = getattr(sowpods, attr)
        verdict = "PASS" if value < limit else "MISS"
        rows.append([label, f"< {fmt(limit)}", fmt(value), verdict])
        checks.append({"target": label, "limit_s": limit, "measured_s": value, "result": verdict})
    lines = ["Targets", "", *_table(["target", "limit", "measured (median)", "result"], rows)]
    return lines, checks


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": str(os.cpu_count() or "?"),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }


# ---- main --------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--lists",
        default=",".join(DEFAULT_LISTS),
        help=f"comma-separated word lists to measure (default: {','.join(DEFAULT_LISTS)})",
    )
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="builds per list (default 3)")
    parser.add_argument("--loads", type=int, default=20, metavar="N", help="loads per way (default 20)")
    parser.add_argument(
        "--sources-dir",
        type=Path,
        default=None,
        help="word list cache (default: where fetch_word_list keeps them, lexicons/sources/)",
    )
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help="also emit the results as JSON: to FILE, or after the tables on stdout if no FILE",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.loads < 1:
        parser.error("--repeat and --loads must be at least 1")
    args.names = [name.strip().lower() for name in args.lists.split(",") if name.strip()]
    if not args.names:
        parser.error("--lists names no list")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    _import_package()

    results: list[ListResult] = []
    with tempfile.TemporaryDirectory(prefix="gaddag-bench-") as tmp:
        for name in args.names:
            _stderr(f"[{name}] measuring ({args.repeat} build(s), {args.loads} load(s) each way)")
            results.append(measure(name, args.repeat, args.loads, args.sources_dir, Path(tmp)))

    env = environment()
    sowpods = next((r for r in results if r.name == "sowpods"), None)
    target_lines, checks = target_rows(sowpods)
    out = [
        "GADDAG lexicon benchmark  "
        + "  ".join(f"{key} {env[key]}" for key in ("python", "platform", "cpus", "date")),
        "",
        *main_table(results, args.repeat, args.loads),
        "",
        *reference_table(sowpods),
        "",
        *target_lines,
    ]
    print("\n".join(out))

    if args.json is not None:
        payload: dict[str, Any] = {
            "environment": env,
            "rules": RULES,
            "repeat": args.repeat,
            "loads": args.loads,
            "lists": [
                {**asdict(r), "bytes_per_arc": r.bytes_per_arc, "shared_fraction": r.shared_fraction}
                for r in results
            ],
            "references": {
                "sowpods_ts_gaddag_arcs": REF_TS_ARCS,
                "sowpods_wolges_kwg_bytes": REF_KWG_BYTES,
                "sowpods_ts_build_s": REF_TS_BUILD_S,
                "sowpods_magpie_build_s": list(REF_MAGPIE_BUILD_S),
            },
            "targets": checks,
        }
        text = json.dumps(payload, indent=2)
        if args.json == "-":
            print()
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
            _stderr(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
