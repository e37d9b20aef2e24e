"""Correctness (c): scores worked out by hand, on the C engine through the public API.

Every case builds a tiny lexicon with build_gaddag (so we know exactly which plays exist), sets
up a board, solves, and compares with a score worked out below from the rules: the English
tile values (A1 B3 C3 D2 E1 F4 G2 H4 I1 J8 K5 L1 M3 N1 O1 P3 Q10 R1 S1 T1 U1 V4 W4 X8 Y4 Z10,
blank 0) and the standard layout. Squares are (row, col), 0-based. The premiums used below
(upper-left quarter of the standard board, which is symmetric both ways):

    row 0: TW (0,0) (0,7)           DL (0,3)
    row 1: DW (1,1)                 TL (1,5)
    row 2: DW (2,2)                 DL (2,6)
    row 3: DW (3,3)                 DL (3,0) (3,7)
    row 4: DW (4,4) (4,10)
    row 5: TL (5,1) (5,5) (5,9)
    row 6: DL (6,2) (6,6) (6,8)
    row 7: TW (7,0) (7,14)  DW (7,7) (the start)  DL (7,3) (7,11)

Everything else used here is plain.
"""

from __future__ import annotations

from gaddag_solver import Lexicon, Rules, build_gaddag
from gaddag_solver.board import Board
from gaddag_solver.move import Move
from gaddag_solver.solver import Solver, solve

ENGLISH = Rules.load("english")


def lexicon(words: list[str], rules: Rules = ENGLISH) -> Lexicon:
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    return Lexicon.load(data, rules)


def board(rules: Rules = ENGLISH, **placed: str) -> Board:
    """A board with words on it: ``a7_3="CAT"`` puts CAT across from (7, 3), ``d4_7="OXEN"``
    down from (4, 7). Lower case letters are blanks."""
    grid = [["."] * rules.cols for _ in range(rules.rows)]
    for key, word in placed.items():
        direction, square = key[0], key[1:]
        row, col = (int(part) for part in square.split("_"))
        for i, letter in enumerate(word):
            r, c = (row, col + i) if direction == "a" else (row + i, col)
            assert grid[r][c] in (".", letter), f"{key}: square ({r}, {c}) holds {grid[r][c]}"
            grid[r][c] = letter
    return Board.from_rows(["".join(row) for row in grid], rules)


def tiles(*specs: tuple[int, int, str]) -> frozenset[tuple[int, int, str, bool]]:
    """(row, col, letter): upper case a real tile, lower case a blank."""
    return frozenset((r, c, letter.upper(), letter.islower()) for r, c, letter in specs)


def plays(moves: list[Move]) -> dict[frozenset, int]:
    found = {frozenset(m.tiles): m.score for m in moves}
    assert len(found) == len(moves), "a play is listed twice"
    return found


def find(moves: list[Move], placed: frozenset) -> Move:
    matches = [m for m in moves if frozenset(m.tiles) == placed]
    assert len(matches) == 1, f"{len(matches)} moves place {sorted(placed)}: {[str(m) for m in moves]}"
    return matches[0]


def words_add_up(move: Move, rules: Rules = ENGLISH) -> None:
    bonus = rules.bingo_bonus if len(move.tiles) == rules.rack_size else 0
    assert sum(score for _, score in move.words) + bonus == move.score


# ---- premiums under old tiles ---------------------------------------------------------------------


def test_premium_under_old_tile_does_not_count():
    # HOUSE across (7,7)..(7,11): its H is on the DW start square, its E on the DL (7,11), all
    # old. S at (7,12) (plain): HOUSES = H4 + O1 + U1 + S1 + E1 + S1 = 9.
    # (Counting the old premiums would give (4 + 1 + 1 + 1 + 1x2 + 1) x 2 = 20.)
    # No other play: SHOUSE and two-letter words with S are not in the lexicon.
    solver = Solver(lexicon(["HOUSE", "HOUSES"]), ENGLISH)
    moves = solver.solve(board(a7_7="HOUSE"), "S")
    assert plays(moves) == {tiles((7, 12, "S")): 9}
    assert moves[0].words == [("HOUSES", 9)]


