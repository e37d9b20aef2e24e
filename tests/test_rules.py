"""Rulesets: every shipped file loads and matches the published facts; every bad file is refused.

The expected totals, blanks, bonuses and premium counts below are the published facts (the issue
text and the sources named in docs/rules.md), not numbers read back from the data files.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from gaddag_solver.alphabet import BLANK_FLAG, AlphabetError
from gaddag_solver.rack import Rack
from gaddag_solver.rules import Rules, RulesError, available_rules

SHIPPED = ["english", "super", "wwf", "polish", "russian", "erudit", "french", "german", "spanish"]

# name: (rows, tiles in the bag, blanks, bingo bonus, centre doubles the word)
PUBLISHED = {
    "english": (15, 100, 2, 50, True),
    "super": (21, 200, 4, 50, True),
    "wwf": (15, 104, 2, 35, False),
    "polish": (15, 100, 2, 50, True),
    "russian": (15, 104, 2, 50, True),
    "erudit": (15, 131, 3, 15, False),
    "french": (15, 102, 2, 50, True),
    "german": (15, 102, 2, 50, True),
    "spanish": (15, 100, 2, 50, True),
}


# name: (exchange minimum, scoreless turns ending the game, going-out bonus, penalty, vowels), as
# docs/rules.md states them with their sources (or as the standard value where unconfirmed)
GAME_FACTS = {
    "english": (7, 6, 2, 0, "AEIOU"),
    "super": (7, 6, 1, 1, "AEIOU"),
    "wwf": (1, 3, 1, 1, "AEIOU"),
    "polish": (7, 4, 1, 1, "AĄEĘIOÓUY"),
    "russian": (7, 4, 1, 1, "АЕЁИОУЫЭЮЯ"),
    "erudit": (7, 4, 1, 1, "АЕИОУЫЭЮЯ"),
    "french": (7, 6, 1, 1, "AEIOUY"),
    "german": (7, 6, 1, 1, "AÄEIOÖUÜ"),
    "spanish": (7, 6, 1, 1, "AEIOU"),
}


def raw(name: str) -> dict[str, Any]:
    """The shipped JSON as plain data, read independently of the loader."""
    text = resources.files("gaddag_solver").joinpath("rules", f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def layout(rules: Rules) -> list[str]:
    return ["".join(row) for row in rules.premiums]


# ---- the shipped rulesets -----------------------------------------------------------------------


def test_available_rules_lists_every_shipped_file_english_first() -> None:
    names = available_rules()
    assert names[0] == "english"
    assert sorted(names) == sorted(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_ruleset_matches_published_facts(name: str) -> None:
    side, total, blanks, bingo, centre_doubles = PUBLISHED[name]
    rules = Rules.load(name)
    assert rules.name == name
    assert (rules.rows, rules.cols) == (side, side)
    assert rules.longest_line == side
    assert rules.start == (side // 2, side // 2)
    assert rules.tile_total == total
    assert rules.blanks == blanks
    assert rules.blank_value == 0
    assert rules.bingo_bonus == bingo
    assert rules.rack_size == 7
    assert rules.start_doubles is centre_doubles
    assert rules.word_multiplier(*rules.start) == (2 if centre_doubles else 1)
    assert rules.letter_multiplier(*rules.start) == 1
    assert len(rules.values) == len(rules.counts) == len(rules.alphabet)
    assert all(count >= 1 for count in rules.counts)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_game_rules_match_the_documented_facts(name: str) -> None:
    exchange, scoreless, bonus, penalty, vowels = GAME_FACTS[name]
    rules = Rules.load(name)
    assert rules.exchange_minimum == exchange
    assert rules.scoreless_turns == scoreless
    assert (rules.going_out_bonus, rules.going_out_penalty) == (bonus, penalty)
    assert rules.going_out_bonus + rules.going_out_penalty == 2  # every game: the same spread
    assert "".join(rules.vowels) == vowels
    codes = [rules.alphabet.code(vowel) for vowel in rules.vowels]
    assert codes == sorted(codes)  # listed in alphabet order


@pytest.mark.parametrize("name", SHIPPED)
def test_layout_is_symmetric_like_the_real_board(name: str) -> None:
    rows = layout(Rules.load(name))
    transposed = ["".join(row[col] for row in rows) for col in range(len(rows[0]))]
    assert rows == transposed  # main diagonal
    assert rows == rows[::-1]  # top/bottom
    assert rows == [row[::-1] for row in rows]  # left/right


@pytest.mark.parametrize("name", SHIPPED)
def test_to_dict_round_trips_and_equals_the_file(name: str) -> None:
    rules = Rules.load(name)
    assert rules.to_dict() == raw(name)
    assert Rules.from_dict(rules.to_dict()) == rules


def test_load_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(raw("polish"), ensure_ascii=False), encoding="utf-8")
    assert Rules.load(path) == Rules.load("polish")
    assert Rules.load(str(path)) == Rules.load("polish")


def test_english_premium_squares() -> None:
    rules = Rules.load("english")
    counts = Counter("".join(layout(rules)))
    assert (counts["T"], counts["D"], counts["t"], counts["d"]) == (8, 17, 12, 24)
    assert layout(rules)[7][7] == "D"
    assert rules.word_multiplier(0, 0) == 3 and rules.letter_multiplier(0, 0) == 1
    assert rules.letter_multiplier(1, 5) == 3 and rules.word_multiplier(1, 5) == 1
    assert rules.letter_multiplier(0, 3) == 2
    assert rules.word_multiplier(1, 1) == 2
    assert rules.word_multiplier(0, 1) == rules.letter_multiplier(0, 1) == 1


def test_english_tiles() -> None:
    rules = Rules.load("english")
    assert "".join(rules.alphabet.letters) == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert sum(v * c for v, c in zip(rules.values, rules.counts, strict=True)) == 187  # published
    code = rules.alphabet.code
    assert rules.letter_value(code("Q")) == 10 and rules.counts[code("E") - 1] == 12
    assert rules.letter_value(code("Q") | BLANK_FLAG) == 0
    assert rules.default_lexicon == "enable"
    with pytest.raises(RulesError):
        rules.letter_value(27)
    with pytest.raises(RulesError):
        rules.letter_value(0)


def test_super_scrabble_board() -> None:
    rules = Rules.load("super")
    rows = layout(rules)
    counts = Counter("".join(rows))
    assert counts["Q"] == 4 and {rows[0][0], rows[0][20], rows[20][0], rows[20][20]} == {"Q"}
    assert counts["q"] == 8
    assert rules.word_multiplier(0, 0) == 4 and rules.letter_multiplier(2, 5) == 4


def test_words_with_friends() -> None:
    rules = Rules.load("wwf")
    counts = Counter("".join(layout(rules)))
    # 61 coloured squares: 60 premiums and the plain centre star
    assert (counts["T"], counts["D"], counts["t"], counts["d"]) == (8, 12, 16, 24)
    assert layout(rules)[7][7] == "."
    code = rules.alphabet.code
    assert rules.letter_value(code("J")) == 10 and rules.letter_value(code("H")) == 3
    assert rules.counts[code("E") - 1] == 13


def test_polish_alphabet() -> None:
    rules = Rules.load("polish")
    assert "".join(rules.alphabet.letters) == "AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"
    assert rules.letter_value(rules.alphabet.code("Ź")) == 9
    assert layout(rules) == layout(Rules.load("english"))


def test_russian_has_its_own_yo_tile() -> None:
    rules = Rules.load("russian")
    assert "".join(rules.alphabet.letters) == "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
    code = rules.alphabet.code
    assert rules.counts[code("Ё") - 1] == 1 and rules.letter_value(code("Ё")) == 3
    assert rules.alphabet.normalize("ёж") == "ЁЖ"  # no fold: Ё is a tile of its own
    assert layout(rules) == layout(Rules.load("english"))


def test_erudit() -> None:
    rules = Rules.load("erudit")
    assert rules.title == "Эрудит"
    assert not rules.start_doubles
    assert rules.word_multiplier(7, 7) == 1 and rules.letter_multiplier(7, 7) == 1
    assert rules.bingo_bonus == 15
    assert rules.blanks == 3 and rules.blank_value == 0
    assert rules.tile_total == 131 and sum(rules.counts) == 128
    assert len(rules.alphabet) == 32 and "Ё" not in rules.alphabet.letters
    assert rules.alphabet.normalize("ЁЖ") == "ЕЖ"
    assert rules.alphabet.encode("ёлка") == rules.alphabet.encode("ЕЛКА")


# The published distributions (Wikipedia's *Scrabble letter distributions*, as docs/rules.md
# cites), written as they are printed: points, then the letters worth that many with their counts.
PUBLISHED_TILES = {
    "french": "1: E15 A9 I8 N6 O6 R6 S6 T6 U6 L5 | 2: D3 G2 | 3: B2 C2 M3 P2 | 4: F2 H2 V2 | 8: J1 Q1 "
    "| 10: K1 W1 X1 Y1 Z1",
    "german": "1: E15 N9 S7 I6 R6 T6 U6 A5 D4 | 2: H4 G3 L3 O3 | 3: M4 B2 W1 Z1 | 4: C2 F2 K2 P1 "
    "| 6: Ä1 J1 Ü1 V1 | 8: Ö1 X1 | 10: Q1 Y1",
    "spanish": "1: A12 E12 O9 I6 S6 N5 L4 R5 U5 T4 | 2: D5 G2 | 3: C4 B2 M2 P2 | 4: H2 F1 V1 Y1 "
    "| 5: CH1 Q1 | 8: J1 LL1 Ñ1 RR1 X1 | 10: Z1",
}


@pytest.mark.parametrize("name", sorted(PUBLISHED_TILES))
def test_tiles_match_the_published_distribution(name: str) -> None:
    published: dict[str, tuple[int, int]] = {}
    for group in PUBLISHED_TILES[name].split("|"):
        points, letters = group.split(":")
        for item in letters.split():
            letter = item.rstrip("0123456789")
            published[letter] = (int(points), int(item[len(letter) :]))
    rules = Rules.load(name)
    ours = {
        letter: (value, count)
        for letter, value, count in zip(rules.alphabet.letters, rules.values, rules.counts, strict=True)
    }
    assert ours == published
    assert layout(rules) == layout(Rules.load("english"))


def test_french_and_german_spelling() -> None:
    """Accents are read as the plain letter, except German's own Ä, Ö, Ü; ß is spelled SS."""
    french, german = Rules.load("french").alphabet, Rules.load("german").alphabet
    assert french.encode("Noël") == french.encode("NOEL") and french.encode("çà") == french.encode("CA")
    assert german.split(german.normalize("Straße")) == list("STRASSE")
    assert german.split(german.normalize("Ärger")) == ["Ä", "R", "G", "E", "R"]
    assert german.encode("ÄRGER") != german.encode("ARGER")
    assert german.encode("Café") == german.encode("CAFE")


