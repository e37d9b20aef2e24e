"""The page's Python side (gaddag_solver/web_api.py), natively, held to the Solver; and the
page's record reader (web/moves.js, run under Node) held to the same moves.

The worker calls web_api inside Pyodide with the same JSON; the browser half is covered by
tests/test_web_e2e.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from gaddag_solver import Board, Lexicon, Rack, Rules, web_api
from gaddag_solver.move import MOVE_RECORD
from gaddag_solver.rules import available_rules
from gaddag_solver.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "sowpods"
LEXICON_PATH = ROOT / "lexicons" / "sowpods.gaddag"
ENGLISH = Rules.load("english")
EXPECTED_COUNTS = [2916, 1385, 11894, 59772]  # tests/data/sowpods/README.md


def examples() -> list[tuple[list[str], str]]:
    out = []
    for block in (DATA / "examples.txt").read_text().strip().split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        out.append((lines[:15], lines[15]))
    return out


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(Lexicon.load(LEXICON_PATH), ENGLISH)


@pytest.fixture(scope="module", autouse=True)
def loaded() -> dict:
    info = web_api.load_lexicon("sowpods", LEXICON_PATH.read_bytes(), "english")
    assert "error" not in info, info
    return info


def request(rows: list[str], rack: str, **extra: object) -> dict:
    return {"lexicon": "sowpods", "rules": "english", "board": rows, "rack": rack, **extra}


def native(solver: Solver, rows: list[str], rack: str) -> list[dict]:
    moves = solver.solve(Board.from_rows(rows, ENGLISH), rack, warn=False)
    out = []
    for move in moves:
        entry = move.to_dict()
        entry["tiles"] = [[r, c, letter, blank] for r, c, letter, blank in move.tiles]
        entry["length"] = move.length
        out.append(entry)
    return out


# ---- lexicons ------------------------------------------------------------------------------------


def test_load_lexicon_reports_what_the_manifest_needs(loaded: dict) -> None:
    lexicon = Lexicon.load(LEXICON_PATH)
    assert loaded["name"] == "sowpods"
    assert loaded["words"] == lexicon.stats.words == 267_751
    assert loaded["bytes"] == LEXICON_PATH.stat().st_size
    assert loaded["rules"] == ["english", "super", "wwf"]  # the rulesets spelled with A-Z
    assert loaded["ms"]["load"] >= 0
    assert "sowpods" in web_api.loaded_lexicons()


class FakeUint8Array:
    """What Pyodide hands Python for a JS Uint8Array: a proxy whose to_bytes() copies."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.copies = 0

    def to_bytes(self) -> bytes:
        self.copies += 1
        return bytes(self.data)


def test_load_lexicon_takes_a_js_array_with_one_copy() -> None:
    proxy = FakeUint8Array(LEXICON_PATH.read_bytes())
    info = web_api.load_lexicon("copy-test", proxy, "wwf")
    assert info["words"] == 267_751 and proxy.copies == 1


def test_load_lexicon_errors() -> None:
    data = LEXICON_PATH.read_bytes()
    bad = web_api.load_lexicon("broken", data[:1000], "english")
    assert bad["field"] == "lexicon" and "broken" in bad["error"]
    assert "broken" not in web_api.loaded_lexicons()
    polish = web_api.load_lexicon("sowpods-pl", data, "polish")
    assert polish["field"] == "lexicon" and "polish" in polish["error"]
    assert web_api.load_lexicon("../etc", data, "english")["field"] == "lexicon"
    assert web_api.load_lexicon("x", data, "klingon")["field"] == "rules"


# ---- solving -------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", range(4))
def test_moves_format_is_the_solvers(solver: Solver, number: int) -> None:
    rows, rack = examples()[number]
    out = web_api.solve(request(rows, rack))
    assert "error" not in out, out
    assert out["count"] == EXPECTED_COUNTS[number]
    assert out["moves"] == native(solver, rows, rack)
    assert out["rack"] == list(Rack(rack, ENGLISH).tiles)
    assert set(out["ms"]) == {"parse", "generate", "total"}


def test_moves_format_top(solver: Solver) -> None:
    rows, rack = examples()[3]
    out = web_api.solve(request(rows, rack, top=5))
    assert out["count"] == 59_772
    assert out["moves"] == native(solver, rows, rack)[:5]
    assert out["moves"][0]["word"] == "RAcQuETS" and out["moves"][0]["score"] == 110


@pytest.mark.parametrize("number", range(4))
def test_records_format_holds_every_play(solver: Solver, number: int) -> None:
    rows, rack = examples()[number]
    out = web_api.solve(request(rows, rack, format="records"))
    assert out["record_size"] == MOVE_RECORD.size == 48
    assert len(out["records"]) == out["count"] * 48 == EXPECTED_COUNTS[number] * 48
    board = Board.from_rows(rows, ENGLISH)
    rack_obj = Rack(rack, ENGLISH)
    from_records = solver.moves_from_records(out["records"], board, rack_obj)
    assert [m.to_dict() for m in from_records] == [
        m.to_dict() for m in solver.solve(board, rack_obj, warn=False)
    ]


