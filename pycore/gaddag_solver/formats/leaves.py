"""Leave tables: what the tiles a player keeps are worth (docs/leaves-format.md).

A :class:`Leaves` holds a value, in hundredths of a point, for every multiset of 1 to
``rack_size - 1`` tiles that a ruleset's tile distribution allows. It lives in a validated
``.leaves`` file that the C core reads in place; :attr:`Leaves.core` is the ``gd_leaves`` the
move generator takes. Tables come in from CSV (``LEAVE,VALUE`` lines) or from KLV2 (the leave
format wolges, MAGPIE and macondo share) and go out to CSV. A leave a table does not list is
worth 0.

Names resolve like lexicons: ``NAME.leaves`` in the lexicon folders (see lexicons.py).
"""

from __future__ import annotations

import math
import os
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import _core_api as core
from ..alphabet import AlphabetError
from ..board import tiles_text
from ..file_io import LEAVES_CAP, read_capped, write_bytes, write_text
from ..lexicons import find_named_file, lexicon_dirs
from ..rack import BLANK, RackError, parse_tiles
from ..rules import Rules, RulesError

SUFFIX = ".leaves"
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "leaves"  # the trained tables (docs/leaves.md)
# Lexicons without a table of their own play with a related one: ENABLE's words are close to
# TWL06's, and its games were never trained apart.
SHARED_TABLES = {"enable": "twl06"}
MAX_HUNDREDTHS = 32767  # int16, with -32768 reserved: values are ±327.67
KLV_ACCEPTS = 0x800000
KLV_IS_END = 0x400000
KLV_ARC_MASK = 0x3FFFFF
# What characters that are not tiles translate to in a leave key, and what joins keys into one
# string (a key may hold "\n"): one ASCII character that is not a code (0..63), so an invalid
# character splits its key in two and the key count gives it away, and str.translate keeps its
# ASCII fast path.
_INVALID = _SEPARATOR = "\x7f"


class LeavesError(ValueError):
    """A leave table, CSV or KLV2 input that cannot be used; the message names the file and the
    line or byte offset."""


# ---- the tile set and the entry order -------------------------------------------------------------


def tile_set(rules: Rules) -> tuple[list[int], int]:
    """``(tile_counts, max_leave)`` of a ruleset: ``tile_counts[0]`` the blanks, ``[c]`` the
    tiles of letter code c; ``max_leave`` is rack size − 1."""
    max_leave = rules.rack_size - 1
    if not 1 <= max_leave <= core.lib.GD_MAX_LEAVE:
        raise LeavesError(
            f"ruleset {rules.name!r}: a rack of {rules.rack_size} tiles leaves up to {max_leave}; "
            f"leave tables hold 1 to {core.lib.GD_MAX_LEAVE} tiles"
        )
    counts = [rules.blanks, *rules.counts]
    entries = leave_count(counts, max_leave)
    if entries > MAX_ENTRIES:
        raise LeavesError(
            f"ruleset {rules.name!r}: its leave table would hold {entries:,} leaves (racks of "
            f"{rules.rack_size} from {sum(counts)} tiles), more than the {MAX_ENTRIES:,} a table may "
            f"hold (racks of 7 hold 0.9 to 2.9 million, racks of 8 up to 16 million)"
        )
    return counts, max_leave


MAX_ENTRIES = 20_000_000  # leaves in a table: the entry list is built in memory (~1 GB at this size)


def leave_count(counts: Iterable[int], max_leave: int) -> int:
    """How many leaves of 1 to ``max_leave`` tiles the set ``counts`` has (multisets, counted
    without listing them: a table too big to build is refused before any memory is spent)."""
    return _leave_count(tuple(counts), max_leave)


@lru_cache(maxsize=16)
def _leave_count(counts: tuple[int, ...], max_leave: int) -> int:
    ways = [1] + [0] * max_leave  # ways[k]: multisets of k tiles from the codes seen so far
    for count in counts:
        ways = [sum(ways[k - j] for j in range(min(count, k) + 1)) for k in range(max_leave + 1)]
    return sum(ways[1:])


