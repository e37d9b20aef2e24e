"""Games: a recorded game (GCG) replayed and reviewed, and a game played on the page exported as GCG."""

from __future__ import annotations

from typing import Any

from ..board import Board
from ..formats.gcg import (
    EXCHANGE,
    PASS,
    PLAY,
    GcgError,
    GcgEvent,
    GcgGame,
    GcgIssue,
    decode_gcg,
    nickname,
    parse_gcg,
)
from ..game.replay import Replay, lexicon_for, read_play
from ..game.review import review_replay
from ..rack import Rack, RackError
from ._base import ApiError, _as_bytes, _error, _placed
from .loaded import (
    _leave_table,
    _lexicon,
    get_rules,
)


def _gcg_text(request: dict[str, Any], data: Any) -> tuple[str, list[GcgIssue]]:
    """The GCG text of a request: a file's bytes (``data``, decoded as the file says) or ``gcg``."""
    if data is not None:
        try:
            return decode_gcg(_as_bytes(data, "gcg"), request.get("name") or "<gcg>")
        except GcgError as exc:
            raise ApiError(str(exc), "gcg") from None
    text = request.get("gcg")
    if not isinstance(text, str) or not text.strip():
        raise ApiError("open a .gcg file or paste its text first", "gcg")
    return text, []


def _issue(issue: GcgIssue) -> dict[str, Any]:
    return {"line": issue.line, "message": issue.message, "text": str(issue)}


def _best_tiles(board: Board, best: str) -> list[list[Any]]:
    """The tiles of a best move as the review writes it (``8D WORD``; none for the others)."""
    coord, _, word = best.partition(" ")
    if not word or coord == "exchange":
        return []
    move, _problems = read_play(board, coord, word)
    return _placed(move)


def review_gcg(request: dict[str, Any], data: Any = None) -> dict[str, Any]:
    """A GCG game replayed with a loaded lexicon and reviewed with a loaded leave table.

    request: ``gcg`` (the text, unless the file's bytes come as ``data``), ``lexicon``,
    ``rules``, ``leaves`` (a table's name, or null: every leave worth 0), ``name`` (the file's
    name, for messages). Returns ``players`` ([{nick, name, score}]), ``title``, ``lexicon`` and
    ``leaves`` used, ``declared_lexicon`` (the file's ``#lexicon``) with ``suggested_lexicon``
    (ours for it), ``turns`` (one per event: ``index``, ``line``, ``player``, ``nick``, ``kind``,
    ``rack``, ``what`` (the move as written), ``score``, ``total``, ``board`` (rows before it),
    ``scores`` (before) and ``scores_after``, ``tiles`` (placed), ``problems``, ``review`` (the
    TurnReview's dict with ``best_tiles``, or null) and ``skipped`` (why not reviewed, or null)),
    ``final`` ({board, scores}), ``warnings`` ([{line, message, text}]), ``summary`` (per player)
    and ``gcg`` (the game written back as GCG text). A file that is not GCG at all is an error
    with ``field`` ``"gcg"``; anything else wrong is a warning with its line.
    """
    try:
        rules = get_rules(request.get("rules"))
        lexicon = _lexicon(request.get("lexicon"))
        table = _leave_table(request.get("leaves"), rules)
        name = request.get("name") if isinstance(request.get("name"), str) else "<gcg>"
        text, issues = _gcg_text(request, data)
        try:
            gcg = parse_gcg(text, name or "<gcg>")
        except GcgError as exc:
            raise ApiError(str(exc), "gcg") from None
        gcg.warnings[:0] = issues
        suggested, note = lexicon_for(gcg.lexicon, None)
        try:
            replay = Replay(gcg, lexicon, rules)
        except GcgError as exc:
            raise ApiError(str(exc), "gcg") from None
        review = review_replay(replay, table, str(request.get("leaves") or "none"))
        by_turn = {turn.turn: turn for turn in review.turns}
        skipped = {line: why for line, _nick, why in review.skipped}
        turns = []
        for turn in replay.turns:
            reviewed = by_turn.get(turn.index)
            entry = None
            if reviewed is not None:
                entry = reviewed.to_dict()
                entry["best_tiles"] = _best_tiles(turn.board, reviewed.best)
            turns.append(
                {
                    "index": turn.index,
                    "line": turn.line,
                    "player": turn.player,
                    "nick": turn.nick,
                    "kind": turn.kind,
                    "rack": turn.event.rack,
                    "what": turn.event.what(),
                    "score": turn.event.score,
                    "total": turn.event.total,
                    "board": turn.board.to_rows(),
                    "scores": list(turn.scores),
                    "scores_after": list(turn.scores_after),
                    "tiles": _placed(turn.move) if turn.kind == PLAY else [],
                    "problems": list(turn.problems),
                    "note": turn.event.note,
                    "review": entry,
                    "skipped": skipped.get(turn.line) if entry is None else None,
                }
            )
        return {
            "players": [
                {"nick": nick, "name": full, "score": replay.scores[seat]}
                for seat, (nick, full) in enumerate(replay.players)
            ],
            "title": gcg.title,
            "lexicon": request.get("lexicon"),
            "leaves": request.get("leaves"),
            "declared_lexicon": gcg.lexicon,
            "suggested_lexicon": suggested if gcg.lexicon else None,
            "lexicon_note": note,
            "turns": turns,
            "final": {"board": replay.board.to_rows(), "scores": list(replay.scores)},
            "warnings": [_issue(issue) for issue in replay.warnings],
            "summary": [player.to_dict() for player in review.players],
            "gcg": _naming_lexicon(replay.to_gcg(), gcg.lexicon, request.get("lexicon")),
        }
    except ApiError as exc:
        return _error(exc.message, exc.field)


