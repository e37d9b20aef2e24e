"""The DAWG baseline (docs/dawg.md): the .dawg format, its builder and loader, and Appel &
Jacobson's generator (``engine="dawg"``) against the GADDAG generator, the brute-force oracle
and the reference vectors; two-mode generation (``direction=``) for both engines.

Oracles: the word list itself (every word in, nothing else), a minimal automaton computed here
in Python (the state count), tests/oracle.py's brute-force generator (every shipped ruleset,
non-English alphabets, blanks), the reference move lists in tests/data/sowpods, and the GADDAG
generator on self-play positions.
"""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path

import pytest
from gaddag_solver import Game, Lexicon, Rules, build_gaddag
from gaddag_solver.dawg import Dawg, DawgMismatchError, dawg_for
from gaddag_solver.lexicon import LexiconFormatError, build_lexicon_file
from gaddag_solver.move import MOVE_RECORD, Move
from gaddag_solver.solver import EngineError, Solver
from hypothesis import given
from hypothesis import strategies as st
from oracle import describe_play, empty_board, expected_plays, generate, play_differences
from small_words import WORDS as SMALL_WORDS
from test_movegen import (
    LETTER_POOLS,
    RULES,
    apply,
    game_settings,
    grid_board,
    oracle_rules,
    racks,
    word_lists,
)
from test_reference_vectors import CASE_IDS, CASES, ENGLISH, LEXICON, _board

REPO = Path(__file__).resolve().parent.parent


def make_dawg(words: list[str], rules: Rules) -> Dawg:
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line, kind="dawg")
    return Dawg.load(data, rules)


def listing(moves: list[Move]) -> Counter:
    return Counter((m.row, m.col, m.direction, m.word, m.score) for m in moves)


def records(solver: Solver, board, rack, direction: str = "both") -> Counter:
    """Every play as the core's records (score, square, direction, codes with their flags)."""
    _count, raw = solver.solve_raw(board, rack, None, None, direction)
    return Counter(MOVE_RECORD.iter_unpack(raw))


# ---- the format ---------------------------------------------------------------------------------


def minimal_states(words: list[str]) -> int:
    """States of the minimal DAWG whose arcs carry acceptance (docs/gaddag-format.md): nodes of the
    trie merged when their outgoing arcs (letter, accepts, merged child) are equal."""
    trie: dict = {}
    for word in words:
        node = trie
        for letter in word[:-1]:
            node = node.setdefault(letter, [False, {}])[1]
        node.setdefault(word[-1], [False, {}])[0] = True
    signatures: dict[tuple, int] = {}

    def merge(node: dict) -> int:
        signature = tuple(
            sorted((letter, accepts, merge(child)) for letter, (accepts, child) in node.items())
        )
        return signatures.setdefault(signature, len(signatures))

    merge(trie)
    return len(signatures) - (() in signatures)  # the empty list is "no child", not a state


def test_a_dawg_holds_exactly_its_words():
    rules = Rules.load("english")
    words = sorted({w for w in SMALL_WORDS if len(w) <= 15})
    dawg = make_dawg(words, rules)
    assert len(dawg) == len(words)
    assert all(word in dawg for word in words)
    rng = random.Random(7)
    for _ in range(2000):
        probe = "".join(rng.choice("AEIRSTNLQZ") for _ in range(rng.randint(1, 7)))
        assert (probe in dawg) == (probe in set(words)), probe
    assert dawg.stats.states == minimal_states(words)


def test_dawg_for_builds_the_same_words_in_memory():
    rules = Rules.load("english")
    words = ["AA", "AB", "BA", "ABA", "BAA", "QI"]
    lexicon = Lexicon.load(build_gaddag(words, rules.alphabet)[0], rules)
    dawg = dawg_for(lexicon)
    assert dawg is dawg_for(lexicon)
    assert len(dawg) == len(words) and all(w in dawg for w in words) and "AAB" not in dawg
    assert dawg.stats.states == minimal_states(words)


