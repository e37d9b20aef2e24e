"""Inference of the opponent's rack: gd_infer against a brute force in Python (every rack, its
draw weight, its best move by the solver), the sampled estimate against the exhaustive one, the
real rack of an equity player always among those inferred, the letters held after drawing
against an enumeration of the draws, the simulation drawing from the leaves inferred, the command
and bad input."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from dataclasses import replace

import pytest
from gaddag_solver import Board, Game, Leaves, Lexicon, Move, Rules
from gaddag_solver import _core_api as core
from gaddag_solver.cli import main
from gaddag_solver.formats.cgp import parse_cgp
from gaddag_solver.game.infer import (
    InferenceError,
    infer,
    infer_last_move,
    infer_written,
    last_move_on_board,
    position_before,
)
from gaddag_solver.game.simulate import Simulation, SimulationError
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.rack import Rack

RULES = Rules.load("english")
LETTERS = ("?", *RULES.alphabet.letters)


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    return Lexicon.load(resolve_lexicon("sowpods"))


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load("sowpods", RULES)


def text_of(counts: list[int] | bytes) -> str:
    return "".join(LETTERS[c] * counts[c] for c in range(1, len(LETTERS))) + "?" * counts[0]


def multisets(pool: list[int], size: int, code: int = 0) -> list[list[int]]:
    """Every multiset of ``size`` tiles of ``pool`` (counts by code)."""
    if size == 0:
        return [[0] * len(pool)]
    if code == len(pool):
        return []
    found = []
    for k in range(min(pool[code], size) + 1):
        for rest in multisets(pool, size - k, code + 1):
            rest = list(rest)
            rest[code] = k
            found.append(rest)
    return found


def draw_weight(unseen: list[int], rack: list[int]) -> int:
    return math.prod(math.comb(unseen[c], rack[c]) for c in range(len(rack)))


def game_until(sowpods: Lexicon, leaves: Leaves, seed: int, stop) -> Game:
    """A self-played game (equity players) up to the first turn where ``stop(game, move)`` says so;
    that move is played, so the game's last move is the one to infer from."""
    game = Game.new(sowpods, seed=seed)
    while not game.over:
        move = game.best_move("equity", leaves)
        done = stop(game, move)
        game.play(move)
        if done:
            return game
    raise AssertionError("the game ended before the turn looked for")


def bag_reaches(sowpods: Lexicon, leaves: Leaves, seed: int, bag: int) -> bool:
    game = Game.new(sowpods, seed=seed)
    while not game.over and game.bag_count > bag:
        game.play(game.best_move("equity", leaves))
    return game.bag_count == bag


def the_position_before(game: Game) -> tuple[Board, list[int], Move]:
    last = game.history[-1].move
    board, unseen = position_before(game.board, core.game_unseen(game._state, game.to_move), last)
    return board, unseen, last


def brute_force(
    game: Game, board: Board, unseen: list[int], move: Move, leaves: Leaves, tolerance: float
) -> tuple[dict[str, int], int, int]:
    """(weight by leave kept, racks valued, racks consistent), every rack valued in Python."""
    total = sum(unseen)
    rack_tiles = min(RULES.rack_size, total)
    bag = total - rack_tiles
    solver = game.solver
    placed = [0] * 64
    if move.is_play:
        for _r, _c, letter, blank in move.tiles:
            placed[0 if blank else RULES.alphabet.code(letter)] += 1
        unknown = [u - p for u, p in zip(unseen, placed, strict=True)]
        size = rack_tiles - len(move.tiles)
    else:
        unknown, size = list(unseen), rack_tiles
    exchanged = len(move.exchanged)
    weights: Counter[str] = Counter()
    racks = consistent = 0
    for chosen in multisets(unknown[: len(LETTERS)], size):
        rack = [p + c for p, c in zip(placed, chosen + [0] * (64 - len(chosen)), strict=True)]
        racks += 1
        best = solver.solve(
            board, Rack(text_of(rack), RULES), top=1, leaves=leaves, exchanges=True, bag=bag, warn=False
        )
        best_hundredths = round(100 * best[0].equity)
        if move.is_play:
            kept = text_of(chosen)
            played = 100 * move.score + round(100 * leaves.value(kept))
        else:  # the best leave of rack - exchanged tiles; ties: the largest count vector first
            options = multisets(rack[: len(LETTERS)], rack_tiles - exchanged)
            value, key = max((round(100 * leaves.value(text_of(k))), k) for k in options)
            kept, played = text_of(key), value
        if played >= best_hundredths - round(100 * tolerance):
            consistent += 1
            weights[kept] += draw_weight(unseen, rack)
    return dict(weights), racks, consistent


