"""CGP lines (cgp.py): the 62 reference positions round-trip and agree with their grids; every
malformed line is refused with a message that says which field and where."""

from __future__ import annotations

from pathlib import Path

import pytest
from gaddag_solver import CgpError, Position, PositionError, Rack, Rules, format_cgp, parse_cgp
from gaddag_solver.alphabet import BLANK_FLAG
from oracle import parse_positions_txt

DATA = Path(__file__).resolve().parent / "data" / "sowpods"
ENGLISH = Rules.load("english")
EMPTY_ROWS = "/".join(["15"] * 15)


def reference_lines() -> list[str]:
    return (DATA / "positions.cgp").read_text(encoding="utf-8").splitlines()


def with_row(row: int, text: str, rows: int = 15, cols: int = 15) -> str:
    """A board field with one row replaced."""
    fields = [str(cols)] * rows
    fields[row] = text
    return "/".join(fields)


# ---- the reference positions -------------------------------------------------------------------


def test_reference_positions_round_trip() -> None:
    lines = reference_lines()
    assert len(lines) == 62
    for line in lines:
        position = parse_cgp(line, ENGLISH)
        assert format_cgp(position) == line
        assert position.to_cgp() == line
        assert parse_cgp(format_cgp(position), ENGLISH) == position


def test_reference_positions_agree_with_the_grids() -> None:
    grids = parse_positions_txt(DATA / "positions.txt")
    lines = reference_lines()
    blanks_seen = 0
    for number, (line, (grid, rack)) in enumerate(zip(lines, grids, strict=True)):
        position = parse_cgp(line, ENGLISH)
        assert position.board.grid() == grid, f"position {number}"
        assert str(position.rack) == rack
        assert position.opponent_rack is not None and len(position.opponent_rack) == 0
        assert position.scores == (0, 0)
        assert position.zero_turns == 0
        assert position.opcodes == {"lex": "SOWPODS"}
        assert position.lexicon == "SOWPODS"
        blanks_seen += sum(1 for code in position.board.codes() if code & BLANK_FLAG)
    assert blanks_seen > 0  # the set exercises blanks on the board


def test_board_from_cgp_returns_the_position() -> None:
    line = reference_lines()[2]
    position = parse_cgp(line, ENGLISH)
    assert isinstance(position, Position)
    assert position.board[5, 3] == "C"  # 3CONTROLE4 on row 6
    assert "".join(position.board[5, c] or "." for c in range(15)) == "...CONTROLE...."
    assert str(position.rack) == "AAGLNOS"


# ---- fields -------------------------------------------------------------------------------------------


def test_runs_letters_blanks_and_multi_digit_counts() -> None:
    super_rules = Rules.load("super")
    rows = ["21"] * 21
    rows[10] = "8CAt10"
    rows[11] = "10s10"
    position = parse_cgp("/".join(rows) + " ?QI/ 12/-3 2", super_rules)
    board = position.board
    assert (board[10, 8], board[10, 9], board[10, 10], board[11, 10]) == ("C", "A", "t", "s")
    assert board.codes()[10 * 21 + 10] == super_rules.alphabet.code("T") | BLANK_FLAG
    assert position.scores == (12, -3)
    assert position.zero_turns == 2
    assert position.opcodes == {}
    assert format_cgp(position) == "/".join(rows) + " ?QI/ 12/-3 2"


def test_optional_fields_and_opcodes() -> None:
    position = parse_cgp(f"{EMPTY_ROWS} aeinrst", ENGLISH)
    assert str(position.rack) == "AEINRST"
    assert position.opponent_rack is None
    assert (position.scores, position.zero_turns, position.opcodes) == ((0, 0), 0, {})
    assert format_cgp(position) == f"{EMPTY_ROWS} AEINRST/ 0/0 0"

    line = f'{EMPTY_ROWS} AB/CDE 300/288 1 lex CSW21; ld english; note "a; b"; bare;'
    position = parse_cgp(line, ENGLISH)
    assert str(position.opponent_rack) == "CDE"
    assert position.opcodes == {"lex": "CSW21", "ld": "english", "note": '"a; b"', "bare": ""}
    assert format_cgp(position) == line
    assert parse_cgp(f"{EMPTY_ROWS} AB/ 0/0 0 lex NWL20", ENGLISH).opcodes == {"lex": "NWL20"}


def test_non_ascii_letters_round_trip() -> None:
    polish = Rules.load("polish")
    line = with_row(7, "6ŻĄĆź5") + " ĄĘŁ?ŃÓŚ/ŹŻ 0/0 0 lex OSPS;"
    position = parse_cgp(line, polish)
    assert [position.board[7, c] for c in range(6, 10)] == ["Ż", "Ą", "Ć", "ź"]
    assert position.rack.tiles == ("Ą", "Ę", "Ł", "?", "Ń", "Ó", "Ś")
    assert format_cgp(position) == line

    russian = Rules.load("russian")
    line = with_row(7, "7ЁЖик4") + " ЯЮЭ?/ 5/7 0"
    position = parse_cgp(line, russian)
    assert [position.board[7, c] for c in range(7, 11)] == ["Ё", "Ж", "и", "к"]
    assert format_cgp(position) == line

    erudit = Rules.load("erudit")  # Ё is read as Е
    position = parse_cgp(with_row(7, "7ЁЖ6") + " ёж/ 0/0 0", erudit)
    assert position.board[7, 7] == "Е"
    assert position.rack.tiles == ("Е", "Ж")
    assert format_cgp(position) == with_row(7, "7ЕЖ6") + " ЕЖ/ 0/0 0"