def test_old_premium_in_a_cross_word_does_not_count():
    # HOUSE as above. A parallel play across row 8: A at (8,11) under the E (old, on the DL
    # (7,11)) and T at (8,12). Row 8 mirrors row 6 (DLs at columns 2, 6, 8, 12), so (8,11) is
    # plain and (8,12) a DL. Main word AT across: A1 + T1x2 = 3. Cross-word EA down
    # (7,11)..(8,11): E1 (its old DL ignored) + A1 = 2. T at (8,12) has nothing above ((7,12)
    # is empty): no cross-word. Total 5.
    solver = Solver(lexicon(["HOUSE", "AT", "EA"]), ENGLISH)
    moves = solver.solve(board(a7_7="HOUSE"), "AT")
    move = find(moves, tiles((8, 11, "A"), (8, 12, "T")))
    assert move.score == 5
    assert move.words == [("AT", 3), ("EA", 2)]


# ---- word premiums multiply ---------------------------------------------------------------------------


def test_two_double_words_multiply():
    # OXEN down (4,7)..(7,7) (covers the start). Rack CABOSE; lexicon CABOOSE only.
    # CABOOSE across row 4 from (4,4) uses the board's O at (4,7) as its 4th letter:
    # C on DW (4,4), A B on plain, old O, O S plain, E on DW (4,10).
    # (C3 + A1 + B3 + O1 + O1 + S1 + E1) = 11, x2 x2 = 44 (six tiles of a 7-tile rack: no bingo).
    # The only other play: the board's O as the 5th letter, from (4,3): C (4,3) plain, A on the
    # DW (4,4), B O plain, old O, S E plain: 11 x 2 = 22. (No other square has a free O next to
    # it in a free line, and the rack holds one O, so CABOOSE cannot use two rack O's.)
    solver = Solver(lexicon(["CABOOSE"]), ENGLISH)
    moves = solver.solve(board(d4_7="OXEN"), "CABOSE")
    assert plays(moves) == {
        tiles((4, 4, "C"), (4, 5, "A"), (4, 6, "B"), (4, 8, "O"), (4, 9, "S"), (4, 10, "E")): 44,
        tiles((4, 3, "C"), (4, 4, "A"), (4, 5, "B"), (4, 6, "O"), (4, 8, "S"), (4, 9, "E")): 22,
    }
    assert moves[0].words == [("CABOOSE", 44)]


def test_two_triple_words_multiply():
    # TRATIFICATION (13 letters) across (7,1)..(7,13), covering the DW start and both DLs of
    # row 7 with old tiles. S at (7,0) and S at (7,14), both TW: STRATIFICATIONS =
    # S1 T1 R1 A1 T1 I1 F4 I1 C3 A1 T1 I1 O1 N1 S1 = 20 face value (old premiums ignored),
    # x3 x3 = 180.
    solver = Solver(lexicon(["STRATIFICATIONS"]), ENGLISH)
    moves = solver.solve(board(a7_1="TRATIFICATION"), "SS")
    assert plays(moves) == {tiles((7, 0, "S"), (7, 14, "S")): 180}
    assert moves[0].words == [("STRATIFICATIONS", 180)]


# ---- cross-words ----------------------------------------------------------------------------------


def _cross_board() -> Board:
    # ATE down (5,4)..(7,4) and EARN across (7,4)..(7,7) (sharing the E at (7,4)).
    return board(d5_4="ATE", a7_4="EARN")


CROSS_WORDS = ["ATE", "EARN", "HATE", "HAS", "TAO", "AA", "OR"]


def test_cross_word_with_a_double_word_under_the_new_tile():
    # HAS across (4,4)..(4,6): H on the DW (4,4) over the A of ATE, so it also forms HATE down.
    # (4,5) and (4,6) have nothing above or below ((5,5), (5,6) are empty): no more words.
    # HAS  = (H4 + A1 + S1) x 2 = 12
    # HATE = (H4 + A1 + T1 + E1) x 2 = 14 (the DW is under the new H, so it doubles HATE too)
    # Total 26.
    moves = Solver(lexicon(CROSS_WORDS), ENGLISH).solve(_cross_board(), "HAS")
    move = find(moves, tiles((4, 4, "H"), (4, 5, "A"), (4, 6, "S")))
    assert move.score == 26
    assert move.words == [("HAS", 12), ("HATE", 14)]
    words_add_up(move)