@pytest.mark.parametrize(
    ("rows", "rack", "field", "says"),
    [
        (["." * 15] * 15, "AEIRSTUV", "rack", "at most 7"),
        (["." * 15] * 15, "AE1", "rack", "'1'"),
        (["." * 15] * 15, "  ", "rack", "empty"),
        (["A" + "." * 14] + ["." * 15] * 14, "AB", "board", "start square H8"),
        (["." * 15] * 14, "AB", "board", "14 rows"),
        (["." * 15] * 7 + [".......C1T....."] + ["." * 15] * 7, "AB", "board", "'1'"),
        ("not rows", "AB", "board", ""),
    ],
)
def test_bad_input_names_its_field(rows: object, rack: str, field: str, says: str) -> None:
    out = web_api.solve(request(rows, rack))  # type: ignore[arg-type]
    assert out["field"] == field, out
    assert says in out["error"]


def test_floating_tile_names_the_square() -> None:
    rows, rack = examples()[1]
    rows = ["Z" + rows[0][1:], *rows[1:]]
    out = web_api.solve(request(rows, rack))
    assert out["field"] == "board" and "floating" in out["error"]
    assert out["square"] == "A1"


def test_unknown_lexicon_and_rules() -> None:
    rows, rack = examples()[1]
    out = web_api.solve({**request(rows, rack), "lexicon": "csw99"})
    assert out["field"] == "lexicon" and "csw99" in out["error"] and "sowpods" in out["error"]
    assert web_api.solve({**request(rows, rack), "rules": "chess"})["field"] == "rules"
    assert web_api.solve({**request(rows, rack), "rules": "polish"})["field"] == "lexicon"
    assert web_api.solve({**request(rows, rack), "format": "xml"})["field"] == "request"


def test_unlikely_positions_are_warned_about() -> None:
    rows, _ = examples()[1]  # already holds the Z
    out = web_api.solve(request(rows, "ZAEIRST"))
    assert out["warnings"] and "Z" in out["warnings"][0]


# ---- CGP -----------------------------------------------------------------------------------------


def test_cgp_round_trip_of_the_reference_positions() -> None:
    lines = (DATA / "positions.cgp").read_text().splitlines()
    for line in lines:
        parsed = web_api.parse_cgp({"cgp": line, "rules": "english"})
        assert "error" not in parsed, (line, parsed)
        assert parsed["lexicon"] == "SOWPODS"
        formatted = web_api.format_cgp(
            {
                "board": parsed["board"],
                "rack": parsed["rack"],
                "rules": "english",
                "lexicon": parsed["lexicon"],
            }
        )
        assert formatted["cgp"] == line


def test_cgp_errors_and_unchecked_export() -> None:
    assert web_api.parse_cgp({"cgp": "", "rules": "english"})["field"] == "cgp"
    bad = web_api.parse_cgp({"cgp": "15/15 AB/", "rules": "english"})
    assert bad["field"] == "cgp" and "rows" in bad["error"]
    # a position being typed in (a floating tile) still exports
    rows = ["Q" + "." * 14] + ["." * 15] * 14
    out = web_api.format_cgp({"board": rows, "rack": "", "rules": "english", "lexicon": ""})
    assert out["cgp"] == "Q14/" + "/".join(["15"] * 14) + " / 0/0 0"
    assert web_api.format_cgp({"board": ["." * 15] * 15, "rack": "A9", "rules": "english"})["field"] == "rack"
    wrong = web_api.format_cgp({"board": ["1" * 15] * 15, "rack": "", "rules": "english"})
    assert wrong["field"] == "board" and "A1" in wrong["error"]


# ---- the worker's door and the benchmark --------------------------------------------------------


def test_call_returns_json_and_records_apart() -> None:
    rows, rack = examples()[1]
    text, records = web_api.call("solve", json.dumps(request(rows, rack, format="records")))
    answer = json.loads(text)
    assert answer["count"] == 1385 and "records" not in answer
    assert isinstance(records, bytes) and len(records) == 1385 * MOVE_RECORD.size
    text, records = web_api.call(
        "load_lexicon", json.dumps({"name": "via-call", "rules": "english"}), LEXICON_PATH.read_bytes()
    )
    assert json.loads(text)["words"] == 267_751 and records is None
    assert json.loads(web_api.call("launch", "{}")[0])["field"] == "request"
    assert json.loads(web_api.call("solve", "{not json")[0])["field"] == "request"
    assert json.loads(web_api.call("solve", "[]")[0])["field"] == "request"


