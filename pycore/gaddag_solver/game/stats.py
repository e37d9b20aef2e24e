"""Small statistics for self-play: a proportion with its Wilson interval, a mean with its t
interval. Standard library only (the browser build has no SciPy).

Wilson's score interval (E. B. Wilson, JASA 22(158):209–212, 1927) stays inside [0, 1] and
keeps its coverage near 0 and 1 and for small samples, where the textbook p ± z·√(p(1−p)/n)
does not; a draw counts as half a win, so the number of successes may end in .5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal
# Student's t, two-sided 95% (the 97.5th percentile), for 1..30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


@dataclass(frozen=True)
class Interval:
    """An estimate and its 95% confidence interval."""

    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}


def t95(df: int) -> float:
    """The two-sided 95% critical value of Student's t with `df` degrees of freedom: from the
    table up to 30, beyond that the Cornish–Fisher expansion around the normal (error < 1e-4)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def wilson(successes: float, n: int) -> Interval:
    """A proportion successes/n with its 95% Wilson score interval."""
    if n < 1:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials")
    p = successes / n
    z2 = Z95 * Z95
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = Z95 / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], centre: float | None = None) -> Interval:
    """The mean of `values` with its 95% t interval (normal for large samples, as t tends to it).

    `centre` replaces the mean the interval is drawn around: for a mean taken over more detailed
    data than the (independent) units the spread is estimated from, as mirrored game pairs."""
    n = len(values)
    if n < 1:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    value = mean if centre is None else centre
    if n == 1:
        return Interval(value, -math.inf, math.inf)
    variance = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(variance / n)
    return Interval(value, value - half, value + half)
