"""The player's own lexicons and rulesets on the page's Python side (web_api.build_lexicon,
add_lexicon, forget_lexicon, rules_json, check_rules, set_rules), natively: a lexicon built from
a file's bytes is build_lexicon.py's file for the same words, bad files say what and where and
replace nothing, a ruleset made in the editor is validated as a rules file is, exported as the
shipped files are written, read back by the command line's --rules, and solves as the Solver
does under it. The browser half is tests/test_web_own.py."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gaddag_solver import Board, Lexicon, Rules, web_api
from gaddag_solver.cli import build_lexicon_main
from gaddag_solver.cli import main as cli_main
from gaddag_solver.rules import available_rules
from gaddag_solver.solver import Solver
from gaddag_solver.web_api import loaded
from small_words import WORDS

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english")
ROWS = ["." * 15] * 7 + ["....CAT........"] + ["." * 15] * 7


@pytest.fixture(autouse=True)
def web_api_state() -> Iterator[None]:
    """web_api keeps what it loads in the process: put it back as it was, so no ruleset or
    lexicon made here reaches a later test (scripts/build_site.py runs in-process too)."""
    kept = [dict(store) for store in (loaded._rules, loaded._lexicons, loaded._solvers)]
    yield
    for store, before in zip((loaded._rules, loaded._lexicons, loaded._solvers), kept, strict=True):
        store.clear()
        store.update(before)


def call(
    kind: str, request: dict[str, Any], data: bytes | None = None, progress: Any = None
) -> tuple[dict, Any]:
    answer, records = web_api.call(kind, json.dumps(request), data, progress)
    return json.loads(answer), records


def cli_build(tmp_path: Path, name: str, data: bytes, file_name: str, rules: str = "english") -> bytes:
    """The oracle: build_lexicon.py's output for the same file."""
    source = tmp_path / file_name
    source.write_bytes(data)
    out = tmp_path / f"{name}.gaddag"
    assert build_lexicon_main([str(source), "-o", str(out), "--rules", rules, "--name", name]) == 0
    return out.read_bytes()


@pytest.mark.parametrize(
    ("file_name", "data"),
    [
        ("words.txt", "\n".join(WORDS).encode()),
        ("words.txt.gz", gzip.compress("\r\n".join(w.lower() for w in WORDS).encode(), mtime=0)),
        ("words.json", json.dumps(WORDS + ["naïve", "X" * 16]).encode()),
    ],
)
def test_build_is_the_command_lines_file(tmp_path: Path, file_name: str, data: bytes) -> None:
    heard: list[dict] = []
    result, gaddag = call(
        "build_lexicon",
        {"name": "own", "rules": "english", "file": file_name},
        data,
        lambda t: heard.append(json.loads(t)),
    )
    assert "error" not in result, result
    expected = cli_build(tmp_path, "own", data, file_name)
    assert gaddag == expected
    lexicon = Lexicon.load(expected)
    assert result["words"] == lexicon.stats.words == len(WORDS)
    assert (result["states"], result["arcs"], result["bytes"]) == (
        lexicon.stats.states,
        lexicon.stats.arcs,
        len(expected),
    )
    assert [event["phase"] for event in heard] == ["read", "filtered", "built", "loaded"]
    assert heard[1]["kept"] == result["kept"] == len(WORDS)
    if file_name.endswith(".json"):
        assert (result["bad_letters"], result["too_long"], result["unit"]) == (1, 1, "entry")
        assert result["bad_examples"][0][:2] == [len(WORDS) + 1, "naïve"]
        assert any("skipped 1 word(s) longer" in line for line in result["summary"])
    assert result["rules"] == ["english", "french", "super", "wwf"]  # an own list: every ruleset it spells
    # loaded: it solves as the Solver with the command line's file does
    solved, _ = call("solve", {"lexicon": "own", "rules": "english", "board": ROWS, "rack": "AERST?X"})
    moves = Solver(lexicon, ENGLISH).solve(Board.from_rows(ROWS, ENGLISH), "AERST?X", warn=False)
    assert [(m["coord"], m["word"], m["score"]) for m in solved["moves"]] == [
        (m.coord, m.word, m.score) for m in moves
    ]


