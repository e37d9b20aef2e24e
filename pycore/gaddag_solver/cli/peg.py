"""``gaddag-solver peg``: a pre-endgame solved (1 to 6 tiles in the bag; docs/preendgame.md)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ._common import EXIT_USAGE, _count, _dumps, _error, _print_columns, _seconds, _status_line
from ._lookahead import _lookahead_game, position_arguments, threads_argument


def _percent(value: Any) -> str:
    return f"{100 * float(value):.1f}"


def _win(candidate: Any) -> str:
    """A candidate's chance of winning: exact, or ~ an estimate."""
    if candidate.win is not None:
        return f"{_percent(candidate.win)}%"
    if candidate.estimate is not None:
        return f"~{_percent(candidate.estimate)}%"
    return f"{_percent(candidate.win_low)}–{_percent(candidate.win_high)}%"


def cmd_peg(args: argparse.Namespace) -> int:
    """Solve a pre-endgame (1 to 6 tiles in the bag; docs/preendgame.md)."""
    from ..game.preendgame import ESTIMATED, EXACT, PreendgameError, PreendgameSearch

    try:
        game, _rules, table = _lookahead_game(args)
        search = PreendgameSearch(
            game, leaves=table, threads=args.threads, method=args.method, seed=args.seed
        )
    except PreendgameError as exc:
        return _error(str(exc), EXIT_USAGE)
    show = args.progress or sys.stderr.isatty()
    shown_at = [0.0]

    def progress(result: Any) -> None:
        if show and time.monotonic() - shown_at[0] >= 0.25:
            shown_at[0] = time.monotonic()
            done = sum(1 for c in result.candidates if c.status != "pending")
            best = f"best {result.best.move} {_win(result.best)}" if result.best_index is not None else ""
            _status_line(
                f"{done}/{len(result.candidates)} candidates  {result.endgames:,} endgames  "
                f"{result.elapsed:.1f} s  {best}"
            )

    try:
        result = search.run(args.time, progress)
    except KeyboardInterrupt:
        search.stop()
        result = search.run(0)  # the standing, no more search
        print("\ninterrupted: the standing so far", file=sys.stderr)
    except PreendgameError as exc:
        return _error(str(exc))
    spread = None
    if result.best_index is not None and not args.no_spread:
        left = None if args.time is None else max(1.0, args.time - result.elapsed)
        try:
            spread = search.expected_spread(result.best_index, time_limit=left)
        except KeyboardInterrupt:
            spread = None
    if show:
        sys.stderr.write("\n")
    if args.format == "json":
        print(_dumps({**result.to_dict(), "best_expected_spread": None if spread is None else float(spread)}))
        return 0
    estimating = result.method == "halving"
    if estimating:  # the estimates, the best first, then those dropped, the last rounds' first
        shown = [c for c in result.candidates if c.estimate is not None or args.all]
        shown.sort(key=lambda c: (c.status != ESTIMATED, -c.worlds_valued, -(c.estimate or 0)))
    else:
        shown = [c for c in result.candidates if c.status == EXACT] if not args.all else result.candidates
    shown = shown[: args.top] if args.top else shown
    headers = ("move", "win %", "status", "wins when the bag holds", "loses when the bag holds")
    if estimating:
        headers = ("move", "win % (estimate)", "racks valued", "status")
    rows = []
    for c in shown:
        if estimating:
            rows.append((str(c.move), _win(c), f"{c.worlds_valued}/{result.worlds}", c.status))
            continue
        win = _percent(c.win) if c.win is not None else f"{_percent(c.win_low)}–{_percent(c.win_high)}"
        wins = sorted({bag for bag, _r, _w, o in c.worlds if o == 1})
        loses = sorted({bag for bag, _r, _w, o in c.worlds if o == 0})
        rows.append((str(c.move), win, c.status, " ".join(wins), " ".join(loses)))
    _print_columns(headers, rows)
    if result.best_index is not None and estimating:
        best = result.best
        verdict = "the last round done" if result.complete else "the best so far"
        print(f"best: {best.move}, wins {_win(best)} (estimated from {best.worlds_valued} of "
              f"{result.worlds} racks the opponent may hold, later moves while the bag holds tiles "
              f"by equity; {verdict})")  # fmt: skip
    elif result.best_index is not None:
        verdict = "exact" if result.complete else "the best so far (not every candidate valued)"
        average = "" if spread is None else f", expected final spread {float(spread):+.1f}"
        print(f"best: {result.best.move}, wins {_percent(result.best.win)}% ({verdict}){average}")
    ruled = sum(1 for c in result.candidates if c.status == "ruled out")
    valued = sum(1 for c in result.candidates if c.status in (ESTIMATED, "dropped"))
    how = f"the first {valued} by successive halving" if estimating else f"{ruled} ruled out"
    print(
        f"{result.bag} in the bag, {result.worlds} racks the opponent may hold; {len(result.candidates)} "
        f"candidates, {how}; {result.endgames:,} endgames, {result.nodes:,} positions in "
        f"{result.elapsed:.2f} s ({result.reason})"
    )
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "peg",
        help="solve a pre-endgame (1 to 6 tiles in the bag)",
        description="For every play and the pass of the player to move, the probability of winning "
        "(a tie counts half) over every rack the opponent may hold and every order of the bag, both "
        "sides choosing their best on what they can see, to the exact endgame (docs/preendgame.md). "
        "Candidates go in equity order; one that cannot beat the best is ruled out. The opponent's "
        "rack in the position is ignored.",
        epilog='Example: gaddag-solver peg --cgp "<board> AEINRST/ 350/362 0 lex CSW21;" --time 60',
    )
    position_arguments(p)
    p.add_argument(
        "--time", type=_seconds, metavar="SECONDS", help="stop after this long (the standing then)"
    )
    p.add_argument("--top", type=_count, default=10, help="candidates shown (default 10; 0: all)")
    p.add_argument("--all", action="store_true", help="show ruled-out candidates too, with their bounds")
    threads_argument(p, "threads valuing candidates together (the exact method)")
    p.add_argument(
        "--method",
        choices=("auto", "exact", "halving"),
        default="auto",
        help="exact: every candidate's exact chance of winning; halving: an estimate by successive halving "
        "(a sample of the racks, later moves by equity while the bag holds tiles); auto (default): exact "
        "with 1 or 2 in the bag, halving from 3 (--seed orders the racks it samples)",
    )
    p.add_argument(
        "--no-spread", action="store_true", help="skip the best move's expected final spread (exact endgames)"
    )
    p.set_defaults(run=cmd_peg)
