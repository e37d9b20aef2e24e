"""The command line: ``gaddag-solver`` (also ``python -m gaddag_solver``) and
``build_lexicon.py``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .alphabet import AlphabetError
from .lexicon import Lexicon, LexiconBuildError, LexiconFormatError, build_lexicon_file
from .lexicons import LexiconNotFoundError, available_lexicons, resolve_lexicon
from .rules import Rules, RulesError, available_rules

EXIT_USAGE = 2
EXIT_FAILURE = 1


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_FAILURE


# ---- build_lexicon.py ----------------------------------------------------------------------------


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
    return parser


def build_lexicon_main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        build_lexicon_file(args.input, args.output, rules=args.rules, name=args.name, strict=args.strict)
    except (LexiconBuildError, RulesError) as exc:
        return _error(str(exc))
    except OSError as exc:
        return _error(f"{exc.filename or args.output}: {exc.strerror or exc}")
    return 0


# ---- gaddag-solver ---------------------------------------------------------------------------------


def _load(name: str | None, rules_name: str | None) -> Lexicon:
    if name is None:
        rules = Rules.load(rules_name or "english")
        if not rules.default_lexicon:
            raise LexiconNotFoundError(
                f"ruleset {rules.name!r} has no default lexicon: give --lexicon NAME|PATH"
            )
        name = rules.default_lexicon
    return Lexicon.load(resolve_lexicon(name))


def _print_words(words: list[str], as_json: bool) -> None:
    if as_json:
        print(json.dumps(words, ensure_ascii=False))
    else:
        for word in words:
            print(word)


def cmd_check(args: argparse.Namespace) -> int:
    lexicon = _load(args.lexicon, args.rules)
    results = {word: word in lexicon for word in args.words}
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    else:
        for word, valid in results.items():
            print(f"{word}\t{'valid' if valid else 'not valid'}")
    return 0 if all(results.values()) else EXIT_FAILURE


def cmd_anagram(args: argparse.Namespace) -> int:
    lexicon = _load(args.lexicon, args.rules)
    _print_words(lexicon.anagrams(args.rack, partial=args.partial), args.json)
    return 0


def cmd_pattern(args: argparse.Namespace) -> int:
    lexicon = _load(args.lexicon, args.rules)
    _print_words(lexicon.pattern(args.pattern), args.json)
    return 0


def cmd_containing(args: argparse.Namespace) -> int:
    lexicon = _load(args.lexicon, args.rules)
    _print_words(lexicon.containing(args.substring), args.json)
    return 0


def cmd_lexicons(args: argparse.Namespace) -> int:
    found = available_lexicons()
    if not found:
        print("no lexicons built yet: run `python scripts/build_default_lexicons.py`", file=sys.stderr)
        return 0
    for name, path in sorted(found.items()):
        try:
            stats = Lexicon.load(path).stats
            print(f"{name}\t{stats.words:,} words\t{stats.bytes:,} bytes\t{path}")
        except LexiconFormatError as exc:
            print(f"{name}\tINVALID: {exc}")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    argv = [args.input, "-o", args.output, "--rules", args.build_rules]
    if args.name:
        argv += ["--name", args.name]
    if args.strict:
        argv.append("--strict")
    return build_lexicon_main(argv)


def main_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gaddag-solver", description="GADDAG Scrabble solver.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_lexicon(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--lexicon",
            help="lexicon name (e.g. sowpods) or .gaddag path; default: the ruleset's default lexicon",
        )
        p.add_argument("--rules", help="ruleset (default english)")
        p.add_argument("--json", action="store_true", help="print JSON")
        return p

    p = with_lexicon(sub.add_parser("check", help="are these words valid?"))
    p.add_argument("words", nargs="+", metavar="WORD")
    p.set_defaults(run=cmd_check)
    p = with_lexicon(sub.add_parser("anagram", help="words from a rack (? is a blank)"))
    p.add_argument("rack")
    p.add_argument("--partial", action="store_true", help="also words using only some of the tiles")
    p.set_defaults(run=cmd_anagram)
    p = with_lexicon(sub.add_parser("pattern", help="words matching a pattern (. or ? is any letter)"))
    p.add_argument("pattern")
    p.set_defaults(run=cmd_pattern)
    p = with_lexicon(sub.add_parser("containing", help="words containing a substring (hooks)"))
    p.add_argument("substring")
    p.set_defaults(run=cmd_containing)
    p = sub.add_parser("lexicons", help="list the lexicons that are built")
    p.set_defaults(run=cmd_lexicons)
    p = sub.add_parser("build", help="build a lexicon (same as build_lexicon.py)")
    p.add_argument("input")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--rules", dest="build_rules", default="english")
    p.add_argument("--name")
    p.add_argument("--strict", action="store_true")
    p.set_defaults(run=cmd_build)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = main_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (LexiconNotFoundError, LexiconFormatError, RulesError, AlphabetError) as exc:
        return _error(str(exc).strip("'\""))
    except OSError as exc:
        return _error(f"{exc.filename}: {exc.strerror or exc}")
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
