"""``build_lexicon.py`` and ``gaddag-solver build``: a word list into a lexicon."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ..lexicon import LexiconBuildError, build_lexicon_file
from ..rules import RulesError, available_rules
from ._common import _error


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="build_lexicon.py",
        description="Build a compact, validated .gaddag lexicon from a word list.",
        epilog="Input: one word per line (any case, LF or CRLF, optionally .gz) or a JSON array of strings.",
    )
    parser.add_argument("input", help="word list file")
    parser.add_argument("-o", "--output", required=True, help="the .gaddag file to write")
    parser.add_argument(
        "--rules",
        default="english",
        help=f"ruleset for alphabet and board size "
        f"({', '.join(available_rules())}; default english) or a rules .json path",
    )
    parser.add_argument("--name", help="name stored in the file (default: the output file's name)")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail on words with letters outside the alphabet instead of skipping them",
    )
    parser.add_argument(
        "--dawg",
        action="store_true",
        help="also write the DAWG of the same words beside the output, as NAME.dawg (for --engine dawg)",
    )
    return parser


def build_lexicon_main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        build_lexicon_file(
            args.input, args.output, rules=args.rules, name=args.name, strict=args.strict, dawg=args.dawg
        )
    except (LexiconBuildError, RulesError) as exc:
        return _error(str(exc))
    except OSError as exc:
        return _error(f"{exc.filename or args.output}: {exc.strerror or exc}")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    argv = [args.input, "-o", args.output, "--rules", args.build_rules]
    if args.name:
        argv += ["--name", args.name]
    if args.strict:
        argv.append("--strict")
    if args.dawg:
        argv.append("--dawg")
    return build_lexicon_main(argv)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("build", help="build a lexicon (same as build_lexicon.py)")
    p.add_argument("input")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--rules", dest="build_rules", default="english")
    p.add_argument("--name")
    p.add_argument("--strict", action="store_true")
    p.add_argument("--dawg", action="store_true", help="also write NAME.dawg beside the output")
    p.set_defaults(run=cmd_build)
