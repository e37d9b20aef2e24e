"""``gaddag-solver score``: is a play legal, and what does it score, word by word and tile by tile?"""

from __future__ import annotations

import argparse
from typing import Any

from ..board import Board
from ..formats.cgp import parse_cgp
from ..rack import Rack
from ..rules import Rules
from ._common import EXIT_FAILURE
from ._output import _write_json
from ._positions import _Lexicons, _text_lines


def cmd_score(args: argparse.Namespace) -> int:
    """Is a play legal on a position, and what does it score, word by word and tile by tile?"""
    from ..game.verdict import judge

    rules = Rules.load(args.rules or "english")
    lexicons = _Lexicons(rules, args.lexicon)
    if args.cgp is not None:
        position = parse_cgp(args.cgp, rules)
        board, rack = position.board, position.rack
        if args.rack is not None:
            rack = Rack(args.rack, rules)
        lexicon = lexicons.get(position.lexicon)
    else:
        lines = [
            "".join(line.split())
            for line in _text_lines(args.board)
            if isinstance(line, str) and line.strip()
        ]
        rack_text = args.rack if args.rack is not None or len(lines) <= rules.rows else lines[rules.rows]
        board = Board.from_rows(lines[: rules.rows], rules)
        rack = Rack(rack_text, rules) if rack_text is not None else None
        lexicon = lexicons.get()
    verdict = judge(board, " ".join(args.play), lexicon, rack if rack is None or str(rack) else None)
    if args.json:
        _write_json(verdict.to_dict(), 2)
        print()
        return 0 if verdict.legal else EXIT_FAILURE
    print(f"{verdict.play}: {'legal' if verdict.legal else 'not legal'}")
    for reason in verdict.reasons:
        print(f"  - {reason}")
    for word in verdict.words:
        letters = " + ".join(
            f"{x.letter}{x.value}" + (f"×{x.letter_premium}" if x.letter_premium > 1 else "")
            for x in word.letters
        )
        premium = f" ×{word.word_premium}" if word.word_premium > 1 else ""
        mark = "" if word.in_lexicon else "  (not a word)"
        print(f"  {word.word:<15} {word.coord:<4} ({letters}){premium} = {word.score}{mark}")
    for tile in verdict.tiles:
        premiums = f" ×{tile.letter_premium} letter" if tile.letter_premium > 1 else ""
        premiums += f" ×{tile.word_premium} word" if tile.word_premium > 1 else ""
        print(f"  tile {tile.letter} on {tile.square}: {tile.value}{premiums} → {tile.points}")
    if verdict.move is not None:
        bingo = f" (bingo bonus {verdict.bingo} included)" if verdict.bingo else ""
        print(
            f"  score {verdict.score}{bingo}"
            + (f", leave {verdict.leave or '-'}" if verdict.leave is not None else "")
        )
    return 0 if verdict.legal else EXIT_FAILURE


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help="is a play legal, and what does it score (per word, per tile)?",
        description="Check a play written as players write it (a square and a word: 8D QUIXOTE across, "
        "D8 QUIXOTE down; letters on the board plain or in parentheses; a blank in lower case) on a "
        "position: legal or not and exactly why, and its score per word and per tile with the bingo "
        "bonus. The exit status is 1 for a play that is not legal.",
        epilog='Example: gaddag-solver score --lexicon sowpods --cgp "15/15/15/15/7Q7/7U7/7E7/3FLOWERs5/'
        '7N1I5/9Z5/8VEX4/15/15/15/15 AEIRSTU/ 0/0 0" E5 URALITES',
    )
    p.add_argument("play", nargs="+", metavar="PLAY", help="the square and the word, e.g. 8D QUIXOTE")
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the CGP's, else the ruleset's)")
    p.add_argument("--rules", help="ruleset name or .json path (default english)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--board", metavar="FILE", help="the board as a grid ('.' empty, lower case blanks)")
    source.add_argument("--cgp", metavar="LINE", help="the position as one CGP line")
    p.add_argument("--rack", help="the rack (default: the CGP's; without one the tiles are not checked)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(run=cmd_score)
