"""``gaddag-solver endgame``: an endgame solved exactly (docs/endgame.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ._common import (
    EXIT_FAILURE,
    EXIT_USAGE,
    _count,
    _dumps,
    _error,
    _print_columns,
    _seconds,
    _status_line,
)
from ._lookahead import _lookahead_game, position_arguments, threads_argument


def cmd_endgame(args: argparse.Namespace) -> int:
    """Solve an endgame exactly (docs/endgame.md)."""
    from ..game.endgame import EndgameError, EndgameSearch

    try:
        game, _rules, _table = _lookahead_game(args)
        search = EndgameSearch(game, threads=args.threads)
    except EndgameError as exc:
        return _error(str(exc), EXIT_USAGE)
    show = args.progress or sys.stderr.isatty()
    deepest: list[Any] = []  # the last finished depth, shown if Ctrl-C comes before the end

    def progress(result: Any) -> None:
        deepest[:] = [result]
        if show:
            _status_line(
                f"depth {result.depth}  value {result.value:+d}  {result.nodes:,} positions  "
                f"{result.elapsed:.1f} s  {result.best if result.line else ''}"
            )

    if args.move is not None or args.top > 1:
        return _endgame_moves(args, game, search, progress if show else None)
    try:
        result = search.run(args.max_depth, args.time, progress)
    except KeyboardInterrupt:
        if not deepest:
            print("\ninterrupted before depth 1 finished", file=sys.stderr)
            return EXIT_FAILURE
        print(f"\ninterrupted; the deepest finished search (depth {deepest[0].depth}):", file=sys.stderr)
        _print_result(args, deepest[0])
        return EXIT_FAILURE
    except EndgameError as exc:
        return _error(str(exc))
    if show:
        sys.stderr.write("\n")
    _print_result(args, result)
    return 0


def _print_result(args: argparse.Namespace, result: Any) -> None:
    """The principal line and its value (as JSON with --format json)."""
    if args.format == "json":
        print(_dumps(result.to_dict()))
        return
    names = ("you", "opponent")
    for i, move in enumerate(result.line):
        print(f"{i + 1:>3}  {names[i % 2]:<8}  {move}")
    exact = "exact" if result.complete else f"best found at depth {result.depth} (not proven)"
    print(
        f"value {result.value:+d} for the player to move ({exact}); {result.nodes:,} positions in "
        f"{result.elapsed:.2f} s"
    )


def _endgame_moves(args: argparse.Namespace, game: Any, search: Any, progress: Any) -> int:
    """endgame --move (a given first move's exact value against the best's) or --top K."""
    from ..game.endgame import EndgameError, find_move
    from ..game.play import GameError

    try:
        if args.move is not None:
            move = find_move(game, args.move)
            best = search.run(time_limit=args.time, progress=progress)
            given = search.value_of(move, time_limit=args.time, progress=progress)
            results = [best, given]
        else:
            results = search.best_moves(args.top, time_limit=args.time, progress=progress)
    except EndgameError as exc:
        return _error(str(exc))
    except GameError as exc:  # the move given is not one of the rack's
        return _error(str(exc), EXIT_USAGE)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_FAILURE
    if progress is not None:
        sys.stderr.write("\n")
    if args.move is not None:
        best, given = results
        lost = best.value - given.value if best.complete and given.complete else None
        if args.format == "json":
            print(_dumps({"best": best.to_dict(), "move": given.to_dict(), "points_lost": lost}))
            return 0
        for label, result in (("best", best), ("move", given)):
            exact = "exact" if result.complete else f"depth {result.depth}, not proven"
            line = " ".join(str(m) for m in result.line)
            print(f"{label:<5} {result.value:+d} ({exact}): {line}")
        print(f"points lost: {lost}" if lost is not None else "points lost: not proven (time ran out)")
        return 0
    if args.format == "json":
        print(_dumps({"moves": [r.to_dict() for r in results]}))
        return 0
    rows = [
        (str(i), str(r.best), f"{r.value:+d}", "exact" if r.complete else f"depth {r.depth}",
         " ".join(str(m) for m in r.line[1:]))
        for i, r in enumerate(results, 1)
    ]  # fmt: skip
    _print_columns(("rank", "first move", "value", "", "then"), rows)
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
    p.add_argument("--time", type=_seconds, metavar="SECONDS", help="stop after this long")
    p.add_argument("--max-depth", type=int, default=64, help="deepest search, in plies (default 64)")
    p.add_argument(
        "--top", type=_count, default=1, metavar="K", help="the exact value of each of the best K first moves"
    )
    p.add_argument(
        "--move", metavar='"8D WORD"', help="the exact value of this first move and the points it loses"
    )
    threads_argument(p, "threads searching together")
    p.set_defaults(run=cmd_endgame)
