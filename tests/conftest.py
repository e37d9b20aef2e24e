"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import pytest
from gaddag_solver import Rules, build_gaddag
from small_words import WORDS


@pytest.fixture(scope="session")
def lexicon_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The small English lexicon (tests/small_words.py) as a .gaddag file."""
    data, _report = build_gaddag(WORDS, Rules.load("english").alphabet, name="small")
    path = tmp_path_factory.mktemp("lexicon") / "small.gaddag"
    path.write_bytes(data)
    return str(path)