def distribution(weights: dict[str, int]) -> dict[str, float]:
    total = sum(weights.values())
    return {"".join(sorted(k)): w / total for k, w in weights.items()}


def inferred(inference) -> dict[str, float]:
    return {"".join(sorted(leave.tiles)): leave.probability for leave in inference.leaves}


@pytest.mark.parametrize("tolerance", [0.0, 6.0])
def test_a_play_infers_what_a_brute_force_over_every_rack_finds(
    sowpods: Lexicon, leaves: Leaves, tolerance: float
) -> None:
    game = game_until(sowpods, leaves, 11, lambda g, m: m.is_play and len(m.tiles) == 5 and g.bag_count > 20)
    board, unseen, move = the_position_before(game)
    result = infer(board, unseen, move, sowpods, leaves=leaves, tolerance=tolerance)
    expected, racks, consistent = brute_force(game, board, unseen, move, leaves, tolerance)
    assert result.exhaustive and result.informative
    assert (result.racks, result.consistent) == (racks, consistent)
    assert 0 < consistent < racks  # the move rules some racks out, not all
    got = inferred(result)
    assert got.keys() == distribution(expected).keys()
    for leave, p in distribution(expected).items():
        assert got[leave] == pytest.approx(p, rel=1e-9), leave
    assert [x.probability for x in result.leaves] == sorted(
        (x.probability for x in result.leaves), reverse=True
    )


def test_an_exchange_infers_the_best_leave_each_rack_would_keep(sowpods: Lexicon, leaves: Leaves) -> None:
    """An exchange of 3 with 8 in the bag: every 7-tile rack of the 15 tiles unseen valued."""
    seed = next(s for s in range(1, 40) if bag_reaches(sowpods, leaves, s, 8))
    game = game_until(sowpods, leaves, seed, lambda g, m: m.is_play and g.bag_count - len(m.tiles) == 8)
    # the player to move exchanges three tiles; the other infers
    rack = str(game.rack())
    game.exchange(rack[:3])
    board, unseen, move = the_position_before(game)
    assert move.kind == "exchange" and len(move.exchanged) == 3
    result = infer(board, unseen, Move.exchange("???"), sowpods, leaves=leaves, tolerance=25)
    expected, racks, consistent = brute_force(game, board, unseen, move, leaves, 25)
    assert result.exhaustive and (result.racks, result.consistent) == (racks, consistent)
    assert 0 < consistent < racks
    got = inferred(result)
    for leave, p in distribution(expected).items():
        assert got[leave] == pytest.approx(p, rel=1e-9), leave
    assert got.keys() == distribution(expected).keys()
    assert all(len(leave.tiles) == 4 for leave in result.leaves)


def test_sampled_racks_estimate_the_exhaustive_answer_within_its_error(
    sowpods: Lexicon, leaves: Leaves
) -> None:
    game = game_until(sowpods, leaves, 21, lambda g, m: m.is_play and len(m.tiles) == 2 and g.bag_count > 30)
    board, unseen, move = the_position_before(game)
    exact = infer(board, unseen, move, sowpods, leaves=leaves, max_racks=2_000_000)
    sampled = infer(board, unseen, move, sowpods, leaves=leaves, max_racks=4000, seed=5)
    assert exact.exhaustive and not sampled.exhaustive
    assert sampled.racks == 4000 and exact.racks > 4000
    assert 100 < sampled.effective_racks <= 4000
    for letter, p in exact.kept.items():
        error = sampled.stderr(p)
        assert abs(sampled.kept[letter] - p) <= 5 * error + 0.005, (letter, p, sampled.kept[letter], error)
    assert infer(board, unseen, move, sowpods, leaves=leaves, max_racks=4000, seed=5) == sampled
    assert infer(board, unseen, move, sowpods, leaves=leaves, max_racks=4000, seed=6).kept != sampled.kept


