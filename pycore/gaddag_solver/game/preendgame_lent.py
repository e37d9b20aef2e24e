"""The pre-endgame shared among processes that share no memory (docs/preendgame.md, "Workers"):
the page's Web Workers, each with a search of its own on the same position.

One search, the *dealer*, keeps the standing. Between its own steps it *lends* root candidates
(every world of theirs not yet valued, with the pass's budget) to the others, the *helpers*; a
helper values what it was lent in order, within a time, and answers the values it found; the
dealer records them as if its own thread had found them. A helper keeps what it has not reached
for its next round (its tables hold the work it began), and before each world checks the
candidate's *slack*: how far its best possible outcome, as the dealer knew it when the round
began, less what the helper has found since, stands above the figure it must beat. A candidate
without slack is ruled out: the dealer, knowing at least as much, rules it out too. A pass of the
dealer's does not end while a helper holds work of it. Any candidate is lent in the first two
passes, and half the free worlds of one the dealer is valuing; in a later pass a helper is lent
again the worlds it found over the last pass's budget.

So, as with threads, the best and every exact figure are those of one search; which candidates
end exact rather than ruled out may differ. PreendgameSearch takes these methods from LentRoot.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from .. import _core_api as core
from .preendgame_model import PENDING, PreendgameError, World, _Interrupted, _OverBudget

MAX_LENT = 256  # candidates a helper may hold at once
LEND_PASSES = 2  # the passes that lend any candidate; later ones lend a helper what it began


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def parse_fraction(text: object, what: str) -> Fraction:
    try:
        if not isinstance(text, str):
            raise ValueError
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise PreendgameError(f"{what} must be a fraction written p/q, not {text!r}") from None


class LentRoot:
    """Root candidates lent to helpers and their values taken back (a part of PreendgameSearch)."""

    _root: list[Any]
    _root_worlds: list[World]
    _halving: Any
    _pass: int
    _next: int
    _retry: list[int]
    _valuing: set[tuple[int, bytes]]
    _skipped: set[tuple[int, bytes]]
    _spent: dict[tuple[int, bytes], int]
    _deadline: float | None
    _stop: bool

    def _init_lent(self) -> None:
        self._lent: dict[tuple[int, bytes], int] = {}  # (candidate, world) → the helper holding it
        self._lent_counts = [0, 0]  # nodes and endgames the helpers searched
        self._went_over: dict[tuple[int, bytes], int] = {}  # (candidate, world) → the helper that
        # found it over this pass's budget: lent to it again in the next pass
        self._to_send: dict[int, list[tuple[int, int]]] = {}  # helper → (candidate, world number)
        # lent to it again, not yet sent
        # a helper's: (candidate, world, budget, positions taken of it in earlier rounds)
        self._queue: list[tuple[int, int, int, int]] = []
        self._slack: dict[int, tuple[Fraction, bool]] = {}  # a helper's: candidate → slack, ties lose

    @property
    def lent_endgames(self) -> int:
        """Endgames the helpers searched for this search (counted in :attr:`endgames` too)."""
        return self._lent_counts[1]

    # ---- the dealer ---------------------------------------------------------------------------

    def lend(self, wants: list[int]) -> list[dict[str, Any]]:
        """For each helper (0, 1, ...), up to ``wants[h]`` candidates held, each with the pass's
        budget and its worlds by number in the root's worlds: first the worlds lent to it again
        (:meth:`_lend_again`) and half the free worlds of a candidate the dealer's step was cut
        short in (:meth:`_halved`), then candidates of the pass no one has taken, with every
        world free; and each held candidate's slack (:meth:`work_lent`)."""
        if self._halving is not None:
            return self._lend_estimate(wants)
        shares: list[dict[str, Any]] = []
        with self._lock:
            for helper in [h for h in self._to_send if h >= len(wants)]:  # no such helper now
                for index, k in self._to_send.pop(helper):
                    taken = (index, self._root_worlds[k].opponent)
                    del self._lent[taken]
                    self._valuing.discard(taken)
            held = [{i for (i, _w), h in self._lent.items() if h == helper} for helper in range(len(wants))]
            for helper, want in enumerate(wants):
                jobs = []
                again: dict[int, list[int]] = {}
                for index, k in self._to_send.pop(helper, []):
                    again.setdefault(index, []).append(k)
                jobs += [{"index": i, "worlds": w, "budget": self._pass_budget()} for i, w in again.items()]
                wanted = min(max(want, 0), MAX_LENT)
                index = self._halved() if wanted else None  # first half the worlds of one the
                # dealer is valuing (its costly worlds would keep the pass waiting), then new ones
                while index is not None or (len(held[helper]) < wanted and not self._passes_done()):
                    if index is not None:
                        free = [w for w in self._free_worlds(index) if (index, w.opponent) not in self._spent]
                        lent = free[len(free) // 2 :]
                    else:
                        index = self._untaken()
                        if index is None:
                            break
                        lent = list(self._free_worlds(index))
                    for world in lent:
                        self._valuing.add((index, world.opponent))
                        self._lent[(index, world.opponent)] = helper
                    if lent:
                        worlds = [self._root_worlds.index(world) for world in lent]
                        jobs.append({"index": index, "worlds": worlds, "budget": self._pass_budget()})
                        held[helper].add(index)
                    index = None
                slack = {}
                for index in sorted(held[helper]):
                    root = self._root[index]
                    bar = self._bar(index)
                    if bar is not None:
                        slack[str(index)] = [fraction_text(root.total + root.left - bar[0]), bar[1]]
                shares.append({"jobs": jobs, "slack": slack})
        return shares

    def _lend_estimate(self, wants: list[int]) -> list[dict[str, Any]]:
        """lend() for the estimate from 3 in the bag (preendgame_halving.py): worlds of the round
        no one has valued, from its end (the dealer values it from the start), for each helper at
        most half of those left and up to ``wants[h]`` held."""
        halving = self._halving
        shares: list[dict[str, Any]] = []
        with self._lock:
            for helper, want in enumerate(wants):
                held = sum(1 for h in halving.lent.values() if h == helper)
                free = [p for p in halving.round_pairs() if p not in halving.done and p not in halving.lent]
                count = max(0, min(min(max(want, 0), MAX_LENT) - held, len(free) // 2))
                by_candidate: dict[int, list[int]] = {}
                for index, k in free[len(free) - count :] if count else []:
                    halving.lent[(index, k)] = helper
                    by_candidate.setdefault(index, []).append(halving.order[k])
                jobs = [{"index": i, "worlds": w, "budget": 0} for i, w in by_candidate.items()]
                shares.append({"jobs": jobs, "slack": {}})
        return shares

    def _take_back_estimate(self, helper: int, answer: dict[str, Any]) -> None:
        """take_back() for the estimate: each value recorded in its round."""
        halving = self._halving
        place = {world: k for k, world in enumerate(halving.order)}
        try:
            valued = [
                (int(i), int(w), parse_fraction(text, "a value")) for i, w, text in answer.get("values", [])
            ]
            nodes, endgames = int(answer.get("nodes", 0)), int(answer.get("endgames", 0))
        except (TypeError, ValueError):
            raise PreendgameError("a helper's answer is not one work_lent gives") from None
        with self._lock:
            for index, world, value in valued:
                k = place.get(world)
                if k is None or halving.lent.get((index, k)) != helper:
                    raise PreendgameError(
                        f"helper {helper} answered candidate {index} in a world it was not lent"
                    )
                halving.record(index, k, value)
            self._lent_counts[0] += nodes
            self._lent_counts[1] += endgames

    def _lend_again(self) -> None:
        """At the start of a pass: each world a helper found over the last pass's budget is lent
        to it again (its tables hold what it began), sent with the next shares."""
        with self._lock:
            numbers = {world.opponent: k for k, world in enumerate(self._root_worlds)}
            for (index, opponent), helper in sorted(self._went_over.items()):
                root = self._root[index]
                if root.status == PENDING and opponent not in root.values:
                    self._lent[(index, opponent)] = helper
                    self._valuing.add((index, opponent))
                    self._to_send.setdefault(helper, []).append((index, numbers[opponent]))
            self._went_over.clear()

    def _halved(self) -> int | None:
        """A candidate the dealer's step was cut short in (it goes on with it next step) with
        worlds free besides the one it began, in the passes that lend: half of those are lent,
        so that a helper is not left idle while the dealer values a candidate's costly worlds
        one after another. Under the lock."""
        if self._pass > LEND_PASSES:
            return None
        for index in sorted(self._retry):
            root = self._root[index]
            if root.status != PENDING or any((index, w.opponent) in self._lent for w in self._root_worlds):
                continue  # halved once until the helper answers
            if any((index, w.opponent) not in self._spent for w in self._free_worlds(index)):
                return index
        return None

    def _untaken(self) -> int | None:
        """The next candidate of the pass no one has taken, still in the running, in the first
        two passes (LEND_PASSES). Under the lock. A later pass values the worlds that took the
        most, and the endgame tables of whoever began one hold that work: lent to a helper's
        cold tables, a world of millions of positions would start again, so each goes back to
        the one that began it (:meth:`_lend_again`). In the second pass what starts again is at
        most the first pass's budget (50,000 positions), a small part of the second's. The dealer
        keeps a candidate its step was cut short in."""
        if self._pass > LEND_PASSES:
            return None
        while self._next < len(self._root):
            index = self._next
            self._next += 1
            if self._root[index].status == PENDING and self._has_free_world(index):
                return index
        return None

    def take_back(self, helper: int, answer: dict[str, Any]) -> None:
        """Record what helper ``helper`` answered (:meth:`work_lent`): its values, the worlds it
        found over the budget (for a later pass), those it dropped; then settle each candidate
        as the dealer's own valuing would."""
        if self._halving is not None:
            return self._take_back_estimate(helper, answer)
        touched: set[int] = set()
        try:
            valued = [(int(i), int(k), int(units)) for i, k, units in answer.get("values", [])]
            over = [(int(i), int(k)) for i, k in answer.get("over", [])]
            dropped = [(int(i), int(k)) for i, k in answer.get("dropped", [])]
            nodes, endgames = int(answer.get("nodes", 0)), int(answer.get("endgames", 0))
        except (TypeError, ValueError):
            raise PreendgameError("a helper's answer is not one work_lent gives") from None
        for i, k, units in valued:
            world = self._lent_world(helper, i, k)
            self._record(i, world, Fraction(units, core.PEG_UNIT))
            touched.add(i)
        with self._lock:
            for i, k in over:
                taken = (i, self._lent_world(helper, i, k).opponent)
                self._skipped.add(taken)
                self._went_over[taken] = helper
                touched.add(i)
            for i, k in dropped:
                self._lent_world(helper, i, k)
                touched.add(i)
            self._lent_counts[0] += nodes
            self._lent_counts[1] += endgames
        for index in sorted(touched):
            root = self._root[index]
            if root.status != PENDING or self._ruled_out(index):
                continue
            if not root.left:
                self._settle_exact(index)
            else:
                with self._lock:
                    if self._has_free_world(index) and index not in self._retry:
                        self._retry.append(index)  # taken again in this pass

    def _lent_world(self, helper: int, index: int, k: int) -> World:
        """The world ``k`` of candidate ``index``, no longer lent to ``helper`` (which held it)."""
        if not 0 <= k < len(self._root_worlds):
            raise PreendgameError(f"a helper answered world {k}, not one of the position's")
        world = self._root_worlds[k]
        taken = (index, world.opponent)
        if self._lent.get(taken) != helper:
            raise PreendgameError(f"helper {helper} answered candidate {index} in a world it was not lent")
        del self._lent[taken]
        self._valuing.discard(taken)
        return world

    # ---- a helper -----------------------------------------------------------------------------

    def work_lent(self, jobs: list[dict[str, Any]], slack: dict[str, Any], seconds: float) -> dict[str, Any]:
        """Value what was lent (``jobs`` added to what is held from before) in order for about
        ``seconds``: ``values`` [candidate, world, outcome in 1/PEG_UNIT of a win], ``over`` the
        worlds over their budget, ``dropped`` those of candidates left without slack, ``held``
        the candidates left for the next round, ``finished`` those done with in this one, and
        the endgame positions and endgames searched."""
        for job in jobs:
            index, worlds, budget = job.get("index"), job.get("worlds"), job.get("budget")
            if not isinstance(index, int) or not 0 <= index < len(self._root):
                raise PreendgameError(f"candidate {index!r} is not one of the position's")
            if not isinstance(worlds, list) or not all(
                isinstance(k, int) and 0 <= k < len(self._root_worlds) for k in worlds
            ):
                raise PreendgameError(f"the worlds {worlds!r} are not the position's")
            if not isinstance(budget, int) or budget < 0:
                raise PreendgameError(f"a budget is a number of positions, not {budget!r}")
            self._queue.extend((index, k, budget, 0) for k in worlds)
        for key, (text, ties_lose) in slack.items():
            self._slack[int(key)] = (parse_fraction(text, "a slack"), bool(ties_lose))
        self._local.context = context = self._contexts[0]
        estimate = self._halving is not None
        before = (context.nodes, context.endgames)
        taken = {i for i, _k, _b, _s in self._queue}
        self._stop = False
        self._deadline = time.perf_counter() + seconds
        values: list[list[int]] = []
        over: list[list[int]] = []
        dropped: list[list[int]] = []
        while self._queue:
            index, k, budget, spent = self._queue[0]
            if index in self._slack:
                left, ties_lose = self._slack[index]
                if left < 0 or (left == 0 and ties_lose):
                    dropped += [[i, w] for i, w, _b, _s in self._queue if i == index]
                    self._queue = [job for job in self._queue if job[0] != index]
                    continue
            world = self._root_worlds[k]
            context.budget, context.budget_left = budget, budget - spent
            try:
                value = self._root_value(world, self._root[index].record, by_equity=estimate)
            except _OverBudget:
                over.append([index, k])
                self._queue.pop(0)
                continue
            except _Interrupted:  # its budget is not reset by the next round (a world that takes
                # more than a round would never end)
                self._queue[0] = (index, k, budget, budget - context.budget_left if budget else 0)
                break
            finally:
                context.budget = 0
            self._queue.pop(0)
            if estimate:  # the estimate's values are any fraction
                values.append([index, k, fraction_text(value)])
                continue
            units = value * core.PEG_UNIT
            assert units.denominator == 1, value  # the core's values are whole units
            values.append([index, k, int(units)])
            if index in self._slack:
                left, ties_lose = self._slack[index]
                self._slack[index] = (left - world.weight * (1 - value), ties_lose)
        held = {i for i, _k, _b, _s in self._queue}
        self._slack = {i: s for i, s in self._slack.items() if i in held}
        return {
            "values": values, "over": over, "dropped": dropped,
            "held": len(held), "finished": len(taken - held),
            "nodes": context.nodes - before[0], "endgames": context.endgames - before[1],
        }  # fmt: skip
