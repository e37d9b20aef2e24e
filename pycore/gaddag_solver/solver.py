"""The solver: every legal play of a position, best first.

>>> from gaddag_solver import Board, Lexicon, Rules, solve
>>> rules = Rules.load("english")
>>> moves = solve(Board.empty(rules), "AEINRST", Lexicon.load("lexicons/sowpods.gaddag"), rules, top=3)
>>> [(m.coord, m.word, m.score) for m in moves]  # doctest: +SKIP
[('8B', 'ANESTRI', 66), ...]

The C core generates the plays into a buffer of compact records (csrc/gaddag_solver.h, gd_move);
this module turns them into :class:`~gaddag_solver.move.Move` objects, sorted by score
(descending), then row, column, direction (across first) and word (shorter first, then in
alphabet order) — the order the core ranks its top N in, so ``solve(top=n)`` is always the
first n of ``solve()``. A :class:`Solver` keeps the
core's workspace and buffers between calls, and skips recomputing cross-sets when the board
has not changed (many racks on one board).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import tempfile
import threading
import warnings
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core_api as core
from .alphabet import BLANK_FLAG, shown
from .board import Board, PositionError, PositionWarning, position_warnings, tiles_text, written
from .dawg import dawg_for
from .lexicon import Lexicon
from .move import ACROSS, DOWN, KIND_PASS, KIND_PLAY, MOVE_RECORD, ON_BOARD_FLAG, PLAY, Move
from .rack import BLANK, Rack, leave_tiles
from .rules import Rules
from .rules_core import core_rules
from .unseen import unseen

if TYPE_CHECKING:
    from .formats.leaves import Leaves

_LETTER_MASK = 0x3F
_TILE_MASK = _LETTER_MASK | BLANK_FLAG
TOP_IN_CORE = 4096  # a larger top asks the core for every play
ENGINES = ("gaddag", "dawg")  # Gordon's generator, and Appel & Jacobson's over a DAWG (docs/dawg.md)
DIRECTIONS = tuple(core.DIRECTIONS)  # "both", "across", "down": the plays generated


class EngineError(ValueError):
    """An engine or direction that does not exist, or an option the engine does not offer."""


def check_engine(engine: object, direction: object = "both") -> None:
    """Raise EngineError unless `engine` is one of ENGINES and `direction` one of DIRECTIONS."""
    if engine not in ENGINES:
        raise EngineError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if direction not in DIRECTIONS:
        raise EngineError(f"unknown direction {direction!r}; known: {', '.join(DIRECTIONS)}")


Record = tuple[int, int, int, int, int, int, int, int, bytes]


def _rank(record: Record) -> tuple[int, int, int, int, int, int, bytes]:
    """The order moves are ranked in by score, the same as the core's top-N (csrc/movegen.c,
    gd_move_better): higher score, then plays before exchanges before the pass, row, column,
    across before down, shorter word, then the word's codes (alphabet order; a blank after the
    real tile)."""
    score, _equity, row, col, direction, length, _placed, kind, word = record
    return (-score, kind, row, col, direction, length, word[:length])


def _rank_by_equity(record: Record) -> tuple[int, int, int, int, int, int, int, bytes]:
    """The order by equity: higher equity first, then as :func:`_rank`."""
    score, equity, row, col, direction, length, _placed, kind, word = record
    return (-equity, -score, kind, row, col, direction, length, word[:length])


@dataclass(frozen=True)
class Valuation:
    """How the core values moves beyond their score (gd_equity_options): the leave table's core
    struct (None: every leave worth 0), the tiles in the bag, the opponent's rack value (used
    with the bag empty), whether exchanges and the pass are listed, and whether moves are
    ranked by equity."""

    leaves: Any
    bag: int
    opponent_rack_value: int
    exchanges: bool
    by_equity: bool


def expect(value: object, name: str, types: type | tuple[type, ...], what: str) -> None:
    """Raise TypeError naming the argument and what it should be, unless ``value`` is one of
    ``types`` (a bool is not taken for a number)."""
    allowed = types if isinstance(types, tuple) else (types,)
    if isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed):
        return
    given = type(value).__name__ + (f" {shown(value)!r}" if isinstance(value, str) else "")
    raise TypeError(f"{name} must be {what}, not {given}")


def _check_lexicon_and_rules(lexicon: object, rules: object) -> None:
    expect(lexicon, "lexicon", Lexicon, "a Lexicon (Lexicon.load(path))")
    expect(rules, "rules", (Rules, type(None)), "a Rules (Rules.load(name)) or None for english")


class LexiconMismatchError(ValueError):
    """The lexicon was built for another alphabet than the ruleset's."""


