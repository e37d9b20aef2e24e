"""Fitting win probability from self-played games (docs/win-probability.md).

Every position after a move that did not end the game is one observation: ``t``, the tiles not
yet played; the on-turn player's spread, counted as the simulation counts it at the end of a
playout (scores, plus the value of the leave each player kept with their last move); and whether
that player won (a tie counts half). Observations are tallied per ``(t, spread rounded to a
point)`` in integers (wins counted twice, ties once), so that tallies from any number of workers
merge in any order to the same totals and the same fit.

For each ``t`` the model ``P(win) = Φ((spread + mean) / sigma)`` is fitted by maximum likelihood
(probit regression, Newton's method on the tallies); a ``t`` with too few observations takes its
neighbours' values.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .. import _core_api as core
from ..formats.win_probability import WinProbability, normal_cdf
from ..rules import Rules
from . import parallel
from .autoplay import MASK64, Match, chunks, pair_seed, played_game

# observations a t needs to be fitted on its own (fewer: interpolated from its neighbours)
MIN_POSITIONS = 400
MIN_SIGMA = 0.5  # points: the fit stops there when the spread alone decides the outcome
NEWTON_STEPS = 50
# the formula used before a fitted model: sigma = 6.5 points per √(tile not yet played), mean 0
BASELINE_SIGMA_PER_ROOT_TILE = 6.5


@dataclass
class Tallies:
    """Observations and half-wins (a win 2, a tie 1) per (tiles unplayed, spread in points)."""

    seen: Counter[tuple[int, int]]
    half_wins: Counter[tuple[int, int]]

    @classmethod
    def empty(cls) -> Tallies:
        return cls(Counter(), Counter())

    def add(self, other: Tallies) -> None:
        self.seen.update(other.seen)
        self.half_wins.update(other.half_wins)

    @property
    def positions(self) -> int:
        return sum(self.seen.values())


def game_positions(game: core.PlayedGame, rules: Rules) -> Iterator[tuple[int, float, float]]:
    """``(tiles unplayed, the on-turn player's spread in points, their result: 1, ½ or 0)`` after
    every move of a finished game but the last."""
    turns = game.turns
    unplayed = rules.tile_total
    scores = [0, 0]
    leave_term = [0.0, 0.0]  # points: what each player's last move kept, as static equity counts it
    final = game.scores
    for i, turn in enumerate(turns[:-1]):
        bag_before = max(0, unplayed - 2 * rules.rack_size)
        if turn.kind == core.lib.GD_PLAY:
            unplayed -= turn.tiles_placed
        mover = turn.player
        scores[mover] = turn.total
        leave_term[mover] = _leave_term(turn, rules, bag_before)
        on_turn = turns[i + 1].player
        other = 1 - on_turn
        spread = scores[on_turn] - scores[other] + leave_term[on_turn] - leave_term[other]
        margin = final[on_turn] - final[other]
        yield unplayed, spread, 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5


def _leave_term(turn: core.Turn, rules: Rules, bag_before: int) -> float:
    """What a move kept, in points, as the simulation counts it (gd_move_leave_term): while the
    bag held tiles, the leave value the player's equity gave it; with the bag empty, minus twice
    the value of the tiles kept (0 for going out)."""
    if bag_before > 0:
        return (turn.equity - 100 * turn.score) / 100.0
    kept = Counter(turn.rack)
    if turn.kind == core.lib.GD_PLAY:
        for code in turn.word:
            if not code & 64:
                kept[0 if code & 128 else code & 63] -= 1
    value = sum(
        count * (rules.blank_value if code == 0 else rules.values[code - 1]) for code, count in kept.items()
    )
    return -2.0 * value


def tally_games(games: Iterable[core.PlayedGame], rules: Rules) -> Tallies:
    tallies = Tallies.empty()
    for game in games:
        for unplayed, spread, result in game_positions(game, rules):
            key = (unplayed, round(spread))
            tallies.seen[key] += 1
            tallies.half_wins[key] += int(2 * result)
    return tallies


def tally_chunk(match: Match, seed: int, start: int, stop: int) -> Tallies:
    """The tallies of games start..stop-1 (what a worker is sent). Each game has a bag of its own
    (no mirrored pairs: the same player in both seats would play a pair's games alike)."""
    rules = Rules.load(match.rules)
    return tally_games((played_game(match, i, pair_seed(seed, i)) for i in range(start, stop)), rules)


def tally_run(
    match: Match, games: int, seed: int, workers: int, progress: parallel.Progress | None = None
) -> Tallies:
    """Play ``games`` games on ``workers`` local processes and tally them (Ctrl-C:
    parallel.RunInterrupted)."""
    seed &= MASK64
    tasks = [((match, seed, start, stop), stop - start) for start, stop in chunks(games, workers)]
    if workers == 1:
        parts = parallel.run_inline(tally_chunk, tasks, progress)
    else:
        parts = parallel.run_local(tally_chunk, tasks, workers, progress)
    total = Tallies.empty()
    for part in parts:
        total.add(part)
    return total


# ---- the fit ---------------------------------------------------------------------------------------


def _bins(tallies: Tallies) -> dict[int, list[tuple[int, int, int]]]:
    """Per t: (spread, observations, half-wins), by spread."""
    out: dict[int, list[tuple[int, int, int]]] = {}
    for (t, spread), n in sorted(tallies.seen.items()):
        out.setdefault(t, []).append((spread, n, tallies.half_wins[(t, spread)]))
    return out


def log_likelihood(bins: Sequence[tuple[int, int, int]], a: float, b: float) -> float:
    total = 0.0
    for spread, n, half in bins:
        p = min(max(normal_cdf(a + b * spread), 1e-15), 1 - 1e-15)
        wins = half / 2
        total += wins * math.log(p) + (n - wins) * math.log(1 - p)
    return total


def fit_probit(bins: Sequence[tuple[int, int, int]], sigma_guess: float) -> tuple[float, float]:
    """``(mean, sigma)`` maximising the likelihood of ``P(win) = Φ((spread + mean) / sigma)`` over
    ``(spread, observations, half-wins)`` bins: Newton's method on z = a + b·spread (the expected
    information, so every step is a descent direction), each step halved until the likelihood
    rises, b kept at most 1 / MIN_SIGMA."""
    a, b = 0.0, 1.0 / sigma_guess
    current = log_likelihood(bins, a, b)
    for _ in range(NEWTON_STEPS):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for spread, n, half in bins:
            z = a + b * spread
            p = min(max(normal_cdf(z), 1e-15), 1 - 1e-15)
            density = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
            weight = density / (p * (1 - p))
            score = (half / 2 - n * p) * weight
            info = n * density * weight
            g0 += score
            g1 += score * spread
            h00 += info
            h01 += info * spread
            h11 += info * spread * spread
        det = h00 * h11 - h01 * h01
        if det <= 0:
            break
        da = (h11 * g0 - h01 * g1) / det
        db = (h00 * g1 - h01 * g0) / det
        step = 1.0
        while step > 1e-6:
            na, nb = a + step * da, min(b + step * db, 1.0 / MIN_SIGMA)
            if nb > 0:
                value = log_likelihood(bins, na, nb)
                if value >= current - 1e-9:
                    break
            step /= 2
        else:
            break
        moved = abs(na - a) + abs(nb - b) * 100
        a, b, current = na, nb, value
        if moved < 1e-9:
            break
    return a / b, 1.0 / b


@dataclass(frozen=True)
class FitReport:
    model: WinProbability
    positions: tuple[int, ...]  # observations per t
    fitted: tuple[bool, ...]  # t fitted on its own (else interpolated)


def fit_model(tallies: Tallies, rules: Rules) -> FitReport:
    """The model of ``rules`` fitted to ``tallies``."""
    tiles = rules.tile_total
    bins = _bins(tallies)
    counts = [0] * (tiles + 1)
    mean: list[float | None] = [None] * (tiles + 1)
    sigma: list[float | None] = [None] * (tiles + 1)
    for t, rows in bins.items():
        if not 1 <= t <= tiles:
            continue
        counts[t] = sum(n for _spread, n, _half in rows)
        if counts[t] >= MIN_POSITIONS:
            mean[t], sigma[t] = fit_probit(rows, BASELINE_SIGMA_PER_ROOT_TILE * math.sqrt(t))
    fitted = tuple(value is not None for value in sigma)
    if not any(fitted):
        raise ValueError(
            f"too few positions to fit: no number of tiles unplayed has {MIN_POSITIONS} of them "
            "(play more games)"
        )
    full_mean, full_sigma = _fill(mean), _fill(sigma)
    full_mean[0], full_sigma[0] = 0.0, 0.0  # the game is over: the spread decides
    model = WinProbability(rules.name, tiles, rules.rack_size, tuple(full_mean), tuple(full_sigma))
    return FitReport(model, tuple(counts), fitted)


def _fill(values: list[float | None]) -> list[float]:
    """Values missing between fitted ones linearly interpolated; past the ends, the nearest."""
    known = [i for i, value in enumerate(values) if value is not None]
    out = [0.0] * len(values)
    for i in range(len(values)):
        before = max((k for k in known if k <= i), default=None)
        after = min((k for k in known if k >= i), default=None)
        if before is None or after is None or before == after:
            nearest = before if after is None else after if before is None else before
            out[i] = float(values[nearest])  # type: ignore[arg-type]
        else:
            lo, hi = float(values[before]), float(values[after])  # type: ignore[arg-type]
            out[i] = lo + (hi - lo) * (i - before) / (after - before)
    return out


# ---- how well it predicts -------------------------------------------------------------------------


def baseline_probability(spread: float, unplayed: int) -> float:
    """The formula used before the fitted model: mean 0, sigma 6.5 √t."""
    if unplayed <= 0:
        return 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
    return normal_cdf(spread / (BASELINE_SIGMA_PER_ROOT_TILE * math.sqrt(unplayed)))


@dataclass(frozen=True)
class CalibrationRow:
    low: float  # predicted probability bucket [low, high)
    high: float
    positions: int
    predicted: float  # mean predicted probability
    observed: float  # observed win rate (ties ½)


def calibration(
    predict: object, tallies: Tallies, buckets: int = 10, phases: Sequence[tuple[int, int]] | None = None
) -> list[CalibrationRow]:
    """Predicted against observed win rate per bucket of predicted probability, over the positions
    of ``tallies`` whose t is in one of ``phases`` ((low, high) inclusive; all when None).
    ``predict(spread, t)`` gives the on-turn player's probability."""
    seen = [0] * buckets
    predicted = [0.0] * buckets
    observed = [0.0] * buckets
    for (t, spread), n in tallies.seen.items():
        if phases is not None and not any(low <= t <= high for low, high in phases):
            continue
        p = predict(spread, t)  # type: ignore[operator]
        k = min(int(p * buckets), buckets - 1)
        seen[k] += n
        predicted[k] += p * n
        observed[k] += tallies.half_wins[(t, spread)] / 2
    return [
        CalibrationRow(k / buckets, (k + 1) / buckets, seen[k], predicted[k] / seen[k], observed[k] / seen[k])
        for k in range(buckets)
        if seen[k]
    ]


def scores(
    predict: object, tallies: Tallies, phases: Sequence[tuple[int, int]] | None = None
) -> tuple[float, float]:
    """``(log loss, Brier score)`` per position of ``predict`` on ``tallies`` (lower is better)."""
    loss = brier = 0.0
    total = 0
    for (t, spread), n in tallies.seen.items():
        if phases is not None and not any(low <= t <= high for low, high in phases):
            continue
        p = min(max(predict(spread, t), 1e-12), 1 - 1e-12)  # type: ignore[operator]
        wins = tallies.half_wins[(t, spread)] / 2
        loss -= wins * math.log(p) + (n - wins) * math.log(1 - p)
        # Brier per position: a win counts (1 - p)², a loss p², a tie (½ - p)²; ties are rare and
        # the tally does not tell them from a win and a loss, so they count as half of each
        brier += wins * (1 - p) ** 2 + (n - wins) * p * p
        total += n
    return loss / total, brier / total
