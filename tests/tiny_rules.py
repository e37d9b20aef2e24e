"""A tiny ruleset for whole games in tests: a 9×9 board, seven letters and a blank, racks of
five, with the small word list's words over those letters. Games on it take milliseconds."""

from __future__ import annotations

from gaddag_solver import Rules


def tiny_rules(name: str = "tinygame", **fields: object) -> Rules:
    """The tiny ruleset; ``fields`` replace any of its fields (e.g. a smaller tile set)."""
    data = Rules.load("english").to_dict()
    letters = [["A", 1, 6], ["C", 3, 2], ["E", 1, 6], ["O", 1, 4], ["R", 1, 4], ["S", 1, 4], ["T", 1, 4]]
    data.update(
        name=name,
        rows=9,
        cols=9,
        layout=[
            "T...d...T",
            ".D.....D.",
            "..t...t..",
            "...D.D...",
            "d...D...d",
            "...D.D...",
            "..t...t..",
            ".D.....D.",
            "T...d...T",
        ],  # fmt: skip
        start=[4, 4],
        rack_size=5,
        bingo_bonus=25,
        letters=letters,
        blanks=1,
        vowels=["A", "E", "O"],
        exchange_minimum=5,
        default_lexicon=None,
    )
    data.update(fields)
    return Rules.from_dict(data)
