"""``gaddag-solver leaves``: leave values, and leave tables imported, exported and described."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..file_io import check_output
from ..rules import Rules, RulesError
from ._common import EXIT_USAGE, _count, _error

LEAVES_ACTIONS = ("import", "export", "info")


def cmd_leaves(args: argparse.Namespace) -> int:
    """leaves [--leaves NAME] [LEAVE ...] / import IN(.csv|.klv2) -o OUT.leaves /
    export IN.leaves [-o OUT.csv] / info IN.leaves"""
    from ..formats.leaves import Leaves, LeavesError

    if not args.words or args.words[0] not in LEAVES_ACTIONS:
        return _show_leaves(args)
    args.action = args.words[0]
    if len(args.words) != 2:
        return _error(f"leaves {args.action} takes one file, not {len(args.words) - 1}", EXIT_USAGE)
    args.input = args.words[1]
    try:
        rules = Rules.load(args.leaves_rules) if args.leaves_rules else None
        if args.action == "import":
            if not args.output:
                raise LeavesError("leaves import needs -o OUT.leaves")
            check_output(args.output, LeavesError, "-o")
            rules = rules or Rules.load("english")
            is_klv = args.input.lower().endswith((".klv2", ".klv"))
            table = Leaves.from_klv2(args.input, rules) if is_klv else Leaves.from_csv(args.input, rules)
            table.save(args.output)
            print(f"{args.output}: {len(table):,} leaves, {len(table.to_bytes()):,} bytes", file=sys.stderr)
        elif args.action == "export":
            if args.output:
                check_output(args.output, LeavesError, "-o")
            table = Leaves.load(args.input, rules)
            if args.output:
                table.to_csv(args.output)
            else:
                sys.stdout.write(table.csv_text())
        else:
            stats = Leaves.load(args.input, rules).stats()
            for key, value in stats.items():
                print(f"{key}\t{value:,}" if isinstance(value, int) else f"{key}\t{value}")
    except (LeavesError, RulesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        if exc.filename is None and not args.output:  # writing to stdout: the command line's message
            raise
        print(f"error: {exc.filename or args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _show_leaves(args: argparse.Namespace) -> int:
    """The values of the leaves asked for, or the best and worst of every size."""
    from ..formats.leaves import Leaves, LeavesError, default_leaves, leave_text

    try:
        rules = Rules.load(args.leaves_rules or "english")
        name = args.table or default_leaves(rules.default_lexicon or "", rules.name)
        if name is None:
            raise LeavesError(f"ruleset {rules.name!r} has no default leave table: give --leaves")
        table = Leaves.load(name, rules)
        if args.top < 0:
            raise LeavesError(f"--top must be 0 or more, not {args.top}")
        print(f"# {table.source}: {len(table):,} leaves of the {rules.name} rules")
        if args.words:
            for word in args.words:
                leave = leave_text("".join(chr(code) for code in _leave_codes(table, word)), rules)
                print(f"{leave}\t{table.value(word):+.2f}")
            return 0
        by_size: dict[int, list[tuple[float, str]]] = {}
        for leave, value in table.items():
            by_size.setdefault(len(leave), []).append((value, leave))
        for size, entries in sorted(by_size.items()):
            entries.sort(key=lambda item: (-item[0], item[1]))
            best = ", ".join(f"{leave} {value:+.2f}" for value, leave in entries[: args.top])
            worst = ", ".join(f"{leave} {value:+.2f}" for value, leave in entries[::-1][: args.top])
            print(f"{size} tile{'s' if size > 1 else ''} ({len(entries):,}): best {best}")
            print(f"{' ' * len(str(size))}  worst {worst}")
    except (LeavesError, RulesError) as exc:
        return _error(str(exc), EXIT_USAGE)
    return 0


def _leave_codes(table: Any, leave: str) -> list[int]:
    """A leave's codes, ascending (blank 0), as its table counts them."""
    counts = table.counts(leave)
    return [code for code in range(64) for _ in range(counts[code])]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "leaves",
        help="leave values; leave tables: import CSV/KLV2, export CSV, info",
        usage="gaddag-solver leaves [--leaves NAME] [LEAVE ...]\n"
        "       gaddag-solver leaves import IN.csv|IN.klv2 -o OUT.leaves [--rules NAME]\n"
        "       gaddag-solver leaves export IN.leaves [-o OUT.csv]\n"
        "       gaddag-solver leaves info IN.leaves",
        description="Without an action: the value of each LEAVE (e.g. AEINST, ?S, QU), or, with no "
        "LEAVE, the best and worst leaves of every size. The actions import, export and info are "
        "written in lower case; a leave spelled like one is looked up in upper case (INFO).",
        epilog="Example: gaddag-solver leaves --leaves sowpods ?S QU ERS",
    )
    p.add_argument("words", nargs="*", metavar="LEAVE", help="leaves to look up, or an action and its file")
    p.add_argument(
        "--leaves",
        dest="table",
        help="leave table: a name (sowpods, twl06) or a .leaves file; default: the table of the "
        "ruleset's default lexicon",
    )
    p.add_argument("--top", type=_count, default=5, help="best and worst leaves shown per size (default 5)")
    p.add_argument("-o", "--output", help="the .leaves file (import) or .csv file (export; default stdout)")
    p.add_argument("--rules", dest="leaves_rules", help="ruleset (default english)")
    p.set_defaults(run=cmd_leaves)
