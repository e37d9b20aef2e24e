"""Unseen tiles: checked against a plain recount (the full set as a list of tiles, minus the
board, minus the rack) on random positions of every shipped ruleset, and on positions that hold
more tiles than the set has."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from gaddag_solver import Board, Rack, Rules, Unseen, unseen
from gaddag_solver.alphabet import BLANK_FLAG

SHIPPED = ["english", "super", "wwf", "polish", "russian", "erudit", "french", "german", "spanish"]


def full_set(rules: Rules) -> list[str]:
    """Every tile of the set as text: each letter count times, ``?`` per blank."""
    tiles = ["?"] * rules.blanks
    for letter, _value, count in rules.tiles():
        tiles += [letter] * count
    return tiles


def recount(rules: Rules, board_tiles: list[str], rack_tiles: list[str]) -> Counter[str]:
    left = Counter(full_set(rules))
    left.subtract(board_tiles)
    left.subtract(rack_tiles)
    return left


def random_position(rules: Rules, rng: random.Random) -> tuple[Board, Rack, list[str]]:
    """Tiles drawn from a shuffled set: some onto random squares (a blank standing for a random
    letter), up to a rack's worth onto the rack. Returns the board tiles as the set names them."""
    tiles = full_set(rules)
    rng.shuffle(tiles)
    on_board = rng.randint(0, min(len(tiles), rules.rows * rules.cols))
    rack_size = rng.randint(0, min(rules.rack_size, len(tiles) - on_board))
    squares = rng.sample(range(rules.rows * rules.cols), on_board)
    codes = bytearray(rules.rows * rules.cols)
    for square, tile in zip(squares, tiles[:on_board], strict=True):
        if tile == "?":
            codes[square] = rng.randint(1, len(rules.alphabet)) | BLANK_FLAG
        else:
            codes[square] = rules.alphabet.code(tile)
    rack = Rack(tiles[on_board : on_board + rack_size], rules)
    return Board(rules, bytes(codes), check=False), rack, tiles[:on_board]


@pytest.mark.parametrize("name", SHIPPED)
def test_unseen_matches_a_recount_on_random_positions(name: str) -> None:
    rules = Rules.load(name)
    rng = random.Random(f"unseen-{name}")
    for _ in range(60):
        board, rack, board_tiles = random_position(rules, rng)
        result = unseen(board, rack)
        expected = recount(rules, board_tiles, list(rack))
        assert list(result.counts) == [*rules.alphabet.letters, "?"]
        assert result.counts == {tile: expected[tile] for tile in result.counts}
        assert result.total == len(full_set(rules)) - len(board_tiles) - len(rack)
        assert result.bag == max(0, result.total - rules.rack_size)
        assert result.blanks == expected["?"]
        assert result.vowels == sum(expected[v] for v in rules.vowels)
        assert result.consonants == result.total - result.vowels - result.blanks
        assert result.warnings == ()


def test_empty_board_and_no_rack_leave_the_whole_set_unseen() -> None:
    rules = Rules.load("english")
    result = unseen(Board.empty(rules), None)
    assert (result.total, result.bag, result.blanks) == (100, 93, 2)
    assert (result.vowels, result.consonants) == (42, 56)  # A9 E12 I9 O8 U4
    assert result.counts["E"] == 12 and result.counts["Z"] == 1


def test_blanks_on_the_board_count_as_blanks_not_as_their_letter() -> None:
    rules = Rules.load("english")
    board = Board.from_rows(["." * 15] * 7 + ["......zZ......."] + ["." * 15] * 7, rules)
    result = unseen(board, "?")
    assert result.counts["?"] == 0 and result.blanks == 0
    assert result.counts["Z"] == 0  # the real Z is on the board; the blank beside it is not a Z
    assert result.total == 100 - 3
    assert result.warnings == ()


def test_overfull_position_warns_and_counts_zero_instead_of_crashing() -> None:
    rules = Rules.load("english")
    board = Board.from_rows(["." * 15] * 7 + ["....ZZZZ......."] + ["." * 15] * 7, rules)
    result = unseen(board, Rack("Z???", rules))
    assert result.counts["Z"] == 0 and result.counts["?"] == 0
    assert all(count >= 0 for count in result.counts.values())
    assert result.total == 100 - 1 - 2  # only the set's one Z and two blanks were ever there
    assert result.warnings == (
        "the board and rack hold 5 Z tiles, but the English Scrabble bag has only 1",
        "the board and rack hold 3 blanks, but the English Scrabble bag has only 2",
    )


def test_near_the_end_the_opponent_holds_everything_and_the_bag_is_empty() -> None:
    rules = Rules.load("english")
    rng = random.Random(7)
    tiles = full_set(rules)
    rng.shuffle(tiles)
    rack = Rack(tiles[:7], rules)
    board_tiles = tiles[7:-5]
    codes = bytearray(225)
    for square, tile in enumerate(board_tiles):
        codes[square] = rules.alphabet.code("E") | BLANK_FLAG if tile == "?" else rules.alphabet.code(tile)
    result = unseen(Board(rules, bytes(codes), check=False), rack)
    assert (result.total, result.bag) == (5, 0)


def test_to_dict_is_json_in_alphabet_order() -> None:
    rules = Rules.load("erudit")
    result = unseen(Board.empty(rules), "АБ?", rules)
    data = json.loads(json.dumps(result.to_dict(), ensure_ascii=False))
    assert list(data["counts"])[:3] == ["А", "Б", "В"] and list(data["counts"])[-1] == "?"
    assert data["counts"]["А"] == 9 and data["counts"]["?"] == 2
    assert data["total"] == 128 and data["bag"] == 121 and data["warnings"] == []
    assert isinstance(result, Unseen)
