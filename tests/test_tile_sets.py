"""Each shipped ruleset's tiles against the published facts of its game: every letter's value and
count, the blanks, the total (issue 27, item 5). The facts are written here from the games'
rules, not read from our rules files, so that a slip in a file is caught."""

from __future__ import annotations

import re

import pytest
from gaddag_solver import Rules

SCRABBLE_VALUES = "A1 B3 C3 D2 E1 F4 G2 H4 I1 J8 K5 L1 M3 N1 O1 P3 Q10 R1 S1 T1 U1 V4 W4 X8 Y4 Z10"
# ruleset: (letter values, letter counts, blanks, tiles in all)
FACTS = {
    "english": (
        SCRABBLE_VALUES,
        "A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1",
        2,
        100,
    ),
    "super": (  # Super Scrabble: the same values, 200 tiles
        SCRABBLE_VALUES,
        "A16 B4 C6 D8 E24 F4 G5 H5 I13 J2 K2 L7 M6 N13 O15 P4 Q2 R13 S10 T15 U7 V3 W4 X2 Y4 Z2",
        4,
        200,
    ),
    "wwf": (  # Words With Friends
        "A1 B4 C4 D2 E1 F4 G3 H3 I1 J10 K5 L2 M4 N2 O1 P4 Q10 R1 S1 T1 U2 V5 W4 X8 Y3 Z10",
        "A9 B2 C2 D5 E13 F2 G3 H4 I8 J1 K1 L4 M2 N5 O8 P2 Q1 R6 S5 T7 U4 V2 W2 X1 Y2 Z1",
        2,
        104,
    ),
    "polish": (
        "A1 Ą5 B3 C2 Ć6 D2 E1 Ę5 F5 G3 H3 I1 J3 K2 L2 Ł3 M2 N1 Ń7 O1 Ó5 P2 R1 S1 Ś5 T2 U3 W1 Y2 Z1 Ź9 Ż5",
        "A9 Ą1 B2 C3 Ć1 D3 E7 Ę1 F1 G2 H2 I8 J2 K3 L3 Ł2 M3 N5 Ń1 O6 Ó1 P3 R4 S4 Ś1 T3 U2 W4 Y4 Z5 Ź1 Ż1",
        2,
        100,
    ),
}
# the totals only, for the Russian games
TOTALS = {"russian": (2, 104), "erudit": (3, 131)}


def by_letter(text: str) -> dict[str, int]:
    return {m[1]: int(m[2]) for m in re.finditer(r"(\D+?)(\d+)", text.replace(" ", ""))}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_every_tile_is_as_the_game_publishes_it(name: str) -> None:
    values, counts, blanks, total = FACTS[name]
    rules = Rules.load(name)
    assert {letter: value for letter, value, _ in rules.tiles()} == by_letter(values)
    assert {letter: count for letter, _, count in rules.tiles()} == by_letter(counts)
    assert rules.blanks == blanks
    assert sum(count for _, _, count in rules.tiles()) + rules.blanks == total


@pytest.mark.parametrize("name", sorted(TOTALS))
def test_the_russian_sets_hold_their_published_totals(name: str) -> None:
    blanks, total = TOTALS[name]
    rules = Rules.load(name)
    assert rules.blanks == blanks
    assert sum(count for _, _, count in rules.tiles()) + rules.blanks == total
