"""The cost of the pre-endgame's decisions: root candidates that leave tiles in the bag, valued
world by world.

A root candidate that plays fewer tiles than the bag holds leads to the opponent's own decision
(with the tiles left in the bag), which is where an exact pre-endgame with 2 in the bag spends
its time (docs/preendgame.md). For each self-played position with --bag tiles in the bag (as
bench/preendgame.py finds them), the first --candidates such root candidates are each valued in
the first --worlds worlds, one at a time, each up to --limit seconds. Prints a line per value
(endgames searched, positions, seconds, the value or "not done") and a table of the totals with
the machine's load. Endgame and position counts do not depend on the load: run two builds on the
same arguments and compare them.

    python bench/peg_decisions.py --bag 2 --seeds 24-36 --candidates 6 --worlds 4 --limit 20
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import Game, Leaves, Lexicon, Rules  # noqa: E402
from gaddag_solver.game.preendgame import PreendgameSearch  # noqa: E402
from gaddag_solver.game.preendgame_model import _Interrupted  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402


def seed_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--bag", type=int, default=2, help="tiles in the bag (2 to 6)")
    parser.add_argument("--seeds", type=seed_range, default=seed_range("24-36"), help="games, e.g. 24-36")
    parser.add_argument("--candidates", type=int, default=6, help="root candidates per position")
    parser.add_argument("--worlds", type=int, default=4, help="worlds per candidate")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per value before giving up")
    args = parser.parse_args()
    print(f"$ {' '.join(sys.argv)}")
    rules = Rules.load("english")
    lexicon = Lexicon.load(resolve_lexicon(args.lexicon), rules)
    leaves = Leaves.load(args.lexicon, rules)
    loads = [os.getloadavg()[0]]
    values = done = endgames = positions = 0
    seconds = 0.0
    for seed in args.seeds:
        game = Game.new(lexicon, seed=seed)
        while not game.over and game.bag_count > args.bag:
            game.play(game.best_move("equity", leaves))
        if game.over or game.bag_count != args.bag:
            continue
        search = PreendgameSearch(game, leaves=leaves)
        standing = search.standing()
        picked = [i for i, c in enumerate(standing.candidates) if len(c.move.tiles_used) < args.bag]
        context = search._context()
        for index in picked[: args.candidates]:
            for world in search._root_worlds[: args.worlds]:
                endgames_before, positions_before = context.endgames, context.nodes
                started = time.perf_counter()
                search._deadline = started + args.limit
                try:
                    value = str(search._root_value(world, search._root[index].record))
                    done += 1
                except _Interrupted:
                    value = "not done"
                took = time.perf_counter() - started
                values += 1
                endgames += context.endgames - endgames_before
                positions += context.nodes - positions_before
                seconds += took
                print(f"  seed {seed} {standing.candidates[index].move}, the opponent holding "
                      f"{search._tiles(world.opponent)}: {value}, "
                      f"{context.endgames - endgames_before:,} endgames, "
                      f"{context.nodes - positions_before:,} positions, {took:.2f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
        loads.append(os.getloadavg()[0])
    print(f"root candidates leaving tiles in the bag ({args.bag} in the bag, {args.lexicon}), "
          f"valued world by world, limit {args.limit:g} s each; "
          f"load average {min(loads):.2f}–{max(loads):.2f}")  # fmt: skip
    print("| values | done | not done in limit | endgames | positions | seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| {values} | {done} | {values - done} | {endgames:,} | {positions:,} | {seconds:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