def _gaddag_and_dawg(tmp_path: Path) -> tuple[Path, Path]:
    source = tmp_path / "words.txt"
    source.write_text("\n".join(["CAT", "CATS", "AT", "TA", "ACT", "SCAT"]) + "\n")
    output = tmp_path / "tiny.gaddag"
    build_lexicon_file(source, output, dawg=True, log=None)
    return output, tmp_path / "tiny.dawg"


def test_build_writes_both_and_dawg_for_reads_the_file_beside(tmp_path):
    gaddag_path, dawg_path = _gaddag_and_dawg(tmp_path)
    assert dawg_path.is_file()
    lexicon = Lexicon.load(gaddag_path)
    dawg = dawg_for(lexicon)
    assert dawg.source == str(dawg_path)
    assert sorted(w for w in ["CAT", "CATS", "AT", "TA", "ACT", "SCAT", "TAC", "CA"] if w in dawg) == sorted(
        ["CAT", "CATS", "AT", "TA", "ACT", "SCAT"]
    )


def test_a_dawg_beside_with_other_words_is_refused(tmp_path):
    gaddag_path, dawg_path = _gaddag_and_dawg(tmp_path)
    other = tmp_path / "other.txt"
    other.write_text("CAT\nDOG\n")
    build_lexicon_file(other, tmp_path / "other.gaddag", dawg=True, log=None)
    (tmp_path / "other.dawg").replace(dawg_path)
    with pytest.raises(DawgMismatchError, match=r"holds 2 words .* holds 6 .*--dawg"):
        dawg_for(Lexicon.load(gaddag_path))


def test_each_kind_names_the_other_given_in_its_place(tmp_path):
    gaddag_path, dawg_path = _gaddag_and_dawg(tmp_path)
    with pytest.raises(LexiconFormatError, match=r"this is a \.dawg file, not a \.gaddag file") as info:
        Lexicon.load(dawg_path)
    assert info.value.offset == 0
    with pytest.raises(LexiconFormatError, match=r"this is a \.gaddag file, not a \.dawg file"):
        Dawg.load(gaddag_path)
    with pytest.raises(LexiconFormatError, match=r"this is a \.gaddag file, not a \.dawg file"):
        Dawg.load(gaddag_path.read_bytes())


def _recrc(data: bytearray) -> bytes:
    struct.pack_into("<I", data, len(data) - 4, zlib.crc32(bytes(data[:-4])))
    return bytes(data)


def test_damaged_and_forged_dawgs_are_refused(tmp_path):
    gaddag_path, dawg_path = _gaddag_and_dawg(tmp_path)
    data = bytearray(dawg_path.read_bytes())
    header = struct.unpack_from("<H", data, 10)[0]
    damaged = bytearray(data)
    damaged[header + 8] ^= 0x01
    with pytest.raises(LexiconFormatError, match="checksum mismatch"):
        Dawg.load(bytes(damaged))
    # a separator arc in a DAWG, checksum forged: named for what it is
    forged = bytearray(data)
    arc = struct.unpack_from("<I", forged, header + 4)[0]
    struct.pack_into("<I", forged, header + 4, arc & ~0x3F)
    with pytest.raises(LexiconFormatError, match="a separator, which only a GADDAG has"):
        Dawg.load(_recrc(forged))
    # a GADDAG's arcs under the DAWG's magic, checksum forged: it accepts more strings than words
    relabelled = bytearray(gaddag_path.read_bytes())
    relabelled[:8] = data[:8]
    with pytest.raises(LexiconFormatError, match="separator|exactly its"):
        Dawg.load(_recrc(relabelled))
    truncated = bytes(data[:-5])
    with pytest.raises(LexiconFormatError, match="truncated"):
        Dawg.load(truncated)


# ---- agreement: the reference vectors -------------------------------------------------------------


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    if not LEXICON.exists():
        pytest.skip(f"{LEXICON.relative_to(REPO)} is missing: run scripts/setup_env.sh")
    return Lexicon.load(LEXICON, ENGLISH)


