"""Correctness (a): the C move generator against the brute-force oracle (tests/oracle.py).

Property tests (hypothesis) on random small games, for every shipped ruleset and for random
tiny rulesets: a random lexicon of words over a few letters of the ruleset's alphabet is built
with build_gaddag; a game is played from the empty board, each turn a random rack (0, 1 or 2
blanks; often a full rack, often the letters of a lexicon word so bingos happen) and a random
play chosen from the legal ones, so every board is legal and connected. At every turn the
position is checked: the public Solver (the C core) and the oracle give identical sets of
(tiles placed, score), no play is listed twice, every Move is self-consistent (word, tiles,
direction, leave), Move.words agrees with the oracle's words and scores, and ``top=n`` is the
first n of the full list while the count is the total.

Deterministic cases cover the edges: openings (must cover the start), full-rack bingos, full
lines, plays along all four board edges, a single tile forming words both ways (one play),
and the core's limits: a 32-square line, a 32×32 board, a 63-letter alphabet.

The oracle is restricted to the letters the lexicon uses: a blank designated as any other
letter can never form a word, so nothing is lost, and it is much faster.

The default run takes well under a minute; GADDAG_SLOW_TESTS=1 runs 20 times as many examples.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from gaddag_solver import Lexicon, Rules, build_gaddag
from gaddag_solver.board import Board
from gaddag_solver.move import Move
from gaddag_solver.rack import Rack
from gaddag_solver.rules import RulesError
from gaddag_solver.solver import Solver
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracle import (
    OracleRules,
    board_to_lines,
    describe_play,
    empty_board,
    generate,
    play_differences,
    score_word,
    words_formed,
)
from small_words import WORDS as SMALL_WORDS

SLOW = os.environ.get("GADDAG_SLOW_TESTS") == "1"


def examples(n: int) -> int:
    return n * 20 if SLOW else n


def game_settings(n: int):
    return settings(
        max_examples=examples(n),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


RULESETS = ("english", "super", "wwf", "polish", "russian", "erudit", "french", "german")
RULES = {name: Rules.load(name) for name in RULESETS}
# Letters words are drawn from: common ones, plus the language's own (Ą Ę Ł Ż Ó; Ё, which is a
# letter of its own in Russian Scrabble and folds to Е in Эрудит).
LETTER_POOLS = {
    "english": "AEIOSTRNLDHXZQJ",
    "super": "AEIOSTRNLDHXZQJ",
    "wwf": "AEIOSTRNLDHXZQJ",
    "polish": "AEIOĄĘŁŻÓŹŚĆŃSZ",
    "russian": "АЕЁИОТНСЖЩЪЫЭЮЯ",
    "erudit": "АЕИОТНСЖЩЪЫЭЮЯ",
    "french": "AEIOSTRNLDHXZQJKWY",
    "german": "AEIOÄÖÜSTRNLDXZQY",
}


# ---- building blocks ----------------------------------------------------------------------------


def make_lexicon(words: list[str], rules: Rules) -> Lexicon:
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    return Lexicon.load(data, rules)


def oracle_rules(rules: Rules, letters: set[str]) -> OracleRules:
    """The ruleset for the oracle, restricted to the letters the lexicon's words use."""
    full = OracleRules.from_rules(rules)
    return dataclasses.replace(full, values={k: v for k, v in full.values.items() if k in letters})


def grid_board(grid: list[list[str | None]], rules: Rules) -> Board:
    return Board.from_rows(board_to_lines(grid), rules)


def apply(grid: list[list[str | None]], move: Move) -> None:
    for r, c, letter, blank in move.tiles:
        assert grid[r][c] is None
        grid[r][c] = letter.lower() if blank else letter


def check_move(move: Move, grid, rules: Rules, rack_tiles: Counter) -> None:
    """A Move agrees with itself and the board: the tiles go on empty squares in one line, the
    word reads off the board after the play, a single tile is across exactly when it forms an
    across word, the tiles come from the rack and the leave is the rest."""
    assert move.tiles, move
    dr, dc = (0, 1) if move.direction == "across" else (1, 0)
    placed = {(r, c): (letter.lower() if blank else letter) for r, c, letter, blank in move.tiles}
    assert len(placed) == len(move.tiles)
    assert all(grid[r][c] is None for r, c in placed), move
    # the main word: a maximal run through (row, col)
    r0, c0 = move.row, move.col
    assert not (0 <= r0 - dr and 0 <= c0 - dc and grid[r0 - dr][c0 - dc]), f"{move}: word starts too late"
    letters = []
    r, c = r0, c0
    while r < rules.rows and c < rules.cols and ((r, c) in placed or grid[r][c]):
        letters.append(placed.get((r, c)) or grid[r][c])
        r, c = r + dr, c + dc
    assert "".join(letters) == move.word, f"{move}: reads {''.join(letters)!r} on the board"
    covered = {(r0 + i * dr, c0 + i * dc) for i in range(len(letters))}
    assert set(placed) <= covered, f"{move}: a tile off the main word"
    if len(move.tiles) == 1:
        (r, c) = next(iter(placed))
        across_word = (c > 0 and grid[r][c - 1]) or (c + 1 < rules.cols and grid[r][c + 1])
        assert (move.direction == "across") == bool(across_word), f"{move}: single tile direction"
    used = Counter("?" if blank else letter for _r, _c, letter, blank in move.tiles)
    assert Counter(move.leave) + used == rack_tiles, f"{move}: leave {move.leave!r}"


