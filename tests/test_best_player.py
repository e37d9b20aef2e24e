"""The best player (game/best.py): the exact endgame's move with the bag empty, the pre-endgame's
with one or two tiles in it, the simulation's before; the same moves for a seed; as a self-play
player. Games on a small tile set, where the searches finish at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from gaddag_solver import Game
from gaddag_solver.game import autoplay
from gaddag_solver.game.autoplay import AutoplayError, Match, PlayerSpec, run_autoplay
from gaddag_solver.game.best import PREENDGAME_BAG, choose_best, turn_seed
from gaddag_solver.game.endgame import solve_endgame
from gaddag_solver.game.preendgame import solve_preendgame
from gaddag_solver.game.simulate import Simulation
from test_autoplay_endgame import small_match_files  # noqa: F401 - a fixture
from test_endgame import small_lexicon, small_set_rules


def test_each_phase_is_played_by_its_tool() -> None:
    """Along self-played games: with the bag empty the move is the complete endgame search's
    best, with 1 or 2 tiles in the bag the pre-endgame's, before that one of the simulation's
    candidates; and the same seed gives the same move and the same standing."""
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    seen = {"endgame": 0, "preendgame": 0, "simulation": 0}
    for seed in range(1, 9):
        game = Game.new(lexicon, rules, seed=seed)
        while not game.over:
            turn = turn_seed(seed, len(game.history))
            choice = choose_best(game, None, 2.0, turn)
            if game.bag_count == 0:
                assert choice.tool == "endgame"
                exact = solve_endgame(game)
                assert exact.complete and choice.result.complete and choice.result.value == exact.value
                assert choice.move == exact.best
            elif game.bag_count <= PREENDGAME_BAG:
                assert choice.tool == "preendgame"
                exact = solve_preendgame(game)
                assert exact.complete and choice.move == exact.best.move
            elif choice.tool == "simulation":
                assert choice.move in Simulation(game, candidates=6).moves
                again = choose_best(game, None, 2.0, turn)
                assert again.move == choice.move
                assert [(str(c.move), c.mean, c.iterations) for c in again.result.candidates] == [
                    (str(c.move), c.mean, c.iterations) for c in choice.result.candidates
                ]
            seen[choice.tool] = seen.get(choice.tool, 0) + 1
            game.play(choice.move)
    assert seen["endgame"] >= 8 and seen["preendgame"] >= 4 and seen["simulation"] >= 8, seen


def test_without_the_pre_endgame_or_the_endgame() -> None:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    game = Game.new(lexicon, rules, seed=3)
    while game.bag_count > 1:
        game.play(game.best_move("equity"))
    assert choose_best(game, None, 1.0, 1, preendgame_bag=0).tool in ("simulation", "equity")
    while game.bag_count:
        game.play(game.best_move("equity"))
    if not game.over:
        assert choose_best(game, None, 1.0, 1, endgame=False).move == game.best_move("equity")


def test_best_player_specs() -> None:
    spec = PlayerSpec.parse("best:0.5")
    assert (spec.kind, spec.seconds, spec.leaves) == ("best", 0.5, None) and spec.label == "best:0.5s"
    assert PlayerSpec.parse("best").seconds == autoplay.BEST_SECONDS
    assert PlayerSpec.parse("best-nopeg:2").kind == "best-nopeg"
    assert PlayerSpec.parse("best:0.25:sowpods").leaves.endswith("sowpods.leaves")
    with pytest.raises(AutoplayError, match="best:SECONDS"):
        PlayerSpec.parse("best:fast")
    with pytest.raises(AutoplayError, match="above 0"):
        PlayerSpec.parse("best:0")
    with pytest.raises(AutoplayError, match="time per turn"):
        PlayerSpec("equity", None, 1.0)


def test_a_best_player_plays_with_its_lexicon_s_table() -> None:
    from gaddag_solver.lexicons import resolve_lexicon

    match = Match.create(
        resolve_lexicon("sowpods"), "english", [PlayerSpec.parse("best:0.1"), PlayerSpec("equity")]
    )
    assert match.players[0].leaves is not None and match.players[0].leaves.endswith("sowpods.leaves")
    assert match.players[1].leaves is None


def test_best_player_games_repeat_for_a_seed(small_match_files: tuple[Path, Path]) -> None:  # noqa: F811
    lexicon, rules = small_match_files
    match = Match.create(lexicon, str(rules), [PlayerSpec.parse("best:1"), PlayerSpec("greedy")])
    first = run_autoplay(match, 6, seed=4, workers=1, keep_games=True)
    again = run_autoplay(match, 6, seed=4, workers=1, keep_games=True)
    assert [r.game.turns for r in first.records] == [r.game.turns for r in again.records]
    assert first.summary.players[0].name == "best:1s"
