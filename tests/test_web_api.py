"""The page's Python side (gaddag_solver/web_api/), natively, held to the Solver; and the
page's record reader (web/moves.js, run under Node) held to the same moves.

The worker calls web_api inside Pyodide with the same JSON; the browser half is covered by
tests/test_web_e2e.py.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Board, Lexicon, Rack, Rules, web_api
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.move import KIND_EXCHANGE, KIND_PASS, KIND_PLAY, MOVE_RECORD, ON_BOARD_FLAG
from gaddag_solver.rules import available_rules
from gaddag_solver.solver import Solver
from gaddag_solver.unseen import unseen
from leave_csv import csv_values, leave_key, sample_csv

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


def native(solver: Solver, rows: list[str], rack: str, **options: object) -> list[dict]:
    """The Solver's moves as web_api.move_dict writes them (``options``: leaves, exchanges…)."""
    moves = solver.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, **options)
    out = []
    for move in moves:
        entry = move.to_dict()
        entry["tiles"] = [[r, c, letter, blank] for r, c, letter, blank in move.tiles]
        entry["length"] = move.length
        out.append(entry)
    return out


@pytest.fixture(scope="module")
def csv_text() -> str:
    return sample_csv(ENGLISH)


@pytest.fixture(scope="module")
def table(csv_text: str) -> Leaves:
    """The sample table, loaded into web_api as "sample" for the english rules."""
    table = Leaves.from_csv_text(csv_text, ENGLISH)
    info = web_api.load_leaves("sample", table.to_bytes(), "english")
    assert "error" not in info, info
    return table


# ---- lexicons ------------------------------------------------------------------------------------


def test_load_lexicon_reports_what_the_manifest_needs(loaded: dict) -> None:
    lexicon = Lexicon.load(LEXICON_PATH)
    assert loaded["name"] == "sowpods"
    assert loaded["words"] == lexicon.stats.words == 267_751
    assert loaded["bytes"] == LEXICON_PATH.stat().st_size
    assert loaded["rules"] == ["english", "super", "wwf"]  # the English rulesets spelled with A-Z
    assert loaded["ms"]["load"] >= 0
    assert "sowpods" in web_api.loaded_lexicons()


def test_a_built_list_serves_its_own_language_and_an_own_list_every_alphabet_match() -> None:
    """French and English are both spelled A to Z: wfrench is offered for French only, an own
    A-to-Z list (any name we do not build) for every ruleset so spelled."""
    from gaddag_solver import build_gaddag
    from gaddag_solver.web_api.loaded import compatible_rules

    assert compatible_rules(Lexicon.load(ROOT / "lexicons" / "wfrench.gaddag")) == ["french"]
    data, _ = build_gaddag(["CHAT", "CAT"], Rules.load("english").alphabet, name="mine")
    mine = Lexicon.load(data)
    assert compatible_rules(mine) == ["english", "french", "super", "wwf"]


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
        (["." * 15] * 14, "AB", "board", "14 rows"),
        (["." * 15] * 7 + [".......C1T....."] + ["." * 15] * 7, "AB", "board", "'1'"),
        ("not rows", "AB", "board", ""),
    ],
)
def test_bad_input_names_its_field(rows: object, rack: str, field: str, says: str) -> None:
    out = web_api.solve(request(rows, rack))  # type: ignore[arg-type]
    assert out["field"] == field, out
    assert says in out["error"]


def test_floating_tile_is_solved_with_a_warning() -> None:
    rows, rack = examples()[1]
    floating = ["Z" + rows[0][1:], *rows[1:]]
    out = web_api.solve(request(floating, rack))
    assert "error" not in out
    assert out["warnings"][0].startswith("floating tile Z at A1: not connected to the tiles on the start")
    assert out["warnings"][0].endswith("solved anyway: every play must touch a tile")
    before = web_api.solve(request(rows, rack))
    assert not any("floating" in warning for warning in before["warnings"])
    assert out["count"] > before["count"]  # plays next to the Z as well
    assert any(move["row"] <= 1 and move["col"] <= 1 for move in out["moves"])
    # the unseen panel's warnings stay about tile counts
    assert not any("floating" in warning for warning in out["unseen"]["warnings"])


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


# ---- equity: leave tables, exchanges and the pass ---------------------------------------------