@lru_cache(maxsize=4)
def _entry_keys(limits: tuple[int, ...], max_leave: int) -> tuple[str, ...]:
    """Every leave in entry order, as a string of ``chr(code)`` (blank = chr(0)) in ascending
    code order. Built from the last code back: the leaves of k tiles from codes c..n are those
    with j copies of c (most first, as their strings sort first) followed by each leave of
    k − j tiles from codes c+1..n. List comprehensions do the per-entry work."""
    suffixes: list[list[str]] = [[""]] + [[] for _ in range(max_leave)]
    for code in range(len(limits) - 1, -1, -1):
        char = chr(code)
        grown: list[list[str]] = []
        for k in range(max_leave + 1):
            out: list[str] = []
            for j in range(min(limits[code], k), 0, -1):
                prefix = char * j
                out.extend([prefix + rest for rest in suffixes[k - j]])
            out.extend(suffixes[k])
            grown.append(out)
        suffixes = grown
    return tuple(key for k in range(1, max_leave + 1) for key in suffixes[k])


@lru_cache(maxsize=4)
def _key_index(limits: tuple[int, ...], max_leave: int) -> dict[str, int]:
    keys = _entry_keys(limits, max_leave)
    return dict(zip(keys, range(len(keys)), strict=True))


def _limits(rules: Rules) -> tuple[tuple[int, ...], int]:
    counts, max_leave = tile_set(rules)
    return tuple(min(count, max_leave) for count in counts), max_leave


def entry_keys(rules: Rules) -> tuple[str, ...]:
    """Every leave of the ruleset's tables in entry order, each as a string of ``chr(code)``
    (the blank ``chr(0)``) in ascending code order; by size, sizes ascending."""
    return _entry_keys(*_limits(rules))


def leave_text(key: str, rules: Rules) -> str:
    """A leave key as players write it: letters in alphabet order, blanks (``?``) last; in an
    alphabet with tiles of several letters, written so that it reads back as the same tiles
    (Spanish R, R, S is ``[R]RS``, RR, S is ``[RR]S``)."""
    blanks = key.count("\0")
    return _tiles_of_key(key.replace("\0", "") + "\0" * blanks, rules)


def _tiles_of_key(key: str, rules: Rules) -> str:
    """A key's tiles as text in its own order (chr(0) a blank)."""
    if rules.alphabet.single_characters:
        return key.translate(_letters_table(rules))
    letters = rules.alphabet.letters
    return tiles_text([BLANK if char == "\0" else letters[ord(char) - 1] for char in key], rules.alphabet)


def _key_table(rules: Rules) -> dict[int, str]:
    """str.translate table: each letter (either case, folds included) to chr(its code), the blank
    to chr(0), every other character below 64 to an invalid marker (so no raw control character
    in the input can pass for a code)."""
    table: dict[int, str] = {ordinal: _INVALID for ordinal in range(64)}
    alphabet = rules.alphabet
    for code, letter in enumerate(alphabet.letters, 1):
        if len(letter) == 1:
            table[ord(letter)] = table[ord(letter.lower())] = chr(code)
    for source, target in alphabet.fold.items():
        if len(source) == 1:
            table[ord(source)] = table[ord(source.lower())] = chr(alphabet.code(target))
    table[ord(BLANK)] = chr(0)
    return table


def _letters_table(rules: Rules) -> dict[int, str]:
    """str.translate table from a leave key back to text: chr(0) → ``?``, chr(c) → letter c."""
    table = {0: BLANK}
    for code, letter in enumerate(rules.alphabet.letters, 1):
        table[code] = letter
    return table


def _format_hundredths(value: int) -> str:
    """12.5 for 1250, -0.05 for -5, 3 for 300: at most two decimals, no float rounding."""
    whole, part = divmod(abs(value), 100)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}" if part == 0 else f"{sign}{whole}.{part:02d}".rstrip("0")


def _values_bytes(values: array) -> bytes:
    if sys.byteorder != "little":
        values = array("h", values)
        values.byteswap()
    return values.tobytes()


def _values_array(data: bytes) -> array:
    values = array("h")
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


def _format_error(source: str, error: core.CoreFormatError) -> LeavesError:
    return LeavesError(f"{source}: {error.message} (byte offset {error.offset})")


# ---- the table ------------------------------------------------------------------------------------


