"""Monte Carlo simulation of candidate moves (docs/simulation.md).

The C core plays the iterations (``gd_sim_*``); this module picks the candidates, turns a
confidence into the stopping rule's threshold, runs the iterations in batches so that a caller
can watch (a progress callback, or iterating over :meth:`Simulation.batches`), stop it, or give
it a time or iteration limit, and reads the statistics back as :class:`SimCandidate` rows.

    game = Game.from_position(board, ["AEINRST", ""], lexicon)
    result = simulate(game, leaves=Leaves.load("sowpods"), time_limit=1.0, seed=1)
    print(result.best.move, result.best.mean, result.best.win_rate)
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

from .. import _core_api as core
from ..move import Move
from .play import Game, GameError
from .threads import start_all

if TYPE_CHECKING:  # pragma: no cover
    from ..formats.leaves import Leaves
    from ..formats.win_probability import WinProbability
    from .infer import Inference

DEFAULT_CANDIDATES = 15
DEFAULT_PLIES = 2
DEFAULT_CONFIDENCE = 0.99
DEFAULT_MIN_ITERATIONS = 64
DEFAULT_ITERATIONS = 2000
# The win estimate of a ruleset without a fitted model (formats/win_probability.py): the spread
# moves by this many points per square root of the tiles not yet played (bag + racks).
DEFAULT_SPREAD_SIGMA = 6.5
# Ranking by the estimated wins rather than the value from this many tiles unplayed down
# (docs/win-probability.md says why this many); "auto" picks by it.
WIN_RANK_TILES = 40
RANK_BY = ("auto", "equity", "win")
MAX_CANDIDATES = 64
MAX_PLIES = 16
MAX_THREADS = 256


class SimulationError(GameError):
    """A simulation that cannot be run (no candidates, an impossible position, bad settings)."""


@dataclass(frozen=True)
class SimCandidate:
    """One candidate's standing: values in points (the spread the look-ahead gained plus the
    difference of the leaves both sides kept at its end)."""

    move: Move
    equity: float  # the static equity it was chosen by
    iterations: int
    mean: float
    stderr: float  # of the mean
    win_rate: float  # estimated probability of winning the game
    opponent_bingo_rate: float  # share of the opponent's replies that were bingos
    dropped: bool  # ruled out by the stopping rule

    def to_dict(self) -> dict[str, object]:
        return {
            "move": str(self.move),
            "equity": self.equity,
            "iterations": self.iterations,
            "mean": round(self.mean, 3),
            "stderr": round(self.stderr, 3) if math.isfinite(self.stderr) else None,
            "win_rate": round(self.win_rate, 4),
            "opponent_bingo_rate": round(self.opponent_bingo_rate, 4),
            "dropped": self.dropped,
        }


@dataclass(frozen=True)
class SimResult:
    """A simulation's standing: candidates best first (by mean value, those still in the running
    before those dropped)."""

    candidates: list[SimCandidate]
    iterations: int
    decided: bool  # the stopping rule left one candidate
    elapsed: float  # seconds spent iterating
    reason: str  # why it stopped: "decided", "iterations", "time", "stopped" (or "running")
    ranked_by: str = "equity"  # "equity" (the mean value) or "win" (the estimated win rate)

    @property
    def best(self) -> SimCandidate:
        return self.candidates[0]

    @property
    def playouts_per_second(self) -> float:
        played = sum(c.iterations for c in self.candidates)
        return played / self.elapsed if self.elapsed > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "iterations": self.iterations,
            "decided": self.decided,
            "reason": self.reason,
            "ranked_by": self.ranked_by,
            "elapsed": round(self.elapsed, 3),
            "candidates": [c.to_dict() for c in self.candidates],
        }


def prune_threshold(confidence: float, candidates: int) -> float:
    """The z a leader must beat a candidate by to drop it: one-sided at ``confidence``, with a
    Bonferroni share of the error for each of the other candidates (0 when confidence is 0)."""
    if confidence == 0:
        return 0.0
    if not 0 < confidence < 1:
        raise SimulationError(f"confidence must be between 0 and 1 (e.g. 0.99), not {confidence}")
    others = max(1, candidates - 1)
    return NormalDist().inv_cdf(1 - (1 - confidence) / others)


class Simulation:
    """A simulation of the position of ``game`` for the player to move. The candidates are the
    ``candidates`` best moves by static equity (exchanges included), or the moves given. With an
    ``inference`` (game/infer.py) the opponent's rack is drawn from what they likely kept; with
    ``threads`` > 1 each step's iterations are shared out among that many threads, the standing
    the same as with one for the same seed and iterations.

    ``win_model``: the fitted win probability the win estimate uses ("auto": the ruleset's shipped
    one, when it has one; None: the formula with ``spread_sigma``). ``rank_by``: "equity" ranks
    and drops candidates by their mean value, "win" by their estimated win rate, "auto" by the win
    rate once WIN_RANK_TILES or fewer tiles are unplayed (and a fitted model is used)."""

    def __init__(
        self,
        game: Game,
        *,
        leaves: Leaves | None = None,
        candidates: int | list[Move] = DEFAULT_CANDIDATES,
        plies: int = DEFAULT_PLIES,
        confidence: float = DEFAULT_CONFIDENCE,
        min_iterations: int = DEFAULT_MIN_ITERATIONS,
        spread_sigma: float = DEFAULT_SPREAD_SIGMA,
        seed: int = 0,
        inference: Inference | None = None,
        threads: int = 1,
        win_model: WinProbability | str | None = "auto",
        rank_by: str = "auto",
    ) -> None:
        if rank_by not in RANK_BY:
            raise SimulationError(f"rank_by must be one of {', '.join(RANK_BY)}, not {rank_by!r}")
        if not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise SimulationError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
        if threads > 1 and sys.platform == "emscripten":
            raise SimulationError("threads are not available in the browser: use one")
        if game.over:
            raise SimulationError("the game is over: there is nothing to simulate")
        if not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
            raise SimulationError(f"plies must be a whole number from 0 to {MAX_PLIES}, not {plies!r}")
        if not isinstance(min_iterations, int) or min_iterations < 2:
            raise SimulationError(f"min_iterations must be a whole number from 2 up, not {min_iterations!r}")
        if isinstance(candidates, int):
            if not 1 <= candidates <= MAX_CANDIDATES:
                raise SimulationError(f"candidates must be from 1 to {MAX_CANDIDATES}, not {candidates}")
            moves = [m for m in game.moves(candidates + 1, leaves=leaves, equity=True) if m.kind != "pass"]
            moves = moves[:candidates]
        else:
            moves = list(candidates)
            if len(moves) > MAX_CANDIDATES:
                raise SimulationError(f"{len(moves)} candidates: at most {MAX_CANDIDATES}")
        if not moves:
            raise SimulationError("the player to move has no play or exchange to simulate (only the pass)")
        self.game = game
        self.moves = moves
        self.threads = threads
        self._scratches = [core.SimScratch() for _ in range(threads)] if threads > 1 else []
        self.leaves = leaves
        self.plies = plies
        self._stop = False
        self._elapsed = 0.0
        self._reason = "running"
        records = []
        for number, move in enumerate(moves, 1):
            try:
                records.append(game._legal_play(move) if move.is_play else move.record(game.rules))
            except (GameError, ValueError) as error:
                raise SimulationError(f"candidate {number}: {error}") from None
        # what the opponent kept, when inferred and the bag still hides some of their rack
        inferred = inference.core_leaves if inference is not None and inference.informative else None
        self.inferred = bool(inferred) and game.bag_count > 0
        self.win_model = _win_model(game, win_model)
        unplayed = game.bag_count + len(game.rack(0)) + len(game.rack(1))
        if rank_by == "auto":
            rank_by = "win" if self.win_model is not None and unplayed <= WIN_RANK_TILES else "equity"
        self.ranked_by = rank_by
        model = None if self.win_model is None else (self.win_model.mean, self.win_model.sigma)
        try:
            table = None if leaves is None else leaves.core
            threshold = prune_threshold(confidence, len(moves))
            self._state = core.sim_start(
                game.lexicon._core, game._rules, game._state, records, table, plies, min_iterations,
                threshold, spread_sigma, seed, inferred if self.inferred else None, model, rank_by == "win",
            )  # fmt: skip
        except core.CoreError as error:
            raise SimulationError(str(error)) from None

    def stop(self) -> None:
        """Ask a running :meth:`run` or :meth:`batches` to stop after the current batch (safe to
        call from a progress callback or another thread)."""
        self._stop = True

    def step(self, iterations: int) -> SimResult:
        """Run up to ``iterations`` more iterations and return the standing."""
        started = time.perf_counter()
        try:
            if self._scratches and iterations > 1:
                self._shared_step(iterations)
            else:
                core.sim_run(self._state, iterations)
        except core.CoreError as error:
            raise SimulationError(str(error)) from None
        self._elapsed += time.perf_counter() - started
        return self.result()

    def _shared_step(self, iterations: int) -> None:
        """``iterations`` shared out among the threads (row k to thread k mod threads, the calling
        thread taking share 0), then added in order: the statistics of one thread's run, whatever
        the number (see gd_sim_merge). Whatever stops it (Ctrl-C, an error), no thread is still
        playing when it returns or raises: the state they read must outlive them."""
        state, count, scratches = self._state, len(self.moves), self._scratches
        seeds = core.sim_seeds(state, iterations)
        rows: list[bytes] = [b""] * iterations
        stop = threading.Event()
        failed: list[BaseException] = []

        def play(k: int) -> None:
            try:
                for row in range(k, iterations, len(scratches)):
                    if stop.is_set():
                        return
                    rows[row] = core.sim_play(state, scratches[k], seeds[row], count)
            except BaseException as error:  # noqa: BLE001 - handed to the calling thread
                failed.append(error)
                stop.set()

        helpers = [threading.Thread(target=play, args=(k,), daemon=True) for k in range(1, len(scratches))]
        try:
            start_all(helpers)
            play(0)
        finally:
            for helper in helpers:
                while helper.is_alive():
                    try:
                        helper.join()
                    except BaseException as error:  # noqa: BLE001 - Ctrl-C while waiting: wait still
                        failed.append(error)
                        stop.set()
        if failed:
            raise failed[0]
        core.sim_merge(state, rows)

    # ---- a run shared with other processes (the page's Web Workers) ------------------------------
    # One state deals and merges; helpers started the same way (the same position, candidates,
    # settings and seed) play the dealt iterations: the standing is that of one state alone.

    def deal(self, iterations: int) -> tuple[list[int], list[int]]:
        """The seeds of the next ``iterations`` iterations and the candidates dropped so far (their
        indices in the order given), for :meth:`play_dealt` elsewhere; all of them must be merged
        (:meth:`merge_dealt`) before the next deal."""
        stats, _live, _its = core.sim_results(self._state)
        return core.sim_seeds(self._state, iterations), [i for i, s in enumerate(stats) if s.dropped]

    def play_dealt(self, seeds: list[int], dropped: list[int]) -> bytes:
        """The playouts of dealt iterations (in a helper's state): the candidates ``dropped`` by the
        dealing state are skipped, as it skips them."""
        try:
            for index in dropped:
                core.sim_drop(self._state, index)
            scratch = self._scratches[0] if self._scratches else core.SimScratch()
            # not added to the elapsed time: the dealer adds each round's, shares played at once
            return b"".join(core.sim_play(self._state, scratch, seed, len(self.moves)) for seed in seeds)
        except core.CoreError as error:
            raise SimulationError(str(error)) from None

    def merge_dealt(self, rows: bytes, elapsed: float = 0.0) -> SimResult:
        """Add dealt iterations' playouts (:meth:`play_dealt`'s bytes, in the order dealt) with the
        stopping rule after each; ``elapsed``: the seconds they took, for the standing."""
        size = len(self.moves) * core.PLAYOUT_SIZE
        if len(rows) % size:
            raise SimulationError(f"playouts of {len(rows)} bytes: not whole iterations of {size}")
        try:
            core.sim_merge(self._state, [rows[i : i + size] for i in range(0, len(rows), size)])
        except core.CoreError as error:
            raise SimulationError(str(error)) from None
        self._elapsed += elapsed
        return self.result()

    def batches(
        self, iterations: int = DEFAULT_ITERATIONS, time_limit: float | None = None, batch: int | None = None
    ) -> Iterator[SimResult]:
        """Iterate in batches, yielding the standing after each, until the stopping rule decides,
        ``iterations`` have run, ``time_limit`` seconds have passed, or :meth:`stop` is called."""
        if iterations < 0 or (time_limit is not None and time_limit < 0):
            raise SimulationError("iterations and time_limit cannot be negative")
        self._stop = False
        started = time.perf_counter()
        size = batch or 8
        while True:
            result = self.result()
            if result.decided:
                self._reason = "decided"
            elif result.iterations >= iterations:
                self._reason = "iterations"
            elif time_limit is not None and time.perf_counter() - started >= time_limit:
                self._reason = "time"
            elif self._stop:
                self._reason = "stopped"
            else:
                self._reason = "running"
            if self._reason != "running":
                yield self.result()
                return
            step_started = time.perf_counter()
            result = self.step(min(size, iterations - result.iterations))
            yield result
            if batch is None:  # aim at batches of about a tenth of a second
                spent = time.perf_counter() - step_started
                size = max(1, min(4 * size, int(size * 0.1 / spent) if spent > 0 else 4 * size))

    def run(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = None,
        progress: Callable[[SimResult], object] | None = None,
    ) -> SimResult:
        """Run as :meth:`batches` does, calling ``progress`` with each standing; the final one."""
        result = self.result()
        for result in self.batches(iterations, time_limit):
            if progress is not None:
                progress(result)
        return result

    def result(self) -> SimResult:
        stats, live, iterations = core.sim_results(self._state)
        rows = []
        for move, s in zip(self.moves, stats, strict=True):
            n = s.iterations
            mean = s.value_sum / n / 100 if n else 0.0
            if n > 1:
                variance = max(0.0, (s.value_squares / n - (s.value_sum / n) ** 2)) / 10000
                stderr = math.sqrt(variance / (n - 1))
            else:
                stderr = math.inf
            rows.append(
                SimCandidate(
                    move,
                    move.equity if move.equity is not None else float(move.score),
                    n,
                    mean,
                    stderr,
                    s.wins / n if n else 0.0,
                    s.opponent_bingos / n if n else 0.0,
                    s.dropped,
                )
            )
        if self.ranked_by == "win":
            rows.sort(key=lambda c: (c.dropped, -c.win_rate, -c.mean, -c.equity))
        else:
            rows.sort(key=lambda c: (c.dropped, -c.mean, -c.equity))
        reason = self._reason if live != 1 else "decided"
        return SimResult(rows, iterations, live == 1, self._elapsed, reason, self.ranked_by)


def _win_model(game: Game, model: WinProbability | str | None) -> WinProbability | None:
    """The model a simulation uses: the ruleset's shipped one for "auto" (None when it has none)."""
    from ..formats.win_probability import WinProbability, WinProbabilityError

    if model is None:
        return None
    if isinstance(model, str):
        if model != "auto":
            raise SimulationError(f'win_model must be a WinProbability, "auto" or None, not {model!r}')
        try:
            return WinProbability.for_rules(game.rules)
        except (OSError, WinProbabilityError) as error:
            raise SimulationError(f"the shipped win probability of {game.rules.name}: {error}") from None
    try:
        model.check_rules(game.rules)
    except WinProbabilityError as error:
        raise SimulationError(str(error)) from None
    return model


def simulate(
    game: Game,
    *,
    leaves: Leaves | None = None,
    candidates: int | list[Move] = DEFAULT_CANDIDATES,
    plies: int = DEFAULT_PLIES,
    iterations: int = DEFAULT_ITERATIONS,
    time_limit: float | None = None,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    progress: Callable[[SimResult], object] | None = None,
    inference: Inference | None = None,
    threads: int = 1,
    win_model: WinProbability | str | None = "auto",
    rank_by: str = "auto",
) -> SimResult:
    """Simulate the position of ``game`` for the player to move and return the candidates ranked
    (see :class:`Simulation`; the same seed gives the same result natively and in the browser
    when the iterations, not the time, end it)."""
    simulation = Simulation(
        game, leaves=leaves, candidates=candidates, plies=plies, confidence=confidence, seed=seed,
        inference=inference, threads=threads, win_model=win_model, rank_by=rank_by,
    )  # fmt: skip
    return simulation.run(iterations, time_limit, progress)
