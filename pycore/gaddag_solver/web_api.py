"""The Python side of the web page: what the Web Worker (web/worker.js) calls inside Pyodide.

Pure Python over the public API (the same code runs natively, where tests/test_web_api.py holds
it to :class:`~gaddag_solver.solver.Solver`). Every entry point takes and returns JSON-ready
dicts; bad input never raises but comes back as ``{"error": message, "field": name}`` with
``field`` one of ``board``, ``rack``, ``lexicon``, ``leaves``, ``rules``, ``cgp``, ``gcg``, ``words``
or ``request``
(and ``square``, e.g. ``"H8"``, when the message names one).

- :func:`load_lexicon` ``(name, data, rules)``: validate a lexicon's bytes once and keep it.
  ``data`` is bytes, or (inside Pyodide) the JS ``Uint8Array`` itself, copied once with
  ``.to_bytes()``; the C core then reads those bytes in place.
- :func:`load_leaves` ``(name, data, rules)``: validate a leave table's bytes (a ``.leaves``
  file) for a ruleset once and keep it, as load_lexicon does.
- :func:`solve` ``(request)``: the moves of a position, valued by a loaded leave table
  (``"leaves"``) and with the exchanges and the pass when asked (``"exchanges"``). The page
  asks for ``"format": "records"``: the core's gd_move records as they are (``record_size``
  bytes each, unsorted) — a two-blank rack has 60,000 plays and building a Python object per
  play would cost more than generating them, so web/moves.js reads, ranks, filters and formats
  the records in the page (only the rows shown are ever turned into text). ``"format":
  "moves"`` gives the best ``top`` moves as dicts instead (coord, word, score, tiles_used,
  leave, tiles, length…), ranked as the Solver ranks them. Either way the answer carries the
  position's unseen tiles.
- :func:`unseen_tiles`: the unseen tiles of a position being edited (no lexicon needed).
- :func:`check_board`: the runs of tiles on a board the lexicon does not hold (a warning).
- :func:`word_tools`: check words, anagrams, patterns, words containing letters, hooks.
- :func:`parse_cgp` / :func:`format_cgp`: import and export a position as a CGP line.
- :func:`review_gcg`: a GCG game replayed and reviewed (every turn's board, scores, rack, the
  move made, the best move by equity and the equity lost; the file's warnings with their lines).
- :func:`export_gcg`: a game played on the page (its plays, exchanges and passes) as GCG text.
- :func:`build_lexicon`, :func:`add_lexicon`, :func:`forget_lexicon`: the player's own
  lexicons, built in the page from a word list or loaded from a ``.gaddag`` file;
  :func:`rules_json`, :func:`check_rules`, :func:`set_rules`: the player's own rulesets.
- :func:`bench`: move generation alone, per position, on prepared boards (the benchmark the
  page runs in the browser).
- :func:`call`: the one door the worker uses: ``call(kind, json_text, data)`` →
  ``(json_text, records or None)``, so no Python object crosses into JavaScript.

``rules_data``, ``lexicon_info`` and ``leaves_info`` describe rulesets, lexicons and leave
tables for the page (scripts/build_site.py writes them to rules.json and lexicons.json).
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from .alphabet import AlphabetError
from .board import Board, PositionError, position_warnings
from .board_words import board_words
from .formats.cgp import Position
from .formats.cgp import format_cgp as _format_cgp
from .formats.cgp import parse_cgp as _parse_cgp
from .formats.gcg import (
    EXCHANGE,
    PASS,
    PLAY,
    GcgError,
    GcgEvent,
    GcgGame,
    GcgIssue,
    decode_gcg,
    nickname,
    parse_gcg,
)
from .formats.leaves import Leaves, LeavesError
from .game.endgame import EndgameError, EndgameSearch
from .game.play import Game, GameError
from .game.preendgame import PreendgameError, PreendgameSearch
from .game.replay import Replay, lexicon_for, read_play
from .game.review import review_replay
from .game.simulate import (
    DEFAULT_CANDIDATES,
    DEFAULT_CONFIDENCE,
    DEFAULT_ITERATIONS,
    DEFAULT_PLIES,
    Simulation,
    SimulationError,
)
from .game.verdict import judge, judge_tiles
from .lexicon import Lexicon, LexiconBuildError, LexiconFormatError, build_gaddag
from .move import MOVE_RECORD
from .rack import Rack, RackError
from .rules import Rules, RulesError, available_rules
from .solver import DIRECTIONS, ENGINES, LexiconMismatchError, Solver
from .unseen import unseen
from .word_tools import WordToolError, hooks, word_query
from .wordlist import FilterReport, WordListError, decode_entries

RECORD_SIZE = MOVE_RECORD.size
RECORD_LAYOUT = (
    "<ii6B2x32s: int32 score; int32 equity (1/100 point); uint8 row, col, direction (0 across), length, "
    "tiles_placed, kind (0 play, 1 exchange, 2 pass); word[32]"
)
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_SQUARE_IN_MESSAGE = re.compile(r"\b(?:square|at|tile \S+ at) ([A-Z]{1,2}[0-9]{1,2})\b")

_lexicons: dict[str, Lexicon] = {}
_solvers: dict[tuple[str, str], Solver] = {}
_rules: dict[str, Rules] = {}
_leaves: dict[str, Leaves] = {}


class ApiError(Exception):
    """Bad input: reported to the page as {"error": message, "field": field}."""

    def __init__(self, message: str, field: str = "request") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _error(message: str, field: str) -> dict[str, Any]:
    out: dict[str, Any] = {"error": message, "field": field}
    match = _SQUARE_IN_MESSAGE.search(message)
    if match and field in ("board", "cgp"):
        out["square"] = match.group(1)
    return out


# ---- descriptions for the page -------------------------------------------------------------------


def rules_data(name: str) -> dict[str, Any]:
    """What the page needs to draw and edit a board for a ruleset (one entry of rules.json)."""
    rules = get_rules(name)
    return {
        "name": rules.name,
        "title": rules.title,
        "language": rules.language,
        "rows": rules.rows,
        "cols": rules.cols,
        "layout": ["".join(row) for row in rules.premiums],
        "start": list(rules.start),
        "start_doubles": rules.start_doubles,
        "rack_size": rules.rack_size,
        "bingo_bonus": rules.bingo_bonus,
        "letters": list(rules.alphabet.letters),
        "values": list(rules.values),
        "counts": list(rules.counts),
        "blanks": rules.blanks,
        "blank_value": rules.blank_value,
        "fold": dict(rules.alphabet.fold),
        "default_lexicon": rules.default_lexicon,
        "exchange_minimum": rules.exchange_minimum,
        "vowels": list(rules.vowels),
    }


def all_rules_data() -> dict[str, Any]:
    """rules.json: every shipped ruleset, the default first."""
    names = available_rules()
    return {"default": names[0], "rules": [rules_data(name) for name in names]}


def compatible_rules(lexicon: Lexicon) -> list[str]:
    """The rulesets spelled with the lexicon's letters: the shipped ones (the default first),
    then the player's own registered with :func:`set_rules`."""
    shipped = available_rules()
    own = sorted(name for name in _rules if name not in shipped)
    return [name for name in shipped + own if get_rules(name).alphabet.letters == lexicon.alphabet.letters]


