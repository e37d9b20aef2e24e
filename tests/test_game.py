"""The game in the core (csrc/game.c) and equity in the generator, against independent checks.

- every turn of self-played games conserves the tiles (board + racks + bag = the set), and the
  final scores are the turn scores plus end adjustments recomputed here from the rules;
- every play of self-played games on a small ruleset is one the brute-force oracle lists, with
  its score;
- every equity is score + the leave's value recomputed from the CSV the table was made from
  (a leave missing from it worth 0), and with the bag empty the going-out / tiles-kept rule;
- exchanges: ∏(cᵢ+1) − 1 of them on random racks, none below the ruleset's minimum;
- best-N by equity with anchor bounds (as self-play uses it) equals the first N of every move
  sorted, and the incremental cross-set update equals preparing the board from scratch;
- the end rules (going out, scoreless turns), undo, legality checks and bad input.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import prod

import pytest
from gaddag_solver import Board, Game, GameError, Leaves, Lexicon, Move, Rack, Rules, build_gaddag
from gaddag_solver import _core_api as core
from gaddag_solver._binding import ffi, lib
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.rules_core import core_rules
from gaddag_solver.solver import Solver, _rank, _rank_by_equity
from leave_csv import full_rack_hundredths
from oracle import OracleRules, board_from_lines, generate
from small_words import WORDS as SMALL_WORDS
from tiny_rules import tiny_rules

ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    return Lexicon.load(resolve_lexicon("sowpods"))


def tiles_of(rules: Rules, board: Board, racks: tuple[Rack, Rack]) -> Counter[str]:
    """Board tiles (a blank counted as "?") plus both racks."""
    held: Counter[str] = Counter()
    for row in range(rules.rows):
        for col in range(rules.cols):
            code = board.code(row, col)
            if code:
                held["?" if code & 128 else rules.alphabet.letters[(code & 63) - 1]] += 1
    for rack in racks:
        held.update(rack.tiles)
    return held


def full_set(rules: Rules) -> Counter[str]:
    return Counter({**dict(zip(rules.alphabet.letters, rules.counts, strict=True)), "?": rules.blanks})


def rack_value(rules: Rules, rack: Rack) -> int:
    values = dict(zip(rules.alphabet.letters, rules.values, strict=True))
    return sum(rules.blank_value if tile == "?" else values[tile] for tile in rack.tiles)


def play_out(game: Game, choose) -> list[tuple[Move, Counter[str], int]]:  # type: ignore[no-untyped-def]
    """Play to the end; after each move check that the tiles are conserved."""
    full = full_set(game.rules)
    seen = []
    while not game.over:
        move = choose(game)
        game.play(move)
        board, racks = game.board, game.racks
        bag = game.unseen(0).counts
        in_bag = Counter({t: n for t, n in bag.items() if n}) - Counter(racks[1].tiles)
        assert sum(in_bag.values()) == game.bag_count
        assert tiles_of(game.rules, board, racks) + in_bag == full, f"tiles not conserved after {move}"
        seen.append((move, in_bag, game.bag_count))
    return seen


def check_final_scores(game: Game) -> None:
    """Final scores = the turn scores + the end adjustments, which the rules decide."""
    rules = game.rules
    history = game.history
    turn_sum = [0, 0]
    for turn in history:
        turn_sum[turn.player] += turn.move.score
        assert turn.total == turn_sum[turn.player]
    racks = game.racks
    last = history[-1]
    if last.move.kind == "play" and game.bag_count == 0 and not racks[last.player].tiles:
        out, other = last.player, 1 - last.player
        want = [0, 0]
        want[out] = rules.going_out_bonus * rack_value(rules, racks[other])
        want[other] = -rules.going_out_penalty * rack_value(rules, racks[other])
    else:
        tail = history[-rules.scoreless_turns :]
        assert len(tail) == rules.scoreless_turns and all(t.move.score == 0 for t in tail)
        want = [-rack_value(rules, racks[0]), -rack_value(rules, racks[1])]
    assert game.end_adjustments == tuple(want)
    assert game.scores == (turn_sum[0] + want[0], turn_sum[1] + want[1])


@pytest.mark.parametrize("seed", range(6))
def test_self_play_conserves_tiles_and_scores_add_up(sowpods: Lexicon, seed: int) -> None:
    game = Game.new(sowpods, seed=seed)
    assert game.bag_count == ENGLISH.tile_total - 2 * ENGLISH.rack_size
    player = "equity" if seed % 2 else "greedy"
    played = play_out(game, lambda g: g.best_move(player))
    assert len(played) == len(game.history) >= 10
    assert [turn.move for turn in game.history] == [move for move, _bag, _count in played]
    check_final_scores(game)


def test_same_seed_same_game_other_seed_other_game(sowpods: Lexicon) -> None:
    def moves(seed: int) -> list[str]:
        game = Game.new(sowpods, seed=seed)
        play_out(game, lambda g: g.best_move())
        return [str(t.move) for t in game.history]

    assert moves(11) == moves(11)
    assert moves(11) != moves(12)


def test_self_play_in_c_matches_the_game_class(sowpods: Lexicon) -> None:
    """gd_autoplay (incremental cross-sets, the whole game in one call) plays the same game as
    the Game class choosing move by move (cross-sets prepared from scratch each turn)."""
    selfplay = core.SelfPlay()
    selfplay.set_player(0, "equity")
    selfplay.set_player(1, "greedy")
    rules = core_rules(ENGLISH)
    for seed in range(3):
        played = core.autoplay(sowpods._core, rules, selfplay, seed)
        game = Game.new(sowpods, seed=seed)
        while not game.over:
            game.play(game.best_move("equity" if game.to_move == 0 else "greedy"))
        assert played.scores == game.scores
        assert [(t.score, t.word) for t in played.turns] == [
            (t.move.score, t.move.record(ENGLISH)[16 : 16 + t.move.record(ENGLISH)[11]]) for t in game.history
        ]


# ---- legality against the brute-force oracle ---------------------------------------------------------


def test_every_self_played_play_is_legal_by_the_oracle() -> None:
    rules = tiny_rules()
    words = sorted(w for w in SMALL_WORDS if set(w) <= set(rules.alphabet.letters))
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    lexicon = Lexicon.load(data, rules)
    orules = OracleRules.from_rules(rules)
    checked = 0
    for seed in range(4):
        game = Game.new(lexicon, rules, seed=seed)
        while not game.over:
            move = game.best_move("equity" if (seed + game.to_move) % 2 else "greedy")
            if move.kind == "play":
                grid = board_from_lines(game.board.to_rows())
                legal = generate(grid, "".join(game.rack().tiles), frozenset(words), orules)
                assert (frozenset(move.tiles), move.score) in legal, f"{move} is not legal"
                checked += 1
            game.play(move)
        check_final_scores(game)
    assert checked >= 20


# ---- equity ----------------------------------------------------------------------------------------


def random_csv(rules: Rules, rng: random.Random, entries: int) -> tuple[str, dict[str, float]]:
    """A leave table as CSV: random leaves (written in random tile order), values to 1/100."""
    pool = [tile for tile, n in full_set(rules).items() for _ in range(n)]
    values: dict[str, float] = {}
    while len(values) < entries:
        tiles = rng.sample(pool, rng.randint(1, rules.rack_size - 1))
        key = "".join(sorted(tiles))
        values.setdefault(key, round(rng.uniform(-30, 40), 2))
    lines = [f"{''.join(rng.sample(k, len(k)))},{v:.2f}" for k, v in values.items()]
    return "\n".join(lines) + "\n", values


def csv_value(values: dict[str, float], leave: str) -> float:
    """The CSV's value of `leave` (0 if not listed); the whole rack a pass keeps, by the rule of
    docs/equity.md recomputed from its 6-tile sub-racks (leave_csv.full_rack_hundredths)."""
    if len(leave) < ENGLISH.rack_size:
        return values.get("".join(sorted(leave)), 0.0)
    return full_rack_hundredths(lambda key: round(100 * values.get(key, 0.0)), leave) / 100


def random_rack(rules: Rules, rng: random.Random, size: int) -> str:
    pool = [tile for tile, n in full_set(rules).items() for _ in range(n)]
    return "".join(rng.sample(pool, size))


def test_equity_is_score_plus_the_csv_value_of_the_leave(sowpods: Lexicon, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    text, values = random_csv(ENGLISH, rng, 3000)
    path = tmp_path / "t.csv"
    path.write_text(text)
    leaves = Leaves.from_csv(str(path), ENGLISH)
    solver = Solver(sowpods, ENGLISH)
    game = Game.new(sowpods, seed=3)
    for _ in range(6):
        game.play(game.best_move())
    board = game.board
    for _ in range(25):
        rack = random_rack(ENGLISH, rng, 7)
        # make most racks hold common leaves of the table
        moves = solver.solve(board, rack, leaves=leaves, exchanges=True, bag=50, warn=False)
        assert moves
        for move in moves:
            assert move.equity == pytest.approx(move.score + csv_value(values, move.leave), abs=1e-9), move
        equities = [m.equity for m in moves]
        assert equities == sorted(equities, reverse=True)
    hit = sum(1 for key in values if leaves.value(key) != 0)
    assert hit == sum(1 for v in values.values() if v != 0)


def test_exchanges_count_and_the_bag_minimum(sowpods: Lexicon) -> None:
    rng = random.Random(9)
    solver = Solver(sowpods, ENGLISH)
    board = Board.empty(ENGLISH)
    for _ in range(40):
        rack = random_rack(ENGLISH, rng, rng.randint(1, 7))
        counts = Counter(Rack(rack, ENGLISH).tiles)
        moves = solver.solve(board, rack, equity=True, exchanges=True, bag=40, warn=False)
        exchanges = [m for m in moves if m.kind == "exchange"]
        assert len(exchanges) == prod(c + 1 for c in counts.values()) - 1
        assert len({m.exchanged for m in exchanges}) == len(exchanges)  # each distinct once
        for m in exchanges:
            assert Counter(Rack(m.exchanged, ENGLISH).tiles) + Counter(Rack(m.leave, ENGLISH).tiles) == counts
        assert sum(m.kind == "pass" for m in moves) == 1
        below = solver.solve(
            board, rack, equity=True, exchanges=True, bag=ENGLISH.exchange_minimum - 1, warn=False
        )
        assert not [m for m in below if m.kind == "exchange"]
        assert sum(m.kind == "pass" for m in below) == 1


def test_empty_bag_equity_rule(sowpods: Lexicon) -> None:
    """With the bag empty: going out earns (bonus + penalty) × the opponent's rack; any other move
    costs twice the tiles kept plus 10."""
    game = Game.new(sowpods, seed=21)
    while game.bag_count > 0:
        game.play(game.best_move("greedy"))
    if game.over:
        pytest.skip("the game ended before the bag emptied")
    rules = ENGLISH
    values = dict(zip(rules.alphabet.letters, rules.values, strict=True))
    opponent = rack_value(rules, game.rack(1 - game.to_move))
    moves = game.moves()
    assert moves and all(m.kind != "exchange" for m in moves)
    for move in moves:
        kept = Rack(move.leave, rules).tiles
        if not kept:
            want = move.score + (rules.going_out_bonus + rules.going_out_penalty) * opponent
        else:
            want = move.score - 2 * sum(0 if t == "?" else values[t] for t in kept) - 10
        assert move.equity == pytest.approx(want), move


# ---- pruning and incremental cross-sets ----------------------------------------------------------


class PrunedBest:
    """gd_generate_equity's best N with bounds (prune), exchanges and the pass, as the equity
    player asks for them, against Solver's every move ranked in Python."""

    def __init__(self, sowpods: Lexicon, leaves: Leaves, by_equity: int) -> None:
        self.sowpods, self.leaves, self.by_equity = sowpods, leaves, by_equity
        self.rules = core_rules(ENGLISH)
        self.solver = Solver(sowpods, ENGLISH)
        self.workspace = core.new_workspace()
        self.options = ffi.new("gd_equity_options *")
        self.out = ffi.new("gd_move[]", 8)
        self.count = ffi.new("size_t *")
        self.err = ffi.new("gd_error *")
        self.rank = _rank_by_equity if by_equity else _rank

    def check(self, board: Board, rack: Rack, bag: int, top: int) -> None:
        """The best `top` with bounds are exactly the first `top` of every move."""
        valuation = self.solver.valuation(board, rack, leaves=self.leaves, exchanges=True, bag=bag)
        _n, records = self.solver.solve_raw(board, rack, None, valuation)
        every = sorted((records[i : i + 48] for i in range(0, len(records), 48)), key=self.key)
        core.prepare(self.sowpods._core, self.rules, self.workspace, board.codes())
        options = self.options
        options.leaves = ffi.cast("gd_leaves *", self.leaves.core)
        options.bag_count = bag
        options.opponent_rack_value = valuation.opponent_rack_value
        options.exchanges = 1
        setattr(options, "pass", 1)
        options.by_equity = self.by_equity
        options.prune = 1
        lexicon, memory = self.sowpods._core.struct, self.workspace.memory
        rc = lib.gd_generate_equity(
            lexicon,
            self.rules,
            board.codes(),
            memory,
            rack.counts(),
            options,
            top,
            self.out,
            8,
            self.count,
            self.err,
        )
        assert rc == 0
        raw = ffi.buffer(self.out, 48 * min(top, self.count[0]))[:]
        kept = sorted((raw[i : i + 48] for i in range(0, len(raw), 48)), key=self.key)
        assert kept == every[:top], (board, rack)

    def key(self, record: bytes) -> tuple:  # type: ignore[type-arg]
        return self.rank(core_move(record))