def test_lower_case_letters_in_racks_are_tiles_not_blanks() -> None:
    position = parse_cgp(f"{EMPTY_ROWS} qi?/ 0/0 0", ENGLISH)
    assert position.rack == Rack("QI?", ENGLISH)


def test_floating_tiles_parse_and_round_trip() -> None:
    # positions from other programs may hold tiles away from the start square: read, not refused
    for line in (
        with_row(0, "ZO13") + " A/ 0/0 0",
        with_row(7, "7ZO6").replace("/15/15/15", "/15/QI13/15", 1) + " A/ 0/0 0",
    ):
        position = parse_cgp(line, ENGLISH)
        assert format_cgp(position) == line and position.board.tile_count() in (2, 4)


# ---- errors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "empty CGP line"),
        (EMPTY_ROWS, "at least a board and a rack"),
        ("/".join(["15"] * 14) + " A/ 0/0 0", "CGP board has 14 rows, the English Scrabble rules need 15"),
        (
            with_row(3, "14") + " A/ 0/0 0",
            "CGP board row 4 has 14 squares, the English Scrabble rules need 15",
        ),
        (with_row(3, "15A") + " A/ 0/0 0", "CGP board row 4 has more than 15 squares"),
        (with_row(3, "8ABCDEFGH") + " A/ 0/0 0", "CGP board row 4 has more than 15 squares"),
        (with_row(0, "") + " A/ 0/0 0", "CGP board row 1 is empty"),
        (with_row(7, "7Ж7") + " A/ 0/0 0", "CGP board row 8, column 8 (H8): 'Ж' is not a letter"),
        (with_row(7, "7?7") + " A/ 0/0 0", "CGP board row 8, column 8 (H8): '?' is not a letter"),
        (with_row(7, "0A14") + " A/ 0/0 0", "row 8, column 1: a run of 0 empty squares"),
        (with_row(7, "7[CH]7") + " A/ 0/0 0", "'CH' is not a letter"),
        (with_row(7, "7[C7") + " A/ 0/0 0", "'[' at position 2 is not closed"),
        (f"{EMPTY_ROWS} AEINRSTX/ 0/0 0", "CGP rack: rack 'AEINRSTX' has 8 tiles"),
        (f"{EMPTY_ROWS} A1/ 0/0 0", "CGP rack: rack tile '1' is not a letter"),
        (f"{EMPTY_ROWS} A/B/C 0/0 0", "more than one '/'"),
        (f"{EMPTY_ROWS} A/B1 0/0 0", "CGP opponent's rack: rack tile '1'"),
        (f"{EMPTY_ROWS} A/ 0/x 0", "CGP scores: '0/x' is not PLAYER/OPPONENT"),
        (f"{EMPTY_ROWS} A/ 0/0 x", "CGP zero-turn count: 'x' is not a whole number"),
        (f"{EMPTY_ROWS} A/ 0/0", "CGP zero-turn count: missing"),
        (f"{EMPTY_ROWS} A/ 0/0 0 lex A; lex B;", "'lex' appears twice"),
        (f'{EMPTY_ROWS} A/ 0/0 0 note "open;', "double quote is not closed"),
        (f"{EMPTY_ROWS} A/ 0/0 0 1bad x;", "'1bad' is not an opcode name"),
        (with_row(7, "05A9") + " A/ 0/0 0", "row 8, column 1: a run written '05', write 5"),
        (with_row(7, "7A07") + " A/ 0/0 0", "row 8, column 9: a run written '07', write 7"),
        (with_row(7, "015") + " A/ 0/0 0", "row 8, column 1: a run written '015', write 15"),
        (
            f"{EMPTY_ROWS} A/ 0/0 0 lex CSW21; junk",
            f"CGP opcodes: 'junk' at column {len(EMPTY_ROWS) + 22} follows the last opcode's ';'",
        ),
        (f"{EMPTY_ROWS} A/ 0/0 0 lex CSW21;x y ", "'x y' at column"),
    ],
)
def test_errors_say_what_and_where(line: str, message: str) -> None:
    with pytest.raises(CgpError) as info:
        parse_cgp(line, ENGLISH)
    assert message in str(info.value)
    assert isinstance(info.value, PositionError) and isinstance(info.value, ValueError)


def test_errors_for_other_board_sizes() -> None:
    with pytest.raises(CgpError, match="CGP board has 15 rows, the Super Scrabble rules need 21"):
        parse_cgp(f"{EMPTY_ROWS} A/ 0/0 0", Rules.load("super"))
    with pytest.raises(CgpError, match="CGP board row 1 has 15 squares, the Super Scrabble rules need 21"):
        parse_cgp("/".join(["15"] + ["21"] * 20) + " A/ 0/0 0", Rules.load("super"))