class Leaves:
    """A validated leave table for one ruleset. Build it with :meth:`load`, :meth:`from_bytes`,
    :meth:`from_csv`, :meth:`from_klv2` or :meth:`zero`."""

    __slots__ = ("rules", "_data", "_opened", "source")

    def __init__(self, data: bytes, rules: Rules | None = None, source: str = "<bytes>") -> None:
        try:
            opened = core.open_leaves(data)
        except core.CoreFormatError as error:
            raise _format_error(source, error) from None
        if rules is None:
            try:
                rules = Rules.load(opened.ruleset)
            except RulesError:
                raise LeavesError(
                    f"{source}: the table is for ruleset {opened.ruleset!r}, which is not shipped: "
                    "load it with that ruleset's Rules"
                ) from None
        counts, max_leave = tile_set(rules)
        if (opened.ruleset, opened.tile_counts, opened.max_leave) != (rules.name, counts, max_leave):
            raise LeavesError(
                f"{source}: the table is for ruleset {opened.ruleset!r} ({opened.alphabet_size} letters, "
                f"{sum(opened.tile_counts)} tiles, leaves of up to {opened.max_leave}), not for "
                f"{rules.name!r} ({len(rules.alphabet)} letters, {sum(counts)} tiles, leaves of up to "
                f"{max_leave})"
            )
        self.rules = rules
        self._data = bytes(data)
        self._opened = opened
        self.source = source

    # ---- in and out ----------------------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes, rules: Rules | None = None, source: str = "<bytes>") -> Leaves:
        """A table from the bytes of a ``.leaves`` file. Without ``rules`` the shipped ruleset
        named in the file is used; either way the file's tile set must match the ruleset's."""
        return cls(data, rules, source)

    @classmethod
    def load(cls, name_or_path: str | os.PathLike[str], rules: Rules | None = None) -> Leaves:
        """A table from a file, or from ``NAME.leaves`` in the lexicon folders."""
        path = resolve_leaves(name_or_path)
        try:
            data = core.read_checked(path, "leaves")  # the header first: a file that is not one is not read
        except OSError as error:
            raise LeavesError(f"{path}: cannot read: {error.strerror or error}") from None
        except core.CoreFormatError as error:
            raise _format_error(str(path), error) from None
        return cls(data, rules, str(path))

    @classmethod
    def for_lexicon(cls, lexicon: Any, rules: Rules | None = None) -> Leaves | None:
        """The trained table that goes with a lexicon (a Lexicon, or its name) and, when given, the
        ruleset (:func:`default_leaves`): ``sowpods`` for SOWPODS, ``twl06`` for TWL06 and ENABLE,
        ``enable-wwf`` for ENABLE under Words With Friends' rules, or a table of the lexicon's name
        in the lexicon folders; None when there is none. What ``solve --equity`` and the page use
        by default."""
        name = lexicon if isinstance(lexicon, str) else str(getattr(lexicon, "name", ""))
        found = default_leaves(Path(name).name.removesuffix(".gaddag"), None if rules is None else rules.name)
        return None if found is None else cls.load(found, rules)

    def to_bytes(self) -> bytes:
        return self._data

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the ``.leaves`` file whole or not at all (a temporary file renamed into place)."""
        write_bytes(path, self._data)

    @classmethod
    def zero(cls, rules: Rules) -> Leaves:
        """A table in which every leave is worth 0."""
        limits, max_leave = _limits(rules)
        count = len(_entry_keys(limits, max_leave))
        return cls._build(rules, array("h", bytes(2 * count)), "<zero>")

    @classmethod
    def from_function(cls, rules: Rules, value: Callable[[str], float], source: str = "<function>") -> Leaves:
        """A table holding ``value(leave)`` for every leave of the ruleset, the leave written as
        its tiles in alphabet order with blanks (``?``) last. Values are rounded to 1/100 point."""
        values = array("h")
        for key in entry_keys(rules):
            leave = leave_text(key, rules)
            values.append(_hundredths(value(leave), f"{source}: leave {leave}"))
        return cls._build(rules, values, source)

    @classmethod
    def from_hundredths(cls, rules: Rules, values: Iterable[int], source: str = "<values>") -> Leaves:
        """A table from values in hundredths of a point, one per leave in entry order
        (:func:`entry_keys`), each within ±327.67 points."""
        packed = array("h")
        try:
            packed.extend(values)
        except (OverflowError, TypeError) as error:
            raise LeavesError(
                f"{source}: values must be whole hundredths within ±327.67 points ({error})"
            ) from None
        expected = len(entry_keys(rules))
        if len(packed) != expected:
            raise LeavesError(f"{source}: {len(packed)} values, the {rules.name} table has {expected} leaves")
        if -MAX_HUNDREDTHS - 1 in packed:
            raise LeavesError(f"{source}: -327.68 is reserved; values are within ±327.67 points")
        return cls._build(rules, packed, source)

    @classmethod
    def _build(cls, rules: Rules, values: array, source: str) -> Leaves:
        counts, max_leave = tile_set(rules)
        try:
            data = core.build_leaves(counts, max_leave, rules.name.encode(), _values_bytes(values))
        except core.CoreBuildError as error:
            raise LeavesError(f"{source}: {error}") from None
        return cls(data, rules, source)

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str], rules: Rules) -> Leaves:
        """A table from a CSV file (UTF-8, at most LEAVES_CAP bytes) of ``LEAVE,VALUE`` lines:
        see :meth:`from_csv_text`. ``path`` is always a path, whatever it holds (commas too)."""
        source = os.fspath(path)
        if not isinstance(source, str):
            raise TypeError(f"from_csv takes a path as str or os.PathLike, not {type(path).__name__}")
        return cls.from_csv_text(_read_text(source, "leave CSV file"), rules, source)

    @classmethod
    def from_csv_text(cls, text: str, rules: Rules, source: str = "<CSV text>") -> Leaves:
        """A table from CSV text, ``LEAVE,VALUE`` lines: ``?`` for a blank, letters in any order
        and case, values in points (rounded to 1/100). A leave the CSV does not list is worth 0.
        Blank lines and lines starting with ``#`` are skipped. ``source`` names it in errors."""
        limits, max_leave = _limits(rules)
        index_of = _key_index(limits, max_leave)
        values = _csv_bulk(text, rules, index_of)
        if values is None:  # something is off: the line-by-line reader says exactly what
            values = _csv_lines(text, source, rules, index_of)
        return cls._build(rules, values, source)

    @classmethod
    def from_klv2(cls, path_or_bytes: str | os.PathLike[str] | bytes, rules: Rules) -> Leaves:
        """A table from a KLV2 file: a u32 count of KWG nodes, the nodes (a DAWG of the leaves;
        tile 0 the blank, tile t the ruleset's letter code t), a u32 count of values and that
        many float32, all little-endian, the values in the order the DAWG spells the leaves."""
        if isinstance(path_or_bytes, bytes | bytearray | memoryview):
            data, source = bytes(path_or_bytes), "<klv2>"
        else:
            source = os.fspath(path_or_bytes)
            try:
                data = read_capped(source, LEAVES_CAP, "KLV2 file", LeavesError)
            except OSError as error:
                raise LeavesError(f"{source}: cannot read: {error.strerror or error}") from None
        limits, max_leave = _limits(rules)
        index_of = _key_index(limits, max_leave)
        keys, floats = _read_klv2(data, source, len(limits) - 1, max_leave)
        values = array("h", bytes(2 * len(index_of)))
        done = bytearray(len(index_of))
        letters = _letters_table(rules)
        values_offset = len(data) - 4 * len(floats)
        for position, (word, points) in enumerate(zip(keys, floats, strict=True)):
            text = word.translate(letters)
            where = (
                f"{source}: leave {position} ({text!r}, value at byte offset {values_offset + 4 * position})"
            )
            index = index_of.get("".join(sorted(word)))
            if index is None:
                index = _diagnose(text, rules, index_of, where)
            if done[index]:
                raise LeavesError(f"{where}: the leave appears twice")
            done[index] = 1
            values[index] = _hundredths(points, where)
        return cls._build(rules, values, source)

    def csv_text(self) -> str:
        """The table as ``LEAVE,VALUE`` lines in entry order, tiles sorted blank first."""
        values = _values_array(core.leaves_values(self._opened))
        formatted = {value: _format_hundredths(value) for value in set(values)}
        limits, max_leave = _limits(self.rules)
        keys = _entry_keys(limits, max_leave)
        if self.rules.alphabet.single_characters:
            letters = _letters_table(self.rules)
            texts = [key.translate(letters) for key in keys]
        else:  # tiles of several letters: each leave written so that it reads back (leave_text)
            texts = [_tiles_of_key(key, self.rules) for key in keys]
        return "".join([f"{text},{formatted[value]}\n" for text, value in zip(texts, values, strict=True)])

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`csv_text` whole or not at all (a temporary file renamed into place)."""
        write_text(path, self.csv_text())

    # ---- queries --------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._opened.count

    def __repr__(self) -> str:
        return f"Leaves({self.ruleset!r}, {len(self)} leaves, from {self.source})"

    @property
    def ruleset(self) -> str:
        return self._opened.ruleset

    @property
    def max_leave(self) -> int:
        return self._opened.max_leave

    @property
    def core(self) -> Any:
        """The C core's ``gd_leaves`` (a ``gd_leaves *`` under cffi), valid while this object
        lives: it points into bytes this object keeps."""
        return self._opened.struct

    def counts(self, leave: str) -> bytes:
        """A leave's tiles as the core counts them (64 bytes, [0] the blanks)."""
        try:
            tiles = parse_tiles(leave, self.rules)
        except RackError as error:
            raise LeavesError(f"leave {leave!r}: {error}") from None
        counts = bytearray(64)
        for tile in tiles:
            code = 0 if tile == BLANK else self.rules.alphabet.code(tile)
            counts[code] = min(255, counts[code] + 1)
        return bytes(counts)

    def value(self, leave: str) -> float:
        """What keeping ``leave`` (``"AE?"``, any order) is worth in points: 0 for no tiles or
        a leave the table does not hold."""
        return core.leaves_value(self._opened, self.counts(leave)) / 100

    def hundredths(self) -> array:
        """Every value in hundredths of a point, in entry order (an ``array('h')``)."""
        return _values_array(core.leaves_values(self._opened))

    def items(self) -> Iterator[tuple[str, float]]:
        """``(leave, points)`` for every entry, in entry order."""
        letters = _letters_table(self.rules)
        limits, max_leave = _limits(self.rules)
        for key, value in zip(_entry_keys(limits, max_leave), self.hundredths(), strict=True):
            yield key.translate(letters), value / 100

    def stats(self) -> dict[str, float | int | str]:
        """What ``gaddag-solver leaves info`` shows."""
        values = self.hundredths()
        return {
            "ruleset": self.ruleset,
            "entries": len(values),
            "max_leave": self.max_leave,
            "bytes": len(self._data),
            "min": min(values) / 100,
            "max": max(values) / 100,
            "mean": round(sum(values) / len(values) / 100, 4),
        }