def test_reference_vectors_by_the_dawg_engine(sowpods):
    """Every reference position: the DAWG engine's (tiles, score) sets equal the reference's, and
    its listing (row, col, direction, word, score) the GADDAG engine's, move for move."""
    dawg_solver = Solver(sowpods, ENGLISH, engine="dawg")
    gaddag_solver = Solver(sowpods, ENGLISH)
    for case_id, grid, rack, moves in CASES:
        board = _board(grid)
        got = dawg_solver.solve(board, rack or "-", warn=False)
        plays = Counter((frozenset(m.tiles), m.score) for m in got)
        assert max(plays.values(), default=1) == 1, f"{case_id}: a play listed twice"
        want = expected_plays(grid, moves)
        if set(plays) != want:
            pytest.fail(f"{case_id}: {play_differences(want, set(plays))}")
        assert records(dawg_solver, board, rack or "-") == records(gaddag_solver, board, rack or "-"), case_id
        assert dawg_solver.count(board, rack or "-") == len(moves)


@pytest.mark.parametrize(("case_id", "grid", "rack", "moves"), CASES[-4:], ids=CASE_IDS[-4:])
def test_directions_split_the_plays(sowpods, case_id, grid, rack, moves):
    """Across and down, generated apart by either engine, are disjoint and make up both; a
    single tile forming words both ways is an across play."""
    board = _board(grid)
    for engine in ("gaddag", "dawg"):
        solver = Solver(sowpods, ENGLISH, engine=engine)
        both = records(solver, board, rack)
        across, down = records(solver, board, rack, "across"), records(solver, board, rack, "down")
        assert {r[4] for r in across} <= {0} and {r[4] for r in down} <= {1}  # the direction field
        assert across + down == both and sum(both.values()) == len(moves), engine
        if engine == "gaddag":
            count, top = solver.solve_counted(board, rack, top=3, warn=False, direction="down")
            assert count == sum(down.values())
            assert [m.score for m in top] == sorted((r[0] for r in down.elements()), reverse=True)[:3]
            streamed = Counter(
                MOVE_RECORD.pack(*r)
                for batch in solver.stream(board, rack, direction="across").records()
                for r in batch
            )
            assert streamed == Counter(MOVE_RECORD.pack(*r) for r in across.elements())


def test_engine_options_are_checked(sowpods):
    with pytest.raises(EngineError, match="unknown engine 'trie'"):
        Solver(sowpods, ENGLISH, engine="trie")
    solver = Solver(sowpods, ENGLISH, engine="dawg")
    board = _board(CASES[-3][1])
    with pytest.raises(EngineError, match="unknown direction 'diagonal'"):
        solver.solve(board, "AEIRSTU", direction="diagonal")
    with pytest.raises(EngineError, match="score only"):
        solver.solve(board, "AEIRSTU", equity=True)
    with pytest.raises(EngineError, match="streaming needs engine 'gaddag'"):
        solver.stream(board, "AEIRSTU")


# ---- agreement: the brute-force oracle on random games --------------------------------------------


def check_engines(
    rules: Rules, words: list[str], grid, rack: str, dawg: Solver, gaddag: Solver, orules
) -> list:
    board = grid_board(grid, rules)
    moves = dawg.solve(board, rack, warn=False)
    got = Counter((frozenset(m.tiles), m.score) for m in moves)
    twice = [play for play, n in got.items() if n > 1]
    assert not twice, f"listed twice: {describe_play(twice[0])}"
    want = generate(grid, rules.alphabet.normalize(rack), frozenset(words), orules)
    if set(got) != want:
        pytest.fail(f"rack {rack!r}: {play_differences(want, set(got), 8)}")
    assert listing(moves) == listing(gaddag.solve(board, rack, warn=False))
    across = listing(dawg.solve(board, rack, warn=False, direction="across"))
    down = listing(dawg.solve(board, rack, warn=False, direction="down"))
    assert across + down == listing(moves)
    return moves


def _game(rules: Rules, data) -> None:
    pool = LETTER_POOLS.get(rules.name, "".join(rules.alphabet.letters))
    letters = data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=5, unique=True), label="letters")
    words = sorted({rules.alphabet.normalize(w) for w in data.draw(word_lists(letters, rules.longest_line))})
    lexicon = Lexicon.load(build_gaddag(words, rules.alphabet, max_length=rules.longest_line)[0], rules)
    dawg, gaddag = Solver(lexicon, rules, engine="dawg"), Solver(lexicon, rules)
    orules = oracle_rules(rules, {ch for w in words for ch in w})
    grid = empty_board(orules)
    for turn in range(data.draw(st.integers(1, 6), label="turns")):
        rack = data.draw(racks(sorted({ch for w in words for ch in w}), words, rules.rack_size))
        moves = check_engines(rules, words, grid, rack, dawg, gaddag, orules)
        if moves:
            apply(grid, moves[data.draw(st.integers(0, len(moves) - 1), label=f"play {turn}")])