def test_the_rack_an_equity_player_held_is_always_among_those_inferred(
    sowpods: Lexicon, leaves: Leaves
) -> None:
    """Tolerance 0 and the player's own table: its real leave always fits, every turn of a game."""
    game = Game.new(sowpods, seed=8)
    checked = 0
    while not game.over and game.bag_count > 0:
        move = game.best_move("equity", leaves)
        truth = "".join(sorted(move.leave))
        game.play(move)
        if move.kind == "pass":
            continue
        if move.is_play and len(move.tiles) < 3:
            continue  # keeps 5 or 6 unknown tiles: too many racks to value every one here
        result = infer_last_move(game, leaves=leaves, tolerance=0, max_racks=200_000)
        assert result.exhaustive
        probabilities = inferred(result)
        assert probabilities.get(truth, 0) > 0, (str(move), truth)
        checked += 1
    assert checked >= 5


def test_what_the_rack_holds_after_drawing_matches_every_draw_enumerated(
    sowpods: Lexicon, leaves: Leaves
) -> None:
    game = game_until(sowpods, leaves, 3, lambda g, m: m.is_play and g.bag_count <= 12 and len(m.tiles) >= 2)
    board, unseen, move = the_position_before(game)
    result = infer(board, unseen, move, sowpods, leaves=leaves, tolerance=10)
    after = list(unseen)
    for _r, _c, letter, blank in move.tiles:
        after[0 if blank else RULES.alphabet.code(letter)] -= 1
    assert result.drawn == min(len(move.tiles), sum(unseen) - RULES.rack_size)
    holds: Counter[str] = Counter()
    for leave in result.leaves:
        rest = Counter({LETTERS[c]: after[c] for c in range(len(LETTERS))})
        rest.subtract(Counter(leave.tiles))
        tiles = list(rest.elements())
        draws = list(itertools.combinations(range(len(tiles)), result.drawn))
        for letter in result.holds:
            if letter in leave.tiles:
                holds[letter] += leave.probability
            else:
                hits = sum(1 for d in draws if any(tiles[i] == letter for i in d))
                holds[letter] += leave.probability * hits / len(draws)
    for letter, p in result.holds.items():
        assert p == pytest.approx(holds[letter], abs=1e-9), letter
        assert p >= result.kept[letter] - 1e-12


def test_the_simulation_draws_the_opponent_s_rack_from_the_leaves_inferred(
    sowpods: Lexicon, leaves: Leaves
) -> None:
    """One reply ply: an opponent known to keep AEINST bingoes far more often than one keeping
    VVWWQ; the same seed and leaves repeat; without leaves the deal is the old one."""
    board = parse_cgp("15/15/15/15/15/15/15/4FOXY7/15/15/15/15/15/15/15 DGLNOPU/ 40/0 0", RULES).board
    game = Game.from_board(board, "DGLNOPU", sowpods, seed=2)
    base = infer_written(game, "8E FOXY", leaves=leaves)

    def rate(kept: str) -> tuple[float, list]:
        counts = bytearray(64)
        for tile in kept:
            counts[RULES.alphabet.code(tile)] += 1
        forced = replace(base, core_leaves=[(bytes(counts), 1.0)])
        sim = Simulation(game, leaves=leaves, candidates=3, plies=1, confidence=0, seed=4, inference=forced)
        result = sim.step(150)
        return sum(c.opponent_bingo_rate for c in result.candidates) / 3, [
            (c.mean, c.win_rate) for c in result.candidates
        ]

    bingo_prone, first = rate("AEINST")
    junk, _ = rate("VVWWQ")
    assert bingo_prone > 0.3 and junk < 0.05, (bingo_prone, junk)
    assert rate("AEINST")[1] == first
    plain = Simulation(game, leaves=leaves, candidates=3, plies=1, confidence=0, seed=4).step(150)
    same = Simulation(game, leaves=leaves, candidates=3, plies=1, confidence=0, seed=4, inference=None).step(
        150
    )
    assert [(c.move, c.mean) for c in plain.candidates] == [(c.move, c.mean) for c in same.candidates]
    inferred_run = Simulation(
        game, leaves=leaves, candidates=3, plies=1, confidence=0, seed=4, inference=base
    )
    assert inferred_run.inferred
    counts = bytearray(64)
    counts[RULES.alphabet.code("Q")] = 2  # one Q in the set
    bad = replace(base, core_leaves=[(bytes(counts), 1.0)])
    with pytest.raises(SimulationError, match="inferred leave 1 holds 2 tiles"):
        Simulation(game, leaves=leaves, candidates=3, plies=1, seed=4, inference=bad)


