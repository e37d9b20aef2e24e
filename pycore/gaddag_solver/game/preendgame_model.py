"""The pre-endgame's model and its answer (docs/preendgame.md): the worlds (splits of the unseen
tiles, weighted by the ways the tiles fall so) and the draws from the bag as sub-multisets, a
decision's and a root candidate's values, and the result types a search reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from ..move import Move
from .play import GameError

EXACT, RULED_OUT, PENDING = "exact", "ruled out", "pending"
# the estimate with 3 to 6 in the bag (preendgame_halving.py): still in the running, or dropped
ESTIMATED, DROPPED = "estimated", "dropped"


class _OverBudget(Exception):
    """A world's value needs more endgame positions than the first pass allows."""


class _Interrupted(Exception):
    """The time limit passed or stop() was called: unwinds to the root, whose work so far stands."""


class PreendgameError(GameError):
    """A position the pre-endgame solver cannot take (the bag empty or too full, the game over)."""


def _add(a: bytes, b: bytes) -> bytes:
    return bytes(x + y for x, y in zip(a, b, strict=True))


def _sub(a: bytes, b: bytes) -> bytes:
    return bytes(x - y for x, y in zip(a, b, strict=True))


def sub_multisets(counts: bytes, size: int) -> Iterator[tuple[bytes, int]]:
    """Every way to take ``size`` tiles from ``counts`` (as counts), with the number of ways
    the tiles themselves can be picked (the product of C(counts[c], taken[c]))."""
    codes = [c for c, n in enumerate(counts) if n]
    taken = bytearray(len(counts))

    def walk(i: int, left: int, ways: int) -> Iterator[tuple[bytes, int]]:
        if left == 0:
            yield bytes(taken), ways
            return
        if i == len(codes):
            return
        c = codes[i]
        for n in range(min(left, counts[c]), -1, -1):
            taken[c] = n
            yield from walk(i + 1, left - n, ways * comb(counts[c], n))
        taken[c] = 0

    yield from walk(0, size, 1)


@dataclass(frozen=True)
class World:
    """One split of the unseen tiles: the opponent's rack, the bag, and its weight."""

    opponent: bytes
    bag: bytes
    weight: int


@dataclass
class _Decision:
    record: bytes
    values: dict[bytes, Fraction]  # the chosen move's outcome per world (the opponent's rack)


@dataclass
class _Root:
    record: bytes
    left: int  # the weight of the worlds not yet valued
    values: dict[bytes, Fraction] = field(default_factory=dict)
    total: Fraction = Fraction(0)  # the weighted outcome over the worlds valued: a lower bound
    status: str = PENDING

    def add(self, world: World, value: Fraction) -> None:
        self.values[world.opponent] = value
        self.total += world.weight * value
        self.left -= world.weight


@dataclass(frozen=True)
class PreendgameCandidate:
    """A move of the player to move: its probability of winning (a tie counts half), exact when
    ``status`` is "exact", else between ``win_low`` and ``win_high`` (proven bounds; "ruled out":
    ``win_high`` is no more than the best's), and its outcome in each world valued."""

    move: Move
    status: str
    win_low: Fraction
    win_high: Fraction
    worlds: list[tuple[str, str, int, Fraction | None]]  # (bag, opponent's rack, weight, outcome)
    # "estimated" or "dropped" (3 to 6 in the bag): the outcome averaged over the worlds valued
    # (by weight), and how many they are
    estimate: Fraction | None = None
    worlds_valued: int = 0

    @property
    def win(self) -> Fraction | None:
        return self.win_low if self.status == EXACT else None

    def to_dict(self) -> dict[str, object]:
        return {
            "move": str(self.move),
            "status": self.status,
            "win": None if self.win is None else float(self.win),
            "win_low": float(self.win_low),
            "win_high": float(self.win_high),
            "estimate": None if self.estimate is None else float(self.estimate),
            "worlds_valued": self.worlds_valued,
            "worlds": [
                {"bag": bag, "opponent": rack, "weight": w, "outcome": None if o is None else float(o)}
                for bag, rack, w, o in self.worlds
            ],
        }


@dataclass(frozen=True)
class PreendgameResult:
    """The candidates in equity order, the best so far, and how the search stands."""

    candidates: list[PreendgameCandidate]
    best_index: int | None
    complete: bool  # every candidate exact or ruled out (halving: its last round done)
    bag: int
    worlds: int
    nodes: int  # endgame positions visited
    endgames: int  # endgames searched
    elapsed: float
    reason: str  # "solved", "estimated" (halving done), "time", "stopped", "running"
    method: str = "exact"  # or "halving": estimates (docs/preendgame.md, "3 to 6 in the bag")

    @property
    def best(self) -> PreendgameCandidate:
        if self.best_index is None:
            raise PreendgameError("no candidate has been valued in every world yet")
        return self.candidates[self.best_index]

    def to_dict(self) -> dict[str, object]:
        return {
            "bag": self.bag,
            "method": self.method,
            "worlds": self.worlds,
            "complete": self.complete,
            "best": None if self.best_index is None else str(self.best.move),
            "nodes": self.nodes,
            "endgames": self.endgames,
            "elapsed": round(self.elapsed, 3),
            "reason": self.reason,
            "candidates": [c.to_dict() for c in self.candidates],
        }
