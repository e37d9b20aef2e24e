"""`gaddag-solver solve`: its JSON output against the brute-force oracle (tests/oracle.py) on a
small lexicon built here, the other formats, batch mode with bad lines, and the one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Rules, parse_cgp
from gaddag_solver.cli import main
from oracle import OracleRules, expected_to_placements, generate
from small_words import WORDS

ENGLISH = Rules.load("english")
REPO = Path(__file__).resolve().parent.parent


EMPTY = "/".join(["15"] * 15)


def cgp(rows: dict[int, str], rack: str, extra: str = "0/0 0") -> str:
    fields = ["15"] * 15
    for row, text in rows.items():
        fields[row] = text
    return f"{'/'.join(fields)} {rack}/ {extra}"


POSITIONS = [
    f"{EMPTY} CARETS?/ 0/0 0",
    cgp({7: "6CARE5", 8: "9A5", 9: "9T5"}, "AEIRST?"),
    cgp({5: "8Q6", 6: "8I6", 7: "6CArE5", 8: "9A5", 9: "6TAXES4"}, "QATZOXE"),
    cgp({7: "6CARE5"}, "ESNT"),
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def oracle_plays(line: str) -> set:
    position = parse_cgp(line, ENGLISH)
    rack = str(position.rack)
    return generate(position.board.grid(), rack, set(WORDS), OracleRules.english())


def json_plays(line: str, result: dict) -> set:
    grid = parse_cgp(line, ENGLISH).board.grid()
    return {
        (
            expected_to_placements(
                grid, move["row"], move["col"], "H" if move["direction"] == "across" else "V", move["word"]
            ),
            move["score"],
        )
        for move in result["moves"]
    }


# ---- against the oracle ------------------------------------------------------------------------------


@pytest.mark.parametrize("line", POSITIONS)
def test_json_output_matches_the_oracle(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, line: str
) -> None:
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--cgp", line, "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    want = oracle_plays(line)
    assert result["count"] == len(result["moves"]) == len(want)  # json lists every play by default
    assert json_plays(line, result) == want
    scores = [move["score"] for move in result["moves"]]
    assert scores == sorted(scores, reverse=True)
    rack = str(parse_cgp(line, ENGLISH).rack)
    for move in result["moves"]:
        assert set(move) >= {"row", "col", "direction", "word", "score", "coord", "tiles_used", "leave"}
        assert sorted(move["tiles_used"] + move["leave"]) == sorted(rack)
        column = chr(ord("A") + move["col"])
        expected = (
            f"{move['row'] + 1}{column}" if move["direction"] == "across" else f"{column}{move['row'] + 1}"
        )
        assert move["coord"] == expected


def test_top_and_all(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    line = POSITIONS[1]
    _, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", line, "--format", "jsonl", "--all")
    everything = json.loads(out)
    assert everything["count"] == len(everything["moves"]) > 100
    _, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", line, "--format", "json", "--top", "5")
    top = json.loads(out)
    assert top["count"] == everything["count"]  # the total, though only 5 are listed
    assert top["moves"] == everything["moves"][:5]


def test_words_formed(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    line = POSITIONS[2]
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", line, "--format", "json", "--words")
    assert code == 0
    moves = json.loads(out)["moves"]
    crossing = 0
    for move in moves:
        words = move["words"]
        assert words[0]["word"] == move["word"]
        bingo = 50 if len(move["tiles_used"]) == 7 else 0
        assert sum(word["score"] for word in words) + bingo == move["score"]
        crossing += len(words) > 1
    assert crossing > 0


# ---- formats --------------------------------------------------------------------------------------------


def test_table(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", POSITIONS[1])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["coord", "word", "score", "leave"]
    rows = lines[1:-1]
    assert len(rows) == 10  # the default for a table
    score_end = lines[0].index("score") + len("score")
    for row in rows:
        assert row[score_end - 1].isdigit() and row[score_end : score_end + 1] in ("", " ")  # right-aligned
    total = len(oracle_plays(POSITIONS[1]))
    assert lines[-1] == f"{total:,} plays; the best 10 shown"
    _, json_out, _ = run(
        capsys, "--lexicon", lexicon_path, "--cgp", POSITIONS[1], "--format", "json", "--top", "10"
    )
    best = json.loads(json_out)["moves"]
    assert [row.split()[:3] for row in rows] == [[m["coord"], m["word"], str(m["score"])] for m in best]


def test_tsv(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--cgp", POSITIONS[3], "--format", "tsv")
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split("\t") == ["coord", "word", "score", "leave", "row", "col", "direction", "tiles_used"]
    assert len(rows) == len(oracle_plays(POSITIONS[3]))
    assert all(len(row.split("\t")) == 8 for row in rows)


def test_board_file_and_rack(capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path) -> None:
    position = parse_cgp(POSITIONS[1], ENGLISH)
    board_file = tmp_path / "board.txt"
    board_file.write_text(position.board.to_text(), encoding="utf-8")
    argv = [
        "--lexicon",
        lexicon_path,
        "--board",
        str(board_file),
        "--rack",
        "aeirst?",
        "--all",
        "--format",
        "json",
    ]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert json_plays(POSITIONS[1], json.loads(out)) == oracle_plays(POSITIONS[1])
    # the positions.txt block form: the rack on the line after the board
    board_file.write_text(position.board.to_text() + "AEIRST?\n", encoding="utf-8")
    code, out2, _ = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--format", "json")
    assert code == 0 and json.loads(out2) == json.loads(out)


# ---- batch --------------------------------------------------------------------------------------------


def test_batch_with_bad_lines(capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path) -> None:
    bad_rack = f"{EMPTY} AB1/ 0/0 0"
    bad_board = "/".join(["15"] * 14) + " AB/ 0/0 0"
    lines = [POSITIONS[0], "", "# a comment", bad_rack, POSITIONS[1], bad_board, POSITIONS[3]]
    batch = tmp_path / "positions.cgp"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--batch", str(batch))
    assert code == 1  # some lines failed
    results = [json.loads(text) for text in out.splitlines()]
    assert [result["line"] for result in results] == [1, 4, 5, 6, 7]
    assert results[1] == {
        "line": 4,
        "error": "CGP rack: rack tile '1' is not a letter of the English Scrabble alphabet",
    }
    assert results[3] == {"line": 6, "error": "CGP board has 14 rows, the English Scrabble rules need 15"}
    for result, line in ((results[0], POSITIONS[0]), (results[2], POSITIONS[1]), (results[4], POSITIONS[3])):
        assert result["count"] == len(result["moves"])
        assert json_plays(line, result) == oracle_plays(line)
    assert "Traceback" not in err


def test_batch_with_bytes_that_are_not_utf8(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path
) -> None:
    """A byte that is not UTF-8 spoils only its own line: it is reported with the line number and
    where in the line, like any bad line, and every good line is still solved (issue 16). A byte
    order mark at the start is skipped, and line numbers count LF, CRLF and CR ends only."""
    lines = [
        POSITIONS[0].encode(),
        POSITIONS[1].encode()[:20] + b"\xff" + POSITIONS[1].encode()[21:],
        POSITIONS[3].encode(),
        b"# caf\xe9\x85 in a comment is still a bad line",
        "15/15 \u2028 AB/".encode(),
    ]
    batch = tmp_path / "positions.cgp"
    batch.write_bytes(b"\xef\xbb\xbf" + lines[0] + b"\r\n" + b"\n".join(lines[1:]) + b"\n")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--batch", str(batch))
    assert code == 1
    results = [json.loads(text) for text in out.splitlines()]
    assert [result["line"] for result in results] == [1, 2, 3, 4, 5]
    assert results[1] == {"line": 2, "error": "not UTF-8 text (byte 0xff at column 21)"}
    assert results[3] == {"line": 4, "error": "not UTF-8 text (byte 0xe9 at column 6)"}
    assert results[4]["error"].startswith("CGP board has 2 rows")
    for result, line in ((results[0], POSITIONS[0]), (results[2], POSITIONS[3])):
        assert json_plays(line, result) == oracle_plays(line)
    assert "Traceback" not in err
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--batch", str(batch), "--format", "tsv")
    assert code == 1 and "error: line 2: not UTF-8 text (byte 0xff at column 21)\n" in err
    assert {row.split("\t")[0] for row in out.splitlines()[1:]} == {"1", "3"}


def test_batch_all_good(capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path) -> None:
    batch = tmp_path / "positions.cgp"
    batch.write_text("\n".join(POSITIONS), encoding="utf-8")
    code, out, _ = run(capsys, "--lexicon", lexicon_path, "--batch", str(batch), "--top", "3")
    assert code == 0
    results = [json.loads(text) for text in out.splitlines()]
    assert [len(result["moves"]) for result in results] == [3, 3, 3, 3]
    assert [result["count"] for result in results] == [len(oracle_plays(line)) for line in POSITIONS]


# ---- errors and warnings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--lexicon", "no-such-lexicon", "--cgp", POSITIONS[0]],
            "error: no lexicon named 'no-such-lexicon'",
        ),
        (["--cgp", f"{EMPTY} AB1/ 0/0 0"], "error: CGP rack: rack tile '1' is not a letter of the English"),
        (["--cgp", POSITIONS[0], "--rack", "AEIOUXYZ"], "error: rack 'AEIOUXYZ' has 8 tiles"),
        (["--rules", "nonesuch", "--cgp", POSITIONS[0]], "error: unknown ruleset 'nonesuch'"),
        (
            ["--rules", "polish", "--cgp", "/".join(["15"] * 15) + " Ą/"],
            "error: lexicon 'small' has the alphabet",
        ),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, argv: list[str], message: str
) -> None:
    if "--lexicon" not in argv:
        argv = ["--lexicon", lexicon_path, *argv]
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err.startswith(message), err
    assert err.count("\n") == 1


def test_bad_board_file(capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path) -> None:
    board_file = tmp_path / "board.txt"
    board_file.write_text(("." * 15 + "\n") * 7 + ".......CAж" + "." * 5 + "\n" + ("." * 15 + "\n") * 7)
    code, _, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AB")
    assert (code, err) == (
        1,
        "error: square J8: 'ж' is not a letter of the English Scrabble alphabet"
        " ('ж' is a Cyrillic letter; these letters are Latin, A to Z)\n",
    )
    code, _, err = run(
        capsys, "--lexicon", lexicon_path, "--board", str(tmp_path / "missing.txt"), "--rack", "AB"
    )
    assert code == 1 and err.startswith("error: ") and "missing.txt" in err


def test_warnings_go_to_stderr(capsys: pytest.CaptureFixture[str], lexicon_path: str) -> None:
    line = cgp({7: "6ZAX6"}, "ZX??")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--cgp", line, "--format", "jsonl")
    assert code == 0
    assert json.loads(out)["count"] == len(oracle_plays(line))
    assert err.splitlines() == [
        "warning: the board and rack hold 2 X tiles, but the English Scrabble bag has only 1",
        "warning: the board and rack hold 2 Z tiles, but the English Scrabble bag has only 1",
    ]


@pytest.mark.parametrize(
    "line, warning",
    [
        (cgp({7: "6CARE5", 9: "9T5"}, "AEIRST?"), "floating tile T at J10: not connected to the tiles on"),
        (
            cgp({0: "QI13"}, "ATE"),
            "the start square H8 is empty, but the board has tiles (Q at A1 and 1 more)",
        ),
    ],
)
def test_floating_tiles_are_solved_with_a_warning(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, line: str, warning: str
) -> None:
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--cgp", line, "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["count"] == len(result["moves"]) > 0
    assert json_plays(line, result) == oracle_plays(line)
    assert err.startswith(f"warning: {warning}") and err.endswith(
        "solved anyway: every play must touch a tile\n"
    )


def test_python_m_entry_point(lexicon_path: str) -> None:
    command = [sys.executable, "-m", "gaddag_solver", "solve", "--lexicon", lexicon_path, "--format", "json"]
    done = subprocess.run(
        [*command, "--cgp", POSITIONS[1], "--top", "2"], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert len(result["moves"]) == 2 and result["count"] == len(oracle_plays(POSITIONS[1]))
    done = subprocess.run([*command, "--cgp", "nonsense"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 1
    assert (
        done.stderr.startswith("error: CGP needs at least a board and a rack")
        and "Traceback" not in done.stderr
    )


def test_board_file_that_is_not_text(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path
) -> None:
    """A binary file, or one with a NUL byte, is refused in one line naming the file and line."""
    board_file = tmp_path / "board.png"
    board_file.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AB")
    assert (code, out) == (1, "")
    assert (
        err == f"error: {board_file}: line 1: not UTF-8 text (byte 0x89 at column 1); a board file is text\n"
    )
    board_file.write_bytes(b"." * 15 + b"\n" + b"." * 7 + b"\x00" * 8 + b"\n")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AB")
    assert err == f"error: {board_file}: line 2: a NUL byte; a board file is text\n"
    board_file.write_bytes(b"." * 15 + b"\n" + b"..\xc3\x28" + b"." * 11 + b"\n")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AB")
    assert (
        err == f"error: {board_file}: line 2: not UTF-8 text (byte 0xc3 at column 3); a board file is text\n"
    )


def test_board_file_with_a_byte_order_mark(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path
) -> None:
    """A UTF-8 byte order mark (as some editors write) is not a square of the first row."""
    position = parse_cgp(POSITIONS[1], ENGLISH)
    board_file = tmp_path / "board.txt"
    board_file.write_text(position.board.to_text(), encoding="utf-8")
    code, plain, _ = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AEIRST?")
    assert code == 0
    board_file.write_text(position.board.to_text(), encoding="utf-8-sig")
    assert board_file.read_bytes().startswith(b"\xef\xbb\xbf")
    assert run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AEIRST?") == (
        0,
        plain,
        "",
    )


def test_board_file_with_a_rack_line_and_rack_option(
    capsys: pytest.CaptureFixture[str], lexicon_path: str, tmp_path: Path
) -> None:
    """The rack is given in one place: a file of the board and a rack line with --rack as well is
    refused (it took the 16th line as the rack, then dropped it for --rack)."""
    position = parse_cgp(POSITIONS[1], ENGLISH)
    board_file = tmp_path / "board.txt"
    board_file.write_text(position.board.to_text() + "...............\n", encoding="utf-8")
    code, out, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AEIRST?")
    assert (code, out) == (1, "")
    assert err == (
        f"error: {board_file}: 15 board rows and a rack ('...............'), and --rack gives the rack "
        "too: give the rack in one place\n"
    )
    board_file.write_text(position.board.to_text() + "AEIRST?\n", encoding="utf-8")
    code, _, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file), "--rack", "AEIRST?")
    assert code == 1 and "give the rack in one place" in err
    code, _, _ = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file))
    assert code == 0
    board_file.write_text(position.board.to_text() + "...............\n", encoding="utf-8")
    code, _, err = run(capsys, "--lexicon", lexicon_path, "--board", str(board_file))
    assert (code, err) == (
        1,
        f"error: {board_file}: the line after the board is read as the rack: rack tile '.' is not a letter "
        "of the English Scrabble alphabet\n",
    )