def test_cross_words_with_a_letter_premium_under_the_new_tile():
    # TAO across row 6 from the board's T (6,4): A new at (6,5) (plain), O new at (6,6) (DL).
    # A sits over the A of EARN at (7,5): cross-word AA down; O over the R (7,6): OR down.
    # TAO = T1 + A1 + O1x2 = 4
    # AA  = A1 + A1 = 2
    # OR  = O1x2 + R1 = 3 (the DL under the new O counts in its cross-word as well)
    # Total 9; Move.words lists the main word, then the cross-words left to right.
    moves = Solver(lexicon(CROSS_WORDS), ENGLISH).solve(_cross_board(), "AO")
    move = find(moves, tiles((6, 5, "A"), (6, 6, "O")))
    assert (move.row, move.col, move.direction, move.word) == (6, 4, "across", "TAO")
    assert move.score == 9
    assert move.words == [("TAO", 4), ("AA", 2), ("OR", 3)]
    words_add_up(move)


def test_single_tile_forming_words_both_ways_is_one_play():
    # Board: OX down (6,5)..(7,5) and XAT across (7,5)..(7,7).
    # H at (6,6) (DL) forms OH across (with the O at (6,5)) and HA down (with the A at (7,6)).
    # OH = O1 + H4x2 = 9; HA = H4x2 + A1 = 9: total 18, listed once (across, as the main word).
    # H fits nowhere else: HO, AH, XATH, ... are not in the lexicon.
    moves = Solver(lexicon(["OX", "XAT", "OH", "HA"]), ENGLISH).solve(board(d6_5="OX", a7_5="XAT"), "H")
    assert plays(moves) == {tiles((6, 6, "H")): 18}
    (move,) = moves
    assert (move.row, move.col, move.direction, move.word) == (6, 5, "across", "OH")
    assert move.words == [("OH", 9), ("HA", 9)]


# ---- blanks -------------------------------------------------------------------------------------------


