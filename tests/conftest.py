"""Fixtures shared by the tests: the small lexicon of the CLI tests, the built SOWPODS and TWL06."""

from __future__ import annotations

import pytest
from gaddag_solver import Lexicon, Rules, build_gaddag
from gaddag_solver.lexicons import resolve_lexicon
from small_words import WORDS


@pytest.fixture(scope="session")
def lexicon_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The small English lexicon (tests/small_words.py) as a .gaddag file."""
    data, _report = build_gaddag(WORDS, Rules.load("english").alphabet, name="small")
    path = tmp_path_factory.mktemp("lexicon") / "small.gaddag"
    path.write_bytes(data)
    return str(path)


@pytest.fixture(scope="session")
def sowpods() -> Lexicon:
    """The built SOWPODS lexicon (missing, the tests that ask for it fail rather than skip)."""
    return Lexicon.load(resolve_lexicon("sowpods"), Rules.load("english"))


@pytest.fixture(scope="session")
def twl06() -> Lexicon:
    """The built TWL06 lexicon."""
    return Lexicon.load(resolve_lexicon("twl06"), Rules.load("english"))
