"""Exact endgame search (docs/endgame.md): with the bag empty, the best line for the player to
move and the spread it gains by the end of the game.

The C core searches one depth at a time (``gd_endgame_search``) and keeps its transposition
table between depths; this module deepens until a search reaches the end of the game on every
line (the value is then exact), a time limit passes, or the caller stops it. Each depth is
searched in slices of a bounded number of positions, so a progress callback runs, and a stop or
time limit takes effect, within a fraction of a second even when one depth takes long; a slice
cut short is searched again, mostly from the table.

    game = Game.from_position(board, ["AEIN", "DGOR"], lexicon)   # the bag is then empty
    result = solve_endgame(game, time_limit=5)
    print(result.value, [str(m) for m in result.line], result.complete)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .. import _core_api as core
from ..board import Board
from ..lexicon import Lexicon
from ..move import Move
from .play import Game, GameError
from .threads import start_all

SLICE_NODES = 20_000  # positions per call into the core between progress reports
MAX_THREADS = 64
MAX_DEPTH = 64
# Depths searched one by one before a search to the end (MAX_DEPTH): the shallow searches fill
# the table with good first moves, after which one search to the end costs fewer positions than
# going on one ply at a time through the long lines that passes make (bench/endgame.py).
STEP_DEPTHS = 6
# The endgame's own lexicon (endgame_lexicon): found in at most this many steps (milliseconds;
# blanks on both racks can make it far more), and used when it holds at most this share of the
# game's lexicon.
PRUNE_STEP_LIMIT = 5_000_000
PRUNE_MAX_SHARE = 0.5
_LETTER_CODES = bytes(code & 63 for code in range(256))  # a letter's code without the blank flag


class EndgameError(GameError):
    """An endgame that cannot be searched (tiles in the bag, the game over, bad settings)."""


@dataclass(frozen=True)
class EndgameResult:
    """The best line found and what it is worth: ``value`` is the spread the player to move gains
    from now to the end of the game (going-out bonus and rack penalties included)."""

    value: int
    line: list[Move]  # the player to move's move first, then the opponent's, in turn
    depth: int  # plies of the last finished search
    complete: bool  # every line reached the end of the game: value and line are exact
    nodes: int  # positions visited, all depths
    elapsed: float
    reason: str  # "solved", "time", "depth", "stopped"

    @property
    def best(self) -> Move:
        return self.line[0]

    def to_dict(self) -> dict[str, object]:
        return {
            "value": self.value,
            "line": [str(m) for m in self.line],
            "depth": self.depth,
            "complete": self.complete,
            "nodes": self.nodes,
            "elapsed": round(self.elapsed, 3),
            "reason": self.reason,
        }


Progress = Callable[[EndgameResult], object] | None
Seconds = float | None


def both_racks(game: Game) -> bytes:
    """The tiles on the two racks together, counted by code ([0] the blanks)."""
    first, second = core.game_rack(game._state, 0), core.game_rack(game._state, 1)
    return bytes(a + b for a, b in zip(first, second, strict=True))


def endgame_lexicon(game: Game, tiles: bytes | None = None) -> Lexicon | None:
    """A lexicon of just the words the rest of ``game`` can form (its bag empty): those through
    a tile on the board with the other letters from the two racks, and those the racks alone
    spell. It generates the same plays as the game's lexicon for every position the endgame
    reaches, and far faster (docs/endgame.md). None when the racks could spell so many words
    that the full lexicon is as good (or finding them would take long: blanks on both racks).
    ``tiles`` (counts): the tiles still to be played, when not just the racks' (a pre-endgame
    gives both racks and the bag, which holds for every position after it)."""
    codes = core.game_board(game._state, game.rules.rows * game.rules.cols)
    if tiles is None:
        tiles = both_racks(game)
    lexicon = game.lexicon
    through_board = core.endgame_words(lexicon._core, game._rules, codes, tiles, PRUNE_STEP_LIMIT)
    if through_board is None:
        return None
    racks_alone = core.anagrams(lexicon._core, tiles, True).translate(_LETTER_CODES)
    words = set(through_board.split(b"\0")) | set(racks_alone.split(b"\0"))
    words.discard(b"")
    if not words or len(words) > PRUNE_MAX_SHARE * len(lexicon):
        return None
    data, _stats = core.build(
        b"\0".join(sorted(words)), len(lexicon.alphabet), lexicon.alphabet.header_bytes(), b"endgame"
    )
    return Lexicon(core.open_lexicon(data), f"{lexicon.source} (endgame words)", game.rules)


class EndgameSearch:
    """An endgame search of ``game``'s position (the bag must be empty; both racks are known)."""

    def __init__(
        self, game: Game, *, table_bytes: int = core.ENDGAME_TABLE_BYTES, prune: bool = True, threads: int = 1
    ) -> None:
        if not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise EndgameError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
        if game.over:
            raise EndgameError("the game is over")
        if game.bag_count:
            raise EndgameError(
                f"an endgame needs an empty bag: {game.bag_count} tiles are in it (simulate instead)"
            )
        self.game = game
        self.threads = threads
        self._stop = False
        self._nodes = 0
        self._elapsed = 0.0
        self._last: core.EndgameResult | None = None
        self._helpers: _Helpers | None = None  # while a search on several threads runs
        own = endgame_lexicon(game) if prune else None
        lexicon = game.lexicon if own is None else own
        try:
            self._state = core.endgame_start(lexicon._core, game._rules, game._state, table_bytes=table_bytes)
        except core.CoreError as error:
            raise EndgameError(str(error)) from None

    def stop(self) -> None:
        """Ask a running search to stop after the current slice; the last finished depth stands."""
        self._stop = True

    def deepen(
        self, max_depth: int = MAX_DEPTH, time_limit: float | None = None, slice_nodes: int = SLICE_NODES
    ) -> Iterator[EndgameResult]:
        """Search depth 1, 2, 3, ... yielding the result of each finished depth, until one is
        complete (exact), ``max_depth`` is reached, ``time_limit`` seconds pass or :meth:`stop`."""
        if not 1 <= max_depth <= MAX_DEPTH:
            raise EndgameError(f"max_depth must be from 1 to {MAX_DEPTH}, not {max_depth}")
        self._stop = False
        if self._last is not None and self._last.complete:
            yield self._result("solved")
            return
        helpers = self._helpers = _Helpers(self._state, self.threads - 1, max_depth, slice_nodes)
        try:
            yield from self._deepen(max_depth, time_limit, slice_nodes, helpers)
        finally:
            helpers.finish()
            self._nodes += helpers.nodes
            self._helpers = None

    def _deepen(
        self, max_depth: int, time_limit: float | None, slice_nodes: int, helpers: _Helpers
    ) -> Iterator[EndgameResult]:
        started = time.perf_counter()
        deadline = None if time_limit is None else started + time_limit
        depth = 1 if self._last is None else self._last.depth + 1
        while depth <= max_depth:
            while True:
                if self._stop or (deadline is not None and time.perf_counter() >= deadline):
                    self._elapsed += time.perf_counter() - started
                    started = time.perf_counter()
                    if self._last is not None:
                        yield self._result("stopped" if self._stop else "time")
                    return
                if helpers.solved is not None:
                    found = helpers.solved  # a helper finished the search to the end first
                    break
                try:
                    found = core.endgame_search(self._state, depth, slice_nodes)
                except core.CoreError as error:
                    raise EndgameError(str(error)) from None
                self._nodes += found.nodes
                if not found.stopped:
                    break
            helpers.raise_failure()
            self._last = found
            now = time.perf_counter()
            self._elapsed += now - started
            started = now
            if found.complete:
                yield self._result("solved")
                return
            yield self._result("depth" if depth == max_depth else "running")
            depth = next_depth(depth, max_depth)

    def first_moves(self, records: list[bytes] | None, exclude: bool = False) -> None:
        """Search only these first moves (gd_move records), or with ``exclude`` all but these
        (None: every move again). The search starts afresh; its table is kept."""
        try:
            core.endgame_root_moves(self._state, records or [], exclude=exclude or records is None)
        except core.CoreError as error:
            raise EndgameError(str(error)) from None
        self._last = None

    def value_of(self, move: Move, time_limit: Seconds = None, progress: Progress = None) -> EndgameResult:
        """The best line that starts with ``move`` (a move of the player to move) and its value:
        exact when complete. Every first move is searched again afterwards."""
        self.first_moves([move.record(self.game.rules)])
        try:
            return self.run(MAX_DEPTH, time_limit, progress)
        finally:
            self.first_moves(None)

    def best_moves(
        self, count: int, time_limit: float | None = None, progress: Progress = None
    ) -> list[EndgameResult]:
        """The best ``count`` first moves, best first, each with its best line and its value
        (exact when complete): the best, then the best of the others, and so on. Stops early
        at the time limit (counted for all of them) or when no move is left."""
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        found: list[EndgameResult] = []
        taken: list[bytes] = []
        try:
            while len(found) < count:
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                self.first_moves(taken, exclude=True)
                try:
                    result = self.run(MAX_DEPTH, left, progress)
                except EndgameError:
                    if taken and not self._stop:
                        break  # every move has been listed
                    raise
                found.append(result)
                if not result.complete or not result.line or self._last is None:
                    break
                taken.append(self._last.line[0])
        finally:
            self.first_moves(None)
        return found

    def _result(self, reason: str) -> EndgameResult:
        assert self._last is not None
        return EndgameResult(
            self._last.value,
            self._line(self._last.line),
            self._last.depth,
            self._last.complete,
            self._nodes + (self._helpers.nodes if self._helpers else 0),
            self._elapsed,
            reason,
        )

    def _line(self, records: list[bytes]) -> list[Move]:
        """The line's moves, each read on the board and rack it is played from."""
        game = self.game
        board: Board = game.board
        racks = list(game.racks)
        mover = game.to_move
        moves: list[Move] = []
        for record in records:
            move = game.solver.moves_from_records(record, board, racks[mover], valued=False)[0]
            moves.append(move)
            if move.is_play:
                board = board.play(move)
                racks[mover] = racks[mover].remove(move.tiles_used)
            mover = 1 - mover
        return moves

    def run(
        self,
        max_depth: int = MAX_DEPTH,
        time_limit: float | None = None,
        progress: Callable[[EndgameResult], object] | None = None,
    ) -> EndgameResult:
        """Deepen as :meth:`deepen` does, calling ``progress`` with each depth's result; the last."""
        result = None
        for result in self.deepen(max_depth, time_limit):
            if progress is not None:
                progress(result)
        if result is None:
            raise EndgameError("the search was stopped before it finished depth 1")
        return result