def check_words(move: Move, grid, rules: Rules, orules: OracleRules) -> None:
    """Move.words (the core's gd_move_words) against the oracle's words and scores."""
    formed = words_formed(grid, move.tiles, orules)
    want = Counter(
        (
            "".join(letter.lower() if blank else letter for _r, _c, letter, blank, _n in word),
            score_word(word, orules),
        )
        for word in formed
    )
    assert Counter(move.words) == want, f"{move}: words {move.words}, oracle {sorted(want)}"
    assert move.words[0][0] == move.word
    bonus = rules.bingo_bonus if len(move.tiles) == rules.rack_size else 0
    assert sum(score for _, score in move.words) + bonus == move.score


def check_position(
    solver: Solver,
    grid,
    rack: str,
    words: frozenset[str],
    orules: OracleRules,
    top: int | None = None,
    words_sample: int = 3,
) -> list[Move]:
    """Solve one position both ways and compare; returns the solver's moves."""
    rules = solver.rules
    board = grid_board(grid, rules)
    moves = solver.solve(board, rack, warn=False)
    oracle_rack = rules.alphabet.normalize(rack)  # e.g. Эрудит's Ё is an Е tile
    want = generate(grid, oracle_rack, words, orules)
    got = Counter((frozenset(m.tiles), m.score) for m in moves)
    twice = [play for play, n in got.items() if n > 1]
    assert not twice, f"listed twice: {describe_play(twice[0])}"
    if set(got) != want:
        pytest.fail(f"rack {rack!r}: {play_differences(want, set(got), 8)}" + "\n".join(board_to_lines(grid)))
    scores = [m.score for m in moves]
    assert scores == sorted(scores, reverse=True)
    rack_tiles = Counter(oracle_rack)
    for move in moves:
        check_move(move, grid, rules, rack_tiles)
    for move in moves[:words_sample]:
        check_words(move, grid, rules, orules)
    if top is not None:
        count, best = solver.solve_counted(board, rack, top=top, warn=False)
        assert count == len(moves)
        assert best == moves[:top]
    return moves


# ---- strategies ---------------------------------------------------------------------------------


@st.composite
def word_lists(draw, letters: list[str], longest: int) -> list[str]:
    """Words over a few letters: some two-letter words (they make cross-plays), longer ones up to
    9 letters (sometimes one that fills half the board's line), and now and then a one-letter
    word (never a play by itself)."""
    pairs = [a + b for a in letters for b in letters]
    two = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True))
    longer = very_long = []
    if longest >= 3:
        longer = draw(
            st.lists(st.text(alphabet=letters, min_size=3, max_size=min(9, longest)), min_size=3, max_size=30)
        )
    if longest >= 10:
        very_long = draw(st.lists(st.text(alphabet=letters, min_size=10, max_size=longest), max_size=1))
    ones = draw(st.lists(st.sampled_from(letters), max_size=1))
    return sorted(set(two + longer + ones + very_long))


@st.composite
def racks(draw, letters: list[str], words: list[str], rack_size: int, max_blanks: int = 2) -> str:
    """A rack: 0..max_blanks blanks; mostly full; often the letters of a lexicon word."""
    blanks = min(rack_size, draw(st.sampled_from([0, 0, 0, 1, 1, 2, 2, 3][: 3 + 2 * max_blanks])))
    size = draw(st.sampled_from([rack_size] * 3 + list(range(1, rack_size + 1))))
    size = max(size, blanks)
    long_words = [w for w in words if len(w) >= 2]
    if long_words and draw(st.booleans()):
        word = draw(st.sampled_from(long_words))
        tiles = list(word[: size - blanks])
    else:
        tiles = []
    while len(tiles) < size - blanks:
        tiles.append(draw(st.sampled_from(letters)))
    tiles += ["?"] * blanks
    return "".join(draw(st.permutations(tiles)))


def play_game(data, rules: Rules, words: list[str], turns: int, spell=None) -> list[list[str | None]]:
    """Play `turns` random turns from the empty board, checking every position; returns the
    final board. `spell` rewrites a rack before it is given to the solver (to use another
    spelling of the same tiles)."""
    solver = Solver(make_lexicon(words, rules), rules)
    folded = frozenset(rules.alphabet.normalize(w) for w in words)
    orules = oracle_rules(rules, {ch for w in folded for ch in w})
    grid = empty_board(orules)
    for turn in range(turns):
        rack = data.draw(racks(sorted({ch for w in folded for ch in w}), sorted(folded), rules.rack_size))
        if spell is not None:
            rack = data.draw(spell(rack))
        top = data.draw(st.integers(0, 40))
        moves = check_position(solver, grid, rack, folded, orules, top=top)
        if moves:
            apply(grid, moves[data.draw(st.integers(0, len(moves) - 1), label=f"play {turn}")])
    return grid


# ---- the shipped rulesets -----------------------------------------------------------------------