def test_bad_word_lists_say_what_and_replace_nothing() -> None:
    kept, _ = call("build_lexicon", {"name": "kept", "rules": "english"}, "\n".join(WORDS).encode())
    cases = [
        (bytes(range(256)), "words", "line 3: not valid UTF-8 (byte 0x80)"),  # LF at 10, CR at 13
        (b"CAT\nDOG\n\xff\n", "words", "line 3: not valid UTF-8 (byte 0xff)"),
        (b"\n \n\n", "words", "no words to build from (the list is empty)"),
        (b"\x1f\x8b\x08\x00nonsense", "words", "not a valid gzip file"),
        (b'["CAT", 7]', "words", "entry 2 is int, not a string"),
        (
            "ĄĘ\nŻÓŁW".encode(),
            "words",
            "no words to build from (skipped 2 word(s) with letters outside the alphabet",
        ),
    ]
    for data, field, message in cases:
        result, gaddag = call("build_lexicon", {"name": "kept", "rules": "english", "file": "x.txt"}, data)
        assert result["field"] == field and message in result["error"], result
        assert gaddag is None
    still, _ = call("solve", {"lexicon": "kept", "rules": "english", "board": ROWS, "rack": "EAT"})
    assert "error" not in still and still["count"] > 0 and kept["words"] == len(WORDS)
    for request, field in [
        ({"name": "no name!", "rules": "english"}, "lexicon"),
        ({"name": "x", "rules": "klingon"}, "rules"),
    ]:
        result, _ = call("build_lexicon", request, b"CAT\n")
        assert result["field"] == field, result


def test_a_gaddag_built_elsewhere_is_checked(tmp_path: Path) -> None:
    data = cli_build(tmp_path, "elsewhere", "\n".join(WORDS).encode(), "w.txt")
    result, _ = call("add_lexicon", {"name": "elsewhere", "rules": "english"}, data)
    assert result["words"] == len(WORDS) and result["letters"] == list(ENGLISH.alphabet.letters)
    broken = data[:100] + bytes([data[100] ^ 0xFF]) + data[101:]
    for payload, rules, message in [
        (broken, "english", "is not a valid .gaddag file"),
        (data[:-7], "english", "is not a valid .gaddag file"),
        (data, "polish", "does not fit the polish rules"),
        (b"CAT\nDOG\n", "english", "is not a valid .gaddag file"),
    ]:
        refused, _ = call("add_lexicon", {"name": "other", "rules": rules}, payload)
        assert refused["field"] == "lexicon" and message in refused["error"], refused
    assert "other" not in web_api.loaded_lexicons()
    assert call("forget_lexicon", {"name": "elsewhere"})[0]["removed"] is True
    assert "elsewhere" not in web_api.loaded_lexicons()
    assert call("forget_lexicon", {"name": "elsewhere"})[0]["removed"] is False


def test_shipped_rules_are_written_as_their_files() -> None:
    for name in available_rules():
        text = (ROOT / "pycore" / "gaddag_solver" / "rules" / f"{name}.json").read_text(encoding="utf-8")
        assert Rules.load(name).to_json() == text
        assert call("rules_json", {"name": name})[0]["rules"] == json.loads(text)
        imported, _ = call("check_rules", {"text": text, "file": f"{name}.json"})
        assert imported["valid"] and imported["text"] == text


def nine_by_nine() -> dict[str, Any]:
    rules = ENGLISH.to_dict()
    rules.update(name="nine", title="Nine", rows=9, cols=9, start=[4, 4])
    rules["layout"] = [
        "T...d...T",
        ".t.....D.",
        "..D...d..",
        "....q....",
        "d...D...d",
        "....Q....",
        "..d...D..",
        ".D.....t.",
        "T...d...T",
    ]
    rules["letters"] = [
        [letter, 5 if letter == "E" else value, count] for letter, value, count in rules["letters"]
    ]
    return rules


