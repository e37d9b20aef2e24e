"""Win probability: the chance that the player on turn wins from a given spread (docs/win-probability.md).

The model, fitted from self-played games (``gaddag-solver fit-win-probability``)::

    P(the player on turn wins) = Φ((spread + mean[t]) / sigma[t])

where ``t`` is the number of tiles not yet played (the bag and both racks) and ``spread`` the
on-turn player's score minus the opponent's, plus the value of the leave each kept with their
last move (hundredths in the core, points here). ``mean[t]`` is what being on turn is worth and
``sigma[t]`` how far the final margin still moves. A tie counts half.

The numbers live in a small validated JSON file stamped with its ruleset (the name, the tile total
and the rack size): a file of another ruleset, a damaged one or one with a missing or impossible
field is refused with a message naming the file and the field. The shipped files are found by
the ruleset's name (:meth:`WinProbability.for_rules`).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..file_io import read_capped, write_text
from ..rules import Rules

FORMAT = "gaddag-solver win probability"
VERSION = 1
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "winprob"  # the fitted files
SUFFIX = ".json"
FILE_CAP = 1 << 20  # a file holds two numbers per tile of the set: a few kB
MAX_SIGMA = 1000.0  # points; a real game's margin never moves by more than a few hundred
MAX_MEAN = 1000.0


class WinProbabilityError(ValueError):
    """A win-probability file that cannot be used; the message names the file and the field."""


def normal_cdf(x: float) -> float:
    """Φ(x), the standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


@dataclass(frozen=True)
class WinProbability:
    """The fitted model of one ruleset: ``mean[t]`` and ``sigma[t]`` for t = 0 .. tiles."""

    rules: str  # the ruleset's name
    tiles: int  # tiles in its set (the stamp, with rack_size)
    rack_size: int
    mean: tuple[float, ...]
    sigma: tuple[float, ...]
    about: dict[str, Any] = field(default_factory=dict, compare=False)  # how it was made

    def __post_init__(self) -> None:
        if len(self.mean) != self.tiles + 1 or len(self.sigma) != self.tiles + 1:
            raise WinProbabilityError(
                f"mean and sigma need {self.tiles + 1} values each (t = 0 .. {self.tiles}), "
                f"not {len(self.mean)} and {len(self.sigma)}"
            )

    def probability(self, spread: float, unplayed: int, on_turn: bool = True) -> float:
        """The chance of winning (a tie counts half) of a player ahead by ``spread`` points with
        ``unplayed`` tiles not yet played, on turn or not."""
        if not 0 <= unplayed <= self.tiles:
            raise ValueError(f"{unplayed} tiles unplayed: the set has {self.tiles}")
        sigma = self.sigma[unplayed]
        shift = self.mean[unplayed] if on_turn else -self.mean[unplayed]
        if sigma <= 0:
            total = spread + shift
            return 1.0 if total > 0 else 0.0 if total < 0 else 0.5
        return normal_cdf((spread + shift) / sigma)

    def check_rules(self, rules: Rules, source: str = "win probability") -> None:
        """Refuse a model made for another ruleset."""
        if (self.rules, self.tiles, self.rack_size) != (rules.name, rules.tile_total, rules.rack_size):
            raise WinProbabilityError(
                f"{source}: made for {self.rules!r} ({self.tiles} tiles, racks of {self.rack_size}), "
                f"not {rules.name!r} ({rules.tile_total} tiles, racks of {rules.rack_size})"
            )

    # ---- files ----------------------------------------------------------------------------------

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "tiles": self.tiles,
            "rack_size": self.rack_size,
            **{key: value for key, value in self.about.items() if key not in _FIELDS},
            "mean": [round(value, 3) for value in self.mean],
            "sigma": [round(value, 3) for value in self.sigma],
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the file whole or not at all."""
        write_text(path, self.to_json())

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "<json>") -> WinProbability:
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise WinProbabilityError(f"{source}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise WinProbabilityError(f"{source}: not a win-probability file (a JSON object is expected)")
        if data.get("format") != FORMAT:
            raise WinProbabilityError(
                f"{source}: not a win-probability file (format is {data.get('format')!r})"
            )
        if data.get("version") != VERSION:
            raise WinProbabilityError(
                f"{source}: version {data.get('version')!r}; this build reads {VERSION}"
            )
        name = data.get("rules")
        if not isinstance(name, str) or not name:
            raise WinProbabilityError(f"{source}: field 'rules' must name a ruleset")
        tiles = _whole(source, data, "tiles", 1, 10_000)
        rack_size = _whole(source, data, "rack_size", 1, 64)
        mean = _numbers(source, data, "mean", tiles + 1, -MAX_MEAN, MAX_MEAN)
        sigma = _numbers(source, data, "sigma", tiles + 1, 0.0, MAX_SIGMA)
        for t in range(1, tiles + 1):
            if sigma[t] <= 0:
                raise WinProbabilityError(
                    f"{source}: sigma[{t}] is {sigma[t]}; it must be above 0 with tiles unplayed"
                )
        about = {key: value for key, value in data.items() if key not in _FIELDS}
        return cls(name, tiles, rack_size, tuple(mean), tuple(sigma), about)

    @classmethod
    def load(cls, path: str | os.PathLike[str], rules: Rules | None = None) -> WinProbability:
        """Read and check a file; with ``rules``, refuse one made for another ruleset."""
        source = os.fspath(path)
        model = cls.from_json(
            read_capped(path, FILE_CAP, "win-probability file", WinProbabilityError), source
        )
        if rules is not None:
            model.check_rules(rules, source)
        return model

    @classmethod
    def for_rules(cls, rules: Rules) -> WinProbability | None:
        """The shipped model of a ruleset (by its name), or None when it has none."""
        path = shipped_path(rules.name)
        if path is None:
            return None
        model = _load_shipped(path)
        return model if (model.tiles, model.rack_size) == (rules.tile_total, rules.rack_size) else None


@lru_cache(maxsize=8)
def _load_shipped(path: Path) -> WinProbability:
    return WinProbability.load(path)


_FIELDS = ("format", "version", "rules", "tiles", "rack_size", "mean", "sigma")


def shipped_path(name: str) -> Path | None:
    """The shipped file of ruleset ``name``, if there is one."""
    name = name.lower()
    if not name or not all(ch.isalnum() or ch in "-_" for ch in name):
        return None
    path = SHIPPED_DIR / f"{name}{SUFFIX}"
    return path if path.is_file() else None


def _whole(source: str, data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WinProbabilityError(
            f"{source}: field {key!r} must be a whole number from {low} to {high}, not {value!r}"
        )
    return value


def _numbers(source: str, data: dict[str, Any], key: str, count: int, low: float, high: float) -> list[float]:
    values = data.get(key)
    if not isinstance(values, list) or len(values) != count:
        got = f"{len(values)} values" if isinstance(values, list) else repr(type(values).__name__)
        raise WinProbabilityError(f"{source}: field {key!r} must be a list of {count} numbers, not {got}")
    out = []
    for t, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise WinProbabilityError(
                f"{source}: {key}[{t}] must be a number from {low:g} to {high:g}, not {value!r}"
            )
        out.append(float(value))
    return out
