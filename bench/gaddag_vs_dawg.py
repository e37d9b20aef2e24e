#!/usr/bin/env python3
"""Gordon's comparison, reproduced: the GADDAG generator against Appel & Jacobson's DAWG
generator, over the same board, rules, scoring code and walk index (docs/gaddag-vs-dawg.md).

    .venv/bin/python bench/gaddag_vs_dawg.py [--lexicons enable sowpods twl06] [--positions 100]
                                             [--seed 1] [--min-ms 3] [--json FILE]

For each lexicon: both structures' sizes (states, arcs, bytes of the file and of the walk index
generation reads) and build times from the same words; then positions from greedy self-play
with that lexicon (seeded), --positions with no blank on the rack and as many with one or two.
Per position both generators find every play (into a reused buffer, nothing copied), each timed
as a batch lasting at least --min-ms, fastest of three; set-up (cross-sets and anchors) is timed
apart. Gordon's own measures, arcs followed and dead ends per position, come from a build of the
core with GD_COUNT_WORK (compiled here into build/bench/, run in a child process through the
ctypes binding), so the timed generators count nothing. Both generators must find the same
number of plays on every position, or the run stops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))
sys.path.insert(0, str(ROOT / "bench"))

from gaddag_solver import Game, Lexicon, Rules  # noqa: E402
from gaddag_solver import _core_api as core  # noqa: E402
from gaddag_solver._binding import ffi, lib  # noqa: E402
from gaddag_solver.dawg import dawg_for  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402
from gaddag_solver.rules_core import core_rules  # noqa: E402
from movegen import timed  # noqa: E402

COUNTING_LIBRARY = ROOT / "build" / "bench" / "libgaddag_counting.so"
GORDON = "GADDAG 4.7-5x larger than the DAWG, over twice as fast (Gordon 1994)"
QUACKLE = "Quackle's two generators on SOWPODS: GADDAG 2.9x faster without blanks, 1.8x with"


def positions(
    lexicon: Lexicon, rules: Rules, per_kind: int, seed: int
) -> dict[str, list[tuple[bytes, bytes]]]:
    """(board codes, rack counts) from greedy self-play: `per_kind` with no blank on the rack and
    as many with blanks, in game order (a game's positions, then the next seed's game)."""
    found: dict[str, list[tuple[bytes, bytes]]] = {"no blank": [], "blanks": []}
    game_seed = seed
    while min(len(found["no blank"]), len(found["blanks"])) < per_kind and game_seed < seed + 20 * per_kind:
        game = Game.new(lexicon, rules, seed=game_seed)
        while not game.over:
            rack = game.rack()
            kind = "blanks" if "?" in str(rack) else "no blank"
            if len(found[kind]) < per_kind:
                found[kind].append((game.board.codes(), rack.counts()))
            game.play(game.best_move("greedy"))
        game_seed += 1
    return found


class Engine:
    """One generator on one lexicon: its prepare and generate calls on raw buffers."""

    def __init__(self, name: str, opened: core.OpenedLexicon, rules: Any, counting: bool) -> None:
        core.ensure_walk_index(opened)
        self.name, self.opened, self.rules = name, opened, rules
        dawg = name == "dawg"
        size = lib.gd_dawg_workspace_size() if dawg else lib.gd_workspace_size()
        self.memory = ffi.new("uint64_t[]", (size + 7) // 8)
        self.capacity = 1 << 17
        self.moves = ffi.new("gd_move[]", self.capacity)
        self.count = ffi.new("size_t *")
        self.err = ffi.new("gd_error *")
        self.work = ffi.new("gd_work *")
        # timed: gd_generate itself (no options); counting: plays by score, as gd_generate gives
        # them, with the work written out
        self.options = ffi.NULL
        if counting:
            self.options = ffi.new("gd_equity_options *")
            self.options.bag_count = 1
            self.options.work = ffi.cast("gd_work *", self.work)
        self.prepare_call = lib.gd_dawg_prepare if dawg else lib.gd_prepare

    def prepare(self, board: bytes) -> None:
        if self.prepare_call(self.opened.struct, self.rules, board, self.memory, self.err) != lib.GD_OK:
            raise core.CoreError(ffi.string(self.err.message).decode())

    def generate(self, board: bytes, rack: bytes) -> int:
        if self.name == "dawg":
            work = self.work if self.options else ffi.NULL
            rc = lib.gd_dawg_generate(
                self.opened.struct, self.rules, board, self.memory, rack, 0, self.moves, self.capacity,
                self.count, work, self.err,
            )  # fmt: skip
        else:
            rc = lib.gd_generate_equity(
                self.opened.struct, self.rules, board, self.memory, rack, self.options, 0, self.moves,
                self.capacity, self.count, self.err,
            )  # fmt: skip
        if rc != lib.GD_OK or self.count[0] > self.capacity:
            raise core.CoreError(ffi.string(self.err.message).decode() or "too many plays")
        return int(self.count[0])


def engines(name: str, counting: bool = False) -> tuple[Lexicon, Rules, dict[str, Engine]]:
    rules = Rules.load("english")
    lexicon = Lexicon.load(resolve_lexicon(name), rules)
    native = core_rules(rules)
    dawg = dawg_for(lexicon)
    both = {
        "gaddag": Engine("gaddag", lexicon._core, native, counting),
        "dawg": Engine("dawg", dawg._core, native, counting),
    }
    return lexicon, rules, both


def count_work(name: str, per_kind: int, seed: int) -> dict[str, dict[str, list[list[int]]]]:
    """In the counting build: per kind and engine, [plays, arcs, dead ends] of each position."""
    lexicon, rules, both = engines(name, counting=True)
    result: dict[str, dict[str, list[list[int]]]] = {}
    for kind, found in positions(lexicon, rules, per_kind, seed).items():
        result[kind] = {}
        for engine in both.values():
            rows = []
            for board, rack in found:
                engine.prepare(board)
                plays = engine.generate(board, rack)
                rows.append([plays, int(engine.work.arcs), int(engine.work.dead_ends)])
            result[kind][engine.name] = rows
    return result


def counting_build() -> Path:
    """The core with GD_COUNT_WORK, as a shared library for the ctypes binding."""
    COUNTING_LIBRARY.parent.mkdir(parents=True, exist_ok=True)
    sources = sorted(str(p) for p in (ROOT / "csrc").glob("*.c"))
    subprocess.run(
        ["cc", "-std=c11", "-O2", "-DGD_COUNT_WORK", "-shared", "-fPIC", f"-I{ROOT / 'csrc'}", *sources, "-o",
         str(COUNTING_LIBRARY)],
        check=True,
    )  # fmt: skip
    return COUNTING_LIBRARY


def measured_work(name: str, per_kind: int, seed: int, library: Path) -> dict[str, Any]:
    env = {**os.environ, "GADDAG_SOLVER_BINDING": "ctypes", "GADDAG_SOLVER_CTYPES_LIB": str(library)}
    run = subprocess.run(
        [sys.executable, __file__, "--count-work", name, "--positions", str(per_kind), "--seed", str(seed)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(run.stdout)


def sizes(lexicon: Lexicon) -> dict[str, dict[str, float]]:
    """States, arcs, bytes, walk-index bytes and build seconds (the C build from the same codes)."""
    lengths = range(1, lexicon.stats.max_word_length + 1)
    codes = b"".join(core.pattern(lexicon._core, bytes(length)) for length in lengths)
    result = {}
    for kind in ("gaddag", "dawg"):
        started = time.perf_counter()
        data, stats = core.build(
            codes, len(lexicon.alphabet), lexicon.alphabet.header_bytes(), b"", kind=kind
        )
        seconds = time.perf_counter() - started
        opened = core.open_lexicon(data, kind)
        result[kind] = {
            "states": stats["states"],
            "arcs": stats["arcs"],
            "bytes": stats["bytes"],
            "walk_bytes": lib.gd_walk_index_size(opened.struct),
            "build_s": seconds,
        }
    return result


def measure(name: str, per_kind: int, seed: int, min_ms: float, library: Path) -> dict[str, Any]:
    lexicon, rules, both = engines(name)
    result: dict[str, Any] = {"lexicon": name, "sizes": sizes(lexicon), "kinds": {}}
    work = measured_work(name, per_kind, seed, library)
    for kind, found in positions(lexicon, rules, per_kind, seed).items():
        rows: dict[str, list[dict[str, float]]] = {"gaddag": [], "dawg": []}
        for number, (board, rack) in enumerate(found):
            plays = {}
            for engine in both.values():
                engine.prepare(board)
                plays[engine.name] = engine.generate(board, rack)
                setup = timed(lambda e=engine, b=board: e.prepare(b), min_ms / 1000)
                engine.prepare(board)
                generate = timed(lambda e=engine, b=board, r=rack: e.generate(b, r), min_ms / 1000)
                counted = work[kind][engine.name][number]
                if counted[0] != plays[engine.name]:
                    raise SystemExit(f"{name} {kind} position {number}: the counting build found other plays")
                rows[engine.name].append(
                    {"plays": plays[engine.name], "setup_us": setup * 1e6, "generate_us": generate * 1e6,
                     "arcs": counted[1], "dead_ends": counted[2]}
                )  # fmt: skip
            if plays["gaddag"] != plays["dawg"]:
                raise SystemExit(
                    f"{name} {kind} position {number}: GADDAG {plays['gaddag']} plays, DAWG {plays['dawg']}"
                )
        result["kinds"][kind] = rows
    return result


def _mean(rows: list[dict[str, float]], key: str) -> float:
    return statistics.fmean(row[key] for row in rows)


def _median(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(row[key] for row in rows)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        )

    return [line(headers), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def _ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.2f}x" if denominator else "-"


def report(results: list[dict[str, Any]]) -> list[str]:
    lines = ["Structures (English alphabet; bytes: the file; walk: the index generation reads)", ""]
    rows = []
    keys = ("states", "arcs", "bytes", "walk_bytes")
    for result in results:
        name, by_kind = result["lexicon"], result["sizes"]
        for kind in ("gaddag", "dawg"):
            size = by_kind[kind]
            rows.append([f"{name} {kind}", *(f"{size[key]:,}" for key in keys), f"{size['build_s']:.2f}"])
        g, d = by_kind["gaddag"], by_kind["dawg"]
        rows.append([f"{name} GADDAG/DAWG", *(_ratio(g[key], d[key]) for key in (*keys, "build_s"))])
    lines += _table(["lexicon", "states", "arcs", "bytes", "walk bytes", "build s"], rows)
    lines += ["", "Generation, every play of each position (µs; arcs and dead ends per position)", ""]
    rows = []
    for result in results:
        for kind, by_engine in result["kinds"].items():
            g, d = by_engine["gaddag"], by_engine["dawg"]
            rows.append(
                [
                    f"{result['lexicon']} {kind}",
                    str(len(g)),
                    f"{_mean(g, 'plays'):,.0f}",
                    *(f"{f(rows_, 'generate_us'):,.0f}" for rows_ in (g, d) for f in (_median, _mean)),
                    _ratio(_mean(d, "generate_us"), _mean(g, "generate_us")),
                    f"{_mean(g, 'setup_us'):,.0f}/{_mean(d, 'setup_us'):,.0f}",
                    *(f"{_mean(rows_, 'arcs'):,.0f}" for rows_ in (g, d)),
                    _ratio(_mean(d, "arcs"), _mean(g, "arcs")),
                    *(f"{_mean(rows_, 'dead_ends'):,.0f}" for rows_ in (g, d)),
                    _ratio(_mean(d, "dead_ends"), _mean(g, "dead_ends")),
                ]
            )
    headers = ["lexicon, rack", "positions", "plays", "GADDAG med", "mean", "DAWG med", "mean", "DAWG/GADDAG"]
    headers += ["set-up G/D", "GADDAG arcs", "DAWG arcs", "ratio", "GADDAG dead", "DAWG dead", "ratio"]
    lines += _table(headers, rows)
    lines += ["", f"For reference: {GORDON}; {QUACKLE}."]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", nargs="+", default=["enable", "sowpods", "twl06"])
    parser.add_argument(
        "--positions", type=int, default=100, help="positions per rack kind (no blank, blanks)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the first self-play game's seed")
    parser.add_argument("--min-ms", type=float, default=3.0, help="the least time a timed batch lasts")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    parser.add_argument("--count-work", metavar="LEXICON", help=argparse.SUPPRESS)  # the child process's task
    args = parser.parse_args()
    if args.positions < 1 or args.min_ms <= 0:
        parser.error("--positions must be at least 1 and --min-ms above 0")
    if args.count_work:
        print(json.dumps(count_work(args.count_work, args.positions, args.seed)))
        return 0
    library = counting_build()
    results = [measure(name, args.positions, args.seed, args.min_ms, library) for name in args.lexicons]
    print("\n".join(report(results)))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