def next_depth(depth: int, max_depth: int) -> int:
    """The depth searched after ``depth``: one more up to STEP_DEPTHS, then ``max_depth`` (the
    end, by default); past ``max_depth`` once that has been searched."""
    return depth + 1 if depth < STEP_DEPTHS or depth >= max_depth else max_depth


class _Helpers:
    """The helper threads of a search on several threads: each searches the same position with a
    state of its own sharing the main state's table (core.endgame_share), depth after depth as the
    main thread does. The core marks the positions being searched so that the threads mostly
    search different moves, and each finds what the others stored (docs/endgame.md, "Threads").
    A helper that finishes a search to the end of the game first hands its result over: its value
    is the exact value, as every complete search's is."""

    def __init__(self, main: core.EndgameState, count: int, max_depth: int, slice_nodes: int) -> None:
        self.solved: core.EndgameResult | None = None
        self.failure: core.CoreError | None = None
        self._nodes = [0] * count
        self._halt = threading.Event()
        self._threads = [
            threading.Thread(
                target=self._run, args=(core.endgame_share(main), k, max_depth, slice_nodes), daemon=True
            )
            for k in range(count)
        ]
        start_all(self._threads)

    @property
    def nodes(self) -> int:
        return sum(self._nodes)

    def _run(self, state: core.EndgameState, k: int, max_depth: int, slice_nodes: int) -> None:
        depth = 1
        try:
            while not self._halt.is_set():
                found = core.endgame_search(state, depth, slice_nodes)
                self._nodes[k] += found.nodes
                if found.stopped:
                    continue
                if found.complete:
                    if self.solved is None:
                        self.solved = found
                    return
                if depth == max_depth:
                    return
                depth = next_depth(depth, max_depth)
        except core.CoreError as error:
            self.failure = error

    def raise_failure(self) -> None:
        if self.failure is not None:
            raise EndgameError(str(self.failure)) from None

    def finish(self) -> None:
        """Stop the helpers (each within a slice) and wait for them."""
        self._halt.set()
        for thread in self._threads:
            thread.join()


