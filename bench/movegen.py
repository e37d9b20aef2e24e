#!/usr/bin/env python3
"""Move-generation benchmark: every play of each position, timed in the process.

    .venv/bin/python bench/movegen.py [--lexicon PATH] [--positions FILE.cgp] [--rules english]
                                      [--min-ms 20] [--json] [--parts] [--magpie]

The lexicon is loaded once. For each position, board set-up (cross-sets and anchors,
gd_prepare) and all-plays generation (gd_generate into a reused buffer) are timed separately.
Each figure is a batch of repeats lasting at least --min-ms, divided by the repeats, because
browser timers are coarse; the batch is run three times and the fastest kept. Prints a
table, a summary by rack kind, and last one line

    RESULT median_us=… mean_us=… positions=… moves=…

for generation alone. The same module runs inside Pyodide (bench/wasm.py drives it).

--magpie also times MAGPIE on the same positions, lexicon and machine, in the same run (built by
``bash bench/magpie/build.sh``, skipped with a message when it is not): its unsorted all-plays
mode through a C driver (bench/magpie/movegen.c), against ours in the core alone (the call
without copying the plays out, less a call into the core that does nothing, so the binding's
cost is not counted against us), with the ratio by rack kind, the CPU model and the load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.platform != "emscripten":  # in Pyodide the package comes from the browser wheel
    sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import Lexicon, Rules  # noqa: E402
from gaddag_solver import _core_api as core  # noqa: E402
from gaddag_solver._binding import BINDING  # noqa: E402
from gaddag_solver.formats.cgp import parse_cgp  # noqa: E402
from gaddag_solver.solver import core_rules  # noqa: E402

DEFAULT_POSITIONS = ROOT / "tests" / "data" / "sowpods" / "positions.cgp"
DEFAULT_LEXICON = ROOT / "lexicons" / "sowpods.gaddag"
# Published means on comparable positions, measured on this kind of machine (from our issue):
# (no blank, one or two blanks) in µs.
REFERENCES = {
    "MAGPIE": (106, 890),
    "wolges": (154, 1269),
    "Quackle": (274, 2702),
    "scrabble-solver (TypeScript)": (1656, 12402),
}


def timed(call, min_seconds: float) -> float:  # type: ignore[no-untyped-def]
    """Seconds per call: batches of calls lasting at least `min_seconds`, fastest of three."""
    repeats = 1
    while True:
        started = time.perf_counter()
        for _ in range(repeats):
            call()
        elapsed = time.perf_counter() - started
        if elapsed >= min_seconds:
            break
        repeats = (
            repeats * 2 if elapsed <= 0 else max(repeats * 2, int(repeats * min_seconds / elapsed * 1.2))
        )
    best = elapsed / repeats
    for _ in range(2):
        started = time.perf_counter()
        for _ in range(repeats):
            call()
        best = min(best, (time.perf_counter() - started) / repeats)
    return best


def measure(
    lexicon_path: str | Path,
    cgp_lines: list[str],
    rules_name: str = "english",
    min_ms: float = 20.0,
    parts: bool = False,
):  # type: ignore[no-untyped-def]
    """Per position: rack, plays, set-up µs, generation µs. Also the lexicon's load time and
    its walk index's build time, in ms. With ``parts``, generation taken apart too (µs):
    ``call_us`` a call into the core that does nothing (gd_workspace_size: the binding's own
    cost), ``empty_us`` the same generator call with an empty rack (the wrapper, its eleven
    arguments and the core's fixed cost per call, no plays), ``raw_us`` the generator call
    without copying the records out (generate_us less the copy into a bytes object)."""
    started = time.perf_counter()
    lexicon = Lexicon.load(Path(lexicon_path).read_bytes())
    load_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    core.ensure_walk_index(lexicon._core)  # what a Solver does once per lexicon
    index_ms = (time.perf_counter() - started) * 1000
    rules = Rules.load(rules_name)
    native_rules = core_rules(rules)
    workspace = core.new_workspace()
    rows = []
    for number, line in enumerate(cgp_lines, start=1):
        position = parse_cgp(line, rules)
        board = position.board.codes()
        rack = position.rack.counts()

        def setup(board: bytes = board) -> None:
            workspace.board = None  # force the cross-sets to be computed again
            core.prepare(lexicon._core, native_rules, workspace, board)

        setup()
        count, _ = core.generate(lexicon._core, native_rules, workspace, rack)
        workspace.grow(count)  # the timed calls never reallocate
        setup_s = timed(setup, min_ms / 1000)
        setup()
        generate_s = timed(
            lambda rack=rack: core.generate(lexicon._core, native_rules, workspace, rack), min_ms / 1000
        )
        row = {
            "position": number,
            "rack": str(position.rack) or "-",
            "blanks": str(position.rack).count("?"),
            "moves": count,
            "setup_us": setup_s * 1e6,
            "generate_us": generate_s * 1e6,
        }
        if parts:
            row.update(generation_parts(lexicon, native_rules, workspace, rack, min_ms / 1000))
        rows.append(row)
    return {
        "binding": BINDING,
        "platform": sys.platform,
        "load_ms": load_ms,
        "index_ms": index_ms,
        "positions": rows,
    }


def generation_parts(lexicon: Lexicon, rules: object, workspace: object, rack: bytes, seconds: float) -> dict:  # type: ignore[type-arg]
    """The parts of one generate call on the prepared board (see measure's ``parts``)."""
    core_lexicon = lexicon._core
    empty = bytes(len(rack))

    def raw(counts: bytes) -> None:
        core._run_generator(core_lexicon, rules, workspace, counts, 0, workspace.moves, workspace.capacity)

    return {
        "call_us": timed(core.lib.gd_workspace_size, seconds) * 1e6,
        "empty_us": timed(lambda: raw(empty), seconds) * 1e6,
        "raw_us": timed(lambda: raw(rack), seconds) * 1e6,
    }


def summary(rows: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    groups = {
        "all": rows,
        "no blank": [r for r in rows if not r["blanks"]],
        "1-2 blanks": [r for r in rows if 1 <= r["blanks"] <= 2],
    }
    out = {}
    for name, members in groups.items():
        if members:
            times = [r["generate_us"] for r in members]
            out[name] = {
                "positions": len(members),
                "median_us": statistics.median(times),
                "mean_us": statistics.mean(times),
                "moves": sum(r["moves"] for r in members),
                "moves_per_s": sum(r["moves"] for r in members) / (sum(times) / 1e6),
                "setup_median_us": statistics.median(r["setup_us"] for r in members),
            }
    return out


def print_report(result: dict) -> None:  # type: ignore[type-arg]
    rows = result["positions"]
    print(
        f"binding {result['binding']} on {result['platform']}; lexicon loaded and validated in "
        f"{result['load_ms']:.1f} ms, walk index built in {result['index_ms']:.1f} ms"
    )
    print()
    print(f"{'pos':>4}  {'rack':<8} {'moves':>7} {'set-up µs':>10} {'generate µs':>12} {'ns/move':>8}")
    for r in rows:
        per_move = r["generate_us"] * 1000 / r["moves"] if r["moves"] else 0
        print(
            f"{r['position']:>4}  {r['rack']:<8} {r['moves']:>7} {r['setup_us']:>10.1f} "
            f"{r['generate_us']:>12.1f} {per_move:>8.0f}"
        )
    print()
    print(f"{'racks':<12} {'positions':>9} {'median µs':>10} {'mean µs':>10} {'moves/s':>12} ", end="")
    print(f"{'set-up median µs':>17}")
    groups = summary(rows)
    for name, s in groups.items():
        print(
            f"{name:<12} {s['positions']:>9} {s['median_us']:>10.1f} {s['mean_us']:>10.1f} "
            f"{s['moves_per_s']:>12,.0f} {s['setup_median_us']:>17.1f}"
        )
    print()
    print("Published means on comparable positions (other engines, from our issue) and targets:")
    print(f"{'engine':<30} {'no blank µs':>12} {'1-2 blanks µs':>14}")
    for engine, (plain, blanks) in REFERENCES.items():
        print(f"{engine:<30} {plain:>12} {blanks:>14}")
    ours_plain = groups.get("no blank", {}).get("mean_us", float("nan"))
    ours_blanks = groups.get("1-2 blanks", {}).get("mean_us", float("nan"))
    print(f"{'ours (mean)':<30} {ours_plain:>12.0f} {ours_blanks:>14.0f}")
    for name, limit in (("no blank", 100), ("1-2 blanks", 900)):
        if name in groups:
            median = groups[name]["median_us"]
            verdict = "PASS" if median <= limit else "MISS"
            print(f"target: median {name} <= {limit} µs: {median:.1f} µs {verdict}")
    print()
    everything = groups["all"]
    print(
        f"RESULT median_us={everything['median_us']:.1f} mean_us={everything['mean_us']:.1f} "
        f"positions={everything['positions']} moves={everything['moves']}"
    )


def print_magpie(result: dict, positions: Path, min_ms: float) -> None:  # type: ignore[type-arg]
    """MAGPIE beside ours, position by position (see the module's docstring)."""
    import magpie_side

    print()
    if magpie_side.magpie_dir() is None:
        print(magpie_side.SKIP_MESSAGE)
        return
    theirs = magpie_side.movegen(positions, min_ms)
    rows = result["positions"]
    if len(theirs) != len(rows):
        raise SystemExit(f"MAGPIE timed {len(theirs)} positions of {len(rows)}")
    print(f"MAGPIE beside ours, same run: CPU {magpie_side.cpu_model()}, load {load_average()}")
    header = f"{'pos':>4}  {'rack':<8} {'plays':>7} {'MAGPIE':>7} {'ours core µs':>13} {'MAGPIE µs':>10}"
    print(f"{header} {'ratio':>6}")
    for r, (plays, magpie_us) in zip(rows, theirs, strict=True):
        r["core_us"] = max(r["raw_us"] - r["call_us"], 0.0)
        r["magpie_us"] = magpie_us
        note = "" if plays == r["moves"] else "  (MAGPIE lists an empty board's plays across only)"
        print(
            f"{r['position']:>4}  {r['rack']:<8} {r['moves']:>7} {plays:>7} {r['core_us']:>13.1f} "
            f"{magpie_us:>10.1f} {r['core_us'] / magpie_us:>6.2f}{note}"
        )
    print()
    print(
        f"{'racks':<12} {'positions':>9} {'ours median µs':>15} {'MAGPIE median µs':>17} {'median ratio':>13}"
    )
    for name, members in (
        ("all", rows),
        ("no blank", [r for r in rows if not r["blanks"]]),
        ("1-2 blanks", [r for r in rows if r["blanks"]]),
    ):
        if members:
            ours = statistics.median(r["core_us"] for r in members)
            magpie = statistics.median(r["magpie_us"] for r in members)
            ratio = statistics.median(r["core_us"] / r["magpie_us"] for r in members)
            print(f"{name:<12} {len(members):>9} {ours:>15.1f} {magpie:>17.1f} {ratio:>13.2f}")
    print("ratio: our time / MAGPIE's (the target is 0.5 or less)")


def load_average() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description="Time move generation per position.")
    parser.add_argument("--lexicon", default=str(DEFAULT_LEXICON), help="a .gaddag file")
    parser.add_argument("--positions", default=str(DEFAULT_POSITIONS), help="one CGP position per line")
    parser.add_argument("--rules", default="english")
    parser.add_argument("--min-ms", type=float, default=20.0, help="shortest timed batch (default 20 ms)")
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON instead")
    parser.add_argument("--parts", action="store_true", help="also time the parts of a generate call")
    parser.add_argument(
        "--magpie", action="store_true", help="also time MAGPIE on the same positions (bench/magpie/build.sh)"
    )
    args = parser.parse_args()
    lines = [line for line in Path(args.positions).read_text().splitlines() if line.strip()]
    result = measure(args.lexicon, lines, args.rules, args.min_ms, args.parts or args.magpie)
    if args.json:
        print(json.dumps(result))
    else:
        print_report(result)
        if args.magpie:
            print_magpie(result, Path(args.positions), args.min_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
