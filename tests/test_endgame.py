"""The endgame search against a brute-force minimax, and its interface.

The oracle is a plain minimax written here over the Python Game (every play the solver lists and
the pass, the game's own end rules and scores, positions remembered), with no pruning, no depth
limit and no ordering: it shares nothing with the C search but the move generator, which the
oracle tests check elsewhere. Endgames come from self-play on small tile sets, so the oracle
finishes in moments.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import gaddag_solver.game.endgame as endgame_module
import pytest
from gaddag_solver import Game, Leaves, Lexicon, Rules, Solver, build_gaddag
from gaddag_solver import _core_api as core
from gaddag_solver.game.endgame import EndgameError, EndgameSearch, both_racks, endgame_lexicon, solve_endgame
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.move import KIND_PASS, MOVE_RECORD
from small_words import WORDS as SMALL_WORDS
from tiny_rules import tiny_rules


def small_set_rules(scoreless_turns: int, rack_size: int = 3) -> Rules:
    """The tiny 9×9 board with a set of 14 tiles (a blank among them): endgames of a few tiles a side."""
    return tiny_rules(
        f"endgame{scoreless_turns}",
        rack_size=rack_size,
        bingo_bonus=20,
        letters=[["A", 1, 3], ["C", 3, 1], ["E", 1, 3], ["R", 1, 2], ["S", 1, 2], ["T", 2, 2]],
        vowels=["A", "E"],
        exchange_minimum=3,
        scoreless_turns=scoreless_turns,
    )


def small_lexicon(rules: Rules) -> Lexicon:
    words = sorted(w for w in SMALL_WORDS if set(w) <= set(rules.alphabet.letters))
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    return Lexicon.load(data, rules)


PASS_RECORD = MOVE_RECORD.pack(0, 0, 0, 0, 0, 0, 0, KIND_PASS, b"")


def each_move(game: Game) -> Iterator[int]:
    """Make every play the generator lists, then the pass, one at a time with the game's own rules,
    yielding the spread each gained for the player who made it (the game as it stands after the
    move, until the next is asked for); each is undone from a snapshot."""
    state = game._state
    mover = game.to_move
    _count, records = game.solver.solve_raw(game.board, game.rack())
    moves = [records[i : i + MOVE_RECORD.size] for i in range(0, len(records), MOVE_RECORD.size)]
    snapshot = state.snapshot()
    before = game.scores
    for record in [*moves, PASS_RECORD]:
        core.game_move(state, game._rules, record)
        yield (game.scores[mover] - before[mover]) - (game.scores[1 - mover] - before[1 - mover])
        state.restore(snapshot)


def minimax(game: Game, memo: dict[bytes, int]) -> int:
    """The spread the player to move gains from here to the end, playing perfectly on both sides:
    every play the generator lists and the pass; positions remembered by their board, racks, side
    to move and scoreless turns."""
    state = game._state
    squares = game.rules.rows * game.rules.cols
    key = core.game_board(state, squares) + core.game_rack(state, 0) + core.game_rack(state, 1)
    key += bytes([game.to_move, game.scoreless_turns])
    if key not in memo:
        memo[key] = max(gained if game.over else gained - minimax(game, memo) for gained in each_move(game))
    return memo[key]


def held_value(game: Game, player: int) -> int:
    counts = core.game_rack(game._state, player)[: len(game.rules.values) + 1]
    letters = sum(n * v for n, v in zip(counts[1:], game.rules.values, strict=True))
    return counts[0] * game.rules.blank_value + letters


def depth_minimax(game: Game, depth: int) -> int:
    """What the search gives a position at ``depth`` plies (docs/endgame.md): every move, each line
    to the end of the game or ``depth`` plies, where the player to move is guessed to gain what the
    opponent holds, less what it holds, plus half the bingo bonus."""
    mover = game.to_move

    def value(gained: int) -> int:
        if game.over:
            return gained
        if depth == 1:  # the opponent, to move: gains what the mover holds, less its own, plus the tempo
            guess = held_value(game, mover) - held_value(game, 1 - mover) + game.rules.bingo_bonus // 2
            return gained - guess
        return gained - depth_minimax(game, depth - 1)

    return max(value(gained) for gained in each_move(game))


def endgames(lexicon: Lexicon, rules: Rules, seeds: range) -> list[Game]:
    found = []
    for seed in seeds:
        game = Game.new(lexicon, rules, seed=seed)
        while not game.over and game.bag_count:
            game.play(game.best_move("greedy" if seed % 2 else "equity"))
        if not game.over:
            found.append(game)
    return found


def play_line(game: Game, line: list) -> int:  # type: ignore[type-arg]
    """Play a line on the game; the spread it gained for the player who moved first."""
    mover = game.to_move
    start = game.scores
    for move in line:
        assert not game.over, "the line goes on after the end of the game"
        game.play(move)
    return (game.scores[mover] - start[mover]) - (game.scores[1 - mover] - start[1 - mover])


@pytest.mark.parametrize("scoreless_turns", [2, 6])
def test_endgame_values_equal_a_brute_force_minimax(scoreless_turns: int) -> None:
    rules = small_set_rules(scoreless_turns)
    lexicon = small_lexicon(rules)
    games = endgames(lexicon, rules, range(24))
    assert len(games) >= 12
    passes_best = 0
    for number, game in enumerate(games):
        expected = minimax(game, {})
        # half of them with the whole lexicon, half with the endgame's own words
        result = solve_endgame(game, prune=number % 2 == 0)
        assert result.complete and result.reason == "solved"
        assert result.value == expected, f"{game}: search {result.value}, minimax {expected}"
        # the line is a real game to its end, worth what the search says
        assert play_line(game, result.line) == expected
        assert game.over
        passes_best += result.line[0].kind == "pass"
    assert passes_best < len(games)


def test_the_opponent_s_going_out_refutes_moves_unplayed() -> None:
    """The bound the opponent's going out sets (docs/endgame.md) refutes moves on these small
    endgames, and the values are still the brute-force minimax's: the counter says the path the
    minimax tests hold is taken."""
    rules = small_set_rules(6)
    lexicon = small_lexicon(rules)
    refuted = 0
    for game in endgames(lexicon, rules, range(12)):
        state = EndgameSearch(game)._state
        for depth in (1, 2, 3, 64):
            found = core.endgame_search(state, depth, 10**9)
            refuted += found.stats[6]  # moves refuted by the opponent's going out
        assert found.complete and found.value == minimax(game, {})
    assert refuted > 0


def test_the_player_s_best_alone_refutes_positions() -> None:
    """The bounds from a side's best alone (docs/endgame.md) are asked once an endgame's search has
    visited 50,000 positions: on a self-played English endgame that takes more, they settle
    positions and refute plays that leave one tile, and the value is the one two threads find (the
    sanitizer build asks them from the first position, holds the small and short endgames' values
    to the brute-force minimax and every best alone to every line played out, and searches every
    play so refuted to check that it is worth no more than its bound)."""
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = Game.new(lexicon, seed=39)
    while game.bag_count and not game.over:
        game.play(game.best_move("equity", Leaves.load("sowpods")))
    state = EndgameSearch(game)._state
    settled, refuted, depth = 0, 0, 0
    while True:
        depth = depth + 1 if depth < 6 else 64
        found = core.endgame_search(state, depth, 10**9)
        settled += found.stats[7]  # positions settled by a side's best alone
        refuted += found.stats[8]  # plays refuted by the best alone of the one tile they leave
        if found.complete or depth == 64:
            break
    assert found.complete and settled > 0 and refuted > 0
    assert found.value == solve_endgame(game, threads=2).value


# self-played English games whose endgames, played on greedily, come to a player to move with three
# tiles or fewer against one or two: small enough for the brute-force minimax in a few seconds
SHORT_ENGLISH_SEEDS = (2, 8, 12, 15, 23, 25, 26, 30, 31)


def test_short_english_endgames_equal_a_brute_force_minimax() -> None:
    """On full English boards, where the player's best alone with two tiles reads the other tile's
    squares after the first (docs/endgame.md); the sanitizer build also finds every such best by
    playing each line out, and fails on any difference."""
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    checked = 0
    for seed in SHORT_ENGLISH_SEEDS:
        game = Game.new(lexicon, seed=seed)
        while game.bag_count and not game.over:
            game.play(game.best_move("equity"))
        while not game.over and not (
            len(game.rack(game.to_move)) == 3 and 1 <= len(game.rack(1 - game.to_move)) <= 2
        ):
            game.play(game.best_move("greedy"))
        if game.over:
            continue
        assert solve_endgame(game).value == minimax(game, {}), seed
        checked += 1
    assert checked >= 6


def test_each_depth_equals_a_depth_limited_minimax() -> None:
    """The values of the shallow depths, where lines are cut off and valued by the guess: the
    search finds only the best move at its horizon, without listing the others, so this holds it
    to every move valued one by one. English endgames where the player to move holds up to three
    tiles against up to seven (the horizon's positions there hold the long racks), to depth 2; small
    ones to depth 3. (The sanitizer build also checks every horizon position's move against the
    best of all its moves.)"""
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    checked = 0
    for seed in range(1, 40):
        game = Game.new(lexicon, seed=seed)
        while game.bag_count and not game.over:
            game.play(game.best_move("equity"))
        if game.over:
            continue
        # from the side to move, or from the other side (it is given the unseen tiles)
        for side in (game, Game.from_board(game.board, game.rack(1 - game.to_move), lexicon)):
            if len(side.rack(side.to_move)) > 3 or checked == 8:
                continue
            for result in EndgameSearch(side).deepen(max_depth=2):
                if not result.complete:
                    expected = depth_minimax(side, result.depth)
                    assert result.value == expected, f"seed {seed}, depth {result.depth}"
            checked += 1
    assert checked == 8
    rules = small_set_rules(6)
    for game in endgames(small_lexicon(rules), rules, range(8)):
        for result in EndgameSearch(game).deepen(max_depth=3):
            if not result.complete:
                assert result.value == depth_minimax(game, result.depth), f"{game}, depth {result.depth}"


def test_endgame_with_racks_of_five_equals_minimax() -> None:
    rules = small_set_rules(2, rack_size=5)
    lexicon = small_lexicon(rules)
    sizes = [(g, sorted(len(r) for r in g.racks)) for g in endgames(lexicon, rules, range(60))]
    games = [g for g, (short, long) in sizes if long >= 4 and short + long <= 6][:4]
    assert len(games) >= 2
    for game in games:
        expected = minimax(game, {})
        assert solve_endgame(game).value == expected


def short_endgame(lexicon: Lexicon, most: int) -> Game:
    """The first self-played English endgame (seeds from 12) whose opponent holds at most ``most``
    tiles: one the search solves in moments."""
    for seed in range(12, 60):
        game = Game.new(lexicon, seed=seed)
        while game.bag_count and not game.over:
            game.play(game.best_move("equity"))
        if not game.over and len(game.rack(1 - game.to_move)) <= most:
            return game
    raise AssertionError(f"no endgame with an opponent's rack of at most {most} tiles in these seeds")


def test_a_seven_tile_endgame_line_plays_out_to_its_value() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = short_endgame(lexicon, 3)
    depths = []
    result = EndgameSearch(game).run(progress=lambda r: depths.append(r.depth))
    assert result.complete
    assert depths == sorted(depths) and depths[-1] == result.depth
    assert play_line(game, result.line) == result.value
    assert game.over


def test_endgame_refuses_tiles_in_the_bag_and_a_finished_game() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = Game.new(lexicon, seed=1)
    with pytest.raises(EndgameError, match="empty bag: 86 tiles"):
        EndgameSearch(game)
    rules = small_set_rules(2)
    small = small_lexicon(rules)
    over = Game.new(small, rules, seed=3)
    while not over.over:
        over.play(over.best_move())
    with pytest.raises(EndgameError, match="over"):
        EndgameSearch(over)


def test_a_time_limit_gives_the_deepest_finished_line() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = Game.new(lexicon, seed=4)
    while game.bag_count:
        game.play(game.best_move("equity"))
    search = EndgameSearch(game)
    result = search.run(time_limit=0.05)
    assert result.reason in ("time", "solved")
    assert result.line and result.depth >= 1
    assert result.complete == (result.reason == "solved")


def test_endgame_command_prints_the_line() -> None:
    import json
    import subprocess
    import sys

    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = Game.new(lexicon, seed=2)
    while game.bag_count:
        game.play(game.best_move("equity"))
    expected = solve_endgame(Game.from_board(game.board, game.rack(), lexicon))
    board_file = "\n".join(game.board.to_rows()) + "\n"
    command = [sys.executable, "-m", "gaddag_solver", "endgame", "--lexicon", "sowpods", "--board", "-"]
    run = subprocess.run(
        [*command, "--rack", str(game.rack()), "--format", "json"],
        input=board_file, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["value"] == expected.value and result["complete"]
    assert result["line"] == [str(m) for m in expected.line]
    refused = subprocess.run(
        [*command, "--rack", "AEINRST"],
        input="\n".join(["." * 15] * 15),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2 and "empty bag" in refused.stderr


def fits_a_line(word: str, rows: list[str], tiles: Counter[str]) -> bool:
    """Whether ``word`` fits a line of the board (rows of letters, "." empty) through at least one
    tile on it, its empty squares filled from ``tiles`` ("?" blanks) and the squares just before
    and after it empty or the edge: the definition of gd_endgame_words, checked letter by letter."""
    lines = rows + ["".join(column) for column in zip(*rows, strict=True)]
    for line in lines:
        for start in range(len(line) - len(word) + 1):
            end = start + len(word)
            if (start > 0 and line[start - 1] != ".") or (end < len(line) and line[end] != "."):
                continue
            squares = line[start:end]
            if all(s == "." for s in squares) or all(s != "." for s in squares):
                continue
            if any(s != "." and s != letter for s, letter in zip(squares, word, strict=True)):
                continue
            needed = Counter(letter for s, letter in zip(squares, word, strict=True) if s == ".")
            missing = sum((needed - tiles).values())
            if missing <= tiles["?"]:
                return True
    return False


def endgame_tiles(game: Game) -> Counter[str]:
    return Counter(str(game.racks[0]) + str(game.racks[1]))


def found_words(game: Game, lexicon: Lexicon) -> set[str]:
    board = core.game_board(game._state, game.rules.rows * game.rules.cols)
    raw = core.endgame_words(lexicon._core, game._rules, board, both_racks(game), 0)
    assert raw is not None
    return {word.upper() for word in lexicon._words(raw)}


def board_rows(game: Game) -> list[str]:
    return [row.upper().replace(" ", ".") for row in game.board.to_text().splitlines()]


def test_endgame_words_are_the_words_that_fit_a_line_through_the_board() -> None:
    rules = small_set_rules(6, rack_size=5)
    lexicon = small_lexicon(rules)
    words = sorted(w for w in SMALL_WORDS if set(w) <= set(rules.alphabet.letters))
    checked = 0
    for game in endgames(lexicon, rules, range(30))[:8]:
        rows, tiles = board_rows(game), endgame_tiles(game)
        expected = {w for w in words if fits_a_line(w, rows, tiles)}
        assert found_words(game, lexicon) == expected, game.board.to_text()
        checked += len(expected)
    assert checked > 20


def test_endgame_words_on_an_english_endgame_with_a_sampled_lexicon() -> None:
    full = Lexicon.load(resolve_lexicon("sowpods"))
    game = short_endgame(full, 7)
    rows, tiles = board_rows(game), endgame_tiles(game)
    # words of a few letters from the full list: enough to hold many that fit, few enough to check
    words = [w.upper() for length in range(2, 6) for w in full.pattern("?" * length)][::7]
    data, _ = build_gaddag(words, full.alphabet)
    sampled = Lexicon.load(data)
    expected = {w for w in words if fits_a_line(w, rows, tiles)}
    assert len(expected) > 50
    assert found_words(game, sampled) == expected


def test_the_endgames_lexicon_gives_the_same_plays_down_random_lines() -> None:
    full = Lexicon.load(resolve_lexicon("sowpods"))
    rules = Rules.load("english")
    solver = Solver(full, rules)
    compared = 0
    for seed in (3, 8, 20):
        game = Game.new(full, seed=seed)
        while game.bag_count and not game.over:
            game.play(game.best_move("equity"))
        own = endgame_lexicon(game)
        assert own is not None and len(own) < len(full) // 2
        pruned = Solver(own, rules)
        chooser = random.Random(seed)
        while not game.over:
            board, rack = game.board, game.rack()
            plays = sorted((str(m), m.score) for m in solver.solve(board, rack))
            same = sorted((str(m), m.score) for m in pruned.solve(board, rack))
            assert same == plays
            compared += len(plays)
            moves = game.moves()
            game.play(chooser.choice(moves[: max(1, len(moves) // 3)]))
    assert compared > 100


def test_a_time_limit_counts_from_the_start_not_from_each_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves 0.1 s at every reading: with a 1 s limit the search stops after about ten
    slices, however the depths fall (it once restarted the limit at each finished depth)."""
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    leaves = Leaves.load("sowpods", Rules.load("english"))
    game = Game.new(lexicon, seed=2)
    while game.bag_count:
        game.play(game.best_move("equity", leaves))
    assert sum(len(rack) for rack in game.racks) == 14  # seven a side: hundreds of slices to solve
    readings = iter(range(10**6))
    monkeypatch.setattr(endgame_module.time, "perf_counter", lambda: next(readings) / 10)
    slices = []
    real_search = core.endgame_search
    monkeypatch.setattr(core, "endgame_search", lambda *a: slices.append(1) or real_search(*a))
    result = EndgameSearch(game).run(time_limit=1.0)
    assert result.reason == "time" and not result.complete
    assert len(slices) <= 10


@pytest.mark.parametrize("max_depth", [3, 4])
def test_a_max_depth_past_the_stepped_depths_ends_the_search_there(
    monkeypatch: pytest.MonkeyPatch, max_depth: int
) -> None:
    """Depths go one at a time up to STEP_DEPTHS, then to max_depth, and stop there when that
    search is not complete. (A max_depth from STEP_DEPTHS up once searched it again and again
    until the time limit, or for ever without one.) STEP_DEPTHS is lowered to 2 here so that a
    7-vs-7 endgame, never complete by depth 4, gets there in moments."""
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    leaves = Leaves.load("sowpods", Rules.load("english"))
    game = Game.new(lexicon, seed=2)
    while game.bag_count:
        game.play(game.best_move("equity", leaves))
    monkeypatch.setattr(endgame_module, "STEP_DEPTHS", 2)
    depths = []
    for result in EndgameSearch(game).deepen(max_depth=max_depth, time_limit=60):
        depths.append(result.depth)
        assert len(depths) <= 4, f"depths searched so far: {depths}"
    assert depths == [1, 2, max_depth]
    assert not result.complete and result.reason == "depth"
    ran = EndgameSearch(game).run(max_depth=max_depth)  # no time limit: it must end by itself
    assert (ran.depth, ran.complete, ran.reason) == (max_depth, False, "depth")
    assert ran.value == result.value


def test_a_window_gives_the_value_inside_it_and_a_true_bound_outside() -> None:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    games = endgames(lexicon, rules, range(16))
    assert len(games) >= 8
    kinds: Counter[int] = Counter()
    for number, game in enumerate(games):
        truth = minimax(game, {})
        windows = [(truth - 3, truth + 3), (truth, truth + 1), (truth - 1, truth), (truth - 9, truth - 2)]
        for alpha, beta in windows:
            state = core.endgame_start(lexicon._core, game._rules, game._state, table_bytes=1 << 16)
            found = core.endgame_search(state, 64, window=(alpha, beta))
            assert found.complete and not found.stopped
            if found.bound == core.lib.GD_BOUND_EXACT:
                assert alpha < found.value < beta and found.value == truth, (number, alpha, beta, found)
            elif found.bound == core.lib.GD_BOUND_LOWER:
                assert beta <= found.value <= truth, (number, alpha, beta, found)
            else:
                assert found.bound == core.lib.GD_BOUND_UPPER
                assert truth <= found.value <= alpha, (number, alpha, beta, found)
            kinds[found.bound] += 1
    assert len(kinds) == 3, kinds  # each kind of answer was met


def test_root_moves_value_each_first_move_as_minimax_does() -> None:
    """Restricted to one first move the search gives what that move gains less the opponent's
    best reply from there (minimax); excluding moves gives the best of the rest; a restart on the
    next position, keeping the table, gives that position's minimax value."""
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    games = endgames(lexicon, rules, range(10))
    checked = 0
    for game in games:
        state_obj = game._state
        mover = game.to_move
        _count, records = game.solver.solve_raw(game.board, game.rack())
        moves = [records[i : i + MOVE_RECORD.size] for i in range(0, len(records), MOVE_RECORD.size)]
        every_move = len(moves) <= 5
        moves = [*moves[:5], PASS_RECORD]
        worth = []
        for record in moves:
            snapshot = state_obj.snapshot()
            before = game.scores
            core.game_move(state_obj, game._rules, record)
            gained = (game.scores[mover] - before[mover]) - (game.scores[1 - mover] - before[1 - mover])
            worth.append(gained if game.over else gained - minimax(game, {}))
            state_obj.restore(snapshot)
        search = core.endgame_start(lexicon._core, game._rules, state_obj, table_bytes=1 << 16)
        for record, expected in zip(moves, worth, strict=True):
            core.endgame_root_moves(search, [record], exclude=False)
            found = core.endgame_search(search, 64)
            assert found.complete and found.value == expected, (str(game), expected, found.value)
            checked += 1
        core.endgame_root_moves(search, moves[:1], exclude=True)
        full = minimax(game, {})
        if len(moves) == 1:  # the pass alone: nothing is left once it is excluded
            with pytest.raises(core.CoreError, match="no first move"):
                core.endgame_search(search, 64)
        else:
            rest = core.endgame_search(search, 64).value
            if every_move:  # the rest are the moves valued one by one
                assert rest == max(worth[1:])
            elif full != worth[0]:  # the best move is among the rest
                assert rest == full
            assert rest <= full
        # the next position, searched in the same state with its table kept
        core.game_move(state_obj, game._rules, moves[0])
        if not game.over:
            core.endgame_restart(search, game._state)
            assert core.endgame_search(search, 64).value == minimax(game, {})
    assert checked >= 20


def test_the_value_of_a_given_move_and_the_best_k_agree_with_minimax() -> None:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    games = endgames(lexicon, rules, range(12))
    checked = 0
    for game in games:
        worth: dict[str, int] = {}
        for move in game.moves():
            snapshot = game._state.snapshot()
            mover, before = game.to_move, game.scores
            game.play(move)
            gained = (game.scores[mover] - before[mover]) - (game.scores[1 - mover] - before[1 - mover])
            worth[str(move)] = gained if game.over else gained - minimax(game, {})
            game._state.restore(snapshot)
            game._undo.pop()
        search = EndgameSearch(game)
        for move in game.moves()[:4]:
            assert search.value_of(move).value == worth[str(move)], str(move)
        best = search.best_moves(3)
        ranked = sorted(worth.values(), reverse=True)[: len(best)]
        assert [r.value for r in best] == ranked
        assert all(r.complete for r in best)
        assert len({str(r.best) for r in best}) == len(best)  # three different first moves
        assert [worth[str(r.best)] for r in best] == ranked
        assert search.run().value == ranked[0]  # every first move again afterwards
        checked += 1
    assert checked >= 6


def test_endgame_command_grades_a_given_move_and_lists_the_best_k() -> None:
    import json
    import subprocess
    import sys

    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = Game.new(lexicon, seed=2)
    while game.bag_count:
        game.play(game.best_move("equity"))
    position = Game.from_board(game.board, game.rack(), lexicon)
    search = EndgameSearch(position)
    best = search.run()
    passing = search.value_of(next(m for m in position.moves() if m.kind == "pass"))
    board_file = "\n".join(game.board.to_rows()) + "\n"
    command = [sys.executable, "-m", "gaddag_solver", "endgame", "--lexicon", "sowpods", "--board", "-"]
    command += ["--rack", str(game.rack()), "--format", "json"]

    def endgame(*extra: str) -> subprocess.CompletedProcess[str]:
        args = [*command, *extra]
        return subprocess.run(args, input=board_file, capture_output=True, text=True, timeout=120)

    run = endgame("--move", "pass")
    assert run.returncode == 0, run.stderr
    graded = json.loads(run.stdout)
    assert graded["points_lost"] == best.value - passing.value > 0
    assert graded["move"]["line"][0] == "pass" and graded["best"]["value"] == best.value
    run = endgame("--top", "3")
    assert run.returncode == 0, run.stderr
    listed = json.loads(run.stdout)["moves"]
    assert [m["value"] for m in listed] == [r.value for r in EndgameSearch(position).best_moves(3)]
    assert listed[0]["value"] == best.value
    bad = endgame("--move", "8D QQQ")
    assert bad.returncode == 2 and "not a play of the rack" in bad.stderr


def test_ctrl_c_prints_the_deepest_finished_line(tmp_path) -> None:
    """A hard 7-vs-7 endgame (depth 3 takes seconds): SIGINT once depth 2 has finished prints
    that depth's line and value, marked not proven, and exits 1 with no traceback."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = Game.new(lexicon, seed=120)  # a 7-vs-7 endgame whose depth 3 takes ~8 s alone
    while game.bag_count and not game.over:
        game.play(game.best_move("equity"))
    assert len(game.rack()) == len(game.rack(1 - game.to_move)) == 7
    board = tmp_path / "board.txt"
    board.write_text("\n".join(game.board.to_rows()) + "\n")
    command = [
        sys.executable,
        "-m",
        "gaddag_solver",
        "endgame",
        "--lexicon",
        "sowpods",
        "--board",
        str(board),
    ]
    command += ["--rack", str(game.rack()), "--opponent-rack", str(game.rack(1 - game.to_move)), "--progress"]
    # Ctrl-C as in a terminal: the suite may run as a background job, whose children inherit SIGINT ignored
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    stderr = bytearray()

    def read_stderr() -> None:
        for chunk in iter(lambda: process.stderr.read1(4096), b""):
            stderr.extend(chunk)

    reader = threading.Thread(target=read_stderr)
    reader.start()
    deadline = time.monotonic() + 60
    while b"depth 2 " not in stderr and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert b"depth 2 " in stderr, stderr.decode()
    os.kill(process.pid, signal.SIGINT)
    process.wait(timeout=30)
    reader.join()  # the thread reads stderr to its end; communicate() would race it for stderr
    stdout = process.stdout.read()
    err = stderr.decode()
    assert process.returncode == 1, err
    assert "Traceback" not in err
    assert "interrupted; the deepest finished search (depth 2):" in err
    lines = stdout.decode().splitlines()
    assert lines[-1].startswith("value ") and "(best found at depth 2 (not proven))" in lines[-1]
    assert [line.split()[0] for line in lines[:-1]] == [str(i) for i in range(1, len(lines))]
    # the line printed is the depth-2 search's own
    expected = next(
        r
        for r in EndgameSearch(
            Game.from_board(game.board, game.rack(), lexicon, game.rack(1 - game.to_move))
        ).deepen()
        if r.depth == 2
    )
    assert lines[-1].startswith(f"value {expected.value:+d} ")
    assert [line.split(None, 2)[2] for line in lines[:-1]] == [str(m) for m in expected.line]


def test_a_search_cut_into_small_slices_still_finishes_with_the_whole_searchs_value() -> None:
    """Called again and again with a limit of a few dozen positions (more than any line of these
    endgames is long), a search goes on from what the last call stored and reaches the value of
    one whole search, each call finishing some position. (The limit once counted the positions the table
    answered too, so a position with more moves than the limit was searched again from the start
    on every call and never finished.)"""
    rules = small_set_rules(6, rack_size=4)
    lexicon = small_lexicon(rules)
    games = endgames(lexicon, rules, range(12))
    limit, widest = 24, 0
    for game in games:
        state = core.endgame_start(lexicon._core, game._rules, game._state, table_bytes=1 << 20)
        whole = core.endgame_search(state, 64)
        state = core.endgame_start(lexicon._core, game._rules, game._state, table_bytes=1 << 20)
        widest = max(widest, len(game.moves()))
        for _call in range(whole.nodes + 1):
            found = core.endgame_search(state, 64, limit)
            if not found.stopped:
                break
        assert not found.stopped, f"{whole.nodes + 1} calls of {limit} did not finish ({whole.nodes} in one)"
        assert found.complete and found.value == whole.value  # whole: held to the minimax above
    assert widest > 3 * limit  # positions with far more moves than the limit were among them