def find_move(game: Game, text: str) -> Move:
    """The move of the player to move written as ``text``: "8D WORD" or "D8 WORD" (a blank's
    letter in lower case; letters already on the board included), "pass". A GameError says why
    when no move of the rack is written so."""
    wanted = " ".join(text.split())
    moves = game.moves()
    if wanted.lower() == "pass":
        return next(m for m in moves if m.kind == "pass")
    plays = [m for m in moves if m.is_play]
    exact = [m for m in plays if f"{m.coord} {m.word}" == wanted]
    if exact:
        return exact[0]
    loose = [m for m in plays if f"{m.coord} {m.word}".upper() == wanted.upper()]
    if len(loose) == 1:
        return loose[0]
    if loose:
        raise GameError(f"{text!r} is ambiguous (blanks): {', '.join(str(m) for m in loose[:5])}")
    raise GameError(f"{text!r} is not a play of the rack {game.rack()} here (write '8D WORD' or 'pass')")


def solve_endgame(
    game: Game,
    *,
    max_depth: int = MAX_DEPTH,
    time_limit: float | None = None,
    progress: Callable[[EndgameResult], object] | None = None,
    prune: bool = True,
    threads: int = 1,
) -> EndgameResult:
    """The best line for the player to move in ``game`` (the bag empty) and the spread it gains:
    exact when ``result.complete``, else the best found by the deepest finished search.
    ``prune``: search with the endgame's own lexicon (:func:`endgame_lexicon`), the same plays
    found faster. ``threads``: threads searching together (the value of a complete search is the
    same for any number; an incomplete one's may differ)."""
    return EndgameSearch(game, prune=prune, threads=threads).run(max_depth, time_limit, progress)
