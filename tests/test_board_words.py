"""The words on a board (gaddag_solver.board_words) and the page's check of them
(web_api.check_board), held to two oracles: a brute-force scan of the rows and columns as text,
and games played by the engine, whose every word formed (Move.words) is in the lexicon and on
the board."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from gaddag_solver import Board, Lexicon, Rules, web_api
from gaddag_solver.board_words import board_words, unknown_words
from gaddag_solver.game import Game
from gaddag_solver.lexicons import resolve_lexicon

ENGLISH = Rules.load("english")


@pytest.fixture(scope="module", autouse=True)
def loaded_in_web_api() -> None:
    """SOWPODS loaded into web_api, as the page's worker loads it."""
    web_api.load_lexicon("sowpods", Path(resolve_lexicon("sowpods")).read_bytes(), "english")


def runs_by_text(rows: list[str]) -> set[tuple[str, int, int, bool]]:
    """The oracle: every run of 2+ letters, by splitting each row and column on dots."""
    found = set()
    columns = ["".join(row[c] for row in rows) for c in range(len(rows[0]))]
    for across, lines in ((True, rows), (False, columns)):
        for line_no, line in enumerate(lines):
            at = 0
            for part in line.split("."):
                if len(part) >= 2:
                    found.add((part, line_no, at, across) if across else (part, at, line_no, across))
                at += len(part) + 1
    return found


def test_runs_match_a_scan_of_the_text() -> None:
    generator = random.Random(14)
    for _ in range(200):
        rows = [
            "".join(generator.choice("AB..c.") if generator.random() < 0.6 else "." for _ in range(15))
            for _ in range(15)
        ]
        words = board_words(Board.from_rows(rows, ENGLISH))
        assert {(w.shown, w.row, w.col, w.across) for w in words} == runs_by_text(rows)
        assert len(words) == len(runs_by_text(rows))
        for word in words:
            assert word.spelled == word.shown.upper()
            assert ["".join(rows[r][c] for r, c in word.squares)] == [word.shown]


def test_a_game_played_forms_only_lexicon_words(sowpods: Lexicon) -> None:
    game = Game.new(sowpods, ENGLISH, seed=3)
    for _ in range(12):
        if game.over:
            break
        move = game.best_move("greedy")
        game.play(move)
        words = board_words(game.board)
        # the words the move formed are on the board as it left it, and nothing else is wrong
        assert {word.upper() for word, _score in move.words} <= {word.spelled for word in words}
        assert unknown_words(game.board, sowpods) == []
    answer = web_api.check_board({"lexicon": "sowpods", "rules": "english", "board": game.board.to_rows()})
    assert answer == {"words": len(words), "unknown": []}


def test_words_not_in_the_lexicon_are_named(sowpods: Lexicon) -> None:
    rows = ["." * 15] * 15
    rows = rows[:7] + [".......QZX.....", ".......A.......", ".......T......."] + rows[10:]
    board = Board.from_rows(rows, ENGLISH)
    assert [(w.shown, w.coord) for w in unknown_words(board, sowpods)] == [("QZX", "8H")]
    assert "QAT" in sowpods  # the word down is one
    answer = json.loads(
        web_api.call("check_board", json.dumps({"lexicon": "sowpods", "rules": "english", "board": rows}))[0]
    )
    assert answer == {
        "words": 2,
        "unknown": [
            {"word": "QZX", "coord": "8H", "direction": "across", "squares": [[7, 7], [7, 8], [7, 9]]}
        ],
    }
    # a blank is checked as the letter it stands for
    rows[7] = ".......QaT....."
    assert unknown_words(Board.from_rows(rows, ENGLISH), sowpods) == []
    # bad requests are errors with their field
    bad = web_api.check_board({"lexicon": "nope", "rules": "english", "board": rows})
    assert bad["field"] == "lexicon"
    bad = web_api.check_board({"lexicon": "sowpods", "rules": "english", "board": ["1"]})
    assert bad["field"] == "board"