def _naming_lexicon(text: str, declared: str, used: object) -> str:
    """The game written back: a file that names no lexicon gets ``#lexicon`` the one it was
    reviewed with (every GCG we write names its lexicon)."""
    if declared or not isinstance(used, str) or not used:
        return text
    game = parse_gcg(text)
    game.lexicon = used
    return game.to_text()


def _text_field(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key) or ""
    if not isinstance(value, str):
        raise ApiError(f"{where}: {key} must be text, not {value!r}", "request")
    return value.strip()


def export_gcg(request: dict[str, Any]) -> dict[str, Any]:
    """A game played on the page as GCG text, replayed to check it.

    request: ``rules``, ``players`` (two names; default Player1, Player2, the first moving
    first), ``lexicon`` (a loaded lexicon's name to check the words with and name in
    ``#lexicon``; optional), ``title``, ``events``: the turns in order, alternating players,
    each ``{"kind": "play" | "exchange" | "pass", "rack", "coord", "word", "score",
    "exchanged"}`` (``word`` as GCG writes it: ``.`` for a tile already on the board, lower
    case for a blank). Returns ``gcg`` (the text) and ``warnings`` (what the replay of that text
    finds, with line numbers: a hand edit of the board between plays shows up there).
    """
    try:
        rules = get_rules(request.get("rules"))
        events = request.get("events")
        if not isinstance(events, list) or not events:
            raise ApiError("no move has been played on this page yet: Play moves from the list first", "gcg")
        names = request.get("players") or ["Player1", "Player2"]
        if not isinstance(names, list) or len(names) != 2 or not all(isinstance(n, str) for n in names):
            raise ApiError("players must be two names", "request")
        nicks = [nickname(name) if name.strip() else f"Player{seat + 1}" for seat, name in enumerate(names)]
        if nicks[0] == nicks[1]:
            nicks[1] += "_2"
        game = GcgGame(
            players=[(nick, name.strip() or nick) for nick, name in zip(nicks, names, strict=True)]
        )
        lexicon_name = request.get("lexicon")
        lexicon = _lexicon(lexicon_name) if lexicon_name else None
        if lexicon is not None:
            game.lexicon = str(lexicon_name)
        title = request.get("title")
        game.title = title.strip() if isinstance(title, str) else ""
        totals = [0, 0]
        for number, entry in enumerate(events, 1):
            where = f"move {number}"
            if not isinstance(entry, dict):
                raise ApiError(f"{where} must be an object", "request")
            seat = (number - 1) % 2
            kind = entry.get("kind")
            rack_text = _text_field(entry, "rack", where)
            try:
                rack = str(Rack(rack_text, rules)) if rack_text else ""
            except RackError as exc:
                raise ApiError(f"{where}: {exc}", "rack") from None
            if kind == PLAY:
                score = entry.get("score")
                if isinstance(score, bool) or not isinstance(score, int):
                    raise ApiError(f"{where}: the score must be a whole number, not {score!r}", "request")
                coord, word = _text_field(entry, "coord", where), _text_field(entry, "word", where)
                if not coord or not word:
                    raise ApiError(f"{where}: a play needs a square and a word", "request")
                totals[seat] += score
                event = GcgEvent(0, nicks[seat], PLAY, rack, score, totals[seat], coord, word)
            elif kind == EXCHANGE:
                tiles = _text_field(entry, "exchanged", where)
                try:
                    tiles = str(Rack(tiles, rules))
                except RackError as exc:
                    raise ApiError(f"{where}: {exc}", "rack") from None
                event = GcgEvent(
                    0,
                    nicks[seat],
                    EXCHANGE,
                    rack,
                    0,
                    totals[seat],
                    exchanged=tiles,
                    exchange_count=len(tiles),
                )
            elif kind == PASS:
                event = GcgEvent(0, nicks[seat], PASS, rack, 0, totals[seat])
            else:
                raise ApiError(f"{where}: kind must be play, exchange or pass, not {kind!r}", "request")
            game.events.append(event)
        text = game.to_text()
        replay = Replay(parse_gcg(text), lexicon, rules)
        return {"gcg": text, "warnings": [_issue(issue) for issue in replay.warnings]}
    except ApiError as exc:
        return _error(exc.message, exc.field)