@pytest.mark.parametrize("by_equity", [1, 0])
def test_best_with_bounds_is_the_first_of_all_moves(sowpods: Lexicon, by_equity: int) -> None:
    """gd_generate_equity with prune (anchors skipped by their bound) keeps exactly the first N
    moves of the full list ranked by equity (or by score), on positions from self-play with a
    random table."""
    rng = random.Random(2 + by_equity)
    text, _ = random_csv(ENGLISH, rng, 20000)
    leaves = Leaves.from_csv_text(text, ENGLISH)
    pruned = PrunedBest(sowpods, leaves, by_equity)
    positions = 0
    for seed in range(8):
        game = Game.new(sowpods, seed=seed)
        while not game.over:
            pruned.check(game.board, game.rack(), game.bag_count, rng.choice([1, 3, 8]))
            positions += 1
            game.play(game.best_move("equity" if by_equity else "greedy", leaves=leaves))
    assert positions > 150


def test_best_with_bounds_on_racks_near_a_bingo(sowpods: Lexicon) -> None:
    """The bounds drop placements of the whole rack, or all but one tile, whose letters with the
    board tiles of the main word spell no word (the anagram filter, with one probe per letter a
    blank could be): best 1 with bounds is still the best of every move, on racks that are seven
    letters of an eight-letter word (a bingo through one board tile, or none), with no blank, one
    or two, and with a random table."""
    rng = random.Random(5)
    text, _ = random_csv(ENGLISH, rng, 20000)
    leaves = Leaves.from_csv_text(text, ENGLISH)
    pruned = PrunedBest(sowpods, leaves, 1)
    eights = sowpods.pattern("????????")
    positions = 0
    for seed in range(3):
        game = Game.new(sowpods, seed=100 + seed)
        while not game.over and positions < 36 * (seed + 1):
            for _ in range(3):
                letters = list(rng.choice(eights))
                letters.pop(rng.randrange(8))
                for _ in range(rng.choice([0, 0, 1, 1, 2])):
                    letters[rng.randrange(7)] = "?"
                pruned.check(game.board, Rack("".join(letters), ENGLISH), game.bag_count, 1)
                positions += 1
            game.play(game.best_move("equity", leaves=leaves))
    assert positions >= 100


