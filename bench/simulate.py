#!/usr/bin/env python3
"""Simulation benchmark: how fast it simulates, and how much stronger it plays.

    .venv/bin/python bench/simulate.py speed [--positions 20] [--iterations 200] [--plies 2] [--threads 1,2]
                                             [--magpie]
    .venv/bin/python bench/simulate.py page [--seconds 10] [--threads 1,2]
    .venv/bin/python bench/simulate.py match [--games 200] [--seconds 0.25] [--workers 2]
    .venv/bin/python bench/simulate.py duel --a CHANGES --b CHANGES [--games 2000] [--seconds 0.1]
                                            [--from-tiles 100]

``speed`` simulates the candidates of positions taken from self-play (SOWPODS, the shipped leave
table) for a fixed number of iterations with the stopping rule off, and prints playouts per
second and candidate-plies per second (a playout is the candidate and its plies); with --threads
1,2 each count in turn, with the speed-up over the first and whether the standings agree.
With --magpie, MAGPIE (built by ``bash bench/magpie/build.sh``; skipped with a message when it is
not) then simulates the same positions with the same settings (15 candidates by static equity with
our sowpods table in its format, round robin, no stopping rule) on the first thread count, and the
playouts per second are printed side by side, position by position, with the CPU model and load.

``page`` runs the same simulation in the page (Chromium, the built site, the worker's Pyodide) for
--seconds on one mid-game position with each number of workers in --threads (the page's worker
and helpers), and natively on one thread for as many iterations as the first, and prints playouts
per second and the page's speed-up over its first count.

``match`` plays the simulating player (--candidates, --plies, at most --seconds per turn; with
the bag empty, the endgame search for as long) against the static-equity player with the same
leave table, in mirrored pairs (the same bag, seats swapped), on --workers processes, and prints
the simulating player's wins with a 95% Wilson interval, the mean spread with its interval, and
the time it took per turn.

``duel`` plays two simulating players that differ only in the settings --a and --b change
("plies=4", "rank_by=win", "seconds=0.2"...). Both play static equity until --from-tiles or fewer
tiles are unplayed (bag and racks; 100: the whole game), then simulate, and search the endgame
alike once the bag is empty; mirrored pairs. It prints A's wins with a 95% interval: e.g. what
ranking by wins is worth in the last turns before the endgame (--a rank_by=win --b rank_by=equity
--from-tiles 40), or 4 plies against 2 at the same time a turn (--a plies=4 --b plies=2).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))
sys.path.insert(0, str(ROOT / "bench"))  # magpie_side, for --magpie

from gaddag_solver import Game, Leaves, Lexicon, Rules  # noqa: E402
from gaddag_solver.formats.cgp import Position, format_cgp  # noqa: E402
from gaddag_solver.game.endgame import EndgameSearch  # noqa: E402
from gaddag_solver.game.simulate import DEFAULT_CANDIDATES, Simulation, SimulationError  # noqa: E402
from gaddag_solver.game.stats import mean_interval, wilson  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402

RULES = Rules.load("english")
_loaded: dict[str, tuple[Lexicon, Leaves]] = {}


def load(name: str) -> tuple[Lexicon, Leaves]:
    if name not in _loaded:
        _loaded[name] = (Lexicon.load(resolve_lexicon(name), RULES), Leaves.load(name, RULES))
    return _loaded[name]


def positions(lexicon: Lexicon, leaves: Leaves, count: int, seed: int) -> list[Game]:
    """Mid-game positions (bag holding tiles) from self-play: a few turns into each game."""
    found = []
    game_seed = seed
    while len(found) < count:
        game = Game.new(lexicon, seed=game_seed)
        for _ in range(2 + game_seed % 12):
            if game.over or game.bag_count < 10:
                break
            game.play(game.best_move("equity", leaves))
        if not game.over and game.bag_count >= 10:
            found.append(game)
        game_seed += 1
    return found


def speed(args: argparse.Namespace) -> None:
    lexicon, leaves = load(args.lexicon)
    games = positions(lexicon, leaves, args.positions, args.seed)
    counts = [int(n) for n in str(args.threads).split(",")]
    print(f"simulation speed, {args.lexicon}, {len(games)} positions, {args.iterations} iterations each, "
          f"{args.plies} plies, the stopping rule off")  # fmt: skip
    print("| threads | positions | playouts | seconds | playouts/s | candidate-plies/s | speed-up | "
          "same standing |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    baseline = None
    first: list[object] = []
    per_position: list[tuple[int, float]] = []
    for threads in counts:
        playouts = plies = 0
        seconds = 0.0
        standings = []
        for i, game in enumerate(games):
            simulation = Simulation(
                game, leaves=leaves, plies=args.plies, confidence=0, seed=i, threads=threads
            )
            started = time.perf_counter()
            result = simulation.step(args.iterations)
            spent = time.perf_counter() - started
            seconds += spent
            done = sum(c.iterations for c in result.candidates)
            if threads == counts[0]:
                per_position.append((done, spent))
            playouts += done
            plies += done * (1 + args.plies)
            standings.append([(str(c.move), c.mean) for c in result.candidates])
        rate = playouts / seconds
        baseline = baseline or rate
        first = first or standings
        same = "yes" if standings == first else "NO"
        print(f"| {threads} | {len(games)} | {playouts} | {seconds:.2f} | {rate:.0f} | "
              f"{plies / seconds:.0f} | {rate / baseline:.2f}× | {same} |")  # fmt: skip
    if args.magpie:
        print_magpie(args, games, per_position, counts[0])


def cgp_of(game: Game) -> str:
    """The position of a game as a CGP line: board, the rack on turn, scores on turn first."""
    scores = game.scores
    mover = game.to_move
    position = Position(
        game.board, game.rack(), None, (scores[mover], scores[1 - mover]), game.scoreless_turns
    )
    return format_cgp(position)


def print_magpie(
    args: argparse.Namespace, games: list[Game], ours: list[tuple[int, float]], threads: int
) -> None:
    """MAGPIE's simulation of the same positions, beside ours (``--magpie``)."""
    import magpie_side

    print()
    if magpie_side.magpie_dir() is None:
        print(magpie_side.SKIP_MESSAGE)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "positions.cgp"
        path.write_text("".join(cgp_of(game) + "\n" for game in games))
        theirs = magpie_side.simulate(path, args.iterations, args.plies, DEFAULT_CANDIDATES, threads)
    if len(theirs) != len(ours):
        raise SystemExit(f"MAGPIE simulated {len(theirs)} positions of {len(ours)}")
    print(f"MAGPIE beside ours, same positions, run after ours: CPU {magpie_side.cpu_model()}, "
          f"load {os.getloadavg()[0]:.2f}; {threads} thread(s), {DEFAULT_CANDIDATES} candidates, "
          f"{args.plies} plies, {args.iterations} playouts each, round robin")  # fmt: skip
    print("| position | rack | ours playouts/s | MAGPIE playouts/s | ours / MAGPIE |")
    print("| --- | --- | --- | --- | --- |")
    ratios = []
    for number, (game, (done, spent), (their_done, their_spent)) in enumerate(
        zip(games, ours, theirs, strict=True), 1
    ):
        our_rate, their_rate = done / spent, their_done / their_spent
        ratio = our_rate / their_rate
        ratios.append(ratio)
        print(f"| {number} | {game.rack()} | {our_rate:.0f} | {their_rate:.0f} | {ratio:.2f} |")
    our_total = sum(d for d, _ in ours) / sum(t for _, t in ours)
    their_total = sum(d for d, _ in theirs) / sum(t for _, t in theirs)
    print(f"| all | | {our_total:.0f} | {their_total:.0f} | {our_total / their_total:.2f} |")
    print(f"median of the per-position ratios {statistics.median(ratios):.2f} (range "
          f"{min(ratios):.2f}–{max(ratios):.2f}); above 1: ours faster (the target is 1.5)")  # fmt: skip


