#!/usr/bin/env python3
"""Self-play benchmark: games per second on one core, whole games played in C.

    .venv/bin/python bench/autoplay.py [--lexicon sowpods] [--games 400] [--seed 1] [--repeat 3]
                                       [--leaves NAME|PATH | --plausible-leaves] [--instructions] [--json]
                                       [--magpie]

For each matchup (equity vs equity without a table; equity vs equity with a leave table when
one is given — ``--plausible-leaves`` builds bench/equity.py's hand-made table of realistic
values; greedy vs greedy) it plays --games games in this process (``--workers 1``: no process
pool), after two warm-up games that load the lexicon, and prints games per second (the fastest
of --repeat runs of the same games), turns per game and microseconds per turn. The target is
550 games/s per core for equity vs equity (the ratio column); greedy vs greedy has no target.

Wall time on a shared machine swings by a third between runs. ``--instructions`` also plays the
same games under valgrind's callgrind, counting only inside gd_play_game, and prints millions of
instructions per game: the same count on every run, so a change to the generator can be judged
on a busy machine (it takes about a minute per 100 games).

``--magpie`` also plays as many games with MAGPIE in the same run (``bash bench/magpie/build.sh``
builds it; skipped with a message when it is not), one thread, static equity on both sides, with
no leave values and with the table given by --leaves converted to its format (the build converts
our shipped sowpods table), the fastest of --repeat runs, and prints our games per second over
its. Its games are its own (same lexicon, rules and table, not the same bags), so the rates are
compared, not the games; its start-up (the lexicon and its word map) is measured by a one-game
run and taken off.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))
sys.path.insert(0, str(ROOT / "bench"))

from callgrind import instructions_in  # noqa: E402
from gaddag_solver import Leaves, Rules  # noqa: E402
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
    parser.add_argument(
        "--magpie", action="store_true", help="also time MAGPIE's self-play (bench/magpie/build.sh)"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions per game under callgrind"
    )
    tables = parser.add_mutually_exclusive_group()
    tables.add_argument("--leaves", help="also time equity vs equity with this leave table")
    tables.add_argument(
        "--plausible-leaves",
        action="store_true",
        help="also time it with a hand-made table of realistic values",
    )
    args = parser.parse_args()

    matchups = list(MATCHUPS)
    with tempfile.TemporaryDirectory() as folder:
        table = args.leaves
        if args.plausible_leaves:
            from equity import plausible_value  # bench/equity.py, beside this script

            table = str(Path(folder) / "plausible.leaves")
            Leaves.from_function(Rules.load("english"), plausible_value, "plausible").save(table)
        if table:
            matchups.insert(1, (f"equity:{table}", f"equity:{table}", TARGET))
        rows = run_matchups(args, matchups)
    print_table(args, rows)
    if args.magpie:
        print_magpie(args, rows)
    return 0


def print_magpie(args: argparse.Namespace, rows: list[dict]) -> None:
    """MAGPIE's games per second beside ours (see the module's docstring)."""
    import magpie_side

    print()
    if magpie_side.magpie_dir() is None:
        print(magpie_side.SKIP_MESSAGE)
        return
    if args.lexicon != "sowpods":
        print(f"MAGPIE is built with the sowpods lexicon only, not {args.lexicon}: left out")
        return
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "unknown"
    print(f"MAGPIE beside ours, same run: CPU {magpie_side.cpu_model()}, load {load}")
    print(f"{'matchup':<30} {'ours games/s':>13} {'MAGPIE games/s':>15} {'ours / MAGPIE':>14}")
    for row in rows:
        if row["matchup"].startswith("greedy"):
            continue
        with_table = "table" in row["matchup"]
        if with_table and args.leaves != "sowpods":
            print(f"{row['matchup']:<30} MAGPIE has our sowpods table only (--leaves sowpods)")
            continue
        runs = [magpie_side.autoplay(args.games, args.seed, with_table) for _ in range(max(1, args.repeat))]
        theirs = max(run["games_per_s"] for run in runs)
        ours = row["games_per_s"]
        print(f"{row['matchup']:<30} {ours:>13.1f} {theirs:>15.1f} {ours / theirs:>14.2f}")
    print("target: ours / MAGPIE at least 1.5 with the same leave table")


def run_matchups(args: argparse.Namespace, matchups: list[tuple[str, str, float | None]]) -> list[dict]:
    rows = []
    for first, second, target in matchups:
        match = Match.create(args.lexicon, "english", [PlayerSpec.parse(first), PlayerSpec.parse(second)])
        play_chunk(match, args.seed + 1, 0, 2)  # warm up: load the lexicon, build the walk index
        # the same games each time; the fastest run is the one least disturbed by other processes
        run = min(
            (run_autoplay(match, args.games, args.seed, workers=1) for _ in range(max(1, args.repeat))),
            key=lambda r: r.seconds,
        )
        turns = run.summary.turns_per_game
        rate = run.games_per_second
        instructions = count_instructions(args, first, second) if args.instructions else None
        rows.append(
            {
                "matchup": "equity+table vs equity+table" if ":" in first else f"{first} vs {second}",
                "games": args.games,
                "seconds": run.seconds,
                "games_per_s": rate,
                "turns_per_game": turns,
                "us_per_turn": 1e6 / (rate * turns),
                "target": target,
                "ratio": rate / target if target else None,
                "instructions_per_game": instructions,
            }
        )
    return rows


CHILD = """
import sys
sys.path.insert(0, {pycore!r})
from gaddag_solver.game.autoplay import Match, PlayerSpec, play_chunk
match = Match.create({lexicon!r}, "english", [PlayerSpec.parse({first!r}), PlayerSpec.parse({second!r})])
play_chunk(match, {seed}, 0, {games})
"""


def count_instructions(args: argparse.Namespace, first: str, second: str) -> float:
    """Instructions per game executed inside gd_play_game (lexicon loading and Python excluded)."""
    code = CHILD.format(
        pycore=str(ROOT / "pycore"),
        lexicon=args.lexicon,
        first=first,
        second=second,
        seed=args.seed,
        games=args.games,
    )
    return instructions_in("gd_play_game", code) / args.games


def print_table(args: argparse.Namespace, rows: list[dict]) -> None:
    header = ["matchup", "games", "seconds", "games/s", "turns/game", "µs/turn", "target", "ratio"]
    if args.instructions:
        header.append("M instr/game")
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
        + ([f"{r['instructions_per_game'] / 1e6:.2f}"] if args.instructions else [])
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


if __name__ == "__main__":
    sys.exit(main())