def test_best_with_bounds_on_racks_with_one_blank(sowpods: Lexicon) -> None:
    """With one blank on the rack, best N with bounds takes the plays of the rack's letters first
    (the blank kept), then the plays that use the blank from the word map, the blank standing for
    each letter in turn (several plays when the word holds its letter more than once): the best
    1, 3 and 8 are still the first of every move, with the shipped table (where keeping the blank
    is worth most, so the second pass is cut most) and with a random one."""
    rng = random.Random(11)
    text, _ = random_csv(ENGLISH, rng, 20000)
    tables = [Leaves.load("sowpods", ENGLISH), Leaves.from_csv_text(text, ENGLISH)]
    checkers = [PrunedBest(sowpods, leaves, 1) for leaves in tables]
    positions = 0
    for seed in range(4):
        game = Game.new(sowpods, seed=300 + seed)
        while not game.over:
            letters = [tile for tile in str(game.rack()) if tile != "?"]
            if letters:
                letters[rng.randrange(len(letters))] = "?"
                rack = Rack("".join(letters), ENGLISH)
                for checker in checkers:
                    checker.check(game.board, rack, game.bag_count, rng.choice([1, 1, 3, 8]))
                positions += 1
            game.play(game.best_move("equity", leaves=tables[0]))
    assert positions > 60