# ---- helpers for the importers -----------------------------------------------------------------


def resolve_leaves(name_or_path: str | os.PathLike[str]) -> Path:
    """The file for a leave table: an existing path, else ``NAME.leaves`` in the lexicon folders,
    else a table shipped with the package (``sowpods``, ``twl06``)."""
    found = find_named_file(name_or_path, SUFFIX) or _shipped(os.fspath(name_or_path))
    if found is None:
        where = ", ".join(str(folder) for folder in [*lexicon_dirs(), SHIPPED_DIR])
        raise LeavesError(
            f"no leave table {os.fspath(name_or_path)!r}: not a file, and no such {SUFFIX} in {where}"
        )
    return found


def _shipped(name: str) -> Path | None:
    name = name.removesuffix(SUFFIX).lower()
    if not name or not all(ch.isalnum() or ch in "-_" for ch in name):
        return None
    path = SHIPPED_DIR / f"{name}{SUFFIX}"
    return path if path.is_file() else None


def default_leaves(lexicon: str, rules: str | None = None) -> str | None:
    """The name of the leave table that goes with a lexicon (by its name), if one can be found:
    its own, or the one it shares (enable plays with twl06's). With a ruleset's name, a table
    made for that lexicon and ruleset comes first (``LEXICON-RULES``, e.g. ``enable-wwf``), and a
    table stamped with another ruleset is never the answer: Super Scrabble plays ENABLE with 200
    tiles, and a table of the 100-tile game does not fit it."""
    lexicon = lexicon.lower()
    shared = SHARED_TABLES.get(lexicon, lexicon)
    names = [shared]
    if rules:
        names = [f"{lexicon}-{rules.lower()}", f"{shared}-{rules.lower()}", shared]
    for name in dict.fromkeys(names):
        try:
            path = resolve_leaves(name)
        except LeavesError:
            continue
        if rules is None or _stamped_ruleset(path) in (rules, None):
            return name
    return None


