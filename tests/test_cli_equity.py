"""`gaddag-solver solve` with equity: --leaves, --equity, --exchanges, --bag, --unseen.

The oracles are recomputed here from first principles: a leave table built from CSV text written
in the test (a leave it does not list is worth 0; the full rack a pass keeps, the sum of its
6-tile sub-racks' values over 6), equity = score + that value while the bag holds tiles, the
empty-bag rule of csrc/gaddag_solver.h (gd_equity_options), the number of distinct exchanges of
a rack (∏(cᵢ+1) − 1 over its tile counts), and the unseen tiles counted off the ruleset's
distribution."""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import product
from pathlib import Path

import pytest
from gaddag_solver import Rules, parse_cgp
from gaddag_solver.cli import main
from gaddag_solver.formats.leaves import Leaves
from leave_csv import full_rack_hundredths

ENGLISH = Rules.load("english")
EMPTY = "/".join(["15"] * 15)
OPENING = f"{EMPTY} AEERST?/ 0/0 0"
# CARE across at 8G, A and T below its E: 6 tiles on the board
MIDGAME = "/".join(["15"] * 7 + ["6CARE5", "9A5", "9T5"] + ["15"] * 5) + " EEINRST/ 0/0 0"


def sub_leaves(rack: str) -> list[str]:
    """Every distinct multiset of 1 to 6 tiles of the rack, sorted."""
    counts = Counter(rack)
    tiles = sorted(counts)
    found = []
    for taken in product(*(range(counts[tile] + 1) for tile in tiles)):
        leave = "".join(tile * n for tile, n in zip(tiles, taken, strict=True))
        if 1 <= len(leave) <= 6:
            found.append(leave)
    return found


def csv_text(racks: list[str]) -> str:
    """Values for two leaves in three of those the racks can keep (the rest are left out, so
    worth 0), written in mixed order and case, with a comment and a blank line."""
    lines = ["# leave,value", ""]
    leaves = sorted({leave for rack in racks for leave in sub_leaves(rack)})
    for i, leave in enumerate(leaves):
        if i % 3 == 2:
            continue
        value = round(((i * 37) % 401 - 200) / 8, 2)  # -25 .. +25, quarters
        written = leave[::-1].lower() if i % 2 else leave
        lines.append(f"{written},{value}")
    return "\n".join(lines) + "\n"


def csv_values(text: str) -> dict[str, float]:
    """The test's own reading of the CSV: sorted upper-case leave → points."""
    values = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        leave, value = line.split(",")
        values["".join(sorted(leave.upper()))] = float(value)
    return values


def leave_worth(values: dict[str, float], leave: str) -> float:
    """What keeping `leave` is worth: the CSV's value (0 for a leave it does not list); for a
    full rack of 7 tiles (the pass), which no table holds, the rule recomputed from the values
    of its 6-tile sub-racks (leave_csv.full_rack_hundredths)."""
    if len(leave) < ENGLISH.rack_size:
        return values.get("".join(sorted(leave)), 0.0)
    return full_rack_hundredths(lambda key: round(100 * values.get(key, 0.0)), leave) / 100


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, float]]:
    racks = [str(parse_cgp(line, ENGLISH).rack) for line in (OPENING, MIDGAME)]
    text = csv_text(racks)
    path = tmp_path_factory.mktemp("leaves") / "test.leaves"
    Leaves.from_csv_text(text, ENGLISH).save(path)
    return str(path), csv_values(text)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def solve_json(capsys: pytest.CaptureFixture[str], lexicon_path: str, *argv: str) -> dict:
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--format", "json", *argv)
    assert code == 0, err
    return json.loads(out)


def exchange_count(rack: str) -> int:
    return math.prod(n + 1 for n in Counter(rack).values()) - 1


def check_equities(moves: list[dict], rack: str, values: dict[str, float]) -> None:
    """Every move: equity = score + the CSV's value of its leave; tiles used + leave = rack; the
    list ranked by equity."""
    assert moves
    for move in moves:
        worth = leave_worth(values, move["leave"])
        assert move["leave_value"] == pytest.approx(worth), move
        assert move["equity"] == pytest.approx(move["score"] + worth), move
        used = move["exchanged"] if move.get("kind") == "exchange" else move["tiles_used"]
        assert sorted(used + move["leave"]) == sorted(rack), move
    equities = [move["equity"] for move in moves]
    assert equities == sorted(equities, reverse=True)


# ---- equity with a table --------------------------------------------------------------------------


