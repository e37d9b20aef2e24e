"""Robustness of the public entry points (issue 16): arguments of the wrong type are a TypeError
naming the argument and what it should be, and a folder where a lexicon file was looked for is
named as a folder. (The other items of the issue are tested next to their subject.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from gaddag_solver import Board, Lexicon, Rules, Solver, build_gaddag, solve
from gaddag_solver.lexicons import LexiconNotFoundError, resolve_lexicon
from small_words import WORDS

ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    data, _ = build_gaddag(WORDS, ENGLISH.alphabet, name="small")
    return Lexicon.load(data)


RACK = "rack must be a Rack or the tiles as text"
TOP = "top must be a whole number or None (every move), not"
WRONG_TYPES = [
    (
        "solve: rack None",
        lambda lx: solve(Board.empty(ENGLISH), None, lx),
        f'{RACK} ("AEINRS?"), not NoneType',
    ),
    ("solve: lexicon None", lambda lx: solve(Board.empty(ENGLISH), "AB", None), "lexicon must be a Lexicon"),
    ("solve: lexicon a path", lambda lx: solve(Board.empty(ENGLISH), "AB", "x.gaddag"), "not str 'x.gaddag'"),
    (
        "solve: rules a string",
        lambda lx: solve(Board.empty(ENGLISH), "AB", lx, "english"),
        "rules must be a Rules",
    ),
    ("solve: top a string", lambda lx: solve(Board.empty(ENGLISH), "AB", lx, top="3"), f"{TOP} str '3'"),
    ("solve: top a float", lambda lx: solve(Board.empty(ENGLISH), "AB", lx, top=2.5), f"{TOP} float"),
    ("solve: board None", lambda lx: solve(None, "AB", lx), "board must be a Board or the board as text"),
    (
        "Solver: lexicon None",
        lambda lx: Solver(None),
        "lexicon must be a Lexicon (Lexicon.load(path)), not NoneType",
    ),
    ("Solver: rules a string", lambda lx: Solver(lx, "english"), "or None for english, not str 'english'"),
    ("Solver.solve: rack None", lambda lx: Solver(lx).solve(Board.empty(ENGLISH), None), RACK),
    (
        "Solver.solve: top a string",
        lambda lx: Solver(lx).solve(Board.empty(ENGLISH), "AB", "3"),
        f"{TOP} str",
    ),
    ("Solver.solve: top True", lambda lx: Solver(lx).solve(Board.empty(ENGLISH), "AB", True), f"{TOP} bool"),
    (
        "Solver.solve: bag a string",
        lambda lx: Solver(lx).solve(Board.empty(ENGLISH), "AB", bag="7"),
        "bag must",
    ),
]


@pytest.mark.parametrize(("case", "call", "message"), WRONG_TYPES, ids=[case for case, _, _ in WRONG_TYPES])
def test_wrong_argument_types_are_a_type_error_naming_the_argument(lexicon, case, call, message) -> None:
    with pytest.raises(TypeError) as caught:
        call(lexicon)
    assert message in str(caught.value)


def test_right_types_still_solve(lexicon: Lexicon) -> None:
    moves = solve(Board.empty(ENGLISH), "CARETS", lexicon, ENGLISH, top=3)
    assert len(moves) == 3 and moves == Solver(lexicon, None).solve(Board.empty(ENGLISH), "CARETS", 3)


def test_a_folder_named_like_a_lexicon_is_called_a_folder(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "x.gaddag"
    folder.mkdir()
    monkeypatch.setenv("GADDAG_SOLVER_LEXICONS", str(tmp_path))
    with pytest.raises(LexiconNotFoundError, match=f"^{folder} is a folder, not a lexicon file$"):
        resolve_lexicon("x")
    with pytest.raises(LexiconNotFoundError, match=f"^{folder} is a folder, not a lexicon file$"):
        resolve_lexicon(str(folder))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LexiconNotFoundError, match="^x.gaddag is a folder, not a lexicon file$"):
        resolve_lexicon("x.gaddag")
    with pytest.raises(LexiconNotFoundError, match="no lexicon named 'y'"):
        resolve_lexicon("y")


def test_a_long_rack_is_shown_cut_in_its_message() -> None:
    from gaddag_solver import Rack
    from gaddag_solver.rack import RackError

    with pytest.raises(RackError) as caught:
        Rack("A" * 100_000, ENGLISH)
    assert (
        str(caught.value) == f"rack '{'A' * 40}… (100,000 characters)' has 100000 tiles; "
        "the English Scrabble rack holds at most 7"
    )
