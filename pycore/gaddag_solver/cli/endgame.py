"""``gaddag-solver endgame``: an endgame solved exactly (docs/endgame.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ._common import EXIT_FAILURE, EXIT_USAGE, _dumps, _error, _status_line
from ._lookahead import _lookahead_game, position_arguments


def cmd_endgame(args: argparse.Namespace) -> int:
    """Solve an endgame exactly (docs/endgame.md)."""
    from ..game.endgame import EndgameError, EndgameSearch

    try:
        game, _rules, _table = _lookahead_game(args)
        search = EndgameSearch(game)
    except EndgameError as exc:
        return _error(str(exc), EXIT_USAGE)
    show = args.progress or sys.stderr.isatty()

    def progress(result: Any) -> None:
        if show:
            _status_line(
                f"depth {result.depth}  value {result.value:+d}  {result.nodes:,} positions  "
                f"{result.elapsed:.1f} s  {result.best if result.line else ''}"
            )

    try:
        result = search.run(args.max_depth, args.time, progress)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_FAILURE
    except EndgameError as exc:
        return _error(str(exc))
    if show:
        sys.stderr.write("\n")
    if args.format == "json":
        print(_dumps(result.to_dict()))
        return 0
    names = ("you", "opponent")
    for i, move in enumerate(result.line):
        print(f"{i + 1:>3}  {names[i % 2]:<8}  {move}")
    exact = "exact" if result.complete else f"best found at depth {result.depth} (not proven)"
    print(
        f"value {result.value:+d} for the player to move ({exact}); {result.nodes:,} positions in "
        f"{result.elapsed:.2f} s"
    )
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "endgame",
        help="solve an endgame exactly (the bag empty)",
        description="Search every line to the end of the game (negamax, alpha-beta, a transposition "
        "table, deepening one ply at a time) for the best line of the player to move; with --time, "
        "the best line of the deepest search finished (docs/endgame.md).",
        epilog="Example: gaddag-solver endgame --board board.txt --rack AEIN --opponent-rack DGOR",
    )
    position_arguments(p)
    p.add_argument("--time", type=float, metavar="SECONDS", help="stop after this long")
    p.add_argument("--max-depth", type=int, default=64, help="deepest search, in plies (default 64)")
    p.set_defaults(run=cmd_endgame)