@pytest.mark.parametrize("line", [OPENING, MIDGAME])
def test_equity_is_score_plus_the_csv_value(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, table: tuple[str, dict[str, float]], line: str
) -> None:
    path, values = table
    rack = str(parse_cgp(line, ENGLISH).rack)
    result = solve_json(capsys, lexicon_path, "--cgp", line, "--leaves", path)
    plays = result["moves"]
    assert result["count"] == len(plays) > 20
    assert all("kind" not in move for move in plays)  # plays only, without --exchanges
    check_equities(plays, rack, values)
    assert any(move["leave_value"] != 0 for move in plays) and any(move["leave_value"] == 0 for move in plays)
    # the same plays as without a table, only valued and ranked differently
    plain = solve_json(capsys, lexicon_path, "--cgp", line)["moves"]
    key = ("coord", "word", "score", "leave")
    assert sorted(tuple(m[k] for k in key) for m in plain) == sorted(tuple(m[k] for k in key) for m in plays)
    assert all("equity" not in move for move in plain)


def test_exchanges_and_the_pass(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, table: tuple[str, dict[str, float]]
) -> None:
    path, values = table
    rack = "AEERST?"
    result = solve_json(capsys, lexicon_path, "--cgp", OPENING, "--leaves", path, "--exchanges")
    moves = result["moves"]
    check_equities(moves, rack, values)
    exchanges = [move for move in moves if move.get("kind") == "exchange"]
    passes = [move for move in moves if move.get("kind") == "pass"]
    plays = [move for move in moves if "kind" not in move]
    assert len(exchanges) == exchange_count(rack) == 95
    assert len({"".join(sorted(move["exchanged"])) for move in exchanges}) == len(exchanges)  # distinct
    assert all(move["score"] == 0 and move["word"] == "" for move in exchanges + passes)
    # the whole rack kept, valued from its 6-tile sub-racks (check_equities recomputed it)
    assert len(passes) == 1 and passes[0]["leave"] == rack and passes[0]["equity"] != 0
    assert result["count"] == len(moves) and "plays" not in result  # the plays counted: table only
    assert len(plays) == solve_json(capsys, lexicon_path, "--cgp", OPENING)["count"]


@pytest.mark.parametrize(("bag", "exchanges"), [("6", 0), ("7", exchange_count("EEINRST"))])
def test_no_exchange_below_the_minimum(
    capsys: pytest.CaptureFixture[str],
    lexicon_path: str,
    table: tuple[str, dict[str, float]],
    bag: str,
    exchanges: int,
) -> None:
    path, values = table
    argv = ["--cgp", MIDGAME, "--leaves", path, "--exchanges", "--bag", bag]
    moves = solve_json(capsys, lexicon_path, *argv)["moves"]
    check_equities(moves, "EEINRST", values)
    assert sum(move.get("kind") == "exchange" for move in moves) == exchanges
    assert sum(move.get("kind") == "pass" for move in moves) == 1