def _ruleset_game(name: str, data) -> None:
    rules = RULES[name]
    pool = LETTER_POOLS[name]
    letters = data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=5, unique=True), label="letters")
    words = data.draw(word_lists(letters, rules.longest_line), label="words")
    turns = data.draw(st.integers(1, 7), label="turns")
    play_game(data, rules, words, turns)


@pytest.mark.parametrize("name", ["english", "super", "wwf", "polish", "russian", "german"])
@game_settings(120)
@given(data=st.data())
def test_random_games(name, data):
    _ruleset_game(name, data)


@game_settings(120)
@given(data=st.data())
def test_random_games_erudit_fold(data):
    """Эрудит: words, racks and boards may be written with Ё; it is read as Е everywhere."""
    rules = RULES["erudit"]
    letters = data.draw(
        st.lists(st.sampled_from(LETTER_POOLS["erudit"]), min_size=2, max_size=5, unique=True).map(
            lambda ls: ls if "Е" in ls else ["Е", *ls[1:]]
        ),
        label="letters",
    )
    words = data.draw(word_lists(letters, rules.longest_line), label="words")
    # the word list as given: some words spelled with Ё
    given_words = [w.replace("Е", "Ё") if data.draw(st.booleans()) else w for w in words]
    lexicon = make_lexicon(given_words, rules)
    assert len(lexicon) == len(set(words))
    for original, spelled in zip(words, given_words, strict=True):
        assert original in lexicon and spelled in lexicon
    assert rules.alphabet.normalize("Ё") == "Е"

    def spell(rack: str):
        return st.sampled_from([rack, rack.replace("Е", "Ё")])

    grid = play_game(data, rules, given_words, data.draw(st.integers(1, 7), label="turns"), spell=spell)
    lines = board_to_lines(grid)
    written_with_yo = [line.replace("Е", "Ё").replace("е", "ё") for line in lines]
    assert Board.from_rows(written_with_yo, rules) == Board.from_rows(lines, rules)


# ---- Spanish: tiles of two letters -------------------------------------------------------------

# The Spanish ruleset's twin with each two-letter tile written as one character of its own: the
# same tiles, values, counts and board, so the oracle (which reads a letter per character) can
# check it, and Spanish itself must give the same plays, tile for tile, with CH, LL and RR.
DIGRAPH_TWIN = {"CH": "Ç", "LL": "Ł", "RR": "Ř"}
SPANISH = Rules.load("spanish")
SPANISH_TWIN = Rules.from_dict(
    {
        **SPANISH.to_dict(),
        "name": "spanish-twin",
        "letters": [
            [DIGRAPH_TWIN.get(letter, letter), value, count]
            for letter, value, count in SPANISH.to_dict()["letters"]
        ],
        "default_lexicon": None,
    }
)


def _as_spanish(text: str) -> str:
    """A twin's board row, rack or word in Spanish's spelling: [CH] for Ç, [ch] for a blank ç."""
    out = []
    for char in text:
        digraph = next((d for d, twin in DIGRAPH_TWIN.items() if twin == char.upper()), None)
        out.append(char if digraph is None else f"[{digraph if char.isupper() else digraph.lower()}]")
    return "".join(out)


@game_settings(120)
@given(data=st.data())
def test_spanish_digraph_tiles_play_as_single_tiles_do(data):
    """Build, generate and score with CH, LL and RR against the oracle (through the twin): every
    position of a random game, both solvers (and Spanish's DAWG engine), the same plays and
    scores; each Spanish play spells its word with the digraph tiles, and a blank may stand for
    one (written [ch]). No single L or R is drawn: a word spelled L, LL would read as LL, L, which
    real Spanish never writes."""
    twin = SPANISH_TWIN
    letters = data.draw(
        st.lists(st.sampled_from("AEOSÇŁŘCN"), min_size=3, max_size=6, unique=True).map(
            lambda ls: ls if any(c in ls for c in "ÇŁŘ") else [*ls, "Ç"]
        ),
        label="letters",
    )
    words = data.draw(word_lists(letters, twin.longest_line), label="words")
    solver = Solver(make_lexicon(words, twin), twin)
    # the word list spelled in letters, as a real one is (C then H is read as the CH tile)
    spelled = [_as_spanish(w).replace("[", "").replace("]", "") for w in words]
    spanish_words = make_lexicon(spelled, SPANISH)
    spanish, spanish_dawg = Solver(spanish_words, SPANISH), Solver(spanish_words, SPANISH, engine="dawg")
    folded = frozenset(words)
    orules = oracle_rules(twin, {ch for w in folded for ch in w})
    grid = empty_board(orules)
    back = {digraph: twin_letter for digraph, twin_letter in DIGRAPH_TWIN.items()}
    for turn in range(data.draw(st.integers(1, 6), label="turns")):
        rack = data.draw(racks(sorted({ch for w in folded for ch in w}), sorted(folded), twin.rack_size))
        moves = check_position(solver, grid, rack, folded, orules, top=None)
        board = Board.from_rows([_as_spanish(line) for line in board_to_lines(grid)], SPANISH)
        theirs = spanish.solve(board, _as_spanish(rack), warn=False)
        # the DAWG engine (docs/dawg.md) gives the same plays with the two-letter tiles
        assert Counter(
            (frozenset(m.tiles), m.score) for m in spanish_dawg.solve(board, _as_spanish(rack), warn=False)
        ) == Counter((frozenset(m.tiles), m.score) for m in theirs)
        assert Counter(
            (frozenset((r, c, back.get(letter, letter), blank) for r, c, letter, blank in m.tiles), m.score)
            for m in theirs
        ) == Counter((frozenset(m.tiles), m.score) for m in moves)
        spelled = {(frozenset(m.tiles), m.score): m.word for m in moves}
        for move in theirs:
            key = frozenset((r, c, back.get(letter, letter), blank) for r, c, letter, blank in move.tiles)
            twin_word = spelled[(key, move.score)]
            assert move.word == "".join(_as_spanish(char).strip("[]") for char in twin_word)
        if moves:
            apply(grid, moves[data.draw(st.integers(0, len(moves) - 1), label=f"play {turn}")])


