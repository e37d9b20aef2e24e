"""Simulation: what a playout is worth, the stopping rule, reproducibility and bad input."""

from __future__ import annotations

import pytest
from gaddag_solver import Board, Game, Leaves, Lexicon, Move, Rules
from gaddag_solver.formats.cgp import parse_cgp
from gaddag_solver.game.simulate import Simulation, SimulationError, prune_threshold, simulate
from gaddag_solver.lexicons import resolve_lexicon

CGP_BOARD = "15/15/15/15/7Q7/7U7/7E7/3FLOWERs5/7N1I5/9Z5/8VEX4/15/15/15/15"


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    return Lexicon.load(resolve_lexicon("sowpods"))


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load("sowpods", Rules.load("english"))


def midgame(sowpods: Lexicon, leaves: Leaves, seed: int = 5, turns: int = 6) -> Game:
    game = Game.new(sowpods, seed=seed)
    for _ in range(turns):
        game.play(game.best_move("equity", leaves))
    return game


def test_with_no_plies_a_playout_is_worth_the_static_equity(sowpods: Lexicon, leaves: Leaves) -> None:
    """Zero plies: the value is the candidate's score plus its leave, whatever is drawn."""
    game = midgame(sowpods, leaves)
    result = Simulation(game, leaves=leaves, candidates=12, plies=0, confidence=0).step(20)
    assert len(result.candidates) == 12
    for c in result.candidates:
        assert c.iterations == 20
        assert c.mean == pytest.approx(c.equity, abs=1e-9), c.move
        assert c.stderr == 0
        assert c.opponent_bingo_rate == 0


def test_a_dominant_candidate_is_picked_and_the_rest_dropped(sowpods: Lexicon, leaves: Leaves) -> None:
    rules = Rules.load("english")
    board = parse_cgp(f"{CGP_BOARD} AEIRSTU/ 0/0 0", rules).board
    game = Game.from_board(board, "AEIRSTU", sowpods)
    moves = game.moves(40, leaves=leaves)
    bingo = next(m for m in moves if m.word == "URALITES")  # 82 points
    small = [m for m in moves if m.is_play and m.score <= 12][:5]
    candidates = [*small, bingo]  # the best given last
    result = Simulation(game, leaves=leaves, candidates=candidates, seed=3).run(iterations=2000)
    assert result.decided and result.reason == "decided"
    assert result.best.move.word == "URALITES" and not result.best.dropped
    assert all(c.dropped for c in result.candidates[1:])
    assert result.iterations < 2000


def test_identical_candidates_are_never_told_apart(sowpods: Lexicon, leaves: Leaves) -> None:
    """The same deals for every candidate: the same move twice has the same value every time."""
    game = midgame(sowpods, leaves, seed=9)
    best = game.moves(1, leaves=leaves)[0]
    result = Simulation(game, leaves=leaves, candidates=[best, best], seed=1).run(iterations=150)
    a, b = result.candidates
    assert a.mean == b.mean and a.win_rate == b.win_rate and a.opponent_bingo_rate == b.opponent_bingo_rate
    assert not a.dropped and not b.dropped and result.reason == "iterations"
    assert a.stderr > 0  # the deals do differ from one iteration to the next


def test_seeded_runs_repeat_and_other_seeds_differ(sowpods: Lexicon, leaves: Leaves) -> None:
    game = midgame(sowpods, leaves, seed=2)

    def run(seed: int) -> list[tuple[str, float, float, bool]]:
        result = simulate(game, leaves=leaves, candidates=5, iterations=80, seed=seed)
        return [(str(c.move), c.mean, c.win_rate, c.dropped) for c in result.candidates]

    first = run(7)
    assert run(7) == first
    assert run(8) != first
    assert 0 <= min(r[2] for r in first) and max(r[2] for r in first) <= 1


def test_batches_report_progress_and_stop_when_asked(sowpods: Lexicon, leaves: Leaves) -> None:
    game = midgame(sowpods, leaves, seed=3)
    simulation = Simulation(game, leaves=leaves, candidates=8, confidence=0, seed=1)
    seen = []
    for standing in simulation.batches(iterations=10_000, batch=5):
        seen.append(standing.iterations)
        if standing.iterations >= 15:
            simulation.stop()
    assert seen[:3] == [5, 10, 15] and seen[-1] == 15
    final = simulation.result()
    assert final.iterations == 15 and not final.decided
    assert simulation.run(iterations=20).iterations == 20  # it goes on from where it stopped


def test_bad_simulations_are_refused(sowpods: Lexicon, leaves: Leaves) -> None:
    rules = Rules.load("english")
    game = midgame(sowpods, leaves)
    with pytest.raises(SimulationError, match="plies"):
        Simulation(game, plies=99)
    with pytest.raises(SimulationError, match="candidates"):
        Simulation(game, candidates=0)
    with pytest.raises(SimulationError, match="confidence"):
        Simulation(game, confidence=1.5)
    with pytest.raises(SimulationError, match="candidate 1"):  # a play from another position
        other = midgame(sowpods, leaves, seed=11)
        Simulation(game, candidates=[other.moves(1)[0]])
    # the opponent's rack given short while the bag still holds tiles: no full rack can be dealt
    full = "".join(letter * count for letter, count in zip(rules.alphabet.letters, rules.counts, strict=True))
    on_board = full[: 100 - 7 - 2 - 3]
    rows = [on_board[r * 15 : r * 15 + 15].ljust(15, ".") for r in range(15)]
    board = Board.from_rows(rows, rules)
    short = Game.from_position(board, ["??" + full[-7:-2], full[-2:]], sowpods)
    assert short.bag_count == 3
    with pytest.raises(SimulationError, match="cannot fill the opponent's rack"):
        Simulation(short, candidates=[Move.pass_turn()])


def test_prune_threshold_grows_with_confidence_and_candidates() -> None:
    assert prune_threshold(0, 10) == 0
    assert prune_threshold(0.95, 2) == pytest.approx(1.6449, abs=1e-4)
    assert prune_threshold(0.99, 15) > prune_threshold(0.99, 2) > prune_threshold(0.9, 2)


def test_sim_command_prints_the_ranking(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import subprocess
    import sys

    cgp = f"{CGP_BOARD} AEIRSTU/ 0/0 0"
    args = ["--lexicon", "sowpods", "--cgp", cgp, "--candidates", "4", "--iterations", "30", "--seed", "2"]
    run = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "sim", *args, "--format", "json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert len(result["candidates"]) == 4 and result["iterations"] <= 30
    assert result["candidates"][0]["move"] == "E5 URALITES 82"
    table = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "sim", *args], capture_output=True, text=True, timeout=120
    )
    assert table.returncode == 0 and "URALITES" in table.stdout and "iterations, 2 plies" in table.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "sim", "--lexicon", "sowpods", "--cgp", cgp, "--plies", "40"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "plies" in bad.stderr and "Traceback" not in bad.stderr
