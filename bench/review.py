#!/usr/bin/env python3
"""Review benchmark: games analysed per second, on one process and on local workers.

    .venv/bin/python bench/review.py [--lexicon sowpods] [--leaves sowpods] [--games 200]
                                     [--workers 1,2] [--seed 1] [--repeat 3] [--json]
                                     [--sim [--sim-candidates 15] [--sim-plies 2]
                                      [--sim-iterations 2000] [--sim-time SECONDS]]

Self-plays --games games (equity with the leave table against greedy, so both good and bad
moves are reviewed), writes them as GCG files, then reviews the folder with
``review_files`` — parsing, replaying with every check, and for every turn all moves valued by
equity — once per worker count (the fastest of --repeat runs; one warm-up game first). Prints a
table: workers, games, turns reviewed, seconds, games/s, turns/s, ms per turn.

With --sim every turn with tiles in the bag is simulated too (``SimSettings``; the defaults are
simulate.py's): games/s and turns/s then count the simulation, and the table adds the turns
simulated, their mean iterations, how many the stopping rule decided (the rest ran to the
limit) and the seconds per simulated turn. A simulated review is about a thousand times slower:
give a few games (--games, default 10 with --sim) and one run (--repeat, default 1 with --sim).
"cpu s" is the CPU time of this process and its worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import Rules  # noqa: E402
from gaddag_solver.game.autoplay import Match, PlayerSpec, game_gcg, run_autoplay  # noqa: E402
from gaddag_solver.game.review import ReviewSpec, SimSettings, find_games, review_files  # noqa: E402
from gaddag_solver.game.simulate import DEFAULT_CANDIDATES, DEFAULT_ITERATIONS, DEFAULT_PLIES  # noqa: E402
from gaddag_solver.lexicons import ENV_VAR  # noqa: E402


def write_games(folder: Path, lexicon: str, leaves: str, games: int, seed: int) -> None:
    match = Match.create(lexicon, "english", [PlayerSpec.parse(f"equity:{leaves}"), PlayerSpec("greedy")])
    run = run_autoplay(match, games, seed, keep_games=True)
    rules = Rules.load("english")
    for record in run.records:
        (folder / f"game-{record.index:05d}.gcg").write_text(game_gcg(record, match, rules), encoding="utf-8")


def cpu_seconds() -> float:
    """CPU time of this process and of its worker processes ended so far: on a shared machine
    the figure other jobs' load changes least."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods", help=f"lexicon name or path (see ${ENV_VAR})")
    parser.add_argument("--leaves", default="sowpods", help="leave table of the review and of the player")
    parser.add_argument(
        "--games", type=int, help="games to self-play and review (default 200; 10 with --sim)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers", default=f"1,{os.cpu_count() or 1}", help="worker counts to time, comma-separated"
    )
    parser.add_argument(
        "--repeat", type=int, help="runs per worker count; the fastest is kept (default 3; 1 with --sim)"
    )
    parser.add_argument("--json", action="store_true", help="also print the rows as JSON")
    parser.add_argument("--sim", action="store_true", help="review by simulation too")
    parser.add_argument("--sim-candidates", type=int, default=DEFAULT_CANDIDATES)
    parser.add_argument("--sim-plies", type=int, default=DEFAULT_PLIES)
    parser.add_argument("--sim-iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument(
        "--sim-time", type=float, metavar="SECONDS", help="most seconds a turn (default none)"
    )
    args = parser.parse_args()
    if args.games is None:
        args.games = 10 if args.sim else 200
    if args.repeat is None:
        args.repeat = 1 if args.sim else 3

    counts = sorted({max(1, int(part)) for part in args.workers.split(",") if part.strip()})
    sim = None
    if args.sim:
        sim = SimSettings(args.sim_candidates, args.sim_plies, args.sim_iterations, args.sim_time)
    spec = ReviewSpec(args.lexicon, args.leaves, sim=sim)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        write_games(Path(folder), args.lexicon, args.leaves, args.games, args.seed)
        paths = find_games(folder)
        review_files(paths[:1], ReviewSpec(args.lexicon, args.leaves), workers=1)  # load the lexicon, table
        for workers in counts:
            best = cpu = None
            for _ in range(max(1, args.repeat)):
                started, used = time.perf_counter(), cpu_seconds()
                results = review_files(paths, spec, workers=workers)
                seconds = time.perf_counter() - started
                if best is None or seconds < best:
                    best, cpu = seconds, cpu_seconds() - used
            assert best is not None and cpu is not None
            failed = [r.path for r in results if r.error is not None]
            if failed:
                print(f"error: {len(failed)} files failed, e.g. {failed[0]}", file=sys.stderr)
                return 1
            turns = [record for r in results for record in r.records if record["type"] == "turn"]
            row = {
                "workers": workers,
                "games": len(paths),
                "turns": len(turns),
                "seconds": round(best, 3),
                "cpu_seconds": round(cpu, 3),
                "games_per_second": round(len(paths) / best, 3 if sim else 1),
                "turns_per_second": round(len(turns) / best, 3 if sim else 1),
                "ms_per_turn": round(1000 * best / len(turns), 3),
            }
            if sim is not None:
                simulated = [record for record in turns if record["sim_best"] is not None]
                row["simulated"] = len(simulated)
                row["mean_iterations"] = round(
                    sum(r["sim_iterations"] for r in simulated) / max(1, len(simulated))
                )
                row["decided"] = sum(1 for r in simulated if r["sim_stopped"] == "decided")
                row["s_per_simulated_turn"] = round(best / len(simulated), 3) if simulated else 0.0
            rows.append(row)
    header = ["workers", "games", "turns", "seconds", "cpu s", "games/s", "turns/s", "ms/turn"]
    if sim is not None:
        header += ["simulated", "iterations", "decided", "s/simulated turn"]
    table = [header] + [[str(value) for value in row.values()] for row in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    print(f"review: {args.lexicon}, leaves {args.leaves}, equity:{args.leaves} v greedy, seed {args.seed}")
    if sim is not None:
        limit = f", at most {sim.time_limit:g} s" if sim.time_limit is not None else ""
        print(
            f"simulated: {sim.candidates} candidates + the move made, {sim.plies} plies, at most "
            f"{sim.iterations} iterations{limit} a turn, confidence {sim.confidence:g}"
        )
    print("| " + " | ".join(h.rjust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for line in table[1:]:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)) + " |")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
