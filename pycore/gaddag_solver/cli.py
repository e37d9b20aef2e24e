"""The command line: ``gaddag-solver`` (also ``python -m gaddag_solver``) and
``build_lexicon.py``."""

from __future__ import annotations

import argparse
import codecs
import dataclasses
import itertools
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ._core_api import CoreError
from .alphabet import AlphabetError
from .board import Board, PositionError, position_warnings, written
from .dawg import DawgMismatchError
from .formats.cgp import parse_cgp
from .lexicon import Lexicon, LexiconBuildError, LexiconFormatError, build_lexicon_file
from .lexicons import LexiconNotFoundError, available_lexicons, resolve_lexicon
from .move import EXCHANGE, PASS, Move
from .rack import Rack, RackError
from .rules import Rules, RulesError, available_rules
from .solver import DIRECTIONS, ENGINES, EngineError, LexiconMismatchError, get_solver
from .unseen import Unseen, unseen
from .wordlist import LINE_BREAK_BYTES

EXIT_USAGE = 2
EXIT_FAILURE = 1


def _error(message: str, status: int = EXIT_FAILURE) -> int:
    print(f"error: {message}", file=sys.stderr)
    return status


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
    if args.dawg:
        argv.append("--dawg")
    return build_lexicon_main(argv)


LEAVES_ACTIONS = ("import", "export", "info")


