"""``gaddag-solver review``: recorded games (GCG), each turn against the best move by equity or by
simulation."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import Any

from ..file_io import atomic_write, output_problem
from ._common import EXIT_FAILURE, EXIT_USAGE, _dumps, _error

_SIM_OPTIONS = {
    "sim_candidates": "candidates",
    "sim_plies": "plies",
    "sim_iterations": "iterations",
    "sim_time": "time_limit",
    "sim_confidence": "confidence",
    "sim_seed": "seed",
}


def _review_sim(args: argparse.Namespace) -> Any:
    """The review's SimSettings from --sim and the --sim-* options (None without --sim);
    ReviewError for a bad value or an option given without --sim."""
    from ..game.review import ReviewError, SimSettings

    given = {field: getattr(args, option) for option, field in _SIM_OPTIONS.items()}
    given = {field: value for field, value in given.items() if value is not None}
    if not args.sim:
        if given:
            option = next(o for o, f in _SIM_OPTIONS.items() if f in given).replace("_", "-")
            raise ReviewError(f"--{option} is a setting of --sim: give --sim too")
        return None
    return SimSettings(**given)


def cmd_review(args: argparse.Namespace) -> int:
    """Review recorded games (GCG): each turn against the best move by equity, and with --sim
    by simulation (docs/review.md)."""
    from ..formats.gcg import GcgError
    from ..game import review
    from ..progress import ProgressBar

    if (args.game is None) == (args.batch is None):
        return _error("give one GCG file, or --batch FOLDER_OR_GLOB", EXIT_USAGE)
    if args.batch is None:  # one game: its review goes to stdout, in this process
        given = [name for name, value in (("-o", args.output), ("--workers", args.workers),
                                          ("--scheduler", args.scheduler)) if value is not None]  # fmt: skip
        if given:
            return _error(f"{given[0]} is an option of --batch (one game's review is printed)", EXIT_USAGE)
    if args.workers is not None and args.workers < 1:
        return _error(f"--workers must be at least 1, not {args.workers}", EXIT_USAGE)
    if args.output and (problem := output_problem(args.output)):  # now, not after the whole batch
        return _error(f"-o {args.output}: {problem}", EXIT_USAGE)
    try:
        sim = _review_sim(args)
    except review.ReviewError as exc:
        return _error(str(exc), EXIT_USAGE)
    try:
        end = (
            None
            if args.end_time is None and not args.end
            else review.EndSettings(args.end_time or 30.0, args.end_bag)
        )
    except ValueError as exc:
        return _error(f"--end: {exc}", EXIT_USAGE)
    spec = review.ReviewSpec(args.lexicon, args.leaves, args.rules or "english", sim, end)
    if args.game is not None:
        # a simulated review takes seconds a turn: show each turn done
        slow = sim is not None or end is not None
        bar = ProgressBar("turns") if slow and (args.progress or sys.stderr.isatty()) else None
        try:
            result = review.review_file(args.game, spec.lexicon, spec.leaves, spec.rules, sim, bar, end)
        except review.ReviewError as exc:
            return _error(str(exc), EXIT_USAGE)
        except GcgError as exc:
            return _error(str(exc))
        except KeyboardInterrupt:  # a simulated review is long: Ctrl-C ends it without a traceback
            if bar is not None:
                bar.close()
            return _error("interrupted")
        finally:
            if bar is not None:
                bar.close()
        if args.format == "json":
            print(_dumps(result.to_dict()))
        else:
            print(result.format_table())
        return 0
    paths = review.find_games(args.batch)
    if not paths:
        return _error(f"--batch {args.batch!r}: no .gcg file found", EXIT_USAGE)
    bar = ProgressBar("games") if args.progress or sys.stderr.isatty() else None
    started = time.perf_counter()
    stopped = None
    try:
        results = review.review_files(
            paths, spec, workers=args.workers, scheduler=args.scheduler, progress=bar
        )
    except review.ReviewInterrupted as exc:  # Ctrl-C: the files reviewed by then are written
        results, stopped = exc.results, exc
    except review.ReviewError as exc:
        return _error(str(exc), EXIT_USAGE)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    # -o: written whole or not at all (a temporary file renamed into place)
    with atomic_write(args.output) if args.output else contextlib.nullcontext(sys.stdout) as out:
        for result in results:
            if result.error is not None:
                print(f"error: {result.error} (skipped)", file=sys.stderr)
            for record in result.records:
                out.write(_dumps(record) + "\n")
    failed = sum(1 for result in results if result.error is not None)
    done = len(results) - failed
    if stopped is not None:
        print(
            f"interrupted: {len(results)} of {stopped.total} games reviewed ({failed} failed); "
            "their records are written",
            file=sys.stderr,
        )
        return 130  # 128 + SIGINT, as autoplay and train-leaves exit on Ctrl-C
    rate = done / seconds if seconds > 0 else float("inf")
    print(
        f"{done} games reviewed, {failed} failed, {seconds:.2f} s: {rate:.1f} games/s",
        file=sys.stderr,
    )
    return EXIT_FAILURE if failed else 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="review recorded games (GCG): each turn against the best move by equity (or simulation)",
        description="Replay a GCG file, re-check every turn against the board and the lexicon, and "
        "compare each move made (with its rack recorded) with the best move by static equity: the "
        "equity lost, its rank, bingos missed, and a summary per player (docs/review.md). With "
        "--sim, also simulate the best candidates and the move made at every turn with tiles in "
        "the bag. With --batch, many files in parallel, one JSON Lines record per turn and per player.",
        epilog="Example: gaddag-solver review game.gcg --lexicon sowpods; "
        "gaddag-solver review game.gcg --sim --sim-time 2; "
        "gaddag-solver review --batch games/ -o review.jsonl",
    )
    p.add_argument("game", nargs="?", metavar="GAME.gcg", help="the game to review")
    p.add_argument("--batch", metavar="FOLDER_OR_GLOB", help="review every .gcg file in a folder, or a glob")
    p.add_argument(
        "--lexicon", help="lexicon name or .gaddag path (default: the file's #lexicon, else sowpods)"
    )
    p.add_argument(
        "--leaves",
        help="leave table: a name (sowpods, twl06), a .leaves file or none; default: the lexicon's own",
    )
    p.add_argument("--rules", default="english", help="ruleset (default english)")
    p.add_argument("--format", choices=("table", "json"), default="table", help="one game's output")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="--batch: write the JSON Lines here (default stdout)"
    )
    p.add_argument("--workers", type=int, help="--batch: local worker processes (default: every core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="--batch: run on this Dask scheduler")
    p.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    from ..game.simulate import DEFAULT_CANDIDATES, DEFAULT_CONFIDENCE, DEFAULT_ITERATIONS, DEFAULT_PLIES

    p.add_argument(
        "--sim", action="store_true", help="also rank each turn's moves by simulation (seconds a turn)"
    )
    p.add_argument(
        "--end",
        action="store_true",
        help="also grade the last turns: the exact endgame with the bag empty (points lost), the pre-endgame "
        "with 1 to --end-bag tiles in it (win %% lost)",
    )
    p.add_argument(
        "--end-time", type=float, metavar="SECONDS", help="--end: most seconds per search (default 30)"
    )
    p.add_argument(
        "--end-bag",
        type=int,
        default=2,
        help="--end: the pre-endgame up to this many tiles in the bag (default 2)",
    )
    p.add_argument(
        "--sim-candidates",
        type=int,
        help=f"--sim: the best moves by equity simulated, the move made added (default {DEFAULT_CANDIDATES})",
    )
    p.add_argument(
        "--sim-plies", type=int, help=f"--sim: moves played after each candidate (default {DEFAULT_PLIES})"
    )
    p.add_argument(
        "--sim-iterations", type=int, help=f"--sim: most iterations a turn (default {DEFAULT_ITERATIONS})"
    )
    p.add_argument(
        "--sim-time",
        type=float,
        metavar="SECONDS",
        help="--sim: most seconds a turn (default none; a limit makes the figures depend on the machine)",
    )
    p.add_argument(
        "--sim-confidence",
        type=float,
        help=f"--sim: the stopping rule's confidence (default {DEFAULT_CONFIDENCE}; 0: never drop)",
    )
    p.add_argument(
        "--sim-seed", type=int, help="--sim: the seed; turn i is simulated with seed + i (default 0)"
    )
    p.set_defaults(run=cmd_review)