def lexicon_info(name: str, lexicon: Lexicon) -> dict[str, Any]:
    """One entry of lexicons.json: name, the rulesets it serves, words and file bytes."""
    return {
        "name": name,
        "source_name": lexicon.name,
        "rules": compatible_rules(lexicon),
        "words": lexicon.stats.words,
        "bytes": lexicon.stats.bytes,
        "max_word_length": lexicon.stats.max_word_length,
    }


def leaves_info(name: str, table: Leaves) -> dict[str, Any]:
    """One entry of lexicons.json's ``leaves``: name, the ruleset it values, entries, bytes."""
    return {
        "name": name,
        "rules": table.ruleset,
        "entries": len(table),
        "max_leave": table.max_leave,
        "bytes": len(table.to_bytes()),
    }


# ---- state ----------------------------------------------------------------------------------------


def get_rules(name: object) -> Rules:
    if not isinstance(name, str) or not name:
        raise ApiError(f"a ruleset name is needed, not {name!r}", "rules")
    rules = _rules.get(name)
    if rules is None:
        try:
            rules = Rules.load(name)
        except RulesError as exc:
            raise ApiError(str(exc), "rules") from None
        _rules[name] = rules
    return rules


def _loaded(store: dict[str, Any], name: object, field: str, what: str) -> Any:
    """``store[name]``, or an ApiError naming what is loaded."""
    if not isinstance(name, str) or not name:
        raise ApiError(f"a {what} name is needed, not {name!r}", field)
    found = store.get(name)
    if found is None:
        loaded = ", ".join(sorted(store)) or "none"
        raise ApiError(f"unknown {what} {name!r} (loaded: {loaded})", field)
    return found


def _lexicon(name: object) -> Lexicon:
    return _loaded(_lexicons, name, "lexicon", "lexicon")


def _solver(lexicon_name: object, rules_name: object, engine: str = "gaddag") -> Solver:
    rules = get_rules(rules_name)
    lexicon = _lexicon(lexicon_name)
    key = (str(lexicon_name), rules.name, engine)
    solver = _solvers.get(key)
    if solver is None:
        try:
            solver = Solver(lexicon, rules, engine)
        except LexiconMismatchError as exc:
            raise ApiError(str(exc), "lexicon") from None
        _solvers[key] = solver
    return solver


