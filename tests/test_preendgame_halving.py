"""The pre-endgame's estimate from 3 in the bag (successive halving, docs/preendgame.md "3 to 6 in
the bag"), on the small set of tests/test_preendgame.py. Every world a candidate is valued in is
held to a brute-force recomputation of the same line (the candidate, every order of the bag, each
later move made while the bag holds tiles its player's best by score, the endgames by minimax);
the rounds are recomputed from the worlds' order to check who was kept; the estimate is anytime
and the same for a seed however it is sliced."""

from __future__ import annotations

import itertools
import json
import subprocess
from fractions import Fraction

import pytest
from gaddag_solver.game import preendgame_halving
from gaddag_solver.game.preendgame import (
    DROPPED,
    ESTIMATED,
    EXACT,
    PreendgameError,
    PreendgameSearch,
)
from test_preendgame import Oracle, codes, preendgames, run_in_slices, seen_by_mover, small_peg_command


class EquityOracle(Oracle):
    """The brute-force lines of the estimate: a move made while the bag holds tiles is the best by
    score of its player's own rack (no leave table), the pass when there is no play."""

    def value(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
              scoreless: int) -> Fraction:  # fmt: skip
        game = self.position(board, (mine, theirs), bag, spread, scoreless)
        record = self.candidates(game)[0]
        return self.play_value(board, mine, theirs, bag, spread, scoreless, record)

    def world_value(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
                    scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        """A candidate's outcome in one world: the average over every order of the bag."""
        orders = list(itertools.permutations(bag))
        total = sum(self.play_value(board, mine, theirs, list(o), spread, scoreless, record) for o in orders)
        return Fraction(total, len(orders))


def test_every_world_valued_matches_the_brute_force_line_and_the_halving_keeps_the_better_half() -> None:
    games = [g for g in preendgames(3, range(60)) if len(PreendgameSearch(g)._root) >= 6][:2]
    assert len(games) == 2
    for game in games:
        search = PreendgameSearch(game)  # auto: halving with 3 in the bag
        result = search.run()
        assert result.method == "halving" and result.complete and result.reason == "estimated"
        halving = search._halving
        oracle = EquityOracle(game)
        board, mine, unseen, spread = seen_by_mover(game)
        worlds = search._root_worlds
        for index, (root, candidate) in enumerate(zip(search._root, result.candidates, strict=True)):
            assert candidate.worlds_valued == len(root.values)
            if index >= preendgame_halving.HALVING_CANDIDATES:
                assert candidate.estimate is None and not root.values
                continue
            for world in worlds:
                if world.opponent in root.values:
                    truth = oracle.world_value(board, mine, codes(world.opponent), codes(world.bag), spread,
                                               game.scoreless_turns, root.record)  # fmt: skip
                    assert root.values[world.opponent] == truth, (str(candidate.move), world)
            # the worlds valued are the first of the seeded order, and the estimate their weighted mean
            valued = [worlds[k] for k in halving.order[: candidate.worlds_valued]]
            assert {w.opponent for w in valued} == set(root.values)
            weight = sum(w.weight for w in valued)
            assert candidate.estimate == sum(w.weight * root.values[w.opponent] for w in valued) / weight

        # a candidate dropped after n worlds was behind (or level, later in order) every candidate
        # that went on, as they stood after the same n worlds
        def standing(index: int, n: int, search: PreendgameSearch = search) -> Fraction:
            root, order = search._root[index], search._halving.order  # type: ignore[union-attr]
            valued = [search._root_worlds[k] for k in order[:n]]
            return sum(w.weight * root.values[w.opponent] for w in valued) / sum(w.weight for w in valued)

        survivors = [i for i, c in enumerate(result.candidates) if c.status == ESTIMATED]
        assert survivors == [result.best_index]
        for i, c in enumerate(result.candidates):
            if c.status != DROPPED:
                continue
            n = c.worlds_valued
            for j, other in enumerate(result.candidates):
                if other.status in (ESTIMATED, DROPPED) and other.worlds_valued > n:
                    assert (standing(j, n), -j) > (standing(i, n), -i)


def test_the_estimate_is_anytime_and_the_same_for_a_seed() -> None:
    game = [g for g in preendgames(3, range(60)) if len(PreendgameSearch(g)._root) >= 10][0]
    whole = PreendgameSearch(game, seed=5).run()
    result, parts = run_in_slices(PreendgameSearch(game, seed=5), 0.005)
    assert parts > 1
    assert [(c.status, c.estimate, c.worlds_valued) for c in result.candidates] == [
        (c.status, c.estimate, c.worlds_valued) for c in whole.candidates
    ]
    assert PreendgameSearch(game, seed=6)._halving.order != PreendgameSearch(game, seed=5)._halving.order


def test_methods_choose_between_the_exact_search_and_the_estimate() -> None:
    one = preendgames(1, range(60))[0]
    assert PreendgameSearch(one)._halving is None  # auto: exact with 1 in the bag
    estimate = PreendgameSearch(one, method="halving").run()
    assert estimate.method == "halving" and all(c.status != EXACT for c in estimate.candidates)
    exact = PreendgameSearch(one).run()
    # with 1 in the bag a play empties it: its worlds are the exact model's endgames
    for a, b in zip(exact.candidates, estimate.candidates, strict=True):
        if a.status == EXACT and b.worlds_valued == len(b.worlds) and a.move.kind != "pass":
            assert a.win == b.estimate
    three = preendgames(3, range(60))[0]
    assert PreendgameSearch(three, method="exact")._halving is None
    with pytest.raises(PreendgameError, match="method is one of auto, exact, halving"):
        PreendgameSearch(three, method="guess")


def test_peg_command_estimates_with_three_in_the_bag(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = [g for g in preendgames(3, range(60)) if len(PreendgameSearch(g)._root) >= 6][0]
    from gaddag_solver import Game

    expected = PreendgameSearch(Game.from_board(game.board, game.rack(), game.lexicon)).run()  # level scores
    command = [*small_peg_command(tmp_path), "--rack", str(game.rack())]
    board_file = "\n".join(game.board.to_rows()) + "\n"
    run = subprocess.run([*command, "--format", "json"], input=board_file, capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["method"] == "halving" and found["complete"] and found["best"] == str(expected.best.move)
    estimates = {c["move"]: c["estimate"] for c in found["candidates"]}
    assert estimates[str(expected.best.move)] == float(expected.best.estimate)
    table = subprocess.run(command, input=board_file, capture_output=True, text=True, timeout=120)
    assert table.returncode == 0, table.stderr
    assert (
        f"best: {expected.best.move}, wins ~{100 * float(expected.best.estimate):.1f}% (estimated"
        in table.stdout
    )