def cmd_leaves(args: argparse.Namespace) -> int:
    """leaves [--leaves NAME] [LEAVE ...] / import IN(.csv|.klv2) -o OUT.leaves /
    export IN.leaves [-o OUT.csv] / info IN.leaves"""
    from .formats.leaves import Leaves, LeavesError

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
            rules = rules or Rules.load("english")
            is_klv = args.input.lower().endswith((".klv2", ".klv"))
            table = Leaves.from_klv2(args.input, rules) if is_klv else Leaves.from_csv(args.input, rules)
            table.save(args.output)
            print(f"{args.output}: {len(table):,} leaves, {len(table.to_bytes()):,} bytes", file=sys.stderr)
        elif args.action == "export":
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
        print(f"error: {exc.filename or args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _show_leaves(args: argparse.Namespace) -> int:
    """The values of the leaves asked for, or the best and worst of every size."""
    from .formats.leaves import Leaves, LeavesError, default_leaves, leave_text

    try:
        rules = Rules.load(args.leaves_rules or "english")
        name = args.table or default_leaves(rules.default_lexicon or "")
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


# ---- gaddag-solver train-leaves ------------------------------------------------------------------


def cmd_train_leaves(args: argparse.Namespace) -> int:
    """Learn a leave table by self-play (gaddag_solver.game.train)."""
    from .game import train
    from .progress import ProgressBar

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


# ---- gaddag-solver solve -----------------------------------------------------------------------

SOLVE_FORMATS = ("table", "json", "jsonl", "tsv")
NO_TABLE = "none"  # --leaves none: equity with every leave worth 0
TABLE_TOP = 10
TSV_COLUMNS = ("coord", "word", "score", "leave", "row", "col", "direction", "tiles_used")
# with --leaves, --equity or --exchanges: the value of each move, and what kind of move it is
TSV_VALUED_COLUMNS = (
    "coord", "word", "score", "leave", "leave_value", "equity", "row", "col", "direction", "tiles_used",
    "kind", "exchanged",
)  # fmt: skip
# what makes one position unusable; in batch mode such a line gets an error object
POSITION_ERRORS = (
    PositionError,
    EngineError,
    DawgMismatchError,
    LexiconNotFoundError,
    LexiconFormatError,
    LexiconMismatchError,
    AlphabetError,
    CoreError,
)


class _Lexicons:
    """Lexicons by name or path, each loaded once: --lexicon, else the CGP's ``lex`` opcode,
    else the ruleset's default."""

    def __init__(self, rules: Rules, explicit: str | None) -> None:
        self.rules = rules
        self.explicit = explicit
        self.loaded: dict[str, Lexicon] = {}

    def get(self, from_position: str | None = None) -> Lexicon:
        name = self.explicit or from_position or self.rules.default_lexicon
        if not name:
            raise LexiconNotFoundError(
                f"ruleset {self.rules.name!r} has no default lexicon: give --lexicon NAME|PATH"
            )
        if name not in self.loaded:
            self.loaded[name] = Lexicon.load(resolve_lexicon(name))
        return self.loaded[name]


def _text_lines(path: str) -> list[str | UnicodeDecodeError]:
    """The lines of a text file ('-': stdin), ends LF, CRLF or CR, a UTF-8 byte order mark at the
    start skipped. Each line is decoded on its own: one that is not UTF-8 is its UnicodeDecodeError
    (see :func:`_not_text`), so a bad byte spoils only its own line."""
    if path == "-":
        stdin = sys.stdin
        data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    lines = LINE_BREAK_BYTES.split(data.removeprefix(codecs.BOM_UTF8))
    if lines[-1] == b"":
        lines.pop()
    decoded: list[str | UnicodeDecodeError] = []
    for raw in lines:
        try:
            decoded.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            decoded.append(exc)
    return decoded


def _not_text(error: UnicodeDecodeError) -> str:
    """What is wrong with a line that is not UTF-8 text, and where in the line."""
    return f"not UTF-8 text (byte 0x{error.object[error.start]:02x} at column {error.start + 1})"


def _board_position(path: str, rack_text: str | None, rules: Rules) -> tuple[Board, Rack]:
    """A board file in the grid form; the rack is --rack or the line after the board, not both."""
    lines = []
    for number, line in enumerate(_text_lines(path), 1):
        if isinstance(line, UnicodeDecodeError):
            raise PositionError(f"{path}: line {number}: {_not_text(line)}; a board file is text")
        if "\0" in line:
            raise PositionError(f"{path}: line {number}: a NUL byte; a board file is text")
        if squares := "".join(line.split()):
            lines.append(squares)
    if len(lines) == rules.rows + 1:  # positions.txt blocks: the rack follows the board
        last = lines.pop()
        if rack_text is not None:
            raise PositionError(
                f"{path}: {rules.rows} board rows and a rack ({last!r}), and --rack gives the rack too: "
                "give the rack in one place"
            )
        try:
            return Board.from_rows(lines, rules), Rack(last, rules)
        except RackError as exc:
            raise RackError(f"{path}: the line after the board is read as the rack: {exc}") from None
    if rack_text is None:
        raise PositionError(f"{path}: give the rack with --rack (or on the line after the board)")
    return Board.from_rows(lines, rules), Rack(rack_text, rules)


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


class _MoveDicts:
    """A result's moves as JSON-ready dicts, each made when it is written: iterating a stream of
    moves twice generates them twice rather than holding them."""

    def __init__(self, moves: Iterable[Move], words: bool) -> None:
        self.moves = moves
        self.words = words

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (move.to_dict(words=self.words) for move in self.moves)


def _write_json(value: Any, indent: int | None, level: int = 0) -> None:
    """Write ``json.dumps(value, ensure_ascii=False, indent=indent)`` to stdout a piece at a time:
    the moves of a result (_MoveDicts) are written as a list, one move at a time."""
    write = sys.stdout.write
    inner = level + 1
    if isinstance(value, dict) and value:
        write("{")
        for i, (key, item) in enumerate(value.items()):
            write(_json_gap(i, indent, inner) + _dumps(key) + ": ")
            _write_json(item, indent, inner)
        write(_json_gap(-1, indent, level) + "}")
    elif isinstance(value, (list, tuple, _MoveDicts)) and value:
        write("[")
        written = 0
        for item in value:
            write(_json_gap(written, indent, inner))
            if isinstance(value, _MoveDicts):  # flat dicts: one dumps each
                text = json.dumps(item, ensure_ascii=False, indent=indent)
                write(text if indent is None else text.replace("\n", "\n" + " " * (indent * inner)))
            else:
                _write_json(item, indent, inner)
            written += 1
        write(_json_gap(-1, indent, level) + "]" if written else "]")
    else:
        write(json.dumps(value, ensure_ascii=False, indent=indent))


def _json_gap(index: int, indent: int | None, level: int) -> str:
    """What json.dumps writes before item `index` of a container at `level` (-1: before its end)."""
    comma = "," if index > 0 else ""
    if indent is None:
        return comma + " " if index > 0 else ""
    return comma + "\n" + " " * (indent * level)


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


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


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
    from .formats.leaves import Leaves, LeavesError, default_leaves

    args.leave_table = None
    if args.bag is not None and not (_valued(args) or args.unseen):
        return "--bag goes with --leaves, --equity, --exchanges or --unseen"
    if args.leaves and args.leaves.lower() == NO_TABLE:
        return None
    name = args.leaves
    if not name and args.equity:  # the lexicon's own table, when one is shipped or built
        lexicon = args.lexicon or rules.default_lexicon or ""
        name = default_leaves(Path(lexicon).name.removesuffix(".gaddag"))
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
    for number, line in enumerate(_text_lines(args.batch), 1):
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


def _add_solve_parser(sub: Any) -> None:
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


def cmd_score(args: argparse.Namespace) -> int:
    """Is a play legal on a position, and what does it score, word by word and tile by tile?"""
    from .game.verdict import judge

    rules = Rules.load(args.rules or "english")
    lexicons = _Lexicons(rules, args.lexicon)
    if args.cgp is not None:
        position = parse_cgp(args.cgp, rules)
        board, rack = position.board, position.rack
        if args.rack is not None:
            rack = Rack(args.rack, rules)
        lexicon = lexicons.get(position.lexicon)
    else:
        lines = [
            "".join(line.split())
            for line in _text_lines(args.board)
            if isinstance(line, str) and line.strip()
        ]
        rack_text = args.rack if args.rack is not None or len(lines) <= rules.rows else lines[rules.rows]
        board = Board.from_rows(lines[: rules.rows], rules)
        rack = Rack(rack_text, rules) if rack_text is not None else None
        lexicon = lexicons.get()
    verdict = judge(board, " ".join(args.play), lexicon, rack if rack is None or str(rack) else None)
    if args.json:
        _write_json(verdict.to_dict(), 2)
        print()
        return 0 if verdict.legal else EXIT_FAILURE
    print(f"{verdict.play}: {'legal' if verdict.legal else 'not legal'}")
    for reason in verdict.reasons:
        print(f"  - {reason}")
    for word in verdict.words:
        letters = " + ".join(
            f"{x.letter}{x.value}" + (f"×{x.letter_premium}" if x.letter_premium > 1 else "")
            for x in word.letters
        )
        premium = f" ×{word.word_premium}" if word.word_premium > 1 else ""
        mark = "" if word.in_lexicon else "  (not a word)"
        print(f"  {word.word:<15} {word.coord:<4} ({letters}){premium} = {word.score}{mark}")
    for tile in verdict.tiles:
        premiums = f" ×{tile.letter_premium} letter" if tile.letter_premium > 1 else ""
        premiums += f" ×{tile.word_premium} word" if tile.word_premium > 1 else ""
        print(f"  tile {tile.letter} on {tile.square}: {tile.value}{premiums} → {tile.points}")
    if verdict.move is not None:
        bingo = f" (bingo bonus {verdict.bingo} included)" if verdict.bingo else ""
        print(
            f"  score {verdict.score}{bingo}"
            + (f", leave {verdict.leave or '-'}" if verdict.leave is not None else "")
        )
    return 0 if verdict.legal else EXIT_FAILURE


def _add_score_parser(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help="is a play legal, and what does it score (per word, per tile)?",
        description="Check a play written as players write it (a square and a word: 8D QUIXOTE across, "
        "D8 QUIXOTE down; letters on the board plain or in parentheses; a blank in lower case) on a "
        "position: legal or not and exactly why, and its score per word and per tile with the bingo "
        "bonus. The exit status is 1 for a play that is not legal.",
        epilog='Example: gaddag-solver score --lexicon sowpods --cgp "15/15/15/15/7Q7/7U7/7E7/3FLOWERs5/'
        '7N1I5/9Z5/8VEX4/15/15/15/15 AEIRSTU/ 0/0 0" E5 URALITES',
    )
    p.add_argument("play", nargs="+", metavar="PLAY", help="the square and the word, e.g. 8D QUIXOTE")
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the CGP's, else the ruleset's)")
    p.add_argument("--rules", help="ruleset name or .json path (default english)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--board", metavar="FILE", help="the board as a grid ('.' empty, lower case blanks)")
    source.add_argument("--cgp", metavar="LINE", help="the position as one CGP line")
    p.add_argument("--rack", help="the rack (default: the CGP's; without one the tiles are not checked)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(run=cmd_score)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


# ---- gaddag-solver autoplay ----------------------------------------------------------------------


def cmd_autoplay(args: argparse.Namespace) -> int:
    """Self-play: games between two players, a table of results (see gaddag_solver.game.autoplay)."""
    from pathlib import Path

    from .formats.gcg import format_gcg
    from .game import autoplay
    from .progress import ProgressBar

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
        rules = Rules.load(args.rules)
        lexicon = args.lexicon or rules.default_lexicon
        if not lexicon:
            raise LexiconNotFoundError(f"ruleset {rules.name!r} has no default lexicon: give --lexicon")
        match = autoplay.Match.create(lexicon, args.rules, specs)
        bar = ProgressBar("games") if args.progress or sys.stderr.isatty() else None
        try:
            run = autoplay.run_autoplay(
                match, args.games, args.seed, workers=args.workers, scheduler=args.scheduler,
                keep_games=args.gcg_dir is not None, progress=bar,
            )  # fmt: skip
        finally:
            if bar is not None:
                bar.close()
    except (
        autoplay.AutoplayError,
        LexiconNotFoundError,
        LexiconFormatError,
        RulesError,
        AlphabetError,
    ) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(autoplay.format_table(run))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(autoplay.summary_json(run, match), handle, ensure_ascii=False, indent=2)
            handle.write("\n")
    if args.gcg_dir is not None:
        folder = Path(args.gcg_dir)
        folder.mkdir(parents=True, exist_ok=True)
        rules = Rules.load(args.rules)
        width = len(str(args.games - 1))
        for record in run.records:
            assert record.game is not None
            names = match.names if record.first == 0 else match.names[::-1]
            text = format_gcg(record.game, rules, names, title=f"game {record.index} seed {record.seed}")
            (folder / f"game-{record.index:0{width}d}.gcg").write_text(text, encoding="utf-8")
    return 0


# ---- gaddag-solver review --------------------------------------------------------------------------


_SIM_OPTIONS = {
    "sim_candidates": "candidates",
    "sim_plies": "plies",
    "sim_iterations": "iterations",
    "sim_time": "time_limit",
    "sim_confidence": "confidence",
    "sim_seed": "seed",
}


def _review_sim(args: argparse.Namespace) -> Any:
    """The review's SimSettings from --sim and the --sim-* options (None without --sim);
    ReviewError for a bad value or an option given without --sim."""
    from .game.review import ReviewError, SimSettings

    given = {field: getattr(args, option) for option, field in _SIM_OPTIONS.items()}
    given = {field: value for field, value in given.items() if value is not None}
    if not args.sim:
        if given:
            option = next(o for o, f in _SIM_OPTIONS.items() if f in given).replace("_", "-")
            raise ReviewError(f"--{option} is a setting of --sim: give --sim too")
        return None
    return SimSettings(**given)


def cmd_review(args: argparse.Namespace) -> int:
    """Review recorded games (GCG): each turn against the best move by equity, and with --sim
    by simulation (docs/review.md)."""
    from .formats.gcg import GcgError
    from .game import review
    from .progress import ProgressBar

    if (args.game is None) == (args.batch is None):
        return _error("give one GCG file, or --batch FOLDER_OR_GLOB", EXIT_USAGE)
    if args.workers is not None and args.workers < 1:
        return _error(f"--workers must be at least 1, not {args.workers}", EXIT_USAGE)
    try:
        sim = _review_sim(args)
    except review.ReviewError as exc:
        return _error(str(exc), EXIT_USAGE)
    try:
        end = (
            None
            if args.end_time is None and not args.end
            else review.EndSettings(args.end_time or 30.0, args.end_bag)
        )
    except ValueError as exc:
        return _error(f"--end: {exc}", EXIT_USAGE)
    spec = review.ReviewSpec(args.lexicon, args.leaves, args.rules or "english", sim, end)
    if args.game is not None:
        # a simulated review takes seconds a turn: show each turn done
        slow = sim is not None or end is not None
        bar = ProgressBar("turns") if slow and (args.progress or sys.stderr.isatty()) else None
        try:
            result = review.review_file(args.game, spec.lexicon, spec.leaves, spec.rules, sim, bar, end)
        except review.ReviewError as exc:
            return _error(str(exc), EXIT_USAGE)
        except GcgError as exc:
            return _error(str(exc))
        except KeyboardInterrupt:  # a simulated review is long: Ctrl-C ends it without a traceback
            if bar is not None:
                bar.close()
            return _error("interrupted")
        finally:
            if bar is not None:
                bar.close()
        if args.format == "json":
            print(_dumps(result.to_dict()))
        else:
            print(result.format_table())
        return 0
    paths = review.find_games(args.batch)
    if not paths:
        return _error(f"--batch {args.batch!r}: no .gcg file found", EXIT_USAGE)
    bar = ProgressBar("games") if args.progress or sys.stderr.isatty() else None
    started = time.perf_counter()
    try:
        results = review.review_files(
            paths, spec, workers=args.workers, scheduler=args.scheduler, progress=bar
        )
    except review.ReviewError as exc:
        return _error(str(exc), EXIT_USAGE)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        for result in results:
            if result.error is not None:
                print(f"error: {result.error} (skipped)", file=sys.stderr)
            for record in result.records:
                out.write(_dumps(record) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    failed = sum(1 for result in results if result.error is not None)
    done = len(results) - failed
    rate = done / seconds if seconds > 0 else float("inf")
    print(
        f"{done} games reviewed, {failed} failed, {seconds:.2f} s: {rate:.1f} games/s",
        file=sys.stderr,
    )
    return EXIT_FAILURE if failed else 0


# ---- gaddag-solver sim / endgame ---------------------------------------------------------------------


def _lookahead_game(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(the Game of the position, the rules, the leave table or None) from --cgp or --board/--rack,
    --opponent-rack and --leaves. The player to move is player 0."""
    from .formats.leaves import Leaves, LeavesError, default_leaves
    from .game.play import Game

    rules = Rules.load(args.rules or "english")
    lexicons = _Lexicons(rules, args.lexicon)
    scores: tuple[int, int] = (0, 0)
    zero_turns = 0
    opponent = None
    if args.cgp is not None:
        position = parse_cgp(args.cgp, rules)
        board, rack = position.board, position.rack
        opponent = position.opponent_rack or None
        scores, zero_turns = position.scores, position.zero_turns
        if args.rack is not None:
            rack = Rack(args.rack, rules)
        lexicon = lexicons.get(position.lexicon)
    else:
        board, rack = _board_position(args.board, args.rack, rules)
        lexicon = lexicons.get()
    if args.opponent_rack is not None:
        opponent = Rack(args.opponent_rack, rules)
    for message in position_warnings(board, rack, rules):
        print(f"warning: {message}", file=sys.stderr)
    table = None
    name = args.leaves
    if not name:
        name = default_leaves(Path(args.lexicon or rules.default_lexicon or "").name.removesuffix(".gaddag"))
    if name and name.lower() != NO_TABLE:
        try:
            table = Leaves.load(name, rules)
        except LeavesError as exc:
            raise PositionError(f"--leaves: {exc}") from None
    game = Game.from_board(board, rack, lexicon, opponent, scores, zero_turns, seed=args.seed)
    return game, rules, table


def _status_line(text: str) -> None:
    """Redraw one line of live status on stderr."""
    sys.stderr.write(f"\r{text}\x1b[K")
    sys.stderr.flush()


def _print_columns(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    """A plain table: each column as wide as its widest cell."""
    widths = [max(len(h), *(len(r[k]) for r in rows)) if rows else len(h) for k, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
    for row in rows:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())


def cmd_sim(args: argparse.Namespace) -> int:
    """Simulate the best candidates of a position (docs/simulation.md)."""
    from .game.simulate import Simulation, SimulationError

    try:
        game, _rules, table = _lookahead_game(args)
        simulation = Simulation(
            game, leaves=table, candidates=args.candidates, plies=args.plies, confidence=args.confidence,
            seed=args.seed,
        )  # fmt: skip
    except SimulationError as exc:
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

    try:
        result = simulation.run(args.iterations, args.time, progress)
    except KeyboardInterrupt:
        result = simulation.result()
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
    print(
        f"{result.iterations} iterations, {args.plies} plies, {result.elapsed:.2f} s "
        f"({result.playouts_per_second:.0f} playouts/s): {verdict}"
    )
    return 0


def cmd_endgame(args: argparse.Namespace) -> int:
    """Solve an endgame exactly (docs/endgame.md)."""
    from .game.endgame import EndgameError, EndgameSearch

    try:
        game, _rules, _table = _lookahead_game(args)
        search = EndgameSearch(game)
    except EndgameError as exc:
        return _error(str(exc), EXIT_USAGE)
    show = args.progress or sys.stderr.isatty()

    def progress(result: Any) -> None:
        if show:
            _status_line(
                f"depth {result.depth}  value {result.value:+d}  {result.nodes:,} positions  "
                f"{result.elapsed:.1f} s  {result.best if result.line else ''}"
            )

    if args.move is not None or args.top > 1:
        return _endgame_moves(args, game, search, progress if show else None)
    try:
        result = search.run(args.max_depth, args.time, progress)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_FAILURE
    except EndgameError as exc:
        return _error(str(exc))
    if show:
        sys.stderr.write("\n")
    if args.format == "json":
        print(_dumps(result.to_dict()))
        return 0
    names = ("you", "opponent")
    for i, move in enumerate(result.line):
        print(f"{i + 1:>3}  {names[i % 2]:<8}  {move}")
    exact = "exact" if result.complete else f"best found at depth {result.depth} (not proven)"
    print(
        f"value {result.value:+d} for the player to move ({exact}); {result.nodes:,} positions in "
        f"{result.elapsed:.2f} s"
    )
    return 0


def _endgame_moves(args: argparse.Namespace, game: Any, search: Any, progress: Any) -> int:
    """endgame --move (a given first move's exact value against the best's) or --top K."""
    from .game.endgame import EndgameError, find_move
    from .game.play import GameError

    try:
        if args.move is not None:
            move = find_move(game, args.move)
            best = search.run(time_limit=args.time, progress=progress)
            given = search.value_of(move, time_limit=args.time, progress=progress)
            results = [best, given]
        else:
            results = search.best_moves(args.top, time_limit=args.time, progress=progress)
    except EndgameError as exc:
        return _error(str(exc))
    except GameError as exc:  # the move given is not one of the rack's
        return _error(str(exc), EXIT_USAGE)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_FAILURE
    if progress is not None:
        sys.stderr.write("\n")
    if args.move is not None:
        best, given = results
        lost = best.value - given.value if best.complete and given.complete else None
        if args.format == "json":
            print(_dumps({"best": best.to_dict(), "move": given.to_dict(), "points_lost": lost}))
            return 0
        for label, result in (("best", best), ("move", given)):
            exact = "exact" if result.complete else f"depth {result.depth}, not proven"
            line = " ".join(str(m) for m in result.line)
            print(f"{label:<5} {result.value:+d} ({exact}): {line}")
        print(f"points lost: {lost}" if lost is not None else "points lost: not proven (time ran out)")
        return 0
    if args.format == "json":
        print(_dumps({"moves": [r.to_dict() for r in results]}))
        return 0
    rows = [
        (str(i), str(r.best), f"{r.value:+d}", "exact" if r.complete else f"depth {r.depth}",
         " ".join(str(m) for m in r.line[1:]))
        for i, r in enumerate(results, 1)
    ]  # fmt: skip
    _print_columns(("rank", "first move", "value", "", "then"), rows)
    return 0


def _percent(value: Any) -> str:
    return f"{100 * float(value):.1f}"


def cmd_peg(args: argparse.Namespace) -> int:
    """Solve a pre-endgame (1 to 6 tiles in the bag; docs/preendgame.md)."""
    from .game.preendgame import EXACT, PreendgameError, PreendgameSearch

    try:
        game, _rules, table = _lookahead_game(args)
        search = PreendgameSearch(game, leaves=table)
    except PreendgameError as exc:
        return _error(str(exc), EXIT_USAGE)
    show = args.progress or sys.stderr.isatty()
    shown_at = [0.0]

    def progress(result: Any) -> None:
        if show and time.monotonic() - shown_at[0] >= 0.25:
            shown_at[0] = time.monotonic()
            done = sum(1 for c in result.candidates if c.status != "pending")
            best = (
                f"best {result.best.move} {_percent(result.best.win)}%"
                if result.best_index is not None
                else ""
            )
            _status_line(
                f"{done}/{len(result.candidates)} candidates  {result.endgames:,} endgames  "
                f"{result.elapsed:.1f} s  {best}"
            )

    try:
        result = search.run(args.time, progress)
    except KeyboardInterrupt:
        search.stop()
        result = search.run(0)  # the standing, no more search
        print("\ninterrupted: the standing so far", file=sys.stderr)
    except PreendgameError as exc:
        return _error(str(exc))
    spread = None
    if result.best_index is not None and not args.no_spread:
        left = None if args.time is None else max(1.0, args.time - result.elapsed)
        try:
            spread = search.expected_spread(result.best_index, time_limit=left)
        except KeyboardInterrupt:
            spread = None
    if show:
        sys.stderr.write("\n")
    if args.format == "json":
        print(_dumps({**result.to_dict(), "best_expected_spread": None if spread is None else float(spread)}))
        return 0
    shown = [c for c in result.candidates if c.status == EXACT] if not args.all else result.candidates
    shown = shown[: args.top] if args.top else shown
    headers = ("move", "win %", "status", "wins when the bag holds", "loses when the bag holds")
    rows = []
    for c in shown:
        win = _percent(c.win) if c.win is not None else f"{_percent(c.win_low)}–{_percent(c.win_high)}"
        wins = sorted({bag for bag, _r, _w, o in c.worlds if o == 1})
        loses = sorted({bag for bag, _r, _w, o in c.worlds if o == 0})
        rows.append((str(c.move), win, c.status, " ".join(wins), " ".join(loses)))
    _print_columns(headers, rows)
    if result.best_index is not None:
        verdict = "exact" if result.complete else "the best so far (not every candidate valued)"
        average = "" if spread is None else f", expected final spread {float(spread):+.1f}"
        print(f"best: {result.best.move}, wins {_percent(result.best.win)}% ({verdict}){average}")
    ruled = sum(1 for c in result.candidates if c.status == "ruled out")
    print(
        f"{result.bag} in the bag, {result.worlds} racks the opponent may hold; {len(result.candidates)} "
        f"candidates, {ruled} ruled out; {result.endgames:,} endgames, {result.nodes:,} positions in "
        f"{result.elapsed:.2f} s ({result.reason})"
    )
    return 0


def _add_lookahead_parsers(sub: Any) -> None:
    def position_arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the CGP's, the ruleset's)")
        p.add_argument("--rules", help="ruleset name or .json path (default english)")
        source = p.add_mutually_exclusive_group(required=True)
        source.add_argument("--cgp", metavar="LINE", help="the position as one CGP line (scores included)")
        source.add_argument("--board", metavar="FILE", help="the board as a grid (see `solve --board`)")
        p.add_argument("--rack", help="the rack of the player to move")
        p.add_argument(
            "--opponent-rack",
            metavar="TILES",
            help="the opponent's rack, when known (default: the CGP's second rack; an endgame with none "
            "given takes every unseen tile)",
        )
        p.add_argument(
            "--leaves", metavar="NAME|PATH", help="leave table (default: the lexicon's own; none: zeros)"
        )
        p.add_argument("--seed", type=int, default=0, help="the seed of the random draws (default 0)")
        p.add_argument("--format", choices=("table", "json"), default="table")
        p.add_argument("--progress", action="store_true", help="show progress when stderr is not a terminal")

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
    p.add_argument("--candidates", type=_count, default=15, help="how many candidates (default 15)")
    p.add_argument("--plies", type=_count, default=2, help="moves played after each candidate (default 2)")
    p.add_argument("--iterations", type=_count, default=2000, help="most iterations (default 2000)")
    p.add_argument("--time", type=float, metavar="SECONDS", help="stop after this long")
    p.add_argument(
        "--confidence",
        type=float,
        default=0.99,
        help="drop a candidate once the leader is better at this confidence (default 0.99; 0: never)",
    )
    p.set_defaults(run=cmd_sim)

    p = sub.add_parser(
        "endgame",
        help="solve an endgame exactly (the bag empty)",
        description="Search every line to the end of the game (negamax, alpha-beta, a transposition "
        "table, deepening one ply at a time) for the best line of the player to move; with --time, "
        "the best line of the deepest search finished (docs/endgame.md).",
        epilog="Example: gaddag-solver endgame --board board.txt --rack AEIN --opponent-rack DGOR",
    )
    position_arguments(p)
    p.add_argument("--time", type=float, metavar="SECONDS", help="stop after this long")
    p.add_argument("--max-depth", type=int, default=64, help="deepest search, in plies (default 64)")
    p.add_argument(
        "--top", type=_count, default=1, metavar="K", help="the exact value of each of the best K first moves"
    )
    p.add_argument(
        "--move", metavar='"8D WORD"', help="the exact value of this first move and the points it loses"
    )
    p.set_defaults(run=cmd_endgame)

    p = sub.add_parser(
        "peg",
        help="solve a pre-endgame (1 to 6 tiles in the bag)",
        description="For every play and the pass of the player to move, the probability of winning "
        "(a tie counts half) over every rack the opponent may hold and every order of the bag, both "
        "sides choosing their best on what they can see, to the exact endgame (docs/preendgame.md). "
        "Candidates go in equity order; one that cannot beat the best is ruled out. The opponent's "
        "rack in the position is ignored.",
        epilog='Example: gaddag-solver peg --cgp "<board> AEINRST/ 350/362 0 lex CSW21;" --time 60',
    )
    position_arguments(p)
    p.add_argument("--time", type=float, metavar="SECONDS", help="stop after this long (the standing then)")
    p.add_argument("--top", type=int, default=10, help="candidates shown (default 10; 0: all)")
    p.add_argument("--all", action="store_true", help="show ruled-out candidates too, with their bounds")
    p.add_argument(
        "--no-spread", action="store_true", help="skip the best move's expected final spread (exact endgames)"
    )
    p.set_defaults(run=cmd_peg)


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
    p.add_argument("--dawg", action="store_true", help="also write NAME.dawg beside the output")
    p.set_defaults(run=cmd_build)
    _add_solve_parser(sub)
    _add_score_parser(sub)
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
    p.add_argument("--top", type=int, default=5, help="best and worst leaves shown per size (default 5)")
    p.add_argument("-o", "--output", help="the .leaves file (import) or .csv file (export; default stdout)")
    p.add_argument("--rules", dest="leaves_rules", help="ruleset (default english)")
    p.set_defaults(run=cmd_leaves)

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

    p = sub.add_parser(
        "autoplay",
        help="self-play: many games between two players, with statistics",
        description="Play games between two players in mirrored pairs (the same bag, seats swapped) "
        "and report wins, spread and bingos with 95%% confidence intervals.",
        epilog="Example: gaddag-solver autoplay --lexicon sowpods --players equity,greedy --games 1000",
    )
    p.add_argument("--lexicon", help="lexicon name or .gaddag path (default: the ruleset's default lexicon)")
    p.add_argument("--rules", default="english", help="ruleset name or .json path (default english)")
    p.add_argument(
        "--players",
        default="equity,greedy",
        help="two players, comma-separated: greedy, equity (no leave table), equity:LEAVES "
        "(a leave table's name or path), or endgame / endgame:LEAVES (equity, then the pre-endgame "
        "with 1-2 in the bag and the exact endgame, 5 s a search); default equity,greedy",
    )
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same games")
    p.add_argument("--workers", type=int, help="local worker processes (default: every core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on this Dask scheduler (tcp://HOST:8786)")
    p.add_argument("--gcg-dir", metavar="DIR", help="write every game as a GCG file into DIR")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON to FILE")
    p.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    p.set_defaults(run=cmd_autoplay)

    p = sub.add_parser(
        "review",
        help="review recorded games (GCG): each turn against the best move by equity (or simulation)",
        description="Replay a GCG file, re-check every turn against the board and the lexicon, and "
        "compare each move made (with its rack recorded) with the best move by static equity: the "
        "equity lost, its rank, bingos missed, and a summary per player (docs/review.md). With "
        "--sim, also simulate the best candidates and the move made at every turn with tiles in "
        "the bag. With --batch, many files in parallel, one JSON Lines record per turn and per player.",
        epilog="Example: gaddag-solver review game.gcg --lexicon sowpods; "
        "gaddag-solver review game.gcg --sim --sim-time 2; "
        "gaddag-solver review --batch games/ -o review.jsonl",
    )
    p.add_argument("game", nargs="?", metavar="GAME.gcg", help="the game to review")
    p.add_argument("--batch", metavar="FOLDER_OR_GLOB", help="review every .gcg file in a folder, or a glob")
    p.add_argument(
        "--lexicon", help="lexicon name or .gaddag path (default: the file's #lexicon, else sowpods)"
    )
    p.add_argument(
        "--leaves",
        help="leave table: a name (sowpods, twl06), a .leaves file or none; default: the lexicon's own",
    )
    p.add_argument("--rules", default="english", help="ruleset (default english)")
    p.add_argument("--format", choices=("table", "json"), default="table", help="one game's output")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="--batch: write the JSON Lines here (default stdout)"
    )
    p.add_argument("--workers", type=int, help="--batch: local worker processes (default: every core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="--batch: run on this Dask scheduler")
    p.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    from .game.simulate import DEFAULT_CANDIDATES, DEFAULT_CONFIDENCE, DEFAULT_ITERATIONS, DEFAULT_PLIES

    p.add_argument(
        "--sim", action="store_true", help="also rank each turn's moves by simulation (seconds a turn)"
    )
    p.add_argument(
        "--end",
        action="store_true",
        help="also grade the last turns: the exact endgame with the bag empty (points lost), the pre-endgame "
        "with 1 to --end-bag tiles in it (win %% lost)",
    )
    p.add_argument(
        "--end-time", type=float, metavar="SECONDS", help="--end: most seconds per search (default 30)"
    )
    p.add_argument(
        "--end-bag",
        type=int,
        default=2,
        help="--end: the pre-endgame up to this many tiles in the bag (default 2)",
    )
    p.add_argument(
        "--sim-candidates",
        type=int,
        help=f"--sim: the best moves by equity simulated, the move made added (default {DEFAULT_CANDIDATES})",
    )
    p.add_argument(
        "--sim-plies", type=int, help=f"--sim: moves played after each candidate (default {DEFAULT_PLIES})"
    )
    p.add_argument(
        "--sim-iterations", type=int, help=f"--sim: most iterations a turn (default {DEFAULT_ITERATIONS})"
    )
    p.add_argument(
        "--sim-time",
        type=float,
        metavar="SECONDS",
        help="--sim: most seconds a turn (default none; a limit makes the figures depend on the machine)",
    )
    p.add_argument(
        "--sim-confidence",
        type=float,
        help=f"--sim: the stopping rule's confidence (default {DEFAULT_CONFIDENCE}; 0: never drop)",
    )
    p.add_argument(
        "--sim-seed", type=int, help="--sim: the seed; turn i is simulated with seed + i (default 0)"
    )
    p.set_defaults(run=cmd_review)
    _add_lookahead_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = main_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (*POSITION_ERRORS, RulesError) as exc:
        return _error(str(exc))
    except BrokenPipeError:  # the reader went away (`| head`): not an error
        # point stdout at /dev/null so the interpreter's final flush does not complain
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        return _error(f"{exc.filename}: {exc.strerror or exc}")


if __name__ == "__main__":
    sys.exit(main())