def check_alphabets(lexicon: Lexicon, rules: Rules) -> None:
    """Raise LexiconMismatchError unless the lexicon's alphabet is the ruleset's."""
    if lexicon.alphabet != rules.alphabet:
        theirs = "".join(lexicon.alphabet.letters)
        ours = "".join(rules.alphabet.letters)
        raise LexiconMismatchError(
            f"lexicon {lexicon.name or lexicon.source!r} has the alphabet {theirs}, but the {rules.name} "
            f"rules use {ours}: build the lexicon with --rules {rules.name} or choose matching rules"
        )


@dataclass(frozen=True)
class _SolverState:
    """What a Solver keeps between calls for one ruleset, apart from the lexicon: the core's
    rules, the workspace and the lock that serializes its use, and the letter tables."""

    rules: Rules
    core_rules: Any
    workspace: core.Workspace
    dawg_workspace: core.DawgWorkspace
    lock: threading.Lock
    word_text: list[str]  # record code (with flags) -> the letter as written in a word
    tile_text: list[tuple[str, bool]]  # ... -> the letter as a placed tile, and whether a blank

    @classmethod
    def create(cls, rules: Rules) -> _SolverState:
        alphabet = rules.alphabet
        word_text: list[str] = [""] * 256
        tile_text: list[tuple[str, bool]] = [("", False)] * 256
        for code in range(256):
            letter_code = code & _LETTER_MASK
            if 1 <= letter_code <= len(alphabet):
                letter = alphabet.letters[letter_code - 1]
                blank = bool(code & BLANK_FLAG)
                word_text[code] = letter.lower() if blank else letter
                tile_text[code] = (letter, blank)
        return cls(
            rules,
            core_rules(rules),
            core.new_workspace(),
            core.DawgWorkspace(),
            threading.Lock(),
            word_text,
            tile_text,
        )