def test_load_leaves_reports_what_the_manifest_needs(table: Leaves) -> None:
    proxy = FakeUint8Array(table.to_bytes())
    info = web_api.load_leaves("sample-copy", proxy, "english")
    assert proxy.copies == 1
    assert info["name"] == "sample-copy" and info["rules"] == "english"
    assert info["entries"] == len(table) == 914_624  # every leave of 1..6 English tiles
    assert info["bytes"] == len(table.to_bytes()) and info["max_leave"] == 6
    assert info["ms"]["load"] >= 0
    assert {"sample", "sample-copy"} <= set(web_api.loaded_leaves())
    # without a ruleset, the one the file names
    assert web_api.load_leaves("sample-named", table.to_bytes())["rules"] == "english"


def test_load_leaves_refuses_damaged_and_foreign_tables(table: Leaves) -> None:
    data = table.to_bytes()
    truncated = web_api.load_leaves("cut", data[: len(data) // 2], "english")
    assert truncated["field"] == "leaves" and "'cut'" in truncated["error"]
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    damaged = web_api.load_leaves("flipped", bytes(flipped), "english")
    assert damaged["field"] == "leaves", damaged
    assert web_api.load_leaves("lexicon", LEXICON_PATH.read_bytes()[:5000], "english")["field"] == "leaves"
    wwf = Leaves.from_csv_text("A,1\nES,2\n", Rules.load("wwf")).to_bytes()
    foreign = web_api.load_leaves("wwf-table", wwf, "english")
    assert foreign["field"] == "leaves" and "wwf" in foreign["error"]
    assert web_api.load_leaves("../x", data, "english")["field"] == "leaves"
    assert web_api.load_leaves("x", data, "klingon")["field"] == "rules"
    assert not {"cut", "flipped", "lexicon", "wwf-table"} & set(web_api.loaded_leaves())


def _valued(number: int, table: Leaves, solver: Solver, exchanges: bool) -> tuple[dict, bytes]:
    rows, rack = examples()[number]
    out = web_api.solve(request(rows, rack, format="records", leaves="sample", exchanges=exchanges))
    assert "error" not in out, out
    board, rack_obj = Board.from_rows(rows, ENGLISH), Rack(rack, ENGLISH)
    valuation = solver.valuation(board, rack_obj, leaves=table, exchanges=exchanges)
    count, records = solver.solve_raw(board, rack_obj, None, valuation)
    return out, records


@pytest.mark.parametrize("exchanges", [True, False])
@pytest.mark.parametrize("number", range(4))
def test_valued_records_are_the_solvers(table: Leaves, solver: Solver, number: int, exchanges: bool) -> None:
    out, records = _valued(number, table, solver, exchanges)
    assert out["records"] == records
    kinds = [record[7] for record in MOVE_RECORD.iter_unpack(records)]
    plays = EXPECTED_COUNTS[number]
    rack = examples()[number][1]
    distinct = len(set(rack))  # an exchange puts back any non-empty sub-multiset
    exchanges_expected = 0
    if exchanges:
        exchanges_expected = 1
        for tile in set(rack):
            exchanges_expected *= rack.count(tile) + 1
        exchanges_expected -= 1
    assert kinds.count(KIND_PLAY) == plays
    assert kinds.count(KIND_EXCHANGE) == exchanges_expected and distinct <= 7
    assert kinds.count(KIND_PASS) == int(exchanges)
    assert out["count"] == plays + exchanges_expected + int(exchanges)
    assert out["valued"] and out["by_equity"] and out["leaves"] == "sample"
    assert out["exchanges"] is exchanges and out["exchange_minimum"] == 7
    rows = examples()[number][0]
    expected_unseen = unseen(Board.from_rows(rows, ENGLISH), Rack(rack, ENGLISH), ENGLISH).to_dict()
    assert out["unseen"] == expected_unseen and out["bag"] == expected_unseen["bag"]


@pytest.mark.parametrize("number", range(4))
def test_equity_is_the_score_plus_the_csv_value_of_the_leave(
    table: Leaves, solver: Solver, csv_text: str, number: int
) -> None:
    """Recomputed here: the tiles kept (the rack less the tiles placed or put back), looked up
    in the CSV text as read by the test itself."""
    values = csv_values(csv_text)
    out, _ = _valued(number, table, solver, True)
    letters = ENGLISH.alphabet.letters
    rack = list(Rack(examples()[number][1], ENGLISH).tiles)
    valued = 0
    for score, equity, _r, _c, _d, length, _placed, kind, word in MOVE_RECORD.iter_unpack(out["records"]):
        codes = word[:length]
        if kind == KIND_PLAY:
            spent = [
                "?" if code & 128 else letters[(code & 63) - 1] for code in codes if not code & ON_BOARD_FLAG
            ]
        else:
            spent = ["?" if code == 0 else letters[code - 1] for code in codes]
        kept = list(rack)
        for tile in spent:
            kept.remove(tile)
        value = values.get(leave_key(kept), 0)
        valued += value != 0
        assert equity == 100 * score + value, (kind, spent, kept)
    assert valued > out["count"] // 4  # most moves keep a leave the table lists


def test_moves_format_is_the_solvers_by_equity(table: Leaves, solver: Solver) -> None:
    rows, rack = examples()[2]
    out = web_api.solve(request(rows, rack, leaves="sample", exchanges=True, top=30))
    expected = native(solver, rows, rack, leaves=table, exchanges=True)
    assert out["moves"] == expected[:30]
    assert out["moves"][0]["equity"] == max(move["equity"] for move in expected)
    assert out["count"] == len(expected)
    # exchanges without a table: valued (equity = score, no leave value), ranked by score
    plain = web_api.solve(request(rows, rack, exchanges=True, top=5000))
    assert plain["valued"] and not plain["by_equity"] and plain["leaves"] is None
    assert plain["moves"] == native(solver, rows, rack, exchanges=True)[:5000]
    assert {move["leave_value"] for move in plain["moves"]} == {0}
    # neither: plays by score, no equity
    bare = web_api.solve(request(rows, rack, top=3))
    assert not bare["valued"] and not bare["by_equity"] and "equity" not in bare["moves"][0]


def test_exchanges_need_the_bag(table: Leaves, solver: Solver) -> None:
    rows, rack = examples()[1]  # AEIRSTU: 127 exchanges

    def kinds(bag: int) -> list[int]:
        out = web_api.solve(request(rows, rack, format="records", leaves="sample", exchanges=True, bag=bag))
        assert out["bag"] == bag
        return [record[7] for record in MOVE_RECORD.iter_unpack(out["records"])]

    assert ENGLISH.exchange_minimum == 7
    assert kinds(7).count(KIND_EXCHANGE) == 127
    below = kinds(6)
    assert below.count(KIND_EXCHANGE) == 0 and below.count(KIND_PASS) == 1
    assert kinds(0).count(KIND_PASS) == 1
    # the bag the unseen tiles imply, and an end-game bag, as the Solver values them
    board, rack_obj = Board.from_rows(rows, ENGLISH), Rack(rack, ENGLISH)
    for bag in (None, 0, 3):
        out = web_api.solve(request(rows, rack, format="records", leaves="sample", exchanges=True, bag=bag))
        valuation = solver.valuation(board, rack_obj, leaves=table, exchanges=True, bag=bag)
        assert out["records"] == solver.solve_raw(board, rack_obj, None, valuation)[1]


def test_leaves_and_options_errors(table: Leaves) -> None:
    rows, rack = examples()[1]
    unknown = web_api.solve(request(rows, rack, leaves="csw-leaves"))
    assert unknown["field"] == "leaves" and "csw-leaves" in unknown["error"] and "sample" in unknown["error"]
    wwf = Leaves.from_csv_text("A,1\n", Rules.load("wwf"))
    assert "error" not in web_api.load_leaves("wwf-sample", wwf.to_bytes(), "wwf")
    other = web_api.solve(request(rows, rack, leaves="wwf-sample"))
    assert other["field"] == "leaves" and "wwf" in other["error"]
    wwf_solve = web_api.solve({**request(rows, rack, leaves="wwf-sample"), "rules": "wwf", "top": 1})
    assert wwf_solve["by_equity"], wwf_solve
    assert web_api.solve(request(rows, rack, leaves=7))["field"] == "leaves"
    assert web_api.solve(request(rows, rack, exchanges="yes"))["field"] == "request"
    assert web_api.solve(request(rows, rack, bag=-1))["field"] == "request"
    assert web_api.solve(request(rows, rack, bag=True))["field"] == "request"


def test_unseen_of_a_position_being_edited() -> None:
    rows, rack = examples()[1]
    board = Board.from_rows(rows, ENGLISH)
    asked = web_api.unseen_tiles({"rules": "english", "board": rows, "rack": rack})
    assert asked == {**unseen(board, Rack(rack, ENGLISH), ENGLISH).to_dict(), "exchange_minimum": 7}
    empty = web_api.unseen_tiles({"rules": "english", "board": ["." * 15] * 15, "rack": ""})
    assert empty["total"] == 100 and empty["bag"] == 93 and empty["counts"]["E"] == 12
    assert (empty["vowels"], empty["consonants"], empty["blanks"]) == (42, 56, 2)
    # a floating tile still counts; more Zs than the set holds is a warning, never below 0
    floating = ["ZZ" + "." * 13] + ["." * 15] * 14
    many = web_api.unseen_tiles({"rules": "english", "board": floating, "rack": "Z"})
    assert many["counts"]["Z"] == 0 and many["total"] == 99 and "Z" in many["warnings"][0]
    assert web_api.unseen_tiles({"rules": "english", "board": rows, "rack": "A1"})["field"] == "rack"
    assert web_api.unseen_tiles({"rules": "english", "board": ["?"], "rack": ""})["field"] == "board"
    text, records = web_api.call("unseen", json.dumps({"rules": "english", "board": rows, "rack": rack}))
    assert json.loads(text) == asked and records is None


def test_call_loads_leaves(table: Leaves) -> None:
    text, records = web_api.call(
        "load_leaves", json.dumps({"name": "via-call", "rules": "english"}), table.to_bytes()
    )
    assert json.loads(text)["entries"] == 914_624 and records is None


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
    # the scores, the player to move's first, go out as they came in
    line = "Q14/" + "/".join(["15"] * 14) + " AB/ 352/-7 0"
    parsed = web_api.parse_cgp({"cgp": line, "rules": "english"})
    assert parsed["scores"] == [352, -7]
    request = {"board": parsed["board"], "rack": parsed["rack"], "rules": "english"}
    request["scores"] = parsed["scores"]
    assert web_api.format_cgp(request)["cgp"] == line
    for scores in ([1], [1, "2"], [True, 0], "0/0"):
        refused = web_api.format_cgp({**request, "scores": scores})
        assert refused["error"].startswith("scores must be two whole")
    beyond = web_api.format_cgp({**request, "scores": [0, 10**7]})
    assert beyond["field"] == "request" and "the opponent's score 10000000 is out of range" in beyond["error"]


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


def node_job(answer: dict, path: Path) -> dict:
    """A records answer of web_api.solve as a job for the Node scripts (records written to path)."""
    path.write_bytes(answer["records"])
    return {
        "records": str(path),
        "count": answer["count"],
        "letters": list(ENGLISH.alphabet.letters),
        "rack": answer["rack"],
        "valued": answer.get("valued", False),
        "byEquity": answer.get("by_equity", False),
    }


def run_node(script: str, jobs: list[dict], folder: Path) -> list[dict]:
    """Run a Node script (``%(module)s`` → web/moves.js) on jobs written as JSON; its JSON out."""
    (folder / "jobs.json").write_text(json.dumps(jobs))
    path = folder / "read.mjs"
    path.write_text(script % {"module": (ROOT / "web" / "moves.js").as_uri()})
    subprocess.run(
        ["node", str(path), str(folder / "jobs.json"), str(folder / "out.json")], check=True, timeout=120
    )
    return json.loads((folder / "out.json").read_text())


# Each script reads its jobs and makes a MoveList per job; the loop body differs.
NODE_PRELUDE = r"""
import { MoveList } from "%(module)s";
import { readFileSync, writeFileSync } from "node:fs";
const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
for (const job of jobs) {
  const buf = readFileSync(job.records);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const options = { valued: Boolean(job.valued), byEquity: Boolean(job.byEquity) };
  const list = new MoveList(ab, job.count, job.letters, job.rack, options);
"""

NODE_SCRIPT = (
    NODE_PRELUDE
    + r"""
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
)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_pages_record_reader_gives_the_solvers_moves(solver: Solver, tmp_path: Path) -> None:
    jobs = []
    expected = []
    filters = ["qu", "Q.E", "5e", "sq ed", "zzzz"]
    for number, (rows, rack) in enumerate(examples()):
        out = web_api.solve(request(rows, rack, format="records"))
        jobs.append({**node_job(out, tmp_path / f"records{number}.bin"), "filters": filters})
        expected.append(native(solver, rows, rack))
    results = run_node(NODE_SCRIPT, jobs, tmp_path)
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


VALUED_NODE_SCRIPT = (
    NODE_PRELUDE
    + r"""
  const rank = list.rankOrder();
  const at = new Map(Array.from(rank, (i, k) => [i, k]));
  const positions = (order) => Array.from(order, (i) => at.get(i));
  out.push({
    rankKey: list.rankKey,
    moves: Array.from(rank, (i) => list.toDict(i)),
    labels: Array.from(rank.slice(0, 400), (i) => list.label(i)),
    orders: Object.fromEntries(
      job.orders.map(([key, descending]) => [`${key}:${descending}`, positions(list.order(key, descending))]),
    ),
  });
}
writeFileSync(process.argv[3], JSON.stringify(out));
"""
)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_pages_equity_ranking_is_the_solvers(solver: Solver, table: Leaves, tmp_path: Path) -> None:
    """web/moves.js on valued records (a table with exchanges, exchanges alone, an end-game bag):
    every move field for field in the solver's order (by equity with a table: equity, score,
    kind, row, col, direction, length, codes), and every other order = a stable sort of it (by word,
    length or position, the exchanges and the pass after the plays)."""
    cases = [  # (example, leaves, exchanges, bag)
        (0, "sample", True, None),
        (1, "sample", True, None),
        (2, "sample", True, 3),
        (3, "sample", False, None),
        (1, None, True, None),
        (2, "sample", True, 0),
    ]
    orders = [
        ["equity", True],
        ["equity", False],
        ["score", True],
        ["score", False],
        ["word", False],
        ["length", True],
        ["position", False],
    ]
    jobs, expected = [], []
    for number, (example, leaves, exchanges, bag) in enumerate(cases):
        rows, rack = examples()[example]
        out = web_api.solve(
            request(rows, rack, format="records", leaves=leaves, exchanges=exchanges, bag=bag)
        )
        assert "error" not in out, out
        jobs.append({**node_job(out, tmp_path / f"valued{number}.bin"), "orders": orders})
        expected.append(
            native(solver, rows, rack, leaves=table if leaves else None, exchanges=exchanges, bag=bag)
        )
    results = run_node(VALUED_NODE_SCRIPT, jobs, tmp_path)
    keys = {
        "equity": lambda m: m["equity"],
        "score": lambda m: m["score"],
        "word": lambda m: m["word"].upper(),
        "length": lambda m: m["length"],
        "position": lambda m: (m["row"], m["col"], m["direction"] == "down"),
    }
    for (example, leaves, exchanges, bag), moves, got in zip(cases, expected, results, strict=True):
        assert got["rankKey"] == ("equity" if leaves else "score")
        assert got["moves"] == moves, example  # field for field, equity and leave value included
        kinds = {move.get("kind", "play") for move in moves}
        if exchanges:
            assert kinds == ({"play", "pass"} if bag in (0, 3) else {"play", "exchange", "pass"})
        for label, move in zip(got["labels"], moves, strict=False):
            kind = move.get("kind", "play")
            want = {"exchange": f"exch {move.get('exchanged')}", "pass": "pass"}.get(
                kind, f"{move['coord']} {move['word']}"
            )
            assert label == want
        for key, descending in orders:
            shown = [moves[k] for k in got["orders"][f"{key}:{str(descending).lower()}"]]
            # a stable sort on the key alone, ties kept in the solver's order (descending too)
            sign = -1 if descending else 1
            if key == "word":
                want = sorted(moves, key=keys[key])
            else:
                want = sorted(moves, key=lambda m, f=keys[key]: _scaled(f(m), sign))
            if key in ("word", "length", "position"):  # which only plays have: the others follow them
                plays = [m for m in want if m.get("kind", "play") == "play"]
                want = plays + [m for m in want if m.get("kind", "play") != "play"]
            assert shown == want, (example, key, descending)


def _scaled(value: object, sign: int) -> object:
    if isinstance(value, tuple):
        return tuple(sign * part for part in value)
    assert isinstance(value, int | float)
    return sign * value


def test_site_manifest_ships_valid_leave_tables(table: Leaves, tmp_path: Path) -> None:
    """scripts/build_site.py: every valid table, listed with its ruleset; a damaged one left out;
    a name in an earlier folder wins."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_site
    finally:
        sys.path.pop(0)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    table.save(first / "english-small.leaves")
    Leaves.from_csv_text("A,1\n", Rules.load("wwf")).save(second / "wwf-small.leaves")
    (second / "english-small.leaves").write_bytes(b"not this one")
    (second / "broken.leaves").write_bytes(table.to_bytes()[:-10])
    paths = build_site.named_files([first, second], ".leaves")
    assert [path.parent.name + "/" + path.name for path in paths] == [
        "second/broken.leaves",
        "first/english-small.leaves",
        "second/wwf-small.leaves",
    ]
    kept, entries = build_site.leaves_manifest(paths)
    assert kept == paths[1:]
    assert [(entry["name"], entry["rules"], entry["file"]) for entry in entries] == [
        ("english-small", "english", "lexicons/english-small.leaves"),
        ("wwf-small", "wwf", "lexicons/wwf-small.leaves"),
    ]
    assert entries[0]["entries"] == len(table) and entries[0]["bytes"] == len(table.to_bytes())


SORT_NODE_SCRIPT = r"""
import { fieldKeys, radixOrder } from "%(module)s";
import { readFileSync, writeFileSync } from "node:fs";
const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = jobs.map((job) => {
  const fields = job.fields.map((f) => ({ values: Float64Array.from(f.values), descending: f.descending }));
  return Array.from(radixOrder(job.count, fieldKeys(job.count, fields)));
});
writeFileSync(process.argv[3], JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_pages_radix_sort_is_a_stable_sort_on_its_fields(tmp_path: Path) -> None:
    """web/moves.js radixOrder(fieldKeys(...)): the order Python's stable sort gives on the same
    fields, for fields narrow and wide (up to 2^40 apart, so they cannot share one 48-bit number),
    ascending and descending, with many ties, a field the same for every move, and no moves."""
    generator = random.Random(14)
    jobs = []
    cases = ((0, [5]), (1, [5]), (300, [3, 1, 7]), (2000, [2**40, 50, 2**20, 2]), (500, [1, 2**33]))
    for count, spans in cases:
        fields = [
            {
                "values": [generator.randrange(-span // 2, span - span // 2) for _ in range(count)],
                "descending": generator.random() < 0.5,
            }
            for span in spans
        ]
        jobs.append({"count": count, "fields": fields})
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "sort.mjs"
    script.write_text(SORT_NODE_SCRIPT % {"module": (ROOT / "web" / "moves.js").as_uri()})
    subprocess.run(["node", str(script), str(tmp_path / "jobs.json"), str(tmp_path / "out.json")], check=True)
    got = json.loads((tmp_path / "out.json").read_text())
    for job, order in zip(jobs, got, strict=True):

        def key(i: int, fields: list[dict] = job["fields"]) -> tuple[int, ...]:
            return tuple(-f["values"][i] if f["descending"] else f["values"][i] for f in fields)

        assert order == sorted(range(job["count"]), key=key)


TOP_NODE_SCRIPT = (
    NODE_PRELUDE
    + r"""
  const full = Array.from(list.rankOrder());
  const fresh = new MoveList(ab, job.count, job.letters, job.rack, options);
  out.push({ full, top: job.tops.map((n) => Array.from(fresh.rankTop(n))) });
}
writeFileSync(process.argv[3], JSON.stringify(out));
"""
)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_pages_first_screen_is_the_head_of_the_solvers_order(table: Leaves, tmp_path: Path) -> None:
    """MoveList.rankTop(n), which draws the first rows before the whole order is known, gives the
    first n moves of rankOrder() (held to the solver's order by the tests above), by score and
    by equity, for n from none to more than every move (`table` loads the "sample" table)."""
    jobs = []
    for number, (example, leaves) in enumerate(((1, None), (3, None), (1, "sample"), (2, "sample"))):
        rows, rack = examples()[example]
        out = web_api.solve(request(rows, rack, format="records", leaves=leaves, exchanges=bool(leaves)))
        assert "error" not in out, out
        tops = [0, 1, 7, 40, out["count"], out["count"] + 5]
        jobs.append({**node_job(out, tmp_path / f"top{number}.bin"), "tops": tops})
    results = run_node(TOP_NODE_SCRIPT, jobs, tmp_path)
    for job, got in zip(jobs, results, strict=True):
        assert len(got["full"]) == job["count"]
        for n, top in zip(job["tops"], got["top"], strict=True):
            assert top == got["full"][:n]
