"""``gaddag-solver fit-win-probability``: the win-probability model fitted from self-play."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from dataclasses import replace
from typing import Any

from ..file_io import check_output
from ..lexicons import LexiconNotFoundError
from ..rules import Rules
from ._common import EXIT_USAGE, _print_columns
from .autoplay import EXIT_INTERRUPTED, setup_errors

PHASES = ((2, 7), (8, 14), (15, 30), (31, 60), (61, 100_000))  # tiles unplayed, for the report


def cmd_fit_win(args: argparse.Namespace) -> int:
    from ..game import autoplay, parallel, win_fit
    from ..progress import ProgressBar

    try:
        if args.games < 2 or args.check_games < 0:
            raise autoplay.AutoplayError("--games must be at least 2 and --check-games at least 0")
        if args.workers is not None and args.workers < 1:
            raise autoplay.AutoplayError(f"--workers must be at least 1, not {args.workers}")
        check_output(args.output, autoplay.AutoplayError, "-o")
        rules = Rules.load(args.rules)
        lexicon = args.lexicon or rules.default_lexicon
        if not lexicon:
            raise LexiconNotFoundError(f"ruleset {rules.name!r} has no default lexicon: give --lexicon")
        player = autoplay.PlayerSpec.parse(f"equity:{args.leaves}" if args.leaves else "equity")
        match = autoplay.Match.create(lexicon, args.rules, [player, player])
        workers = args.workers or os.cpu_count() or 1
        runs = [("fit", args.games, args.seed)]
        if args.check_games:
            runs.append(("check", args.check_games, args.check_seed))
        tallies = {}
        for name, games, seed in runs:
            bar = ProgressBar(f"games ({name})") if args.progress or sys.stderr.isatty() else None
            try:
                tallies[name] = win_fit.tally_run(match, games, seed, workers, bar)
            finally:
                if bar is not None:
                    bar.close()
    except (parallel.RunInterrupted, KeyboardInterrupt):
        print("interrupted: nothing was fitted or written", file=sys.stderr)
        return EXIT_INTERRUPTED
    except setup_errors() as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    about: dict[str, Any] = {
        "command": "gaddag-solver " + shlex.join(sys.argv[1:]) if args.record_command else None,
        "lexicon": os.path.basename(match.lexicon).removesuffix(".gaddag"),
        "leaves": player.label.partition(":")[2] or None,
        "games": args.games,
        "seed": args.seed,
        "positions": tallies["fit"].positions,
    }
    try:
        report = win_fit.fit_model(tallies["fit"], rules)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    model = report.model
    print(f"{about['positions']:,} positions from {args.games:,} games")
    _print_columns(
        ("tiles unplayed", "positions", "on turn worth (pt)", "sigma (pt)"),
        [
            (f"{low}-{min(high, rules.tile_total)}",
             f"{sum(report.positions[low:high + 1]):,}",
             f"{_weighted(model.mean, report.positions, low, high):+.1f}",
             f"{_weighted(model.sigma, report.positions, low, high):.1f}")
            for low, high in PHASES
        ],
    )  # fmt: skip
    if args.check_games:
        check = tallies["check"]
        fitted = model.probability
        summary = {}
        print(
            f"\nprediction on {check.positions:,} positions of {args.check_games:,} other games "
            f"(seed {args.check_seed})"
        )
        rows = []
        for label, phases in [
            ("all", None),
            *[(f"{lo}-{min(hi, rules.tile_total)}", [(lo, hi)]) for lo, hi in PHASES],
        ]:
            loss, brier = win_fit.scores(fitted, check, phases)
            old_loss, old_brier = win_fit.scores(win_fit.baseline_probability, check, phases)
            rows.append((label, f"{loss:.4f}", f"{old_loss:.4f}", f"{brier:.4f}", f"{old_brier:.4f}"))
            summary[label] = {
                "log_loss": round(loss, 5),
                "brier": round(brier, 5),
                "formula_log_loss": round(old_loss, 5),
                "formula_brier": round(old_brier, 5),
            }
        _print_columns(("tiles unplayed", "log loss", "formula's", "Brier", "formula's"), rows)
        print("\ncalibration (all phases): predicted against observed win rate")
        ours = {round(row.low, 3): row for row in win_fit.calibration(fitted, check)}
        formula = {round(row.low, 3): row for row in win_fit.calibration(win_fit.baseline_probability, check)}
        table = []
        for k in range(10):
            row, old = ours.get(round(k / 10, 3)), formula.get(round(k / 10, 3))
            table.append((
                f"{k / 10:.1f}-{(k + 1) / 10:.1f}",
                f"{row.positions:,}" if row else "0",
                f"{row.predicted:.3f}" if row else "-",
                f"{row.observed:.3f}" if row else "-",
                f"{old.positions:,}" if old else "0",
                f"{old.observed:.3f}" if old else "-",
            ))  # fmt: skip
        _print_columns(
            ("predicted", "positions", "mean predicted", "observed", "formula's positions", "observed"), table
        )
        about.update(check_games=args.check_games, check_seed=args.check_seed, check=summary)
    replace(model, about={k: v for k, v in about.items() if v is not None}).save(args.output)
    print(f"\nwrote {args.output}")
    return 0


def _weighted(values: tuple[float, ...], counts: tuple[int, ...], low: int, high: int) -> float:
    total = sum(counts[low : high + 1])
    if not total:
        return float("nan")
    return sum(values[t] * counts[t] for t in range(low, min(high, len(values) - 1) + 1)) / total


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "fit-win-probability",
        help="fit the win probability of a position from self-played games",
        description="Play static-equity games against themselves, then fit P(the player on turn wins) = "
        "Phi((spread + mean[t]) / sigma[t]) for every number t of tiles not yet played, by maximum "
        "likelihood, and check it on other games (docs/win-probability.md).",
        epilog="Example: gaddag-solver fit-win-probability --lexicon sowpods --leaves sowpods --games 200000 "
        "-o english.json",
    )
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the ruleset's default lexicon)")
    p.add_argument("--rules", default="english", help="ruleset name or .json path (default english)")
    p.add_argument(
        "--leaves", help="the players' leave table, a name or a path (default: none, every leave 0)"
    )
    p.add_argument("--games", type=int, default=200_000, help="games to fit from (default 200,000)")
    p.add_argument("--seed", type=int, default=1, help="the fit's games' seed (default 1)")
    p.add_argument(
        "--check-games", type=int, default=50_000, help="other games to check it on (default 50,000; 0: none)"
    )
    p.add_argument("--check-seed", type=int, default=2, help="their seed (default 2)")
    p.add_argument("--workers", type=int, help="local worker processes (default: every core)")
    p.add_argument("-o", "--output", required=True, help="the model file to write (JSON)")
    p.add_argument("--no-record-command", dest="record_command", action="store_false",
                   help="do not write the command line into the file")  # fmt: skip
    p.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    p.set_defaults(run=cmd_fit_win)
