#!/usr/bin/env python3
"""Endgame benchmark: time to solve endgames completely, by the tiles left.

    .venv/bin/python bench/endgame.py [--lexicon sowpods] [--games 100] [--seed 1] [--limit 60] [--no-prune]
                                      [--instructions] [--threads 1,2]

Plays self-play games (static equity with the lexicon's leave table on both sides) until the bag
is empty and solves each endgame reached, from the player to move's side, to the end (or until
--limit seconds). Prints, by the tiles on both racks, how many endgames, the median and worst
time to a complete solution, the positions visited, and how many were not solved within the
limit; then the 7-vs-7 figure the target is set for (median ≤ 1 s), with a 95% confidence interval
for the median (from the order statistics, which assume nothing about the times' distribution).
100 games give about two dozen 7-vs-7 endgames; with fewer, one slow endgame moves the median.

--threads 1,2 solves each endgame with each number of threads in turn (the search's --threads)
and prints the table for each, then the speed-up of each over the first: the geometric mean of
the per-endgame time ratios, with a 95% confidence interval (Student's t over the logarithms),
over the endgames the first took at least 0.2 s to solve (faster ones measure start-up), and
the ratio of total times; and checks that every complete value is the same for each number.

--instructions also counts, under valgrind's callgrind, the instructions each endgame's search
executes (inside gd_endgame_search only): the same count on every run, so two builds of the core
can be compared on a machine whose timings swing by a fifth (slow: use it with a few --games).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))
sys.path.insert(0, str(ROOT / "bench"))

from callgrind import instructions_in  # noqa: E402
from gaddag_solver import Game, Leaves, Lexicon, Rules  # noqa: E402
from gaddag_solver.game.endgame import EndgameSearch  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402

# one endgame's result: both rack sizes (77·small + large), seconds, positions, complete, value
Solved = tuple[int, float, int, bool, int]


def median_interval(ordered: list[float], confidence: float = 0.95) -> tuple[float, float]:
    """A distribution-free interval for the median: the k-th smallest and k-th largest values, k
    the largest for which the chance that fewer than k of n values fall below the median (a
    binomial with p = 1/2) is at most (1 - confidence) / 2. The whole range when n is too small."""
    n = len(ordered)
    tail, k = 0.0, 0
    while k < n:
        tail += math.comb(n, k) / 2**n  # P(exactly k values below the median)
        if tail > (1 - confidence) / 2:
            break
        k += 1
    k = max(k, 1)
    return ordered[k - 1], ordered[n - k]


CHILD = """
import sys
sys.path.insert(0, {pycore!r})
from gaddag_solver import Game, Leaves, Lexicon, Rules
from gaddag_solver.game.endgame import EndgameSearch
from gaddag_solver.lexicons import resolve_lexicon
rules = Rules.load("english")
lexicon = Lexicon.load(resolve_lexicon({lexicon!r}), rules)
leaves = Leaves.load({lexicon!r}, rules)
game = Game.new(lexicon, seed={seed})
while not game.over and game.bag_count:
    game.play(game.best_move("equity", leaves))
