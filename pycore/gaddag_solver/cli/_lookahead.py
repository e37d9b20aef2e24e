"""What the look-ahead commands (``sim``, ``endgame``, ``peg``) share: the position they read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..board import PositionError, position_warnings
from ..formats.cgp import parse_cgp
from ..rack import Rack
from ..rules import Rules
from ._common import NO_TABLE, _at_least_one
from ._positions import _board_position, _Lexicons


def _lookahead_game(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(the Game of the position, the rules, the leave table or None) from --cgp or --board/--rack,
    --opponent-rack and --leaves. The player to move is player 0."""
    from ..formats.leaves import Leaves, LeavesError, default_leaves
    from ..game.play import Game

    rules = Rules.load(args.rules or "english")
    lexicons = _Lexicons(rules, args.lexicon)
    scores: tuple[int, int] = (0, 0)
    zero_turns = 0
    opponent = None
    named = args.lexicon  # the lexicon used, by name or path: its leave table is the default
    if args.cgp is not None:
        position = parse_cgp(args.cgp, rules)
        board, rack = position.board, position.rack
        opponent = position.opponent_rack or None
        scores, zero_turns = position.scores, position.zero_turns
        if args.rack is not None:
            rack = Rack(args.rack, rules)
        lexicon = lexicons.get(position.lexicon)
        named = named or position.lexicon
    else:
        board, rack = _board_position(args.board, args.rack, rules)
        lexicon = lexicons.get()
    if args.opponent_rack is not None:
        opponent = Rack(args.opponent_rack, rules)
    for message in position_warnings(board, rack, rules):
        print(f"warning: {message}", file=sys.stderr)
    table = None
    name = args.leaves
    if not name:
        name = default_leaves(
            Path(named or rules.default_lexicon or "").name.removesuffix(".gaddag"), rules.name
        )
    if name and name.lower() != NO_TABLE:
        try:
            table = Leaves.load(name, rules)
        except LeavesError as exc:
            raise PositionError(f"--leaves: {exc}") from None
    game = Game.from_board(board, rack, lexicon, opponent, scores, zero_turns, seed=args.seed)
    return game, rules, table


def position_arguments(p: argparse.ArgumentParser) -> None:
    """The position a look-ahead command reads: --cgp or --board and --rack, the opponent's rack,
    the leave table, the seed, the format and progress."""
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the CGP's, the ruleset's)")
    p.add_argument("--rules", help="ruleset name or .json path (default english)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--cgp", metavar="LINE", help="the position as one CGP line (scores included)")
    source.add_argument("--board", metavar="FILE", help="the board as a grid (see `solve --board`)")
    p.add_argument("--rack", help="the rack of the player to move")
    p.add_argument(
        "--opponent-rack",
        metavar="TILES",
        help="the opponent's rack, when known (default: the CGP's second rack; an endgame with none "
        "given takes every unseen tile)",
    )
    p.add_argument(
        "--leaves", metavar="NAME|PATH", help="leave table (default: the lexicon's own; none: zeros)"
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of the random draws (default 0)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--progress", action="store_true", help="show progress when stderr is not a terminal")


def threads_argument(p: argparse.ArgumentParser, what: str) -> None:
    """--threads N of a look-ahead command: ``what`` says what the threads share out."""
    p.add_argument(
        "--threads",
        type=_at_least_one,
        default=1,
        metavar="N",
        help=f"{what}, one per core say (default 1); every exact figure is the same for all N",
    )
