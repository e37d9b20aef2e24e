"""GCG export: a finished game as John Chew's .gcg text (export only, for now).

The format (poslfit.com/scrabble/gcg): pragma lines (``#player1 NICK FULL NAME``), then one
event line per turn::

    >Nick: RACK 8D WORD +score total      a play: across "8D" (row, column), down "D8"
    >Nick: RACK -TILES +0 total           an exchange
    >Nick: RACK - +0 total                a pass
    >Nick: (RACK) +N total                the end: tiles left on the opponent's rack ...
    >Nick: (RACK) -N total                ... or on one's own

In WORD, a tile already on the board is written ``.`` and a blank in lower case; in a rack a
blank is ``?``. ``total`` is the player's score after the event.
"""

from __future__ import annotations

import re

from .. import _core_api as core
from ..board import column_name
from ..rules import Rules

BLANK = "?"
_ON_BOARD = 64
_BLANK_FLAG = 128
_LETTER = 63
_NICK_RE = re.compile(r"[^\w:.#-]+")


def nickname(name: str) -> str:
    """A player's name as one GCG token (no white space)."""
    return _NICK_RE.sub("_", name.strip()) or "player"


def _tiles(codes: bytes, rules: Rules) -> str:
    """Rack tiles (codes, 0 a blank) as text: letters in code order, then the blanks."""
    letters = rules.alphabet.letters
    return "".join(letters[c - 1] for c in codes if c) + BLANK * codes.count(0)


def _word(codes: bytes, rules: Rules) -> str:
    letters = rules.alphabet.letters
    out = []
    for code in codes:
        if code & _ON_BOARD:
            out.append(".")
        else:
            letter = letters[(code & _LETTER) - 1]
            out.append(letter.lower() if code & _BLANK_FLAG else letter)
    return "".join(out)


def coordinate(row: int, col: int, direction: int) -> str:
    """GCG's square of a play: across row then column ("8D"), down column then row ("D8")."""
    if direction == core.lib.GD_ACROSS:
        return f"{row + 1}{column_name(col)}"
    return f"{column_name(col)}{row + 1}"


def _points(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def format_gcg(game: core.PlayedGame, rules: Rules, names: tuple[str, str], title: str | None = None) -> str:
    """The game as GCG text; names[0] is the player who moved first (seat 0)."""
    nicks = tuple(nickname(name) for name in names)
    lines = ["#character-encoding UTF-8"]
    for seat in (0, 1):
        lines.append(f"#player{seat + 1} {nicks[seat]} {names[seat].strip() or nicks[seat]}")
    if title:
        lines.append(f"#title {title}")
    totals = [0, 0]
    for turn in game.turns:
        rack = _tiles(turn.rack, rules)
        if turn.kind == core.lib.GD_PLAY:
            what = f"{coordinate(turn.row, turn.col, turn.direction)} {_word(turn.word, rules)}"
        elif turn.kind == core.lib.GD_EXCHANGE:
            what = f"-{_tiles(turn.word, rules)}"
        else:
            what = "-"
        totals[turn.player] = turn.total
        lines.append(f">{nicks[turn.player]}: {rack} {what} {_points(turn.score)} {turn.total}")
    # the end: a player who went out gains the opponent's tiles; tiles left on a rack cost
    for gaining in (True, False):
        for seat in (0, 1):
            adjustment = game.end_adjustments[seat]
            if gaining != (adjustment > 0) or (adjustment == 0 and not game.racks[seat]):
                continue
            tiles = game.racks[1 - seat] if gaining else game.racks[seat]
            totals[seat] += adjustment
            lines.append(f">{nicks[seat]}: ({_tiles(tiles, rules)}) {_points(adjustment)} {totals[seat]}")
    return "\n".join(lines) + "\n"