class Solver:
    """Move generation for one lexicon and ruleset, reusing the core's workspace between calls.

    A Solver is safe to share between threads (calls are serialized by a lock); for parallel
    solving give each thread its own.

    ``engine``: "gaddag" (Gordon's generator, the default) or "dawg" (Appel & Jacobson's, over
    the DAWG of the same words: :func:`~gaddag_solver.dawg.dawg_for`). Both give the same plays
    with the same scores; the DAWG engine values plays by score only (no equity, exchanges or
    streaming).
    """

    def __init__(self, lexicon: Lexicon, rules: Rules | None = None, engine: str = "gaddag") -> None:
        _check_lexicon_and_rules(lexicon, rules)
        check_engine(engine)
        self.lexicon = lexicon
        self.engine = engine
        rules = rules if rules is not None else Rules.load("english")
        check_alphabets(lexicon, rules)
        core.ensure_walk_index(lexicon._core)  # once per lexicon: what generation reads
        self._adopt(_SolverState.create(rules))

    def _adopt(self, state: _SolverState) -> None:
        """Work in ``state``: the ruleset, the core's rules, workspace and lock, the letter tables."""
        self._state = state
        self.rules = state.rules
        self._rules = state.core_rules
        self._workspace = state.workspace
        self._dawg_workspace = state.dawg_workspace
        self._lock = state.lock
        self._word_text = state.word_text
        self._tile_text = state.tile_text

    def _position(self, board: Board | str, rack: Rack | str) -> tuple[Board, Rack]:
        rules = self.rules
        if type(board) is Board and type(rack) is Rack and board.rules is rules and rack.rules is rules:
            return board, rack  # made for these rules: nothing to check (3 µs a solve in Pyodide)
        expect(board, "board", (Board, str), "a Board or the board as text")
        expect(rack, "rack", (Rack, str), 'a Rack or the tiles as text ("AEINRS?")')
        if isinstance(board, str):
            board = Board.from_text(board, self.rules)
        if isinstance(rack, str):
            rack = Rack(rack, self.rules)
        if (board.rules.rows, board.rules.cols) != (rules.rows, rules.cols):
            raise PositionError(
                f"the board is {board.rules.rows}×{board.rules.cols}, the {rules.title} rules need "
                f"{rules.rows}×{rules.cols}"
            )
        if board.rules.alphabet != rules.alphabet or rack.rules.alphabet != rules.alphabet:
            raise PositionError(f"the board or rack is for another alphabet than the {rules.title} rules'")
        return board, rack

    def valuation(
        self,
        board: Board,
        rack: Rack,
        *,
        leaves: Leaves | None = None,
        equity: bool | None = None,
        exchanges: bool = False,
        bag: int | None = None,
        opponent_rack: Rack | str | None = None,
    ) -> Valuation | None:
        """What the core needs to value and rank moves by equity, or None for plain plays by
        score. ``equity`` defaults to whether a leave table is given; ``bag`` (tiles in the bag)
        defaults to what the unseen tiles leave after a full opponent's rack. With the bag empty
        the opponent's rack is ``opponent_rack`` when known, else every unseen tile."""
        if equity is None:
            equity = leaves is not None
        if not equity and not exchanges:
            return None
        if leaves is not None and leaves.rules.name != self.rules.name:
            raise ValueError(
                f"the leave table is for the {leaves.rules.name} rules, the solver plays {self.rules.name}"
            )
        tiles_unseen = unseen(board, rack, self.rules)
        if bag is None:
            bag = tiles_unseen.bag
        if bag < 0:
            raise ValueError(f"the bag cannot hold {bag} tiles")
        opponent = 0
        if bag == 0:
            values = dict(zip(self.rules.alphabet.letters, self.rules.values, strict=True))
            if opponent_rack is None:
                held = Counter(tiles_unseen.counts)
            else:
                held = Counter(
                    (
                        Rack(opponent_rack, self.rules) if isinstance(opponent_rack, str) else opponent_rack
                    ).tiles
                )
            opponent = sum(
                count * (self.rules.blank_value if letter == BLANK else values[letter])
                for letter, count in held.items()
            )
        return Valuation(None if leaves is None else leaves.core, bag, opponent, exchanges, equity)

    def solve_raw(
        self,
        board: Board | str,
        rack: Rack | str,
        top: int | None = None,
        valuation: Valuation | None = None,
        direction: str = "both",
    ) -> tuple[int, bytes]:
        """``(count, records)``: how many moves the position has, and the core's gd_move records,
        unsorted, without building Move objects (``move.MOVE_RECORD`` unpacks one). With ``top``
        (up to TOP_IN_CORE) the core keeps only the best ``top``; a larger ``top`` gets every move
        (cut when sorting; the DAWG engine always gives every play). ``valuation`` (from
        :meth:`valuation`) adds equity, exchanges and the pass; without it, plays are valued by
        score alone. ``direction``: "both", "across" or "down" — only those plays are generated."""
        board, rack = self._position(board, rack)
        expect(top, "top", (int, type(None)), "a whole number or None (every move)")
        if top is not None and top < 0:
            raise ValueError(f"top must be at least 0, not {top}")
        check_engine(self.engine, direction)
        top_n = top if top and top <= TOP_IN_CORE else 0
        with self._lock:
            if self.engine == "dawg":
                self._refuse_valuation(valuation)
                count, records, _work = self._dawg_generate(board, rack, direction)
                return count, records
            core.prepare(self.lexicon._core, self._rules, self._workspace, board.codes())
            if valuation is None:
                options = None if direction == "both" else core.direction_options(direction)
                return core.generate(
                    self.lexicon._core, self._rules, self._workspace, rack.counts(), top_n, options
                )
            return core.generate_equity(
                self.lexicon._core, self._rules, self._workspace, rack.counts(), valuation, top_n, direction
            )

    def _refuse_valuation(self, valuation: Valuation | None) -> None:
        if valuation is not None:
            raise EngineError(
                "the dawg engine values plays by score only: equity, leaves and exchanges need "
                "engine 'gaddag'"
            )

    def _dawg_generate(self, board: Board, rack: Rack, direction: str) -> tuple[int, bytes, tuple[int, int]]:
        """Every play by the DAWG engine: ``(count, records, (arcs, dead ends))``. Hold the lock."""
        dawg = dawg_for(self.lexicon)._core
        core.dawg_prepare(dawg, self._rules, self._dawg_workspace, board.codes())
        return core.dawg_generate(dawg, self._rules, self._dawg_workspace, rack.counts(), direction)

    def count(self, board: Board | str, rack: Rack | str) -> int:
        """How many plays the position has (none are written out)."""
        board, rack = self._position(board, rack)
        if self.engine == "dawg":
            return self.solve_raw(board, rack)[0]
        with self._lock:
            core.prepare(self.lexicon._core, self._rules, self._workspace, board.codes())
            return core.count_plays(self.lexicon._core, self._rules, self._workspace, rack.counts())

    def solve(
        self,
        board: Board | str,
        rack: Rack | str,
        top: int | None = None,
        *,
        warn: bool = True,
        leaves: Leaves | None = None,
        equity: bool | None = None,
        exchanges: bool = False,
        bag: int | None = None,
        opponent_rack: Rack | str | None = None,
        direction: str = "both",
    ) -> list[Move]:
        """The moves of a position, best first (see the module doc for the order).

        ``top``: only the best ``top`` moves (None: all). ``warn``: report with warnings.warn
        (PositionWarning) when the board and rack hold more tiles of a letter than the bag has.
        ``leaves``: a leave table; moves then carry ``equity`` and are ranked by it (``equity``
        forces either way; equity without a table values every leave at 0). ``exchanges``: list
        every distinct exchange (while the bag holds at least the ruleset's exchange_minimum)
        and the pass. ``bag``: tiles in the bag, when the unseen tiles do not tell (see
        :meth:`valuation`); ``opponent_rack``: the opponent's rack when known (it matters with the
        bag empty). ``direction``: "both", "across" or "down" — only those plays are generated.
        """
        return self.solve_counted(
            board,
            rack,
            top,
            warn=warn,
            stacklevel=3,
            leaves=leaves,
            equity=equity,
            exchanges=exchanges,
            bag=bag,
            opponent_rack=opponent_rack,
            direction=direction,
        )[1]

    def _valued_position(
        self,
        board: Board | str,
        rack: Rack | str,
        warn: bool,
        stacklevel: int,
        leaves: Leaves | None,
        equity: bool | None,
        exchanges: bool,
        bag: int | None,
        opponent_rack: Rack | str | None,
    ) -> tuple[Board, Rack, Valuation | None]:
        """The position checked, its warnings given (``warn``), and its :meth:`valuation`."""
        board, rack = self._position(board, rack)
        expect(bag, "bag", (int, type(None)), "a whole number of tiles or None")
        if warn:
            for message in position_warnings(board, rack, self.rules):
                warnings.warn(message, PositionWarning, stacklevel=stacklevel + 1)
        valuation = self.valuation(
            board,
            rack,
            leaves=leaves,
            equity=equity,
            exchanges=exchanges,
            bag=bag,
            opponent_rack=opponent_rack,
        )
        return board, rack, valuation

    def stream(
        self,
        board: Board | str,
        rack: Rack | str,
        *,
        ranked: bool = True,
        warn: bool = True,
        leaves: Leaves | None = None,
        equity: bool | None = None,
        exchanges: bool = False,
        bag: int | None = None,
        opponent_rack: Rack | str | None = None,
        direction: str = "both",
    ) -> MoveStream:
        """Every move of the position as a :class:`MoveStream`: its ``count`` is known at once,
        and iterating it builds the moves as they are read, in memory that does not grow with
        their number (the C core generates them a buffer at a time). ``ranked``: best first,
        the order of :meth:`solve` (sorted in one buffer up to SORT_IN_MEMORY moves, beyond that
        in sorted runs on disk that are merged; over SORT_ON_DISK moves the stream is not ranked
        and says why in ``warning``, given as a ResourceWarning with ``warn``); else in the core's
        generation order (cheapest).
        The other options are :meth:`solve`'s. The gaddag engine only."""
        if self.engine != "gaddag":
            raise EngineError(
                "streaming needs engine 'gaddag' (the dawg engine gives every play at once: solve)"
            )
        check_engine(self.engine, direction)
        board, rack, valuation = self._valued_position(
            board, rack, warn, 2, leaves, equity, exchanges, bag, opponent_rack
        )
        stream = MoveStream(self, board, rack, valuation, ranked, direction)
        if warn and stream.warning:
            warnings.warn(stream.warning, ResourceWarning, stacklevel=2)
        return stream

    def solve_counted(
        self,
        board: Board | str,
        rack: Rack | str,
        top: int | None = None,
        *,
        warn: bool = True,
        stacklevel: int = 2,
        leaves: Leaves | None = None,
        equity: bool | None = None,
        exchanges: bool = False,
        bag: int | None = None,
        opponent_rack: Rack | str | None = None,
        direction: str = "both",
    ) -> tuple[int, list[Move]]:
        """``(how many moves there are, the best top of them)``; the options as :meth:`solve`."""
        expect(top, "top", (int, type(None)), "a whole number or None (every move)")
        board, rack, valuation = self._valued_position(
            board, rack, warn, stacklevel, leaves, equity, exchanges, bag, opponent_rack
        )
        count, records = self.solve_raw(board, rack, top, valuation, direction)
        by_equity = valuation is not None and valuation.by_equity
        return count, self.moves_from_records(
            records, board, rack, top, valued=valuation is not None, by_equity=by_equity
        )

    def moves_from_records(
        self,
        records: bytes,
        board: Board,
        rack: Rack,
        top: int | None = None,
        *,
        valued: bool = False,
        by_equity: bool = False,
    ) -> list[Move]:
        """Sort gd_move records best first (by equity when ``by_equity``) and build Moves (the
        best ``top`` of them); ``valued`` moves carry their equity."""
        unpacked = list(MOVE_RECORD.iter_unpack(records))
        unpacked.sort(key=_rank_by_equity if by_equity else _rank)
        if top is not None:
            unpacked = unpacked[:top]
        return self.moves_from_unpacked(unpacked, board, rack, valued=valued)

    def moves_from_unpacked(
        self, unpacked: Iterable[Record], board: Board, rack: Rack, *, valued: bool = False
    ) -> list[Move]:
        """Moves from unpacked gd_move records (``MOVE_RECORD``), in the order given."""
        word_text = self._word_text
        tile_text = self._tile_text
        rack_tiles = rack.tiles
        leaves: dict[bytes, str] = {}
        make = Move._fast
        moves: list[Move] = []
        for score, equity, row, col, direction, length, _placed, kind, word in unpacked:
            codes = word[:length]
            if kind != KIND_PLAY:
                moves.append(self._exchange_or_pass(kind, codes, rack, equity / 100 if valued else None))
                continue
            tiles = []
            for i, code in enumerate(codes):
                if not code & ON_BOARD_FLAG:
                    tile = tile_text[code]
                    if direction:
                        tiles.append((row + i, col, *tile))
                    else:
                        tiles.append((row, col + i, *tile))
            placed = bytes(code & _TILE_MASK for code in codes if not code & ON_BOARD_FLAG)
            leave = leaves.get(placed)
            if leave is None:
                used = [BLANK if code & BLANK_FLAG else tile_text[code][0] for code in placed]
                left = leave_tiles(rack_tiles, used)
                if left is None:  # the core used a tile the rack does not hold: never expected
                    raise core.CoreError(f"the core returned a play not made from rack {rack}: {used}")
                leave = leaves[placed] = tiles_text(left, self.rules.alphabet)
            moves.append(
                make(
                    row,
                    col,
                    DOWN if direction else ACROSS,
                    "".join(map(word_text.__getitem__, codes)),
                    score,
                    tuple(tiles),
                    leave,
                    board,
                    PLAY,
                    equity / 100 if valued else None,
                )
            )
        return moves

    def _exchange_or_pass(self, kind: int, codes: bytes, rack: Rack, equity: float | None) -> Move:
        """A Move for an exchange record (its tiles: codes, 0 a blank) or the pass."""
        if kind == KIND_PASS:
            return Move.pass_turn(str(rack), equity)
        put_back = [BLANK if code == 0 else self._tile_text[code][0] for code in codes]
        kept = leave_tiles(rack.tiles, put_back)
        if kept is None:  # the core exchanged a tile the rack does not hold: never expected
            raise core.CoreError(f"the core returned an exchange not made from rack {rack}: {put_back}")
        return Move.exchange("".join(map(written, put_back)), "".join(map(written, kept)), equity)