def _choice(request: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    """request[key], one of `choices` (the first when absent or null)."""
    value = request.get(key)
    if value is None:
        return choices[0]
    if value not in choices:
        raise ApiError(f"{key} must be one of {', '.join(choices)}, not {value!r}", key)
    return str(value)


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise ApiError(f"{name!r} is not a {what} name", what)
    return name


def _as_bytes(data: Any, what: str) -> bytes:
    """bytes as they are; a JS Uint8Array proxy (``to_bytes()``) copied once; other buffers once."""
    if data is None:
        raise ApiError(f"no {what} file was given", what)
    if not isinstance(data, bytes | bytearray | memoryview):
        data = data.to_bytes()
    return data if isinstance(data, bytes) else bytes(data)


def load_lexicon(name: str, data: Any, rules_name: str | None = None) -> dict[str, Any]:
    """Validate a lexicon's bytes and keep it under ``name`` (replacing one of that name).

    ``data``: bytes, or an object with ``to_bytes()`` (a Pyodide JsProxy of a Uint8Array: the
    one copy from JavaScript memory into Python). ``rules_name``: the ruleset it is used with;
    a lexicon spelled with other letters is refused.
    """
    try:
        _check_name(name, "lexicon")
        started = time.perf_counter()
        data = _as_bytes(data, "lexicon")
        copied = time.perf_counter()
        rules = get_rules(rules_name) if rules_name else None
        try:
            lexicon = Lexicon.load(data, rules=rules)
        except LexiconFormatError as exc:
            raise ApiError(f"lexicon {name!r} is not a valid .gaddag file: {exc}", "lexicon") from None
        except AlphabetError as exc:
            raise ApiError(
                f"lexicon {name!r} does not fit the {rules_name} rules: {exc}", "lexicon"
            ) from None
        loaded = time.perf_counter()
        _lexicons[name] = lexicon
        for key in [key for key in _solvers if key[0] == name]:
            del _solvers[key]
        if rules_name:
            _solver(name, rules_name)  # ready to solve: the first solve pays no set-up
        finished = time.perf_counter()
        info = lexicon_info(name, lexicon)
        info["ms"] = {
            "copy": (copied - started) * 1e3,
            "load": (loaded - copied) * 1e3,
            "solver": (finished - loaded) * 1e3,
        }
        return info
    except ApiError as exc:
        return _error(exc.message, exc.field)


def loaded_lexicons() -> list[str]:
    return sorted(_lexicons)


def load_leaves(name: str, data: Any, rules_name: str | None = None) -> dict[str, Any]:
    """Validate a leave table's bytes (a ``.leaves`` file) and keep it under ``name`` (replacing
    one of that name). ``data`` as for :func:`load_lexicon`. ``rules_name``: the ruleset it
    values moves for; a table made for another ruleset (or tile set) is refused, as is a
    damaged one, with ``field`` ``"leaves"``. Without ``rules_name`` the shipped ruleset the
    file names is used."""
    try:
        _check_name(name, "leaves")
        started = time.perf_counter()
        data = _as_bytes(data, "leaves")
        rules = get_rules(rules_name) if rules_name else None
        try:
            table = Leaves.from_bytes(data, rules, source=f"leave table {name!r}")
        except LeavesError as exc:
            raise ApiError(str(exc), "leaves") from None
        _leaves[name] = table
        info = leaves_info(name, table)
        info["ms"] = {"load": (time.perf_counter() - started) * 1e3}
        return info
    except ApiError as exc:
        return _error(exc.message, exc.field)


def loaded_leaves() -> list[str]:
    return sorted(_leaves)


def _leave_table(name: object, rules: Rules) -> Leaves | None:
    """The loaded table ``name`` (None: no table), which must value moves for ``rules``."""
    if name is None:
        return None
    table: Leaves = _loaded(_leaves, name, "leaves", "leave table")
    if table.ruleset != rules.name:
        raise ApiError(f"leave table {name!r} is for the {table.ruleset} rules, not {rules.name}", "leaves")
    return table


# ---- positions ------------------------------------------------------------------------------------


def _board(rows: object, rules: Rules) -> Board:
    """A Board from the page's rows (``.`` empty, letters, lower case for blanks, ``[CH]``). The
    tiles need not be connected (a position being typed in; floating tiles are solved with a
    warning)."""
    if isinstance(rows, str):
        rows = [line for line in re.split(r"[\n/]", rows) if line.strip()]
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ApiError("the board must be a list of row strings", "board")
    try:
        return Board.from_rows(rows, rules)
    except ValueError as exc:  # PositionError, or a bracket error (board.letter_tokens)
        raise ApiError(str(exc), "board") from None


def _rack(text: object, rules: Rules) -> Rack:
    if not isinstance(text, str):
        raise ApiError("the rack must be text", "rack")
    if not text.strip():
        raise ApiError("the rack is empty: type your tiles (? for a blank)", "rack")
    try:
        return Rack(text, rules)
    except RackError as exc:
        raise ApiError(str(exc), "rack") from None


def _flag(request: dict[str, Any], key: str) -> bool:
    value = request.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(f"{key} must be true or false, not {value!r}", "request")
    return value


def _whole(request: dict[str, Any], key: str) -> int | None:
    value = request.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ApiError(f"{key} must be a whole number, not {value!r}", "request")
    return value


def solve(request: dict[str, Any]) -> dict[str, Any]:
    """The moves of a position.

    request: ``lexicon`` (a loaded lexicon's name), ``rules`` (ruleset name), ``board`` (rows as
    text), ``rack`` (text, ``?`` for a blank), ``format`` (``"moves"``, the default, or
    ``"records"``), ``top`` (moves format only: the best ``top``; default all); ``leaves`` (a
    loaded leave table's name, or null: moves are then valued by equity and ranked by it),
    ``exchanges`` (true: also every distinct exchange, while the bag holds at least the
    ruleset's ``exchange_minimum``, and the pass), ``bag`` (tiles in the bag, when the unseen
    tiles do not tell: :meth:`Solver.valuation`), ``engine`` (``"gaddag"``, the default, or
    ``"dawg"``: Appel & Jacobson's generator, plays by score only), ``direction`` (``"both"``,
    the default, ``"across"`` or ``"down"``).

    Returns ``count`` (every move), ``ms`` (``parse``, ``generate``, ``total``), ``rack`` (the
    rack's tiles), ``warnings`` (an unusual position: floating tiles, which are solved all the
    same, or more Z tiles than the bag holds),
    ``unseen`` (:meth:`Unseen.to_dict` of the position), ``valued`` (the moves carry equity:
    a table or exchanges were asked for), ``by_equity`` (ranked by equity: a table was),
    ``leaves`` (the table's name or null), ``exchanges``, ``bag`` (the bag the moves were
    valued with) and ``exchange_minimum``; and either ``moves`` (dicts, best first) or
    ``records`` (bytes: ``count`` gd_move records of ``record_size`` bytes, unsorted).
    """
    try:
        started = time.perf_counter()
        if not isinstance(request, dict):
            raise ApiError("the request must be an object", "request")
        kind = request.get("format", "moves")
        if kind not in ("moves", "records"):
            raise ApiError(f"format must be 'moves' or 'records', not {kind!r}", "request")
        engine = _choice(request, "engine", ENGINES)
        direction = _choice(request, "direction", DIRECTIONS)
        solver = _solver(request.get("lexicon"), request.get("rules"), engine)
        rules = solver.rules
        table = _leave_table(request.get("leaves"), rules)
        if engine == "dawg" and (table is not None or exchanges_asked(request)):
            raise ApiError(
                "the dawg engine values plays by score only: choose no leave table, no exchanges", "engine"
            )
        exchanges = _flag(request, "exchanges")
        bag = _whole(request, "bag")
        board = _board(request.get("board"), rules)
        rack = _rack(request.get("rack"), rules)
        tiles_unseen = unseen(board, rack, rules)
        valuation = solver.valuation(board, rack, leaves=table, exchanges=exchanges, bag=bag)
        parsed = time.perf_counter()
        out: dict[str, Any] = {
            "rack": list(rack.tiles),
            "warnings": position_warnings(board, rack, rules),
            "unseen": tiles_unseen.to_dict(),
            "valued": valuation is not None,
            "by_equity": valuation is not None and valuation.by_equity,
            "leaves": None if table is None else request["leaves"],
            "exchanges": exchanges,
            "bag": tiles_unseen.bag if bag is None else bag,
            "exchange_minimum": rules.exchange_minimum,
        }
        if kind == "records":
            count, records = solver.solve_raw(board, rack, None, valuation, direction)
            generated = time.perf_counter()
            out.update(count=count, records=records, record_size=RECORD_SIZE)
        else:
            top = _whole(request, "top")
            count, moves = solver.solve_counted(
                board, rack, top, warn=False, leaves=table, exchanges=exchanges, bag=bag, direction=direction
            )
            generated = time.perf_counter()
            out.update(count=count, moves=[move_dict(move) for move in moves])
        finished = time.perf_counter()
        out["ms"] = {
            "parse": (parsed - started) * 1e3,
            "generate": (generated - parsed) * 1e3,
            "total": (finished - started) * 1e3,
        }
        return out
    except ApiError as exc:
        return _error(exc.message, exc.field)


def exchanges_asked(request: dict[str, Any]) -> bool:
    return request.get("exchanges") is True


def judge_play(request: dict[str, Any]) -> dict[str, Any]:
    """Whether a play is legal on a position, why not, and its score per word and per tile.

    request: ``lexicon``, ``rules``, ``board`` (rows, as for :func:`solve`: the board before the
    play), ``rack`` (text; empty: the tiles are not checked), and either ``play`` (a square and a
    word, ``"8D QUIXOTE"``) or ``tiles`` (``[[row, col, letter, blank], ...]``, rows and columns
    from 0). Returns :meth:`Verdict.to_dict`."""
    try:
        rules = get_rules(request.get("rules"))
        lexicon = _lexicon(request.get("lexicon"))
        board = _board(request.get("board"), rules)
        rack_text = request.get("rack") or ""
        rack = _rack(rack_text, rules) if isinstance(rack_text, str) and rack_text.strip() else None
        if "play" in request:
            if not isinstance(request["play"], str):
                raise ApiError("play must be text: a square and a word, e.g. 8D QUIXOTE", "play")
            return judge(board, request["play"], lexicon, rack).to_dict()
        tiles = request.get("tiles")
        if not isinstance(tiles, list) or not all(
            isinstance(t, list) and len(t) == 4 and type(t[0]) is int and type(t[1]) is int
            and isinstance(t[2], str) and isinstance(t[3], bool) for t in tiles
        ):  # fmt: skip
            raise ApiError("tiles must be a list of [row, col, letter, blank]", "tiles")
        try:
            placed = [
                (r, c, rules.alphabet.letters[rules.alphabet.code(letter) - 1], blank)
                for r, c, letter, blank in tiles
            ]
        except AlphabetError as exc:
            raise ApiError(str(exc), "tiles") from None
        return judge_tiles(board, placed, lexicon, rack).to_dict()
    except ApiError as exc:
        return _error(exc.message, exc.field)


def _position_being_edited(request: dict[str, Any]) -> tuple[Rules, Board, Rack]:
    """The ruleset, board and rack of a request about a position still being typed in: letters
    must be known, but the board need not be connected and the rack may be empty."""
    rules = get_rules(request.get("rules"))
    board = _board(request.get("board"), rules)
    rack_text = request.get("rack") or ""
    if not isinstance(rack_text, str):
        raise ApiError("the rack must be text", "rack")
    try:
        return rules, board, Rack(rack_text, rules)
    except RackError as exc:
        raise ApiError(str(exc), "rack") from None


def unseen_tiles(request: dict[str, Any]) -> dict[str, Any]:
    """``{"rules", "board", "rack"}`` → :meth:`Unseen.to_dict` of the position, for the page's
    panel while the position is edited: the board need not be a legal position yet (a floating
    tile counts), the rack may be empty; ``exchange_minimum`` is added."""
    try:
        rules, board, rack = _position_being_edited(request)
        out = unseen(board, rack, rules).to_dict()
        out["exchange_minimum"] = rules.exchange_minimum
        return out
    except ApiError as exc:
        return _error(exc.message, exc.field)


def move_dict(move: Any) -> dict[str, Any]:
    """A Move as the page shows it: to_dict() plus the tiles placed and the word's length."""
    out = move.to_dict()
    out["tiles"] = [[row, col, letter, blank] for row, col, letter, blank in move.tiles]
    out["length"] = move.length
    return out


# ---- CGP ------------------------------------------------------------------------------------------


def parse_cgp(request: dict[str, Any]) -> dict[str, Any]:
    """``{"cgp": line, "rules": name}`` → ``{"board": rows, "rack": text, "lexicon": the lex
    opcode or None, "scores": [a, b]}``."""
    try:
        rules = get_rules(request.get("rules"))
        line = request.get("cgp")
        if not isinstance(line, str) or not line.strip():
            raise ApiError("paste a CGP line first", "cgp")
        try:
            position = _parse_cgp(line, rules)
        except PositionError as exc:
            raise ApiError(str(exc), "cgp") from None
        return {
            "board": position.board.to_rows(),
            "rack": str(position.rack),
            "lexicon": position.lexicon,
            "scores": list(position.scores),
        }
    except ApiError as exc:
        return _error(exc.message, exc.field)


def format_cgp(request: dict[str, Any]) -> dict[str, Any]:
    """``{"board": rows, "rack": text, "rules": name, "lexicon": name}`` → ``{"cgp": line}``.
    The board need not be a legal position yet (floating tiles are exported as they are)."""
    try:
        rules, board, rack = _position_being_edited(request)
        lexicon = request.get("lexicon")
        opcodes = {"lex": lexicon} if isinstance(lexicon, str) and lexicon else {}
        return {"cgp": _format_cgp(Position(board, rack, None, (0, 0), 0, opcodes))}
    except ApiError as exc:
        return _error(exc.message, exc.field)


# ---- GCG: a recorded game reviewed, a game played on the page exported -----------------------------


def _gcg_text(request: dict[str, Any], data: Any) -> tuple[str, list[GcgIssue]]:
    """The GCG text of a request: a file's bytes (``data``, decoded as the file says) or ``gcg``."""
    if data is not None:
        try:
            return decode_gcg(_as_bytes(data, "gcg"), request.get("name") or "<gcg>")
        except GcgError as exc:
            raise ApiError(str(exc), "gcg") from None
    text = request.get("gcg")
    if not isinstance(text, str) or not text.strip():
        raise ApiError("open a .gcg file or paste its text first", "gcg")
    return text, []


def _issue(issue: GcgIssue) -> dict[str, Any]:
    return {"line": issue.line, "message": issue.message, "text": str(issue)}


def _placed(move: Any) -> list[list[Any]]:
    return [[r, c, letter, blank] for r, c, letter, blank in move.tiles] if move is not None else []


def _best_tiles(board: Board, best: str) -> list[list[Any]]:
    """The tiles of a best move as the review writes it (``8D WORD``; none for the others)."""
    coord, _, word = best.partition(" ")
    if not word or coord == "exchange":
        return []
    move, _problems = read_play(board, coord, word)
    return _placed(move)


def review_gcg(request: dict[str, Any], data: Any = None) -> dict[str, Any]:
    """A GCG game replayed with a loaded lexicon and reviewed with a loaded leave table.

    request: ``gcg`` (the text, unless the file's bytes come as ``data``), ``lexicon``,
    ``rules``, ``leaves`` (a table's name, or null: every leave worth 0), ``name`` (the file's
    name, for messages). Returns ``players`` ([{nick, name, score}]), ``title``, ``lexicon`` and
    ``leaves`` used, ``declared_lexicon`` (the file's ``#lexicon``) with ``suggested_lexicon``
    (ours for it), ``turns`` (one per event: ``index``, ``line``, ``player``, ``nick``, ``kind``,
    ``rack``, ``what`` (the move as written), ``score``, ``total``, ``board`` (rows before it),
    ``scores`` (before) and ``scores_after``, ``tiles`` (placed), ``problems``, ``review`` (the
    TurnReview's dict with ``best_tiles``, or null) and ``skipped`` (why not reviewed, or null)),
    ``final`` ({board, scores}), ``warnings`` ([{line, message, text}]), ``summary`` (per player)
    and ``gcg`` (the game written back as GCG text). A file that is not GCG at all is an error
    with ``field`` ``"gcg"``; anything else wrong is a warning with its line.
    """
    try:
        rules = get_rules(request.get("rules"))
        lexicon = _lexicon(request.get("lexicon"))
        table = _leave_table(request.get("leaves"), rules)
        name = request.get("name") if isinstance(request.get("name"), str) else "<gcg>"
        text, issues = _gcg_text(request, data)
        try:
            gcg = parse_gcg(text, name or "<gcg>")
        except GcgError as exc:
            raise ApiError(str(exc), "gcg") from None
        gcg.warnings[:0] = issues
        suggested, note = lexicon_for(gcg.lexicon, None)
        replay = Replay(gcg, lexicon, rules)
        review = review_replay(replay, table, str(request.get("leaves") or "none"))
        by_turn = {turn.turn: turn for turn in review.turns}
        skipped = {line: why for line, _nick, why in review.skipped}
        turns = []
        for turn in replay.turns:
            reviewed = by_turn.get(turn.index)
            entry = None
            if reviewed is not None:
                entry = reviewed.to_dict()
                entry["best_tiles"] = _best_tiles(turn.board, reviewed.best)
            turns.append(
                {
                    "index": turn.index,
                    "line": turn.line,
                    "player": turn.player,
                    "nick": turn.nick,
                    "kind": turn.kind,
                    "rack": turn.event.rack,
                    "what": turn.event.what(),
                    "score": turn.event.score,
                    "total": turn.event.total,
                    "board": turn.board.to_rows(),
                    "scores": list(turn.scores),
                    "scores_after": list(turn.scores_after),
                    "tiles": _placed(turn.move) if turn.kind == PLAY else [],
                    "problems": list(turn.problems),
                    "note": turn.event.note,
                    "review": entry,
                    "skipped": skipped.get(turn.line) if entry is None else None,
                }
            )
        return {
            "players": [
                {"nick": nick, "name": full, "score": replay.scores[seat]}
                for seat, (nick, full) in enumerate(replay.players)
            ],
            "title": gcg.title,
            "lexicon": request.get("lexicon"),
            "leaves": request.get("leaves"),
            "declared_lexicon": gcg.lexicon,
            "suggested_lexicon": suggested if gcg.lexicon else None,
            "lexicon_note": note,
            "turns": turns,
            "final": {"board": replay.board.to_rows(), "scores": list(replay.scores)},
            "warnings": [_issue(issue) for issue in replay.warnings],
            "summary": [player.to_dict() for player in review.players],
            "gcg": replay.to_gcg(),
        }
    except ApiError as exc:
        return _error(exc.message, exc.field)


def _text_field(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key) or ""
    if not isinstance(value, str):
        raise ApiError(f"{where}: {key} must be text, not {value!r}", "request")
    return value.strip()


def export_gcg(request: dict[str, Any]) -> dict[str, Any]:
    """A game played on the page as GCG text, replayed to check it.

    request: ``rules``, ``players`` (two names; default Player1, Player2, the first moving
    first), ``lexicon`` (a loaded lexicon's name to check the words with and name in
    ``#lexicon``; optional), ``title``, ``events``: the turns in order, alternating players,
    each ``{"kind": "play" | "exchange" | "pass", "rack", "coord", "word", "score",
    "exchanged"}`` (``word`` as GCG writes it: ``.`` for a tile already on the board, lower
    case for a blank). Returns ``gcg`` (the text) and ``warnings`` (what the replay of that text
    finds, with line numbers: a hand edit of the board between plays shows up there).
    """
    try:
        rules = get_rules(request.get("rules"))
        events = request.get("events")
        if not isinstance(events, list) or not events:
            raise ApiError("no move has been played on this page yet: Play moves from the list first", "gcg")
        names = request.get("players") or ["Player1", "Player2"]
        if not isinstance(names, list) or len(names) != 2 or not all(isinstance(n, str) for n in names):
            raise ApiError("players must be two names", "request")
        nicks = [nickname(name) if name.strip() else f"Player{seat + 1}" for seat, name in enumerate(names)]
        if nicks[0] == nicks[1]:
            nicks[1] += "_2"
        game = GcgGame(
            players=[(nick, name.strip() or nick) for nick, name in zip(nicks, names, strict=True)]
        )
        lexicon_name = request.get("lexicon")
        lexicon = _lexicon(lexicon_name) if lexicon_name else None
        if lexicon is not None:
            game.lexicon = str(lexicon_name)
        title = request.get("title")
        game.title = title.strip() if isinstance(title, str) else ""
        totals = [0, 0]
        for number, entry in enumerate(events, 1):
            where = f"move {number}"
            if not isinstance(entry, dict):
                raise ApiError(f"{where} must be an object", "request")
            seat = (number - 1) % 2
            kind = entry.get("kind")
            rack_text = _text_field(entry, "rack", where)
            try:
                rack = str(Rack(rack_text, rules)) if rack_text else ""
            except RackError as exc:
                raise ApiError(f"{where}: {exc}", "rack") from None
            if kind == PLAY:
                score = entry.get("score")
                if isinstance(score, bool) or not isinstance(score, int):
                    raise ApiError(f"{where}: the score must be a whole number, not {score!r}", "request")
                coord, word = _text_field(entry, "coord", where), _text_field(entry, "word", where)
                if not coord or not word:
                    raise ApiError(f"{where}: a play needs a square and a word", "request")
                totals[seat] += score
                event = GcgEvent(0, nicks[seat], PLAY, rack, score, totals[seat], coord, word)
            elif kind == EXCHANGE:
                tiles = _text_field(entry, "exchanged", where)
                try:
                    tiles = str(Rack(tiles, rules))
                except RackError as exc:
                    raise ApiError(f"{where}: {exc}", "rack") from None
                event = GcgEvent(
                    0,
                    nicks[seat],
                    EXCHANGE,
                    rack,
                    0,
                    totals[seat],
                    exchanged=tiles,
                    exchange_count=len(tiles),
                )
            elif kind == PASS:
                event = GcgEvent(0, nicks[seat], PASS, rack, 0, totals[seat])
            else:
                raise ApiError(f"{where}: kind must be play, exchange or pass, not {kind!r}", "request")
            game.events.append(event)
        text = game.to_text()
        replay = Replay(parse_gcg(text), lexicon, rules)
        return {"gcg": text, "warnings": [_issue(issue) for issue in replay.warnings]}
    except ApiError as exc:
        return _error(exc.message, exc.field)


# ---- benchmark -----------------------------------------------------------------------------------


def parse_positions(text: str, rules: Rules) -> list[tuple[Board, Rack]]:
    """Blocks of ``rules.rows`` board lines and one rack line, separated by blank lines
    (tests/data/sowpods/positions.txt)."""
    positions = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if len(lines) != rules.rows + 1:
            raise ApiError(f"a position needs {rules.rows} board lines and a rack line", "request")
        positions.append((Board.from_rows(lines[:-1], rules), Rack(lines[-1], rules)))
    return positions


def bench(request: dict[str, Any]) -> dict[str, Any]:
    """Move generation alone: for each position, the board is prepared once (cross-sets), then
    ``Solver.solve_raw`` is timed over repeated calls (at least ``min_ms`` per position, default
    20 ms) and the mean per call is the position's figure.

    request: ``lexicon``, ``rules``, ``positions`` (text, see :func:`parse_positions`),
    ``min_ms``. Returns ``us`` (per position), ``median_us``, ``mean_us``, ``moves`` (plays per
    position) and ``calls``.
    """
    try:
        solver = _solver(request.get("lexicon"), request.get("rules"))
        text = request.get("positions")
        if not isinstance(text, str):
            raise ApiError("positions must be text", "request")
        try:
            positions = parse_positions(text, solver.rules)
        except PositionError as exc:
            raise ApiError(str(exc), "request") from None
        min_ms = request.get("min_ms", 20)
        if isinstance(min_ms, bool) or not isinstance(min_ms, int | float) or not 0 <= min_ms <= 60_000:
            raise ApiError(f"min_ms must be a number of milliseconds (0 to 60000), not {min_ms!r}", "request")
        min_s = min_ms / 1e3
        clock = time.perf_counter
        per_position: list[float] = []
        moves: list[int] = []
        calls: list[int] = []
        for board, rack in positions:
            count, _ = solver.solve_raw(board, rack)  # prepares the board
            moves.append(count)
            n = 0
            started = clock()
            elapsed = 0.0
            while elapsed < min_s or n < 3:
                solver.solve_raw(board, rack)
                n += 1
                elapsed = clock() - started
            per_position.append(elapsed / n * 1e6)
            calls.append(n)
        return {
            "positions": len(positions),
            "us": per_position,
            "median_us": statistics.median(per_position) if per_position else 0.0,
            "mean_us": statistics.fmean(per_position) if per_position else 0.0,
            "moves": moves,
            "calls": calls,
        }
    except ApiError as exc:
        return _error(exc.message, exc.field)


def check_board(request: dict[str, Any]) -> dict[str, Any]:
    """``{"lexicon", "rules", "board"}`` → the runs of tiles on the board (``words``: how many)
    and those the lexicon does not hold (``unknown``: BoardWord.to_dict() each), for the page's
    warning while a position is edited (the board need not be connected)."""
    try:
        rules = get_rules(request.get("rules"))
        board = _board(request.get("board"), rules)
        lexicon = _lexicon(request.get("lexicon"))
        words = board_words(board)
        unknown = [word for word in words if word.spelled not in lexicon]
        return {"words": len(words), "unknown": [word.to_dict() for word in unknown]}
    except ApiError as exc:
        return _error(exc.message, exc.field)


# ---- the player's own lexicons and rules ---------------------------------------------------------

Progress = Callable[[str], None]


def _report_progress(progress: Progress | None, phase: str, **facts: Any) -> None:
    if progress is not None:
        progress(json.dumps({"phase": phase, **facts}))


def build_lexicon(request: dict[str, Any], data: Any, progress: Progress | None = None) -> dict[str, Any]:
    """Build a lexicon from a word list's bytes (plain text one word per line, gzipped or not, or
    a JSON array of strings: the formats build_lexicon.py reads), load it under ``name`` and
    give the ``.gaddag`` bytes back as ``records`` for the page to store.

    request: ``name``, ``rules`` (the ruleset whose alphabet spells the words and whose board
    bounds their length), ``file`` (the file's name, for messages). ``progress`` hears JSON
    ``{"phase": "read" | "filtered" | "built" | "loaded", ...}`` as each step ends. Returns
    :func:`lexicon_info` with the build's statistics (``entries``, ``kept``, ``bad_letters``,
    ``too_long`` with examples, ``states``, ``arcs``, ``arcs_unshared``, ``summary``: the
    CLI's lines) and ``ms`` per step. A file that is not a word list, or holds no word of the
    alphabet, is an error with ``field`` ``"words"``; nothing is kept then.
    """
    try:
        name = _check_name(request.get("name"), "lexicon")
        rules = get_rules(request.get("rules"))
        file = request.get("file") if isinstance(request.get("file"), str) else "<words>"
        started = time.perf_counter()
        raw = _as_bytes(data, "words")
        try:
            entries, unit = decode_entries(raw, file)
        except WordListError as exc:
            raise ApiError(str(exc), "words") from None
        del raw
        read = time.perf_counter()
        _report_progress(progress, "read", entries=len(entries), ms=(read - started) * 1e3)

        def filtered(report: FilterReport) -> None:
            _report_progress(
                progress,
                "filtered",
                kept=report.kept,
                bad_letters=report.bad_letters,
                too_long=report.too_long,
                ms=(time.perf_counter() - started) * 1e3,
            )

        try:
            gaddag, report = build_gaddag(
                entries,
                rules.alphabet,
                name=name,
                max_length=rules.longest_line,
                source=file,
                unit=unit,
                on_filtered=filtered,
            )
        except LexiconBuildError as exc:
            raise ApiError(str(exc), "words") from None
        del entries
        built = time.perf_counter()
        _report_progress(progress, "built", bytes=len(gaddag), ms=(built - started) * 1e3)
        info = load_lexicon(name, gaddag, rules.name)
        if "error" in info:  # the core refused its own output: a bug, said as one
            raise ApiError(f"the lexicon built could not be loaded: {info['error']}", "internal")
        finished = time.perf_counter()
        _report_progress(progress, "loaded", ms=(finished - started) * 1e3)
        skipped = report.filter
        info.update(
            file=file,
            letters=list(rules.alphabet.letters),
            built_for=rules.name,
            entries=skipped.entries,
            kept=skipped.kept,
            bad_letters=skipped.bad_letters,
            bad_examples=[[n, word, why] for n, word, why in skipped.bad_examples],
            too_long=skipped.too_long,
            too_long_examples=[[n, word] for n, word in skipped.too_long_examples],
            unit=skipped.unit,
            states=report.states,
            arcs=report.arcs,
            arcs_unshared=report.arcs_unshared,
            summary=report.summary_lines(),
            records=gaddag,
        )
        info["ms"] = {
            "read": (read - started) * 1e3,
            "build": (built - read) * 1e3,
            "build_c": report.build_seconds * 1e3,
            "load": (finished - built) * 1e3,
            "total": (finished - started) * 1e3,
        }
        return info
    except ApiError as exc:
        return _error(exc.message, exc.field)


def word_tools(request: dict[str, Any]) -> dict[str, Any]:
    """``{"lexicon", "tool", "query"[, "limit"][, "hooks"]}`` → word_tools.word_query's answer
    (``count``, the first ``limit`` ``words`` (default 500), ``valid`` for a check); with
    ``hooks`` (a word) instead: that word's ``in_lexicon``, ``front`` and ``back`` hooks."""
    try:
        lexicon = _lexicon(request.get("lexicon"))
        if request.get("hooks") is not None:
            word = str(request["hooks"])
            try:
                found = hooks(lexicon, word)
                spelled = lexicon.alphabet.normalize(word)
            except AlphabetError as exc:
                raise ApiError(str(exc), "query") from None
            return {"word": spelled, "in_lexicon": spelled in lexicon, **found}
        limit = _whole(request, "limit")
        answer = word_query(lexicon, str(request.get("tool")), str(request.get("query") or ""))
        return answer.to_dict(500 if limit is None else limit)
    except WordToolError as exc:
        return _error(str(exc), "query")
    except ApiError as exc:
        return _error(exc.message, exc.field)


def add_lexicon(request: dict[str, Any], data: Any) -> dict[str, Any]:
    """A ``.gaddag`` file built elsewhere: validated in full as :func:`load_lexicon` does (and
    against ``rules``' alphabet), kept under ``name``; ``letters`` says which alphabet it
    spells, for the page to list it under every ruleset of those letters."""
    info = load_lexicon(request.get("name"), data, request.get("rules"))
    if "error" not in info:
        info["letters"] = list(_lexicons[info["name"]].alphabet.letters)
        info["built_for"] = request.get("rules")
    return info


def forget_lexicon(request: dict[str, Any]) -> dict[str, Any]:
    """Drop a loaded lexicon and its solvers (the page removed it): its memory can be reused."""
    name = request.get("name")
    known = _lexicons.pop(name, None) if isinstance(name, str) else None
    for key in [key for key in _solvers if key[0] == name]:
        del _solvers[key]
    return {"name": name, "removed": known is not None}


def rules_json(request: dict[str, Any]) -> dict[str, Any]:
    """A ruleset (shipped or the player's own) in the JSON schema of rules/*.json: where the
    rules editor starts."""
    try:
        return {"rules": get_rules(request.get("name")).to_dict()}
    except ApiError as exc:
        return _error(exc.message, exc.field)


def _own_rules(data: object) -> Rules:
    """Rules.from_dict for a ruleset made in the page; raises RulesError (with its ``field``)."""
    rules = Rules.from_dict(data, source="rules")  # type: ignore[arg-type]
    if rules.name in available_rules():
        raise RulesError(f"rules: name: {rules.name!r} is a shipped ruleset; give yours another name", "name")
    return rules


def check_rules(request: dict[str, Any]) -> dict[str, Any]:
    """Validate a ruleset exactly as Rules.load does: ``rules`` (the editor's JSON object; a
    shipped ruleset's name is refused, the editor saves under its own) or ``text`` (a file's
    text being imported; any name). Answers ``valid``; when false, ``field`` (the JSON field at
    fault, e.g. ``layout[4]``, or null) and ``message``; when true, ``rules`` (``to_dict()``)
    and ``text`` (``to_json()``: the file to export)."""
    try:
        text = request.get("text")
        if isinstance(text, str):
            rules = Rules.from_json(text, source=str(request.get("file") or "rules"))
        else:
            rules = _own_rules(request.get("rules"))
    except RulesError as exc:
        return {"valid": False, "field": exc.field, "message": str(exc)}
    return {"valid": True, "field": None, "message": "", "rules": rules.to_dict(), "text": rules.to_json()}


def set_rules(request: dict[str, Any]) -> dict[str, Any]:
    """Register the player's own ruleset (``rules``: the JSON object), replacing one of the same
    name; answers :func:`rules_data` (what the page draws the board from) with ``json`` (the
    ruleset as exported). An invalid one is an error with ``field`` ``"rules"``."""
    try:
        try:
            rules = _own_rules(request.get("rules"))
        except RulesError as exc:
            raise ApiError(str(exc), "rules") from None
        _rules[rules.name] = rules
        for key in [key for key in _solvers if key[1] == rules.name]:
            del _solvers[key]
        out = rules_data(rules.name)
        out["json"] = rules.to_dict()
        out["own"] = True
        return out
    except ApiError as exc:
        return _error(exc.message, exc.field)


# ---- the worker's door -----------------------------------------------------------------------------


# ---- look-ahead: simulation and endgame, a step at a time -----------------------------------------
#
# The page drives both: a "start" request makes the search and keeps it under a session number, each
# "step" runs it for about ``ms`` milliseconds and answers with the standing, and "stop" drops it. A
# step returns within its time, so the worker answers other requests between steps and the page
# stops a search by sending no more steps.

_sessions: dict[int, Any] = {}
_next_session = [1]
MAX_SESSIONS = 4
DEFAULT_STEP_MS = 150


def _look_ahead_game(request: dict[str, Any]) -> tuple[Game, Rules, Leaves | None]:
    solver = _solver(request.get("lexicon"), request.get("rules"))
    rules = solver.rules
    table = _leave_table(request.get("leaves"), rules)
    board = _board(request.get("board"), rules)
    rack = _rack(request.get("rack"), rules)
    opponent = request.get("opponent_rack")
    try:
        return Game.from_board(board, rack, solver.lexicon, opponent or None), rules, table
    except (GameError, RackError) as exc:
        raise ApiError(str(exc), "board") from None


def _session(request: dict[str, Any]) -> Any:
    number = request.get("session")
    if number not in _sessions:
        raise ApiError(f"no search in progress with session {number!r} (start one first)", "request")
    return _sessions[number]


def _keep(search: Any) -> int:
    while len(_sessions) >= MAX_SESSIONS:  # the oldest searches make room
        del _sessions[min(_sessions)]
    number = _next_session[0]
    _next_session[0] += 1
    _sessions[number] = search
    return number


def _step_seconds(request: dict[str, Any]) -> float:
    ms = request.get("ms", DEFAULT_STEP_MS)
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not 1 <= ms <= 10_000:
        raise ApiError(f"ms must be a number of milliseconds from 1 to 10000, not {ms!r}", "request")
    return ms / 1000


def _last(items: Iterable[Any]) -> Any:
    """The last of ``items`` (running them all), or None."""
    found = None
    for found in items:  # noqa: B007 - the last one is wanted
        pass
    return found


def _standing(result: Any) -> dict[str, Any]:
    return {
        "iterations": result.iterations,
        "decided": result.decided,
        "reason": result.reason,
        "elapsed": result.elapsed,
        "candidates": [
            {**c.to_dict(), "placed": _placed(c.move), "kind": c.move.kind} for c in result.candidates
        ],
    }


def _stepped(
    request: dict[str, Any],
    start: Callable[[dict[str, Any]], dict[str, Any]],
    step: Callable[[Any, float], dict[str, Any]],
) -> dict[str, Any]:
    """Dispatch a look-ahead request by its ``action``: start, step (``session``, ``ms``) or stop."""
    try:
        action = request.get("action")
        if action == "start":
            return start(request)
        if action == "step":
            return {"session": request["session"], **step(_session(request), _step_seconds(request))}
        if action == "stop":
            _sessions.pop(request.get("session"), None)
            return {"stopped": True}
        raise ApiError(f"action must be start, step or stop, not {action!r}", "request")
    except ApiError as exc:
        return _error(exc.message, exc.field)


def simulate(request: dict[str, Any]) -> dict[str, Any]:
    """``action`` "start" (the position as for :func:`solve`, ``leaves``, ``candidates`` (15),
    ``plies`` (2), ``confidence`` (0.99), ``seed``), "step" (``session``, ``ms``, ``iterations``:
    the most in all) or "stop" (``session``). Start and step answer the standing: the candidates
    best first with value, standard error, iterations, win rate, the opponent's bingo rate,
    whether dropped, and ``done`` once the stopping rule decided or the iterations ran out."""

    def start(request: dict[str, Any]) -> dict[str, Any]:
        game, _rules, table = _look_ahead_game(request)
        plies = request.get("plies")
        try:
            simulation = Simulation(
                game, leaves=table, candidates=_whole(request, "candidates") or DEFAULT_CANDIDATES,
                plies=DEFAULT_PLIES if plies is None else _whole(request, "plies"),
                confidence=float(request.get("confidence", DEFAULT_CONFIDENCE)),
                seed=_whole(request, "seed") or 0,
            )  # fmt: skip
        except (SimulationError, TypeError, ValueError) as exc:
            raise ApiError(str(exc), "request") from None
        return {"session": _keep(simulation), **_standing(simulation.result()), "done": False}

    def step(simulation: Simulation, seconds: float) -> dict[str, Any]:
        limit = _whole(request, "iterations") or DEFAULT_ITERATIONS
        result = _last(simulation.batches(limit, seconds)) or simulation.result()
        return {**_standing(result), "done": result.reason in ("decided", "iterations")}

    return _stepped(request, start, step)


def endgame(request: dict[str, Any]) -> dict[str, Any]:
    """``action`` "start" (the position as for :func:`solve`, the bag empty: ``opponent_rack``, or
    the unseen tiles are the opponent's), "step" (``session``, ``ms``) or "stop". A step answers
    the deepest finished search: ``value`` (the spread the player to move gains), the ``line``
    (each move with the tiles it places), ``depth``, ``complete`` (exact) and ``done``."""

    def start(request: dict[str, Any]) -> dict[str, Any]:
        game, _rules, _table = _look_ahead_game(request)
        try:
            search = EndgameSearch(game)
        except EndgameError as exc:
            raise ApiError(str(exc), "board") from None
        return {"session": _keep(search), "done": False, "depth": 0, "line": []}

    def step(search: EndgameSearch, seconds: float) -> dict[str, Any]:
        found = _last(search.deepen(time_limit=seconds))
        if found is None:
            return {"done": False, "depth": 0, "line": []}
        return {
            **found.to_dict(),
            "line": [{"move": str(m), "placed": _placed(m), "kind": m.kind} for m in found.line],
            "done": found.complete or found.reason == "depth",
        }

    return _stepped(request, start, step)


PREENDGAME_ROWS = 30  # candidates a step answers: the exact ones by their chance, then the pending


def preendgame(request: dict[str, Any]) -> dict[str, Any]:
    """``action`` "start" (the position as for :func:`solve` with 1 to 6 tiles in the bag, and
    ``leaves`` for the candidates' order), "step" (``session``, ``ms``) or "stop". A step answers
    the standing (docs/preendgame.md): the best so far, ``complete`` once every candidate is exact
    or ruled out, and up to PREENDGAME_ROWS candidates (exact first, by their probability of
    winning) each with its status, ``win`` (exact) or bounds, and the bags it wins and loses with."""

    def start(request: dict[str, Any]) -> dict[str, Any]:
        game, _rules, table = _look_ahead_game(request)
        try:
            search = PreendgameSearch(game, leaves=table)
        except PreendgameError as exc:
            raise ApiError(str(exc), "board") from None
        return {"session": _keep(search), "done": False, "candidates": [], "complete": False}

    def step(search: PreendgameSearch, seconds: float) -> dict[str, Any]:
        result = search.run(time_limit=seconds)
        order = sorted(
            range(len(result.candidates)),
            key=lambda i: (result.candidates[i].status != "exact", -result.candidates[i].win_high, i),
        )
        rows = []
        for i in [i for i in order if result.candidates[i].status != "ruled out"][:PREENDGAME_ROWS]:
            c = result.candidates[i]
            rows.append({
                "move": str(c.move), "placed": _placed(c.move), "kind": c.move.kind, "status": c.status,
                "best": i == result.best_index, "win": None if c.win is None else float(c.win),
                "win_low": float(c.win_low), "win_high": float(c.win_high),
                "wins_with": sorted({bag for bag, _r, _w, o in c.worlds if o == 1}),
                "loses_with": sorted({bag for bag, _r, _w, o in c.worlds if o == 0}),
            })  # fmt: skip
        ruled = sum(1 for c in result.candidates if c.status == "ruled out")
        return {
            "candidates": rows, "complete": result.complete, "done": result.complete, "bag": result.bag,
            "worlds": result.worlds, "count": len(result.candidates), "ruled_out": ruled,
            "endgames": result.endgames, "nodes": result.nodes, "elapsed": result.elapsed,
            "best": None if result.best_index is None else str(result.best.move),
        }  # fmt: skip

    return _stepped(request, start, step)


_HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "simulate": simulate,
    "endgame": endgame,
    "preendgame": preendgame,
    "solve": solve,
    "parse_cgp": parse_cgp,
    "format_cgp": format_cgp,
    "unseen": unseen_tiles,
    "bench": bench,
    "export_gcg": export_gcg,
    "check_board": check_board,
    "word_tools": word_tools,
    "judge": judge_play,
    "forget_lexicon": forget_lexicon,
    "rules_json": rules_json,
    "check_rules": check_rules,
    "set_rules": set_rules,
}