def test_own_rules_checked_per_field() -> None:
    good = nine_by_nine()
    answer, _ = call("check_rules", {"rules": good})
    assert answer["valid"] and Rules.from_json(answer["text"]) == Rules.from_dict(good)
    cases = [
        ({"rack_size": 0}, "rack_size", "rules: rack_size: must be"),
        ({"name": "english"}, "name", "is a shipped ruleset"),
        ({"name": "Nine!"}, "name", "rules: name:"),
        ({"rows": 10}, "layout", "has 9 rows, but rows is 10"),
        ({"start": [9, 0]}, "start[0] (row)", "must be from 0 to 8, not 9"),
        ({"start": [0, 1]}, "start_doubles", "the start square [0, 1] is '.', not 'D'"),
        ({"vowels": ["A", "Ж"]}, "vowels[1]", "'Ж' is not a letter of this ruleset"),
        ({"fold": {"Q": "K"}}, "fold['Q']", "is itself a letter"),
    ]
    for change, field, message in cases:
        bad = {**good, **change}
        answer, _ = call("check_rules", {"rules": bad})
        assert not answer["valid"] and answer["field"] == field and message in answer["message"], answer
    layout = list(good["layout"])
    layout[4] = "d...X...d"
    answer, _ = call("check_rules", {"rules": {**good, "layout": layout}})
    assert answer["field"] == "layout[4]" and "column 4" in answer["message"], answer
    missing = dict(good)
    del missing["rack_size"]
    answer, _ = call("check_rules", {"text": json.dumps(missing), "file": "broken.json"})
    assert (answer["valid"], answer["field"], answer["message"]) == (
        False,
        "rack_size",
        "broken.json: rack_size: missing",
    )
    answer, _ = call("check_rules", {"text": '{"name": "a", "name": "b"}', "file": "twice.json"})
    assert answer["field"] == "name" and "appears twice" in answer["message"]
    refused, _ = call("set_rules", {"rules": {**good, "bingo_bonus": -1}})
    assert refused["field"] == "rules" and "bingo_bonus" in refused["error"]


def test_own_rules_solve_as_the_solver_and_the_command_line(
    tmp_path: Path, lexicon_path: str, capsys: Any
) -> None:
    rules = nine_by_nine()
    saved, _ = call("set_rules", {"rules": rules})
    assert saved["own"] and saved["rows"] == 9 and saved["layout"] == rules["layout"]
    assert saved["json"] == Rules.from_dict(rules).to_dict()
    data = Path(lexicon_path).read_bytes()
    loaded, _ = call("load_lexicon", {"name": "small", "rules": "nine"}, data)
    assert "nine" in loaded["rules"]
    board = ["." * 9] * 4 + ["..CAT...."] + ["." * 9] * 4
    native = Solver(Lexicon.load(data), Rules.from_dict(rules))
    expected = native.solve(Board.from_rows(board, native.rules), "AERSTXZ", warn=False)
    solved, _ = call("solve", {"lexicon": "small", "rules": "nine", "board": board, "rack": "AERSTXZ"})
    got = [(m["coord"], m["word"], m["score"]) for m in solved["moves"]]
    assert got == [(m.coord, m.word, m.score) for m in expected] and len(got) > 20
    # the exported file is what --rules FILE reads
    path = tmp_path / "nine.json"
    path.write_text(call("check_rules", {"rules": rules})[0]["text"], encoding="utf-8")
    cgp = "9/9/9/9/2CAT4/9/9/9/9 AERSTXZ/ 0/0 0"
    assert (
        cli_main(
            [
                "solve",
                "--lexicon",
                lexicon_path,
                "--rules",
                str(path),
                "--cgp",
                cgp,
                "--format",
                "json",
                "--top",
                "5",
            ]
        )
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    moves = printed["moves"] if isinstance(printed, dict) else printed
    assert [(m["coord"], m["word"], m["score"]) for m in moves] == got[:5]
    # saved again with other values: the solvers made with the old ones are gone
    rules["letters"] = [[letter, 1, count] for letter, _value, count in rules["letters"]]
    call("set_rules", {"rules": rules})
    again, _ = call("solve", {"lexicon": "small", "rules": "nine", "board": board, "rack": "AERSTXZ"})
    flat = Solver(Lexicon.load(data), Rules.from_dict(rules)).solve(
        Board.from_rows(board, native.rules), "AERSTXZ", warn=False
    )
    assert [m["score"] for m in again["moves"]] == [m.score for m in flat] != [m.score for m in expected]
