"""``gaddag-solver solve``: every play of a position (or of each line of a batch), best first."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..board import Board, PositionError, position_warnings, written
from ..formats.cgp import parse_cgp
from ..lexicon import Lexicon
from ..move import EXCHANGE, PASS, Move
from ..rack import Rack
from ..rules import Rules, available_rules
from ..solver import DIRECTIONS, ENGINES, get_solver
from ..unseen import Unseen, unseen
from ._common import EXIT_FAILURE, EXIT_USAGE, NO_TABLE, _count
from ._output import _MoveDicts, _write_json
from ._positions import POSITION_ERRORS, _batch_lines, _board_position, _Lexicons, _not_text

SOLVE_FORMATS = ("table", "json", "jsonl", "tsv")


TABLE_TOP = 10


TSV_COLUMNS = ("coord", "word", "score", "leave", "row", "col", "direction", "tiles_used")


# with --leaves, --equity or --exchanges: the value of each move, and what kind of move it is
TSV_VALUED_COLUMNS = (
    "coord", "word", "score", "leave", "leave_value", "equity", "row", "col", "direction", "tiles_used",
    "kind", "exchanged",
)  # fmt: skip


def _valued(args: argparse.Namespace) -> bool:
    """Whether the moves carry an equity: with a leave table, --equity or --exchanges."""
    return bool(args.leaves or args.equity or args.exchanges)


def _by_equity(args: argparse.Namespace) -> bool:
    """Whether the moves are ranked by equity (with a leave table or --equity), not by score."""
    return bool(args.leaves or args.equity)


def _unseen(board: Board, rack: Rack, rules: Rules, bag: int | None) -> Unseen:
    """The unseen tiles of the position; ``bag`` (--bag), when given, is the bag size shown."""
    found = unseen(board, rack, rules)
    return found if bag is None else dataclasses.replace(found, bag=bag)


def _solve_position(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    rules: Rules,
    args: argparse.Namespace,
    where: str,
    opponent_rack: Rack | None = None,
) -> tuple[dict[str, Any], Iterable[Move]]:
    for message in position_warnings(board, rack, rules):
        print(f"warning: {where}{message}", file=sys.stderr)
    solver = get_solver(lexicon, rules, args.engine)
    options: dict[str, Any] = {
        "direction": args.direction,
        "warn": False,
        "leaves": args.leave_table,
        "equity": True if args.equity else None,
        "exchanges": args.exchanges,
        "bag": args.bag,
        "opponent_rack": opponent_rack,
    }
    moves: Iterable[Move]
    if args.top_n is None and args.engine == "gaddag":  # every move: streamed, never all held
        moves = solver.stream(board, rack, ranked=not args.unsorted, **options)
        count = moves.count
        if moves.warning:
            print(f"warning: {where}{moves.warning}", file=sys.stderr)
    else:
        count, moves = solver.solve_counted(board, rack, args.top_n, **options)
    result: dict[str, Any] = {"count": count, "moves": _MoveDicts(moves, args.words)}
    if args.unseen:
        result["unseen"] = _unseen(board, rack, rules, args.bag).to_dict()
    if args.exchanges and args.format == "table":  # for the summary: count holds the exchanges and the
        result["plays"] = solver.count(board, rack)  # pass too (one more generation, so the table only)
    return result, moves


def _words_text(move: Move) -> str:
    text = ", ".join(f"{word} {score}" for word, score in move.words)
    rules = move.board.rules if move.board is not None else None
    if rules is not None and rules.bingo_bonus and len(move.tiles) == rules.rack_size:
        text += f", bingo {rules.bingo_bonus}"
    return text


def _table_row(move: Move, valued: bool, show_words: bool) -> list[str]:
    """A move's cells: an exchange reads ``exch ABC``, the pass ``pass``."""
    if move.kind == EXCHANGE:
        row = ["exch", move.exchanged, str(move.score), move.leave]
    elif move.kind == PASS:
        row = ["pass", "", str(move.score), move.leave]
    else:
        row = [move.coord, move.word, str(move.score), move.leave]
    if valued:
        leave_value, equity = move.leave_value, move.equity
        row.append("" if leave_value is None else f"{leave_value:+.2f}")
        row.append("" if equity is None else f"{equity:.2f}")
    return row + ([_words_text(move)] if show_words else [])