def test_the_command_prints_what_python_infers(sowpods: Lexicon, leaves: Leaves, capsys) -> None:
    cgp = "15/15/15/15/15/15/15/3HEJRA7/15/15/15/15/15/15/15 AEINRST/ 38/0 0 lex sowpods;"
    assert main(["infer", "--cgp", cgp, "--last-move", "8D HEJRA", "--format", "json", "--top", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    board = parse_cgp(cgp, RULES).board
    game = Game.from_board(board, "AEINRST", sowpods)
    expected = infer_written(game, "8D HEJRA", leaves=leaves)
    assert data["racks"] == expected.racks and data["consistent"] == expected.consistent
    assert data["leaves"] == [leave.to_dict() for leave in expected.leaves[:50]]
    assert data["drawn"] == 5 and data["exhaustive"]
    assert main(["infer", "--cgp", cgp, "--last-move", "8D HEJRA"]) == 0
    table = capsys.readouterr().out
    assert "leave kept" in table and expected.leaves[0].tiles in table
    assert main(["sim", "--cgp", cgp, "--infer", "8D HEJRA", "--iterations", "20", "--candidates", "3"]) == 0
    assert "inferred from 8D HEJRA" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("last_move", "message"),
    [
        ("8D HEJRAS", "the board has no tile"),
        ("8D HEXRA", "F8 holds J, the move writes X"),
        ("8D hEJRA", "D8 holds H, the move writes a blank h"),
        ("exch 9", "an exchange is written 'exch N'"),
        ("8D", "write the last move as a square and a word"),
        ("Z9 HEJRA", ""),
    ],
)
def test_a_last_move_the_board_does_not_show_is_refused(capsys, last_move: str, message: str) -> None:
    cgp = "15/15/15/15/15/15/15/3HEJRA7/15/15/15/15/15/15/15 AEINRST/ 38/0 0 lex sowpods;"
    assert main(["infer", "--cgp", cgp, "--last-move", last_move]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err


def test_bad_settings_and_moves_are_refused(sowpods: Lexicon, leaves: Leaves) -> None:
    board = parse_cgp("15/15/15/15/15/15/15/3HEJRA7/15/15/15/15/15/15/15 AEINRST/ 38/0 0", RULES).board
    game = Game.from_board(board, "AEINRST", sowpods)
    before, move = last_move_on_board(game.board, "8D HEJRA", sowpods)
    unseen = core.game_unseen(game._state, 0)
    with pytest.raises(InferenceError, match="tolerance"):
        infer(before, unseen, move, sowpods, tolerance=-1)
    with pytest.raises(InferenceError, match="max_racks"):
        infer(before, unseen, move, sowpods, max_racks=0)
    with pytest.raises(InferenceError, match="was not among the unseen tiles"):
        infer(before, unseen, move, sowpods)  # the unseen tiles after the move lack its J
    assert not infer(before, unseen, Move.pass_turn(), sowpods).informative
    _b, with_j = position_before(game.board, unseen, move)
    far = infer(before, with_j, move, sowpods, leaves=leaves, tolerance=0)
    assert far.informative  # the HEJRA racks exist; a tolerance of 0 still leaves some
    with pytest.raises(InferenceError, match="no move yet"):
        infer_last_move(Game.new(sowpods, seed=1))
