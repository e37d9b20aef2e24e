"""Win probability: the positions read from a game against the game itself, the fit against the
model that made the data, the file refused when wrong, and the simulation's win estimate against
a recomputation."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest
from gaddag_solver import Game, Leaves, Lexicon, Rules
from gaddag_solver import _core_api as core
from gaddag_solver.formats.win_probability import WinProbability, WinProbabilityError, normal_cdf
from gaddag_solver.game import win_fit
from gaddag_solver.game.simulate import Simulation, SimulationError
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.rules import available_rules

RULES = Rules.load("english")


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    return Lexicon.load(resolve_lexicon("sowpods"))


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load("sowpods", RULES)


def test_positions_are_those_of_the_game(sowpods: Lexicon, leaves: Leaves) -> None:
    """Each position read back from a finished game's turns has the tiles unplayed and the scores
    the live game had at that point, and the result of the player then on turn."""
    for seed in (1, 2, 3):
        game = Game.new(sowpods, seed=seed)
        seen = []
        while not game.over:
            game.play(game.best_move("equity", leaves))
            if not game.over:
                unplayed = game.bag_count + len(game.rack(0)) + len(game.rack(1))
                on_turn = game.to_move
                seen.append((unplayed, on_turn, game.scores[on_turn] - game.scores[1 - on_turn]))
        final = game.scores
        positions = list(win_fit.game_positions(core.read_game(game._state.game), RULES))
        assert len(positions) == len(seen)
        for (unplayed, spread, result), (live_unplayed, on_turn, score_spread) in zip(
            positions, seen, strict=True
        ):
            assert unplayed == live_unplayed
            margin = final[on_turn] - final[1 - on_turn]
            assert result == (1.0 if margin > 0 else 0.0 if margin < 0 else 0.5)
            # the spread adds the two last leaves' values, each at most a few dozen points
            assert abs(spread - score_spread) < 80


def test_the_fit_finds_the_model_that_made_the_data() -> None:
    """Outcomes drawn from known means and sigmas: the fit recovers them."""
    truth = {6: (12.0, 9.0), 40: (20.0, 60.0), 90: (22.0, 95.0)}
    rng = random.Random(4)
    tallies = win_fit.Tallies.empty()
    for t, (mean, sigma) in truth.items():
        for _ in range(40_000):
            spread = round(rng.gauss(0, 1.5 * sigma))
            p = normal_cdf((spread + mean) / sigma)
            tallies.seen[(t, spread)] += 1
            tallies.half_wins[(t, spread)] += 2 if rng.random() < p else 0
    report = win_fit.fit_model(tallies, RULES)
    for t, (mean, sigma) in truth.items():
        assert report.fitted[t]
        assert report.model.mean[t] == pytest.approx(mean, abs=0.06 * sigma)
        assert report.model.sigma[t] == pytest.approx(sigma, rel=0.05)
    # between fitted t the values are interpolated, past them the nearest is kept
    assert not report.fitted[20]
    assert report.model.sigma[20] == pytest.approx(
        report.model.sigma[6] + (report.model.sigma[40] - report.model.sigma[6]) * 14 / 34
    )
    assert report.model.sigma[100] == report.model.sigma[90] and report.model.sigma[0] == 0


def test_the_shipped_model_predicts_games_it_was_not_fitted_from(sowpods: Lexicon) -> None:
    """On fresh games the fitted model's log loss beats the old formula's, and its predictions
    are calibrated: within each bucket the observed win rate is near the predicted one."""
    from gaddag_solver.game.autoplay import Match, PlayerSpec

    model = WinProbability.for_rules(RULES)
    assert model is not None and model.rules == "english" and model.tiles == 100
    match = Match.create(resolve_lexicon("sowpods"), "english", [PlayerSpec.parse("equity:sowpods")] * 2)
    tallies = win_fit.tally_run(match, 1500, seed=987, workers=1)
    ours, formula = (
        win_fit.scores(lambda s, t: model.probability(s, t), tallies),
        win_fit.scores(win_fit.baseline_probability, tallies),
    )
    assert ours[0] < formula[0] - 0.03 and ours[1] < formula[1]
    for row in win_fit.calibration(lambda s, t: model.probability(s, t), tallies, buckets=5):
        assert abs(row.observed - row.predicted) < 0.05, row


def test_probability_on_turn_and_off_turn() -> None:
    model = WinProbability.for_rules(RULES)
    assert model is not None
    for t in (5, 30, 80):
        on = model.probability(0, t)
        assert on == pytest.approx(normal_cdf(model.mean[t] / model.sigma[t]))
        assert model.probability(0, t, on_turn=False) == pytest.approx(1 - on)
        assert model.probability(-model.mean[t], t) == pytest.approx(0.5)
    assert model.probability(1, 0) == 1 and model.probability(0, 0) == 0.5
    with pytest.raises(ValueError, match="101 tiles"):
        model.probability(0, 101)


def test_bad_files_are_refused_with_the_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    model = WinProbability.for_rules(RULES)
    assert model is not None
    good = json.loads(model.to_json())
    path = tmp_path / "m.json"
    path.write_text(model.to_json())
    assert WinProbability.load(path, RULES) == model

    def refused(change: dict, match: str) -> None:
        data = {**good, **change}
        path.write_text(json.dumps(data))
        with pytest.raises(WinProbabilityError, match=match):
            WinProbability.load(path, RULES)

    refused({"format": "something else"}, "not a win-probability file")
    refused({"version": 7}, "version 7")
    refused({"tiles": "100"}, "'tiles'")
    refused({"sigma": good["sigma"][:-1]}, "'sigma' must be a list of 101")
    refused({"mean": [*good["mean"][:5], "x", *good["mean"][6:]]}, r"mean\[5\]")
    refused({"sigma": [*good["sigma"][:9], -1, *good["sigma"][10:]]}, r"sigma\[9\]")
    refused({"sigma": [*good["sigma"][:9], 0, *good["sigma"][10:]]}, r"sigma\[9\] is 0")
    path.write_text('{"format": ')
    with pytest.raises(WinProbabilityError, match="not JSON"):
        WinProbability.load(path)
    # a model of another ruleset
    path.write_text(model.to_json())
    with pytest.raises(WinProbabilityError, match="made for 'english'"):
        WinProbability.load(path, Rules.load("polish"))
    own = Rules.from_dict({**Rules.load("english").to_dict(), "name": "mine"})
    assert WinProbability.for_rules(own) is None  # none shipped for a player's own rules: the formula


@pytest.mark.parametrize("name", available_rules())
def test_every_shipped_model_fits_its_ruleset(name: str) -> None:
    """Each shipped model loads for its ruleset, is stamped with it, and says how it was made."""
    rules = Rules.load(name)
    model = WinProbability.for_rules(rules)
    assert model is not None and model.rules == name and model.tiles == rules.tile_total
    assert model.about["command"].startswith("gaddag-solver fit-win-probability")
    check = model.about["check"]["all"]
    assert check["log_loss"] < check["formula_log_loss"]


def test_the_simulation_estimates_wins_with_the_model(sowpods: Lexicon, leaves: Leaves) -> None:
    """Zero plies: after the candidate the opponent is on turn, so each playout's estimate is
    P(win) = Φ((spread − mean[t]) / sigma[t]) from the candidate's score and leave."""
    model = WinProbability.for_rules(RULES)
    assert model is not None
    game = Game.new(sowpods, seed=12)
    for _ in range(7):
        game.play(game.best_move("equity", leaves))
    me = game.to_move
    base = game.scores[me] - game.scores[1 - me]
    result = Simulation(game, leaves=leaves, candidates=8, plies=0, confidence=0, rank_by="equity").step(10)
    unplayed_before = game.bag_count + len(game.rack(0)) + len(game.rack(1))
    for c in result.candidates:
        unplayed = unplayed_before - (len(c.move.tiles) if c.move.is_play else 0)
        spread = base + c.equity  # the score and the leave's value
        expected = normal_cdf((spread - model.mean[unplayed]) / model.sigma[unplayed])
        assert c.win_rate == pytest.approx(expected, abs=2e-7), c.move
    # without the model: the formula, no edge for the turn
    old = Simulation(game, leaves=leaves, candidates=8, plies=0, confidence=0, win_model=None).step(10)
    for c in old.candidates:
        assert 0 <= c.win_rate <= 1
    assert [c.win_rate for c in old.candidates] != [c.win_rate for c in result.candidates]


