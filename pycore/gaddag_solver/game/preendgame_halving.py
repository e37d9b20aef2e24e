"""Successive halving, the pre-endgame's estimate with 3 to 6 tiles in the bag (docs/preendgame.md,
"3 to 6 in the bag"): the exact model's cost grows too fast there for an answer in seconds.

The first HALVING_CANDIDATES candidates in equity order are valued in a sample of the worlds (the
splits of the unseen tiles): the worlds in a seeded random order, every candidate in the same
ones, so they are compared on the same racks. A round values each candidate still in the running
in the first ``sample`` worlds of that order, world by world across the candidates (so a time
limit leaves them about equally sampled); then the better half by estimate goes on, and the
sample doubles, until one candidate is left and every world is valued. A candidate's estimate is
its outcome averaged over the worlds valued, each by its weight; the draws from the bag are
valued in full, a move that empties the bag leads to the exact endgame, and a move made while the
bag still holds tiles (after the candidate) is its player's best by equity.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .preendgame_model import DROPPED, ESTIMATED, _Interrupted

HALVING_FROM_BAG = 3  # the bag sizes from which "auto" estimates: 1 and 2 are solved exactly
HALVING_CANDIDATES = 16
FIRST_SAMPLE = 4  # worlds in the first round


class SuccessiveHalving:
    """The rounds of successive halving over a search's root candidates; ``step`` goes on from
    where the last call stopped (its work is kept), so the estimate is anytime."""

    def __init__(self, search: Any, seed: int) -> None:  # a PreendgameSearch (which imports this)
        self.search = search
        count = len(search._root_worlds)
        self.order = list(range(count))
        random.Random(seed).shuffle(self.order)
        self.alive = list(range(min(HALVING_CANDIDATES, len(search._root))))
        self.valued = dict.fromkeys(self.alive, 0)  # how many worlds of the order each has
        self.done: set[tuple[int, int]] = set()  # (candidate, place in the order) valued
        self.lent: dict[tuple[int, int], int] = {}  # ... lent to a helper (preendgame_lent.py)
        self.sample = min(FIRST_SAMPLE, count)
        self.rounds = 0
        self.finished = False
        for index in self.alive:
            search._root[index].status = ESTIMATED

    def estimate(self, index: int) -> Fraction | None:
        """A candidate's outcome averaged over the worlds it was valued in, by their weight."""
        root = self.search._root[index]
        weight = self.search._total_weight - root.left
        return root.total / weight if weight else None

    def best(self) -> int | None:
        """The candidate in the running with the highest estimate (the first among equals)."""
        ranked = [i for i in self.alive if self.valued[i]]
        if not ranked:
            return None
        return max(ranked, key=lambda i: (self.estimate(i), -i))

    def step(self, on_world: Callable[[], object]) -> None:
        """Value rounds until the last is done; ``on_world`` is called after each world valued.
        Raises the search's interruption when its clock runs out (the work so far kept), or when
        the round is done but for what helpers hold."""
        search = self.search
        worlds = search._root_worlds
        while not self.finished:
            for index, k in self.round_pairs():
                if (index, k) in self.done or (index, k) in self.lent:
                    continue
                world = worlds[self.order[k]]
                self.record(index, k, search._root_value(world, search._root[index].record, by_equity=True))
                on_world()
            if self.lent:
                raise _Interrupted
            self._end_round()

    def round_pairs(self) -> list[tuple[int, int]]:
        """(candidate, place in the order) of the round, world by world across the candidates."""
        return [(index, k) for k in range(self.sample) for index in self.alive]

    def record(self, index: int, k: int, value: Fraction) -> None:
        """A candidate's value in the world at place ``k`` of the order."""
        root = self.search._root[index]
        root.add(self.search._root_worlds[self.order[k]], value)
        self.done.add((index, k))
        self.lent.pop((index, k), None)
        self.valued[index] += 1
        self.search._best = self.best()

    def _end_round(self) -> None:
        search = self.search
        if len(self.alive) > 1:
            ranked = sorted(self.alive, key=lambda i: (-self.estimate(i), i))  # type: ignore[operator]
            self.alive = ranked[: (len(ranked) + 1) // 2]
            for index in ranked[len(self.alive) :]:
                search._root[index].status = DROPPED
        elif self.sample == len(search._root_worlds):
            self.finished = True
        self.sample = min(2 * self.sample, len(search._root_worlds))
        self.rounds += 1
        search._best = self.best()
