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

import threading
import warnings
import weakref
from functools import lru_cache
from typing import Any

from . import _core_api as core
from .alphabet import BLANK_FLAG
from .board import Board, PositionError, PositionWarning, position_warnings
from .lexicon import Lexicon
from .move import ACROSS, DOWN, MOVE_RECORD, ON_BOARD_FLAG, Move
from .rack import BLANK, Rack, leave_tiles
from .rules import Rules

_LETTER_MASK = 0x3F
_TILE_MASK = _LETTER_MASK | BLANK_FLAG
TOP_IN_CORE = 4096  # a larger top asks the core for every play


def _rank(
    record: tuple[int, int, int, int, int, int, int, int, bytes],
) -> tuple[int, int, int, int, int, bytes]:
    """The order plays are ranked in, the same as the core's top-N (csrc/movegen.c, move_better):
    higher score, then row, column, across before down, shorter word, then the word's codes
    (alphabet order; a blank after the real tile)."""
    score, _equity, row, col, direction, length, _placed, _kind, word = record
    return (-score, row, col, direction, length, word[:length])


class LexiconMismatchError(ValueError):
    """The lexicon was built for another alphabet than the ruleset's."""


@lru_cache(maxsize=32)
def core_rules(rules: Rules) -> Any:
    """The ruleset as the C core's gd_rules (built once per ruleset)."""
    squares = [(r, c) for r in range(rules.rows) for c in range(rules.cols)]
    return core.new_rules(
        rows=rules.rows,
        cols=rules.cols,
        rack_size=rules.rack_size,
        bingo_bonus=rules.bingo_bonus,
        start_row=rules.start[0],
        start_col=rules.start[1],
        values=[rules.blank_value, *rules.values],
        letter_multiplier=bytes(rules.letter_multiplier(r, c) for r, c in squares),
        word_multiplier=bytes(rules.word_multiplier(r, c) for r, c in squares),
        alphabet_size=len(rules.alphabet),
        tile_counts=[rules.blanks, *rules.counts],
        exchange_minimum=rules.exchange_minimum,
        scoreless_turns=rules.scoreless_turns,
        going_out_bonus=rules.going_out_bonus,
        going_out_penalty=rules.going_out_penalty,
    )


def check_alphabets(lexicon: Lexicon, rules: Rules) -> None:
    """Raise LexiconMismatchError unless the lexicon's alphabet is the ruleset's."""
    if lexicon.alphabet != rules.alphabet:
        theirs = "".join(lexicon.alphabet.letters)
        ours = "".join(rules.alphabet.letters)
        raise LexiconMismatchError(
            f"lexicon {lexicon.name or lexicon.source!r} has the alphabet {theirs}, but the {rules.name} "
            f"rules use {ours}: build the lexicon with --rules {rules.name} or choose matching rules"
        )


