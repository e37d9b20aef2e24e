"""``gaddag-solver train-leaves``: a leave table learned by self-play (gaddag_solver.game.train)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..file_io import check_output
from ..lexicon import LexiconFormatError
from ..lexicons import LexiconNotFoundError
from ..rules import Rules, RulesError
from ._common import EXIT_USAGE, _error


def cmd_train_leaves(args: argparse.Namespace) -> int:
    """Learn a leave table by self-play (gaddag_solver.game.train)."""
    from ..game import train
    from ..progress import ProgressBar

    show = args.progress or sys.stderr.isatty()
    bars: list[ProgressBar] = []

    def progress(generation: int) -> Any:
        for bar in bars:
            bar.close()
        bars.clear()
        if not show:
            return None
        print(f"generation {generation} of {args.generations}: self-play", file=sys.stderr)
        bars.append(ProgressBar("games"))
        return bars[0]

    def log(line: str) -> None:
        for bar in bars:
            bar.close()
        print(line, flush=True)

    try:
        if args.workers is not None and args.workers < 1:
            raise train.TrainError(f"--workers must be at least 1, not {args.workers}")
        check_output(args.output, train.TrainError, "-o", device_ok=False)  # now, not after the training
        rules = Rules.load(args.rules)
        lexicon = args.lexicon or rules.default_lexicon
        if not lexicon:
            raise train.TrainError(f"ruleset {rules.name!r} has no default lexicon: give --lexicon")
        config = train.TrainConfig.create(
            lexicon,
            args.rules,
            args.generations,
            args.games,
            args.seed,
            args.eval_games,
            not args.no_smoothing,
        )
        result = train.train(
            config, args.output, workers=args.workers, scheduler=args.scheduler, restart=args.restart,
            progress=progress, log=log,
        )  # fmt: skip
    except train.TrainInterrupted as exc:
        for bar in bars:
            bar.close()
        return _error(str(exc), 130)
    except (train.TrainError, RulesError, LexiconNotFoundError, LexiconFormatError) as exc:
        for bar in bars:
            bar.close()
        return _error(str(exc), EXIT_USAGE)
    for bar in bars:
        bar.close()
    print(train.format_log(result.log))
    size = result.output.stat().st_size
    print(f"wrote {result.output} ({size:,} bytes); log: {train.checkpoint_dir(result.output) / 'run.json'}")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "train-leaves",
        help="learn a leave table by self-play, from nothing (docs/leaves.md)",
        description="Generation 0 values every leave at 0 (the greedy player); each generation plays "
        "--games self-play games with the current table, derives a new table from them and plays it "
        "against the previous one and against greedy (mirrored pairs). A checkpoint folder next to "
        "the output (OUT.checkpoint) keeps every generation: Ctrl-C is safe, and the same command "
        "resumes. The same seed gives the same table on any number of workers or on a Dask cluster.",
        epilog="Example: gaddag-solver train-leaves --lexicon sowpods --generations 4 --games 300000 "
        "--seed 1 -o sowpods.leaves",
    )
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the ruleset's default lexicon)")
    p.add_argument("--rules", default="english", help="ruleset name or .json path (default english)")
    p.add_argument("--generations", type=int, default=4, help="generations to train (default 4)")
    p.add_argument(
        "--games", type=int, default=100_000, help="self-play games per generation (default 100000)"
    )
    p.add_argument(
        "--seed", type=int, default=1, help="the run's seed: the same seed, the same table (default 1)"
    )
    p.add_argument(
        "--eval-games",
        type=int,
        default=4000,
        help="games of each match measuring a generation, against the previous table and against "
        "greedy; 0 to skip (default 4000)",
    )
    p.add_argument(
        "--no-smoothing",
        action="store_true",
        help="value each leave by its own racks alone (rare leaves get noisy values; for comparison)",
    )
    p.add_argument("-o", "--output", required=True, help="the .leaves file to write")
    p.add_argument("--workers", type=int, help="local worker processes (default: every core)")
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="play the games on this Dask scheduler (tcp://HOST:8786)"
    )
    p.add_argument("--restart", action="store_true", help="discard the output's checkpoint and start afresh")
    p.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    p.set_defaults(run=cmd_train_leaves)
