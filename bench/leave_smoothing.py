#!/usr/bin/env python3
"""Does smoothing rare leaves help? Held-out error and head-to-head strength.

Two independent sets of training games (A and B, different seeds) are played with the same
table. From A, two tables are estimated: raw means (every leave valued by its own racks alone,
0 when never seen) and smoothed (shrunk toward the singles-and-pairs prior, docs/leaves.md).
Each is scored against B's raw means, leave by leave, grouped by how often A saw the leave: the
mean squared error (points², weighted by B's rack count) — B's own noise adds the same amount to
both, so the difference is the smoothing's. Then the two tables play each other in mirrored
pairs.

    python bench/leave_smoothing.py --lexicon sowpods --games 40000 --table lexicons/x.leaves \
        --match-games 10000
"""

from __future__ import annotations

import argparse
import sys
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import Rules  # noqa: E402
from gaddag_solver import _core_api as core  # noqa: E402
from gaddag_solver.formats.leaves import Leaves, entry_keys  # noqa: E402
from gaddag_solver.game.autoplay import Match, PlayerSpec, format_table, run_autoplay  # noqa: E402
from gaddag_solver.game.leave_estimate import estimate  # noqa: E402
from gaddag_solver.game.train import chunk_ranges, train_chunk  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402

BUCKETS = [(0, 0), (1, 9), (10, 99), (100, 999), (1000, 1 << 32)]


def collect(lexicon: str, rules: str, table: bytes, games: int, seed: int) -> core.RackStats:
    from concurrent.futures import ProcessPoolExecutor

    ranges = chunk_ranges(games)
    total = core.RackStats(len(Leaves.from_bytes(table, Rules.load(rules))))
    with ProcessPoolExecutor() as pool:
        futures = [pool.submit(train_chunk, lexicon, rules, table, seed, 1, a, b) for a, b in ranges]
        for future in futures:
            total.merge(core.RackStats.from_bytes(future.result()))
    return total


def arrays(stats: core.RackStats) -> tuple[array, array]:
    sums, seen = array("q"), array("I")
    sums.frombytes(stats.sums_bytes())
    seen.frombytes(stats.seen_bytes())
    return sums, seen


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--rules", default="english")
    parser.add_argument("--games", type=int, default=40000, help="training games in each of A and B")
    parser.add_argument("--table", help="the table both sets are played with (default: every leave 0)")
    parser.add_argument("--match-games", type=int, default=10000, help="games of the raw-vs-smoothed match")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", default="/tmp/leave-smoothing", help="folder for the two tables")
    args = parser.parse_args()

    rules = Rules.load(args.rules)
    lexicon = str(resolve_lexicon(args.lexicon).resolve())
    table = Leaves.load(args.table, rules) if args.table else Leaves.zero(rules)
    a = collect(lexicon, args.rules, table.to_bytes(), args.games, args.seed)
    b = collect(lexicon, args.rules, table.to_bytes(), args.games, args.seed + 1)
    sums_a, seen_a = arrays(a)
    sums_b, seen_b = arrays(b)
    raw = estimate(sums_a, seen_a, a.totals, rules, smooth=False).values
    smooth = estimate(sums_a, seen_a, a.totals, rules, smooth=True).values
    mean_b = b.totals[1] / b.totals[0]
    keys = entry_keys(rules)

    racks = f"{a.totals[0]:,} and {b.totals[0]:,} racks"
    print(f"{args.games} games in each of A and B ({racks}), {len(keys):,} leaves")
    print("seen in A   leaves  held out (seen in B)  MSE raw (pt²)  MSE smoothed (pt²)  ratio")
    for low, high in BUCKETS:
        n = 0
        weight = err_raw = err_smooth = 0.0
        for i in range(len(keys)):
            if not low <= seen_a[i] <= high:
                continue
            n += 1
            if not seen_b[i]:
                continue
            target = sums_b[i] / seen_b[i] - mean_b
            w = seen_b[i]
            weight += w
            err_raw += w * ((raw[i] - target) / 100) ** 2
            err_smooth += w * ((smooth[i] - target) / 100) ** 2
        held = sum(1 for i in range(len(keys)) if low <= seen_a[i] <= high and seen_b[i])
        label = f"{low}" if low == high else f"{low}-{high}" if high < 1 << 32 else f"{low}+"
        if weight:
            mse_raw, mse_smooth = err_raw / weight, err_smooth / weight
            ratio = mse_smooth / mse_raw
            print(f"{label:>9}  {n:>7}  {held:>20}  {mse_raw:>13.2f}  {mse_smooth:>18.2f}  {ratio:5.2f}")
        else:
            print(f"{label:>9}  {n:>7}  {held:>20}  {'-':>13}  {'-':>18}")

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    raw_path, smooth_path = out / "raw.leaves", out / "smoothed.leaves"
    Leaves.from_hundredths(rules, raw, "raw").save(raw_path)
    Leaves.from_hundredths(rules, smooth, "smoothed").save(smooth_path)
    if args.match_games:
        players = [PlayerSpec("equity", str(smooth_path)), PlayerSpec("equity", str(raw_path))]
        run = run_autoplay(Match.create(lexicon, args.rules, players), args.match_games, args.seed)
        print()
        print(format_table(run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
