"""The position being edited: its unseen tiles, its words the lexicon lacks, and CGP in and out
(the board need not be a legal position yet)."""

from __future__ import annotations

from typing import Any

from ..board import Board, PositionError
from ..board_words import board_words
from ..formats.cgp import Position
from ..formats.cgp import format_cgp as _format_cgp
from ..formats.cgp import parse_cgp as _parse_cgp
from ..limits import score_problem
from ..rack import Rack, RackError
from ..rules import Rules
from ..unseen import unseen
from ._base import ApiError, _board, _error
from .loaded import (
    _lexicon,
    get_rules,
)


def _position_being_edited(request: dict[str, Any]) -> tuple[Rules, Board, Rack]:
    """The ruleset, board and rack of a request about a position still being typed in: letters
    must be known, but the board need not be connected and the rack may be empty."""
    rules = get_rules(request.get("rules"))
    board = _board(request.get("board"), rules)
    rack_text = request.get("rack") or ""
    if not isinstance(rack_text, str):
        raise ApiError("the rack must be text", "rack")
    try:
        return rules, board, Rack(rack_text, rules)
    except RackError as exc:
        raise ApiError(str(exc), "rack") from None


def unseen_tiles(request: dict[str, Any]) -> dict[str, Any]:
    """``{"rules", "board", "rack"}`` → :meth:`Unseen.to_dict` of the position, for the page's
    panel while the position is edited: the board need not be a legal position yet (a floating
    tile counts), the rack may be empty; ``exchange_minimum`` is added."""
    try:
        rules, board, rack = _position_being_edited(request)
        out = unseen(board, rack, rules).to_dict()
        out["exchange_minimum"] = rules.exchange_minimum
        return out
    except ApiError as exc:
        return _error(exc.message, exc.field)


def check_board(request: dict[str, Any]) -> dict[str, Any]:
    """``{"lexicon", "rules", "board"}`` → the runs of tiles on the board (``words``: how many)
    and those the lexicon does not hold (``unknown``: BoardWord.to_dict() each), for the page's
    warning while a position is edited (the board need not be connected)."""
    try:
        rules = get_rules(request.get("rules"))
        board = _board(request.get("board"), rules)
        lexicon = _lexicon(request.get("lexicon"))
        words = board_words(board)
        unknown = [word for word in words if word.spelled not in lexicon]
        return {"words": len(words), "unknown": [word.to_dict() for word in unknown]}
    except ApiError as exc:
        return _error(exc.message, exc.field)


def parse_cgp(request: dict[str, Any]) -> dict[str, Any]:
    """``{"cgp": line, "rules": name}`` → ``{"board": rows, "rack": text, "lexicon": the lex
    opcode or None, "scores": [a, b]}``."""
    try:
        rules = get_rules(request.get("rules"))
        line = request.get("cgp")
        if not isinstance(line, str) or not line.strip():
            raise ApiError("paste a CGP line first", "cgp")
        try:
            position = _parse_cgp(line, rules)
        except PositionError as exc:
            raise ApiError(str(exc), "cgp") from None
        return {
            "board": position.board.to_rows(),
            "rack": str(position.rack),
            "lexicon": position.lexicon,
            "scores": list(position.scores),
        }
    except ApiError as exc:
        return _error(exc.message, exc.field)


def format_cgp(request: dict[str, Any]) -> dict[str, Any]:
    """``{"board": rows, "rack": text, "rules": name, "lexicon": name, "scores": [the player
    to move's, the opponent's] (default 0, 0)}`` → ``{"cgp": line}``. The board need not be a
    legal position yet (floating tiles are exported as they are)."""
    try:
        rules, board, rack = _position_being_edited(request)
        lexicon = request.get("lexicon")
        opcodes = {"lex": lexicon} if isinstance(lexicon, str) and lexicon else {}
        scores = request.get("scores", [0, 0])
        whole = isinstance(scores, list) and len(scores) == 2
        if not whole or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores):
            raise ApiError(f"scores must be two whole numbers, not {scores!r}", "request")
        for score, which in zip(scores, ("the player to move's score", "the opponent's score"), strict=True):
            problem = score_problem(score, which)
            if problem:
                raise ApiError(problem, "request")
        return {"cgp": _format_cgp(Position(board, rack, None, (scores[0], scores[1]), 0, opcodes))}
    except ApiError as exc:
        return _error(exc.message, exc.field)