# ---- random tiny rulesets -----------------------------------------------------------------------


@st.composite
def tiny_rules(draw) -> Rules:
    """Small boards (2..7 × 2..12) with random premiums (4× ones included), start square,
    rack size (1..8), bonus, tile values and blank value."""
    rows = draw(st.integers(2, 7))
    cols = draw(st.integers(2, 12))
    if draw(st.booleans()):
        rows, cols = cols, rows
    premium = st.sampled_from(".........dtqDTQ")
    layout = [[draw(premium) for _ in range(cols)] for _ in range(rows)]
    start = [draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))]
    start_doubles = draw(st.booleans())
    if start_doubles:
        layout[start[0]][start[1]] = "D"
    letters = draw(st.lists(st.sampled_from("ABCDEŻ"), min_size=2, max_size=4, unique=True))
    data = {
        "name": "tiny",
        "title": "tiny",
        "language": "en",
        "rows": rows,
        "cols": cols,
        "layout": ["".join(row) for row in layout],
        "start": start,
        "start_doubles": start_doubles,
        "rack_size": draw(st.integers(1, 8)),
        "bingo_bonus": draw(st.sampled_from([0, 15, 35, 50])),
        "exchange_minimum": 7,  # the game fields: move generation ignores them
        "scoreless_turns": 6,
        "going_out_bonus": 2,
        "going_out_penalty": 0,
        "letters": [[letter, draw(st.integers(0, 10)), 9] for letter in letters],
        "vowels": [letter for letter in letters if letter in "AE"],
        "blanks": 2,
        "blank_value": draw(st.sampled_from([0, 0, 0, 1, 2])),
        "fold": {},
        "default_lexicon": None,
    }
    try:
        return Rules.from_dict(data)
    except RulesError:  # premiums and values whose plays could score more than the core allows
        assume(False)
        raise


@game_settings(300)
@given(data=st.data())
def test_random_games_tiny_rulesets(data):
    rules = data.draw(tiny_rules(), label="rules")
    letters = list(rules.alphabet.letters)
    words = data.draw(word_lists(letters, rules.longest_line), label="words")
    play_game(data, rules, words, data.draw(st.integers(1, 8), label="turns"))


# ---- edge cases ---------------------------------------------------------------------------------

WORDS_AEST = sorted(
    {a + b for a in "AEST" for b in "AEST"}
    | {"SAT", "SET", "TEA", "EAT", "ATE", "SEA", "TEAS", "SEAT", "EATS", "TASTE", "STATE", "TEASE", "EASE"}
    | {"TASTES", "STATES", "SEATS", "TEATS", "ESTATE", "ESTATES"}
)


def _solver_and_oracle(rules: Rules, words: list[str]) -> tuple[Solver, frozenset[str], OracleRules]:
    solver = Solver(make_lexicon(words, rules), rules)
    folded = frozenset(rules.alphabet.normalize(w) for w in words)
    return solver, folded, oracle_rules(rules, {ch for w in folded for ch in w})


def _letters_for(name: str) -> tuple[str, list[str]]:
    """Four letters of a ruleset's alphabet and a word list over them (seven-letter words too)."""
    four = {"polish": "ĄĘŁÓ", "russian": "АЁЖО", "erudit": "АЕЖО"}.get(name, "AEST")
    table = str.maketrans("AEST", four)
    return four, [w.translate(table) for w in WORDS_AEST]


@pytest.mark.parametrize("name", RULESETS)
def test_opening_must_cover_the_start(name):
    rules = RULES[name]
    four, words = _letters_for(name)
    solver, folded, orules = _solver_and_oracle(rules, words)
    grid = empty_board(orules)
    start = rules.start
    for rack in (four + four[:3], four[:2], four[0] + "??" + four[1:3], "?" * 2):
        moves = check_position(solver, grid, rack, folded, orules, top=3, words_sample=20)
        assert moves, rack
        for move in moves:
            assert any((r, c) == start for r, c, _l, _b in move.tiles), move
            assert len(move.tiles) >= 2
    # a single tile is never an opening
    assert solver.solve(Board.empty(rules), four[0], warn=False) == []
    assert solver.solve(Board.empty(rules), "", warn=False) == []


