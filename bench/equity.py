#!/usr/bin/env python3
"""Equity benchmark: what valuing moves costs in the generator, and what bounds save.

    .venv/bin/python bench/equity.py [--lexicon PATH] [--positions N] [--min-ms 20] [--json]

Positions: the 62 reference positions (tests/data/sowpods/positions.cgp) and N positions from
seeded self-play (default 200). The leave table is a plausible hand-made one (blanks and S
good, duplicates and Q bad, vowel balance), so the leave values have realistic sizes. For
each position, generation alone on a prepared board, fastest of three batches:

- all moves by score (gd_generate, every record written);
- all moves with equity (gd_generate_equity with the table, every record; plays only, so the
  column is the cost of valuing them);
- the best move by equity without bounds (top 1, exchanges and pass included, every anchor
  walked);
- the best move by equity with bounds (top 1, exchanges and pass, prune: what the equity player
  does each turn).

Prints medians and means per group and the ratios the equity issue sets targets for: all
moves with equity ≤ 1.2 × all moves; best-1 by equity ≤ 0.6 × all moves.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import Game, Leaves, Lexicon, Rules  # noqa: E402
from gaddag_solver import _core_api as core  # noqa: E402
from gaddag_solver._binding import ffi, lib  # noqa: E402
from gaddag_solver.formats.cgp import parse_cgp  # noqa: E402
from gaddag_solver.rules_core import core_rules  # noqa: E402

POSITIONS = ROOT / "tests" / "data" / "sowpods" / "positions.cgp"
LEXICON = ROOT / "lexicons" / "sowpods.gaddag"
VOWELS = set("AEIOU")


def plausible_value(leave: str) -> float:
    """A hand-made leave value: not trained, only of the right shape and size."""
    counts = Counter(leave)
    value = 25.0 * counts["?"] + 8.0 * counts["S"] + 2.0 * (counts["Z"] + counts["X"]) - 7.0 * counts["Q"]
    value -= 4.0 * sum(n - 1 for tile, n in counts.items() if n > 1 and tile != "?")
    vowels = sum(n for tile, n in counts.items() if tile in VOWELS)
    consonants = len(leave) - vowels - counts["?"]
    value -= 3.0 * abs(vowels - consonants)
    return value


def timed(call, min_seconds: float) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(3):
        repeats, elapsed = 0, 0.0
        started = time.perf_counter()
        while elapsed < min_seconds:
            call()
            repeats += 1
            elapsed = time.perf_counter() - started
        best = min(best, elapsed / repeats)
    return best


def positions(lexicon: Lexicon, rules: Rules, selfplay: int) -> list[tuple[str, bytes, bytes, int]]:
    """(group, board codes, rack counts, bag count) for every position."""
    out = []
    for line in POSITIONS.read_text().splitlines():
        if line.strip():
            position = parse_cgp(line, rules)
            out.append(("reference", position.board.codes(), position.rack.counts(), 50))
    seed = 0
    while sum(1 for p in out if p[0] == "self-play") < selfplay:
        game = Game.new(lexicon, rules, seed=seed)
        while not game.over and sum(1 for p in out if p[0] == "self-play") < selfplay:
            out.append(("self-play", game.board.codes(), game.rack().counts(), game.bag_count))
            game.play(game.best_move())
        seed += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default=str(LEXICON))
    parser.add_argument("--positions", type=int, default=200, help="self-play positions (default 200)")
    parser.add_argument("--min-ms", type=float, default=20.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    rules = Rules.load("english")
    lexicon = Lexicon.load(args.lexicon)
    core.ensure_walk_index(lexicon._core)
    started = time.perf_counter()
    leaves = Leaves.from_function(rules, plausible_value, "plausible")
    table_seconds = time.perf_counter() - started
    gd_rules = core_rules(rules)
    workspace = core.new_workspace()
    capacity = 1 << 17
    out = ffi.new("gd_move[]", capacity)
    count = ffi.new("size_t *")
    err = ffi.new("gd_error *")
    options = ffi.new("gd_equity_options *")
    options.leaves = ffi.cast("gd_leaves *", leaves.core)
    options.exchanges = 1
    setattr(options, "pass", 1)
    options.by_equity = 1

    rows = []
    for group, board, rack, bag in positions(lexicon, rules, args.positions):
        core.prepare(lexicon._core, gd_rules, workspace, board)
        options.bag_count = bag
        options.opponent_rack_value = 10

        def plain(top: int = 0, board: bytes = board, rack: bytes = rack) -> None:
            lib.gd_generate(
                lexicon._core.struct, gd_rules, board, workspace.memory, rack, top, out, capacity, count, err
            )

        def valued(top: int = 0, prune: int = 0, board: bytes = board, rack: bytes = rack) -> None:
            options.prune = prune
            options.exchanges = 1 if top else 0
            setattr(options, "pass", options.exchanges)
            lib.gd_generate_equity(
                lexicon._core.struct,
                gd_rules,
                board,
                workspace.memory,
                rack,
                options,
                top,
                out,
                capacity,
                count,
                err,
            )

        seconds = args.min_ms / 1000
        row = {
            "group": group,
            "blanks": rack[0],
            "all": timed(plain, seconds) * 1e6,
            "all_equity": timed(valued, seconds) * 1e6,
            "best_no_bounds": timed(lambda: valued(1, 0), seconds) * 1e6,
            "best_bounds": timed(lambda: valued(1, 1), seconds) * 1e6,
        }
        rows.append(row)

    columns = ("all", "all_equity", "best_no_bounds", "best_bounds")
    summary = {}
    for name, pick in (
        ("reference, no blank", lambda r: r["group"] == "reference" and r["blanks"] == 0),
        ("reference, blanks", lambda r: r["group"] == "reference" and r["blanks"] > 0),
        ("self-play, no blank", lambda r: r["group"] == "self-play" and r["blanks"] == 0),
        ("self-play, blanks", lambda r: r["group"] == "self-play" and r["blanks"] > 0),
        ("all positions", lambda r: True),
    ):
        chosen = [r for r in rows if pick(r)]
        if chosen:
            summary[name] = {
                "positions": len(chosen),
                **{f"{c}_median": statistics.median(r[c] for r in chosen) for c in columns},
                **{f"{c}_mean": statistics.fmean(r[c] for r in chosen) for c in columns},
            }
    if args.json:
        print(json.dumps({"summary": summary, "table_seconds": table_seconds}, indent=2))
        return 0
    print(f"leave table: {len(leaves):,} leaves built in {table_seconds:.2f} s")
    print()
    header = f"{'positions':<22}{'n':>5}{'all':>10}{'all+eq':>10}{'best':>10}{'best+bnd':>10}"
    header += f"{'eq/all':>8}{'best/all':>10}"
    print("median µs per position (mean in the second table)")
    for kind in ("median", "mean"):
        print(header)
        for name, s in summary.items():
            a, e, b, p = (s[f"{c}_{kind}"] for c in columns)
            print(
                f"{name:<22}{s['positions']:>5}{a:>10.1f}{e:>10.1f}{b:>10.1f}{p:>10.1f}"
                f"{e / a:>8.2f}{p / a:>10.2f}"
            )
        print()
    overall = summary["all positions"]
    print(
        f"targets: all+equity / all = {overall['all_equity_mean'] / overall['all_mean']:.2f} (≤ 1.2), "
        f"best+bounds / all = {overall['best_bounds_mean'] / overall['all_mean']:.2f} (≤ 0.6), on means"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