def page(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from web_figures import set_position, site_tab

    lexicon, leaves = load(args.lexicon)
    game = positions(lexicon, leaves, 1, args.seed)[0]
    rows, rack = game.board.to_rows(), str(game.rack())
    standings = []
    with site_tab() as tab:
        set_position(tab, rows, rack)
        tab.click("#lookahead-box summary")
        cores = tab.evaluate("navigator.hardwareConcurrency")
        for workers in (int(n) for n in args.threads.split(",")):
            tab.fill("#sim-candidates", "15")
            tab.fill("#sim-plies", str(args.plies))
            tab.fill("#sim-confidence", "0")  # none dropped: every candidate simulated until stopped
            tab.fill("#sim-workers", str(workers))
            tab.click("#sim-start")
            tab.wait_for_function("() => (window.gaddag.lookAhead()?.iterations || 0) > 0", timeout=120_000)
            time.sleep(args.seconds)
            if tab.is_visible("#lookahead-stop"):  # else it ran its 2000 iterations already
                tab.click("#lookahead-stop")
            tab.wait_for_function("() => !document.querySelector('#lookahead').hasAttribute('aria-busy')")
            standings.append((workers, tab.evaluate("window.gaddag.lookAhead()")))
            print(f"{workers} worker(s): {tab.text_content('#lookahead-status')}", file=sys.stderr)
    iterations = standings[0][1]["iterations"]
    native = Simulation(
        Game.from_board(game.board, rack, lexicon), leaves=leaves, plies=args.plies, confidence=0, seed=1
    )
    started = time.perf_counter()
    result = native.step(iterations)
    seconds = time.perf_counter() - started
    native_rate = sum(c.iterations for c in result.candidates) / seconds
    loadavg = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"one position, 15 candidates, {args.plies} plies; Chromium reports {cores} cores; load {loadavg}")
    print("| where | playouts | seconds | playouts/s | candidate-plies/s | ratio to native | speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    played = sum(c.iterations for c in result.candidates)
    rows_out = [("native (cffi), one thread", played, seconds, native_rate)]
    for workers, standing in standings:
        in_page = sum(c["iterations"] for c in standing["candidates"])
        rate = in_page / standing["elapsed"]
        rows_out.append((f"page, {workers} worker(s)", in_page, standing["elapsed"], rate))
    first_page = rows_out[1][3]
    for name, playouts, spent, rate in rows_out:
        speedup = f"{rate / first_page:.2f}×" if name.startswith("page") else ""
        print(f"| {name} | {playouts} | {spent:.2f} | {rate:.0f} | {rate * (1 + args.plies):.0f} | "
              f"{native_rate / rate:.2f}× | {speedup} |")  # fmt: skip


def choose(game: Game, leaves: Leaves, settings: dict[str, Any], seed: int) -> tuple[object, float]:
    seconds = settings["seconds"]
    started = time.perf_counter()
    if game.bag_count == 0:
        result = EndgameSearch(game).run(time_limit=seconds)
        return result.best, time.perf_counter() - started
    try:
        simulation = Simulation(
            game, leaves=leaves, candidates=int(settings["candidates"]), plies=int(settings["plies"]),
            confidence=settings["confidence"], min_iterations=int(settings["min_iterations"]), seed=seed,
            rank_by=settings.get("rank_by", "auto"),
        )  # fmt: skip
    except SimulationError:  # nothing but the pass
        return game.best_move("equity", leaves), time.perf_counter() - started
    result = simulation.run(iterations=100_000, time_limit=seconds)
    return result.best.move, time.perf_counter() - started


def duel_pair(job: tuple[str, int, dict[str, Any]]) -> list[tuple[int, float, int]]:
    """Two games from one seed, player A first, then second: for each, (spread for A, seconds
    both thought, simulated turns). A player's settings None: the static-equity player."""
    name, seed, settings = job
    lexicon, leaves = load(name)
    out = []
    for a_seat in (0, 1):
        game = Game.new(lexicon, seed=seed)
        thought, turns = 0.0, 0
        while not game.over:
            unplayed = game.bag_count + len(game.rack(0)) + len(game.rack(1))
            mine = settings["a"] if game.to_move == a_seat else settings["b"]
            if mine is None or unplayed > settings["from_tiles"]:  # the static player
                move = game.best_move("equity", leaves)
            else:
                move, spent = choose(game, leaves, mine, seed * 1000 + turns)
                thought += spent
                turns += 1
            game.play(move)
        scores = game.scores
        out.append((scores[a_seat] - scores[1 - a_seat], thought, turns))
    return out


def player_settings(args: argparse.Namespace, changes: str) -> dict[str, Any]:
    """The simulating player of the command line with ``changes`` ("plies=4,rank_by=win") made."""
    settings: dict[str, Any] = {
        "seconds": args.seconds, "candidates": args.candidates, "plies": args.plies,
        "confidence": args.confidence, "min_iterations": args.min_iterations, "rank_by": "auto",
    }  # fmt: skip
    for change in filter(None, changes.split(",")):
        key, _, value = change.partition("=")
        if key not in settings:
            raise SystemExit(f"duel: unknown setting {key!r}; known: {', '.join(settings)}")
        settings[key] = value if key == "rank_by" else type(settings[key])(value)
    return settings


def duel(args: argparse.Namespace) -> None:
    settings = {
        "a": player_settings(args, args.a),
        "b": player_settings(args, args.b),
        "from_tiles": args.from_tiles,
    }
    spreads, pair_spreads, thought, turns = _pairs(args, duel_pair, settings)
    print(
        f"A ({args.a or 'as given'}) against B ({args.b or 'as given'}), both simulating ({args.candidates} "
        f"candidates, {args.plies} plies, confidence {args.confidence}, {args.seconds} s per turn, unless "
        f"changed) from {args.from_tiles} tiles unplayed, static equity before; {args.lexicon} leaves, "
        f"{len(spreads)} games in mirrored pairs"
    )
    report(spreads, pair_spreads, thought / max(1, turns), ("from tiles", str(args.from_tiles)))


def report(spreads: list[float], pair_spreads: list[float], per_turn: float, first: tuple[str, str]) -> None:
    """The first player's table row: games, win rate and mean spread with their 95% intervals,
    seconds a simulated turn; ``first`` an extra (header, cell) before them."""
    wins = sum(1 for s in spreads if s > 0) + 0.5 * sum(1 for s in spreads if s == 0)
    rate = wilson(wins, len(spreads))
    spread = mean_interval(pair_spreads)
    print(f"| {first[0]} | games | win rate | 95% interval | mean spread | 95% interval | s a turn (sim) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| {first[1]} | {len(spreads)} | {100 * rate.value:.1f}% | "
        f"{100 * rate.low:.1f}–{100 * rate.high:.1f}% | {spread.value:+.1f} | "
        f"{spread.low:+.1f} to {spread.high:+.1f} | {per_turn:.3f} |"
    )


def _pairs(
    args: argparse.Namespace, play: object, settings: dict[str, Any]
) -> tuple[list[float], list[float], float, int]:
    """Play args.games // 2 mirrored pairs with ``play`` on args.workers processes: every game's
    spread, every pair's mean spread, seconds thought and turns."""
    pairs = args.games // 2
    jobs = [(args.lexicon, args.seed + i, settings) for i in range(pairs)]
    spreads: list[float] = []
    pair_spreads: list[float] = []
    thought = 0.0
    turns = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for done, pair in enumerate(pool.map(play, jobs), 1):  # type: ignore[arg-type]
            for spread, spent, n in pair:
                spreads.append(spread)
                thought += spent
                turns += n
            pair_spreads.append(sum(s for s, _t, _n in pair) / 2)
            if done % 10 == 0 or done == pairs:
                elapsed = time.perf_counter() - started
                print(f"  {2 * done}/{2 * pairs} games, {elapsed:.0f} s", file=sys.stderr)
    return spreads, pair_spreads, thought, turns


def match(args: argparse.Namespace) -> None:
    settings = {"a": player_settings(args, ""), "b": None, "from_tiles": 1 << 30}
    started = time.perf_counter()
    spreads, pair_spreads, thought, turns = _pairs(args, duel_pair, settings)
    print(
        f"simulating player ({args.candidates} candidates, {args.plies} plies, confidence {args.confidence}, "
        f"at least {args.min_iterations} iterations before dropping, {args.seconds} s per turn) against "
        f"static equity, {args.lexicon} leaves, {len(spreads)} games in mirrored pairs"
    )
    report(spreads, pair_spreads, thought / max(1, turns), ("player", "simulating"))
    print(f"median spread {statistics.median(spreads):+.0f}; wall time {time.perf_counter() - started:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speed", "page", "match", "duel"))
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=0.25, help="the simulating player's time per turn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", default="1", help="speed: thread counts to compare, e.g. 1,2")
    parser.add_argument(
        "--magpie",
        action="store_true",
        help="speed: also simulate the same positions with MAGPIE (bench/magpie/build.sh), "
        "with the first thread count",
    )
    parser.add_argument("--candidates", type=int, default=15, help="match: candidates simulated (default 15)")
    parser.add_argument(
        "--confidence", type=float, default=0.99, help="match: the stopping rule's confidence"
    )
    parser.add_argument(
        "--min-iterations", type=int, default=64, help="match: iterations before any is dropped"
    )
    parser.add_argument(
        "--from-tiles", type=int, default=100, help="duel: simulate from this many tiles unplayed down"
    )
    parser.add_argument("--a", default="", help='duel: player A\'s changes, e.g. "plies=4" or "rank_by=win"')
    parser.add_argument("--b", default="", help="duel: player B's changes")
    args = parser.parse_args()
    print(f"$ {' '.join(sys.argv)}")
    if args.what == "speed":
        speed(args)
    elif args.what == "page":
        page(args)
    elif args.what == "duel":
        duel(args)
    else:
        match(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