@pytest.mark.parametrize("name", RULESETS)
def test_full_rack_bingo(name):
    """ESTATES (7 letters) from a full rack, with 0, 1 and 2 blanks: the bonus is added."""
    rules = RULES[name]
    four, words = _letters_for(name)
    solver, folded, orules = _solver_and_oracle(rules, words)
    table = str.maketrans("AEST", four)
    estates = "ESTATES".translate(table)
    grid = empty_board(orules)
    for rack in (estates, "?" + estates[1:], estates[:3] + "??" + estates[5:]):
        moves = check_position(solver, grid, rack, folded, orules, words_sample=50)
        bingos = [m for m in moves if len(m.tiles) == rules.rack_size]
        assert bingos, rack
        for move in bingos:
            assert move.word.upper() == estates
            assert move.score == sum(s for _, s in move.words) + rules.bingo_bonus
    # and through a board tile: the (made-up) 8-letter EASTSEAT after an opening TEA
    solver, folded, orules = _solver_and_oracle(rules, [*words, "EASTSEAT".translate(table)])
    opening = solver.solve(Board.empty(rules), "TEA".translate(table), warn=False)
    apply(grid, next(m for m in opening if m.word == "TEA".translate(table)))
    moves = check_position(solver, grid, "EASSEAT".translate(table), folded, orules, top=5, words_sample=50)
    bingos = [m for m in moves if len(m.tiles) == rules.rack_size]
    assert bingos and all(len(m.word) == 8 for m in bingos)


def test_full_line():
    """Row 7 holds a 15-letter word: nothing more goes across it; plays cross it and hook it."""
    rules = RULES["english"]
    line = "TEASETEASETEASE"
    words = [*WORDS_AEST, line]
    solver, folded, orules = _solver_and_oracle(rules, words)
    grid = empty_board(orules)
    for c, letter in enumerate(line):
        grid[7][c] = letter
    for rack in ("SEAT", "AEST?", "S", "??", "TTEESSA"):
        moves = check_position(solver, grid, rack, folded, orules, top=4, words_sample=20)
        assert moves, rack
        assert not any(t[0] == 7 for m in moves for t in m.tiles)
        assert any(m.direction == "down" and m.row < 7 < m.row + len(m.word) for m in moves)


def test_full_lines_on_a_tiny_board():
    """A 4×5 board full but for one square: single-tile plays fill it; a full board has no play."""
    rules = Rules.from_dict(
        {**RULES["english"].to_dict(), "name": "tiny", "rows": 4, "cols": 5, "start": [1, 2],
         "layout": ["T.d.Q", ".tDq.", "d...T", "Q..D."]}
    )  # fmt: skip
    rows = ["SEATS", "EASTE", "ATEAS", "TS.TA"]
    # (3,2) completes row 3 (TS?TA) and column 2 (ASE?): S and A both fit
    words = [*WORDS_AEST, "TSSTA", "ASES", "TSATA", "ASEA"]
    solver, folded, orules = _solver_and_oracle(rules, words)
    grid = [[None if ch == "." else ch for ch in row] for row in rows]
    for rack, plays in (("S", 1), ("A", 1), ("?", 2), ("SAT?", 4), ("T", 0)):
        assert len(check_position(solver, grid, rack, folded, orules, top=1, words_sample=5)) == plays
    grid[3][2] = "S"
    assert check_position(solver, grid, "AEST?", folded, orules) == []


def test_plays_along_all_four_edges():
    """Row 7 and column 7 are full, so tiles touch every edge of the board; plays are found
    along row 0, row 14, column 0 and column 14."""
    rules = RULES["english"]
    across = "TEASETEASETEASE"
    down = "SEATSETASESATES"
    assert across[7] == down[7]
    words = [*WORDS_AEST, across, down]
    solver, folded, orules = _solver_and_oracle(rules, words)
    grid = empty_board(orules)
    for i in range(15):
        grid[7][i] = across[i]
        grid[i][7] = down[i]
    seen_edges: set[str] = set()
    for rack in ("SEAT", "EAST?", "TA", "??S"):
        moves = check_position(solver, grid, rack, folded, orules, top=2, words_sample=10)
        for move in moves:
            for r, c, _l, _b in move.tiles:
                seen_edges |= {name for name, hit in (("top", r == 0), ("bottom", r == 14),
                               ("left", c == 0), ("right", c == 14)) if hit}  # fmt: skip
    assert seen_edges == {"top", "bottom", "left", "right"}


def test_single_tile_forming_words_both_ways_is_one_play():
    """A tile in the corner of an L forms an across and a down word: one play, scored for both."""
    rules = RULES["english"]
    solver, folded, orules = _solver_and_oracle(rules, WORDS_AEST)
    lines = ["." * 15] * 15
    lines[4:8] = [
        ".........S.....",
        ".........E.....",
        ".........T.....",
        ".......TEA.....",
    ]
    grid = [[None if ch == "." else ch for ch in line] for line in lines]
    for rack in ("S", "A", "?", "SA", "SEAT??"):
        moves = check_position(solver, grid, rack, folded, orules, words_sample=50)
        singles = Counter(frozenset(m.tiles) for m in moves if len(m.tiles) == 1)
        assert singles and all(n == 1 for n in singles.values())
    # S at (6,8), a DL: ST across (with the T at (6,9)) and SE down (with the E at (7,8)), one
    # play listed across: ST = S1x2 + T1 = 3, SE = S1x2 + E1 = 3; 6 in all.
    moves = solver.solve(grid_board(grid, rules), "S", warn=False)
    (move,) = [m for m in moves if {(t[0], t[1]) for t in m.tiles} == {(6, 8)}]
    assert (move.direction, move.word, move.score) == ("across", "ST", 6)
    assert move.words == [("ST", 3), ("SE", 3)]


