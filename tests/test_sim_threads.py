"""Simulation on several threads: the same standing as on one for the same seed and iterations
(the stopping rule included, however the steps are cut), with and without inference; the
merge refuses a row that was not played; bad settings."""

from __future__ import annotations

import pytest
from gaddag_solver import Game, Leaves, Lexicon, Rules
from gaddag_solver import _core_api as core
from gaddag_solver.game.infer import infer_last_move
from gaddag_solver.game.simulate import Simulation, SimulationError
from gaddag_solver.lexicons import resolve_lexicon


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    return Lexicon.load(resolve_lexicon("sowpods"))


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load("sowpods", Rules.load("english"))


def midgame(sowpods: Lexicon, leaves: Leaves, seed: int, turns: int) -> Game:
    game = Game.new(sowpods, seed=seed)
    for _ in range(turns):
        game.play(game.best_move("equity", leaves))
    return game


def standing(simulation: Simulation, steps: list[int]) -> list[tuple]:
    result = simulation.result()
    for n in steps:
        result = simulation.step(n)
    rows = [
        (str(c.move), c.iterations, c.mean, c.stderr, c.win_rate, c.opponent_bingo_rate, c.dropped)
        for c in result.candidates
    ]
    return [result.iterations, result.decided, *rows]


@pytest.mark.parametrize("seed", [3, 8])
def test_two_and_three_threads_give_the_standing_of_one(sowpods: Lexicon, leaves: Leaves, seed: int) -> None:
    game = midgame(sowpods, leaves, seed, 5)
    settings = {"leaves": leaves, "candidates": 12, "seed": seed, "min_iterations": 8}
    one = standing(Simulation(game, **settings), [5, 40, 1, 90])
    assert any(row[-1] for row in one[2:])  # the stopping rule dropped some on the way
    for threads in (2, 3):
        simulation = Simulation(game, **settings, threads=threads)
        assert standing(simulation, [5, 40, 1, 90]) == one
        # cut differently: the same after the same number of iterations
        simulation = Simulation(game, **settings, threads=threads)
        assert standing(simulation, [136]) == one
    other = Simulation(game, leaves=leaves, candidates=12, seed=seed + 1, min_iterations=8, threads=2)
    assert standing(other, [136]) != one


def test_threads_with_inference_give_the_standing_of_one(sowpods: Lexicon, leaves: Leaves) -> None:
    game = midgame(sowpods, leaves, 6, 4)
    inference = infer_last_move(game, leaves=leaves, max_racks=3000)
    assert inference.informative
    runs = [
        standing(
            Simulation(
                game, leaves=leaves, candidates=8, seed=2, inference=inference, threads=n, confidence=0
            ),
            [30, 30],
        )
        for n in (1, 2)
    ]
    assert runs[0] == runs[1]
    plain = Simulation(game, leaves=leaves, candidates=8, seed=2, confidence=0)
    assert standing(plain, [60]) != runs[0]  # the inferred racks do change the playouts


def test_a_merge_of_rows_not_played_is_refused(sowpods: Lexicon, leaves: Leaves) -> None:
    game = midgame(sowpods, leaves, 2, 3)
    simulation = Simulation(game, leaves=leaves, candidates=4, seed=1)
    with pytest.raises(core.CoreError, match="iteration 1: candidate 1 was not played"):
        core.sim_merge(simulation._state, [bytes(4 * core.ffi.sizeof("gd_sim_playout"))])


@pytest.mark.parametrize("threads", [0, -1, 1.5, 1000])
def test_bad_thread_counts_are_refused(sowpods: Lexicon, leaves: Leaves, threads: object) -> None:
    game = midgame(sowpods, leaves, 2, 3)
    with pytest.raises(SimulationError, match="threads must be a whole number"):
        Simulation(game, leaves=leaves, threads=threads)  # type: ignore[arg-type]


def test_dealt_iterations_played_elsewhere_give_the_standing_of_one(sowpods: Lexicon, leaves: Leaves) -> None:
    """The page's workers: one simulation deals, two started alike play shares of each deal (the
    candidates the dealer dropped skipped), the dealer merges: one simulation's standing."""
    game = midgame(sowpods, leaves, 4, 6)
    settings = {"leaves": leaves, "candidates": 8, "seed": 5, "min_iterations": 8}
    dealer, helper = Simulation(game, **settings), Simulation(game, **settings)
    for size in (7, 30, 1, 50, 12):
        seeds, dropped = dealer.deal(size)
        rows = dealer.play_dealt(seeds[: size // 2], dropped) + helper.play_dealt(seeds[size // 2 :], dropped)
        shared = dealer.merge_dealt(rows)
    one = Simulation(game, **settings).step(100)
    assert any(c.dropped for c in one.candidates)
    assert [(str(c.move), c.iterations, c.mean, c.win_rate, c.dropped) for c in shared.candidates] == [
        (str(c.move), c.iterations, c.mean, c.win_rate, c.dropped) for c in one.candidates
    ]
    with pytest.raises(SimulationError, match="whole iterations"):
        dealer.merge_dealt(b"x" * 5)
