"""Solving a position: its moves (as dicts, or as the core's records for web/moves.js to read), and
one play judged."""

from __future__ import annotations

import time
from typing import Any

from ..alphabet import AlphabetError
from ..board import position_warnings
from ..game.verdict import judge, judge_tiles
from ..move import MOVE_RECORD
from ..solver import DIRECTIONS, ENGINES
from ..unseen import unseen
from ._base import ApiError, _board, _choice, _error, _flag, _rack, _whole
from .loaded import (
    _leave_table,
    _lexicon,
    _solver,
    get_rules,
)

RECORD_SIZE = MOVE_RECORD.size
RECORD_LAYOUT = (
    "<ii6B2x32s: int32 score; int32 equity (1/100 point); uint8 row, col, direction (0 across), length, "
    "tiles_placed, kind (0 play, 1 exchange, 2 pass); word[32]"
)


def solve(request: dict[str, Any]) -> dict[str, Any]:
    """The moves of a position.

    request: ``lexicon`` (a loaded lexicon's name), ``rules`` (ruleset name), ``board`` (rows as
    text), ``rack`` (text, ``?`` for a blank), ``format`` (``"moves"``, the default, or
    ``"records"``), ``top`` (moves format only: the best ``top``; default all); ``leaves`` (a
    loaded leave table's name, or null: moves are then valued by equity and ranked by it),
    ``exchanges`` (true: also every distinct exchange, while the bag holds at least the
    ruleset's ``exchange_minimum``, and the pass), ``bag`` (tiles in the bag, when the unseen
    tiles do not tell: :meth:`Solver.valuation`), ``engine`` (``"gaddag"``, the default, or
    ``"dawg"``: Appel & Jacobson's generator, plays by score only), ``direction`` (``"both"``,
    the default, ``"across"`` or ``"down"``).

    Returns ``count`` (every move), ``ms`` (``parse``, ``generate``, ``total``), ``rack`` (the
    rack's tiles), ``warnings`` (an unusual position: floating tiles, which are solved all the
    same, or more Z tiles than the bag holds),
    ``unseen`` (:meth:`Unseen.to_dict` of the position), ``valued`` (the moves carry equity:
    a table or exchanges were asked for), ``by_equity`` (ranked by equity: a table was),
    ``leaves`` (the table's name or null), ``exchanges``, ``bag`` (the bag the moves were
    valued with) and ``exchange_minimum``; and either ``moves`` (dicts, best first) or
    ``records`` (bytes: ``count`` gd_move records of ``record_size`` bytes, unsorted).
    """
    try:
        started = time.perf_counter()
        if not isinstance(request, dict):
            raise ApiError("the request must be an object", "request")
        kind = request.get("format", "moves")
        if kind not in ("moves", "records"):
            raise ApiError(f"format must be 'moves' or 'records', not {kind!r}", "request")
        engine = _choice(request, "engine", ENGINES)
        direction = _choice(request, "direction", DIRECTIONS)
        solver = _solver(request.get("lexicon"), request.get("rules"), engine)
        rules = solver.rules
        table = _leave_table(request.get("leaves"), rules)
        if engine == "dawg" and (table is not None or exchanges_asked(request)):
            raise ApiError(
                "the dawg engine values plays by score only: choose no leave table, no exchanges", "engine"
            )
        exchanges = _flag(request, "exchanges")
        bag = _whole(request, "bag")
        board = _board(request.get("board"), rules)
        rack = _rack(request.get("rack"), rules)
        tiles_unseen = unseen(board, rack, rules)
        valuation = solver.valuation(board, rack, leaves=table, exchanges=exchanges, bag=bag)
        parsed = time.perf_counter()
        out: dict[str, Any] = {
            "rack": list(rack.tiles),
            "warnings": position_warnings(board, rack, rules),
            "unseen": tiles_unseen.to_dict(),
            "valued": valuation is not None,
            "by_equity": valuation is not None and valuation.by_equity,
            "leaves": None if table is None else request["leaves"],
            "exchanges": exchanges,
            "bag": tiles_unseen.bag if bag is None else bag,
            "exchange_minimum": rules.exchange_minimum,
        }
        if kind == "records":
            count, records = solver.solve_raw(board, rack, None, valuation, direction)
            generated = time.perf_counter()
            out.update(count=count, records=records, record_size=RECORD_SIZE)
        else:
            top = _whole(request, "top")
            count, moves = solver.solve_counted(
                board, rack, top, warn=False, leaves=table, exchanges=exchanges, bag=bag, direction=direction
            )
            generated = time.perf_counter()
            out.update(count=count, moves=[move_dict(move) for move in moves])
        finished = time.perf_counter()
        out["ms"] = {
            "parse": (parsed - started) * 1e3,
            "generate": (generated - parsed) * 1e3,
            "total": (finished - started) * 1e3,
        }
        return out
    except ApiError as exc:
        return _error(exc.message, exc.field)


def exchanges_asked(request: dict[str, Any]) -> bool:
    return request.get("exchanges") is True


def judge_play(request: dict[str, Any]) -> dict[str, Any]:
    """Whether a play is legal on a position, why not, and its score per word and per tile.

    request: ``lexicon``, ``rules``, ``board`` (rows, as for :func:`solve`: the board before the
    play), ``rack`` (text; empty: the tiles are not checked), and either ``play`` (a square and a
    word, ``"8D QUIXOTE"``) or ``tiles`` (``[[row, col, letter, blank], ...]``, rows and columns
    from 0). Returns :meth:`Verdict.to_dict`."""
    try:
        rules = get_rules(request.get("rules"))
        lexicon = _lexicon(request.get("lexicon"))
        board = _board(request.get("board"), rules)
        rack_text = request.get("rack") or ""
        rack = _rack(rack_text, rules) if isinstance(rack_text, str) and rack_text.strip() else None
        if "play" in request:
            if not isinstance(request["play"], str):
                raise ApiError("play must be text: a square and a word, e.g. 8D QUIXOTE", "play")
            return judge(board, request["play"], lexicon, rack).to_dict()
        tiles = request.get("tiles")
        if not isinstance(tiles, list) or not all(
            isinstance(t, list) and len(t) == 4 and type(t[0]) is int and type(t[1]) is int
            and isinstance(t[2], str) and isinstance(t[3], bool) for t in tiles
        ):  # fmt: skip
            raise ApiError("tiles must be a list of [row, col, letter, blank]", "tiles")
        try:
            placed = [
                (r, c, rules.alphabet.letters[rules.alphabet.code(letter) - 1], blank)
                for r, c, letter, blank in tiles
            ]
        except AlphabetError as exc:
            raise ApiError(str(exc), "tiles") from None
        return judge_tiles(board, placed, lexicon, rack).to_dict()
    except ApiError as exc:
        return _error(exc.message, exc.field)


def move_dict(move: Any) -> dict[str, Any]:
    """A Move as the page shows it: to_dict() plus the tiles placed and the word's length."""
    out = move.to_dict()
    out["tiles"] = [[row, col, letter, blank] for row, col, letter, blank in move.tiles]
    out["length"] = move.length
    return out