def test_longest_line_the_core_supports():
    """32 squares (GD_MAX_DIM): a 32-letter word as an opening from a 32-tile rack, then plays
    crossing and hooking the full 32-square line."""
    rules = Rules.from_dict(
        {**RULES["english"].to_dict(), "name": "long", "rows": 3, "cols": 32, "start": [1, 31],
         "layout": ["." * 32, "d" * 31 + "D", "T" + "." * 31], "rack_size": 32}
    )  # fmt: skip
    long_word = ("TEASE" * 7)[:32]
    words = [*WORDS_AEST, long_word]
    solver, folded, orules = _solver_and_oracle(rules, words)
    grid = empty_board(orules)
    moves = check_position(solver, grid, long_word, folded, orules, top=2, words_sample=5)
    bingo = [m for m in moves if len(m.tiles) == 32]
    assert len(bingo) == 1 and bingo[0].word == long_word
    # (T1 + E1 + A1 + S1 + E1 ...) x2 on the DLs of row 1, except the DW at the end: letters doubled
    # on 31 squares, the last tile (on the DW) single, then x2; + 50.
    values = [RULES["english"].values[ord(ch) - ord("A")] for ch in long_word]
    assert bingo[0].score == (2 * sum(values[:31]) + values[31]) * 2 + 50
    apply(grid, bingo[0])
    for rack in ("SEAT", "TT?", "EASTE?S"):
        check_position(solver, grid, rack, folded, orules, top=3, words_sample=5)


def _random_game(rules: Rules, letters: str, seed: int, turns: int, longest: int) -> None:
    """A seeded random game (for rulesets too big for many hypothesis examples)."""
    rng = random.Random(seed)
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, longest))) for _ in range(80)})
    solver, folded, orules = _solver_and_oracle(rules, words)
    grid = empty_board(orules)
    total = 0
    for _ in range(turns):
        rack = "".join(rng.choice(letters + "??") for _ in range(rules.rack_size))
        moves = check_position(solver, grid, rack, folded, orules, top=5, words_sample=5)
        total += len(moves)
        if moves:
            apply(grid, max(moves, key=lambda m: (len(m.tiles), m.score)))
    assert total > 0


# 63 letters (GD_MAX_ALPHABET); a prefix of it makes an alphabet of any size.
BIG_ALPHABET = (
    [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    + [chr(c) for c in range(0x410, 0x430)]
    + ["Ą", "Ę", "Ł", "Ż", "Ó"]
)


def alphabet_rules(size: int) -> Rules:
    return Rules.from_dict(
        {
            **RULES["english"].to_dict(),
            "name": f"alphabet{size}",
            "letters": [[x, i % 10, 2] for i, x in enumerate(BIG_ALPHABET[:size])],
        }
    )


def test_largest_alphabet():
    """63 letters (GD_MAX_ALPHABET), words spelled with the last codes (60..63, the top bits of
    the core's 64-bit cross-sets)."""
    rules = alphabet_rules(63)
    assert len(rules.alphabet) == 63 and rules.alphabet.code("Ó") == 63
    _random_game(rules, "ĘŁŻÓA", seed=1, turns=10, longest=5)


@game_settings(40)
@given(data=st.data())
def test_random_games_alphabet_sizes(data):
    """Alphabets on both sides of 38 letters, the most the walk index keeps in its entries
    (more spill into a second array), with words over letter codes on both sides of 38 and
    at the alphabet's end."""
    size = data.draw(st.sampled_from([31, 32, 38, 39, 40, 63]), label="alphabet size")
    rules = alphabet_rules(size)
    codes = sorted({c for c in (1, 2, 31, 32, 37, 38, 39, 40, size - 1, size) if c <= size})
    pool = [BIG_ALPHABET[c - 1] for c in codes]
    letters = data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=5, unique=True), label="letters")
    words = data.draw(word_lists(letters, rules.longest_line), label="words")
    play_game(data, rules, words, data.draw(st.integers(1, 5), label="turns"))


def test_largest_board():
    """32×32 (GD_MAX_SQUARES), random premiums, start square in the middle that does not double.
    Every letter is worth 1: with English values, seven quadruple words in a line could score
    more than the core's GD_MAX_SCORE, and the ruleset would be refused."""
    rng = random.Random(2)
    layout = ["".join(rng.choice("....dtqDTQ") for _ in range(32)) for _ in range(32)]
    english = RULES["english"].to_dict()
    rules = Rules.from_dict(
        {**english, "name": "huge", "rows": 32, "cols": 32, "start": [16, 16], "layout": layout,
         "start_doubles": False, "letters": [[letter, 1, count] for letter, _, count in english["letters"]]}
    )  # fmt: skip
    _random_game(rules, "AEST", seed=3, turns=10, longest=12)


