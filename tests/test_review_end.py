"""Review's grading of the last turns (game/review_end.py): the endgame's points lost and the
pre-endgame's win probability lost, against recomputations that take another path: the move
made is played on the game and the position after it solved from the other side."""

from __future__ import annotations

import pytest
from gaddag_solver import Game
from gaddag_solver.formats.gcg import parse_gcg
from gaddag_solver.game.endgame import find_move, solve_endgame
from gaddag_solver.game.preendgame import PreendgameSearch
from gaddag_solver.game.replay import Replay
from gaddag_solver.game.review import EndSettings, review_replay
from gaddag_solver.game.review_end import ENDGAME, PREENDGAME
from test_endgame import small_lexicon, small_set_rules


def played_games(count: int) -> list[Game]:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    games = []
    for seed in range(count):
        game = Game.new(lexicon, rules, seed=seed)
        while not game.over:
            game.play(game.best_move("greedy" if seed % 2 else "equity"))
        games.append(game)
    return games


def test_the_last_turns_are_graded_by_the_endgame_and_the_pre_endgame() -> None:
    tools: dict[str, int] = {}
    for game in played_games(10):
        replay = Replay(parse_gcg(game.to_gcg()), game.lexicon, game.rules)
        review = review_replay(replay, None, end=EndSettings(time_limit=None, max_bag=2))
        for reviewed in review.turns:
            turn = next(t for t in replay.turns if t.index == reviewed.turn)
            bag = turn.unseen().bag
            end = reviewed.end
            if bag > 2:
                assert end is None
                continue
            assert end is not None and end.tool == (ENDGAME if bag == 0 else PREENDGAME), (bag, end)
            tools[end.tool] = tools.get(end.tool, 0) + 1
            if end.lost is None:  # an exchange, say: the note says why
                assert end.note
                continue
            assert end.exact and end.lost >= 0
            position = replay.game_at(turn.index)
            assert turn.move is not None
            made = find_move(
                position, "pass" if turn.move.kind == "pass" else f"{turn.move.coord} {turn.move.word}"
            )
            if bag == 0:
                best = solve_endgame(position)
                assert end.best_value == best.value
                mover = position.to_move
                before = position.scores
                position.play(made)
                gained = (position.scores[mover] - before[mover]) - (
                    position.scores[1 - mover] - before[1 - mover]
                )
                value = gained if position.over else gained - solve_endgame(position).value
                assert end.played_value == value and end.lost == best.value - value
            else:
                result = PreendgameSearch(position).run()
                assert end.best_value == float(result.best.win)
                wins = [c for c in result.candidates if str(c.move) == str(made)]
                assert len(wins) == 1
                if wins[0].win is not None:  # exact in the plain search too: the same figure
                    assert end.played_value == float(wins[0].win)
                else:
                    assert float(wins[0].win_low) <= end.played_value <= float(wins[0].win_high)
                assert end.lost == pytest.approx(end.best_value - end.played_value)
        assert "the last turns, graded" in review.format_table()
        graded = sum(1 for t in review.turns if t.end is not None)
        assert sum(1 for r in review.records() if r.get("end_tool")) == graded
    assert tools.get(ENDGAME, 0) >= 5 and tools.get(PREENDGAME, 0) >= 5, tools


def test_bad_end_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        EndSettings(time_limit=0)
    with pytest.raises(ValueError, match="1 to 6"):
        EndSettings(max_bag=7)