class Solver:
    """Move generation for one lexicon and ruleset, reusing the core's workspace between calls.

    A Solver is safe to share between threads (calls are serialized by a lock); for parallel
    solving give each thread its own.
    """

    def __init__(self, lexicon: Lexicon, rules: Rules | None = None) -> None:
        self.lexicon = lexicon
        self.rules = rules if rules is not None else Rules.load("english")
        check_alphabets(lexicon, self.rules)
        self._rules = core_rules(self.rules)
        core.ensure_walk_index(lexicon._core)  # once per lexicon: what generation reads
        self._workspace = core.new_workspace()
        self._lock = threading.Lock()
        alphabet = self.rules.alphabet
        # record code (with flags) -> the letter as written in a word / as a placed tile
        self._word_text: list[str] = [""] * 256
        self._tile_text: list[tuple[str, bool]] = [("", False)] * 256
        for code in range(256):
            letter_code = code & _LETTER_MASK
            if 1 <= letter_code <= len(alphabet):
                letter = alphabet.letters[letter_code - 1]
                blank = bool(code & BLANK_FLAG)
                self._word_text[code] = letter.lower() if blank else letter
                self._tile_text[code] = (letter, blank)

    def _position(self, board: Board | str, rack: Rack | str) -> tuple[Board, Rack]:
        if isinstance(board, str):
            board = Board.from_text(board, self.rules)
        if isinstance(rack, str):
            rack = Rack(rack, self.rules)
        rules = self.rules
        if (board.rules.rows, board.rules.cols) != (rules.rows, rules.cols):
            raise PositionError(
                f"the board is {board.rules.rows}×{board.rules.cols}, the {rules.name} rules need "
                f"{rules.rows}×{rules.cols}"
            )
        if board.rules.alphabet != rules.alphabet or rack.rules.alphabet != rules.alphabet:
            raise PositionError(f"the board or rack is for another alphabet than the {rules.name} rules'")
        return board, rack

    def solve_raw(self, board: Board | str, rack: Rack | str, top: int | None = None) -> tuple[int, bytes]:
        """``(count, records)``: how many plays the position has, and the core's gd_move records,
        unsorted, without building Move objects (``move.MOVE_RECORD`` unpacks one). With ``top``
        (up to TOP_IN_CORE) the core keeps only the best ``top``; a larger ``top`` gets every play
        (cut when sorting)."""
        board, rack = self._position(board, rack)
        if top is not None and top < 0:
            raise ValueError(f"top must be at least 0, not {top}")
        top_n = top if top and top <= TOP_IN_CORE else 0
        with self._lock:
            return core.prepare_and_generate(
                self.lexicon._core, self._rules, self._workspace, board.codes(), rack.counts(), top_n
            )

    def count(self, board: Board | str, rack: Rack | str) -> int:
        """How many plays the position has (none are written out)."""
        board, rack = self._position(board, rack)
        with self._lock:
            core.prepare(self.lexicon._core, self._rules, self._workspace, board.codes())
            return core.count_plays(self.lexicon._core, self._rules, self._workspace, rack.counts())

    def solve(
        self, board: Board | str, rack: Rack | str, top: int | None = None, *, warn: bool = True
    ) -> list[Move]:
        """The plays of a position, best first (see the module doc for the order).

        ``top``: only the best ``top`` plays (None: all). ``warn``: report with warnings.warn
        (PositionWarning) when the board and rack hold more tiles of a letter than the bag has.
        """
        return self.solve_counted(board, rack, top, warn=warn, stacklevel=3)[1]

    def solve_counted(
        self,
        board: Board | str,
        rack: Rack | str,
        top: int | None = None,
        *,
        warn: bool = True,
        stacklevel: int = 2,
    ) -> tuple[int, list[Move]]:
        """``(how many plays there are, the best top of them)``."""
        board, rack = self._position(board, rack)
        if warn:
            for message in position_warnings(board, rack, self.rules):
                warnings.warn(message, PositionWarning, stacklevel=stacklevel)
        count, records = self.solve_raw(board, rack, top)
        return count, self.moves_from_records(records, board, rack, top)

    def moves_from_records(
        self, records: bytes, board: Board, rack: Rack, top: int | None = None
    ) -> list[Move]:
        """Sort gd_move records best first and build Moves (the best ``top`` of them)."""
        unpacked = list(MOVE_RECORD.iter_unpack(records))
        unpacked.sort(key=_rank)
        if top is not None:
            unpacked = unpacked[:top]
        word_text = self._word_text
        tile_text = self._tile_text
        rack_tiles = rack.tiles
        leaves: dict[bytes, str] = {}
        make = Move._fast
        moves: list[Move] = []
        for score, _equity, row, col, direction, length, _placed, _kind, word in unpacked:
            codes = word[:length]
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
                leave = leaves[placed] = "".join(t if len(t) == 1 else f"[{t}]" for t in left)
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
                )
            )
        return moves


_solvers: weakref.WeakKeyDictionary[Lexicon, dict[Rules, Solver]] = weakref.WeakKeyDictionary()
_solvers_lock = threading.Lock()


def get_solver(lexicon: Lexicon, rules: Rules | None = None) -> Solver:
    """A cached Solver for this lexicon and ruleset (kept while the lexicon is alive)."""
    rules = rules if rules is not None else Rules.load("english")
    with _solvers_lock:
        per_lexicon = _solvers.setdefault(lexicon, {})
        solver = per_lexicon.get(rules)
        if solver is None:
            solver = per_lexicon[rules] = Solver(lexicon, rules)
        return solver


def solve(
    board: Board | str,
    rack: Rack | str,
    lexicon: Lexicon,
    rules: Rules | None = None,
    top: int | None = None,
) -> list[Move]:
    """Every play of the position (or the best ``top``), best first.

    ``rules`` defaults to the english ruleset (or the board's, when given a Board). Raises
    LexiconMismatchError when the lexicon's alphabet is not the ruleset's, PositionError (or its
    subclass RackError) for a board or rack that cannot be used; warns (PositionWarning) when the
    board and rack hold more tiles of a letter than the bag has.
    """
    if rules is None:
        rules = board.rules if isinstance(board, Board) else Rules.load("english")
    return get_solver(lexicon, rules).solve(board, rack, top)
