"""The pre-endgame solver against a brute-force oracle of the same model (docs/preendgame.md).

The oracle shares nothing with the solver but the move generator and the game's own rules: it
treats the unseen tiles as distinct objects, so every choice of the opponent's tiles and every
order of the bag is equally likely (no weights, no sub-multisets), plays each line on a real Game
(the core draws from the end of the bag, which the oracle sets for each order), values each
decision over every candidate with no pruning, and ends in the brute-force endgame minimax of
tests/test_endgame.py. Positions come from self-play on a 14-tile set with racks of three.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from gaddag_solver import Game, Leaves, build_gaddag
from gaddag_solver import _core_api as core
from gaddag_solver.game.preendgame import (
    EXACT,
    RULED_OUT,
    PreendgameError,
    PreendgameResult,
    PreendgameSearch,
    sub_multisets,
)
from gaddag_solver.move import MOVE_RECORD
from small_words import WORDS as SMALL_WORDS
from test_endgame import PASS_RECORD, minimax, small_lexicon, small_set_rules
from test_game import random_csv


def outcome(spread: int) -> Fraction:
    return Fraction(1) if spread > 0 else Fraction(1, 2) if spread == 0 else Fraction(0)


class Oracle:
    """The model, brute force: decisions by exhaustive expectation over tile objects."""

    def __init__(self, game: Game) -> None:
        self.lexicon = game.lexicon
        self.rules = game.rules
        self.decisions: dict[tuple[object, ...], bytes] = {}
        # pure functions, remembered: endgame values by position (spreads from it on, whatever
        # the scores), and a move's outcome in one world with one bag order
        self.endgames: dict[bytes, int] = {}
        self.plays: dict[tuple[object, ...], Fraction] = {}
        self.spreads: dict[tuple[object, ...], Fraction] = {}

    def candidates(self, game: Game) -> list[bytes]:
        _count, records = game.solver.solve_raw(game.board, game.rack())
        plays = [records[i : i + MOVE_RECORD.size] for i in range(0, len(records), MOVE_RECORD.size)]
        plays.sort(key=lambda r: (-MOVE_RECORD.unpack(r)[0], r[8:]))  # by score, then the move itself
        return [*plays, PASS_RECORD]

    def position(
        self, board: bytes, racks: tuple[list[int], list[int]], bag: list[int], spread: int, scoreless: int
    ) -> Game:
        """A Game with player 0 to move holding racks[0], the opponent racks[1], and the bag in
        this order (drawn from its end)."""
        game = Game(self.lexicon, self.rules)
        counts = []
        for rack in racks:
            c = bytearray(64)
            for code in rack:
                c[code] += 1
            counts.append(bytes(c))
        core.game_from_position(game._state, game._rules, board, (counts[0], counts[1]), (spread, 0), 0, 0)
        assert game.bag_count == len(bag)
        for i, code in enumerate(bag):
            game._state.game.bag[i] = code
        game._state.game.scoreless = scoreless
        return game

    def play_value(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
                   scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        """The mover's outcome of ``record`` with the bag in this order."""
        key = (board, tuple(mine), tuple(theirs), tuple(bag), spread, scoreless, record)
        if key not in self.plays:
            self.plays[key] = self._play_value(board, mine, theirs, bag, spread, scoreless, record)
        return self.plays[key]

    def _play_value(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
                    scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        game = self.position(board, (mine, theirs), bag, spread, scoreless)
        core.game_move(game._state, game._rules, record)
        if game.over:
            return outcome(game.scores[0] - game.scores[1])
        if game.bag_count == 0:  # the opponent moves in an endgame
            return outcome(game.scores[0] - game.scores[1] - minimax(game, self.endgames))
        state = game._state.game
        after = bytes(state.board[0 : self.rules.rows * self.rules.cols])
        left = [state.bag[i] for i in range(state.bag_count)]
        mine_now = [c for c in range(64) for _ in range(state.rack[0][c])]
        return 1 - self.value(after, theirs, mine_now, left, game.scores[1] - game.scores[0], state.scoreless)

    def value(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
              scoreless: int) -> Fraction:  # fmt: skip
        """The mover's outcome when it decides on what it sees and the world is this one."""
        record = self.decide(board, sorted(mine), sorted(theirs + bag), len(bag), spread, scoreless)
        return self.play_value(board, mine, theirs, bag, spread, scoreless, record)

    def decide(self, board: bytes, mine: list[int], unseen: list[int], bag: int, spread: int,
               scoreless: int) -> bytes:  # fmt: skip
        key = (board, tuple(mine), tuple(unseen), bag, spread, scoreless)
        if key in self.decisions:
            return self.decisions[key]
        game = self.position(board, (mine, unseen[: len(unseen) - bag]), unseen[len(unseen) - bag :], spread,
                             scoreless)  # fmt: skip
        best, best_value = b"", Fraction(-1)
        for record in self.candidates(game):
            v = self.expected(board, mine, unseen, bag, spread, scoreless, record)
            if v > best_value:
                best, best_value = record, v
        self.decisions[key] = best
        return best

    def final_spread(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
                     scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        """The mover's final spread after ``record`` with the bag in this order, both sides then
        making the model's decisions, the endgames played perfectly."""
        key = (board, tuple(mine), tuple(theirs), tuple(bag), spread, scoreless, record)
        if key not in self.spreads:
            self.spreads[key] = self._final_spread(board, mine, theirs, bag, spread, scoreless, record)
        return self.spreads[key]

    def _final_spread(self, board: bytes, mine: list[int], theirs: list[int], bag: list[int], spread: int,
                      scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        game = self.position(board, (mine, theirs), bag, spread, scoreless)
        core.game_move(game._state, game._rules, record)
        if game.over:
            return Fraction(game.scores[0] - game.scores[1])
        if game.bag_count == 0:
            return Fraction(game.scores[0] - game.scores[1] - minimax(game, self.endgames))
        state = game._state.game
        after = bytes(state.board[0 : self.rules.rows * self.rules.cols])
        left = [state.bag[i] for i in range(state.bag_count)]
        mine_now = [c for c in range(64) for _ in range(state.rack[0][c])]
        theirs_spread = game.scores[1] - game.scores[0]
        choice = self.decide(after, sorted(theirs), sorted(mine_now + left), len(left), theirs_spread,
                             state.scoreless)  # fmt: skip
        return -self.final_spread(after, theirs, mine_now, left, theirs_spread, state.scoreless, choice)

    def expected_spread(self, board: bytes, mine: list[int], unseen: list[int], bag: int, spread: int,
                        scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        total, count = Fraction(0), 0
        objects = range(len(unseen))
        for held in itertools.combinations(objects, len(unseen) - bag):
            theirs = [unseen[i] for i in held]
            rest = [unseen[i] for i in objects if i not in held]
            for order in itertools.permutations(rest):
                total += self.final_spread(board, mine, theirs, list(order), spread, scoreless, record)
                count += 1
        return total / count

    def expected(self, board: bytes, mine: list[int], unseen: list[int], bag: int, spread: int,
                 scoreless: int, record: bytes) -> Fraction:  # fmt: skip
        """Over every choice of the opponent's tiles (as objects) and every order of the bag."""
        total, count = Fraction(0), 0
        objects = range(len(unseen))
        for held in itertools.combinations(objects, len(unseen) - bag):
            theirs = [unseen[i] for i in held]
            rest = [unseen[i] for i in objects if i not in held]
            for order in itertools.permutations(rest):
                total += self.play_value(board, mine, theirs, list(order), spread, scoreless, record)
                count += 1
        return total / count


def preendgames(bag: int, seeds: range) -> list[Game]:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    found = []
    for seed in seeds:
        game = Game.new(lexicon, rules, seed=seed)
        while not game.over and game.bag_count > bag:
            game.play(game.best_move("greedy" if seed % 2 else "equity"))
        if not game.over and game.bag_count == bag:
            found.append(game)
    return found


def codes(counts: bytes) -> list[int]:
    return [c for c in range(64) for _ in range(counts[c])]


def seen_by_mover(game: Game) -> tuple[bytes, list[int], list[int], int]:
    """The oracle's view of a position: the board, the mover's tiles, the unseen tiles (as codes)
    and the mover's spread."""
    mover = game.to_move
    board = core.game_board(game._state, game.rules.rows * game.rules.cols)
    mine = codes(core.game_rack(game._state, mover))
    unseen = sorted(codes(bytes(core.game_unseen(game._state, mover))))
    return board, mine, unseen, game.scores[mover] - game.scores[1 - mover]


@pytest.mark.parametrize("bag", [1, 2])
def test_every_candidate_wins_as_often_as_the_brute_force_model_says(bag: int) -> None:
    games = preendgames(bag, range(60))
    assert len(games) >= 12, len(games)
    decided_by_draw = checked = 0
    for number, game in enumerate(games):
        if checked == (6 if bag == 1 else 3):
            break
        oracle = Oracle(game)
        board, mine, unseen, spread = seen_by_mover(game)
        search = PreendgameSearch(game, prune=number % 2 == 0)
        if len(search._root) > 24:  # the oracle values every candidate in full: keep it quick
            continue
        checked += 1
        result = search.run()
        assert result.complete and result.reason == "solved"
        records = [root.record for root in search._root]
        truth = [oracle.expected(board, mine, unseen, bag, spread, game.scoreless_turns, r) for r in records]
        best = max(truth)
        assert result.best.win == best
        assert truth.index(best) == result.best_index  # the first of the best, in the same order
        for candidate, value in zip(result.candidates, truth, strict=True):
            assert candidate.win_low <= value <= candidate.win_high, (str(candidate.move), value)
            if candidate.status == EXACT:
                assert candidate.win == value
            else:
                assert candidate.status == RULED_OUT and candidate.win_high <= best
        decided_by_draw += len({o for _b, _r, _w, o in result.best.worlds if o is not None}) > 1
    assert checked == (6 if bag == 1 else 3)
    assert decided_by_draw >= 1  # some best move's result depends on the draw


def test_sub_multisets_count_every_choice_of_tiles() -> None:
    counts = bytes([2, 0, 3, 1])
    for size in range(7):
        found = list(sub_multisets(counts, size))
        assert sum(w for _taken, w in found) == math.comb(6, size)
        assert all(sum(t) == size and all(t[c] <= counts[c] for c in range(4)) for t, _w in found)
        assert len({t for t, _w in found}) == len(found)


def test_the_pre_endgame_refuses_an_empty_or_full_bag_and_a_finished_game() -> None:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    game = Game.new(lexicon, rules, seed=3)
    with pytest.raises(PreendgameError, match="1 to 6 tiles"):
        PreendgameSearch(game)
    while not game.over and game.bag_count:
        game.play(game.best_move("equity"))
    if not game.over:
        with pytest.raises(PreendgameError, match="endgame"):
            PreendgameSearch(game)
        while not game.over:
            game.play(game.best_move("equity"))
    with pytest.raises(PreendgameError, match="over"):
        PreendgameSearch(game)


def run_in_slices(search: PreendgameSearch, seconds: float) -> tuple[PreendgameResult, int]:
    """Run a search ``seconds`` at a time until it is done: its last result and how many runs."""
    parts = 0
    while True:
        result = search.run(time_limit=seconds)
        parts += 1
        if result.complete:
            return result, parts
        assert result.reason == "time" and parts < 10_000


def test_a_stopped_search_goes_on_where_it_stopped_to_the_same_answer() -> None:
    games = preendgames(2, range(60))
    game = games[0]
    whole = PreendgameSearch(game).run()
    result, parts = run_in_slices(PreendgameSearch(game), 0.02)
    assert parts > 1
    assert [c.win_low for c in result.candidates] == [c.win_low for c in whole.candidates]
    assert result.best_index == whole.best_index


def small_peg_command(tmp_path: Path) -> list[str]:
    """`gaddag-solver peg` on the small set's rules and lexicon, written to files, the board read
    from stdin."""
    rules = small_set_rules(2)
    words = sorted(w for w in SMALL_WORDS if set(w) <= set(rules.alphabet.letters))
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    (tmp_path / "small.gaddag").write_bytes(data)
    (tmp_path / "small.json").write_text(json.dumps(rules.to_dict()))
    command = [sys.executable, "-m", "gaddag_solver", "peg", "--rules", str(tmp_path / "small.json")]
    return [*command, "--lexicon", str(tmp_path / "small.gaddag"), "--leaves", "none", "--board", "-"]


def test_peg_command_prints_the_solver_s_figures(tmp_path: Path) -> None:
    game = preendgames(2, range(60))[1]
    expected = PreendgameSearch(Game.from_board(game.board, game.rack(), game.lexicon)).run()  # level scores
    command = small_peg_command(tmp_path)
    board_file = "\n".join(game.board.to_rows()) + "\n"
    run = subprocess.run(
        [*command, "--rack", str(game.rack()), "--format", "json"],
        input=board_file, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["complete"] and found["best"] == str(expected.best.move)
    assert [c["win_high"] for c in found["candidates"]] == [float(c.win_high) for c in expected.candidates]
    table = subprocess.run(
        [*command, "--rack", str(game.rack())], input=board_file, capture_output=True, text=True, timeout=120
    )
    assert table.returncode == 0, table.stderr
    assert f"best: {expected.best.move}, wins {100 * float(expected.best.win):.1f}% (exact)" in table.stdout
    empty_board = "\n".join(["." * 9] * 9)
    refused = subprocess.run(
        [*command, "--rack", "AAC"], input=empty_board, capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2 and "1 to 6 tiles" in refused.stderr


def test_deferring_costly_worlds_to_a_second_pass_changes_no_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    """With budgets of one and 300 positions nearly every world waits for a later pass;
    the best, every exact figure and every bound must hold as with the default budget."""
    import gaddag_solver.game.preendgame as preendgame_module

    for game in preendgames(2, range(60))[:4]:
        whole = PreendgameSearch(game).run()
        monkeypatch.setattr(preendgame_module, "WORLD_BUDGETS", (1, 300))
        deferred = PreendgameSearch(game).run()
        monkeypatch.undo()
        assert deferred.complete and deferred.best_index == whole.best_index
        for a, b in zip(whole.candidates, deferred.candidates, strict=True):
            if a.status == EXACT and b.status == EXACT:
                assert a.win == b.win
            best = whole.best.win
            assert b.win_high <= best or b.status == EXACT
            if a.status == EXACT:
                assert b.win_low <= a.win <= b.win_high


def test_the_expected_spread_follows_the_model_s_own_decisions() -> None:
    """The oracle plays the model's decisions (its own, by the chance of winning) to the end in
    every world and bag order, with exact endgames, and averages the final spread."""
    for bag, count in ((1, 3), (2, 1)):
        for game in preendgames(bag, range(60))[:count]:
            search = PreendgameSearch(game)
            result = search.run()
            best = result.best_index
            assert best is not None
            spread = search.expected_spread(best)
            oracle = Oracle(game)
            board, mine, unseen, start = seen_by_mover(game)
            expected = oracle.expected_spread(board, mine, unseen, bag, start, game.scoreless_turns,
                                              search._root[best].record)  # fmt: skip
            assert spread == expected, (bag, float(spread), float(expected))
    ruled = next(i for i, c in enumerate(result.candidates) if c.status != EXACT)
    assert search.expected_spread(ruled) is None


def same_figures(a: PreendgameResult, b: PreendgameResult) -> None:
    assert a.best_index == b.best_index
    for x, y in zip(a.candidates, b.candidates, strict=True):
        assert (str(x.move), x.status, x.win_low, x.win_high) == (
            str(y.move),
            y.status,
            y.win_low,
            y.win_high,
        )
        assert x.worlds == y.worlds


@pytest.mark.parametrize("bag", [1, 2])
def test_the_model_in_the_core_gives_the_python_model_s_every_figure(bag: int) -> None:
    """The core's gd_peg_value against the same model written in Python, with and without a
    leave table to order the candidates (which decides between equal chances)."""
    games = preendgames(bag, range(60))[: 8 if bag == 1 else 4]
    rules = games[0].rules
    text, _ = random_csv(rules, random.Random(bag), 12)
    leaves = Leaves.from_csv_text(text, rules)
    for number, game in enumerate(games):
        table = leaves if number % 2 else None
        in_core = PreendgameSearch(game, leaves=table, prune=number % 3 != 0).run()
        in_python = PreendgameSearch(game, leaves=table, prune=number % 3 != 0, engine="python").run()
        assert in_core.complete and in_python.complete
        same_figures(in_core, in_python)
    with pytest.raises(PreendgameError, match="engine"):
        PreendgameSearch(games[0], engine="fortran")


def test_the_core_refuses_a_move_or_a_world_the_position_cannot_have() -> None:
    """gd_peg_value's checks: the bag holds 1 to 6 tiles, the move is a play or the pass of the
    mover's own tiles on this board, the racks are not empty."""
    game = preendgames(1, range(60))[0]
    search = PreendgameSearch(game)
    search.run()
    context = search._context()
    peg = search._core_peg(context)
    world = search._root_worlds[0]
    record = search._root[0].record
    here = (search._board, search._mine, world.opponent, world.bag, search._spread, search._scoreless)
    assert core.peg_value(peg, *here, record).status == core.lib.GD_PEG_DONE
    empty = bytes(64)
    seven = bytearray(world.bag)
    seven[next(c for c in range(64) if seven[c])] += 6
    cases = {
        "bag": (*here[:3], empty, *here[4:]),
        "7": (*here[:3], bytes(seven), *here[4:]),
        "no tiles": (here[0], empty, *here[2:]),
    }
    outside = bytearray(world.bag)
    outside[63] = 1
    cases["alphabet"] = (*here[:3], bytes(outside), *here[4:])
    for what, args in cases.items():
        with pytest.raises(core.CoreError, match=what):
            core.peg_value(peg, *args, record)
    play = next(r.record for r in search._root if r.record[13] == 0)
    exchange = bytearray(play)
    exchange[13] = 1
    with pytest.raises(core.CoreError, match="only plays and the pass"):
        core.peg_value(peg, *here, bytes(exchange))
    foreign = bytearray(play)
    placed = next(k for k in range(foreign[11]) if not foreign[16 + k] & 0x40)
    foreign[16 + placed] = next(c for c in range(1, 64) if search._mine[c] == 0 and c <= search._letters)
    with pytest.raises(core.CoreError, match="not a play of the rack"):
        core.peg_value(peg, *here, bytes(foreign))


def test_the_core_values_every_candidate_in_every_world_as_the_python_model_does() -> None:
    """Every root candidate in every world, not only those the search needs: the core's decisions
    value their candidates in an order of their own (the move decided last on the board first,
    the worlds where the others lost first) and must still choose, among moves of equal chances,
    the first in the candidates' order, as the Python model does."""
    checked = 0
    for game in preendgames(2, range(40)):
        in_core = PreendgameSearch(game)
        in_python = PreendgameSearch(game, engine="python")
        for root in in_core._root:
            for world in in_core._root_worlds:
                core_value = in_core._root_value(world, root.record)
                assert core_value == in_python._root_value(world, root.record)
                checked += 1
    assert checked >= 200, checked
