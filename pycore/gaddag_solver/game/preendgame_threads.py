"""The pre-endgame on several threads (docs/preendgame.md, "Threads"): the threads take the root
candidates of a pass one after another, and once none is left to take, the worlds of those still
being valued; each thread has a context of its own (a workspace, an endgame search: with the
model in Python sharing the calling thread's table, with the model in the core a table of its
own, the model's table being shared), the rest is shared. PreendgameSearch takes these methods from
ThreadedRoot; they use its attributes (the root candidates, the lock, the passes' bookkeeping)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from .. import _core_api as core
from .preendgame_model import PENDING, PreendgameResult, World, _Interrupted
from .threads import start_all

PROGRESS_SECONDS = 0.2


class _Context:
    """What one thread of the search works with: a move generator's workspace, the endgame search
    (see the module's docstring for its table), the budget of the world it values, its counters."""

    __slots__ = ("workspace", "leaf_state", "eg_state", "peg", "budget", "budget_left", "nodes", "endgames")

    def __init__(self) -> None:
        self.workspace = core.Workspace()
        self.leaf_state = core.GameState()
        self.eg_state: core.EndgameState | None = None
        self.peg: core.PegState | None = None  # the model in the core (one table), searching in eg_state
        self.budget = 0  # positions a world may take in the pass being made; 0: no limit
        self.budget_left = 0
        self.nodes = 0
        self.endgames = 0


class ThreadedRoot:
    """The root's work shared out over threads (a part of PreendgameSearch)."""

    _contexts: list[_Context]
    _root: list[Any]
    _root_worlds: list[World]
    _lost: dict[bytes, Fraction]
    _world_order: list[World] | None
    _engine: str

    def _run_pass(
        self, budget: int, started: float, progress: Callable[[PreendgameResult], object] | None
    ) -> None:
        """Value the candidates of a pass left to value, on every thread: each takes the first
        candidate no thread has taken, then free worlds of those being valued. The helpers start
        once the calling thread's endgame search exists (their searches share its table), and the
        pass ends when every thread is done."""
        self._halt = False
        self._failure = None
        self._helpers: list[threading.Thread] = []
        self._helpers_wanted = (budget, started)
        if self.threads > 1 and self._contexts[0].eg_state is not None:
            self._start_helpers()
        try:
            self._take_candidates(budget, started, progress)
            for helper in self._helpers:
                while helper.is_alive():
                    helper.join(PROGRESS_SECONDS)
                    if progress is not None and helper.is_alive():
                        progress(self._result("running", started))
        except BaseException:
            self._halt = True  # every helper stops within an endgame slice
            raise
        finally:
            self._helpers_wanted = None
            for helper in self._helpers:
                helper.join()
            failure, self._failure = self._failure, None
            if failure is not None:
                raise failure
        # a helper thread was cut short (time, stop) after this thread ran out of work, or a
        # helper elsewhere holds work of this pass (preendgame_lent.py): the pass is not done
        if self._retry or self._lent:
            raise _Interrupted

    def _start_helpers(self) -> None:
        """Start the helper threads of the pass being made, each with its own endgame search
        sharing the calling thread's table; called by the calling thread between its searches."""
        budget, started = self._helpers_wanted
        self._helpers_wanted = None
        first = self._contexts[0].eg_state
        for context in self._contexts[1:]:
            # with the model in the core, whose shared table holds every endgame's outcome, each
            # thread's endgame search keeps a table of its own (started when it first needs it):
            # a shared one takes a lock at every position, which cost more than the threads gained
            if context.eg_state is None and self._engine != "core":
                context.eg_state = core.endgame_share(first)
        self._helpers = [
            threading.Thread(target=self._help, args=(context, budget, started), daemon=True)
            for context in self._contexts[1:]
        ]
        start_all(self._helpers)

    def _help(self, context: _Context, budget: int, started: float) -> None:
        self._local.context = context
        try:
            self._take_candidates(budget, started, None)
        except _Interrupted:
            pass
        except BaseException as error:  # handed to run(), which raises it
            with self._lock:
                if self._failure is None:
                    self._failure = error
            self._halt = True

    def _has_free_world(self, index: int) -> bool:
        """Whether a candidate being valued has a world left for another thread. Under the lock."""
        return self._root[index].status == PENDING and next(self._free_worlds(index), None) is not None

    def _take_candidates(
        self, budget: int, started: float, progress: Callable[[PreendgameResult], object] | None
    ) -> None:
        """Value candidates of the pass one after another until none is left to take."""
        reported = time.perf_counter()
        while True:
            with self._lock:
                if self._retry:
                    index = self._retry.pop(self._retry.index(min(self._retry)))
                elif self._next < len(self._root):
                    index = self._next
                    self._next += 1
                else:  # none left to take: help value the worlds of one being valued
                    index = next((i for i in self._active if self._has_free_world(i)), None)
                    if index is None:
                        return
                self._active.append(index)
            try:
                if self._root[index].status == PENDING:
                    self._value_root(index, budget)
            except BaseException:
                with self._lock:
                    self._retry.append(index)  # taken again when the search goes on
                raise
            finally:
                with self._lock:
                    self._active.remove(index)
            if progress is not None and time.perf_counter() - reported >= PROGRESS_SECONDS:
                progress(self._result("running", started))
                reported = time.perf_counter()

    def _free_worlds(self, index: int) -> Iterator[World]:
        """The worlds of a candidate no thread has valued, is valuing or found over this pass's
        budget, in order. Under the lock."""
        values = self._root[index].values
        for world in self._worlds_in_order():
            taken = (index, world.opponent)
            if world.opponent not in values and taken not in self._skipped and taken not in self._valuing:
                yield world

    def _worlds_in_order(self) -> list[World]:
        """The root's worlds where the candidates valued so far lost most first, heaviest first
        among equals. A candidate is ruled out once it has lost as much as another is sure to
        keep, and candidates tend to lose in the same worlds (a strong rack of the opponent's),
        so those come first; the order changes no value, only how soon a candidate is ruled
        out. Under the lock."""
        if self._world_order is None:
            self._world_order = sorted(self._root_worlds, key=lambda world: -self._lost[world.opponent])
        return self._world_order

    def _take_world(self, index: int) -> World | None:
        """A candidate's first free world, marked as being valued (None: none). Under the lock."""
        world = next(self._free_worlds(index), None)
        if world is not None:
            self._valuing.add((index, world.opponent))
        return world