SORT_IN_MEMORY = 500_000  # moves sorted in one buffer (48 bytes each, held twice: 48 MB at most)
SORT_ON_DISK = 20_000_000  # moves ranked at most: their runs take 48 bytes each on disk (960 MB)
_BATCH = core.STREAM_CHUNK  # records turned into Moves at a time


class MoveStream:
    """Every move of one position, generated again each time it is iterated (see
    :meth:`Solver.stream`). ``count`` is how many there are; ``ranked``: best first, else the
    core's generation order. Memory stays bounded whatever the count: a stream buffer of
    STREAM_CHUNK records, or, ranked, SORT_IN_MEMORY records sorted at a time; more than that are
    sorted in runs written to temporary files (48 bytes a move) and merged."""

    def __init__(
        self,
        solver: Solver,
        board: Board,
        rack: Rack,
        valuation: Valuation | None,
        ranked: bool,
        direction: str = "both",
    ) -> None:
        self.solver = solver
        self.board = board
        self.rack = rack
        self.valuation = valuation
        self.ranked = ranked
        self.sort_in_memory = SORT_IN_MEMORY
        if valuation is not None:
            self._options = core.equity_options(valuation, direction)
        else:
            self._options = None if direction == "both" else core.direction_options(direction)
        with self._prepared() as workspace:
            self.count = core.count_moves(*self._core_args(workspace), self._options)
        self.warning: str | None = None  # why a ranked stream is not ranked after all
        if ranked and self.count > SORT_ON_DISK:
            self.ranked = False
            self.warning = (
                f"{self.count:,} moves are more than the {SORT_ON_DISK:,} ranked (sorting takes 48 bytes a "
                f"move of temporary files): listed in generation order"
            )

    @contextlib.contextmanager
    def _prepared(self) -> Iterator[core.Workspace]:
        """A workspace of its own, prepared for the board: the stream may be read while the
        solver solves other positions."""
        workspace = core.new_workspace()
        core.prepare(self.solver.lexicon._core, self.solver._rules, workspace, self.board.codes())
        yield workspace

    def _core_args(self, workspace: core.Workspace) -> tuple[Any, Any, core.Workspace, bytes]:
        return self.solver.lexicon._core, self.solver._rules, workspace, self.rack.counts()

    @property
    def by_equity(self) -> bool:
        return self.valuation is not None and self.valuation.by_equity

    def records(self) -> Iterator[list[Record]]:
        """The moves as unpacked gd_move records, in batches, in the stream's order."""
        with self._prepared() as workspace:
            args = self._core_args(workspace)
            if not self.ranked:
                for chunk in core.stream(*args, self._options):
                    yield list(MOVE_RECORD.iter_unpack(chunk))
                return
            runs = core.stream(*args, self._options, max(1, self.sort_in_memory), self.by_equity)
            if self.count <= self.sort_in_memory:
                for run in runs:  # one run: sorted already
                    unpacked = MOVE_RECORD.iter_unpack(run)
                    while batch := list(itertools.islice(unpacked, _BATCH)):
                        yield batch
                return
            with tempfile.TemporaryDirectory(prefix="gaddag-sort-") as folder:
                paths = []
                for number, run in enumerate(runs):
                    paths.append(Path(folder) / f"run-{number}")
                    paths[-1].write_bytes(run)
                    del run
                merged = heapq.merge(
                    *(_read_run(path) for path in paths), key=_rank_by_equity if self.by_equity else _rank
                )
                while batch := list(itertools.islice(merged, _BATCH)):
                    yield batch

    def __iter__(self) -> Iterator[Move]:
        valued = self.valuation is not None
        for batch in self.records():
            yield from self.solver.moves_from_unpacked(batch, self.board, self.rack, valued=valued)


