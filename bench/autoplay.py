#!/usr/bin/env python3
"""Self-play benchmark: games per second on one core, whole games played in C.

    .venv/bin/python bench/autoplay.py [--lexicon sowpods] [--games 400] [--seed 1] [--repeat 3] [--json]

For each matchup (equity vs equity, greedy vs greedy; equity without a leave table until
tables land) it plays --games games in this process (``--workers 1``: no process pool), after
two warm-up games that load the lexicon, and prints games per second (the fastest of --repeat
runs of the same games), turns per game and microseconds per turn. The target is 550 games/s
per core for equity vs equity (the ratio column); greedy vs greedy has no target of its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver.game.autoplay import Match, PlayerSpec, play_chunk, run_autoplay  # noqa: E402
from gaddag_solver.lexicons import ENV_VAR  # noqa: E402

TARGET = 550.0  # games/s per core, equity vs equity
MATCHUPS = [("equity", "equity", TARGET), ("greedy", "greedy", None)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods", help=f"lexicon name or path (see ${ENV_VAR})")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per matchup; the fastest is kept")
    parser.add_argument("--json", action="store_true", help="also print the rows as JSON")
    args = parser.parse_args()

    rows = []
    for first, second, target in MATCHUPS:
        match = Match.create(args.lexicon, "english", [PlayerSpec.parse(first), PlayerSpec.parse(second)])
        play_chunk(match, args.seed + 1, 0, 2)  # warm up: load the lexicon, build the walk index
        # the same games each time; the fastest run is the one least disturbed by other processes
        run = min(
            (run_autoplay(match, args.games, args.seed, workers=1) for _ in range(max(1, args.repeat))),
            key=lambda r: r.seconds,
        )
        turns = run.summary.turns_per_game
        rate = run.games_per_second
        rows.append(
            {
                "matchup": f"{first} vs {second}",
                "games": args.games,
                "seconds": run.seconds,
                "games_per_s": rate,
                "turns_per_game": turns,
                "us_per_turn": 1e6 / (rate * turns),
                "target": target,
                "ratio": rate / target if target else None,
            }
        )

    header = ["matchup", "games", "seconds", "games/s", "turns/game", "µs/turn", "target", "ratio"]
    table = [header] + [
        [
            r["matchup"],
            str(r["games"]),
            f"{r['seconds']:.2f}",
            f"{r['games_per_s']:.1f}",
            f"{r['turns_per_game']:.1f}",
            f"{r['us_per_turn']:.0f}",
            f"{r['target']:.0f}" if r["target"] else "-",
            f"{r['ratio']:.2f}" if r["ratio"] else "-",
        ]
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    print(f"self-play on {args.lexicon}, one core (--workers 1), seed {args.seed}")
    for row in table:
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
