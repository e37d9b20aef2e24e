"""The best player: each phase of the game with the strongest tool the engine has for it, within a
time per turn (docs/best-player.md).

- The bag empty: the exact endgame search (game/endgame.py), its best line once the time is up.
- 1 to ``preendgame_bag`` tiles in the bag: the pre-endgame solver (game/preendgame.py); when it has
  valued no candidate in every world by then, the simulation below decides instead.
- Otherwise: the simulation (game/simulate.py) against the racks the opponent's last move says they
  kept (game/infer.py), ranked by the fitted win probability near the end (docs/win-probability.md).

The simulation is given a budget of playouts (``seconds`` × PLAYOUTS_PER_SECOND, run in batches of a
fixed size) rather than a clock, so that a seed gives the same moves on any machine and in the
browser; the searches are given the clock, and are the same wherever they finish (exact).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..move import PASS, Move
from .endgame import EndgameError, solve_endgame
from .infer import Inference, InferenceError, infer_last_move
from .play import Game
from .preendgame import PreendgameError, solve_preendgame
from .simulate import Simulation, SimulationError

if TYPE_CHECKING:  # pragma: no cover
    from ..formats.leaves import Leaves

PREENDGAME_BAG = 2  # the pre-endgame solver from this many tiles in the bag down
# The simulation's settings: fewer candidates and an earlier, looser stopping rule than the
# defaults played as well in a third less time at a quarter of a second a turn (docs/simulation.md)
CANDIDATES = 6
CONFIDENCE = 0.95
MIN_ITERATIONS = 16
# Playouts a second of the simulation's budget: what one core of the machine the budget was set on
# plays at these settings (bench/simulate.py speed), so that a turn takes about its time here
PLAYOUTS_PER_SECOND = 7000
BATCH = 8  # iterations between checks of the budget: fixed, so the stopping point is too
INFER_RACKS = 1000  # racks valued to infer what the opponent kept: a sample beyond it (about 0.05 s)
MAX_ITERATIONS = 1_000_000


def turn_seed(seed: int, turn: int) -> int:
    """The seed of the simulation at turn ``turn`` (from 0) of the game of ``seed``."""
    return (seed * 1_000_003 + turn * 7_919 + 1) % 2**64


@dataclass(frozen=True)
class BestChoice:
    """The move and what chose it: ``tool`` "endgame", "preendgame", "simulation" or "equity"
    (nothing but the pass to simulate); ``result`` the search's or simulation's result; the
    ``inference`` the simulation drew from; ``fallback`` why the pre-endgame did not decide."""

    move: Move
    tool: str
    result: Any = None
    inference: Inference | None = None
    fallback: str | None = None


def infer_opponent(game: Game, leaves: Leaves | None, seed: int) -> Inference | None:
    """What the opponent likely kept with their last move (None after a pass, one's own move, or a
    move nothing can be inferred from)."""
    history = game.history
    if not history or history[-1].player == game.to_move or history[-1].move.kind == PASS:
        return None
    try:
        inference = infer_last_move(game, leaves=leaves, max_racks=INFER_RACKS, seed=seed)
    except InferenceError:
        return None
    return inference if inference.informative else None


def choose_best(
    game: Game,
    leaves: Leaves | None,
    seconds: float,
    seed: int,
    *,
    preendgame_bag: int = PREENDGAME_BAG,
    infer: bool = True,
    endgame: bool = True,
    clock: bool = False,
) -> BestChoice:
    """The best player's move in ``game`` for the player to move, in about ``seconds``.
    ``preendgame_bag`` 0 leaves the pre-endgame out, ``infer`` False the inference, ``endgame``
    False the endgame search (static equity with the bag empty): what each is worth is measured
    by playing without it. ``clock``: the simulation stops at the time rather than at its budget
    of playouts (the page, where the player waits; not the same moves on every machine)."""
    if game.bag_count == 0:
        if not endgame:
            return BestChoice(game.best_move("equity", leaves), "equity")
        try:
            ended = solve_endgame(game, time_limit=seconds)
        except EndgameError:
            ended = None
        if ended is not None and ended.line:
            return BestChoice(ended.best, "endgame", ended)
    fallback = None
    if 1 <= game.bag_count <= preendgame_bag:
        try:
            pre = solve_preendgame(game, leaves=leaves, time_limit=seconds)
        except PreendgameError as exc:
            pre, fallback = None, str(exc)
        if pre is not None and pre.best_index is None:
            fallback = f"the pre-endgame valued no candidate in every world in {seconds:g} s"
        if pre is not None and pre.best_index is not None:
            return BestChoice(pre.best.move, "preendgame", pre)
    started = time.perf_counter()
    inference = infer_opponent(game, leaves, seed) if infer and game.bag_count else None
    try:
        simulation = Simulation(
            game, leaves=leaves, candidates=CANDIDATES, confidence=CONFIDENCE, min_iterations=MIN_ITERATIONS,
            seed=seed, inference=inference,
        )  # fmt: skip
    except SimulationError:  # nothing but the pass: what the equity player does
        return BestChoice(game.best_move("equity", leaves), "equity", fallback=fallback)
    if clock:
        left = max(0.01, seconds - (time.perf_counter() - started))
        result = simulation.run(MAX_ITERATIONS, left)
    else:
        budget = max(BATCH * CANDIDATES, round(seconds * PLAYOUTS_PER_SECOND))
        result = simulation.result()
        for result in simulation.batches(MAX_ITERATIONS, batch=BATCH):
            if sum(c.iterations for c in result.candidates) >= budget:
                break
    used = inference if simulation.inferred else None
    return BestChoice(result.best.move, "simulation", result, used, fallback)
