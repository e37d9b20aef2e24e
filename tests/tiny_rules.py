"""A tiny ruleset for whole games in tests: a 9×9 board, seven letters and a blank, racks of
five, with the small word list's words over those letters. Games on it take milliseconds."""

from __future__ import annotations

import json
from pathlib import Path

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


def write_tiny_files(folder: Path, name: str) -> tuple[str, str]:
    """The tiny ruleset and its lexicon as files in ``folder`` (``NAME.json``, ``NAME.gaddag``),
    for commands run as subprocesses: (lexicon path, rules path)."""
    from gaddag_solver import build_gaddag
    from small_words import WORDS

    rules = tiny_rules(name)
    rules_path = folder / f"{name}.json"
    rules_path.write_text(json.dumps(rules.to_dict()), encoding="utf-8")
    words = sorted(w for w in WORDS if set(w) <= set(rules.alphabet.letters))
    data, _ = build_gaddag(words, rules.alphabet, max_length=rules.longest_line)
    lexicon_path = folder / f"{name}.gaddag"
    lexicon_path.write_bytes(data)
    return str(lexicon_path), str(rules_path)
