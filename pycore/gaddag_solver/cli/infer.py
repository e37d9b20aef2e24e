"""``gaddag-solver infer``: what the opponent kept with their last move (docs/inference.md)."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..game.infer import DEFAULT_MAX_RACKS, DEFAULT_TOLERANCE, InferenceError, infer_written
from ._common import EXIT_USAGE, _at_least_one, _dumps, _error, _print_columns
from ._lookahead import _lookahead_game


def cmd_infer(args: argparse.Namespace) -> int:
    """Infer the opponent's leave from their last move on the position given."""
    args.opponent_rack = None
    game, _rules, table = _lookahead_game(args)
    started = time.perf_counter()
    try:
        inference = infer_written(
            game, args.last_move, leaves=table, tolerance=args.tolerance, max_racks=args.max_racks,
            seed=args.seed,
        )  # fmt: skip
    except InferenceError as exc:
        return _error(str(exc), EXIT_USAGE)
    elapsed = time.perf_counter() - started
    if args.format == "json":
        data = inference.to_dict(args.top)
        data["seconds"] = round(elapsed, 3)
        print(_dumps(data))
        return 0
    if not inference.informative:
        print(f"{inference.move}: {inference.reason}; every rack stays as likely as its draw")
        return 0
    how = (
        f"every one of {inference.racks} racks valued"
        if inference.exhaustive
        else f"{inference.racks} racks drawn at random, worth {inference.effective_racks:.0f} equal ones"
    )
    print(
        f"{inference.move}: {inference.consistent} of the racks fit it within {inference.tolerance:g} points "
        f"of their best ({how}, {elapsed:.2f} s)"
    )
    rows = [
        (
            str(i),
            leave.tiles or "(nothing)",
            f"{100 * leave.probability:.1f}",
            _error_cell(inference, leave.probability),
        )
        for i, leave in enumerate(inference.leaves[: args.top], 1)
    ]
    _print_columns(("rank", "leave kept", "%", "±95%"), rows)
    print()
    letters = [
        (letter, f"{100 * inference.kept[letter]:.1f}", f"{100 * inference.holds[letter]:.1f}")
        for letter in sorted(inference.holds, key=lambda k: -inference.holds[k])
    ]
    _print_columns(("letter", "kept %", f"on the rack now % (after drawing {inference.drawn})"), letters)
    return 0


def _error_cell(inference: Any, probability: float) -> str:
    error = 1.96 * inference.stderr(probability)
    return "exact" if inference.exhaustive else f"{100 * error:.1f}"


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "infer",
        help="what the opponent likely kept, from their last move",
        description="Value every rack the opponent could have held before their last move (or a "
        "sample of them when there are too many) and keep those whose best move by static equity "
        "the move was within --tolerance points of: the leaves they may have kept, with their "
        "probabilities, and per letter the chance they hold it now (docs/inference.md).",
        epilog='Example: gaddag-solver infer --cgp "15/15/15/15/15/15/15/3HEJRA7/15/15/15/15/15/15/15 '
        'AEINRST/ 38/0 0 lex sowpods;" --last-move "8D HEJRA"',
    )
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the CGP's, the ruleset's)")
    p.add_argument("--rules", help="ruleset name or .json path (default english)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--cgp", metavar="LINE", help="the position after the move, as one CGP line")
    source.add_argument(
        "--board", metavar="FILE", help="the board after the move, as a grid (see `solve --board`)"
    )
    p.add_argument("--rack", help="your rack (the player to move now)")
    p.add_argument(
        "--last-move",
        required=True,
        metavar="MOVE",
        help="the opponent's last move: a square and a word, letters already on the board before it in "
        "parentheses (8D W(O)RD), 'exch N' or 'pass'",
    )
    p.add_argument(
        "--leaves",
        metavar="NAME|PATH",
        help="the table the opponent values leaves by (default: the lexicon's own)",
    )
    p.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        metavar="POINTS",
        help=f"a rack fits the move when its best beats it by at most this (default {DEFAULT_TOLERANCE:g})",
    )
    p.add_argument(
        "--max-racks",
        type=_at_least_one,
        default=DEFAULT_MAX_RACKS,
        metavar="N",
        help=f"value every rack when at most N, else draw N at random (default {DEFAULT_MAX_RACKS})",
    )
    p.add_argument("--top", type=_at_least_one, default=10, help="leaves shown (default 10)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the random draws (default 0)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(run=cmd_infer)
