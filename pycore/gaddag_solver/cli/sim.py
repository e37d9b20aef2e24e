"""``gaddag-solver sim``: the best candidates of a position simulated (docs/simulation.md)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ._common import EXIT_USAGE, _at_least_one, _count, _dumps, _error, _print_columns, _seconds, _status_line
from ._lookahead import _lookahead_game, position_arguments


def cmd_sim(args: argparse.Namespace) -> int:
    """Simulate the best candidates of a position (docs/simulation.md)."""
    from ..game.infer import InferenceError, infer_written
    from ..game.simulate import Simulation, SimulationError

    try:
        game, _rules, table = _lookahead_game(args)
        inference = None
        if args.infer is not None:
            inference = infer_written(game, args.infer, leaves=table, seed=args.seed)
            if inference.informative:
                likely = ", ".join(
                    f"{x.tiles or '-'} {100 * x.probability:.0f}%" for x in inference.leaves[:3]
                )
                print(
                    f"inferred from {inference.move}: {len(inference.leaves)} leaves ({likely}, ...)",
                    file=sys.stderr,
                )
            else:
                print(f"no inference from {inference.move}: {inference.reason}", file=sys.stderr)
        simulation = Simulation(
            game, leaves=table, candidates=args.candidates, plies=args.plies, confidence=args.confidence,
            seed=args.seed, inference=inference, threads=args.threads, rank_by=args.rank_by,
        )  # fmt: skip
    except (SimulationError, InferenceError) as exc:
        return _error(str(exc), EXIT_USAGE)
    show = args.progress or sys.stderr.isatty()

    def progress(result: Any) -> None:
        if show and result.candidates:
            best = result.best
            left = sum(1 for c in result.candidates if not c.dropped)
            _status_line(
                f"{result.iterations} iterations  {left} candidates left  best {best.move} "
                f"{best.mean:+.1f} ± {1.96 * best.stderr:.1f}"
            )

    interrupted = False
    try:
        result = simulation.run(args.iterations, args.time, progress)
    except KeyboardInterrupt:
        result = simulation.result()
        interrupted = True
        print("\ninterrupted: the standing so far", file=sys.stderr)
    if show:
        sys.stderr.write("\n")
    if args.format == "json":
        print(_dumps(result.to_dict()))
        return 0
    headers = ("rank", "move", "equity", "value", "±95%", "win %", "opp bingo %", "iterations", "")
    rows = [
        (
            str(i),
            str(c.move),
            f"{c.equity:.2f}",
            f"{c.mean:.2f}",
            f"{1.96 * c.stderr:.2f}",
            f"{100 * c.win_rate:.1f}",
            f"{100 * c.opponent_bingo_rate:.1f}",
            str(c.iterations),
            "dropped" if c.dropped else "",
        )  # fmt: skip
        for i, c in enumerate(result.candidates, 1)
    ]
    _print_columns(headers, rows)
    verdict = {
        "decided": "the stopping rule picked the leader",
        "iterations": "the iteration limit was reached",
        "time": "the time limit was reached",
        "stopped": "stopped",
    }.get(result.reason, result.reason)
    if interrupted:
        verdict = "interrupted (Ctrl-C), the standing so far"
    ranked = "ranked by win %" if result.ranked_by == "win" else "ranked by value"
    print(
        f"{result.iterations} iterations, {args.plies} plies, {ranked}, {result.elapsed:.2f} s "
        f"({result.playouts_per_second:.0f} playouts/s): {verdict}"
    )
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "sim",
        help="simulate the best candidates of a position (Monte Carlo look-ahead)",
        description="Play each of the best candidates by static equity forward against random "
        "opponent racks and draws (the same draws for every candidate), a few plies deep, until "
        "the stopping rule is sure of the leader or a limit is reached (docs/simulation.md).",
        epilog='Example: gaddag-solver sim --cgp "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 '
        'AEINRST/ 0/0 0" --time 2',
    )
    position_arguments(p)
    p.add_argument("--candidates", type=_at_least_one, default=15, help="how many candidates (default 15)")
    p.add_argument("--plies", type=_count, default=2, help="moves played after each candidate (default 2)")
    p.add_argument("--iterations", type=_count, default=2000, help="most iterations (default 2000)")
    p.add_argument("--time", type=_seconds, metavar="SECONDS", help="stop after this long")
    p.add_argument(
        "--threads",
        type=_at_least_one,
        default=os.cpu_count() or 1,
        metavar="N",
        help="threads the iterations are shared out among (default: every core, here "
        f"{os.cpu_count() or 1}); the standing is the same for any N",
    )
    p.add_argument(
        "--infer",
        metavar="LAST_MOVE",
        help="the opponent's last move (8D W(O)RD, exch N, pass): their rack is drawn from what it says "
        "they kept (see `infer`) instead of at random",
    )
    p.add_argument(
        "--confidence",
        type=float,
        default=0.99,
        help="drop a candidate once the leader is better at this confidence (default 0.99; 0: never)",
    )
    p.add_argument(
        "--rank-by",
        choices=("auto", "equity", "win"),
        default="auto",
        help="rank candidates by their mean value (equity), by their estimated win %% (win), or auto: "
        "by win %% once 40 or fewer tiles are unplayed, when the ruleset has a fitted win probability "
        "(default auto)",
    )
    p.set_defaults(run=cmd_sim)