def test_ranking_by_wins(sowpods: Lexicon, leaves: Leaves) -> None:
    """rank_by="win": best first by the estimated win rate, the same on two threads as on one;
    "auto" ranks by wins only near the end of the game."""
    game = Game.new(sowpods, seed=21)
    while game.bag_count > 6:
        game.play(game.best_move("equity", leaves))
    settings = {"leaves": leaves, "candidates": 10, "seed": 4, "min_iterations": 8, "rank_by": "win"}
    one = Simulation(game, **settings).run(iterations=120)
    assert one.ranked_by == "win"
    live = [c for c in one.candidates if not c.dropped]
    assert [c.win_rate for c in live] == sorted((c.win_rate for c in live), reverse=True)
    two = Simulation(game, **settings, threads=2).run(iterations=120)
    assert [(str(c.move), c.win_rate, c.mean, c.dropped) for c in two.candidates] == [
        (str(c.move), c.win_rate, c.mean, c.dropped) for c in one.candidates
    ]
    assert Simulation(game, leaves=leaves, candidates=3).ranked_by == "win"  # 40 or fewer unplayed
    early = Game.new(sowpods, seed=21)
    early.play(early.best_move("equity", leaves))
    assert Simulation(early, leaves=leaves, candidates=3).ranked_by == "equity"
    assert Simulation(game, leaves=leaves, candidates=3, win_model=None).ranked_by == "equity"
    with pytest.raises(SimulationError, match="rank_by"):
        Simulation(game, rank_by="score")


def test_fit_command_writes_a_model_that_loads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "english.json"
    run = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "fit-win-probability", "--leaves", "sowpods",
         "--games", "2000", "--check-games", "200", "--workers", "1", "-o", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "calibration" in run.stdout and "log loss" in run.stdout
    model = WinProbability.load(out, RULES)
    assert model.about["games"] == 2000 and model.about["check_games"] == 200
    assert model.about["command"].startswith("gaddag-solver fit-win-probability")
    assert all(math.isfinite(v) for v in model.mean) and all(v > 0 for v in model.sigma[1:])
    bad = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "fit-win-probability", "--games", "1", "-o", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "--games" in bad.stderr and "Traceback" not in bad.stderr