def _read_run(path: Path) -> Iterator[Record]:
    """The records of a sorted run file, read a block at a time."""
    with open(path, "rb") as handle:
        while block := handle.read(_BATCH * MOVE_RECORD.size):
            yield from MOVE_RECORD.iter_unpack(block)


# The cache keeps a Solver's state (_SolverState), never the lexicon: a value that kept its weak
# key alive would never be dropped, and every lexicon ever solved with would stay in memory.
_solvers: weakref.WeakKeyDictionary[Lexicon, dict[Rules, _SolverState]] = weakref.WeakKeyDictionary()
_solvers_lock = threading.Lock()


def get_solver(lexicon: Lexicon, rules: Rules | None = None, engine: str = "gaddag") -> Solver:
    """A Solver for this lexicon, ruleset and engine sharing its workspace (and lock) with every
    other one made here for them. The cache lives as long as the lexicon and does not keep it
    alive."""
    _check_lexicon_and_rules(lexicon, rules)
    check_engine(engine)
    rules = rules if rules is not None else Rules.load("english")
    with _solvers_lock:
        per_lexicon = _solvers.setdefault(lexicon, {})
        state = per_lexicon.get(rules)
        if state is None:
            solver = Solver(lexicon, rules, engine)
            per_lexicon[rules] = solver._state
            return solver
    solver = Solver.__new__(Solver)
    solver.lexicon = lexicon
    solver.engine = engine
    solver._adopt(state)
    return solver


def solve(
    board: Board | str,
    rack: Rack | str,
    lexicon: Lexicon,
    rules: Rules | None = None,
    top: int | None = None,
    *,
    leaves: Leaves | None = None,
    equity: bool | None = None,
    exchanges: bool = False,
    bag: int | None = None,
    opponent_rack: Rack | str | None = None,
    engine: str = "gaddag",
    direction: str = "both",
) -> list[Move]:
    """Every play of the position (or the best ``top``), best first.

    ``rules`` defaults to the english ruleset (or the board's, when given a Board). Raises
    LexiconMismatchError when the lexicon's alphabet is not the ruleset's, PositionError (or its
    subclass RackError) for a board or rack that cannot be used; warns (PositionWarning) when the
    board and rack hold more tiles of a letter than the bag has. ``engine``: "gaddag" or "dawg"
    (see :class:`Solver`); ``direction``: "both", "across" or "down".
    """
    if rules is None:
        rules = board.rules if isinstance(board, Board) else Rules.load("english")
    return get_solver(lexicon, rules, engine).solve(
        board,
        rack,
        top,
        leaves=leaves,
        equity=equity,
        exchanges=exchanges,
        bag=bag,
        opponent_rack=opponent_rack,
        direction=direction,
    )
