"""Validating and explaining a play (gaddag_solver.game.verdict, `gaddag-solver score`).

Oracles: tests/oracle.py decides legality and scores each word from first principles for random
placements on the reference positions (some legal, most not: gaps, lines, connection, phonies);
the generator's own plays, written as players write them, must be legal with the generator's
score; the breakdowns must add up to the word scores. The reasons are checked by hand-made cases,
one per rule.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from gaddag_solver import Lexicon, parse_cgp
from gaddag_solver.board import Board
from gaddag_solver.cli import main
from gaddag_solver.game.verdict import Verdict, judge, judge_tiles
from gaddag_solver.solver import Solver
from oracle import OracleRules, legal_score, load_words, score_word, words_formed
from test_reference_vectors import CASES, ENGLISH, LEXICON, REPO, _board

ORACLE = OracleRules.english()
POSITION = "15/15/15/15/7Q7/7U7/7E7/3FLOWERs5/7N1I5/9Z5/8VEX4/15/15/15/15 AEIRSTU/ 0/0 0"


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    if not LEXICON.exists():
        pytest.skip(f"{LEXICON.relative_to(REPO)} is missing: run scripts/setup_env.sh")
    return Lexicon.load(LEXICON, ENGLISH)


@pytest.fixture(scope="module")
def words() -> set[str]:
    source = REPO / "lexicons" / "sources" / "sowpods.txt"
    if not source.exists():
        pytest.skip(f"{source} is missing: run scripts/setup_env.sh")
    return load_words(source)


def check_breakdown(verdict: Verdict) -> None:
    """Each word's letters times its premium are its score; the tiles' points and the board
    letters' points (times their words' premiums) are the words' total; plus the bingo bonus."""
    for word in verdict.words:
        assert sum(letter.points for letter in word.letters) * word.word_premium == word.score, word
    board_points = sum(x.points * w.word_premium for w in verdict.words for x in w.letters if not x.new)
    assert sum(t.points for t in verdict.tiles) + board_points == sum(w.score for w in verdict.words)
    assert verdict.score == sum(w.score for w in verdict.words) + verdict.bingo
    assert verdict.bingo == (ENGLISH.bingo_bonus if len(verdict.tiles) == ENGLISH.rack_size else 0)


def test_generated_plays_are_legal_with_their_scores(sowpods):
    solver = Solver(sowpods, ENGLISH)
    rng = random.Random(3)
    for _case_id, grid, rack, _moves in CASES[::6]:
        board = _board(grid)
        moves = solver.solve(board, rack or "-", warn=False)
        for move in rng.sample(moves, min(len(moves), 15)):
            verdict = judge(board, f"{move.coord} {move.word}", sowpods, rack)
            assert verdict.legal, (move, verdict.reasons)
            assert verdict.score == move.score
            assert [(w.word, w.score) for w in verdict.words] == move.words
            assert verdict.leave == move.leave
            check_breakdown(verdict)
            by_tiles = judge_tiles(board, move.tiles, sowpods, rack)
            assert by_tiles.legal and by_tiles.score == move.score
            assert (by_tiles.move.coord, by_tiles.move.word) == (move.coord, move.word)


def _random_tiles(grid, rng: random.Random) -> list[tuple[int, int, str, bool]]:
    """Tiles along a line from a random square, now and then skipping an empty square (a gap) or
    leaving the line."""
    letters = "AEIORSTNLDQZX"
    r, c = rng.randrange(15), rng.randrange(15)
    dr, dc = rng.choice([(0, 1), (1, 0)])
    tiles = []
    for _ in range(rng.randint(1, 5)):
        while 0 <= r < 15 and 0 <= c < 15 and grid[r][c] is not None:
            r, c = r + dr, c + dc
        if not (0 <= r < 15 and 0 <= c < 15):
            break
        tiles.append((r, c, rng.choice(letters), rng.random() < 0.1))
        step = 2 if rng.random() < 0.1 else 1
        r, c = r + dr * step, c + dc * step
        if rng.random() < 0.05:
            r, c = r + dc, c + dr
    return tiles


