"""The command line: ``gaddag-solver`` (also ``python -m gaddag_solver``) and ``build_lexicon.py``.

One module per command, each with its ``add_parser`` (its options) and its ``cmd_*`` (its run):
``words`` (check, anagram, pattern, containing, lexicons), ``build`` (build and build_lexicon.py),
``solve``, ``score``, ``leaves``, ``train_leaves``, ``fit_win``, ``autoplay``, ``review``, ``infer``, ``sim``,
``endgame`` and ``peg``; what they share is in ``_common`` (exit statuses, errors, argument types),
``_positions`` (board files, lexicons by name), ``_output`` (JSON written a piece at a time) and
``_lookahead`` (the position sim and endgame read).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..rules import RulesError
from . import (
    autoplay,
    build,
    endgame,
    fit_win,
    infer,
    leaves,
    peg,
    review,
    score,
    sim,
    solve,
    train_leaves,
    words,
)
from ._common import _error
from ._positions import POSITION_ERRORS
from .build import build_lexicon_main

__all__ = ["build_lexicon_main", "main", "main_parser"]


def main_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gaddag-solver", description="GADDAG Scrabble solver.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # in this order in --help
    words.add_parsers(sub)
    build.add_parser(sub)
    solve.add_parser(sub)
    score.add_parser(sub)
    leaves.add_parser(sub)
    train_leaves.add_parser(sub)
    fit_win.add_parser(sub)
    autoplay.add_parser(sub)
    review.add_parser(sub)
    infer.add_parser(sub)
    sim.add_parser(sub)
    endgame.add_parser(sub)
    peg.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = main_parser().parse_args(argv)
    try:
        status = int(args.run(args))
    except (*POSITION_ERRORS, RulesError) as exc:
        return _error(str(exc))
    except BrokenPipeError:  # the reader went away (`| head`): not an error
        # point stdout at /dev/null so the interpreter's final flush does not complain
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        if exc.filename is None:  # a failed write to stdout (every file written names itself)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as for a broken pipe
            return _error(f"standard output: {exc.strerror or exc}")
        return _error(f"{exc.filename}: {exc.strerror or exc}")
    _exit_if_stuck(status)
    return status


def _exit_if_stuck(status: int) -> None:
    """After a run stopped by Ctrl-C, a worker pool's thread may be blocked for ever (a worker
    killed while writing its result): everything has been printed and saved, so exit now rather
    than wait for it at the interpreter's exit."""
    parallel = sys.modules.get("gaddag_solver.game.parallel")  # no pool was made without it
    if parallel is not None and parallel.stuck_threads():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
