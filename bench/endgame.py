#!/usr/bin/env python3
"""Endgame benchmark: time to solve endgames completely, by the tiles left.

    .venv/bin/python bench/endgame.py [--lexicon sowpods] [--games 100] [--seed 1] [--limit 60] [--no-prune]
                                      [--instructions]

Plays self-play games (static equity with the lexicon's leave table on both sides) until the bag
is empty and solves each endgame reached, from the player to move's side, to the end (or until
--limit seconds). Prints, by the tiles on both racks, how many endgames, the median and worst
time to a complete solution, the positions visited, and how many were not solved within the
limit; then the 7-vs-7 figure the target is set for (median ≤ 1 s), with a 95% confidence interval
for the median (from the order statistics, which assume nothing about the times' distribution).
100 games give about two dozen 7-vs-7 endgames; with fewer, one slow endgame moves the median.

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
    args = parser.parse_args()
    print(f"$ {' '.join(sys.argv)}")
    load_at_start = os.getloadavg()[0]
    rules = Rules.load("english")
    lexicon = Lexicon.load(resolve_lexicon(args.lexicon), rules)
    leaves = Leaves.load(args.lexicon, rules)
    rows: dict[int, list[tuple[float, int, bool]]] = {}
    seven: list[float] = []
    for seed in range(args.seed, args.seed + args.games):
        game = Game.new(lexicon, seed=seed)
        while not game.over and game.bag_count:
            game.play(game.best_move("equity", leaves))
        if game.over:
            continue
        sizes = sorted(len(rack) for rack in game.racks)
        started = time.perf_counter()
        result = EndgameSearch(game, prune=not args.no_prune).run(time_limit=args.limit)
        seconds = time.perf_counter() - started
        tiles = sum(sizes)
        rows.setdefault(tiles, []).append((seconds, result.nodes, result.complete))
        if sizes == [7, 7]:
            seven.append(seconds if result.complete else float("inf"))
        counted = f", {count_instructions(args, seed):,} instructions" if args.instructions else ""
        print(f"  seed {seed}: racks {sizes[0]}+{sizes[1]}, {seconds:.2f} s, {result.nodes:,} positions, "
              f"{'solved' if result.complete else 'not solved'}{counted}", file=sys.stderr)  # fmt: skip
    lexicon_used = "the whole lexicon" if args.no_prune else "the endgame's own words"
    print(f"load average {load_at_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    print(f"endgames from {args.games} self-play games ({args.lexicon}, searched with {lexicon_used}), "
          "solved completely, one core")  # fmt: skip
    print("| tiles on both racks | endgames | median s | 90th percentile s | worst s | median positions "
          "| over 10 s | unsolved in limit |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for tiles in sorted(rows):
        found = rows[tiles]
        times = sorted(s for s, _n, _c in found)
        nodes = [n for _s, n, _c in found]
        unsolved = sum(1 for _s, _n, c in found if not c)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        slow = sum(1 for s in times if s > 10)
        print(f"| {tiles} | {len(found)} | {statistics.median(times):.2f} | {p90:.2f} | {max(times):.2f} | "
              f"{statistics.median(nodes):,.0f} | {slow} | {unsolved} |")  # fmt: skip
    if seven:
        low, high = median_interval(sorted(seven))
        print(f"7 vs 7: {len(seven)} endgames, median {statistics.median(seven):.2f} s, "
              f"95% CI [{low:.2f}, {high:.2f}] (target ≤ 1 s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