def test_random_placements_against_the_oracle(sowpods, words):
    rng = random.Random(11)
    legal = illegal = 0
    for _case_id, grid, _rack, _moves in CASES:
        board = _board(grid)
        for _ in range(60):
            tiles = _random_tiles(grid, rng)
            if not tiles or len({(r, c) for r, c, _l, _b in tiles}) < len(tiles):
                continue
            verdict = judge_tiles(board, tiles, sowpods)
            want = legal_score(grid, tiles, words, ORACLE)
            assert verdict.legal == (want is not None), (tiles, verdict.reasons, "\n".join(board.to_rows()))
            if verdict.move is not None:
                formed = Counter(
                    ("".join(x[2].lower() if x[3] else x[2] for x in w), score_word(w, ORACLE))
                    for w in words_formed(grid, tiles, ORACLE)
                )
                assert Counter((w.word, w.score) for w in verdict.words) == formed
                check_breakdown(verdict)
            if want is not None:
                assert verdict.score == want
            legal += verdict.legal
            illegal += not verdict.legal
    assert legal > 20 and illegal > 1000, (legal, illegal)


EMPTY = Board.empty(ENGLISH)


@pytest.mark.parametrize(
    ("board", "play", "rack", "reason"),
    [
        ("position", "8M AB", None, "8M AB: the play touches no tile on the board"),
        ("position", "E5 URALITEX", "AEIRSTU", "the rack AEIRSTU does not hold X"),
        ("position", "E5 URALITEX", None, "URALITEX (E5) is not in sowpods"),
        ("position", "9A QUIT", None, "FT (D8) is not in sowpods"),
        ("position", "5E URALITES", None, "5E URALITES: H5 holds Q, the play writes L"),
        ("position", "8D FLOWERS", None, "8D FLOWERS places no tile"),
        ("position", "15N ABC", None, "15N ABC runs off the board"),
        ("position", "QI", None, "write a square and a word"),
        ("empty", "1A QI", None, "the first play must cover the start square H8"),
        ("empty", "8H QQ", "Q?", "the rack Q? does not hold Q"),
    ],
)
def test_reasons(sowpods, board, play, rack, reason):
    on = parse_cgp(POSITION, ENGLISH).board if board == "position" else EMPTY
    verdict = judge(on, play, sowpods, rack)
    assert not verdict.legal
    assert any(reason in text for text in verdict.reasons), verdict.reasons


def test_reasons_for_placed_tiles(sowpods):
    board = parse_cgp(POSITION, ENGLISH).board
    assert judge_tiles(board, [(3, 7, "A", False), (4, 8, "A", False)], sowpods).reasons == (
        "the tiles are not in one row or one column",
    )
    gap = judge_tiles(board, [(11, 6, "A", False), (11, 8, "A", False)], sowpods)
    assert gap.reasons == ("a gap: H12 between the tiles placed is empty",)
    assert judge_tiles(board, [(4, 7, "A", False)], sowpods).reasons == ("H5 already holds Q",)
    assert judge_tiles(board, [], sowpods).reasons == ("no tile is placed",)
    # one tile: across when it forms an across word (as the generators record it)
    single = judge_tiles(board, [(7, 2, "S", False)], sowpods, "S")
    assert single.play == "8C S(FLOWERs)" and single.reasons == ("SFLOWERS (8C) is not in sowpods",)
    hook = judge_tiles(board, [(3, 7, "A", False)], sowpods, "A")  # AQUEN...: down, the only word
    assert hook.play.startswith("H4 A(QUE") and [w.main for w in hook.words] == [True]


def test_score_command(sowpods, capsys):
    assert main(["score", "--lexicon", str(LEXICON), "--cgp", POSITION, "E5", "URALITES"]) == 0
    out = capsys.readouterr().out
    assert "E5 URALITES: legal" in out and "score 82 (bingo bonus 50 included)" in out
    assert main(["score", "--lexicon", str(LEXICON), "--cgp", POSITION, "--json", "9A", "QUIT"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert not verdict["legal"] and verdict["reasons"] == [
        "the rack AEIRSTU does not hold Q",
        "FT (D8) is not in sowpods",
    ]
    assert [(w["word"], w["score"]) for w in verdict["words"]] == [("QUIT", 14), ("FT", 5)]