def _stamped_ruleset(path: Path) -> str | None:
    """The ruleset a table file is stamped with; None when it cannot be read (its loader will
    say why)."""
    try:
        return core.open_leaves(core.read_checked(path, "leaves")).ruleset
    except (OSError, core.CoreFormatError):
        return None


def _read_text(source: str, what: str) -> str:
    """A UTF-8 file (a byte order mark skipped), refused over LEAVES_CAP."""
    try:
        return read_capped(source, LEAVES_CAP, what, LeavesError).decode("utf-8-sig")
    except OSError as error:
        hint = " (CSV text goes to Leaves.from_csv_text)" if "\n" in source else ""
        raise LeavesError(f"{source}: cannot read: {error.strerror or error}{hint}") from None
    except UnicodeDecodeError as error:
        raise LeavesError(f"{source}: not UTF-8 text: {error.reason} at byte {error.start}") from None


def _csv_bulk(text: str, rules: Rules, index_of: dict[str, int]) -> array | None:
    """The values of a well-formed CSV, parsed a column at a time (each step one C-level call
    over all lines), or None at the first sign of anything unusual."""
    lines = text.splitlines()
    if not lines or text.count(",") != len(lines):
        return None
    fields = ",".join(lines).split(",")
    table = _key_table(rules)
    keys = _SEPARATOR.join(fields[0::2]).translate(table).split(_SEPARATOR)
    if len(keys) != len(lines):
        return None
    entry_keys = list(index_of)
    if keys == entry_keys:  # in entry order (as exported): no look-ups
        indexes: list[int | None] = list(range(len(keys)))
    else:
        indexes = list(map(index_of.get, keys))
    if None in indexes:  # letters not in code order: sort those
        indexes = [
            index_of.get("".join(sorted(key))) if i is None else i
            for key, i in zip(keys, indexes, strict=True)
        ]
        if None in indexes:
            return None
    try:
        hundredths = [round(points * 100) for points in map(float, fields[1::2])]
    except (ValueError, OverflowError):  # not a number, NaN, infinity
        return None
    if max(hundredths) > MAX_HUNDREDTHS or min(hundredths) < -MAX_HUNDREDTHS:
        return None
    if len(set(indexes)) != len(indexes):
        return None
    values = array("h", bytes(2 * len(index_of)))
    for index, value in zip(indexes, hundredths, strict=True):
        values[index] = value
    return values


