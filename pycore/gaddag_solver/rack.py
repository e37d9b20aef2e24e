"""Racks: the tiles a player holds. ``?`` is a blank; letters in any case; spaces are ignored.

A letter of several characters (a digraph tile) is written in brackets, ``[CH]``; without
brackets, text is split into the alphabet's letters longest first. ``"-"`` is an empty rack
(as in the reference position files).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .alphabet import AlphabetError, shown, split_keeping
from .board import PositionError, letter_tokens, tiles_text, written
from .rules import Rules

BLANK = "?"
COUNTS_SIZE = 64


class RackError(PositionError):
    """A rack that cannot be used; the message names the offending tile."""


class Rack:
    """The tiles on a rack, in the order given. Letters are kept normalized (upper case, folded);
    blanks are ``"?"``. Immutable."""

    __slots__ = ("rules", "tiles", "_counts")

    def __init__(self, text: str | Iterable[str], rules: Rules) -> None:
        """Parse ``text`` (``"AE?RST"``, ``"ae?rst"``, ``"A E ? R S T"``) or take an iterable of tiles.

        Raises RackError when the rack holds more than ``rules.rack_size`` tiles or a tile that
        is not a letter of the alphabet.
        """
        self.rules = rules
        tiles = parse_tiles(text, rules)
        if len(tiles) > rules.rack_size:
            raise RackError(
                f"rack {shown(''.join(map(written, tiles)))!r} has {len(tiles)} tiles; "
                f"the {rules.title} rack holds at most {rules.rack_size}"
            )
        self.tiles: tuple[str, ...] = tuple(tiles)
        self._counts: bytes | None = None

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[str]:
        return iter(self.tiles)

    def __str__(self) -> str:
        return tiles_text(self.tiles, self.rules.alphabet)

    def __repr__(self) -> str:
        return f"Rack({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Rack)
            and self.tiles == other.tiles
            and self.rules.alphabet == other.rules.alphabet
        )

    def __hash__(self) -> int:
        return hash(self.tiles)

    @property
    def blanks(self) -> int:
        return self.tiles.count(BLANK)

    def counts(self) -> bytes:
        """64 bytes as the C core reads them: ``[0]`` blanks, ``[c]`` tiles of letter code ``c``."""
        if self._counts is None:  # once: every solve of the rack passes them (in Pyodide, 8 µs a time)
            counts = bytearray(COUNTS_SIZE)
            code = self.rules.alphabet.code
            for tile in self.tiles:
                counts[0 if tile == BLANK else code(tile)] += 1
            self._counts = bytes(counts)
        return self._counts

    def remove(self, tiles: str | Iterable[str]) -> Rack:
        """The rack left after playing ``tiles`` (``"?"`` for a blank, or a Move's ``tiles_used``),
        in this rack's order. Raises RackError if a tile is not on the rack."""
        used = parse_tiles(tiles, self.rules)
        leave = leave_tiles(self.tiles, used)
        if leave is None:
            raise RackError(f"cannot play {''.join(map(written, used))!r} from rack {str(self)!r}")
        return Rack(leave, self.rules)


def parse_tiles(text: str | Iterable[str], rules: Rules) -> list[str]:
    """Tiles from rack text (or an iterable of tile strings): normalized letters, ``?`` for blanks.
    Raises RackError naming a tile that is not a letter of the alphabet."""
    alphabet = rules.alphabet
    tiles: list[str] = []
    pieces = _pieces(text) if isinstance(text, str) else [str(tile) for tile in text]
    for piece in pieces:
        if piece == BLANK:
            tiles.append(BLANK)
            continue
        normalized = alphabet.normalize(piece)
        try:
            tiles.extend(alphabet.split(normalized))
        except AlphabetError:
            bad = next((ch for ch in normalized if ch not in alphabet.letters), piece)
            raise RackError(
                f"rack tile {bad!r} is not a letter of the {rules.title} alphabet{alphabet.script_hint(bad)}"
            ) from None
    return tiles


def tiles_of_counts(counts: bytes | Sequence[int], letters: Sequence[str]) -> list[str]:
    """Tiles counted by code (``counts[0]`` the blanks, ``counts[c]`` letter c of ``letters``, the
    alphabet's letters), letters in code order, then the blanks."""
    tiles = [letters[c - 1] for c in range(1, min(len(counts), len(letters) + 1)) for _ in range(counts[c])]
    return tiles + [BLANK] * counts[0]


def leave_tiles(rack: Iterable[str], used: Iterable[str]) -> list[str] | None:
    """``rack`` minus ``used`` (first matching copies removed, order kept), or None if a tile of
    ``used`` is missing. Tiles are compared as given (``"?"`` for a blank)."""
    left = list(rack)
    for tile in used:
        try:
            left.remove(tile)
        except ValueError:
            return None
    return left


def _pieces(text: str) -> list[str]:
    text = "".join(text.split())
    if text == "-":
        return []
    try:
        return [token for _, token in letter_tokens(text)] if "[" in text else split_keeping(text, BLANK)
    except ValueError as exc:
        raise RackError(f"rack {text!r}: {exc}") from None