def test_spanish_digraph_tiles() -> None:
    """CH, LL and RR are one tile each, and a word is always spelled with them: C then H is CH."""
    alphabet = Rules.load("spanish").alphabet
    assert alphabet.split(alphabet.normalize("chorro")) == ["CH", "O", "RR", "O"]
    assert alphabet.split(alphabet.normalize("calle")) == ["C", "A", "LL", "E"]
    assert alphabet.split(alphabet.normalize("ñandú")) == ["Ñ", "A", "N", "D", "U"]
    assert len(alphabet.encode("LLUVIA")) == 5
    with pytest.raises(AlphabetError, match="'K'"):
        alphabet.encode("kilo")  # no K or W tile in the Spanish set


def test_spanish_racks_read_back_as_written() -> None:
    """Every rack of up to four tiles among C, CH, H, L, LL, R, RR, A and a blank, written as text
    and read again, is the same tiles: L, L never reads as LL, nor C, H as CH."""
    rules = Rules.load("spanish")
    pool = ["A", "C", "CH", "H", "L", "LL", "R", "RR", "?"]
    for size in range(1, 5):
        for tiles in itertools.product(pool, repeat=size):
            ordered = sorted(tiles, key=lambda t: (t == "?", rules.alphabet.code(t) if t != "?" else 0))
            rack = Rack(ordered, rules)
            assert Rack(str(rack), rules).tiles == rack.tiles, str(rack)