# ---- threads ------------------------------------------------------------------------------------


def test_threads_share_a_fresh_lexicon():
    """Solvers made at once in several threads on a lexicon nobody has solved with yet (so they
    race to build its walk index), and one Solver shared by several threads, give every thread
    the plays a single thread gets."""
    rules = RULES["english"]
    data, _ = build_gaddag(SMALL_WORDS, rules.alphabet, max_length=15)
    board = Board.from_text("\n".join(["." * 15] * 7 + ["...CARETS......"] + ["." * 15] * 7), rules)
    racks = ["AERSTX?", "QUATZEA", "?EA", "NOTES??"]

    def plays(solver: Solver, rack: str) -> list[tuple[str, str, int]]:
        return [(m.coord, m.word, m.score) for m in solver.solve(board, rack)]

    expected = {rack: plays(Solver(Lexicon.load(data), rules), rack) for rack in racks}
    assert all(expected.values())

    fresh = Lexicon.load(data)
    with ThreadPoolExecutor(8) as pool:
        own = list(pool.map(lambda i: plays(Solver(fresh, rules), racks[i % 4]), range(16)))
        shared_solver = Solver(fresh, rules)
        shared = list(pool.map(lambda i: plays(shared_solver, racks[i % 4]), range(16)))
    for i in range(16):
        assert own[i] == expected[racks[i % 4]]
        assert shared[i] == expected[racks[i % 4]]


# ---- the module-level solve() and its cache ------------------------------------------------------


def test_solve_keeps_no_lexicon_alive():
    """solve() caches a solver's workspace per lexicon, but not the lexicon: once the caller lets
    a lexicon go it is freed (no reference cycle is left behind either, so no gc is needed), and
    solving again with another lexicon gives the same plays as the first."""
    import gc
    import weakref

    from gaddag_solver import solve
    from gaddag_solver.solver import _solvers, get_solver

    rules = RULES["english"]
    data, _ = build_gaddag(SMALL_WORDS, rules.alphabet, max_length=15)
    gc.collect()
    entries = len(_solvers)
    refs = []
    results = []
    for _ in range(3):
        lexicon = Lexicon.load(data)
        results.append(
            [(m.coord, m.word, m.score) for m in solve(Board.empty(rules), "AERST", lexicon, rules)]
        )
        results.append(
            [(m.coord, m.word, m.score) for m in solve(Board.empty(rules), "AERST", lexicon, rules)]
        )
        assert len(_solvers) == entries + 1
        refs.append(weakref.ref(lexicon))
        del lexicon
        assert refs[-1]() is None  # freed at once, by reference counting
        assert len(_solvers) == entries
    assert results[0] and all(result == results[0] for result in results)

    lexicon = Lexicon.load(data)  # a solver from the cache shares the workspace, and holds its lexicon
    first, second = get_solver(lexicon, rules), get_solver(lexicon, rules)
    assert first is not second and first._workspace is second._workspace and first._lock is second._lock
    ref = weakref.ref(lexicon)
    del lexicon
    assert ref() is not None and second.solve(Board.empty(rules), "AERST") == first.solve(
        Board.empty(rules), "AERST"
    )
    del first, second
    assert ref() is None


# ---- the core checks what it is given (issue 16) -----------------------------------------------


def _raw_core(rules: Rules):
    """A lexicon with its walk index, a copy of the ruleset's gd_rules to spoil, a workspace and an
    error, for calling the core directly through cffi."""
    from gaddag_solver._core_api import ensure_walk_index, ffi
    from gaddag_solver.rules_core import core_rules

    data, _ = build_gaddag(SMALL_WORDS, rules.alphabet, max_length=15)
    lexicon = Lexicon.load(data)
    ensure_walk_index(lexicon._core)
    raw = core_rules.__wrapped__(rules)  # a struct of its own, not the cached one
    workspace = ffi.new("uint64_t[]", 1 << 16)
    return lexicon, raw, workspace, ffi.new("gd_error *")


SPOILED_RULES = [
    ("letter value 2^28", lambda r: r.values.__setitem__(1, 2**28), "value 268435456 of tile code 1"),
    ("negative letter value", lambda r: r.values.__setitem__(5, -1), "value -1 of tile code 5"),
    ("blank value over the bound", lambda r: r.values.__setitem__(0, 10_001), "value 10001 of tile code 0"),
    ("bingo bonus 2^31 - 1", lambda r: setattr(r, "bingo_bonus", 2**31 - 1), "bingo bonus 2147483647"),
    ("negative bingo bonus", lambda r: setattr(r, "bingo_bonus", -1), "bingo bonus -1"),
    ("going-out bonus 11", lambda r: setattr(r, "going_out_bonus", 11), "going-out bonus 11"),
    ("going-out penalty -1", lambda r: setattr(r, "going_out_penalty", -1), "penalty -1"),
    ("rack size 33", lambda r: setattr(r, "rack_size", 33), "rack size 33"),
    ("rack size 300", lambda r: setattr(r, "rack_size", 300), "rack size 300"),
    (
        "quadruple words everywhere",
        lambda r: [r.word_multiplier.__setitem__(s, 4) for s in range(225)],
        # 10 x ((7 tiles x 3 + 8) x 4^7 + 7 cross-words x (3 + 14) x 4) + 50
        f"a play could score up to {10 * ((7 * 3 + 8) * 4**7 + 7 * 17 * 4) + 50} under these rules",
    ),
]


