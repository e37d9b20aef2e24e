"""``gaddag-solver autoplay``: self-play between two players, with statistics."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..alphabet import AlphabetError
from ..file_io import atomic_write, check_output, check_output_folder, write_text
from ..lexicon import LexiconFormatError
from ..lexicons import LexiconNotFoundError
from ..rules import Rules, RulesError
from ._common import EXIT_USAGE

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as train-leaves exits on Ctrl-C


def cmd_autoplay(args: argparse.Namespace) -> int:
    """Self-play: games between two players, a table of results (see gaddag_solver.game.autoplay)."""
    from pathlib import Path

    from ..formats.gcg import format_gcg
    from ..game import autoplay
    from ..progress import ProgressBar

    try:
        if args.games < 1:
            raise autoplay.AutoplayError(f"--games must be at least 1, not {args.games}")
        if args.workers is not None and args.workers < 1:
            raise autoplay.AutoplayError(f"--workers must be at least 1, not {args.workers}")
        specs = [autoplay.PlayerSpec.parse(text) for text in args.players.split(",")]
        if len(specs) != 2:
            raise autoplay.AutoplayError(
                f"--players names two players (A,B), not {len(specs)}: {args.players!r}"
            )
        # the outputs now, not after every game is played
        if args.json:
            check_output(args.json, autoplay.AutoplayError, "--json")
        if args.gcg_dir is not None:
            check_output_folder(args.gcg_dir, autoplay.AutoplayError, "--gcg-dir")
        rules = Rules.load(args.rules)
        lexicon = args.lexicon or rules.default_lexicon
        if not lexicon:
            raise LexiconNotFoundError(f"ruleset {rules.name!r} has no default lexicon: give --lexicon")
        end_seconds = autoplay.END_TURN_SECONDS if args.end_seconds is None else args.end_seconds
        match = autoplay.Match.create(lexicon, args.rules, specs, end_seconds=end_seconds)
        bar = ProgressBar("games") if args.progress or sys.stderr.isatty() else None
        try:
            run = autoplay.run_autoplay(
                match, args.games, args.seed, workers=args.workers, scheduler=args.scheduler,
                keep_games=args.gcg_dir is not None, progress=bar,
            )  # fmt: skip
        finally:
            if bar is not None:
                bar.close()
    except autoplay.AutoplayInterrupted as stopped:
        return _interrupted(stopped, args)
    except KeyboardInterrupt:  # while loading, before a game was sent
        print("interrupted: no game was played", file=sys.stderr)
        return EXIT_INTERRUPTED
    except setup_errors() as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(autoplay.format_table(run))
    if args.json:
        with atomic_write(args.json) as handle:  # whole or not at all, as every file written here
            json.dump(autoplay.summary_json(run, match), handle, ensure_ascii=False, indent=2)
            handle.write("\n")
    if args.gcg_dir is not None:
        folder = Path(args.gcg_dir)  # made by check_output_folder
        rules = Rules.load(args.rules)
        width = len(str(args.games - 1))
        for record in run.records:
            assert record.game is not None
            names = match.names if record.first == 0 else match.names[::-1]
            title = f"game {record.index} seed {record.seed}"
            text = format_gcg(record.game, rules, names, title=title, lexicon=match.lexicon)
            write_text(folder / f"game-{record.index:0{width}d}.gcg", text)
    return 0


def setup_errors() -> tuple[type[Exception], ...]:
    """What setting up a match of self-play can raise: a bad player, lexicon, ruleset or alphabet."""
    from ..game import autoplay

    return (autoplay.AutoplayError, LexiconNotFoundError, LexiconFormatError, RulesError, AlphabetError)


def _interrupted(stopped: Any, args: argparse.Namespace) -> int:
    """Ctrl-C: one line on stderr, then the table of the games finished (no files are written:
    a part of a run is not the run asked for)."""
    from ..game import autoplay

    run = stopped.run
    played = run.summary.games if run is not None else 0
    files = " (no files written)" if args.json or args.gcg_dir is not None else ""
    follows = "; the summary of those follows" if run is not None else ""
    print(f"interrupted: {played} of {stopped.games} games played{follows}{files}", file=sys.stderr)
    if run is not None:
        print(autoplay.format_table(run))
    return EXIT_INTERRUPTED


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "autoplay",
        help="self-play: many games between two players, with statistics",
        description="Play games between two players in mirrored pairs (the same bag, seats swapped) "
        "and report wins, spread and bingos with 95% confidence intervals.",
        epilog="Example: gaddag-solver autoplay --lexicon sowpods --players equity,greedy --games 1000",
    )
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the ruleset's default lexicon)")
    p.add_argument("--rules", default="english", help="ruleset name or .json path (default english)")
    p.add_argument(
        "--players",
        default="equity,greedy",
        help="two players, comma-separated: greedy, equity (no leave table), equity:LEAVES "
        "(a leave table's name or path), or endgame / endgame:LEAVES (equity, then the pre-endgame "
        "with 1-2 in the bag and the exact endgame, --end-seconds a search), endgame-only:LEAVES "
        "(equity, then the exact endgame once the bag is empty), equity-pass0:LEAVES (equity with "
        "a pass that keeps a full rack worth 0, the old rule, for comparison), or best:SECONDS[:LEAVES] "
        "(the best player: simulation with inference, the pre-endgame with 1-2 in the bag and the exact "
        "endgame, SECONDS a turn; best-noinfer and best-nopeg leave a part out); default equity,greedy",
    )
    p.add_argument(
        "--end-seconds",
        type=float,
        metavar="S",
        help="an endgame player's time per pre-endgame or endgame search (default 5)",
    )
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same games")
    p.add_argument("--workers", type=int, help="local worker processes (default: every core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on this Dask scheduler (tcp://HOST:8786)")
    p.add_argument("--gcg-dir", metavar="DIR", help="write every game as a GCG file into DIR")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON to FILE")
    p.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    p.set_defaults(run=cmd_autoplay)
