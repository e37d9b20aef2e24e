"""The pass and the full rack (docs/equity.md; issue 25, item 4).

While the bag holds tiles, a pass keeps the whole rack, a leave of rack-size tiles that no table
holds. Its value is recomputed here from the shipped SOWPODS table's own values of the 6-tile
sub-racks (``Leaves.value``, read one by one): their sum, one per tile of the rack, divided by 6
and rounded to the hundredth (tests/leave_csv.full_rack_hundredths). The late-game positions are
of the kind the issue reported: 3 tiles in the bag (10 unseen), no exchange allowed, every play
of negative equity, where the pass used to rank first at 0.00.
"""

from __future__ import annotations

import random

import pytest
from gaddag_solver import Board, Game, Leaves, Lexicon, Rules
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.solver import Solver
from leave_csv import full_rack_hundredths

ENGLISH = Rules.load("english")

# Positions from self-play (SOWPODS, the shipped table, seeds 21 and 167) when the bag came down
# to 3 tiles, the racks re-dealt from the 14 tiles both players held: player 0 to move.
LATE = [
    (
        [
            "D..WEANER.....J",
            "I...U.......EAU",
            "C.HOPPIER..OWLS",
            "E...n...YITIE.T",
            "N...O.AUE.E....",
            "T..VEX...KO....",
            "R...A...GOS....",
            "ARNAS..SURIMI..",
            "........MAn....",
            ".........IT....",
            "..........EF...",
            "...........L...",
            "....LOTHARIO...",
            ".ENVOY.....G...",
            "...............",
        ],
        "BCDDGQT",
        "ABDINNZ",
        (344, 397),
    ),
    (
        [
            "...........M..B",
            "..........DO..A",
            "........VIRTU.C",
            "........O.AE.LO",
            ".......JA.G..ON",
            ".......OR.OB.Z.",
            ".......R..Ne.E.",
            ".......STENDING",
            "..........ES.g.",
            "...........T.E.",
            ".......FAQIR.S.",
            "..HAIRDO...AH..",
            ".LIEF..N...WOP.",
            ".....KEDGY..LI.",
            "..YUCA.U.EXEMPT",
        ],
        "AEIIISU",
        "AEELNRT",
        (299, 437),
    ),
]


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    return Lexicon.load(resolve_lexicon("sowpods"), ENGLISH)


@pytest.fixture(scope="module")
def table() -> Leaves:
    return Leaves.load("sowpods")


def expected_pass(table: Leaves, rack: str) -> float:
    """The pass's equity in points, from the table's values of the rack's 6-tile sub-racks."""
    return full_rack_hundredths(lambda key: round(100 * table.value(key)), rack) / 100


def test_the_pass_is_worth_the_full_rack(sowpods: Lexicon, table: Leaves) -> None:
    """On the empty board and in mid-game, for racks good and bad, the pass's equity is the full
    rack's value recomputed from the table; every other move is its score + its leave's value,
    and the list is ranked by equity, the pass among the rest."""
    solver = Solver(sowpods, ENGLISH)
    game = Game.new(sowpods, seed=4)
    for _ in range(5):
        game.play(game.best_move("equity", table))
    rng = random.Random(25)
    pool = [letter for letter, count in zip(ENGLISH.alphabet.letters, ENGLISH.counts, strict=True)]
    racks = ["AEERST?", "QVVWWIU", "EEINRST", "AAIIOUU", "??SSZZX"]
    racks += ["".join(rng.choices(pool, k=7)) for _ in range(10)]
    seen_nonzero = 0
    for board in (Board.empty(ENGLISH), game.board):
        for rack in racks:
            moves = solver.solve(board, rack, leaves=table, exchanges=True, bag=40, warn=False)
            (passing,) = [m for m in moves if m.kind == "pass"]
            assert sorted(passing.leave) == sorted(rack)
            want = expected_pass(table, rack)
            assert passing.equity == pytest.approx(want, abs=1e-9), rack
            assert passing.leave_value == pytest.approx(want, abs=1e-9)
            seen_nonzero += want != 0
            for move in moves:  # the plays and exchanges keep 6 tiles or fewer: the table's value
                if move.kind != "pass":
                    assert move.equity == pytest.approx(move.score + table.value(move.leave), abs=1e-9)
            equities = [m.equity for m in moves]
            assert equities == sorted(equities, reverse=True)
    assert seen_nonzero == 2 * len(racks)