def test_start_square_multiplies_nothing_when_start_doubles_is_false() -> None:
    data = raw("english")
    data["start"], data["start_doubles"] = [1, 5], False  # a triple-letter square
    rules = Rules.from_dict(data)
    assert rules.premiums[1][5] == "t"
    assert rules.letter_multiplier(1, 5) == 1 and rules.word_multiplier(1, 5) == 1
    assert rules.letter_multiplier(5, 1) == 3


def test_multiplier_off_the_board_is_an_index_error() -> None:
    rules = Rules.load("english")
    with pytest.raises(IndexError):
        rules.word_multiplier(15, 0)
    with pytest.raises(IndexError):
        rules.letter_multiplier(0, -1)


# ---- every way a file can be wrong ---------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], object]


def _set(key: str, value: object) -> Mutation:
    return lambda d: d.__setitem__(key, value)


def _letters(index: int, slot: int, value: object) -> Mutation:
    return lambda d: d["letters"][index].__setitem__(slot, value)


def _row(index: int, text: str) -> Mutation:
    return lambda d: d["layout"].__setitem__(index, text)


BAD: list[tuple[str, Mutation, str]] = [
    ("unknown key", _set("colour", "red"), "colour"),
    ("missing key", lambda d: d.pop("blanks"), "blanks"),
    ("rows wrong type", _set("rows", "15"), "rows"),
    ("rows is a bool", _set("rows", True), "rows"),
    ("rows too small", _set("rows", 1), "rows"),
    ("rows too large", _set("rows", 33), "rows"),
    ("cols too large", _set("cols", 40), "cols"),
    ("title empty", _set("title", ""), "title"),
    ("name not a name", _set("name", "English Scrabble"), "name"),
    ("layout not a list", _set("layout", "T..d"), "layout"),
    ("layout too few rows", lambda d: d["layout"].pop(), "layout"),
    ("layout row too short", _row(3, "d..D...d...D.."), "layout[3]"),
    ("layout row not a string", _row(3, 5), "layout[3]"),
    ("unknown premium char", _row(4, "....D..x..D...."), "layout[4]"),
    ("start outside the board", _set("start", [7, 15]), "start"),
    ("start negative", _set("start", [-1, 7]), "start"),
    ("start wrong shape", _set("start", [7]), "start"),
    ("start_doubles not a bool", _set("start_doubles", 1), "start_doubles"),
    ("start_doubles on a plain square", _set("start", [0, 1]), "start_doubles"),
    ("rack_size zero", _set("rack_size", 0), "rack_size"),
    ("rack_size float", _set("rack_size", 7.0), "rack_size"),
    ("bingo_bonus negative", _set("bingo_bonus", -50), "bingo_bonus"),
    ("letters empty", _set("letters", []), "letters"),
    ("letter duplicated", lambda d: d["letters"].append(["A", 1, 1]), "letters[26]"),
    ("letter lower case", _letters(0, 0, "a"), "letters[0]"),
    ("letter not NFC", _letters(4, 0, "E\u0301"), "letters[4]"),
    ("letter entry too short", lambda d: d["letters"].__setitem__(1, ["B", 3]), "letters[1]"),
    ("letter value negative", _letters(2, 1, -3), "letters[2]"),
    ("letter count negative", _letters(2, 2, -1), "letters[2]"),
    ("letter value float", _letters(2, 1, 1.5), "letters[2]"),
    ("letter is a blank mark", _letters(0, 0, "?"), "letters"),
    (
        "letter is a control character",
        _letters(0, 0, "\x01"),
        "letters: '\\x01' cannot be a letter: it holds a control",
    ),
    ("letter holds a zero-width space", _letters(0, 0, "A\u200b"), "letters: 'A\\u200b' cannot be a letter"),
    (
        "alphabet over 63 letters",
        _set("letters", [[f"{chr(65 + i // 10)}{i % 10}", 1, 1] for i in range(64)]),
        "letters",
    ),
    ("blanks negative", _set("blanks", -1), "blanks"),
    ("blank_value negative", _set("blank_value", -1), "blank_value"),
    ("fold not an object", _set("fold", [["Ё", "Е"]]), "fold"),
    ("fold target not a letter", _set("fold", {"É": "Ё"}), "fold"),
    ("fold source is a letter", _set("fold", {"A": "B"}), "fold"),
    ("default_lexicon not a string", _set("default_lexicon", 3), "default_lexicon"),
    ("default_lexicon a path", _set("default_lexicon", "../enable"), "default_lexicon"),
    ("exchange_minimum missing", lambda d: d.pop("exchange_minimum"), "exchange_minimum"),
    ("exchange_minimum a string", _set("exchange_minimum", "7"), "exchange_minimum"),
    ("exchange_minimum a bool", _set("exchange_minimum", True), "exchange_minimum"),
    ("exchange_minimum negative", _set("exchange_minimum", -1), "exchange_minimum"),
    ("exchange_minimum huge", _set("exchange_minimum", 1001), "exchange_minimum"),
    ("scoreless_turns missing", lambda d: d.pop("scoreless_turns"), "scoreless_turns"),
    ("scoreless_turns a float", _set("scoreless_turns", 6.0), "scoreless_turns"),
    ("scoreless_turns zero", _set("scoreless_turns", 0), "scoreless_turns"),
    ("scoreless_turns huge", _set("scoreless_turns", 101), "scoreless_turns"),
    ("going_out_bonus missing", lambda d: d.pop("going_out_bonus"), "going_out_bonus"),
    ("going_out_bonus null", _set("going_out_bonus", None), "going_out_bonus"),
    ("going_out_bonus negative", _set("going_out_bonus", -2), "going_out_bonus"),
    ("going_out_bonus huge", _set("going_out_bonus", 11), "going_out_bonus"),
    ("going_out_penalty missing", lambda d: d.pop("going_out_penalty"), "going_out_penalty"),
    ("going_out_penalty a string", _set("going_out_penalty", "0"), "going_out_penalty"),
    ("going_out_penalty negative", _set("going_out_penalty", -1), "going_out_penalty"),
    ("going_out_penalty huge", _set("going_out_penalty", 2**31), "going_out_penalty"),
    ("vowels missing", lambda d: d.pop("vowels"), "vowels"),
    ("vowels a string", _set("vowels", "AEIOU"), "vowels"),
    ("vowel not a letter", _set("vowels", ["A", "É"]), "vowels[1]"),
    ("vowel a blank mark", _set("vowels", ["?"]), "vowels[0]"),
    ("vowel lower case", _set("vowels", ["a"]), "vowels[0]"),
    ("vowel not a string", _set("vowels", ["A", 5]), "vowels[1]"),
    ("vowel empty", _set("vowels", [""]), "vowels[0]"),
    ("vowel twice", _set("vowels", ["A", "E", "A"]), "vowels[2]"),
    # bounds that keep every score inside the core's 32-bit integers (issue 16)
    ("letter value 2^28", _letters(0, 1, 2**28), "letters[0] value of 'A'"),
    ("letter value 2^40", _letters(0, 1, 2**40), "letters[0] value of 'A'"),
    ("letter value over the bound", _letters(0, 1, 10_001), "letters[0] value of 'A'"),
    ("letter count 256", _letters(0, 2, 256), "letters[0] count of 'A'"),
    ("blank_value 2^31", _set("blank_value", 2**31), "blank_value"),
    ("blanks 256", _set("blanks", 256), "blanks"),
    (
        "more than 1024 tiles",
        lambda d: [entry.__setitem__(2, 40) for entry in d["letters"]],
        "letters, blanks",
    ),
    ("bingo_bonus 2^31 - 1", _set("bingo_bonus", 2**31 - 1), "bingo_bonus"),
    ("bingo_bonus 2^31", _set("bingo_bonus", 2**31), "bingo_bonus"),
    ("rack_size 300", _set("rack_size", 300), "rack_size"),
    ("rack_size 33", _set("rack_size", 33), "rack_size"),
    (
        "values that could score over the core's limit",
        _letters(16, 1, 10_000),
        "letters, blank_value, layout",
    ),
    (
        "premiums that could score over the core's limit",
        _set("layout", ["Q" * 15] * 7 + ["Q" * 7 + "D" + "Q" * 7] + ["Q" * 15] * 7),
        "letters, blank_value, layout, bingo_bonus: a play could score up to 2,",
    ),
]


