#!/usr/bin/env python3
"""Inference benchmark: how well it finds the leave the opponent kept, and what it is worth.

    .venv/bin/python bench/infer.py tolerance [--turns 200] [--tolerances 0,2,5,10,20]
    .venv/bin/python bench/infer.py match [--games 2000] [--seconds 0.1] [--workers 2] [--log FILE]

``tolerance`` self-plays SOWPODS games between two static players that value leaves differently
from the table inference assumes (the opponent plays by the TWL06 table, or greedily with
--opponent greedy; inference assumes the SOWPODS table, as it would against a player whose
valuation it does not know), infers after each of the opponent's plays and exchanges with each
tolerance, and prints how often the leave really kept is among those inferred, the mean
probability given to it against its chance before the move (the lift), the racks left, and the
time. Turns are those with tiles in the bag after the move.

``match`` plays the simulating player with inference (from the opponent's last move, within the
same time per turn: the inference's time is taken from the simulation's) against the same player
without it, in mirrored pairs (the same bag, seats swapped), and prints the win rate of the one
with inference with a 95% Wilson interval and the mean spread. Each finished pair is appended to
--log, and a run given the same --log goes on from where it stopped.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import Game, Leaves, Lexicon, Rules  # noqa: E402
from gaddag_solver import _core_api as core  # noqa: E402
from gaddag_solver.game.endgame import EndgameSearch  # noqa: E402
from gaddag_solver.game.infer import InferenceError, infer, infer_last_move, position_before  # noqa: E402
from gaddag_solver.game.simulate import Simulation, SimulationError  # noqa: E402
from gaddag_solver.game.stats import mean_interval, wilson  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402

RULES = Rules.load("english")
_loaded: dict[str, object] = {}


def load() -> tuple[Lexicon, Leaves, Leaves]:
    if not _loaded:
        _loaded["lexicon"] = Lexicon.load(resolve_lexicon("sowpods"), RULES)
        _loaded["sowpods"] = Leaves.load("sowpods", RULES)
        _loaded["twl06"] = Leaves.load("twl06", RULES)
    return _loaded["lexicon"], _loaded["sowpods"], _loaded["twl06"]  # type: ignore[return-value]


def _prior_kept(unseen: list[int], move: object, rack_tiles: int) -> dict[str, float]:
    """Per letter, the chance before the move that the leave holds one (the leave drawn at random
    from the unseen tiles beside those the move placed): the baseline inference must beat."""
    placed = [0] * 64
    for _r, _c, letter, blank in getattr(move, "tiles", ()):
        placed[0 if blank else RULES.alphabet.code(letter)] += 1
    avail = [u - p for u, p in zip(unseen, placed, strict=True)]
    size = rack_tiles - (sum(placed) if move.is_play else len(move.exchanged))
    total = sum(avail)
    letters = ("?", *RULES.alphabet.letters)
    return {
        letters[c]: 1 - math.comb(total - avail[c], size) / math.comb(total, size)
        for c in range(len(letters))
        if avail[c]
    }


def _brier(kept: dict[str, float], truth: str) -> float:
    """The squared error of the per-letter chances against the leave really kept, summed."""
    return sum((p - (letter in truth)) ** 2 for letter, p in kept.items())


def tolerance(args: argparse.Namespace) -> None:
    lexicon, sowpods, twl06 = load()
    tolerances = [float(t) for t in args.tolerances.split(",")]
    rows = {
        t: {"turns": 0, "exhaustive": 0, "found": 0, "brier": 0.0, "prior": 0.0, "leaves": [], "seconds": 0.0}
        for t in tolerances
    }
    seed = args.seed
    turns = 0
    while turns < args.turns:
        game = Game.new(lexicon, seed=seed)
        seed += 1
        while not game.over and turns < args.turns:
            if game.to_move == 1:  # the opponent, whose leave player 0 infers
                move = game.best_move("greedy" if args.opponent == "greedy" else "equity", twl06)
            else:
                move = game.best_move("equity", sowpods)
            truth = "".join(sorted(move.leave))
            game.play(move)
            if game.to_move != 0 or move.kind == "pass" or game.bag_count == 0 or not truth:
                continue  # the opponent's moves that keep tiles, with tiles left in the bag
            turns += 1
            board, unseen = position_before(game.board, core.game_unseen(game._state, 0), move)
            prior = _prior_kept(unseen, move, min(RULES.rack_size, sum(unseen)))
            for t in tolerances:
                started = time.perf_counter()
                try:
                    result = infer_last_move(game, leaves=sowpods, tolerance=t, max_racks=args.max_racks)
                except InferenceError as error:
                    print(f"  skipped: {error}", file=sys.stderr)
                    continue
                row = rows[t]
                row["seconds"] += time.perf_counter() - started
                row["turns"] += 1
                kept = result.kept if result.informative else prior
                row["brier"] += _brier(kept, truth)
                row["prior"] += _brier(prior, truth)
                row["leaves"].append(len(result.leaves))
                if result.exhaustive:
                    got = {"".join(sorted(x.tiles)): x.probability for x in result.leaves}
                    row["exhaustive"] += 1
                    row["found"] += got.get(truth, 0.0) > 0
            del board
        print(f"  {turns}/{args.turns} turns", file=sys.stderr)
    print(
        f"inference of the opponent's leave ({args.opponent} player by the twl06 table; inference "
        f"assumes the sowpods table), SOWPODS self-play, {args.turns} turns that kept tiles, at most "
        f"{args.max_racks} racks valued"
    )
    print("| tolerance (points) | turns | real leave among those inferred (exhaustive turns) | "
          "letter Brier score, inferred | the same before the move | leaves left (median) | "
          "ms per inference |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for t, row in rows.items():
        n = max(1, row["turns"])
        found = (
            f"{100 * row['found'] / row['exhaustive']:.1f}% of {row['exhaustive']}"
            if row["exhaustive"]
            else "-"
        )
        print(
            f"| {t:g} | {row['turns']} | {found} | {row['brier'] / n:.4f} | {row['prior'] / n:.4f} | "
            f"{statistics.median(row['leaves'] or [0]):.0f} | {1000 * row['seconds'] / n:.0f} |"
        )


# ---- match -----------------------------------------------------------------------------------------


def choose(game: Game, leaves: Leaves, settings: dict, seed: int, with_inference: bool) -> object:
    seconds = settings["seconds"]
    started = time.perf_counter()
    if game.bag_count == 0:
        return EndgameSearch(game).run(time_limit=seconds).best
    inference = None
    history = game.history
    if with_inference and history and history[-1].player != game.to_move and history[-1].move.kind != "pass":
        try:
            last = history[-1].move
            board, unseen = position_before(game.board, core.game_unseen(game._state, game.to_move), last)
            inference = infer(
                board, unseen, last, game.lexicon, leaves=leaves, tolerance=settings["tolerance"],
                max_racks=settings["max_racks"], seed=seed,
            )  # fmt: skip
        except InferenceError:
            inference = None
    left = max(0.01, seconds - (time.perf_counter() - started)) if settings["charge"] else seconds
    try:
        simulation = Simulation(
            game, leaves=leaves, candidates=settings["candidates"], plies=2,
            confidence=settings["confidence"], min_iterations=settings["min_iterations"], seed=seed,
            inference=inference,
        )  # fmt: skip
    except SimulationError:
        return game.best_move("equity", leaves)
    return simulation.run(iterations=100_000, time_limit=left).best.move


def play_pair(job: tuple[int, dict]) -> dict:
    seed, settings = job
    lexicon, sowpods, _twl06 = load()
    spreads = []
    for infer_seat in (0, 1):
        game = Game.new(lexicon, seed=seed)
        turn = 0
        while not game.over:
            move = choose(game, sowpods, settings, seed * 1000 + turn, game.to_move == infer_seat)
            game.play(move)
            turn += 1
        scores = game.scores
        spreads.append(scores[infer_seat] - scores[1 - infer_seat])
    return {"seed": seed, "spreads": spreads}


def match(args: argparse.Namespace) -> None:
    settings = {
        "seconds": args.seconds, "candidates": args.candidates, "confidence": args.confidence,
        "min_iterations": args.min_iterations, "tolerance": args.tolerance, "max_racks": args.max_racks,
        "charge": args.inference_time == "charged",
    }  # fmt: skip
    log = Path(args.log)
    done: dict[int, list[int]] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                done[entry["seed"]] = entry["spreads"]
    seeds = [args.seed + i for i in range(args.games // 2) if args.seed + i not in done]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool, log.open("a") as out:
        for n, entry in enumerate(pool.map(play_pair, [(s, settings) for s in seeds]), 1):
            out.write(json.dumps(entry) + "\n")
            out.flush()
            done[entry["seed"]] = entry["spreads"]
            if n % 10 == 0:
                print(f"  {2 * len(done)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    spreads = [s for seed in sorted(done) if seed - args.seed < args.games // 2 for s in done[seed]]
    pair_means = [sum(done[seed]) / 2 for seed in sorted(done) if seed - args.seed < args.games // 2]
    wins = sum(1 for s in spreads if s > 0) + 0.5 * sum(1 for s in spreads if s == 0)
    rate = wilson(wins, len(spreads))
    spread = mean_interval(pair_means)
    print(
        f"simulation with inference against simulation without ({args.candidates} candidates, 2 plies, "
        f"confidence {args.confidence}, {args.seconds} s a turn for both, inference within it: tolerance "
        f"{args.tolerance:g}, at most {args.max_racks} racks, its time {args.inference_time}), SOWPODS, the "
        f"sowpods table, {len(spreads)} games in mirrored pairs"
    )
    print("| games | win rate with inference | 95% interval | mean spread | 95% interval |")
    print("| --- | --- | --- | --- | --- |")
    print(
        f"| {len(spreads)} | {100 * rate.value:.1f}% | {100 * rate.low:.1f}–{100 * rate.high:.1f}% | "
        f"{spread.value:+.1f} | {spread.low:+.1f} to {spread.high:+.1f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("tolerance", "match"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=200, help="tolerance: opponent turns inferred from")
    parser.add_argument("--tolerances", default="0,2,5,10,20")
    parser.add_argument("--opponent", choices=("equity", "greedy"), default="equity")
    parser.add_argument(
        "--min-tiles", type=int, default=1, help="tolerance: plays of this many tiles or more"
    )
    parser.add_argument("--max-racks", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=6)
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--min-iterations", type=int, default=16)
    parser.add_argument("--tolerance", type=float, default=2.0, help="match: the inference's tolerance")
    parser.add_argument("--log", default="bench-infer-match.jsonl", help="match: finished pairs (resumable)")
    parser.add_argument(
        "--inference-time",
        choices=("charged", "free"),
        default="charged",
        help="match: the inference's time taken from the turn's (default) or not (its worth alone)",
    )
    args = parser.parse_args()
    print(f"$ {' '.join(sys.argv)}")
    if args.what == "tolerance":
        tolerance(args)
    else:
        match(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
