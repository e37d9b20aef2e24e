"""The page's GCG requests (web_api.review_gcg and export_gcg), natively: the review is the
command line's (gaddag_solver.game.review on the same file, lexicon and leave table), turn by
turn; the best move's tiles are the Solver's best; a game exported from the page's moves parses
back to the same events. The browser half is tests/test_web_replay.py.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from gaddag_solver import Board, Game, Lexicon, Rules, web_api
from gaddag_solver.formats.gcg import EXCHANGE, PASS, PLAY, GcgGame, parse_gcg, read_gcg
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.replay import Replay
from gaddag_solver.game.review import review_replay
from gaddag_solver.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "data" / "gcg"
LEXICON_PATH = ROOT / "lexicons" / "sowpods.gaddag"
ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load(LEXICON_PATH, ENGLISH)


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load("sowpods", ENGLISH)


@pytest.fixture(scope="module", autouse=True)
def loaded(leaves: Leaves) -> None:
    assert "error" not in web_api.load_lexicon("sowpods", LEXICON_PATH.read_bytes(), "english")
    assert "error" not in web_api.load_leaves("sowpods", leaves.to_bytes(), "english")


def call(kind: str, request: dict, data: bytes | None = None) -> dict:
    answer, records = web_api.call(kind, json.dumps(request), data)
    assert records is None
    return json.loads(answer)


REQUEST = {"lexicon": "sowpods", "rules": "english", "leaves": "sowpods"}


@pytest.mark.parametrize("name", ["quackle_boys_2006.gcg", "club_night.gcg"])
def test_review_gcg_is_the_native_review(name: str, lexicon: Lexicon, leaves: Leaves) -> None:
    path = GAMES / name
    replay = Replay(read_gcg(path), lexicon, ENGLISH)
    review = review_replay(replay, leaves, "sowpods")
    answer = call("review_gcg", {**REQUEST, "name": name}, path.read_bytes())
    assert "error" not in answer, answer
    assert [(p["nick"], p["name"], p["score"]) for p in answer["players"]] == [
        (nick, full, score) for (nick, full), score in zip(replay.players, replay.scores, strict=True)
    ]
    assert [w["text"] for w in answer["warnings"]] == [str(w) for w in replay.warnings]
    assert [(w["line"], w["message"]) for w in answer["warnings"]] == [
        (w.line, w.message) for w in replay.warnings
    ]
    assert answer["summary"] == [p.to_dict() for p in review.players]
    assert answer["final"] == {"board": replay.board.to_rows(), "scores": list(replay.scores)}
    by_turn = {t.turn: t for t in review.turns}
    skipped = {line: why for line, _nick, why in review.skipped}
    assert len(answer["turns"]) == len(replay.turns)
    for shown, turn in zip(answer["turns"], replay.turns, strict=True):
        assert shown["board"] == turn.board.to_rows()
        assert (shown["line"], shown["nick"], shown["kind"], shown["rack"]) == (
            turn.line,
            turn.nick,
            turn.kind,
            turn.event.rack,
        )
        assert (shown["scores"], shown["scores_after"]) == (list(turn.scores), list(turn.scores_after))
        assert shown["problems"] == turn.problems
        expected = by_turn.get(turn.index)
        if expected is None:
            assert shown["review"] is None
            assert shown["skipped"] == skipped.get(turn.line)
            continue
        got = dict(shown["review"])
        best_tiles = got.pop("best_tiles")
        assert got == expected.to_dict()
        if expected.best_kind == PLAY:
            best = Board.from_rows(turn.board.to_rows(), ENGLISH)
            placed = {(r, c) for r, c, _l, _b in best_tiles}
            assert len(placed) == len(best_tiles) > 0
            assert all(not best.code(r, c) for r, c in placed)
        else:
            assert best_tiles == []
    assert _events(parse_gcg(answer["gcg"])) == _events(replay.gcg)


def _events(game: GcgGame) -> list[dict]:
    return [{k: v for k, v in dataclasses.asdict(e).items() if k != "line"} for e in game.events]


def test_the_best_tiles_are_the_solvers_best(lexicon: Lexicon, leaves: Leaves) -> None:
    path = GAMES / "quackle_boys_2006.gcg"
    replay = Replay(read_gcg(path), lexicon, ENGLISH)
    answer = call("review_gcg", REQUEST, path.read_bytes())
    solver = Solver(lexicon, ENGLISH)
    checked = 0
    for shown, turn in zip(answer["turns"], replay.turns, strict=True):
        if shown["review"] is None or turn.rack is None:
            continue
        best = solver.solve(turn.board, turn.rack, top=1, warn=False, leaves=leaves, exchanges=True)[0]
        assert shown["review"]["best_equity"] == pytest.approx(best.equity)
        if best.kind == PLAY:
            assert shown["review"]["best_tiles"] == [list(tile) for tile in best.tiles]
            checked += 1
    assert checked >= 10


def test_review_gcg_text_is_the_file(lexicon: Lexicon) -> None:
    path = GAMES / "quackle_boys_2006.gcg"
    from_bytes = call("review_gcg", REQUEST, path.read_bytes())
    from_text = call("review_gcg", {**REQUEST, "gcg": path.read_text()})
    assert from_text == from_bytes
    no_table = call("review_gcg", {**REQUEST, "leaves": None, "gcg": path.read_text()})
    replay = Replay(read_gcg(path), lexicon, ENGLISH)
    assert [t["review"]["best"] for t in no_table["turns"] if t["review"]] == [
        t.best for t in review_replay(replay, None).turns
    ]


def test_review_gcg_says_a_declared_lexicon() -> None:
    answer = call("review_gcg", REQUEST, (GAMES / "club_night.gcg").read_bytes())
    assert (answer["declared_lexicon"], answer["suggested_lexicon"]) == ("CSW19", "sowpods")
    plain = call("review_gcg", REQUEST, (GAMES / "quackle_boys_2006.gcg").read_bytes())
    assert plain["suggested_lexicon"] is None


@pytest.mark.parametrize(
    ("request_", "data", "field", "says"),
    [
        ({"gcg": "hello"}, None, "gcg", "not a GCG file"),
        ({"gcg": "  "}, None, "gcg", "open a .gcg file"),
        ({}, b"\0\1binary", "gcg", "binary"),
        ({"gcg": "#player1 a A", "lexicon": "nope"}, None, "lexicon", "unknown lexicon 'nope'"),
        ({"gcg": "#player1 a A", "leaves": "nope"}, None, "leaves", "unknown leave table 'nope'"),
        ({"gcg": "#player1 a A", "rules": "klingon"}, None, "rules", "klingon"),
    ],
)
def test_review_gcg_errors(request_: dict, data: bytes | None, field: str, says: str) -> None:
    answer = call("review_gcg", {**REQUEST, **request_}, data)
    assert answer["field"] == field and says in answer["error"], answer


def test_a_bad_line_is_a_warning_with_its_line() -> None:
    text = "#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +70 70\n>bob: EIKORST 88 TAKE +8 8\n"
    answer = call("review_gcg", {**REQUEST, "gcg": text})
    lines = [(w["line"], w["message"]) for w in answer["warnings"]]
    assert lines[0][0] == 3 and "we score 66" in lines[0][1]
    assert lines[1][0] == 4 and "'88' is not a square" in lines[1][1]
    assert len(answer["turns"]) == 1 and answer["turns"][0]["problems"]


def _page_events(game: GcgGame) -> list[dict]:
    """A game's turns as the page records its Play history (web/app.js recordPlay)."""
    out = []
    for event in game.events:
        if event.kind == PLAY:
            out.append(
                {
                    "kind": PLAY,
                    "rack": event.rack,
                    "coord": event.coord,
                    "word": event.word,
                    "score": event.score,
                }
            )
        elif event.kind == EXCHANGE:
            out.append({"kind": EXCHANGE, "rack": event.rack, "exchanged": event.exchanged})
        elif event.kind == PASS:
            out.append({"kind": PASS, "rack": event.rack})
    return out


