"""The endgame player of self-play (game/autoplay.py): equity until the end, then the
pre-endgame and the exact endgame. Games on a small tile set, so the solvers finish at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gaddag_solver import Game, build_gaddag
from gaddag_solver import _core_api as core
from gaddag_solver.game import autoplay
from gaddag_solver.game.autoplay import AutoplayError, Match, PlayerSpec, run_autoplay
from gaddag_solver.game.endgame import solve_endgame
from gaddag_solver.move import MOVE_RECORD
from small_words import WORDS as SMALL_WORDS
from test_endgame import small_set_rules


@pytest.fixture(scope="module")
def small_match_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    rules = small_set_rules(2)
    folder = tmp_path_factory.mktemp("small")
    words = sorted(w for w in SMALL_WORDS if set(w) <= set(rules.alphabet.letters))
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    (folder / "small.gaddag").write_bytes(data)
    (folder / "small.json").write_text(json.dumps(rules.to_dict()))
    return folder / "small.gaddag", folder / "small.json"


def test_the_turn_by_turn_loop_plays_the_core_s_games(small_match_files: tuple[Path, Path]) -> None:
    """With static players on both seats, the loop the endgame player needs plays exactly the
    games gd_autoplay plays (same deal, same choices)."""
    lexicon, rules = small_match_files
    match = Match.create(lexicon, str(rules), [PlayerSpec("equity"), PlayerSpec("greedy")])
    engine = autoplay._engine(match)
    for index in range(8):
        seed = autoplay.pair_seed(3, index // 2)
        whole = engine.play(index, seed, True)
        stepped = engine._play_turn_by_turn(index % 2, seed)
        assert stepped.scores == whole.game.scores and stepped.turns == whole.game.turns


def test_the_endgame_player_gains_at_least_the_endgame_s_value(small_match_files: tuple[Path, Path]) -> None:
    lexicon_path, rules_path = small_match_files
    match = Match.create(lexicon_path, str(rules_path), [PlayerSpec("endgame"), PlayerSpec("greedy")])
    run = run_autoplay(match, 12, seed=5, workers=1, keep_games=True)
    assert run.summary.games == 12
    engine = autoplay._engine(match)
    checked = 0
    for record in run.records:
        # replay the game to the first turn of the endgame player with the bag empty
        game = Game.new(engine.lexicon, engine.rules, seed=record.seed)
        endgame_seat = record.first  # the seat of player 0 (the endgame player)
        for turn in record.game.turns:
            if game.bag_count == 0 and game.to_move == endgame_seat:
                break
            where = (turn.row, turn.col, turn.direction, len(turn.word), turn.tiles_placed)
            move = MOVE_RECORD.pack(turn.score, turn.equity, *where, turn.kind, turn.word)
            core.game_move(game._state, game._rules, move)
        if game.over or game.bag_count or game.to_move != endgame_seat:
            continue
        value = solve_endgame(game).value
        start = game.scores
        final = record.game.scores
        mine, theirs = endgame_seat, 1 - endgame_seat
        gained = (final[mine] - start[mine]) - (final[theirs] - start[theirs])
        assert gained >= value  # perfect play from here, against an opponent who may err
        checked += 1
    assert checked >= 4


def test_endgame_player_specs() -> None:
    assert PlayerSpec.parse("endgame").kind == "endgame"
    with pytest.raises(AutoplayError, match="only an equity, endgame, endgame-only or equity-pass0 player"):
        PlayerSpec.parse("greedy:sowpods")


def test_endgame_only_plays_equity_until_the_bag_empties(small_match_files: tuple[Path, Path]) -> None:
    """endgame-only: every move while the bag holds tiles is the equity player's, and once it is
    empty the endgame solver's (the game from there gains at least the endgame's value)."""
    lexicon_path, rules_path = small_match_files
    players = [PlayerSpec("endgame-only"), PlayerSpec("greedy")]
    match = Match.create(lexicon_path, str(rules_path), players, 2.0)
    assert match.end_seconds == 2.0
    run = run_autoplay(match, 8, seed=9, workers=1, keep_games=True)
    engine = autoplay._engine(match)
    solved = compared = 0
    for record in run.records:
        game = Game.new(engine.lexicon, engine.rules, seed=record.seed)
        mine = record.first
        for turn in record.game.turns:
            where = (turn.row, turn.col, turn.direction, len(turn.word), turn.tiles_placed)
            move = MOVE_RECORD.pack(turn.score, turn.equity, *where, turn.kind, turn.word)
            if game.to_move == mine and game.bag_count == 0 and solved < 6:
                value = solve_endgame(game).value
                start, final = game.scores, record.game.scores
                assert (final[mine] - start[mine]) - (final[1 - mine] - start[1 - mine]) >= value
                solved += 1
                break
            if game.to_move == mine:
                expected = game.best_move("equity").record(engine.rules)
                assert move[:4] + move[8:] == expected[:4] + expected[8:]  # all but the equity
                compared += 1
            core.game_move(game._state, game._rules, move)
    assert solved >= 3 and compared >= 12


def test_an_endgame_player_s_time_must_be_positive(small_match_files: tuple[Path, Path]) -> None:
    lexicon_path, rules_path = small_match_files
    with pytest.raises(AutoplayError, match="above 0 s"):
        Match.create(lexicon_path, str(rules_path), [PlayerSpec("endgame"), PlayerSpec("greedy")], 0)
    assert PlayerSpec.parse("endgame-only").kind == "endgame-only"