def core_move(record: bytes) -> tuple:  # type: ignore[type-arg]
    from gaddag_solver.move import MOVE_RECORD

    return MOVE_RECORD.unpack(record)


@pytest.mark.parametrize("by_equity", [1, 0])
def test_sort_moves_gives_the_ranking_order(by_equity: int) -> None:
    """gd_sort_moves (the core's own sort) puts any array of moves in the order Python's sort by
    the ranking key gives: arrays of every size around its insertion-sort run and up to
    thousands, with few distinct equities and scores (so the later keys decide), already sorted,
    reversed, and in the shapes that make a quicksort go quadratic."""
    from gaddag_solver.move import MOVE_RECORD

    rank = _rank_by_equity if by_equity else _rank
    rng = random.Random(by_equity)

    def random_move(spread: int) -> bytes:
        # words past eight letters: the core's keys hold the first eight
        length = rng.choice((1, 2, 4, 8, 9, 12))
        # two beginnings only, so that long words often differ only past their eighth letter
        start = rng.choice((b"\x01\x02\x01\x41\x01\x02\x02\x01", b"\x02\x01\x01\x01\x02\x41\x01\x01"))
        tail = bytes(rng.choice((1, 2, 0x41)) for _ in range(max(length - 8, 0)))
        word = (start[:length] + tail).ljust(32, b"\0")
        score = rng.randint(0, spread)
        kind = rng.choice((0, 0, 0, 1, 2))
        # the equity a function of the other fields, as it is of a real move, so that two records
        # the key cannot tell apart are the same record
        equity = 100 * score + sum(word) % (spread + 1) - spread // 2
        fields = (score, equity, rng.randint(0, 2), rng.randint(0, 2))
        return MOVE_RECORD.pack(*fields, rng.randint(0, 1), length, length, kind, word)

    def check(records: list[bytes]) -> None:
        out = ffi.new("gd_move[]", max(len(records), 1))
        ffi.memmove(out, b"".join(records), 48 * len(records))
        lib.gd_sort_moves(out, len(records), by_equity)
        got = ffi.buffer(out, 48 * len(records))[:]
        want = sorted(records, key=lambda r: rank(MOVE_RECORD.unpack(r)))
        assert [got[i : i + 48] for i in range(0, len(got), 48)] == want, len(records)

    for size in [*range(0, 40), 63, 64, 65, 200, 1000, 5000]:
        for spread in (1, 5, 1000):
            moves = [random_move(spread) for _ in range(size)]
            check(moves)
            ordered = sorted(moves, key=lambda r: rank(MOVE_RECORD.unpack(r)))
            check(ordered)
            check(ordered[::-1])
            # organ pipe and the same move many times over
            check(ordered[::2] + ordered[1::2][::-1])
            check(moves[:1] * size)