def _counted(count: int, what: str) -> str:
    return f"{count:,} {what}{'s' if count != 1 else ''}"


def _print_table(result: dict[str, Any], moves: Iterable[Move], args: argparse.Namespace) -> None:
    """Aligned columns: one pass over the moves for the widths, one to print (a stream of every
    move is generated twice rather than held)."""
    valued = _valued(args)
    header = ["coord", "word", "score", "leave"] + (["leave_value", "equity"] if valued else [])
    numeric = {2, 4, 5} if valued else {2}
    header += ["words"] if args.words else []
    widths = [len(cell) for cell in header]
    shown = 0
    for move in moves:
        row = _table_row(move, valued, args.words)
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]
        shown += 1
    rows = (_table_row(move, valued, args.words) for move in moves)
    for row in itertools.chain([header], rows):
        cells = [
            cell.rjust(width) if i in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
    count = result["count"]
    if "plays" in result:  # with --exchanges: the plays, the exchanges the bag allows, the pass
        plays = result["plays"]
        summary = f"{_counted(plays, 'play')}, {_counted(count - plays - 1, 'exchange')} and the pass"
    else:
        summary = _counted(count, "play")
    if args.unsorted or not getattr(moves, "ranked", True):
        summary += ", in generation order"
    elif _by_equity(args):
        table = args.leave_table
        summary += f", ranked by equity (leaves: {Path(table.source).stem if table else 'every leave 0'})"
    print(f"{summary}; the best {shown} shown" if shown < count else summary)
    if "unseen" in result:
        print(_unseen_text(result["unseen"]))


def _unseen_text(tiles: dict[str, Any]) -> str:
    """Two lines: the totals, then each unseen letter with its count (``?`` the blanks)."""
    counts = " ".join(f"{written(letter)}{count}" for letter, count in tiles["counts"].items() if count)
    return (
        f"unseen: {_counted(tiles['total'], 'tile')}, {tiles['bag']:,} in the bag; {tiles['vowels']:,} "
        f"vowel{'s' if tiles['vowels'] != 1 else ''}, {tiles['consonants']:,} consonant"
        f"{'s' if tiles['consonants'] != 1 else ''}, {_counted(tiles['blanks'], 'blank')}\n"
        f"  {counts or '(none)'}"
    )


def _tsv_rows(result: dict[str, Any], line: int | None, valued: bool = False) -> Iterator[str]:
    defaults = {"kind": "play", "exchanged": ""}  # plays' dicts leave these out
    for move in result["moves"]:
        cells = [str(move.get(key, defaults.get(key))) for key in _tsv_columns(valued)]
        if "words" in move:
            cells.append(", ".join(f"{w['word']} {w['score']}" for w in move["words"]))
        yield "\t".join(([str(line)] if line is not None else []) + cells)


def _tsv_columns(valued: bool) -> tuple[str, ...]:
    return TSV_VALUED_COLUMNS if valued else TSV_COLUMNS


def _tsv_header(batch: bool, show_words: bool, valued: bool = False) -> str:
    columns = (["line"] if batch else []) + list(_tsv_columns(valued)) + (["words"] if show_words else [])
    return "\t".join(columns)


def cmd_solve(args: argparse.Namespace) -> int:
    rules = Rules.load(args.rules or "english")
    fmt = args.format = args.format or ("jsonl" if args.batch else "table")
    if args.all:
        args.top_n = None
    elif args.top is not None:
        args.top_n = args.top
    else:
        args.top_n = TABLE_TOP if fmt == "table" else None
    if args.unsorted and args.top_n is not None:
        print(
            "error: --unsorted lists every move: give --all (or a format other than table, without --top)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    usage_error = _load_leave_table(args, rules)
    if usage_error:
        print(f"error: {usage_error}", file=sys.stderr)
        return EXIT_USAGE
    lexicons = _Lexicons(rules, args.lexicon)
    if args.lexicon:
        lexicons.get()  # a --lexicon that does not exist is an error before anything runs
    if args.batch:
        return _solve_batch(args, rules, lexicons, fmt)

    opponent_rack = None
    if args.cgp is not None:
        position = parse_cgp(args.cgp, rules)
        board, rack = position.board, position.rack
        opponent_rack = position.opponent_rack or None  # an empty second rack: not known
        if args.rack is not None:
            rack = Rack(args.rack, rules)
        lexicon = lexicons.get(position.lexicon)
    else:
        board, rack = _board_position(args.board, args.rack, rules)
        lexicon = lexicons.get()
    result, moves = _solve_position(board, rack, lexicon, rules, args, "", opponent_rack)
    if fmt == "table":
        _print_table(result, moves, args)
    elif fmt in ("json", "jsonl"):
        _write_json(result, 2 if fmt == "json" else None)
        print()
    else:
        print(_tsv_header(False, args.words, _valued(args)))
        for row in _tsv_rows(result, None, _valued(args)):
            print(row)
    return 0


def _load_leave_table(args: argparse.Namespace, rules: Rules) -> str | None:
    """Set ``args.leave_table`` (the --leaves table; with --equity alone, the table of the
    lexicon, if there is one; None for ``--leaves none``); a message for what cannot be used (a
    missing, corrupt or foreign table; --bag with nothing to value)."""
    from ..formats.leaves import Leaves, LeavesError, default_leaves

    args.leave_table = None
    if args.bag is not None and not (_valued(args) or args.unseen):
        return "--bag goes with --leaves, --equity, --exchanges or --unseen"
    if args.leaves and args.leaves.lower() == NO_TABLE:
        return None
    name = args.leaves
    if not name and args.equity:  # the lexicon's own table, when one is shipped or built
        lexicon = args.lexicon or rules.default_lexicon or ""
        name = default_leaves(Path(lexicon).name.removesuffix(".gaddag"), rules.name)
    if name:
        try:
            args.leave_table = Leaves.load(name, rules)
        except LeavesError as exc:
            return f"--leaves: {exc}"
    return None


def _solve_batch(args: argparse.Namespace, rules: Rules, lexicons: _Lexicons, fmt: str) -> int:
    """One CGP per line (blank lines and lines starting with # are skipped); each line's result
    is printed as soon as it is known. Exit status 1 if any line failed."""
    if args.rack is not None:
        raise PositionError("--rack goes with --board or --cgp, not --batch")
    failed = 0
    results: list[dict[str, Any]] = []  # for --format json: one array at the end
    if fmt == "tsv":
        print(_tsv_header(True, args.words, _valued(args)))
    for number, line in enumerate(_batch_lines(args.batch), 1):
        if isinstance(line, str) and (not line.strip() or line.lstrip().startswith("#")):
            continue
        moves: list[Move] = []
        try:
            if isinstance(line, UnicodeDecodeError):
                raise PositionError(_not_text(line))
            position = parse_cgp(line, rules)
            lexicon = lexicons.get(position.lexicon)
            solved, moves = _solve_position(
                position.board,
                position.rack,
                lexicon,
                rules,
                args,
                f"line {number}: ",
                position.opponent_rack or None,
            )
            result: dict[str, Any] = {"line": number, **solved}
        except POSITION_ERRORS as exc:
            failed += 1
            result = {"line": number, "error": str(exc)}
        except OSError as exc:
            failed += 1
            result = {"line": number, "error": f"{exc.filename}: {exc.strerror or exc}"}
        if "error" in result and fmt in ("table", "tsv"):
            print(f"error: line {number}: {result['error']}", file=sys.stderr)
        elif fmt == "table":
            print(f"line {number}: rack {position.rack}")
            _print_table(result, moves, args)
            print()
        elif fmt == "tsv":
            for row in _tsv_rows(result, number, _valued(args)):
                print(row)
        if fmt == "jsonl":
            _write_json(result, None)
            print(flush=True)
        elif fmt == "json":
            results.append(result)  # its moves are generated again when written
    if fmt == "json":
        _write_json(results, 2)
        print()
    return EXIT_FAILURE if failed else 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "solve",
        help="every play of a position, best first",
        description="Find every legal play of a position (board and rack), best first.",
        epilog="Examples: gaddag-solver solve --board board.txt --rack AEINRST;  "
        'gaddag-solver solve --cgp "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0" --top 5;  '
        "gaddag-solver solve --batch positions.cgp > results.jsonl;  "
        "gaddag-solver solve --board board.txt --rack AEIRSTU --leaves my.leaves --exchanges",
    )
    p.add_argument(
        "--lexicon",
        help="lexicon name (e.g. sowpods) or .gaddag path; default: the CGP's lex opcode, else the "
        "ruleset's default lexicon",
    )
    p.add_argument(
        "--rules", help=f"ruleset ({', '.join(available_rules())}; default english) or a .json path"
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--board",
        metavar="FILE",
        help="the board as a grid: one line per row, '.' empty, letters, lower case for blanks "
        "('-' reads stdin); the rack may follow as the last line, unless --rack gives it",
    )
    source.add_argument("--cgp", metavar="LINE", help="the position as one CGP line")
    source.add_argument(
        "--batch",
        metavar="FILE",
        help="one CGP line per position; results as JSON Lines in the same order (a bad line gives "
        '{"line": N, "error": ...}; the exit status is 1 if any line failed)',
    )
    p.add_argument(
        "--rack", help="the rack: letters, ? for a blank (with --board; with --cgp it replaces the CGP's)"
    )
    many = p.add_mutually_exclusive_group()
    many.add_argument(
        "--top",
        type=_count,
        metavar="N",
        help=f"the best N plays (default {TABLE_TOP} for table, all for the other formats)",
    )
    many.add_argument(
        "--all",
        action="store_true",
        help="every play, best first, written as it is generated: memory does not grow with the number "
        "of plays (up to 500,000 are sorted in memory, up to 20,000,000 in sorted runs in temporary "
        "files, 48 bytes a play; more are listed in generation order, with a warning)",
    )
    p.add_argument(
        "--unsorted",
        action="store_true",
        help="with every play (--all, or json/jsonl/tsv without --top): list them in the generator's "
        "order (direction, line, anchor) instead of best first; the same plays, sooner, nothing sorted",
    )
    p.add_argument(
        "--format", choices=SOLVE_FORMATS, help="output format (default table; jsonl with --batch)"
    )
    p.add_argument(
        "--words", action="store_true", help="also list the words each play forms, with their scores"
    )
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default="gaddag",
        help="the move generator: gaddag (Gordon's, the default) or dawg (Appel & Jacobson's over the "
        "DAWG of the same words: NAME.dawg beside the lexicon, else built in memory); the same plays and "
        "scores; dawg values plays by score only (docs/dawg.md)",
    )
    p.add_argument(
        "--direction",
        choices=DIRECTIONS,
        default="both",
        help="only the plays across or down (generated so, not filtered); a single tile forming words "
        "both ways is an across play (default both)",
    )
    value = p.add_argument_group(
        "equity",
        "Equity = score + leave value. While the bag holds tiles, the leave value is what the tiles "
        "kept are worth by the leave table (0 without one). With the bag empty there is no leave: a "
        "play that goes out gains (going_out_bonus + going_out_penalty) times the value of the "
        "opponent's rack (a CGP's second rack when it gives one, else every unseen tile; twice it in "
        "english), and any other move "
        "loses twice the value of the tiles it keeps, plus 10 points. With --leaves, --equity or "
        "--exchanges the moves are shown with leave_value and equity columns (fields in json, jsonl "
        "and tsv); with --leaves or --equity they are ranked by equity.",
    )
    value.add_argument(
        "--leaves",
        metavar="NAME|PATH",
        help="leave table: a .leaves file, NAME.leaves in the lexicon folders (see `gaddag-solver "
        "leaves import`) or a shipped table (sowpods, twl06); `none`: every leave worth 0. A leave "
        "missing from the table is worth 0. The table must be for the ruleset in use",
    )
    value.add_argument(
        "--equity",
        action="store_true",
        help="rank by equity; without --leaves, with the lexicon's own table (sowpods, twl06; enable "
        "uses twl06's) or, when it has none, every leave worth 0",
    )
    value.add_argument(
        "--exchanges",
        action="store_true",
        help="also list every distinct exchange (shown as 'exch TILES'; only while the bag holds at "
        "least the ruleset's exchange minimum, 7 in english) and the pass; ranked by score unless "
        "--leaves or --equity",
    )
    value.add_argument(
        "--bag",
        type=_count,
        metavar="N",
        help="tiles in the bag, when the position does not tell (default: the unseen tiles less a "
        "full opponent's rack; the racks and opcodes of a CGP are not read for it)",
    )
    p.add_argument(
        "--unseen",
        action="store_true",
        help="also show the unseen tiles (the bag and the opponent's rack): counts by letter, bag "
        'size, vowels, consonants and blanks (below the table; "unseen" in json and jsonl)',
    )
    p.set_defaults(run=cmd_solve)