def _csv_lines(text: str, source: str, rules: Rules, index_of: dict[str, int]) -> array:
    """The values of a CSV read line by line; a LeavesError names the first bad line."""
    table = _key_table(rules)
    values = array("h", bytes(2 * len(index_of)))
    line_of = array("I", bytes(4 * len(index_of)))
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{source}: line {number}"
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        leave, comma, value = stripped.partition(",")
        leave = leave.strip()
        if not comma or "," in value:
            raise LeavesError(f"{where}: expected LEAVE,VALUE, found {_clip(stripped)}")
        if not leave:
            raise LeavesError(f"{where}: no leave before the comma")
        index = index_of.get("".join(sorted(leave.translate(table))))
        if index is None:
            if len(leave) > _LONGEST_LEAVE_TEXT:  # a message quoting it would be as long
                raise LeavesError(
                    f"{where}: leave {leave[:20]!r}… is {len(leave):,} characters long; "
                    f"a {rules.name} leave has at most {tile_set(rules)[1]} tiles"
                )
            index = _diagnose(leave, rules, index_of, where)
        try:
            points = float(value)
        except ValueError:
            raise LeavesError(f"{where}: {_clip(value.strip())} is not a number") from None
        values[index] = _hundredths(points, f"{where}: leave {leave!r}")
        if line_of[index]:
            raise LeavesError(f"{where}: leave {leave!r} is listed twice (first on line {line_of[index]})")
        line_of[index] = number
    return values


_LONGEST_LEAVE_TEXT = 256  # 15 tiles of a few characters each, with spaces: far longer than any leave


def _clip(text: str, keep: int = 30) -> str:
    """``text`` quoted for a message, cut short (a line of a huge file can be the whole file)."""
    return repr(text) if len(text) <= keep else f"{text[:keep]!r}… ({len(text):,} characters)"


def _hundredths(points: float, where: str) -> int:
    if not math.isfinite(points):
        raise LeavesError(f"{where}: value {points} is not a finite number")
    value = round(points * 100)
    if abs(value) > MAX_HUNDREDTHS:
        raise LeavesError(f"{where}: value {points} is outside ±{MAX_HUNDREDTHS / 100}")
    return value