def test_incremental_cross_sets_equal_a_fresh_prepare(sowpods: Lexicon) -> None:
    rules = core_rules(ENGLISH)
    size = lib.gd_workspace_size()
    kept = core.new_workspace()
    fresh = core.new_workspace()
    err = ffi.new("gd_error *")
    plays = 0
    for seed in range(4):
        game = Game.new(sowpods, seed=seed)
        assert lib.gd_prepare(sowpods._core.struct, rules, game.board.codes(), kept.memory, err) == 0
        while not game.over:
            move = game.best_move()
            game.play(move)
            if move.kind != "play":
                continue
            record = ffi.new("gd_move *")
            ffi.memmove(record, move.record(), 48)
            board = game.board.codes()
            assert lib.gd_update_after_play(sowpods._core.struct, rules, board, kept.memory, record, err) == 0
            assert lib.gd_prepare(sowpods._core.struct, rules, board, fresh.memory, err) == 0
            assert ffi.buffer(kept.memory, size)[:] == ffi.buffer(fresh.memory, size)[:]
            plays += 1
    assert plays > 60


# ---- the rules of the game -----------------------------------------------------------------------------


def test_scoreless_turns_end_the_game_and_each_loses_their_rack(sowpods: Lexicon) -> None:
    game = Game.new(sowpods, seed=4)
    for turn in range(ENGLISH.scoreless_turns):
        assert not game.over
        if turn % 2:
            game.pass_turn()
        else:
            game.exchange(str(game.rack())[:2])
    assert game.over
    check_final_scores(game)
    assert game.scores == tuple(-rack_value(ENGLISH, rack) for rack in game.racks)
    with pytest.raises(GameError, match="over"):
        game.pass_turn()