@pytest.mark.parametrize(("case", "spoil", "message"), SPOILED_RULES, ids=[c for c, _, _ in SPOILED_RULES])
def test_the_core_refuses_rules_out_of_bounds(case, spoil, message):
    """gd_check_rules (behind gd_prepare and gd_generate) refuses a ruleset whose scores could
    overflow 32 bits, whatever Python let through: a value of 2^28 made ANESTRI score -536,870,862."""
    from gaddag_solver._core_api import ffi, lib

    rules = RULES["english"]
    lexicon, raw, workspace, err = _raw_core(rules)
    board = bytes(225)
    assert lib.gd_prepare(lexicon._core.struct, raw, board, workspace, err) == lib.GD_OK
    spoil(raw)
    assert lib.gd_prepare(lexicon._core.struct, raw, board, workspace, err) == lib.GD_ERR_ARGUMENT
    assert message in ffi.string(err.message).decode()
    count = ffi.new("size_t *")
    moves = ffi.new("gd_move[]", 16)
    rack = Rack("ANESTRI", rules).counts()
    assert lib.gd_generate(lexicon._core.struct, raw, board, workspace, rack, 0, moves, 16, count, err) == (
        lib.GD_ERR_ARGUMENT
    )


def test_the_core_refuses_a_rack_it_cannot_hold():
    """gd_generate refuses a rack of more tiles than the rack size, tiles of a code that is not a
    letter of the lexicon, and gd_generate_equity an opponent's rack value out of bounds: the
    core does not trust its caller to have checked them."""
    from gaddag_solver._core_api import ffi, lib

    rules = RULES["english"]
    lexicon, raw, workspace, err = _raw_core(rules)
    board = bytes(225)
    assert lib.gd_prepare(lexicon._core.struct, raw, board, workspace, err) == lib.GD_OK
    count = ffi.new("size_t *")
    moves = ffi.new("gd_move[]", 4096)

    def generate(counts: bytes, options=ffi.NULL) -> tuple[int, str]:
        rc = lib.gd_generate_equity(
            lexicon._core.struct, raw, board, workspace, counts, options, 0, moves, 4096, count, err
        )
        return rc, ffi.string(err.message).decode() if rc else ""

    full = bytearray(Rack("CARETS?", rules).counts())
    assert generate(bytes(full))[0] == lib.GD_OK and count[0] > 0
    over = bytearray(full)
    over[rules.alphabet.code("S")] += 1
    assert generate(bytes(over)) == (lib.GD_ERR_ARGUMENT, "a rack of 8 tiles is more than the rack size, 7")
    over = bytearray(full)
    over[0] += 200
    assert generate(bytes(over))[0] == lib.GD_ERR_ARGUMENT
    for code in (27, 40, 63):
        stray = bytearray(Rack("CARETS", rules).counts())
        stray[code] = 1
        assert generate(bytes(stray)) == (
            lib.GD_ERR_ARGUMENT,
            f"the rack holds 1 tiles of code {code}, not a letter (1 to 26)",
        )
    options = ffi.new("gd_equity_options *")
    options.bag_count = 0
    for value, rc in (
        (0, lib.GD_OK),
        (lib.GD_MAX_RACK_VALUE, lib.GD_OK),
        (2**31 - 1, lib.GD_ERR_ARGUMENT),
        (-1, lib.GD_ERR_ARGUMENT),
    ):
        options.opponent_rack_value = value
        assert generate(bytes(full), options)[0] == rc, value


def test_the_core_refuses_a_move_record_placing_more_than_a_rack():
    """gd_move_words scores a record it is given: one that places more tiles than a rack holds (on
    premium squares, its word multiplier could overflow) is refused, a real play is scored."""
    from gaddag_solver._core_api import ffi, lib
    from gaddag_solver.rules_core import core_rules

    rules = RULES["english"]
    raw = core_rules(rules)
    board = bytes(225)
    move = ffi.new("gd_move *")
    move.row, move.col, move.direction, move.kind = 7, 7, 0, 0
    out = ffi.new("gd_word[]", 40)
    count = ffi.new("size_t *")
    for length, rc in ((7, lib.GD_OK), (8, lib.GD_ERR_ARGUMENT)):
        move.length = move.tiles_placed = length
        for k in range(length):
            move.word[k] = 1  # A
        assert lib.gd_move_words(raw, board, move, out, 40, count) == rc, length
    assert count[0] == 0
    move.length = 7
    assert lib.gd_move_words(raw, board, move, out, 40, count) == lib.GD_OK
    assert (count[0], out[0].score) == (1, (7 + 1) * 2)  # seven A on H8..N8: L8 doubles its A, H8 the word