@pytest.mark.parametrize(("case", "mutate", "field"), BAD, ids=[case for case, _, _ in BAD])
def test_invalid_ruleset_is_refused_naming_the_field(case: str, mutate: Mutation, field: str) -> None:
    data = copy.deepcopy(raw("english"))
    mutate(data)
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(data, source="bad.json")
    message = str(caught.value)
    assert message.startswith("bad.json: "), message
    assert field in message, message


def test_error_names_the_file_on_disk(tmp_path: Path) -> None:
    data = raw("english")
    data["rack_size"] = 0
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesError, match=r"broken\.json: rack_size"):
        Rules.load(path)


def test_invalid_json_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "name": "x",\n  oops\n}\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r"broken\.json: not valid JSON.*line 3"):
        Rules.load(path)


def test_duplicate_json_key_is_refused(tmp_path: Path) -> None:
    text = json.dumps(raw("english"))
    path = tmp_path / "twice.json"
    path.write_text(text[:-1] + ', "blanks": 3}', encoding="utf-8")
    with pytest.raises(RulesError, match=r"twice\.json: blanks: appears twice"):
        Rules.load(path)


def test_top_level_must_be_an_object() -> None:
    with pytest.raises(RulesError, match="must be a JSON object"):
        Rules.from_json("[1, 2, 3]", source="list.json")