def test_exchange_needs_tiles_on_the_rack_and_enough_in_the_bag(sowpods: Lexicon) -> None:
    game = Game.new(sowpods, seed=5)
    rack = str(game.rack())
    missing = next(letter for letter in "QZXJKVW" if letter not in rack)
    with pytest.raises(GameError, match=f"rack {rack} does not hold"):
        game.exchange(missing)
    with pytest.raises(GameError, match="'1' is not a letter"):
        game.exchange("1")
    with pytest.raises(GameError, match="1 to 7 tiles, not 0"):
        game.exchange("")
    before = game.racks, game.bag_count
    game.exchange(rack[:3])
    assert game.bag_count == before[1]
    assert game.to_move == 1
    start = Game.from_position(Board.empty(ENGLISH), ("AEIOU??", ""), sowpods)
    assert start.bag_count == ENGLISH.tile_total - 7
    near_end = Game.from_position(*end_position(), sowpods)
    assert near_end.bag_count < ENGLISH.exchange_minimum
    with pytest.raises(GameError, match=f"no exchange with {near_end.bag_count} tiles in the bag"):
        near_end.exchange(str(near_end.rack())[:1])
    assert not [m for m in near_end.moves() if m.kind == "exchange"]


def end_position() -> tuple[Board, tuple[str, str]]:
    """A board holding all but 16 tiles of the set, the racks taking 7 + 7 of them."""
    game = Game.new(Lexicon.load(resolve_lexicon("sowpods")), seed=8)
    while game.bag_count > 2 and not game.over:
        game.play(game.best_move("greedy"))
    return game.board, (str(game.rack(0)), str(game.rack(1)))


