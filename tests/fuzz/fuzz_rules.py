"""Fuzz target: a rules JSON file.

Contract: Rules.from_json either gives a ruleset, or raises RulesError. An accepted ruleset
survives its own round trip (to_dict, from_dict give the same dict back) and gives an empty
board.
"""

from __future__ import annotations

import atheris

with atheris.instrument_imports():
    from _common import fuzz, text
    from gaddag_solver import Rules
    from gaddag_solver.board import Board
    from gaddag_solver.rules import RulesError


def test_one_input(data: bytes) -> None:
    try:
        rules = Rules.from_json(text(data))
    except RulesError:
        return
    as_dict = rules.to_dict()
    assert Rules.from_dict(as_dict).to_dict() == as_dict
    board = Board.empty(rules)
    assert board.is_empty


if __name__ == "__main__":
    fuzz(test_one_input)