def test_unknown_ruleset_name_lists_the_available_ones() -> None:
    with pytest.raises(RulesError, match="unknown ruleset 'klingon'.*english"):
        Rules.load("klingon")


def test_missing_file_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read"):
        Rules.load(tmp_path / "absent.json")


def test_game_fields_accept_their_bounds_and_an_empty_vowel_list() -> None:
    data = raw("english")
    data.update(exchange_minimum=0, scoreless_turns=1, going_out_bonus=0, going_out_penalty=10, vowels=[])
    rules = Rules.from_dict(data)
    assert (rules.exchange_minimum, rules.scoreless_turns, rules.vowels) == (0, 1, ())
    data.update(exchange_minimum=1000, scoreless_turns=100, going_out_bonus=10)
    assert Rules.from_dict(data).to_dict() == data


def test_a_folded_spelling_is_not_a_vowel_and_the_message_says_where_it_folds() -> None:
    data = raw("erudit")
    data["vowels"] = [*data["vowels"], "Ё"]
    folded = r"vowels\[9\]: 'Ё' is not a letter of this ruleset \(it folds to 'Е'\)"
    with pytest.raises(RulesError, match=folded):
        Rules.from_dict(data, source="erudit.json")


def test_core_rules_carry_the_game_fields() -> None:
    from gaddag_solver.solver import core_rules

    for name in SHIPPED:
        rules = Rules.load(name)
        core = core_rules(rules)
        size = len(rules.alphabet)
        assert core.alphabet_size == size
        assert list(core.tile_counts)[: size + 1] == [rules.blanks, *rules.counts]
        assert not any(list(core.tile_counts)[size + 1 :])
        assert sum(core.tile_counts) == rules.tile_total
        assert core.exchange_minimum == rules.exchange_minimum
        assert core.scoreless_turns == rules.scoreless_turns
        assert core.going_out_bonus == rules.going_out_bonus
        assert core.going_out_penalty == rules.going_out_penalty


