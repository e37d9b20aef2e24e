"""Every GCG file we write names its lexicon (issue 26, item 3): autoplay's --gcg-dir files, a
Game's export, web_api's export and the game a review writes back; and a file's #lexicon naming
one of our own lexicons is reviewed with that lexicon, not the default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gaddag_solver import Game, Lexicon, Rules
from gaddag_solver.cli import main
from gaddag_solver.formats.gcg import parse_gcg
from gaddag_solver.game import autoplay
from gaddag_solver.game.autoplay import Match, PlayerSpec, run_autoplay
from gaddag_solver.game.replay import lexicon_for
from gaddag_solver.lexicons import resolve_lexicon

ENGLISH = Rules.load("english")


def test_autoplay_gcg_files_name_their_lexicon(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "games"
    argv = ["autoplay", "--lexicon", "twl06", "--players", "greedy,greedy", "--games", "2", "--workers", "1"]
    code = main([*argv, "--gcg-dir", str(folder)])
    _out, err = capsys.readouterr()
    assert code == 0, err
    files = sorted(folder.iterdir())
    assert len(files) == 2
    for path in files:
        game = parse_gcg(path.read_text())
        assert game.lexicon == "twl06"
        assert lexicon_for(game.lexicon) == ("twl06", None)  # reviewed with it, not the default


def test_autoplay_gcg_of_a_lexicon_given_by_path_names_the_file(tmp_path: Path) -> None:
    match = Match.create(resolve_lexicon("enable"), "english", [PlayerSpec("greedy"), PlayerSpec("greedy")])
    run = run_autoplay(match, 1, 7, workers=1, keep_games=True)
    text = autoplay.game_gcg(run.records[0], match, ENGLISH)
    assert parse_gcg(text).lexicon == "enable"


def test_a_game_s_export_names_its_lexicon(sowpods: Lexicon) -> None:
    game = Game.new(sowpods, seed=3)
    for _ in range(3):
        game.play(game.best_move("equity"))
    assert parse_gcg(game.to_gcg()).lexicon == "sowpods"
    assert parse_gcg(game.to_gcg(lexicon="CSW19")).lexicon == "CSW19"


@pytest.mark.parametrize("name", ["sowpods", "twl06", "enable", "sjp", "opencorpora", "opencorpora-erudit"])
def test_our_lexicon_names_are_reviewed_with_that_lexicon(name: str) -> None:
    assert lexicon_for(name) == (name, None)
    assert lexicon_for(name.upper()) == (name, None)


def test_a_review_writes_back_the_lexicon_it_used(sowpods: Lexicon) -> None:
    from gaddag_solver import web_api

    game = Game.new(sowpods, seed=4)
    for _ in range(2):
        game.play(game.best_move("equity"))
    text = "".join(line + "\n" for line in game.to_gcg().splitlines() if not line.startswith("#lexicon"))
    assert "#lexicon" not in text
    assert "error" not in web_api.load_lexicon("sowpods", resolve_lexicon("sowpods").read_bytes(), "english")
    request = {"gcg": text, "lexicon": "sowpods", "rules": "english", "leaves": None}
    reply, _records = web_api.call("review_gcg", json.dumps(request), None)
    answer = json.loads(reply)
    assert "error" not in answer, answer
    assert answer["declared_lexicon"] == ""
    assert parse_gcg(answer["gcg"]).lexicon == "sowpods"