def _diagnose(leave: str, rules: Rules, index_of: dict[str, int], where: str) -> int:
    """The entry of a leave the fast path did not find (it may be written un-normalized), or a
    LeavesError saying why it is not a leave of the ruleset."""
    try:
        tiles = parse_tiles(leave, rules)
    except (RackError, AlphabetError) as error:
        raise LeavesError(f"{where}: {error}") from None
    key = "".join(sorted(chr(0 if tile == BLANK else rules.alphabet.code(tile)) for tile in tiles))
    index = index_of.get(key)
    if index is not None:
        return index
    _, max_leave = tile_set(rules)
    if len(tiles) > max_leave:
        raise LeavesError(
            f"{where}: leave {leave!r} has {len(tiles)} tiles; a {rules.name} leave has at most {max_leave}"
        )
    for tile in dict.fromkeys(tiles):
        available = rules.blanks if tile == BLANK else rules.counts[rules.alphabet.code(tile) - 1]
        if tiles.count(tile) > available:
            raise LeavesError(
                f"{where}: leave {leave!r} holds {tiles.count(tile)} × {tile!r}; "
                f"the {rules.name} set has {available}"
            )
    raise LeavesError(f"{where}: leave {leave!r} is not a leave of ruleset {rules.name!r}")


def _read_klv2(data: bytes, source: str, alphabet_size: int, max_leave: int) -> tuple[list[str], array]:
    """The leaves a KLV2 file's DAWG spells, in its order (strings of chr(tile)), and its values."""
    size = len(data)
    if size < 4:
        raise LeavesError(f"{source}: truncated KLV2: {size} bytes, no node count (byte offset {size})")
    node_count = int.from_bytes(data[:4], "little")
    values_at = 4 + 4 * node_count
    if values_at + 4 > size:
        raise LeavesError(
            f"{source}: truncated KLV2: {node_count} nodes need {values_at + 4} bytes before the values, "
            f"the file has {size} (byte offset {size})"
        )
    if node_count < 1:
        raise LeavesError(f"{source}: KLV2 with no nodes (byte offset 0)")
    nodes = array("I")
    nodes.frombytes(data[4:values_at])
    value_count = int.from_bytes(data[values_at : values_at + 4], "little")
    if values_at + 4 + 4 * value_count != size:
        raise LeavesError(
            f"{source}: KLV2 value count {value_count} at byte offset {values_at} needs a file of "
            f"{values_at + 4 + 4 * value_count} bytes, not {size}"
        )
    floats = array("f")
    floats.frombytes(data[values_at + 4 :])
    if sys.byteorder != "little":
        nodes.byteswap()
        floats.byteswap()
    words: list[str] = []
    budget = [(value_count + 1) * (max_leave + 1) + node_count]

    def node_offset(index: int) -> int:
        return 4 + 4 * index

    def walk(start: int, prefix: str, parent: int) -> None:
        index, previous = start, -1
        while True:
            if not 0 < index < node_count:
                raise LeavesError(
                    f"{source}: KLV2 node {parent} (byte offset {node_offset(parent)}) leads to node "
                    f"{index}, outside 1..{node_count - 1}"
                )
            budget[0] -= 1
            if budget[0] < 0:
                raise LeavesError(f"{source}: KLV2 DAWG spells far more leaves than its {value_count} values")
            node = nodes[index]
            tile = node >> 24
            where = f"{source}: KLV2 node {index} (byte offset {node_offset(index)})"
            if tile > alphabet_size:
                raise LeavesError(f"{where}: tile {tile} is outside 0..{alphabet_size}")
            if tile <= previous:
                raise LeavesError(f"{where}: tile {tile} does not follow its sibling's {previous} in order")
            previous = tile
            word = prefix + chr(tile)
            if len(word) > max_leave:
                raise LeavesError(f"{where}: a leave of more than {max_leave} tiles")
            if node & KLV_ACCEPTS:
                words.append(word)
            arc = node & KLV_ARC_MASK
            if arc:
                walk(arc, word, index)
            if node & KLV_IS_END:
                return
            index += 1

    root = nodes[0] & KLV_ARC_MASK
    if root:
        walk(root, "", 0)
    if len(words) != value_count:
        raise LeavesError(
            f"{source}: the KLV2 DAWG spells {len(words)} leaves but the file has {value_count} values "
            f"(byte offset {values_at})"
        )
    return words, floats