def test_export_gcg_round_trips_a_self_played_game(lexicon: Lexicon, leaves: Leaves) -> None:
    game = Game.new(lexicon, seed=3)
    while not game.over:
        game.play(game.best_move(leaves=leaves))
    played = parse_gcg(game.to_gcg(("ann", "bob")))
    events = _page_events(played)
    assert len(events) > 10
    answer = call(
        "export_gcg", {"rules": "english", "lexicon": "sowpods", "players": ["ann", "bob"], "events": events}
    )
    assert answer["warnings"] == [], answer["warnings"]
    exported = parse_gcg(answer["gcg"])
    assert exported.lexicon == "sowpods" and exported.players == [("ann", "ann"), ("bob", "bob")]
    turns = [e for e in played.events if e.kind in (PLAY, EXCHANGE, PASS)]
    assert _events(exported) == _events(GcgGame(events=turns))
    # the replay of the export is the game's board
    assert Replay(exported, lexicon, ENGLISH).board == game.board


def test_export_gcg_errors_and_warnings() -> None:
    base = {"rules": "english"}
    assert call("export_gcg", {**base, "events": []})["field"] == "gcg"
    bad_kind = call("export_gcg", {**base, "events": [{"kind": "jump"}]})
    assert bad_kind["field"] == "request" and "move 1" in bad_kind["error"]
    bad_rack = call("export_gcg", {**base, "events": [{"kind": "pass", "rack": "AB1"}]})
    assert bad_rack["field"] == "rack"
    no_score = call(
        "export_gcg", {**base, "events": [{"kind": "play", "rack": "", "coord": "8D", "word": "AB"}]}
    )
    assert no_score["field"] == "request" and "score" in no_score["error"]
    # a play that does not fit the board (the board edited by hand between plays): a warning
    events = [
        {"kind": "play", "rack": "AEINRST", "coord": "8D", "word": "RETAINS", "score": 66},
        {"kind": "play", "rack": "EIKORST", "coord": "1A", "word": "TAKE", "score": 8},
    ]
    answer = call("export_gcg", {**base, "events": events})
    assert "error" not in answer
    assert {w["line"] for w in answer["warnings"]} == {5}  # the line of the text exported
    assert "1A TAKE: the play touches no tile" in answer["warnings"][0]["message"]
    assert parse_gcg(answer["gcg"]).players == [("Player1", "Player1"), ("Player2", "Player2")]
