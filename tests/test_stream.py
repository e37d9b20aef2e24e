"""Every move of a position without holding them all: the core's stream (gd_generate_stream), the
Solver's MoveStream and ``solve --all``.

The stream gives exactly gd_generate's records in the same order whatever its buffer size, on
the 62 reference positions (plain, and valued with exchanges and the pass); ranked, a MoveStream
equals :meth:`Solver.solve`, sorted in memory or in runs merged from disk; the command line writes
the same JSON as json.dumps; and the peak memory of ``solve --all`` on a position of a million
plays stays what it is on one of a few thousand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Lexicon, Rules, Solver, cli, parse_cgp
from gaddag_solver import _core_api as core
from gaddag_solver.cli import _output
from gaddag_solver.formats.leaves import Leaves

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "sowpods"
ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def sowpods() -> Lexicon:
    path = REPO / "lexicons" / "sowpods.gaddag"
    if not path.is_file():
        pytest.fail("lexicons/sowpods.gaddag is not built: run scripts/setup_env.sh")
    return Lexicon.load(path)


def positions() -> list[str]:
    return (DATA / "positions.cgp").read_text(encoding="utf-8").splitlines()


def test_the_stream_gives_the_generated_records_in_order(sowpods: Lexicon) -> None:
    solver = Solver(sowpods, ENGLISH)
    table = Leaves.from_csv_text("?,25\nS,8\nQ,-7\nEI,3.5\n", ENGLISH)
    checked = 0
    for line in positions():
        position = parse_cgp(line, ENGLISH)
        board, rack = position.board, position.rack
        core.prepare(sowpods._core, solver._rules, solver._workspace, board.codes())
        for valuation in (None, solver.valuation(board, rack, leaves=table, exchanges=True)):
            options = None if valuation is None else core.equity_options(valuation)
            count, records = core.generate(
                sowpods._core, solver._rules, solver._workspace, rack.counts(), 0, options
            )
            for chunk in (1, 7, core.STREAM_CHUNK):
                streamed = core.stream(
                    sowpods._core, solver._rules, solver._workspace, rack.counts(), options, chunk
                )
                assert b"".join(streamed) == records, (line, chunk)
            checked += count
    assert checked == 89_363  # moves compared, each three times


def test_a_ranked_stream_is_solve_in_memory_and_from_sorted_runs(sowpods: Lexicon) -> None:
    solver = Solver(sowpods, ENGLISH)
    lines = positions()
    for number in (0, 5, 30, 54):
        position = parse_cgp(lines[number], ENGLISH)
        for options in ({}, {"equity": True, "exchanges": True}):
            want = solver.solve(position.board, position.rack, warn=False, **options)
            stream = solver.stream(position.board, position.rack, warn=False, **options)
            assert stream.count == len(want)
            assert list(stream) == want  # one sorted buffer
            stream.sort_in_memory = 97  # runs of 97 sorted moves in temporary files, merged
            assert list(stream) == want
            unsorted = list(solver.stream(position.board, position.rack, ranked=False, warn=False, **options))
            assert len(unsorted) == len(want)
            assert sorted(repr(m.to_dict()) for m in unsorted) == sorted(repr(m.to_dict()) for m in want)


def test_a_damaged_or_foreign_stream_is_refused(sowpods: Lexicon) -> None:
    from gaddag_solver._binding import ffi, lib

    solver = Solver(sowpods, ENGLISH)
    position = parse_cgp(positions()[5], ENGLISH)
    core.prepare(sowpods._core, solver._rules, solver._workspace, position.board.codes())
    args = (sowpods._core.struct, solver._rules, solver._workspace.board, solver._workspace.memory)
    out = ffi.new("gd_move[]", 3)
    count = ffi.new("size_t *")
    err = ffi.new("gd_error *")
    stream = ffi.new("gd_stream *")
    assert (
        lib.gd_generate_stream(*args, position.rack.counts(), ffi.NULL, stream, out, 3, count, err)
        == lib.GD_OK
    )
    assert (count[0], stream.state) == (3, lib.GD_STREAM_RESUME)
    other = parse_cgp(positions()[6], ENGLISH).rack.counts()  # another rack: its moves differ
    assert lib.gd_generate_stream(*args, other, ffi.NULL, stream, out, 3, count, err) == lib.GD_ERR_ARGUMENT
    assert "not a move of this position" in ffi.string(err.message).decode()
    stream.state, stream.line = lib.GD_STREAM_RESUME, 40
    assert lib.gd_generate_stream(*args, other, ffi.NULL, stream, out, 3, count, err) == lib.GD_ERR_ARGUMENT
    stream.state = 7
    assert lib.gd_generate_stream(*args, other, ffi.NULL, stream, out, 3, count, err) == lib.GD_ERR_ARGUMENT
    assert "state 7 is unknown" in ffi.string(err.message).decode()


@pytest.mark.parametrize(
    "value",
    [
        {"count": 0, "moves": []},
        [
            {"line": 1, "error": "bad"},
            {"line": 2, "count": 1, "moves": [{"w": [{"a": 1}], "s": "é"}], "u": {}},
        ],
        {"a": [1, [2, [3, {}]], []], "b": {"c": None, "d": 1.5, "e": True}},
        [],
    ],
)
def test_the_json_writer_writes_what_json_dumps_does(
    value: object, capsys: pytest.CaptureFixture[str]
) -> None:
    def lazy(obj: object) -> object:  # every "moves" list as the CLI hands it over
        if isinstance(obj, dict):
            return {k: _output._MoveDicts(v, False) if k == "moves" else lazy(v) for k, v in obj.items()}
        return [lazy(item) for item in obj] if isinstance(obj, list) else obj

    class Dicts:  # what _MoveDicts iterates: objects with to_dict
        def __init__(self, d: dict) -> None:
            self.d = d

        def to_dict(self, words: bool) -> dict:
            return self.d

    def wrap(obj: object) -> object:
        if isinstance(obj, dict):
            return {k: [Dicts(m) for m in v] if k == "moves" else wrap(v) for k, v in obj.items()}
        return [wrap(item) for item in obj] if isinstance(obj, list) else obj

    for indent in (None, 2):
        _output._write_json(lazy(wrap(value)), indent)
        assert capsys.readouterr().out == json.dumps(value, ensure_ascii=False, indent=indent)


WIDE = {"name": "wide", "rack_size": 9, "blanks": 4}  # english with a rack of 9 and four blanks
MEASURE = """
import resource, sys
from gaddag_solver import cli, solver
solver.SORT_IN_MEMORY = int(sys.argv[1])
status = cli.main(sys.argv[2:])
sys.stdout.flush()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, status, file=sys.stderr)
"""


def run_measured(tmp_path: Path, rack: str, *options: str, sort_in_memory: int = 20_000) -> tuple[int, int]:
    """(lines written, peak resident kilobytes) of `solve` on the empty board of WIDE rules."""
    rules = {**ENGLISH.to_dict(), **WIDE}
    (tmp_path / "wide.json").write_text(json.dumps(rules), encoding="utf-8")
    (tmp_path / "board.txt").write_text(("." * 15 + "\n") * 15, encoding="utf-8")
    argv = [
        "solve",
        "--lexicon",
        str(REPO / "lexicons" / "sowpods.gaddag"),
        "--rules",
        str(tmp_path / "wide.json"),
    ]
    argv += ["--board", str(tmp_path / "board.txt"), "--rack", rack, *options]
    with open(tmp_path / "out.txt", "wb") as out:
        done = subprocess.run(
            [sys.executable, "-c", MEASURE, str(sort_in_memory), *argv],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
        )
    peak, status = done.stderr.split()[-2:]
    assert status == "0", done.stderr
    with open(tmp_path / "out.txt", "rb") as out:
        return sum(1 for _ in out), int(peak)


@pytest.mark.parametrize("options", [("--format", "tsv"), ("--format", "jsonl", "--unsorted")])
def test_all_runs_in_memory_that_does_not_grow_with_the_plays(
    sowpods: Lexicon, tmp_path: Path, options: tuple[str, ...]
) -> None:
    small_lines, small_peak = run_measured(tmp_path, "AEIRST?", *options)
    big_lines, big_peak = run_measured(tmp_path, "AEIRST??", *options)
    if options[1] == "tsv":  # a header line, then a play a line
        assert (small_lines, big_lines) == (1 + 31_644, 1 + 298_586)
    else:  # one line holds every play; its size is what grows
        assert small_lines == big_lines == 1 and (tmp_path / "out.txt").stat().st_size > 30_000_000
    # nine times the plays, and the peak stays where it was (before streaming: 500 MB more)
    assert big_peak - small_peak < 40_000, (small_peak, big_peak)


def test_past_the_disk_limit_the_moves_come_in_generation_order_with_a_warning(
    sowpods: Lexicon, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gaddag_solver import solver as solver_module

    line = positions()[5]
    argv = ["solve", "--lexicon", str(REPO / "lexicons" / "sowpods.gaddag"), "--cgp", line, "--format", "tsv"]
    assert cli.main(argv) == 0
    ranked, err = capsys.readouterr()
    assert err == ""
    monkeypatch.setattr(solver_module, "SORT_ON_DISK", 1000)
    assert cli.main(argv) == 0
    listed, err = capsys.readouterr()
    assert err == (
        "warning: 7,000 moves are more than the 1,000 ranked (sorting takes 48 bytes a move of "
        "temporary files): listed in generation order\n"
    )
    assert listed != ranked and sorted(listed.splitlines()) == sorted(ranked.splitlines())
    assert cli.main([*argv, "--unsorted"]) == 0
    assert capsys.readouterr() == (listed, "")
