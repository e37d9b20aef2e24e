"""One fixed workload, run natively and inside Pyodide; both print the same JSON or a binding
differs. Used by test_wasm_parity.py and bench/wasm.py.

    python tests/parity_job.py LEXICON.gaddag DATA_DIR [--bench REPEAT]

Results are exact: every play of every reference position (as a digest of the sorted list of
row, col, direction, word, score, plus the best plays in full), lexicon queries, and the class
and message of every error case.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

from gaddag_solver import Lexicon, Rules
from gaddag_solver.board import Board, position_warnings
from gaddag_solver.rack import Rack
from gaddag_solver.solver import Solver

# CAT through the start square, and one tile on its own in the corner
FLOATING = ["A" + "." * 14] + ["." * 15] * 6 + ["......CAT......"] + ["." * 15] * 7
QUERY_WORDS = ["QI", "ZA", "CAT", "CATS", "XU", "QAT", "ZZZ", "AA", "OXYPHENBUTAZONE", "qi", "Qi", "AB1"]


def read_blocks(path: Path) -> list[tuple[list[str], str]]:
    """positions.txt / examples.txt: 15 board lines then a rack line per block."""
    blocks = []
    for block in path.read_text().strip().split("\n\n"):
        lines = block.strip().splitlines()
        blocks.append((lines[:-1], lines[-1].strip()))
    return blocks


def play_list(solver: Solver, board: Board, rack: str) -> list[list[object]]:
    moves = solver.solve(board, "" if rack == "-" else rack)
    return [[m.row, m.col, m.direction, m.word, m.score] for m in moves]


def error_of(call) -> list[str] | None:  # type: ignore[no-untyped-def]
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the class and message are the result
        return [type(exc).__name__, str(exc)]
    return None


def run(lexicon_path: str, data_dir: str) -> dict[str, object]:
    data = Path(lexicon_path).read_bytes()
    lexicon = Lexicon.load(data)
    rules = Rules.load("english")
    solver = Solver(lexicon, rules)
    from gaddag_solver._binding import ffi

    # The core reads the arcs in the very bytes object handed to Lexicon.load: no copy.
    in_place = int(ffi.cast("uintptr_t", lexicon._core.struct.data)) == int(
        ffi.cast("uintptr_t", ffi.from_buffer(data))
    )
    result: dict[str, object] = {
        "lexicon_used_in_place": in_place,
        "stats": [lexicon.stats.words, lexicon.stats.states, lexicon.stats.arcs, lexicon.stats.bytes],
        "contains": {word: word in lexicon for word in QUERY_WORDS},
        "anagrams": lexicon.anagrams("AEINRST"),
        "anagrams_partial_blank": lexicon.anagrams("QZ?", partial=True),
        "pattern": lexicon.pattern(".A.E"),
        "containing": lexicon.containing("QUA")[:200],
    }
    positions = {}
    for name in ("positions.txt", "examples.txt"):
        for index, (rows, rack) in enumerate(read_blocks(Path(data_dir) / name)):
            board = Board.from_rows(rows, rules)
            plays = play_list(solver, board, rack)
            canonical = json.dumps(plays, ensure_ascii=False, separators=(",", ":"))
            positions[f"{name}:{index}"] = {
                "count": len(plays),
                "digest": hashlib.sha256(canonical.encode()).hexdigest(),
                "best": plays[:5],
            }
    result["positions"] = positions
    floating = Board.from_rows(FLOATING, rules)  # solved, with a warning
    plays = play_list(solver, floating, "ZEST?")
    result["floating"] = {
        "warnings": position_warnings(floating, None),
        "count": len(plays),
        "digest": hashlib.sha256(json.dumps(plays, ensure_ascii=False).encode()).hexdigest(),
        "corner": [play for play in plays if play[0] == 0 and play[1] == 0][:5],  # through the floating A
    }

    result["games"] = games(lexicon, rules)

    empty = Board.empty(rules)
    result["errors"] = {
        "truncated": error_of(lambda: Lexicon.load(data[:1000])),
        "flipped": error_of(lambda: Lexicon.load(data[:5000] + bytes([data[5000] ^ 1]) + data[5001:])),
        "bad_version": error_of(lambda: Lexicon.load(data[:8] + b"\x07" + data[9:])),
        "not_a_lexicon": error_of(lambda: Lexicon.load(b"hello world, this is not a lexicon at all....")),
        "rack_too_long": error_of(lambda: Rack("ABCDEFGH", rules)),
        "rack_bad_letter": error_of(lambda: Rack("AB3", rules)),
        "wrong_size": error_of(lambda: Board.from_rows(["." * 15] * 14, rules)),
        "empty_board_ok": error_of(lambda: solver.solve(empty, "AB")),
    }
    return result


def games(lexicon: Lexicon, rules: Rules) -> dict[str, object]:
    """Seeded games: the same seed must give the same game on every platform (the bag, the
    draws, the moves chosen, equity with a leave table, the end)."""
    from gaddag_solver import Game, Leaves
    from gaddag_solver import _core_api as core
    from gaddag_solver.rules_core import core_rules

    leaves = Leaves.from_csv_text("?,25\nS,8\nQ,-7.5\nAE,3.25\nEIR,4\nU,-2\nVV,-9.99\n", rules)
    out: dict[str, object] = {}
    for seed in (1, 2, 3):
        game = Game.new(lexicon, seed=seed)
        moves = []
        while not game.over:
            move = game.best_move("equity", leaves if seed % 2 else None)
            moves.append(f"{move} {move.equity}")
            game.play(move)
        out[f"game:{seed}"] = {"moves": moves, "scores": list(game.scores), "end": list(game.end_adjustments)}
    selfplay = core.SelfPlay()
    selfplay.set_player(0, "equity", leaves.core)
    selfplay.set_player(1, "greedy")
    played = [core.autoplay(lexicon._core, core_rules(rules), selfplay, seed) for seed in range(20)]
    digest = hashlib.sha256(repr([(g.scores, g.turns) for g in played]).encode()).hexdigest()
    out["autoplay"] = {"digest": digest, "scores": [list(g.scores) for g in played]}
    out["look_ahead"] = look_ahead(lexicon, leaves)
    out["pass"] = pass_values(lexicon, rules)
    return out


PASS_CSV = "AEINST,30.5\nAEINRT,12.25\nEINRST,28\nAEIRST,-3.33\nAENRST,7\nQVVXZJ,-41.07\nVVXZJK,-52\n"


def pass_values(lexicon: Lexicon, rules: Rules) -> dict[str, object]:
    """The pass's equity (the full rack, valued from its 6-tile sub-racks: docs/equity.md) with a
    table holding a few 6-tile leaves (PASS_CSV), on the empty board with tiles in the bag."""
    from gaddag_solver import Leaves

    table = Leaves.from_csv_text(PASS_CSV, rules)
    solver = Solver(lexicon, rules)
    out = {}
    for rack in ("AEINRST", "QVVXZJK", "AEINST?"):
        moves = solver.solve(Board.empty(rules), rack, leaves=table, exchanges=True, bag=40, warn=False)
        out[rack] = [m.equity for m in moves if m.kind == "pass"]
    return out


def look_ahead(lexicon: Lexicon, leaves: object) -> dict[str, object]:
    """A seeded simulation (every candidate's statistics), an inference of the last move's leave
    (sampled and exhaustive) and a simulation drawing from it, and an endgame solved exactly: the
    same on every platform. Win estimates go through exp(), so they are compared to 9 digits."""
    from gaddag_solver import Game
    from gaddag_solver.game.endgame import solve_endgame
    from gaddag_solver.game.infer import infer_last_move
    from gaddag_solver.game.simulate import Simulation

    game = Game.new(lexicon, seed=4)
    for _ in range(5):
        game.play(game.best_move("equity", leaves))
    sim = Simulation(game, leaves=leaves, candidates=6, seed=11).step(40)  # type: ignore[arg-type]
    rows = [
        [str(c.move), c.iterations, round(c.mean, 6), round(c.win_rate, 9), c.dropped] for c in sim.candidates
    ]
    inferred = {}
    for max_racks in (300, 5000):  # sampled, then every rack
        inference = infer_last_move(game, leaves=leaves, max_racks=max_racks, seed=3)  # type: ignore[arg-type]
        inferred[str(max_racks)] = [
            inference.racks, inference.consistent, inference.exhaustive, round(inference.effective_racks, 6),
            [[x.tiles, round(x.probability, 12)] for x in inference.leaves[:12]],
        ]  # fmt: skip
    sim_inferred = Simulation(game, leaves=leaves, candidates=4, seed=12, inference=inference).step(25)  # type: ignore[arg-type]
    rows_inferred = [[str(c.move), c.iterations, round(c.mean, 6)] for c in sim_inferred.candidates]
    while game.bag_count:
        game.play(game.best_move("equity", leaves))
    endgame = solve_endgame(game, time_limit=None) if not game.over else None
    return {
        "sim": rows,
        "inference": inferred,
        "sim_inferred": rows_inferred,
        "endgame": None
        if endgame is None
        else [endgame.value, endgame.complete, list(map(str, endgame.line))],
    }


def bench(lexicon_path: str, data_dir: str, repeat: int) -> dict[str, object]:
    """Per position: board set-up and all-plays generation, median of `repeat` runs, in µs."""
    from gaddag_solver import _binding

    started = time.perf_counter()
    lexicon = Lexicon.load(Path(lexicon_path).read_bytes())
    load_ms = (time.perf_counter() - started) * 1000
    rules = Rules.load("english")
    solver = Solver(lexicon, rules)
    rows_out = []
    for name in ("positions.txt",):
        for rows, rack in read_blocks(Path(data_dir) / name):
            board = Board.from_rows(rows, rules)
            rack_text = "" if rack == "-" else rack
            times = []
            count = 0
            for _ in range(repeat):
                t0 = time.perf_counter()
                count, _records = solver.solve_raw(board, rack_text)
                times.append(time.perf_counter() - t0)
            rows_out.append({"rack": rack, "moves": count, "us": statistics.median(times) * 1e6})
    return {"binding": _binding.BINDING, "platform": sys.platform, "load_ms": load_ms, "positions": rows_out}


def main() -> int:
    args = sys.argv[1:]
    if len(args) >= 4 and args[2] == "--bench":
        print(json.dumps(bench(args[0], args[1], int(args[3]))))
    else:
        print(json.dumps(run(args[0], args[1]), ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