EndgameSearch(game, prune={prune}).run(time_limit={limit})
"""


def count_instructions(args: argparse.Namespace, seed: int) -> int:
    """Instructions executed inside gd_endgame_search for the endgame of game `seed`."""
    limit = args.limit * 100  # callgrind runs the search some 50 times slower
    pycore = str(ROOT / "pycore")
    code = CHILD.format(pycore=pycore, lexicon=args.lexicon, seed=seed, prune=not args.no_prune, limit=limit)
    return instructions_in("gd_endgame_search", code)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per endgame before giving up")
    parser.add_argument(
        "--no-prune", action="store_true", help="search with the whole lexicon, not the endgame's own words"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="also count each search's instructions under callgrind"
    )
    parser.add_argument(
        "--threads", type=thread_counts, default=[1], metavar="N,...", help="threads per search (default 1)"
    )
    args = parser.parse_args()
    print(f"$ {' '.join(sys.argv)}")
    load_at_start = os.getloadavg()[0]
    rules = Rules.load("english")
    lexicon = Lexicon.load(resolve_lexicon(args.lexicon), rules)
    leaves = Leaves.load(args.lexicon, rules)
    solved: dict[int, dict[int, Solved]] = {n: {} for n in args.threads}
    for seed in range(args.seed, args.seed + args.games):
        game = Game.new(lexicon, seed=seed)
        while not game.over and game.bag_count:
            game.play(game.best_move("equity", leaves))
        if game.over:
            continue
        sizes = sorted(len(rack) for rack in game.racks)
        for threads in args.threads:
            started = time.perf_counter()
            search = EndgameSearch(game, prune=not args.no_prune, threads=threads)
            result = search.run(time_limit=args.limit)
            seconds = time.perf_counter() - started
            code = 77 * sizes[0] + sizes[1]  # both rack sizes, so 7 vs 7 is told from 6 vs 8
            solved[threads][seed] = (code, seconds, result.nodes, result.complete, result.value)
            counting = args.instructions and threads == args.threads[0]
            counted = f", {count_instructions(args, seed):,} instructions" if counting else ""
            print(f"  seed {seed}: racks {sizes[0]}+{sizes[1]}, {threads} thread(s), {seconds:.2f} s, "
                  f"{result.nodes:,} positions, {'solved' if result.complete else 'not solved'}, "
                  f"value {result.value:+d}{counted}", file=sys.stderr)  # fmt: skip
    lexicon_used = "the whole lexicon" if args.no_prune else "the endgame's own words"
    print(f"load average {load_at_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    for threads in args.threads:
        print_table(args, threads, solved[threads], lexicon_used)
    if len(args.threads) > 1:
        print_speedups(args.threads, solved)
    return 0


def thread_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"thread counts are 1 or more: {text!r}")
    return counts


def print_table(args: argparse.Namespace, threads: int, found: dict[int, Solved], lexicon_used: str) -> None:
    """The table by tiles on both racks, and the 7-vs-7 median with its interval."""
    rows: dict[int, list[tuple[float, int, bool]]] = {}
    seven: list[float] = []
    for code, seconds, nodes, complete, _value in found.values():
        small, large = divmod(code, 77)
        rows.setdefault(small + large, []).append((seconds, nodes, complete))
        if (small, large) == (7, 7):
            seven.append(seconds if complete else float("inf"))
    print(f"endgames from {args.games} self-play games ({args.lexicon}, searched with {lexicon_used}), "
          f"solved completely, {threads} thread(s)")  # fmt: skip
    print("| tiles on both racks | endgames | median s | 90th percentile s | worst s | median positions "
          "| over 10 s | unsolved in limit |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for tiles in sorted(rows):
        cases = rows[tiles]
        times = sorted(s for s, _n, _c in cases)
        nodes = [n for _s, n, _c in cases]
        unsolved = sum(1 for _s, _n, c in cases if not c)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        slow = sum(1 for s in times if s > 10)
        print(f"| {tiles} | {len(cases)} | {statistics.median(times):.2f} | {p90:.2f} | {max(times):.2f} | "
              f"{statistics.median(nodes):,.0f} | {slow} | {unsolved} |")  # fmt: skip
    if seven:
        low, high = median_interval(sorted(seven))
        print(f"7 vs 7: {len(seven)} endgames, median {statistics.median(seven):.2f} s, "
              f"95% CI [{low:.2f}, {high:.2f}] (target ≤ 0.5 s)")  # fmt: skip


def print_speedups(counts: list[int], solved: dict[int, dict[int, Solved]]) -> None:
    """Each thread count's speed-up over the first, on the endgames both solved, and whether every
    complete value agrees."""
    base = solved[counts[0]]
    print(f"speed-up over {counts[0]} thread(s), on endgames both solved that took ≥ 0.2 s with {counts[0]}:")
    print("| threads | endgames | geometric mean | 95% CI | total s | total s with one | ratio of totals |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for threads in counts[1:]:
        other = solved[threads]
        pairs = [(base[s][1], other[s][1]) for s in base if base[s][3] and other[s][3] and base[s][1] >= 0.2]
        if len(pairs) < 2:
            print(f"| {threads} | {len(pairs)} | too few to say | | | | |")
            continue
        logs = [math.log(one / many) for one, many in pairs]
        mean, spread = statistics.fmean(logs), statistics.stdev(logs) / math.sqrt(len(logs))
        margin = t_quantile(len(logs) - 1) * spread
        total_one, total_many = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        print(f"| {threads} | {len(pairs)} | {math.exp(mean):.2f}× | [{math.exp(mean - margin):.2f}, "
              f"{math.exp(mean + margin):.2f}] | {total_many:.1f} | {total_one:.1f} | "
              f"{total_one / total_many:.2f}× |")  # fmt: skip
        differ = [s for s in base if base[s][3] and other[s][3] and base[s][4] != other[s][4]]
        print(f"complete values that differ between {counts[0]} and {threads} thread(s): "
              f"{len(differ)}{' (seeds ' + ', '.join(map(str, differ)) + ')' if differ else ''}")  # fmt: skip


def t_quantile(freedom: int) -> float:
    """Student's t 97.5% quantile (two-sided 95%), from a small table; 1.96 past 30."""
    table = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
             12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04}  # fmt: skip
    return table[max(k for k in table if k <= freedom)] if freedom <= 30 else 1.96


if __name__ == "__main__":
    sys.exit(main())