def test_equity_without_a_table(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    moves = solve_json(capsys, lexicon_path, "--cgp", MIDGAME, "--equity", "--leaves", "none", "--exchanges")[
        "moves"
    ]
    check_equities(moves, "EEINRST", {})
    assert moves[-1]["equity"] == 0  # the exchanges and the pass, worth nothing, come last


def test_equity_alone_uses_the_lexicons_trained_table(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path
) -> None:
    """--equity without --leaves: the table named after the lexicon (here a copy of the small
    lexicon named sowpods.gaddag, so the shipped sowpods table applies)."""
    named = tmp_path / "sowpods.gaddag"
    named.write_bytes(Path(lexicon_path).read_bytes())
    shipped = Leaves.load("sowpods", ENGLISH)
    assert Leaves.for_lexicon("sowpods").to_bytes() == shipped.to_bytes()
    moves = solve_json(capsys, str(named), "--cgp", MIDGAME, "--equity", "--exchanges")["moves"]
    values = {"".join(sorted(m["leave"])): shipped.value(m["leave"]) for m in moves}
    assert any(values.values())
    check_equities(moves, "EEINRST", values)
    code, out, _ = run(capsys, "--lexicon", str(named), "--cgp", MIDGAME, "--equity")
    assert code == 0 and "ranked by equity (leaves: sowpods)" in out
    # enable shares twl06's table; a lexicon of another name has none
    assert Leaves.for_lexicon("enable").to_bytes() == Leaves.load("twl06").to_bytes()
    assert Leaves.for_lexicon("small") is None
    # Super Scrabble plays ENABLE with 200 tiles: twl06's 100-tile table is not its default
    enable = tmp_path / "enable.gaddag"
    enable.write_bytes(Path(lexicon_path).read_bytes())
    super_board = "/".join(["21"] * 21) + " EEINRST/ 0/0 0"
    code, out, err = run(
        capsys, "--lexicon", str(enable), "--rules", "super", "--cgp", super_board, "--equity"
    )
    expected = Leaves.for_lexicon("enable", Rules.load("super"))
    named = "none" if expected is None else Path(expected.source).stem
    assert code == 0 and f"(leaves: {named})" in out.replace("every leave 0", "none"), out + err


def test_the_empty_bag_rule(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, table: tuple[str, dict[str, float]]
) -> None:
    """--bag 0: no leave (the table is not read); going out gains twice the unseen tiles' value
    (english: going_out_bonus 2 + penalty 0), any other move loses twice what it keeps + 10."""
    path, _values = table
    position = parse_cgp(MIDGAME, ENGLISH)
    value = dict(zip(ENGLISH.alphabet.letters, ENGLISH.values, strict=True))
    value["?"] = ENGLISH.blank_value
    on_board = Counter(letter for row in position.board.grid() for letter in row if letter)
    unseen = Counter(
        {letter: count for letter, count in zip(ENGLISH.alphabet.letters, ENGLISH.counts, strict=True)}
    )
    unseen["?"] = ENGLISH.blanks
    unseen.subtract(on_board + Counter("EST"))
    opponent = sum(value[letter] * count for letter, count in unseen.items())
    argv = ["--cgp", MIDGAME, "--rack", "EST", "--leaves", path, "--exchanges", "--bag", "0", "--all"]
    moves = solve_json(capsys, lexicon_path, *argv)["moves"]
    assert not any(move.get("kind") == "exchange" for move in moves)
    assert sum(move.get("kind") == "pass" for move in moves) == 1
    going_out = 0
    for move in moves:
        kept = sum(value[tile] for tile in move["leave"])
        expected = 2 * opponent if not move["leave"] else -2 * kept - 10
        assert move["leave_value"] == pytest.approx(expected), move
        going_out += not move["leave"]
    assert going_out > 0


# ---- the other formats and batch mode --------------------------------------------------------------


def test_table_format(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, table: tuple[str, dict[str, float]]
) -> None:
    path, values = table
    argv = ["--lexicon", lexicon_path, "--cgp", MIDGAME, "--leaves", path, "--exchanges", "--all"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    header, *rows, summary = out.splitlines()
    assert header.split() == ["coord", "word", "score", "leave", "leave_value", "equity"]
    starts = [header.index(name) for name in header.split()] + [None]
    equities = []
    kinds: Counter[str] = Counter()
    for row in rows:
        coord, word, score, leave, leave_value, equity = (
            row[start:end].strip() for start, end in zip(starts, starts[1:], strict=False)
        )
        kinds[coord if coord in ("exch", "pass") else "play"] += 1
        assert (coord, word) != ("pass", "") or leave == "EEINRST"
        assert float(leave_value) == pytest.approx(leave_worth(values, leave)), row
        assert float(equity) == pytest.approx(int(score) + leave_worth(values, leave)), row
        if coord == "exch":
            assert sorted(word + leave) == sorted("EEINRST"), row
        equities.append(float(equity))
    assert equities == sorted(equities, reverse=True)
    assert kinds["exch"] == exchange_count("EEINRST") and kinds["pass"] == 1
    expected = f"{kinds['play']} plays, {kinds['exch']} exchanges and the pass, ranked by equity"
    assert summary == f"{expected} (leaves: {Path(path).stem})"
    assert kinds["play"] == solve_json(capsys, lexicon_path, "--cgp", MIDGAME)["count"]
    assert any(row.startswith("pass ") for row in rows)
    code, out, _ = run(capsys, *argv[:-1], "--top", "5")
    assert code == 0 and out.splitlines()[-1] == f"{summary}; the best 5 shown"


def test_exchanges_alone_rank_by_score(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    moves = solve_json(capsys, lexicon_path, "--cgp", MIDGAME, "--exchanges")["moves"]
    check_equities(moves[-96:], "EEINRST", {})  # 95 exchanges and the pass, all scoring 0, come last
    assert {move.get("kind") for move in moves[-96:]} == {"exchange", "pass"}
    scores = [move["score"] for move in moves]
    assert scores == sorted(scores, reverse=True) and all(m["equity"] == m["score"] for m in moves)
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", MIDGAME, "--exchanges")
    assert code == 0 and out.splitlines()[0].split()[-2:] == ["leave_value", "equity"]
    assert "ranked by equity" not in out and out.splitlines()[-1].endswith("; the best 10 shown")


def test_tsv_and_jsonl(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, table: tuple[str, dict[str, float]]
) -> None:
    path, values = table
    argv = ["--lexicon", lexicon_path, "--cgp", OPENING, "--leaves", path, "--exchanges"]
    code, out, _ = run(capsys, *argv, "--format", "tsv")
    assert code == 0
    header, *rows = out.splitlines()
    columns = header.split("\t")
    assert columns[:6] == ["coord", "word", "score", "leave", "leave_value", "equity"]
    assert columns[-2:] == ["kind", "exchanged"]
    as_dicts = [dict(zip(columns, row.split("\t"), strict=True)) for row in rows]
    for move in as_dicts:
        assert float(move["equity"]) == pytest.approx(int(move["score"]) + leave_worth(values, move["leave"]))
    assert Counter(move["kind"] for move in as_dicts)["exchange"] == exchange_count("AEERST?")
    code, out, _ = run(capsys, *argv, "--format", "jsonl")
    moves = json.loads(out)["moves"]
    assert [(m["score"], m["leave"], m["equity"]) for m in moves] == [
        (int(m["score"]), m["leave"], float(m["equity"])) for m in as_dicts
    ]


def test_batch(
    capsys: pytest.CaptureFixture[str],
    lexicon_path: str,
    table: tuple[str, dict[str, float]],
    tmp_path: Path,
) -> None:
    path, values = table
    batch = tmp_path / "positions.cgp"
    batch.write_text(f"{OPENING}\n{MIDGAME}\n", encoding="utf-8")
    argv = ["--lexicon", lexicon_path, "--batch", str(batch), "--leaves", path, "--exchanges", "--unseen"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    results = [json.loads(text) for text in out.splitlines()]
    for result, line in zip(results, (OPENING, MIDGAME), strict=True):
        rack = str(parse_cgp(line, ENGLISH).rack)
        check_equities(result["moves"], rack, values)
        assert sum(move.get("kind") == "exchange" for move in result["moves"]) == exchange_count(rack)
        assert result["unseen"]["total"] == 100 - len(rack) - sum(c.isalpha() for c in line.split()[0])
    code, out, _ = run(capsys, *argv, "--format", "table", "--top", "3")
    assert code == 0 and out.count("ranked by equity (leaves: test); the best 3 shown") == 2
    assert out.count("unseen: ") == 2


# ---- unseen tiles --------------------------------------------------------------------------------


def test_unseen(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    position = parse_cgp(MIDGAME, ENGLISH)
    expected = Counter(dict(zip(ENGLISH.alphabet.letters, ENGLISH.counts, strict=True)))
    expected["?"] = ENGLISH.blanks
    expected.subtract(Counter(letter for row in position.board.grid() for letter in row if letter))
    expected.subtract(Counter(str(position.rack)))
    total = sum(expected.values())
    vowels = sum(expected[letter] for letter in "AEIOU")
    unseen = solve_json(capsys, lexicon_path, "--cgp", MIDGAME, "--unseen")["unseen"]
    assert unseen["counts"] == {letter: expected[letter] for letter in [*ENGLISH.alphabet.letters, "?"]}
    assert (unseen["total"], unseen["bag"]) == (total, total - 7) == (87, 80)
    assert (unseen["vowels"], unseen["consonants"], unseen["blanks"]) == (vowels, total - vowels - 2, 2)
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", MIDGAME, "--unseen", "--bag", "12")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["coord", "word", "score", "leave"]  # --bag alone values nothing
    assert (
        lines[-2]
        == f"unseen: 87 tiles, 12 in the bag; {vowels} vowels, {total - vowels - 2} consonants, 2 blanks"
    )
    assert lines[-1].split() == [f"{letter}{n}" for letter, n in unseen["counts"].items() if n]
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", MIDGAME, "--format", "tsv", "--unseen")
    assert code == 0 and "unseen" not in out  # table and JSON only


# ---- errors and help ------------------------------------------------------------------------------


def test_bad_tables_exit_2_naming_the_file(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path
) -> None:
    polish = Rules.load("polish")
    foreign = tmp_path / "polish.leaves"
    Leaves.from_csv_text("Ą,3\n", polish).save(foreign)
    corrupt = tmp_path / "corrupt.leaves"
    corrupt.write_bytes(b"GDLV" + bytes(60))
    missing = tmp_path / "missing.leaves"
    for path, words in ((foreign, "ruleset 'polish'"), (corrupt, ""), (missing, "no leave table")):
        code, out, err = run(capsys, "--lexicon", lexicon_path, "--cgp", OPENING, "--leaves", str(path))
        assert (code, out) == (2, ""), err
        assert err.startswith("error: --leaves: ") and str(path) in err and words in err, err
        assert err.count("\n") == 1
    code, _, err = run(capsys, "--lexicon", lexicon_path, "--cgp", OPENING, "--bag", "3")
    assert code == 2 and err == "error: --bag goes with --leaves, --equity, --exchanges or --unseen\n"


def test_help_explains_equity(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "A leave missing from the table is worth 0" in text and "`none`: every leave worth 0" in text
    assert "with the lexicon's own table" in text
    assert "With the bag empty there is no leave" in text and "plus 10 points" in text
    assert "--exchanges" in text and "--bag N" in text and "--unseen" in text