def test_blank_scores_zero_even_on_a_letter_premium():
    # Opening HOUSE across (7,3)..(7,7) with a blank as the H, on the DL (7,3); E on the DW start.
    # hOUSE = (0x2 + O1 + U1 + S1 + E1) x 2 = 8. (A real H would make (4x2 + 4) x 2 = 24.)
    moves = Solver(lexicon(["HOUSE"]), ENGLISH).solve(Board.empty(ENGLISH), "?OUSE")
    move = find(moves, tiles((7, 3, "h"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")))
    assert move.word == "hOUSE"
    assert move.score == 8
    with_h = find(Solver(lexicon(["HOUSE"]), ENGLISH).solve(Board.empty(ENGLISH), "HOUSE"), tiles(
        (7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")))  # fmt: skip
    assert with_h.score == 24


def test_blank_on_a_triple_letter_square():
    # HAT across (7,7)..(7,9). EAT down (5,9)..(7,9) ending on the board's T: the blank is the E
    # on the TL (5,9), A real on (6,9) (plain). eAT = 0x3 + A1 + T1 = 2 (a real E: 3 + 2 = 5).
    # Rack ?A: the E can only be the blank.
    solver = Solver(lexicon(["HAT", "EAT"]), ENGLISH)
    moves = solver.solve(board(a7_7="HAT"), "?A")
    move = find(moves, tiles((5, 9, "e"), (6, 9, "A")))
    assert (move.word, move.score) == ("eAT", 2)
    assert find(solver.solve(board(a7_7="HAT"), "EA"), tiles((5, 9, "E"), (6, 9, "A"))).score == 5


def test_blank_in_cross_words():
    # As the cross-word cases above, with blanks.
    # hAS with the blank H on the DW (4,4): hAS = (0 + 1 + 1) x 2 = 4, hATE = (0 + 1 + 1 + 1) x 2
    # = 6; total 10.
    # TAo with the blank O on the DL (6,6): TAo = 1 + 1 + 0 = 2, AA = 2, oR = 0 + 1 = 1; total 5.
    solver = Solver(lexicon(CROSS_WORDS), ENGLISH)
    has = find(solver.solve(_cross_board(), "?AS"), tiles((4, 4, "h"), (4, 5, "A"), (4, 6, "S")))
    assert has.score == 10
    assert has.words == [("hAS", 4), ("hATE", 6)]
    tao = find(solver.solve(_cross_board(), "A?"), tiles((6, 5, "A"), (6, 6, "o")))
    assert tao.score == 5
    assert tao.words == [("TAo", 2), ("AA", 2), ("oR", 1)]
    # With two blanks: both letters blank: TAo = 1 + 0 + 0 = 1, aA = 0 + 1 = 1, oR = 1; total 3.
    both = find(solver.solve(_cross_board(), "??"), tiles((6, 5, "a"), (6, 6, "o")))
    assert both.score == 3
    assert both.words == [("Tao", 1), ("aA", 1), ("oR", 1)]


def test_old_blank_on_the_board_scores_zero():
    # hOUSE on the board with a blank h on the DW start (7,7). S at (7,12):
    # hOUSES = 0 + 1 + 1 + 1 + 1 + 1 = 5.
    moves = Solver(lexicon(["HOUSE", "HOUSES"]), ENGLISH).solve(board(a7_7="hOUSE"), "S")
    assert plays(moves) == {tiles((7, 12, "S")): 5}
    assert moves[0].word == "hOUSES"


# ---- the bingo bonus --------------------------------------------------------------------------------


def test_bingo_english_50():
    # RETAINS across (7,7)..(7,13): R on the DW start, I on the DL (7,11), the rest plain.
    # (R1 + E1 + T1 + A1 + I1x2 + N1 + S1) x 2 = 16, + 50 for seven tiles = 66.
    moves = solve(Board.empty(ENGLISH), "AEINRST", lexicon(["RETAINS"]), ENGLISH)
    move = find(moves, tiles(*((7, 7 + i, letter) for i, letter in enumerate("RETAINS"))))
    assert move.score == 66
    assert move.words == [("RETAINS", 16)]
    words_add_up(move)
    # A rack of six tiles, all played, earns no bonus: RETAIN (7,7)..(7,12) = (1+1+1+1+2+1) x 2
    # = 14.
    short = solve(Board.empty(ENGLISH), "AEINRT", lexicon(["RETAIN"]), ENGLISH)
    assert find(short, tiles(*((7, 7 + i, letter) for i, letter in enumerate("RETAIN")))).score == 14


def test_bingo_through_a_board_tile():
    # Board: HAT across (7,7)..(7,9). Rack AEINRST; STRAIGHTEN? Simpler: RETAINS + H? Use
    # THEREIN...? A controlled word: the 8-letter ANTHERIS (made-up) down column 7? (7,7) is H,
    # so down column 7 from (4,7): A (4,7) plain, N (5,7) plain, T (6,7) plain, old H (7,7),
    # E (8,7), R (9,7), I (10,7), S (11,7) (DL: row 11 is the mirror of row 3, DL at col 7).
    # Sum = A1 + N1 + T1 + H4 + E1 + R1 + I1 + S1x2 = 12, no word premium; 7 tiles: + 50 = 62.
    solver = Solver(lexicon(["HAT", "ANTHERIS"]), ENGLISH)
    moves = solver.solve(board(a7_7="HAT"), "AEINRST")
    move = find(moves, tiles((4, 7, "A"), (5, 7, "N"), (6, 7, "T"), (8, 7, "E"), (9, 7, "R"), (10, 7, "I"),
                             (11, 7, "S")))  # fmt: skip
    assert move.score == 62
    assert move.words == [("ANTHERIS", 12)]
    words_add_up(move)


def test_bingo_words_with_friends_35():
    # WWF layout, row 7: "...D.......D..." — DW at (7,3) and (7,11); the start (7,7) is plain.
    # WWF values: R1 E1 T1 A1 I1 N2 S1. RETAINS across (7,7)..(7,13): I on the DW (7,11).
    # (1 + 1 + 1 + 1 + 1 + 2 + 1) x 2 = 16, + 35 = 51.
    wwf = Rules.load("wwf")
    moves = solve(Board.empty(wwf), "AEINRST", lexicon(["RETAINS"], wwf), wwf)
    move = find(moves, tiles(*((7, 7 + i, letter) for i, letter in enumerate("RETAINS"))))
    assert move.score == 51
    words_add_up(move, wwf)
    # RETAINS across (7,4)..(7,10) covers no premium: 8 + 35 = 43; across (7,1)..(7,7) its T
    # is on the DW (7,3): 16 + 35 = 51.
    assert find(moves, tiles(*((7, 4 + i, letter) for i, letter in enumerate("RETAINS")))).score == 43
    assert find(moves, tiles(*((7, 1 + i, letter) for i, letter in enumerate("RETAINS")))).score == 51


def test_bingo_erudit_15_and_the_centre_does_not_double():
    # Эрудит: values А1 Б3 В2 О1 С2 Т2 У3 Д2 М2; row 7 has DL at (7,3) and (7,11); the start
    # (7,7) multiplies nothing. АВТОБУС across (7,7)..(7,13): Б on the DL (7,11):
    # А1 + В2 + Т2 + О1 + Б3x2 + У3 + С2 = 17, + 15 for seven tiles = 32.
    erudit = Rules.load("erudit")
    lex = lexicon(["АВТОБУС", "ДОМ"], erudit)
    moves = solve(Board.empty(erudit), "АБВОСТУ", lex, erudit)
    move = find(moves, tiles(*((7, 7 + i, letter) for i, letter in enumerate("АВТОБУС"))))
    assert move.score == 32
    words_add_up(move, erudit)
    # ДОМ across (7,7)..(7,9): 2 + 1 + 2 = 5, not doubled by the centre; from (7,5) also 5.
    short = solve(Board.empty(erudit), "ДОМ", lex, erudit)
    assert {m.score for m in short} == {5}
    assert len(short) == 6  # three squares of the word can cover the centre, both directions


def test_start_square_that_does_not_double():
    # The English layout with start_doubles false: the DW under the start multiplies nothing.
    # CAT across (7,5)..(7,7): C3 + A1 + T1 = 5 (with the standard rules: 10).
    plain = Rules.from_dict({**ENGLISH.to_dict(), "name": "nodouble", "start_doubles": False})
    lex = lexicon(["CAT"], plain)
    assert {m.score for m in solve(Board.empty(plain), "ACT", lex, plain)} == {5}
    assert {m.score for m in solve(Board.empty(ENGLISH), "ACT", lexicon(["CAT"]), ENGLISH)} == {10}


def test_quadruple_premiums():
    # A custom 3x5 board with the 4x squares of Super Scrabble: q (4x letter) and Q (4x word).
    #   row 0: Q . q . .
    #   row 1: . . D . .      start (1,2), a DW
    #   row 2: . . . . .
    # Board: CAT across (1,1)..(1,3) (old, its A on the DW start). Lexicon {CAT, TA, ZA}, rack ZT.
    # Z at (0,2) on the q, over the old A at (1,2): ZA down = Z10x4 + A1 = 41.
    # T at (0,2): TA down = T1x4 + A1 = 5.
    # Nothing else: ZT, TC, TT, AZ, AT, ZCAT, CATZ, ... are not in the lexicon.
    rules = Rules.from_dict(
        {
            **ENGLISH.to_dict(),
            "name": "quad",
            "rows": 3,
            "cols": 5,
            "layout": ["Q.q..", "..D..", "....."],
            "start": [1, 2],
        }
    )
    lex = lexicon(["CAT", "TA", "ZA"], rules)
    start = Board.from_rows([".....", ".CAT.", "....."], rules)
    assert plays(solve(start, "ZT", lex, rules)) == {tiles((0, 2, "Z")): 41, tiles((0, 2, "T")): 5}
    # A play over the Q: lexicon {CAT, TA, AC}, TA across (0,0)..(0,1), T on the Q (0,0), A at
    # (0,1) over the C, forming AC down. TA = (T1 + A1) x 4 = 8; AC = A1 + C3 = 4 (the Q is
    # under the T, not in AC); total 12.
    lex2 = lexicon(["CAT", "TA", "AC"], rules)
    assert find(solve(start, "TA", lex2, rules), tiles((0, 0, "T"), (0, 1, "A"))).score == 12
