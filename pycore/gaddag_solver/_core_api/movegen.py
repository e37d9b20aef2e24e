"""Move generation in the core: rules, workspaces, and the generator's calls.

Binding-neutral contract (the ctypes twin offers the same names):
  new_rules(...)            -> an opaque gd_rules
  new_workspace()           -> a Workspace (scratch memory + a growing move buffer)
  prepare_and_generate(...) -> (count, records): records are count gd_move structs as bytes
  generate(...)             -> the same, for the board last prepared in the workspace
  count_plays(...)          -> how many plays there are, for the board last prepared
  move_words(...)           -> [(row, col, direction, length, score), ...]
Records are MOVE_RECORD_SIZE bytes each, laid out as gaddag_solver.move.MOVE_RECORD.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._binding import ffi, lib
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index

MOVE_RECORD_SIZE = ffi.sizeof("gd_move")
DIRECTIONS = {
    "both": lib.GD_DIRECTIONS_BOTH,
    "across": lib.GD_DIRECTIONS_ACROSS,
    "down": lib.GD_DIRECTIONS_DOWN,
}
WORD_RECORD_SIZE = ffi.sizeof("gd_word")
MOVES_START = 4096
WORDS_CAPACITY = 2 * lib.GD_MAX_DIM + 1  # a main word and at most one cross-word per tile placed


def new_rules(
    rows: int,
    cols: int,
    rack_size: int,
    bingo_bonus: int,
    start_row: int,
    start_col: int,
    values: list[int],
    letter_multiplier: bytes,
    word_multiplier: bytes,
    alphabet_size: int,
    tile_counts: list[int],
    exchange_minimum: int,
    scoreless_turns: int,
    going_out_bonus: int,
    going_out_penalty: int,
) -> Any:
    """A gd_rules: values[c] for letter code c, values[0] a blank's; multipliers row-major.

    The game fields (move generation ignores them): tile_counts[c] tiles of letter c in the
    full set, tile_counts[0] the blanks; the exchange, scoreless-turn and going-out rules."""
    squares = rows * cols
    if squares > lib.GD_MAX_SQUARES or len(letter_multiplier) != squares or len(word_multiplier) != squares:
        raise CoreError(
            f"a {rows}×{cols} board needs {squares} multipliers per kind (at most {lib.GD_MAX_SQUARES})"
        )
    if len(values) > 64:
        raise CoreError(f"{len(values)} tile values; at most 64")
    if not 1 <= alphabet_size <= 63 or len(tile_counts) != alphabet_size + 1:
        raise CoreError(
            f"{len(tile_counts)} tile counts for {alphabet_size} letters; want the blanks and one per letter"
            " (at most 63 letters)"
        )
    rules = ffi.new("gd_rules *")
    rules.rows, rules.cols = rows, cols
    rules.rack_size = rack_size
    rules.bingo_bonus = bingo_bonus
    rules.start_row, rules.start_col = start_row, start_col
    for code, value in enumerate(values):
        rules.values[code] = value
    ffi.memmove(rules.letter_multiplier, letter_multiplier, squares)
    ffi.memmove(rules.word_multiplier, word_multiplier, squares)
    rules.alphabet_size = alphabet_size
    for code, count in enumerate(tile_counts):
        rules.tile_counts[code] = count
    rules.exchange_minimum = exchange_minimum
    rules.scoreless_turns = scoreless_turns
    rules.going_out_bonus = going_out_bonus
    rules.going_out_penalty = going_out_penalty
    return rules


class Workspace:
    """Scratch memory for one generator (not shared between threads) and the move buffer."""

    __slots__ = ("memory", "moves", "capacity", "board", "prepared_for", "error", "count", "work")

    def __init__(self, size: int | None = None, capacity: int = MOVES_START) -> None:
        """`size`: bytes of scratch (default gd_workspace_size()); `capacity`: moves at first."""
        size = lib.gd_workspace_size() if size is None else size
        self.memory = ffi.new("uint64_t[]", (size + 7) // 8)  # 8-byte aligned
        self.capacity = capacity
        self.moves = ffi.new("gd_move[]", self.capacity)
        self.board: bytes | None = None  # the board the workspace was prepared for
        self.prepared_for: tuple[Any, Any] | None = None  # (lexicon struct, rules struct)
        self.error = ffi.new("gd_error *")
        self.count = ffi.new("size_t *")  # gd_generate's out-parameter, made once
        self.work: Any = None  # the DAWG generator's gd_work (DawgWorkspace)

    def grow(self, capacity: int) -> None:
        if capacity > self.capacity:
            self.capacity = max(capacity, 2 * self.capacity)
            self.moves = ffi.new("gd_move[]", self.capacity)


def new_workspace() -> Workspace:
    return Workspace()


def prepare(lexicon: OpenedLexicon, rules: Any, workspace: Workspace, board: bytes) -> None:
    """Cross-sets and anchors of `board` into the workspace (skipped when already prepared)."""
    key = (lexicon.struct, rules)
    if workspace.board == board and workspace.prepared_for == key:
        return
    ensure_walk_index(lexicon)
    workspace.board = None
    rc = lib.gd_prepare(lexicon.struct, rules, board, workspace.memory, workspace.error)
    if rc != lib.GD_OK:
        raise CoreError(_message(workspace.error) or f"gd_prepare failed with code {rc}")
    workspace.board = bytes(board)
    workspace.prepared_for = key


def _run_generator(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    top_n: int,
    out: Any,
    capacity: int,
    options: Any = None,
) -> int:
    """One generator call for the prepared board (gd_generate_equity; without ``options`` it is
    gd_generate); returns how many moves there are."""
    if workspace.board is None or workspace.prepared_for != (lexicon.struct, rules):
        raise CoreError("the workspace holds no board prepared for this lexicon and ruleset")
    rc = lib.gd_generate_equity(
        lexicon.struct, rules, workspace.board, workspace.memory, rack_counts,
        ffi.NULL if options is None else options, top_n, out, capacity, workspace.count, workspace.error,
    )  # fmt: skip
    if rc != lib.GD_OK:
        raise CoreError(_message(workspace.error) or f"gd_generate_equity failed with code {rc}")
    return int(workspace.count[0])


def generate(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    top_n: int = 0,
    options: Any = None,
) -> tuple[int, bytes]:
    """``(count, records)`` for the prepared board: count is how many moves there are; records
    hold them all (top_n = 0) or the best min(count, top_n). The move buffer grows and the call
    is repeated when the moves do not fit. ``options``: a gd_equity_options (see
    :func:`generate_equity`), or None for plays valued by score.
    """
    if top_n:
        workspace.grow(top_n)
    while True:
        found = _run_generator(
            lexicon, rules, workspace, rack_counts, top_n, workspace.moves, workspace.capacity, options
        )
        written = min(found, top_n) if top_n else found
        if written <= workspace.capacity:
            return found, ffi.buffer(workspace.moves, written * MOVE_RECORD_SIZE)[:]
        workspace.grow(written)


def generate_equity(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    valuation: Any,
    top_n: int = 0,
    directions: str = "both",
) -> tuple[int, bytes]:
    """:func:`generate` with equity, exchanges and the pass (gd_generate_equity) for the prepared
    board. ``valuation`` has ``leaves`` (a gd_leaves, or None), ``bag``, ``opponent_rack_value``,
    ``exchanges`` and ``by_equity`` (solver.Valuation). Never prunes, so the count is exact."""
    return generate(lexicon, rules, workspace, rack_counts, top_n, equity_options(valuation, directions))


def direction_options(directions: str) -> Any:
    """Options for plays valued by score alone (as no options give: no table, and a bag, so the
    tiles kept are worth 0) in ``directions`` ("both", "across" or "down")."""
    if directions not in DIRECTIONS:
        raise CoreError(f"unknown direction {directions!r}; known: {', '.join(DIRECTIONS)}")
    options = ffi.new("gd_equity_options *")
    options.bag_count = 1
    options.directions = DIRECTIONS[directions]
    return options


def equity_options(valuation: Any, directions: str = "both") -> Any:
    """A gd_equity_options for ``valuation`` (solver.Valuation: ``leaves``, a gd_leaves or None,
    ``bag``, ``opponent_rack_value``, ``exchanges``, ``by_equity``), never pruning, for plays in
    ``directions``."""
    options = direction_options(directions)
    options.leaves = ffi.NULL if valuation.leaves is None else ffi.cast("gd_leaves *", valuation.leaves)
    options.bag_count = valuation.bag
    options.opponent_rack_value = valuation.opponent_rack_value
    options.exchanges = int(valuation.exchanges)
    setattr(options, "pass", int(valuation.exchanges))  # a keyword in Python
    options.by_equity = int(valuation.by_equity)
    options.prune = 0
    return options


STREAM_CHUNK = 4096  # moves per gd_generate_stream call: 192 KB of records


def count_moves(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    options: Any,
) -> int:
    """How many moves the prepared board has (with ``options``, a gd_equity_options or None:
    exchanges and the pass included), none written."""
    return _run_generator(lexicon, rules, workspace, rack_counts, 0, ffi.NULL, 0, options)


def stream(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    rack_counts: bytes,
    options: Any = None,
    chunk: int = STREAM_CHUNK,
    by_equity: bool | None = None,
) -> Iterator[bytes]:
    """Every move of the prepared board as gd_move records, ``chunk`` at a time in generation
    order (gd_generate_stream), in memory that does not grow with their number. With
    ``by_equity`` (True or False) each chunk is sorted best first (gd_sort_moves) before it is
    given out. The workspace must stay prepared for the board until the iteration ends."""
    if workspace.board is None or workspace.prepared_for != (lexicon.struct, rules):
        raise CoreError("the workspace holds no board prepared for this lexicon and ruleset")
    state = ffi.new("gd_stream *")
    out = ffi.new("gd_move[]", chunk)
    count = ffi.new("size_t *")
    err = ffi.new("gd_error *")
    while state.state != lib.GD_STREAM_DONE:
        rc = lib.gd_generate_stream(
            lexicon.struct, rules, workspace.board, workspace.memory, rack_counts,
            ffi.NULL if options is None else options, state, out, chunk, count, err,
        )  # fmt: skip
        if rc != lib.GD_OK:
            raise CoreError(_message(err) or f"gd_generate_stream failed with code {rc}")
        written = int(count[0])
        if by_equity is not None:
            lib.gd_sort_moves(out, written, int(by_equity))
        if written:
            yield ffi.buffer(out, written * MOVE_RECORD_SIZE)[:]


def count_plays(lexicon: OpenedLexicon, rules: Any, workspace: Workspace, rack_counts: bytes) -> int:
    """How many plays the prepared board has for a rack (nothing is written)."""
    return _run_generator(lexicon, rules, workspace, rack_counts, 0, ffi.NULL, 0)


def prepare_and_generate(
    lexicon: OpenedLexicon,
    rules: Any,
    workspace: Workspace,
    board: bytes,
    rack_counts: bytes,
    top_n: int = 0,
) -> tuple[int, bytes]:
    """:func:`prepare` then :func:`generate`."""
    prepare(lexicon, rules, workspace, board)
    return generate(lexicon, rules, workspace, rack_counts, top_n)


def move_words(rules: Any, board: bytes, record: bytes) -> list[tuple[int, int, int, int, int]]:
    """The words one play (a gd_move record) forms: (row, col, direction, length, score), main
    word first."""
    if len(record) != MOVE_RECORD_SIZE:
        raise CoreError(f"a move record is {MOVE_RECORD_SIZE} bytes, not {len(record)}")
    move = ffi.new("gd_move *")
    ffi.memmove(move, record, MOVE_RECORD_SIZE)
    out = ffi.new("gd_word[]", WORDS_CAPACITY)
    count = ffi.new("size_t *")
    rc = lib.gd_move_words(rules, board, move, out, WORDS_CAPACITY, count)
    if rc != lib.GD_OK:
        raise CoreError(f"gd_move_words failed with code {rc}")
    return [
        (out[i].row, out[i].col, out[i].direction, out[i].length, out[i].score)
        for i in range(min(int(count[0]), WORDS_CAPACITY))
    ]
