"""From what racks were worth in self-play to a leave table (the method: docs/leaves.md).

Self-play records, for every full rack drawn, the equity of its best move, and adds it to every
leave the rack holds (``gd_train_game``). A leave's *raw* value is the mean equity of the racks
that held it minus the mean over all racks: how much better a rack is for holding those tiles.

Common leaves are seen thousands of times and their raw means are precise; rare ones (two blanks
with a Z, six-tile leaves of heavy letters) are seen a few times or never, and a raw mean of
three racks is mostly noise. So each value is *shrunk* toward a prior built from smaller leaves,
in proportion to how little it was seen (empirical Bayes):

    value = (n * raw + m * prior) / (n + m)

- the prior of a leave of k tiles is a least-squares fit, over the well-seen leaves of that
  size, of ``a + b * x1 + c * x2``, where x1 sums the values of its single tiles and x2 sums the
  *synergies* of its pairs (a pair's value minus its two tiles' values): duplicates, Q without U
  and vowel–consonant balance all show up in the pairs;
- m = (variance of one rack's equity) / (variance of the true values around the prior), both
  measured from the data, so a leave counts as known once its own racks outweigh the prior.

Sizes are done in ascending order, so the singles and pairs a prior uses are already smoothed.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any

from ..formats.leaves import MAX_HUNDREDTHS, entry_keys
from ..rules import Rules

FIT_MIN_SEEN = 100  # racks a leave needs to enter the fit of its size's prior
TAU_FLOOR = 0.01  # the true values' spread around the prior is at least this share of the noise


@dataclass(frozen=True)
class SizeReport:
    """How the leaves of one size were valued."""

    size: int
    entries: int
    seen: int  # entries held by at least one rack
    median_racks: int  # racks per entry, median
    fitted: int  # entries in the prior's fit
    coefficients: tuple[float, ...]  # a, b (x1), c (x2) of the prior, as far as the size uses them
    prior_weight: float  # m: the prior counts as this many racks

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "entries": self.entries,
            "seen": self.seen,
            "median_racks": self.median_racks,
            "fitted": self.fitted,
            "coefficients": [round(c, 4) for c in self.coefficients],
            "prior_weight": round(self.prior_weight, 2),
        }


@dataclass(frozen=True)
class Estimate:
    values: array  # array('h'): hundredths of a point, in entry order
    racks: int  # racks recorded
    mean: float  # mean equity of a rack, points
    noise_sd: float  # standard deviation of one rack's equity, points
    sizes: tuple[SizeReport, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "racks": self.racks,
            "mean_rack_equity": round(self.mean, 3),
            "rack_equity_sd": round(self.noise_sd, 3),
            "sizes": [size.to_dict() for size in self.sizes],
        }


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; None when singular."""
    n = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-9:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _fit(features: list[tuple[float, ...]], targets: list[float], weights: list[float]) -> list[float] | None:
    """Weighted least squares of targets on features (each with a leading 1)."""
    width = len(features[0])
    normal = [[0.0] * width for _ in range(width)]
    right = [0.0] * width
    for x, y, w in zip(features, targets, weights, strict=True):
        for i in range(width):
            wx = w * x[i]
            right[i] += wx * y
            row = normal[i]
            for j in range(width):
                row[j] += wx * x[j]
    return _solve(normal, right)


def estimate(
    sums: array, seen: array, totals: tuple[int, int, int], rules: Rules, *, smooth: bool = True
) -> Estimate:
    """Leave values from rack statistics: `sums` (array('q'), hundredths) and `seen`
    (array('I')) per entry, `totals` = (racks, their summed equity, their summed squared
    equity). Without `smooth`, a leave's value is its raw mean (0 when never seen)."""
    racks, total, squares = totals
    if racks < 1:
        raise ValueError("no racks were recorded: play some training games first")
    keys = entry_keys(rules)
    if len(sums) != len(keys) or len(seen) != len(keys):
        raise ValueError(f"statistics for {len(sums)} leaves, the ruleset's table has {len(keys)}")
    mean = total / racks
    noise = max(squares / racks - mean * mean, 1.0)  # hundredths squared
    values = [0.0] * len(keys)
    single: dict[str, float] = {}
    synergy: dict[str, float] = {}
    reports = []
    start = 0
    max_leave = len(keys[-1])
    for size in range(1, max_leave + 1):
        stop = start
        while stop < len(keys) and len(keys[stop]) == size:
            stop += 1
        features = [_features(keys[i], size, single, synergy) for i in range(start, stop)]
        raw = [sums[i] / seen[i] - mean if seen[i] else 0.0 for i in range(start, stop)]
        counts = [seen[i] for i in range(start, stop)]
        fitted = [j for j, n in enumerate(counts) if n >= FIT_MIN_SEEN]
        width = len(features[0])
        coefficients = None
        if len(fitted) > 2 * width:
            coefficients = _fit(
                [features[j] for j in fitted], [raw[j] for j in fitted], [counts[j] for j in fitted]
            )
        if coefficients is None:  # too little data for a fit: the singles and pairs add up
            coefficients = [0.0] + [1.0] * (width - 1)
        prior = [sum(c * x for c, x in zip(coefficients, f, strict=True)) for f in features]
        spread = 0.0
        weight = 0
        for j in fitted:
            spread += counts[j] * ((raw[j] - prior[j]) ** 2 - noise / counts[j])
            weight += counts[j]
        tau = max(spread / weight if weight else 0.0, TAU_FLOOR * noise)
        m = noise / tau
        for j in range(stop - start):
            n = counts[j]
            if smooth:
                values[start + j] = (n * raw[j] + m * prior[j]) / (n + m)
            else:
                values[start + j] = raw[j]
        if size == 1:
            single = {keys[i]: values[i] for i in range(start, stop)}
        elif size == 2:
            synergy = {
                keys[i]: values[i] - single[keys[i][0]] - single[keys[i][1]] for i in range(start, stop)
            }
        ordered = sorted(counts)
        reports.append(
            SizeReport(
                size,
                stop - start,
                sum(1 for n in counts if n),
                ordered[len(ordered) // 2],
                len(fitted),
                tuple(coefficients),
                m,
            )
        )
        start = stop
    out = array("h", (max(-MAX_HUNDREDTHS, min(MAX_HUNDREDTHS, round(v))) for v in values))
    return Estimate(out, racks, mean / 100, noise**0.5 / 100, tuple(reports))


def _features(key: str, size: int, single: dict[str, float], synergy: dict[str, float]) -> tuple[float, ...]:
    if size == 1:
        return (1.0,)
    x1 = sum(single[t] for t in key)
    if size == 2:
        return (1.0, x1)
    x2 = 0.0
    for i in range(size - 1):
        first = key[i]
        for j in range(i + 1, size):
            x2 += synergy[first + key[j]]
    return (1.0, x1, x2)