def test_a_short_rack_keeps_its_table_value(sowpods: Lexicon, table: Leaves) -> None:
    """A rack of fewer tiles than the rack size (typed into the solver with tiles in the bag) is a
    leave the table holds: the pass keeps it at the table's value. Without a table it is 0."""
    solver = Solver(sowpods, ENGLISH)
    for rack in ("QVV", "AEST?", "EINRST"):
        moves = solver.solve(Board.empty(ENGLISH), rack, leaves=table, exchanges=True, bag=40, warn=False)
        (passing,) = [m for m in moves if m.kind == "pass"]
        assert passing.equity == pytest.approx(table.value(rack), abs=1e-9)
    plain = solver.solve(Board.empty(ENGLISH), "QVVWWIU", equity=True, exchanges=True, bag=40, warn=False)
    assert [m.equity for m in plain if m.kind == "pass"] == [0.0]


@pytest.mark.parametrize(("rows", "rack", "opponent", "scores"), LATE)
def test_late_game_pass_no_longer_first(
    sowpods: Lexicon, table: Leaves, rows: list[str], rack: str, opponent: str, scores: tuple[int, int]
) -> None:
    """10 unseen tiles, every play below 0: the pass is valued as keeping the bad rack (far below
    0), so the best play ranks first; the old rule (the player equity-pass0) still passes."""
    game = Game.from_position(Board.from_rows(rows, ENGLISH), [rack, opponent], sowpods, scores=scores)
    assert game.bag_count == 3 and game.unseen().total == 10
    moves = game.moves(leaves=table)
    plays = [m for m in moves if m.kind == "play"]
    (passing,) = [m for m in moves if m.kind == "pass"]
    assert len(plays) == len(moves) - 1  # no exchange with 3 in the bag
    assert all(m.equity < 0 for m in plays)
    assert passing.equity == pytest.approx(expected_pass(table, rack), abs=1e-9)
    assert passing.equity < plays[0].equity and moves[0] == plays[0]
    best = game.best_move("equity", table)
    assert best.kind == "play" and (best.coord, best.word) == (plays[0].coord, plays[0].word)
    assert game.best_move("equity-pass0", table).kind == "pass"  # 0.00 beat every play


def test_a_pass_as_the_only_move_and_with_the_bag_empty(sowpods: Lexicon, table: Leaves) -> None:
    """A full rack with no play (no vowel, on the empty board) and no exchange (3 in the bag) has
    the pass alone, at the full rack's value. With the bag empty the table plays no part: the
    pass costs twice the tiles' face value and 10 more, as any move that keeps tiles."""
    solver = Solver(sowpods, ENGLISH)
    moves = solver.solve(Board.empty(ENGLISH), "QVVXZJK", leaves=table, exchanges=True, bag=3, warn=False)
    assert [m.kind for m in moves] == ["pass"]
    assert (
        moves[0].equity == pytest.approx(expected_pass(table, "QVVXZJK"), abs=1e-9) and moves[0].equity < -50
    )
    values = dict(zip(ENGLISH.alphabet.letters, ENGLISH.values, strict=True))
    for rack in ("BCDDGQT", "AEIIISU"):
        moves = solver.solve(Board.empty(ENGLISH), rack, leaves=table, exchanges=True, bag=0, warn=False)
        (passing,) = [m for m in moves if m.kind == "pass"]
        assert passing.equity == -2 * sum(values[t] for t in rack) - 10