def test_bench_counts_the_plays(solver: Solver) -> None:
    blocks = (DATA / "positions.txt").read_text().strip().split("\n\n")[:6]
    out = web_api.bench(
        {"lexicon": "sowpods", "rules": "english", "positions": "\n\n".join(blocks), "min_ms": 1}
    )
    assert out["positions"] == 6 and len(out["us"]) == 6
    for block, moves in zip(blocks, out["moves"], strict=True):
        lines = block.strip().splitlines()
        assert moves == solver.count(Board.from_rows(lines[:15], ENGLISH), Rack(lines[15], ENGLISH))
    assert min(out["calls"]) >= 3 and out["median_us"] > 0


def test_rules_data_is_the_rules() -> None:
    data = web_api.all_rules_data()
    assert data["default"] == "english"
    assert [entry["name"] for entry in data["rules"]] == available_rules()
    for entry in data["rules"]:
        rules = Rules.load(entry["name"])
        assert entry["layout"] == ["".join(row) for row in rules.premiums]
        assert (entry["rows"], entry["cols"], tuple(entry["start"])) == (rules.rows, rules.cols, rules.start)
        assert entry["letters"] == list(rules.alphabet.letters)
        assert entry["values"] == list(rules.values)
        assert entry["rack_size"] == rules.rack_size
    super_rules = next(entry for entry in data["rules"] if entry["name"] == "super")
    assert super_rules["rows"] == 21


# ---- the page's reader of the records (web/moves.js under Node) --------------------------------

NODE_SCRIPT = r"""
import { MoveList } from "%(module)s";
import { readFileSync, writeFileSync } from "node:fs";
const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
for (const job of jobs) {
  const buf = readFileSync(job.records);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const list = new MoveList(ab, job.count, job.letters, job.rack);
  const brief = (order) => Array.from(order, (i) => [list.coord(i), list.word(i), list.score[i]]);
  const rank = list.order("score", true);
  out.push({
    moves: Array.from(rank, (i) => list.toDict(i)),
    word: brief(list.order("word", false)),
    length: brief(list.order("length", true)),
    position: brief(list.order("position", false)),
    scoreUp: brief(list.order("score", false)),
    filters: Object.fromEntries(job.filters.map((f) => [f, brief(list.filter(rank, f))])),
  });
}
writeFileSync(process.argv[3], JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_pages_record_reader_gives_the_solvers_moves(solver: Solver, tmp_path: Path) -> None:
    jobs = []
    expected = []
    filters = ["qu", "Q.E", "5e", "sq ed", "zzzz"]
    for number, (rows, rack) in enumerate(examples()):
        out = web_api.solve(request(rows, rack, format="records"))
        path = tmp_path / f"records{number}.bin"
        path.write_bytes(out["records"])
        jobs.append(
            {
                "records": str(path),
                "count": out["count"],
                "letters": list(ENGLISH.alphabet.letters),
                "rack": out["rack"],
                "filters": filters,
            }
        )
        expected.append(native(solver, rows, rack))
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "read.mjs"
    script.write_text(NODE_SCRIPT % {"module": (ROOT / "web" / "moves.js").as_uri()})
    subprocess.run(
        ["node", str(script), str(tmp_path / "jobs.json"), str(tmp_path / "out.json")],
        check=True,
        timeout=120,
    )
    results = json.loads((tmp_path / "out.json").read_text())
    for moves, got in zip(expected, results, strict=True):
        assert got["moves"] == moves  # every play, in the solver's order, field for field

        def brief(ms: list[dict]) -> list[list]:
            return [[m["coord"], m["word"], m["score"]] for m in ms]

        # other orders: the key, then the solver's rank (Python's sort is stable)
        assert got["word"] == brief(sorted(moves, key=lambda m: m["word"].upper()))
        assert got["length"] == brief(sorted(moves, key=lambda m: -m["length"]))
        assert got["position"] == brief(
            sorted(moves, key=lambda m: (m["row"], m["col"], m["direction"] == "down"))
        )
        assert got["scoreUp"] == brief(sorted(moves, key=lambda m: m["score"]))
        plain = [m["word"].upper() for m in moves]
        assert got["filters"]["qu"] == brief([m for m, w in zip(moves, plain, strict=True) if "QU" in w])
        assert got["filters"]["Q.E"] == brief(
            [
                m
                for m, w in zip(moves, plain, strict=True)
                if any(w[i] == "Q" and w[i + 2] == "E" for i in range(len(w) - 2))
            ]
        )
        assert got["filters"]["5e"] == brief([m for m in moves if m["coord"] == "5E"])
        assert got["filters"]["sq ed"] == brief(
            [m for m, w in zip(moves, plain, strict=True) if "SQ" in w and "ED" in w]
        )
        assert got["filters"]["zzzz"] == []