def test_undo_restores_everything(sowpods: Lexicon) -> None:
    game = Game.new(sowpods, seed=6)
    states = []
    for _ in range(8):
        states.append((game.board, game.racks, game.scores, game.bag_count, game.to_move, len(game.history)))
        game.play(game.best_move())
    for state in reversed(states):
        game.undo()
        assert (game.board, game.racks, game.scores, game.bag_count, game.to_move, len(game.history)) == state
    with pytest.raises(GameError, match="no move"):
        game.undo()


def test_only_legal_plays_are_accepted(sowpods: Lexicon) -> None:
    game = Game.new(sowpods, seed=7)
    legal = game.moves(top=1)[0]
    assert legal.kind == "play"
    fake = Move(legal.row, legal.col, legal.direction, legal.word, legal.score + 5, legal.tiles)
    game.play(fake)  # the score in a Move is not trusted: the core's own record is played
    assert game.scores[0] == legal.score
    r, c = 0, 0
    bogus = Move(r, c, "across", "ZZ", 20, ((r, c, "Z", False), (r, c + 1, "Z", False)))
    with pytest.raises(GameError, match="not a legal play"):
        game.play(bogus)


def test_bad_positions_are_refused(sowpods: Lexicon) -> None:
    board = Board.empty(ENGLISH)
    with pytest.raises(
        GameError,
        match=r"^the board and racks hold 2 'Z' tiles; the English Scrabble set has 1 \(1 too many\)$",
    ):
        Game.from_position(board, ("ZZ", ""), sowpods)
    with pytest.raises(GameError, match="two racks"):
        Game.from_position(board, ("A",), sowpods)
    with pytest.raises(GameError):
        Game.from_position(board, ("A", "B"), sowpods, to_move=2)


def test_unseen_of_a_game_equals_the_position_recount(sowpods: Lexicon) -> None:
    from gaddag_solver.unseen import unseen

    game = Game.new(sowpods, seed=12)
    for _ in range(10):
        if game.over:
            break
        for player in (0, 1):
            mine = game.unseen(player)
            theirs = unseen(game.board, game.rack(player))
            assert mine.counts == theirs.counts
            assert mine.total == game.bag_count + len(game.rack(1 - player))
        game.play(game.best_move())


def test_exchange_moves_are_the_rack_split_every_way() -> None:
    """The exchanges listed for a rack are exactly its sub-multisets (brute force)."""
    rules = ENGLISH
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    solver = Solver(lexicon, rules)
    rack = "AABC??E"
    moves = solver.solve(Board.empty(rules), rack, equity=True, exchanges=True, bag=20, warn=False)
    got = sorted("".join(sorted(m.exchanged)) for m in moves if m.kind == "exchange")
    want = sorted({"".join(sorted(c)) for n in range(1, 8) for c in itertools.combinations(rack, n)})
    assert got == want


def test_a_known_opponent_rack_values_going_out(sowpods: Lexicon) -> None:
    """With the bag empty, going out earns (bonus + penalty) × the opponent's rack: the rack given,
    else every unseen tile."""
    rules = ENGLISH
    solver = Solver(sowpods, rules)
    board = Board.empty(rules)
    values = dict(zip(rules.alphabet.letters, rules.values, strict=True))
    for opponent, worth in (("QZ", 20), (None, None)):
        moves = solver.solve(board, "CAT", equity=True, bag=0, opponent_rack=opponent, warn=False)
        if worth is None:
            unseen_tiles = full_set(rules) - Counter("CAT")
            worth = sum(n * (0 if t == "?" else values[t]) for t, n in unseen_tiles.items())
        out = [m for m in moves if not m.leave]
        assert out and all(m.equity == m.score + 2 * worth for m in out)
