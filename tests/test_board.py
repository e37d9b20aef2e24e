"""Boards, racks, moves and the solver's Python side (board.py, rack.py, move.py, solver.py).

Expected values are worked out by hand here, or come from the brute-force oracle
(tests/oracle.py) and the reference files in tests/data/sowpods.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from gaddag_solver import (
    Board,
    Lexicon,
    LexiconMismatchError,
    Move,
    PositionError,
    PositionWarning,
    Rack,
    RackError,
    Rules,
    Solver,
    build_gaddag,
    parse_cgp,
    position_warnings,
    solve,
    square_name,
)
from gaddag_solver.alphabet import BLANK_FLAG
from gaddag_solver.board import column_name, floating_tiles, parse_square
from gaddag_solver.move import MOVE_RECORD
from oracle import OracleRules, board_from_lines, generate, parse_positions_txt, score_word, words_formed
from small_words import WORDS

DATA = Path(__file__).resolve().parent / "data" / "sowpods"
ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def small_lexicon() -> Lexicon:
    data, _report = build_gaddag(WORDS, ENGLISH.alphabet, name="small")
    return Lexicon.load(data)


def sowpods() -> Lexicon:
    path = Path(__file__).resolve().parent.parent / "lexicons" / "sowpods.gaddag"
    if not path.is_file():
        pytest.fail("lexicons/sowpods.gaddag is not built: run scripts/setup_env.sh")
    return Lexicon.load(path)


def grid(*rows: str, size: int = 15) -> str:
    """A 15×15 grid whose first rows are given (padded with '.')."""
    lines = [row.ljust(size, ".") for row in rows]
    return "\n".join(lines + ["." * size] * (size - len(lines)))


def centred(word: str, row: int = 7, col: int = 7) -> Board:
    """A board with `word` across, its first letter on (row, col)."""
    lines = ["." * 15 for _ in range(15)]
    lines[row] = "." * col + word + "." * (15 - col - len(word))
    return Board.from_rows(lines, ENGLISH)


def plays(moves: list[Move]) -> set[tuple[frozenset, int]]:
    return {(frozenset(move.tiles), move.score) for move in moves}


# ---- square names ----------------------------------------------------------------------------------


def test_square_names() -> None:
    assert square_name(7, 7) == "H8"
    assert square_name(0, 0) == "A1"
    assert square_name(14, 14) == "O15"
    assert square_name(20, 20) == "U21"  # Super Scrabble: columns A–U
    assert [column_name(c) for c in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
    assert parse_square("H8") == (7, 7)
    assert parse_square("u21") == (20, 20)
    with pytest.raises(ValueError):
        parse_square("8H")


# ---- boards ----------------------------------------------------------------------------------------


def test_empty_board() -> None:
    board = Board.empty(ENGLISH)
    assert board.is_empty
    assert board.tile_count() == 0
    assert board.codes() == bytes(225)
    assert board[7, 7] is None
    assert board.to_text() == ("." * 15 + "\n") * 15


def test_from_text_codes_and_lookup() -> None:
    text = grid("", "", "", "", "", "", "", ".......CAt")
    board = Board.from_text("\n  " + text.replace("\n", "  \n\n ") + "\n\n", ENGLISH)  # whitespace ignored
    assert not board.is_empty
    assert board.tile_count() == 3
    assert board[7, 7] == "C"
    assert board["I8"] == "A"
    assert board[7, 9] == "t"  # a blank, shown in lower case
    assert board[7, 10] is None
    codes = board.codes()
    assert len(codes) == 225
    c, a, t = (ENGLISH.alphabet.code(x) for x in "CAT")
    assert codes[7 * 15 + 7 : 7 * 15 + 10] == bytes([c, a, t | BLANK_FLAG])
    assert sum(1 for x in codes if x) == 3
    assert list(board.tiles()) == [(7, 7, "C"), (7, 8, "A"), (7, 9, "t")]
    assert Board.from_text(board.to_text(), ENGLISH) == board


def test_from_text_reads_every_reference_grid() -> None:
    text = (DATA / "positions.txt").read_text(encoding="utf-8")
    blocks = [block for block in text.split("\n\n") if block.strip()]
    positions = parse_positions_txt(DATA / "positions.txt")
    assert len(positions) == 62
    for block, (oracle_board, _rack) in zip(blocks, positions, strict=True):
        board_lines = block.strip().splitlines()[:15]
        board = Board.from_text("\n".join(board_lines), ENGLISH)
        assert board.grid() == oracle_board
        assert board.to_rows() == board_lines


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (grid() + "\n" + "." * 15, "board has 16 rows, the English Scrabble rules need 15"),
        ("\n".join(["." * 15] * 14), "board has 14 rows, the English Scrabble rules need 15"),
        (
            "\n".join(["." * 15] * 7 + ["." * 14] + ["." * 15] * 7),
            "board row 8 has 14 squares, the English Scrabble rules need 15",
        ),
        (
            grid("", "", "", "", "", "", "", ".......Ж"),
            "square H8: 'Ж' is not a letter of the English Scrabble alphabet",
        ),
        (grid("", "", "", "", "", "", "", ".......C?T"), "square I8: '?' is not a letter"),
    ],
)
def test_board_errors_name_the_square(text: str, message: str) -> None:
    with pytest.raises(PositionError) as info:
        Board.from_text(text, ENGLISH)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            grid("QI", "", "", "", "", "", "", ".......CAT"),
            "floating tile Q at A1 and 1 more: not connected to the tiles on the start square H8; "
            "solved anyway: every play must touch a tile",
        ),
        (
            grid("", "", "", "", "", "", "", "", "", "", "", "", "", "", "..........ZO"),
            "the start square H8 is empty, but the board has tiles (Z at K15 and 1 more); solved anyway",
        ),
    ],
)
def test_floating_tiles_are_a_warning_not_an_error(text: str, message: str) -> None:
    board = Board.from_text(text, ENGLISH)
    warnings = position_warnings(board, None)
    assert len(warnings) == 1 and warnings[0].startswith(message)


def test_floating_tile_is_named_and_connected_boards_pass() -> None:
    # CAT across the centre, a down word hooked on it, and a tile diagonally off it (floating)
    lines = grid("", "", "", "", "", "", "", ".......CAT", ".........E", ".........A", "...........X")
    board = Board.from_text(lines, ENGLISH)
    assert floating_tiles(board) == [(10, 11)]
    assert position_warnings(board, None)[0].startswith("floating tile X at L11: not connected")
    lines = grid("", "", "", "", "", "", "", ".......CAT", ".........E", ".........A", ".........X")
    ok = Board.from_text(lines, ENGLISH)  # now the X hooks under the A
    assert ok.tile_count() == 6 and floating_tiles(ok) == [] and position_warnings(ok, None) == []


def test_other_sizes_and_alphabets() -> None:
    super_rules = Rules.load("super")
    board = Board.empty(super_rules)
    assert len(board.codes()) == 21 * 21
    with pytest.raises(PositionError, match="board has 15 rows, the Super Scrabble rules need 21"):
        Board.from_text(grid(), super_rules)
    erudit = Rules.load("erudit")
    lines = ["." * 15 for _ in range(15)]
    lines[7] = ".......ЁЖ" + "." * 6
    board = Board.from_rows(lines, erudit)
    assert board[7, 7] == "Е"  # Ё is folded to Е in Эрудит
    assert board[7, 8] == "Ж"
    polish = Rules.load("polish")
    lines[7] = ".......ŻĄł" + "." * 5
    board = Board.from_rows(lines, polish)
    assert (board[7, 7], board[7, 8], board[7, 9]) == ("Ż", "Ą", "ł")
    assert board.codes()[7 * 15 + 9] == polish.alphabet.code("Ł") | BLANK_FLAG


def test_play_returns_a_new_board() -> None:
    board = centred("CAT")
    move = Move(6, 9, "down", "AT", 2, ((6, 9, "A", False),))
    after = board.play(move)
    assert after is not board
    assert board[6, 9] is None and board.tile_count() == 3  # unchanged
    assert after[6, 9] == "A" and after.tile_count() == 4
    blank = Move(7, 10, "across", "CATs", 5, ((7, 10, "S", True),))
    assert board.play(blank)[7, 10] == "s"
    with pytest.raises(PositionError, match="H8 already holds 'C'"):
        board.play(Move(7, 7, "across", "A", 1, ((7, 7, "A", False),)))


# ---- racks -----------------------------------------------------------------------------------------


def test_rack_parsing_and_counts() -> None:
    rack = Rack("ae? r s", ENGLISH)
    assert str(rack) == "AE?RS"
    assert len(rack) == 5
    assert rack.blanks == 1
    counts = rack.counts()
    assert len(counts) == 64
    assert counts[0] == 1
    assert counts[ENGLISH.alphabet.code("A")] == 1
    assert counts[ENGLISH.alphabet.code("R")] == 1
    assert sum(counts) == 5
    assert str(Rack("", ENGLISH)) == "" and str(Rack("-", ENGLISH)) == ""
    assert Rack("ЁЖ", Rules.load("erudit")).tiles == ("Е", "Ж")


def test_rack_errors() -> None:
    with pytest.raises(RackError, match="8 tiles; the English Scrabble rack holds at most 7"):
        Rack("AEINRST?", ENGLISH)
    with pytest.raises(RackError, match="'1' is not a letter of the English Scrabble alphabet"):
        Rack("AB1", ENGLISH)
    with pytest.raises(RackError, match="'Ж'"):
        Rack("AЖ", ENGLISH)
    # a letter of another script says which the ruleset's are (a Latin A looks like Cyrillic А)
    with pytest.raises(RackError) as error:
        Rack("AБВ", Rules.load("erudit"))
    assert str(error.value) == (
        "rack tile 'A' is not a letter of the Эрудит alphabet ('A' is a Latin letter; these letters are "
        "Cyrillic, А to Я)"
    )
    with pytest.raises(RackError, match=r"alphabet$"):
        Rack("AB1", ENGLISH)  # a digit is no letter of any script: nothing to add


def test_rack_remove_gives_the_leave_in_rack_order() -> None:
    rack = Rack("SATIRE?", ENGLISH)
    assert str(rack.remove("TEA")) == "SIR?"
    assert str(rack.remove("?R")) == "SATIE"
    assert str(rack.remove("")) == "SATIRE?"
    assert str(Rack("AAB", ENGLISH).remove("A")) == "AB"
    with pytest.raises(RackError):
        rack.remove("Z")
    with pytest.raises(RackError):
        rack.remove("??")


# ---- moves -----------------------------------------------------------------------------------------


def test_move_coord_across_and_down() -> None:
    across = Move(7, 3, "across", "ZOARED", 40, ())
    down = Move(7, 3, "down", "ZOARED", 40, ())
    assert across.coord == "8D"
    assert down.coord == "D8"
    assert Move(0, 0, "across", "AB", 1, ()).coord == "1A"
    assert Move(14, 14, "down", "AB", 1, ()).coord == "O15"
    assert Move(20, 20, "down", "AB", 1, ()).coord == "U21"
    with pytest.raises(ValueError):
        Move(0, 0, "diagonal", "AB", 1, ())


def test_move_to_dict_and_tiles_used() -> None:
    move = Move(7, 7, "across", "CAt", 4, ((7, 7, "C", False), (7, 8, "A", False), (7, 9, "T", True)), "E")
    assert move.tiles_used == "CA?"
    assert move.to_dict() == {
        "row": 7,
        "col": 7,
        "direction": "across",
        "word": "CAt",
        "score": 4,
        "coord": "8H",
        "tiles_used": "CA?",
        "leave": "E",
    }


# ---- the solver ------------------------------------------------------------------------------------


def test_solve_matches_the_oracle_and_is_sorted(small_lexicon: Lexicon) -> None:
    rules = OracleRules.english()
    words = set(WORDS)
    board = Board.from_text(
        grid("", "", "", "", "", "", "", "......CARE", ".........A", ".........T"), ENGLISH
    )
    for rack in ("AEIRST?", "QATZOXE", "ESNT", "A"):
        moves = solve(board, rack, small_lexicon, ENGLISH)
        assert plays(moves) == generate(board.grid(), rack, words, rules)
        assert len(plays(moves)) == len(moves)  # no play twice
        keys = [(-m.score, m.row, m.col, m.direction != "across", len(m.word), m.word) for m in moves]
        assert [k[0] for k in keys] == sorted(k[0] for k in keys)
        for move in moves:
            assert Rack(rack, ENGLISH).remove(move.tiles_used) == Rack(move.leave, ENGLISH)
            assert len(move.tiles_used) + len(move.leave) == len(rack)


FLOATING_BOARDS = [
    # the start square empty, one word in a corner
    grid("CARE", "", "", "", "", "", "", "", "", "", "", "", "", "", ""),
    # a connected group on the start square and a word off by itself
    grid("", "", "..TAB", "", "", "", "", ".......CAT", ".........E", ".........A"),
    # single tiles scattered, none on the start square, one at the edge
    grid("", "...S", "", "", "", ".........E", "", "", "", "", "", "", "A", "", "..............T"),
]


@pytest.mark.parametrize("number", range(len(FLOATING_BOARDS)))
def test_floating_tiles_are_solved_like_the_oracle(small_lexicon: Lexicon, number: int) -> None:
    rules = OracleRules.english()
    words = set(WORDS)
    board = Board.from_text(FLOATING_BOARDS[number], ENGLISH)
    assert floating_tiles(board)
    for rack in ("AEIRST?", "QATZOXE", "ESNT", "A"):
        with pytest.warns(PositionWarning, match="solved anyway: every play must touch a tile"):
            moves = solve(board, rack, small_lexicon, ENGLISH)
        want = generate(board.grid(), rack, words, rules)
        assert plays(moves) == want and len(moves) == len(want)
        assert rack == "A" or len(moves) >= 10  # plays around the floating tiles


def test_a_floating_position_with_sowpods_matches_the_oracle() -> None:
    """A reference position with a word added off by itself and the start square's word moved:
    every play, against the oracle with the whole SOWPODS list."""
    from oracle import load_words

    words_path = Path(__file__).resolve().parent.parent / "lexicons" / "sources" / "sowpods.txt"
    if not words_path.is_file():
        pytest.fail("lexicons/sources/sowpods.txt is missing: run scripts/setup_env.sh")
    board = Board.from_text(
        grid("", ".QUIZ", "", "", "", "", "", "", "", "", "", "", "..........JOT", "", ".....FE"), ENGLISH
    )
    assert len(floating_tiles(board)) == board.tile_count() == 9
    with pytest.warns(PositionWarning, match="start square H8 is empty"):
        moves = solve(board, "AEINST?", sowpods(), ENGLISH)
    want = generate(board.grid(), "AEINST?", load_words(words_path), OracleRules.english())
    assert plays(moves) == want and len(moves) == len(want) > 10_000


def test_leave_is_rack_minus_tiles_used(small_lexicon: Lexicon) -> None:
    moves = solve(Board.empty(ENGLISH), "ZEACRT?", small_lexicon, ENGLISH)
    by_play = {(m.coord, m.word): m for m in moves}
    crate = by_play[("8D", "CRATE")]
    assert crate.tiles_used == "CRATE"
    assert crate.leave == "Z?"
    blanked = by_play[("8D", "CRATEs")]  # the S is the blank
    assert blanked.tiles_used == "CRATE?"
    assert blanked.leave == "Z"
    assert (blanked.tiles[-1], blanked.word) == ((7, 8, "S", True), "CRATEs")


def test_top_is_a_prefix_of_all(small_lexicon: Lexicon) -> None:
    solver = Solver(small_lexicon, ENGLISH)
    board = centred("CARE", 7, 5)
    everything = solver.solve(board, "AEST?XZ")
    assert len(everything) > 50
    for top in (1, 3, 10, len(everything) + 5):
        assert solver.solve(board, "AEST?XZ", top=top) == everything[:top]
        count, best = solver.solve_counted(board, "AEST?XZ", top=top)
        assert count == len(everything) == solver.count(board, "AEST?XZ")
        assert best == everything[:top]
    assert solver.solve(board, "AEST?XZ", top=0) == []
    raw_count, records = solver.solve_raw(board, "AEST?XZ")
    assert raw_count == len(everything) and len(records) == raw_count * MOVE_RECORD.size


def test_words_formed_are_scored_like_the_oracle(small_lexicon: Lexicon) -> None:
    rules = OracleRules.english()
    board = Board.from_text(
        grid("", "", "", "", "", "", "", "......CARE", ".........A", ".........T"), ENGLISH
    )
    moves = solve(board, "AEST?XZ", small_lexicon, ENGLISH)
    multi = 0
    for move in moves:
        placements = [(r, c, letter, blank) for r, c, letter, blank in move.tiles]
        expected = words_formed(board.grid(), placements, rules)
        got = move.words
        assert got[0][0] == move.word  # the main word first
        assert sorted(got) == sorted(
            ("".join(ch.lower() if b else ch for _r, _c, ch, b, _n in word), score_word(word, rules))
            for word in expected
        )
        bingo = ENGLISH.bingo_bonus if len(move.tiles) == ENGLISH.rack_size else 0
        assert sum(score for _w, score in got) + bingo == move.score
        multi += len(got) > 1
        assert move.to_dict(words=True)["words"] == [{"word": w, "score": s} for w, s in got]
    assert multi > 10  # plenty of plays form cross-words


def test_playing_the_best_move(small_lexicon: Lexicon) -> None:
    board = Board.empty(ENGLISH)
    rack = Rack("CARETSZ", ENGLISH)
    best = solve(board, rack, small_lexicon, ENGLISH, top=1)[0]
    after = board.play(best)
    assert after.tile_count() == len(best.tiles)
    for r, c, letter, blank in best.tiles:
        assert after[r, c] == (letter.lower() if blank else letter)
    after.validate()
    nxt = solve(after, best.leave + "AE", small_lexicon, ENGLISH)
    assert nxt and all(set(after.codes()[r * 15 + c] for r, c, _l, _b in m.tiles) == {0} for m in nxt)


def test_solve_accepts_text(small_lexicon: Lexicon) -> None:
    board_text = grid("", "", "", "", "", "", "", ".......CAT")
    assert solve(board_text, "sea", small_lexicon) == solve(
        Board.from_text(board_text, ENGLISH), Rack("SEA", ENGLISH), small_lexicon, ENGLISH
    )


def test_lexicon_alphabet_must_match_the_rules(small_lexicon: Lexicon) -> None:
    polish = Rules.load("polish")
    with pytest.raises(LexiconMismatchError, match="polish"):
        solve(Board.empty(polish), Rack("ĄB", polish), small_lexicon, polish)
    with pytest.raises(LexiconMismatchError):
        Solver(small_lexicon, Rules.load("russian"))


def test_position_warnings(small_lexicon: Lexicon) -> None:
    board = centred("ZAX")
    assert position_warnings(board, Rack("AEI", ENGLISH), ENGLISH) == []
    messages = position_warnings(board, Rack("ZXX???", ENGLISH), ENGLISH)
    assert messages == [
        "the board and rack hold 3 X tiles, but the English Scrabble bag has only 1",
        "the board and rack hold 2 Z tiles, but the English Scrabble bag has only 1",
        "the board and rack hold 3 blanks, but the English Scrabble bag has only 2",
    ]
    with pytest.warns(PositionWarning, match="2 Z tiles"):
        solve(board, "ZE", small_lexicon, ENGLISH)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solve(board, "AE", small_lexicon, ENGLISH)  # nothing to warn about


def test_reference_positions_with_sowpods() -> None:
    """Every play of the 62 reference positions, against expected.txt (needs lexicons/sowpods)."""
    from oracle import expected_plays, parse_expected

    lexicon = sowpods()
    solver = Solver(lexicon, ENGLISH)
    lines = (DATA / "positions.cgp").read_text(encoding="utf-8").splitlines()
    expected = parse_expected(DATA / "expected.txt")
    for number, (line, want) in enumerate(zip(lines, expected, strict=True)):
        position = parse_cgp(line, ENGLISH)
        moves = solver.solve(position.board, position.rack)
        assert plays(moves) == expected_plays(position.board.grid(), want), f"position {number}"
        assert len(moves) == len(want)
        if want:
            assert moves[0].score == want[0][4]


def test_board_from_lines_helper_agrees() -> None:
    # the oracle's board representation and Board.grid() are the same thing
    lines = grid("", "", "", "", "", "", "", ".......CAt").splitlines()
    assert Board.from_rows(lines, ENGLISH).grid() == board_from_lines(lines)


def test_unchecked_board_still_refuses_codes_that_are_not_letters() -> None:
    """check=False skips the connectivity check, not the codes: a square holding a code that is
    no letter (63 in a 26-letter alphabet) was an IndexError when read."""
    for code in (27, 63, BLANK_FLAG, BLANK_FLAG | 27, 64 | 1):
        codes = bytearray(225)
        codes[7 * 15 + 9] = code
        with pytest.raises(
            PositionError, match=f"square J8: code {code} is not a letter of the English Scrabble alphabet"
        ):
            Board(ENGLISH, bytes(codes), check=False)
    codes[7 * 15 + 9] = BLANK_FLAG | 26
    codes[0] = 1  # floating, but letters: allowed unchecked
    assert Board(ENGLISH, bytes(codes), check=False)["J8"] == "z"