def call(
    kind: str, request_json: str, data: Any = None, progress: Progress | None = None
) -> tuple[str, bytes | None]:
    """Run one request for the worker: ``kind`` (``load_lexicon``, ``load_leaves``, ``solve``,
    ``unseen``, ``parse_cgp``, ``format_cgp``, ``review_gcg``, ``export_gcg``, ``bench``,
    ``check_board``, ``word_tools``, ``judge``, ``simulate``, ``endgame``, ``preendgame``, ``build_lexicon``,
    ``add_lexicon``, ``forget_lexicon``, ``rules_json``, ``check_rules``, ``set_rules``), the request
    as JSON, and for the loads, the builds (and a ``review_gcg`` of a file) the file's bytes;
    ``progress`` hears a build's steps. Returns the answer as JSON and, for a records solve or a
    build, the bytes (``None`` otherwise)."""
    try:
        request = json.loads(request_json)
        if not isinstance(request, dict):
            raise ApiError("the request must be a JSON object", "request")
        if kind == "load_lexicon":
            result = load_lexicon(request.get("name"), data, request.get("rules"))
        elif kind == "load_leaves":
            result = load_leaves(request.get("name"), data, request.get("rules"))
        elif kind == "review_gcg":
            result = review_gcg(request, data)
        elif kind == "build_lexicon":
            result = build_lexicon(request, data, progress)
        elif kind == "add_lexicon":
            result = add_lexicon(request, data)
        elif kind in _HANDLERS:
            result = _HANDLERS[kind](request)
        else:
            raise ApiError(f"unknown request {kind!r}", "request")
    except ApiError as exc:
        result = _error(exc.message, exc.field)
    except json.JSONDecodeError as exc:
        result = _error(f"the request is not JSON: {exc}", "request")
    except Exception as exc:  # a bug, not bad input: still answer, with what went wrong
        result = _error(f"internal error: {type(exc).__name__}: {exc}", "internal")
    records = result.pop("records", None)
    return json.dumps(result), records
