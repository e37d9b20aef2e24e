"""The lexicon's words: ``check``, ``anagram``, ``pattern``, ``containing``; and ``lexicons``, the
lexicons built."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..alphabet import AlphabetError
from ..lexicon import Lexicon, LexiconFormatError
from ..lexicons import SOURCES, LexiconNotFoundError, available_lexicons, resolve_lexicon
from ..rules import Rules
from ._common import EXIT_FAILURE


def _load(name: str | None, rules_name: str | None) -> Lexicon:
    """The lexicon, read with the spelling of its ruleset (--rules, else the ruleset a list we build
    is for): French's É is read as E, though English, spelled with the same letters, folds nothing."""
    rules = Rules.load(rules_name) if rules_name else None
    if name is None:
        rules = rules or Rules.load("english")
        if not rules.default_lexicon:
            raise LexiconNotFoundError(
                f"ruleset {rules.name!r} has no default lexicon: give --lexicon NAME|PATH"
            )
        name = rules.default_lexicon
    path = resolve_lexicon(name)
    if rules is None and path.stem in SOURCES:
        rules = Rules.load(SOURCES[path.stem].rules)
    return Lexicon.load(path, rules)


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
            print(f"{word}\t{'valid' if valid else 'not valid' + _why_not_spelled(lexicon, word)}")
    return 0 if all(results.values()) else EXIT_FAILURE


def _why_not_spelled(lexicon: Lexicon, word: str) -> str:
    """ " (…)" when ``word`` cannot be spelled with the lexicon's tiles at all (Spanish has no K)."""
    alphabet = lexicon.alphabet
    try:
        alphabet.split(alphabet.normalize(word))
    except AlphabetError as error:
        return f" ({error})"
    return ""


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


def add_parsers(sub: Any) -> None:
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