@pytest.mark.parametrize("name", sorted(RULES))
@game_settings(15)
@given(data=st.data())
def test_random_games_every_ruleset(name, data):
    _game(RULES[name], data)


# ---- agreement: self-play positions with the full lexicon -----------------------------------------


def test_self_play_positions(sowpods):
    """Greedy self-play games on SOWPODS: at every turn, both engines give the same plays (as the
    core's records: squares, letters, blanks, scores)."""
    dawg, gaddag = Solver(sowpods, ENGLISH, engine="dawg"), Solver(sowpods, ENGLISH)
    positions = 0
    for seed in range(4):
        game = Game.new(sowpods, ENGLISH, seed=seed)
        while not game.over:
            board, rack = game.board, game.rack()
            assert records(dawg, board, rack) == records(gaddag, board, rack), f"seed {seed}: {rack}\n{board}"
            positions += 1
            game.play(game.best_move("greedy"))
    assert positions > 60


# ---- Gordon's measures: the work counted in a GD_COUNT_WORK build --------------------------------

WORK_SCRIPT = """
import json
from gaddag_solver import Board, Lexicon, Rack, Rules, build_gaddag
from gaddag_solver import _core_api as core
from gaddag_solver._binding import ffi
from gaddag_solver.dawg import dawg_for
from gaddag_solver.rules_core import core_rules

rules = Rules.load("english")
lexicon = Lexicon.load(build_gaddag(["AB"], rules.alphabet)[0], rules)
native, board, rack = core_rules(rules), Board.empty(rules).codes(), Rack("AB", rules).counts()
dawg = dawg_for(lexicon)._core
space = core.DawgWorkspace()
core.dawg_prepare(dawg, native, space, board)
plays, _records, (arcs, dead) = core.dawg_generate(dawg, native, space, rack)
work = ffi.new("gd_work *")
options = core.direction_options("both")
options.work = ffi.cast("gd_work *", work)
core.ensure_walk_index(lexicon._core)
workspace = core.new_workspace()
core.prepare(lexicon._core, native, workspace, board)
count, _records = core.generate(lexicon._core, native, workspace, rack, 0, options)
print(json.dumps({"dawg": [plays, arcs, dead], "gaddag": [count, int(work.arcs), int(work.dead_ends)]}))
"""


def test_work_counted_by_hand(tmp_path):
    """AB from rack AB on an empty board, each direction. DAWG: from the anchor, A then B (2 arcs,
    a play); the left part A (1 arc), then B on the anchor (1 arc, a play): 4. GADDAG: A on the
    anchor, the separator, B (3 arcs, a play); B on the anchor, A left of it (2 arcs, a play): 5.
    No arc is a dead end. The shipped build counts nothing."""
    library = tmp_path / "libcounting.so"
    sources = [str(p) for p in sorted((REPO / "csrc").glob("*.c"))]
    subprocess.run(
        ["cc", "-std=c11", "-O0", "-DGD_COUNT_WORK", "-shared", "-fPIC", f"-I{REPO / 'csrc'}", *sources, "-o",
         str(library)],
        check=True,
    )  # fmt: skip
    env = {**os.environ, "GADDAG_SOLVER_BINDING": "ctypes", "GADDAG_SOLVER_CTYPES_LIB": str(library)}
    run = subprocess.run(
        [sys.executable, "-c", WORK_SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) == {"dawg": [4, 8, 0], "gaddag": [4, 10, 0]}
    shipped = subprocess.run([sys.executable, "-c", WORK_SCRIPT], capture_output=True, text=True, check=True)
    assert json.loads(shipped.stdout) == {"dawg": [4, 0, 0], "gaddag": [4, 0, 0]}
