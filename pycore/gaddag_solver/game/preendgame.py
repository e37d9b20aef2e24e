"""Pre-endgame solver (docs/preendgame.md): with 1 to 6 tiles in the bag, the probability that
each move of the player to move wins, both sides playing their best on what they can see.

The player to move knows its rack and the unseen tiles (the opponent's rack and the bag
together), not how they are split. Every split is a *world*, weighted by the number of ways the
unseen tiles fall so (the product of C(unseen of a letter, on the opponent's rack)); the bag's
tiles are drawn in a random order. At each turn while the bag holds tiles, the player to move
makes the move with the highest probability of winning (a tie counting half) over the worlds it
cannot tell apart, the first in equity order among equals; a move that empties the bag leads to
an endgame with both racks known, which the exact endgame search (``gd_endgame_search_window``)
answers with one search whose window holds only the spread that would tie. A move that leaves
tiles in the bag (the pass, or fewer tiles than the bag holds) leads to the opponent's own
decision, made the same way over the worlds *it* cannot tell apart. Exchanges are not candidates.

Everything is exact: probabilities are fractions, every world and every draw is valued, and a
candidate is dropped only once it is proven unable to beat the best so far (its wins plus
everything its remaining worlds could add are no more than the best's). The decisions the
players make deeper down are remembered by what the player can see, the endgames by their
position, and the endgame table is kept from one endgame to the next.

    search = PreendgameSearch(game, leaves=table)
    result = search.run(time_limit=30, progress=print)
    print(result.best.move, result.best.win)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from fractions import Fraction
from math import comb
from types import SimpleNamespace
from typing import TYPE_CHECKING

from .. import _core_api as core
from ..board import tiles_text
from ..move import KIND_EXCHANGE, KIND_PASS, MOVE_RECORD, Move
from ..rack import tiles_of_counts
from .endgame import MAX_THREADS, endgame_lexicon
from .play import Game
from .preendgame_halving import HALVING_FROM_BAG, SuccessiveHalving
from .preendgame_lent import LentRoot
from .preendgame_model import (
    DROPPED,
    ESTIMATED,
    EXACT,
    RULED_OUT,
    PreendgameCandidate,
    PreendgameError,
    PreendgameResult,
    World,
    _add,
    _Decision,
    _Interrupted,
    _OverBudget,
    _Root,
    _sub,
    sub_multisets,
)
from .preendgame_threads import PROGRESS_SECONDS, ThreadedRoot, _Context

if TYPE_CHECKING:
    from ..formats.leaves import Leaves

MAX_BAG = 6
METHODS = ("auto", "exact", "halving")  # auto: exact with 1 or 2 in the bag, halving from 3
# where the exact model runs: the core (gd_peg_value), or the Python below (the expected spread and
# the estimate use it; the tests hold the two to each other)
ENGINES = ("core", "python")
SLICE_NODES = 50_000  # endgame positions per call into the core between checks of the clock
ENDGAME_DEPTH = 64
PREENDGAME_TABLE_BYTES = 1 << 26  # 64 MiB: the endgames of a pre-endgame share one table
# Endgame positions a world may take in each pass but the last (which has no limit): the cheap
# worlds of every candidate first, so costly endgames wait until a candidate might be the best.
WORLD_BUDGETS = (50_000, 400_000, 3_200_000)
_ON_BOARD = 64
_BLANK = 128
_HALF = Fraction(1, 2)


class PreendgameSearch(ThreadedRoot, LentRoot):
    """The pre-endgame of ``game``'s position for its player to move (1 to 6 tiles in the bag).
    The opponent's rack in ``game`` is ignored: only the unseen tiles count. ``leaves`` gives
    the equity order of the candidates (ties between equal probabilities go to the first);
    without it they are ordered by score."""

    def __init__(
        self,
        game: Game,
        *,
        leaves: Leaves | None = None,
        table_bytes: int = PREENDGAME_TABLE_BYTES,
        prune: bool = True,
        slice_nodes: int = SLICE_NODES,
        threads: int = 1,
        method: str = "auto",
        seed: int = 0,
        engine: str = "core",
    ) -> None:
        if engine not in ENGINES:
            raise PreendgameError(f"the engine is one of {', '.join(ENGINES)}, not {engine!r}")
        if not 1 <= threads <= MAX_THREADS:
            raise PreendgameError(f"threads must be 1 to {MAX_THREADS}, not {threads}")
        if method not in METHODS:
            raise PreendgameError(f"the method is one of {', '.join(METHODS)}, not {method!r}")
        if game.over:
            raise PreendgameError("the game is over")
        if game.bag_count == 0:
            raise PreendgameError("the bag is empty: this is an endgame (gaddag-solver endgame)")
        if game.bag_count > MAX_BAG:
            raise PreendgameError(
                f"the pre-endgame takes 1 to {MAX_BAG} tiles in the bag, not {game.bag_count} "
                "(simulate instead)"
            )
        if leaves is not None and leaves.rules.name != game.rules.name:
            raise PreendgameError(
                f"the leave table is for the {leaves.rules.name} rules, not {game.rules.name}"
            )
        self.game = game
        self._engine = engine
        self.rules = game.rules
        self._rules = game._rules
        self._leaves = None if leaves is None else leaves.core
        self._letters = len(self.rules.alphabet.letters)
        self._values = [self.rules.blank_value, *self.rules.values]
        mover = game.to_move
        self._mine = core.game_rack(game._state, mover)
        self._unseen = bytes(core.game_unseen(game._state, mover))
        self._bag = game.bag_count
        if sum(self._unseen) <= self._bag:
            raise PreendgameError("the opponent holds no tiles: the game is over")
        scores = game.scores
        self._spread = scores[mover] - scores[1 - mover]
        self._board = core.game_board(game._state, self.rules.rows * self.rules.cols)
        self._scoreless = game.scoreless_turns
        own = endgame_lexicon(game, _add(self._mine, self._unseen)) if prune else None
        self.lexicon = game.lexicon if own is None else own
        self._lex = self.lexicon._core
        # one context a thread: the first is the calling thread's (docs/preendgame.md, "Threads")
        self._contexts = [_Context() for _ in range(threads)]
        self._local = threading.local()
        self._local.context = self._contexts[0]
        self._lock = threading.Lock()  # the root candidates' standing, shared by the threads
        self._peg_lock = threading.Lock()  # the model's table in the core, made once for all threads
        self._table_bytes = table_bytes
        self._slice_nodes = slice_nodes
        self._moves: dict[tuple[bytes, bytes, int], list[bytes]] = {}
        self._worlds: dict[tuple[bytes, int], list[World]] = {}
        self._decisions: dict[tuple[object, ...], _Decision] = {}
        self._leaf: dict[tuple[object, ...], Fraction] = {}
        self._exact: dict[tuple[object, ...], int] = {}  # endgames' exact values, for the spread
        self._root_worlds = self._split(self._unseen, self._bag)
        self._total_weight = weight = sum(w.weight for w in self._root_worlds)
        self._root = [_Root(r, weight) for r in self._candidates(self._board, self._mine, self._bag)]
        # what the candidates valued so far lost in each world (weighted): see _worlds_in_order
        self._lost = {world.opponent: Fraction(0) for world in self._root_worlds}
        self._world_order: list[World] | None = list(self._root_worlds)
        halving = method == "halving" or (method == "auto" and self._bag >= HALVING_FROM_BAG)
        self._halving = SuccessiveHalving(self, seed) if halving else None
        self._pass = 1  # passes 1.. use WORLD_BUDGETS, the last values the worlds left over
        self._floor: tuple[Fraction, int] | None = None  # the highest lower bound, and whose
        self._next = 0  # the next root candidate of this pass no thread has taken
        self._retry: list[int] = []  # candidates taken in this pass but interrupted: taken again
        self._active: list[int] = []  # candidates a thread is valuing now (another may help)
        self._valuing: set[tuple[int, bytes]] = set()  # (candidate, world) a thread is valuing now
        self._skipped: set[tuple[int, bytes]] = set()  # ... found over this pass's budget
        self._spent: dict[tuple[int, bytes], int] = {}  # ... cut short: positions taken of the budget
        self._moves_shown: list[Move] | None = None
        self._worlds_shown: list[tuple[str, str]] = []
        self._best: int | None = None
        self._stop = False
        self._deadline: float | None = None
        self._failure: BaseException | None = None  # a helper thread's error, raised by run()
        self._halt = False  # the helper threads stop: the pass was cut short
        self._helpers: list[threading.Thread] = []
        self._helpers_wanted: tuple[int, float] | None = None  # (budget, started) to start them with
        self.elapsed = 0.0
        self._init_lent()

    @property
    def threads(self) -> int:
        return len(self._contexts)

    @property
    def nodes(self) -> int:
        """Endgame positions visited, by every thread and every helper lent to."""
        return sum(c.nodes for c in self._contexts) + self._lent_counts[0]

    @property
    def endgames(self) -> int:
        """Endgames searched, by every thread and every helper lent to."""
        return sum(c.endgames for c in self._contexts) + self._lent_counts[1]

    @property
    def method(self) -> str:
        """How this search answers: "exact", or "halving" (the estimate, from 3 in the bag)."""
        return "exact" if self._halving is None else "halving"

    def standing(self) -> PreendgameResult:
        """The standing as it is, without searching (e.g. after values taken back from helpers)."""
        return self._result("running", time.perf_counter())

    def _context(self) -> _Context:
        return self._local.context

    def _pass_budget(self) -> int:
        """Endgame positions a world may take in the pass being made (0: no limit)."""
        return WORLD_BUDGETS[self._pass - 1] if self._pass <= len(WORLD_BUDGETS) else 0

    def _passes_done(self) -> bool:
        return self._pass > len(WORLD_BUDGETS) + 1

    # ---- the model ---------------------------------------------------------------------------------

    def _split(self, unseen: bytes, bag: int) -> list[World]:
        """The worlds of ``unseen`` tiles with ``bag`` of them in the bag, heaviest first."""
        key = (unseen, bag)
        if key not in self._worlds:
            held = sum(unseen) - bag
            worlds = [World(rack, _sub(unseen, rack), w) for rack, w in sub_multisets(unseen, held)]
            worlds.sort(key=lambda world: (-world.weight, world.opponent))
            self._worlds[key] = worlds
        return self._worlds[key]

    def _candidates(self, board: bytes, rack: bytes, bag: int) -> list[bytes]:
        """The plays and the pass of ``rack`` on ``board``, in equity order (by score without a
        leave table), ties by the move itself, so the order is the same everywhere."""
        key = (board, rack, bag)
        found = self._moves.get(key)
        if found is None:
            valuation = SimpleNamespace(
                leaves=self._leaves, bag=bag, opponent_rack_value=0, exchanges=True,
                by_equity=self._leaves is not None,
            )  # fmt: skip
            workspace = self._context().workspace
            core.prepare(self._lex, self._rules, workspace, board)
            _count, records = core.generate_equity(self._lex, self._rules, workspace, rack, valuation)
            size = MOVE_RECORD.size
            moves = [records[i : i + size] for i in range(0, len(records), size)]
            moves = [m for m in moves if m[13] != KIND_EXCHANGE]  # the kind byte
            by = 1 if self._leaves is not None else 0  # the equity field, else the score
            moves.sort(key=lambda m: (-MOVE_RECORD.unpack_from(m)[by], m[8:]))
            self._moves[key] = found = moves
        return found

    def _rack_value(self, rack: bytes) -> int:
        return sum(
            n * v for n, v in zip(rack, self._values, strict=False)
        )  # the rack's 64 codes: only the alphabet's count

    def _place(self, board: bytes, rack: bytes, record: bytes) -> tuple[bytes, bytes, int, int]:
        """The board and rack after a play or the pass, its score and the tiles it placed."""
        score, _equity, row, col, direction, length, placed, kind, word = MOVE_RECORD.unpack(record)
        if kind == KIND_PASS:
            return board, rack, 0, 0
        cols = self.rules.cols
        squares, left = bytearray(board), bytearray(rack)
        for k in range(length):
            code = word[k]
            if code & _ON_BOARD:
                continue
            square = (row + (0 if direction == 0 else k)) * cols + col + (k if direction == 0 else 0)
            squares[square] = code
            left[0 if code & _BLANK else code & 63] -= 1
        return bytes(squares), bytes(left), score, placed

    def _outcome(self, spread: int) -> Fraction:
        return Fraction(1) if spread > 0 else _HALF if spread == 0 else Fraction(0)

    def _decide(
        self, board: bytes, mine: bytes, unseen: bytes, bag: int, spread: int, scoreless: int
    ) -> _Decision:
        """The move the player to move makes, seeing ``mine`` and the ``unseen`` tiles with
        ``bag`` of them in the bag, and that move's outcome in each world."""
        key = (board, mine, unseen, bag, spread, scoreless)
        decision = self._decisions.get(key)
        if decision is not None:
            return decision
        worlds = self._split(unseen, bag)
        total_weight = sum(w.weight for w in worlds)
        best: _Decision | None = None
        best_total = Fraction(-1)
        for record in self._candidates(board, mine, bag):
            values: dict[bytes, Fraction] = {}
            total, left = Fraction(0), total_weight
            for world in worlds:
                v = self._move_value(board, mine, world.opponent, world.bag, spread, scoreless, record)
                values[world.opponent] = v
                total += world.weight * v
                left -= world.weight
                if total + left <= best_total:
                    break  # it cannot beat the best (and ties go to the first)
            else:
                if total > best_total:
                    best, best_total = _Decision(record, values), total
                    if best_total == total_weight:
                        break  # a certain win: nothing comes before it
        assert best is not None  # the pass is always a candidate
        self._decisions[key] = best
        return best

    def _move_value(
        self,
        board: bytes,
        mine: bytes,
        theirs: bytes,
        bag: bytes,
        spread: int,
        scoreless: int,
        record: bytes,
        by_equity: bool = False,
    ) -> Fraction:
        """The expected outcome of ``record`` for the player to move in one world (its rack
        ``mine``, the opponent's ``theirs``, the bag ``bag``), over the tiles it draws. With
        ``by_equity`` (the estimate of docs/preendgame.md, "3 to 6 in the bag") each later move
        made while the bag holds tiles is its player's best by equity, not the model's decision."""
        after, kept, score, placed = self._place(board, mine, record)
        spread += score
        scoreless = scoreless + 1 if score == 0 else 0
        in_bag = sum(bag)
        drawing = min(placed, in_bag)
        value = Fraction(0)
        ways = comb(in_bag, drawing)
        for drawn, w in sub_multisets(bag, drawing):
            rack, left = _add(kept, drawn), _sub(bag, drawn)
            if scoreless >= self.rules.scoreless_turns:
                outcome = self._outcome(spread - self._rack_value(rack) + self._rack_value(theirs))
            elif not any(left):
                outcome = 1 - self._endgame(after, theirs, rack, -spread, scoreless)
            elif by_equity:
                reply = self._candidates(after, theirs, in_bag - drawing)[0]
                outcome = 1 - self._move_value(after, theirs, rack, left, -spread, scoreless, reply, True)
            else:
                decision = self._decide(after, theirs, _add(rack, left), in_bag - drawing, -spread, scoreless)
                outcome = 1 - decision.values[rack]
            value += Fraction(w, ways) * outcome
        return value

    def _root_value(self, world: World, record: bytes, by_equity: bool = False) -> Fraction:
        """The expected outcome of a root candidate in one world (:meth:`_move_value`; in the core
        unless asked otherwise)."""
        if self._engine == "core" and not by_equity:
            return self._core_value(world, record)
        here = (self._board, self._mine, world.opponent, world.bag, self._spread, self._scoreless)
        return self._move_value(*here, record, by_equity)

    def _core_value(self, world: World, record: bytes) -> Fraction:
        """:meth:`_move_value` in the core (gd_peg_value), a slice of endgame positions at a time
        so that the clock and stop() are checked between slices."""
        context = self._context()
        peg = self._core_peg(context)
        here = (self._board, self._mine, world.opponent, world.bag, self._spread, self._scoreless)
        while True:
            self._check_clock()
            budget = 0
            if context.budget:
                if context.budget_left <= 0:
                    raise _OverBudget
                budget = context.budget_left
            try:
                found = core.peg_value(peg, *here, record, budget, self._slice_nodes)
            except core.CoreError as error:
                raise PreendgameError(f"the pre-endgame failed: {error}") from None
            context.nodes += found.nodes
            context.endgames += found.endgames
            context.budget_left -= found.nodes
            if found.status == core.lib.GD_PEG_DONE:
                return Fraction(found.value, core.PEG_UNIT)
            if found.status == core.lib.GD_PEG_OVER_BUDGET:
                raise _OverBudget

    def _core_peg(self, context: _Context) -> core.PegState:
        """``context``'s model in the core, searching its endgames in the context's endgame search
        (started, when it is not yet, on the root board with the first world's racks and the bag set
        aside: every endgame restarts it); every thread's shares the calling thread's table."""
        if context.peg is None:
            if context.eg_state is None:
                world = self._root_worlds[0]
                self._enter_endgame(context, self._board, self._mine, world.opponent, self._scoreless)
            first = self._contexts[0]
            with self._peg_lock:  # one table for every thread: the first to get here makes it
                if first.peg is None:
                    first.peg = core.peg_start(self._lex, self._rules, self._leaves, first.eg_state)
                if context.peg is None:
                    context.peg = core.peg_share(first.peg, context.eg_state)
        return context.peg

    # ---- the endgames ------------------------------------------------------------------------------

    def _endgame(self, board: bytes, mine: bytes, theirs: bytes, spread: int, scoreless: int) -> Fraction:
        """The outcome for the player to move of the endgame (the bag empty) it enters with
        ``spread`` points ahead: one search with a window around the spread that ties."""
        key = (board, mine, theirs, spread, scoreless)
        outcome = self._leaf.get(key)
        if outcome is not None:
            return outcome
        context = self._context()
        eg_state = self._enter_endgame(context, board, mine, theirs, scoreless)
        tie = -spread  # the endgame's value that would tie the game
        while True:
            self._check_clock()
            limit = self._slice_nodes
            if context.budget:
                if context.budget_left <= 0:
                    raise _OverBudget
                limit = min(limit, context.budget_left)
            found = core.endgame_search(eg_state, ENDGAME_DEPTH, limit, window=(tie - 1, tie + 1))
            context.nodes += found.nodes
            context.budget_left -= found.nodes
            if not found.stopped:
                break
        if not found.complete:
            raise PreendgameError("an endgame did not reach the end of the game within 64 plies")
        context.endgames += 1
        if found.bound == core.lib.GD_BOUND_LOWER:
            outcome = Fraction(1)
        elif found.bound == core.lib.GD_BOUND_UPPER:
            outcome = Fraction(0)
        else:
            outcome = _HALF
        self._leaf[key] = outcome
        return outcome

    def _enter_endgame(
        self, context: _Context, board: bytes, mine: bytes, theirs: bytes, scoreless: int
    ) -> core.EndgameState:
        """``context``'s endgame search set to the position (the bag empty, ``mine`` to move)."""
        state = context.leaf_state
        try:
            core.game_from_position(state, self._rules, board, (mine, theirs), (0, 0), 0, 0)
        except core.CoreError as error:
            raise PreendgameError(f"an endgame of the pre-endgame cannot be set up: {error}") from None
        state.game.scoreless = scoreless
        state.game.bag_count = 0  # the tiles not on the board or the racks: none, but at the root
        if context.eg_state is None:
            size = self._table_bytes
            context.eg_state = core.endgame_start(self._lex, self._rules, state, table_bytes=size)
            if self._helpers_wanted is not None and context is self._contexts[0]:
                self._start_helpers()  # now that there is a table to share
        else:
            core.endgame_restart(context.eg_state, state)
        return context.eg_state

    def _check_clock(self) -> None:
        if self._stop or self._halt or (self._deadline is not None and time.perf_counter() >= self._deadline):
            raise _Interrupted

    # ---- the root ----------------------------------------------------------------------------------

    # ---- the expected spread ---------------------------------------------------------------------

    def expected_spread(self, index: int, time_limit: float | None = None) -> Fraction | None:
        """The expected final spread (points, for the player to move) of a root candidate valued
        in every world, both sides then playing as the model decides (by the chance of winning);
        the endgames are valued exactly (full searches, far costlier than the win tests). None
        when the candidate is not exact yet or the time runs out."""
        root = self._root[index]
        if root.status != EXACT:
            return None
        self._local.context = self._contexts[0]
        self._stop = False
        self._deadline = None if time_limit is None else time.perf_counter() + time_limit
        total, weight = Fraction(0), 0
        try:
            for world in self._root_worlds:
                here = (self._board, self._mine, world.opponent, world.bag, self._spread, self._scoreless)
                total += world.weight * self._move_spread(*here, root.record)
                weight += world.weight
        except _Interrupted:
            return None
        return total / weight

    def _move_spread(
        self, board: bytes, mine: bytes, theirs: bytes, bag: bytes, spread: int, scoreless: int, record: bytes
    ) -> Fraction:
        """:meth:`_move_value`'s line, valued by the final spread instead of the outcome."""
        after, kept, score, placed = self._place(board, mine, record)
        spread += score
        scoreless = scoreless + 1 if score == 0 else 0
        in_bag = sum(bag)
        drawing = min(placed, in_bag)
        ways = comb(in_bag, drawing)
        value = Fraction(0)
        for drawn, w in sub_multisets(bag, drawing):
            rack, left = _add(kept, drawn), _sub(bag, drawn)
            if scoreless >= self.rules.scoreless_turns:
                final = spread - self._rack_value(rack) + self._rack_value(theirs)
            elif not any(left):
                final = spread - self._endgame_value(after, theirs, rack, scoreless)
            else:
                decision = self._decide(after, theirs, _add(rack, left), in_bag - drawing, -spread, scoreless)
                final = -self._move_spread(after, theirs, rack, left, -spread, scoreless, decision.record)
            value += Fraction(w, ways) * final
        return value

    def _endgame_value(self, board: bytes, mine: bytes, theirs: bytes, scoreless: int) -> int:
        """The exact endgame value (the spread the player to move gains to the end)."""
        key = (board, mine, theirs, scoreless)
        found = self._exact.get(key)
        if found is not None:
            return found
        context = self._context()
        eg_state = self._enter_endgame(context, board, mine, theirs, scoreless)
        while True:
            self._check_clock()
            result = core.endgame_search(eg_state, ENDGAME_DEPTH, self._slice_nodes)
            context.nodes += result.nodes
            if not result.stopped:
                break
        self._exact[key] = result.value
        return result.value

    def stop(self) -> None:
        """Ask a running search to stop soon (within an endgame slice); its work so far stands."""
        self._stop = True

    def run(
        self,
        time_limit: float | None = None,
        progress: Callable[[PreendgameResult], object] | None = None,
    ) -> PreendgameResult:
        """Value the candidates in equity order until each is exact or ruled out, ``time_limit``
        seconds pass or :meth:`stop`; calling it again goes on where it stopped. ``progress`` is
        called with the standing after a candidate, at most every PROGRESS_SECONDS.

        In passes: each values every candidate in the worlds whose value takes at most that
        pass's WORLD_BUDGETS endgame positions, the last the worlds left over. A candidate is
        ruled out as soon as its bounds allow (below another's lower bound, or no better than
        the best), so a costly endgame is searched only while the candidate might be the best."""
        self._local.context = self._contexts[0]  # the calling thread is the first
        self._stop = False
        started = time.perf_counter()
        self._deadline = None if time_limit is None else started + time_limit
        reason = "solved"
        if self._halving is not None:
            return self._run_halving(started, progress)
        try:
            while not self._passes_done():
                self._run_pass(self._pass_budget(), started, progress)
                self._pass += 1
                self._next = 0
                self._skipped.clear()
                self._spent.clear()
                self._lend_again()
        except _Interrupted:
            reason = "stopped" if self._stop else "time"
        return self._result(reason, started, final=True)

    def _run_halving(
        self, started: float, progress: Callable[[PreendgameResult], object] | None
    ) -> PreendgameResult:
        """run() for the estimate (preendgame_halving.py), on the calling thread."""
        assert self._halving is not None
        reported = [started]

        def on_world() -> None:
            if progress is not None and time.perf_counter() - reported[0] >= PROGRESS_SECONDS:
                progress(self._result("running", started))
                reported[0] = time.perf_counter()

        reason = "estimated"
        try:
            self._halving.step(on_world)
        except _Interrupted:
            reason = "stopped" if self._stop else "time"
        return self._result(reason, started, final=True)

    # ---- the root candidates -----------------------------------------------------------------------

    def value_candidate(self, index: int, time_limit: float | None = None) -> PreendgameCandidate:
        """Value one candidate (its index in the equity order) in every world, even one ruled
        out, e.g. the move a player made; the best stands (a ruled-out move cannot beat it)."""
        self._local.context = self._contexts[0]
        self._stop = False
        started = time.perf_counter()
        self._deadline = None if time_limit is None else started + time_limit
        root = self._root[index]
        try:
            for world in self._root_worlds:
                if world.opponent not in root.values:
                    self._record(index, world, self._root_value(world, root.record))
            if self._best is not None and not self._passes_done():  # it may be the best
                self._settle_exact(index)
            else:
                root.status = EXACT
        except _Interrupted:
            pass
        return self._result("running", started, final=True).candidates[index]

    def _record(self, index: int, world: World, value: Fraction) -> None:
        """A root candidate's value in one world; the highest lower bound kept up to date."""
        with self._lock:
            root = self._root[index]
            root.add(world, value)
            if value < 1:
                self._lost[world.opponent] += world.weight * (1 - value)
                self._world_order = None
            if self._floor is None or root.total > self._floor[0]:
                self._floor = (root.total, index)

    def _ruled_out(self, index: int) -> bool:
        """Whether a candidate cannot become the best: at most the best's outcome, and after it
        in the order when equal (ties go to the first). Marks it ruled out when so."""
        with self._lock:
            root = self._root[index]
            high = root.total + root.left
            bar = self._bar(index)
            if bar is not None and (high < bar[0] or (high == bar[0] and bar[1])):
                root.status = RULED_OUT
            return root.status == RULED_OUT

    def _bar(self, index: int) -> tuple[Fraction, bool] | None:
        """What a candidate must beat to stay in the running: (a figure, whether reaching it
        exactly is not enough), or None while nothing is known to beat. Under the lock."""
        bars = []
        if self._floor is not None and self._floor[1] != index:
            bars.append((self._floor[0], False))  # another is sure to reach it
        if self._best is not None and self._best != index:  # ties go to the first in the order
            bars.append((self._root[self._best].total, index > self._best))
        return max(bars) if bars else None

    def _settle_exact(self, index: int) -> None:
        """A candidate valued in every world: exact, and the best if it beats the best so far."""
        with self._lock:
            root = self._root[index]
            root.status = EXACT
            if self._best is None:
                self._best = index
                return
            best_total = self._root[self._best].total
            if root.total > best_total or (root.total == best_total and index < self._best):
                self._best = index

    def _value_root(self, index: int, budget: int) -> None:
        """Value a root candidate in the worlds not yet valued (with ``budget``: those that
        take at most that many endgame positions each), then settle its status."""
        root = self._root[index]
        context = self._context()
        while not self._ruled_out(index):
            with self._lock:
                world = self._take_world(index)
            if world is None:
                break
            taken = (index, world.opponent)
            with self._lock:  # what it took before it was cut short counts against its budget
                context.budget, context.budget_left = budget, budget - self._spent.pop(taken, 0)
            try:
                v = self._root_value(world, root.record)
            except _OverBudget:
                with self._lock:
                    self._skipped.add(taken)  # valued in a later pass, if still in the running
                continue
            except _Interrupted:
                if budget:
                    with self._lock:
                        self._spent[taken] = budget - context.budget_left
                raise
            finally:
                context.budget = 0
                with self._lock:
                    self._valuing.discard(taken)
            self._record(index, world, v)
        if not self._ruled_out(index) and not root.left:
            self._settle_exact(index)

    def _result(self, reason: str, started: float, final: bool = False) -> PreendgameResult:
        now = time.perf_counter()
        elapsed = self.elapsed + (now - started)
        if final:
            self.elapsed = elapsed
        worlds = self._root_worlds
        total_weight = sum(w.weight for w in worlds)
        if self._moves_shown is None:  # once: Moves and the worlds' tiles as text
            board, rack = self.game.board, self.game.rack()
            solver = self.game.solver
            self._moves_shown = [
                solver.moves_from_records(r.record, board, rack, valued=True)[0] for r in self._root
            ]
            self._worlds_shown = [(self._tiles(w.bag), self._tiles(w.opponent)) for w in worlds]
        candidates = []
        with self._lock:  # a standing as of one moment, though helper threads may be valuing
            for root, move in zip(self._root, self._moves_shown, strict=True):
                known, left = root.total, root.left
                shown = [
                    (bag, rack, w.weight, root.values.get(w.opponent))
                    for (bag, rack), w in zip(self._worlds_shown, worlds, strict=True)
                ]
                estimated = root.status in (ESTIMATED, DROPPED) and left < total_weight
                candidates.append(
                    PreendgameCandidate(
                        move,
                        root.status,
                        known / total_weight,
                        (known + left) / total_weight,
                        shown,
                        known / (total_weight - left) if estimated else None,
                        len(root.values),
                    )  # fmt: skip
                )
            best = self._best
        if self._halving is not None:
            complete = self._halving.finished
            return PreendgameResult(
                candidates, best, complete, self._bag, len(worlds), self.nodes, self.endgames, elapsed,
                "estimated" if complete else reason, "halving",
            )  # fmt: skip
        complete = self._passes_done()
        return PreendgameResult(
            candidates, best, complete, self._bag, len(worlds), self.nodes, self.endgames, elapsed,
            "solved" if complete else reason,
        )  # fmt: skip

    def _tiles(self, counts: bytes) -> str:
        return tiles_text(tiles_of_counts(counts, self.rules.alphabet.letters), self.rules.alphabet)


def solve_preendgame(
    game: Game,
    *,
    leaves: Leaves | None = None,
    time_limit: float | None = None,
    progress: Callable[[PreendgameResult], object] | None = None,
    prune: bool = True,
    threads: int = 1,
) -> PreendgameResult:
    """The pre-endgame of ``game`` (1 to 6 tiles in the bag) for its player to move: every
    candidate's probability of winning, exact or bounded, and the best (see :class:`PreendgameSearch`)."""
    return PreendgameSearch(game, leaves=leaves, prune=prune, threads=threads).run(time_limit, progress)
