"""A small leave table for the page's tests, as CSV text, and an independent reading of it.

``sample_csv(rules)`` lists every leave of one to three tiles the ruleset's set allows, each with
a value from a hash of its letters (−12.00 to +12.00, in hundredths; blanks worth more): a few
thousand lines, enough that most moves of a rack keep a listed leave, small enough to build in
a second. ``csv_values(text)`` reads such text back into ``{sorted tiles: hundredths}`` without
the package's CSV reader, so a test can recompute a move's equity on its own;
``full_rack_hundredths`` recomputes what the pass's full rack is worth from any such values.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations_with_replacement

from gaddag_solver import Rules


def _value(leave: str) -> int:
    digest = hashlib.sha256(leave.encode()).digest()
    hundredths = int.from_bytes(digest[:4], "little") % 2401 - 1200
    return hundredths + 1500 * leave.count("?")


def _points(hundredths: int) -> str:
    sign = "-" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    return f"{sign}{whole}.{part:02d}"


def sample_csv(rules: Rules, longest: int = 3) -> str:
    """``LEAVE,VALUE`` lines for every leave of 1..longest tiles of the ruleset's set."""
    available = dict(zip(rules.alphabet.letters, rules.counts, strict=True))
    available["?"] = rules.blanks
    tiles = [tile for tile, count in available.items() if count > 0]
    lines = []
    for size in range(1, longest + 1):
        for leave in combinations_with_replacement(tiles, size):
            if all(leave.count(tile) <= available[tile] for tile in set(leave)):
                text = "".join(leave)
                lines.append(f"{text},{_points(_value(text))}")
    return "\n".join(lines) + "\n"


def leave_key(tiles: list[str] | str) -> str:
    """A leave's tiles in one order (``?`` for a blank; single-character letters)."""
    return "".join(sorted(tiles))


def csv_values(text: str) -> dict[str, int]:
    """``{leave_key: hundredths}`` from ``LEAVE,VALUE`` lines (a leave not listed is worth 0)."""
    out = {}
    for line in text.splitlines():
        if line.strip():
            leave, value = line.split(",")
            out[leave_key(leave.strip().upper())] = round(float(value) * 100)
    return out


def full_rack_hundredths(value: Callable[[str], int], rack: str) -> int:
    """What a pass keeping the whole of `rack` is worth, in hundredths, recomputed from the rule
    of docs/equity.md ("The pass and the full rack"): the values (``value(leave_key)``, in
    hundredths) of the racks of one tile fewer — one for each tile of the rack, a letter it
    holds twice counted twice — summed and divided by the number of tiles less one, rounded to
    the nearest hundredth with halves away from 0."""
    tiles = sorted(rack)
    total = sum(value(leave_key(tiles[:i] + tiles[i + 1 :])) for i in range(len(tiles)))
    mean = Fraction(total, len(tiles) - 1)
    rounded = math.floor(abs(mean) + Fraction(1, 2))
    return rounded if mean >= 0 else -rounded