def test_bounds_are_the_cores_and_the_shipped_rulesets_are_far_inside() -> None:
    """The Python bounds are the C core's (csrc/gaddag_solver.h), and the ceiling of every shipped
    ruleset's scores (checked by both) is far below GD_MAX_SCORE."""
    from gaddag_solver import rules as module
    from gaddag_solver._core_api import lib

    assert (module.MAX_RACK, module.MAX_TILE_VALUE, module.MAX_BINGO_BONUS, module.MAX_SCORE) == (
        lib.GD_MAX_DIM,
        lib.GD_MAX_TILE_VALUE,
        lib.GD_MAX_BINGO_BONUS,
        lib.GD_MAX_SCORE,
    )
    assert (module.MAX_TILES, module.MAX_GOING_OUT_MULTIPLE) == (lib.GD_MAX_TILES, lib.GD_MAX_GOING_OUT)
    ceilings = {name: Rules.load(name).score_ceiling() for name in SHIPPED}
    # english: 10 x (7 tiles x3 + 8) x 27 (TW TW TW) + 7 cross-words x 10 x (3 + 14) x 3 + 50
    assert ceilings["english"] == 10 * (7 * 3 + 8) * 27 + 7 * 10 * 17 * 3 + 50 == 11_450
    assert max(ceilings.values()) == ceilings["super"] < module.MAX_SCORE // 10


def test_a_ruleset_at_the_bounds_is_accepted() -> None:
    """The largest rack, bonus and tile counts, with a blank worth a thousand on a plain board."""
    data = raw("english")
    data.update(rack_size=32, bingo_bonus=100_000, blanks=255, blank_value=1_000)
    data["letters"] = [[letter, 1, count] for letter, _, count in data["letters"]]
    data["layout"] = ["." * 15] * 7 + ["." * 7 + "D" + "." * 7] + ["." * 15] * 7
    rules = Rules.from_dict(data)
    # 1 000 x (15 letters x 2 + 15 cross-words of 15 letters x 2) + 100 000
    assert rules.score_ceiling() == 1_000 * (15 * 2 + 15 * 15 * 2) + 100_000 == 580_000
    assert rules.to_dict() == data
