"""Rulesets: board size and premium layout, alphabet, tile values and counts, blanks, rack and bonus.

Rules are data, not code. Each ruleset is a JSON file in this package's ``rules/`` folder
(``english``, ``super``, ``wwf``, ``polish``, ``russian``, ``erudit``); docs/rules.md documents the
schema and where every shipped fact comes from. ``Rules.load("english")`` reads a shipped ruleset,
``Rules.load(path)`` reads any file of the same schema, ``Rules.from_dict`` checks a mapping.

The loader rejects anything it does not fully understand: unknown or missing fields, wrong types,
a layout that is not rows×cols of known premium characters, a start square off the board, negative
values or counts, letters that are not NFC upper case or appear twice, fold targets that are not
letters, vowels that are not letters, game fields (exchanges, scoreless turns, going out) out of
bounds. Every error is a :class:`RulesError` whose message names the file and the field.

Premium characters: ``.`` plain, ``d``/``t``/``q`` double/triple/quadruple letter, ``D``/``T``/``Q``
double/triple/quadruple word. When ``start_doubles`` is false the start square multiplies
nothing, whatever its character (Эрудит and Words With Friends have a plain centre).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .alphabet import BLANK_FLAG, MAX_LETTERS, Alphabet, AlphabetError, normalize_text
from .file_io import RULES_CAP, read_capped

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

DEFAULT_RULES = "english"
MIN_SIDE = 2
MAX_SIDE = 32
#: Bounds of the game fields: far beyond any real game, small enough that no score can overflow
#: the core's 32-bit integers (10 × a rack's value, 10 000 tiles' worth of exchanges).
MAX_EXCHANGE_MINIMUM = 1000
MAX_SCORELESS_TURNS = 100
MAX_GOING_OUT_MULTIPLE = 10
#: Bounds of the C core (csrc/gaddag_solver.h; tests/test_rules.py checks that they agree): the
#: longest rack (GD_MAX_DIM), a tile's value, the bingo bonus, the tiles of a set (GD_MAX_TILES)
#: and of one letter, and the most a play may score (GD_MAX_SCORE), which keeps equities and game
#: totals far inside 32 bits. :meth:`Rules.score_ceiling` is what a ruleset's plays can score.
MAX_RACK = 32
MAX_TILE_VALUE = 10_000
MAX_BINGO_BONUS = 100_000
MAX_TILES = 1024
MAX_TILES_OF_A_LETTER = 255
MAX_SCORE = 1_000_000
PREMIUM_CHARS = ".dtqDTQ"
LETTER_MULTIPLIERS: Mapping[str, int] = {"d": 2, "t": 3, "q": 4}
WORD_MULTIPLIERS: Mapping[str, int] = {"D": 2, "T": 3, "Q": 4}

#: The schema's fields, in the order the shipped files list them.
FIELDS: tuple[str, ...] = (
    "name",
    "title",
    "language",
    "rows",
    "cols",
    "layout",
    "start",
    "start_doubles",
    "rack_size",
    "bingo_bonus",
    "exchange_minimum",
    "scoreless_turns",
    "going_out_bonus",
    "going_out_penalty",
    "letters",
    "vowels",
    "blanks",
    "blank_value",
    "fold",
    "default_lexicon",
)

_PACKAGE = __name__.rpartition(".")[0]
_NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]*")
_LANGUAGE_RE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{1,8})*")
_LEXICON_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class RulesError(ValueError):
    """A ruleset that cannot be loaded; the message names the file and the field, and ``field``
    holds the field alone (``"layout[4]"``; None when the whole file is at fault), so an editor
    can show the message beside it."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _fail(source: str, field: str, message: str) -> NoReturn:
    raise RulesError(f"{source}: {field}: {message}", field)


def _int(source: str, field: str, value: object, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(source, field, f"must be an integer, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            _fail(source, field, f"must be at least {low}, not {value}")
        if low is None:
            _fail(source, field, f"must be at most {high}, not {value}")
        _fail(source, field, f"must be from {low} to {high}, not {value}")
    return value


def _str(source: str, field: str, value: object, pattern: re.Pattern[str] | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        _fail(source, field, f"must be a non-empty string, not {value!r}")
    if pattern is not None and not pattern.fullmatch(value):
        _fail(source, field, f"{value!r} does not match {pattern.pattern}")
    return value


def _list(source: str, field: str, value: object) -> list[Any]:
    if not isinstance(value, list | tuple):
        _fail(source, field, f"must be a list, not {type(value).__name__}")
    return list(value)


def _letter(source: str, field: str, value: object) -> str:
    letter = _str(source, field, value)
    wanted = normalize_text(letter)
    if letter != wanted:
        if letter.upper() == letter:  # the same upper case letter, composed differently: show code points
            _fail(source, field, f"{ascii(letter)} is not in Unicode NFC (write {ascii(wanted)}, {wanted!r})")
        _fail(source, field, f"{letter!r} is not in NFC upper case (write {wanted!r})")
    return letter


@dataclass(frozen=True)
class Rules:
    """One ruleset. Build it with :meth:`load` or :meth:`from_dict`, which check every field.

    ``premiums[row][col]`` is the layout character of a square; ``values`` and ``counts`` are
    indexed by letter code − 1 (codes as in :class:`~gaddag_solver.alphabet.Alphabet`).

    The game fields: an exchange is allowed only while the bag holds at least
    ``exchange_minimum`` tiles; ``scoreless_turns`` consecutive scoreless turns (both players
    counted) end the game and each player loses their own rack's value; whoever goes out with
    the bag empty gains ``going_out_bonus`` × the opponent's rack value, and the opponent loses
    ``going_out_penalty`` × it. ``vowels`` are the letters the unseen-tiles panel counts as vowels.
    """

    name: str
    title: str
    language: str
    rows: int
    cols: int
    premiums: tuple[tuple[str, ...], ...]
    start: tuple[int, int]
    start_doubles: bool
    rack_size: int
    bingo_bonus: int
    exchange_minimum: int
    scoreless_turns: int
    going_out_bonus: int
    going_out_penalty: int
    alphabet: Alphabet
    values: tuple[int, ...]
    counts: tuple[int, ...]
    blanks: int
    blank_value: int
    default_lexicon: str | None
    vowels: tuple[str, ...]

    # ---- loading --------------------------------------------------------------------------

    @classmethod
    def load(cls, name_or_path: str | Path) -> Rules:
        """A shipped ruleset by name (``"english"``), or any ruleset file by path.

        A ``Path``, or a string containing a path separator or ending in ``.json``, is a path;
        anything else is the name of a file in the package's ``rules/`` folder.
        """
        if isinstance(name_or_path, Path) or _looks_like_path(name_or_path):
            path = Path(name_or_path)
            if "\0" in str(path):
                raise RulesError(f"{str(path)!r}: cannot read: a path holds no NUL byte")
            try:
                text = read_capped(path, RULES_CAP, "ruleset file", RulesError).decode("utf-8")
            except OSError as error:
                raise RulesError(f"{path}: cannot read: {error.strerror or error}") from None
            except UnicodeDecodeError as error:
                raise RulesError(f"{path}: not UTF-8 text: {error.reason} at byte {error.start}") from None
            return cls.from_json(text, source=str(path))
        name = name_or_path
        if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
            raise RulesError(f"{name!r} is not a ruleset name; available: {', '.join(available_rules())}")
        resource = _rules_folder().joinpath(f"{name}.json")
        if not resource.is_file():
            raise RulesError(f"unknown ruleset {name!r}; available: {', '.join(available_rules())}")
        source = f"rules/{name}.json"
        rules = cls.from_json(resource.read_text(encoding="utf-8"), source=source)
        if rules.name != name:
            _fail(source, "name", f"is {rules.name!r}, but a shipped ruleset must be named after its file")
        return rules

    @classmethod
    def from_json(cls, text: str, source: str = "<json>") -> Rules:
        """Parse JSON text (duplicate keys are an error) and check it with :meth:`from_dict`."""
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as error:
            raise RulesError(
                f"{source}: not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
            ) from None
        except _DuplicateKeyError as error:
            raise RulesError(f"{source}: {error.key}: appears twice", error.key) from None
        return cls.from_dict(data, source=source)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<dict>") -> Rules:
        """Check a mapping of the schema (docs/rules.md) field by field and build the Rules."""
        if not isinstance(data, Mapping):
            raise RulesError(f"{source}: the ruleset must be a JSON object, not {type(data).__name__}")
        unknown = [key for key in data if key not in FIELDS]
        if unknown:
            _fail(source, ", ".join(map(str, unknown)), f"unknown field; the fields are {', '.join(FIELDS)}")
        missing = [key for key in FIELDS if key not in data]
        if missing:
            _fail(source, ", ".join(missing), "missing")

        name = _str(source, "name", data["name"], _NAME_RE)
        title = _str(source, "title", data["title"])
        language = _str(source, "language", data["language"], _LANGUAGE_RE)
        rows = _int(source, "rows", data["rows"], MIN_SIDE, MAX_SIDE)
        cols = _int(source, "cols", data["cols"], MIN_SIDE, MAX_SIDE)

        layout = _list(source, "layout", data["layout"])
        if len(layout) != rows:
            _fail(source, "layout", f"has {len(layout)} rows, but rows is {rows}")
        premiums: list[tuple[str, ...]] = []
        for row, line in enumerate(layout):
            field = f"layout[{row}]"
            if not isinstance(line, str):
                _fail(source, field, f"must be a string, not {type(line).__name__}")
            if len(line) != cols:
                _fail(source, field, f"has {len(line)} squares, but cols is {cols}")
            for col, char in enumerate(line):
                if char not in PREMIUM_CHARS:
                    _fail(source, field, f"column {col}: unknown premium {char!r} (known: {PREMIUM_CHARS})")
            premiums.append(tuple(line))

        start_list = _list(source, "start", data["start"])
        if len(start_list) != 2:
            _fail(source, "start", f"must be [row, col], not {start_list!r}")
        start = (
            _int(source, "start[0] (row)", start_list[0], 0, rows - 1),
            _int(source, "start[1] (col)", start_list[1], 0, cols - 1),
        )
        start_doubles = data["start_doubles"]
        if not isinstance(start_doubles, bool):
            _fail(source, "start_doubles", f"must be true or false, not {start_doubles!r}")
        start_char = premiums[start[0]][start[1]]
        if start_doubles and start_char != "D":
            _fail(
                source,
                "start_doubles",
                f"is true, but the start square {list(start)} is {start_char!r}, not 'D'",
            )

        rack_size = _int(source, "rack_size", data["rack_size"], 1, MAX_RACK)
        bingo_bonus = _int(source, "bingo_bonus", data["bingo_bonus"], 0, MAX_BINGO_BONUS)
        exchange_minimum = _int(source, "exchange_minimum", data["exchange_minimum"], 0, MAX_EXCHANGE_MINIMUM)
        scoreless_turns = _int(source, "scoreless_turns", data["scoreless_turns"], 1, MAX_SCORELESS_TURNS)
        going_out_bonus = _int(source, "going_out_bonus", data["going_out_bonus"], 0, MAX_GOING_OUT_MULTIPLE)
        going_out_penalty = _int(
            source, "going_out_penalty", data["going_out_penalty"], 0, MAX_GOING_OUT_MULTIPLE
        )

        entries = _list(source, "letters", data["letters"])
        if not entries:
            _fail(source, "letters", "must list at least one letter")
        if len(entries) > MAX_LETTERS:
            _fail(source, "letters", f"has {len(entries)} letters; an alphabet has at most {MAX_LETTERS}")
        letters: list[str] = []
        values: list[int] = []
        counts: list[int] = []
        for index, entry in enumerate(entries):
            field = f"letters[{index}]"
            if not isinstance(entry, list | tuple) or len(entry) != 3:
                _fail(source, field, f"must be [letter, value, count], not {entry!r}")
            letter = _letter(source, field, entry[0])
            if letter in letters:
                _fail(source, field, f"letter {letter!r} appears twice")
            letters.append(letter)
            values.append(_int(source, f"{field} value of {letter!r}", entry[1], 0, MAX_TILE_VALUE))
            counts.append(_int(source, f"{field} count of {letter!r}", entry[2], 0, MAX_TILES_OF_A_LETTER))

        blanks = _int(source, "blanks", data["blanks"], 0, MAX_TILES_OF_A_LETTER)
        blank_value = _int(source, "blank_value", data["blank_value"], 0, MAX_TILE_VALUE)
        if sum(counts) + blanks > MAX_TILES:
            _fail(
                source,
                "letters, blanks",
                f"{sum(counts) + blanks} tiles in all; a set has at most {MAX_TILES}",
            )
        if sum(counts) + blanks == 0:
            _fail(source, "letters, blanks", "the set has no tiles: give some letters a count, or blanks")

        fold_data = data["fold"]
        if not isinstance(fold_data, Mapping):
            _fail(source, "fold", f"must be an object mapping letters to letters, not {fold_data!r}")
        fold: dict[str, str] = {}
        for key, target in fold_data.items():
            field = f"fold[{key!r}]"
            source_letter = _letter(source, field, key)
            if source_letter in letters:
                _fail(source, field, f"{source_letter!r} is itself a letter of this ruleset; it cannot fold")
            target_letter = _letter(source, field, target)
            if target_letter not in letters:
                _fail(source, field, f"target {target_letter!r} is not a letter of this ruleset")
            fold[source_letter] = target_letter

        lexicon = data["default_lexicon"]
        default_lexicon = None if lexicon is None else _str(source, "default_lexicon", lexicon, _LEXICON_RE)

        try:
            alphabet = Alphabet(letters, fold)
        except AlphabetError as error:
            _fail(source, "letters", str(error))

        vowels: list[str] = []
        for index, entry in enumerate(_list(source, "vowels", data["vowels"])):
            field = f"vowels[{index}]"
            vowel = _letter(source, field, entry)
            if vowel not in letters:
                folded = f" (it folds to {fold[vowel]!r})" if vowel in fold else ""
                _fail(source, field, f"{vowel!r} is not a letter of this ruleset{folded}")
            if vowel in vowels:
                _fail(source, field, f"vowel {vowel!r} appears twice")
            vowels.append(vowel)

        rules = cls(
            name=name,
            title=title,
            language=language,
            rows=rows,
            cols=cols,
            premiums=tuple(premiums),
            start=start,
            start_doubles=start_doubles,
            rack_size=rack_size,
            bingo_bonus=bingo_bonus,
            exchange_minimum=exchange_minimum,
            scoreless_turns=scoreless_turns,
            going_out_bonus=going_out_bonus,
            going_out_penalty=going_out_penalty,
            alphabet=alphabet,
            values=tuple(values),
            counts=tuple(counts),
            blanks=blanks,
            blank_value=blank_value,
            default_lexicon=default_lexicon,
            vowels=tuple(vowels),
        )
        ceiling = rules.score_ceiling()
        if ceiling > MAX_SCORE:
            _fail(
                source,
                "letters, blank_value, layout, bingo_bonus",
                f"a play could score up to {ceiling:,} points under these rules (the highest tile value "
                f"{max(*values, blank_value)} on the best premiums, plus the bonus), more than the core's "
                f"limit of {MAX_SCORE:,}: lower the tile values, the premiums or the bonus",
            )
        return rules

    def to_dict(self) -> dict[str, Any]:
        """The ruleset in the JSON schema; ``Rules.from_dict(r.to_dict()) == r``."""
        return {
            "name": self.name,
            "title": self.title,
            "language": self.language,
            "rows": self.rows,
            "cols": self.cols,
            "layout": ["".join(row) for row in self.premiums],
            "start": list(self.start),
            "start_doubles": self.start_doubles,
            "rack_size": self.rack_size,
            "bingo_bonus": self.bingo_bonus,
            "exchange_minimum": self.exchange_minimum,
            "scoreless_turns": self.scoreless_turns,
            "going_out_bonus": self.going_out_bonus,
            "going_out_penalty": self.going_out_penalty,
            "letters": [[letter, value, count] for letter, value, count in self.tiles()],
            "vowels": list(self.vowels),
            "blanks": self.blanks,
            "blank_value": self.blank_value,
            "fold": dict(self.alphabet.fold),
            "default_lexicon": self.default_lexicon,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` written as the shipped files are: two-space indent, each layout row
        and each letter on a line of its own, every other list on one line (what the web page's
        rules editor exports, ready for ``--rules FILE``)."""
        lines = []
        for key, value in self.to_dict().items():
            if key in ("layout", "letters"):
                items = ",\n".join(f"    {json.dumps(item, ensure_ascii=False)}" for item in value)
                text = f"[\n{items}\n  ]"
            else:
                text = json.dumps(value, ensure_ascii=False)
            lines.append(f"  {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    # ---- derived facts ----------------------------------------------------------------------

    @property
    def longest_line(self) -> int:
        """The longest row or column: the longest word the board can hold."""
        return max(self.rows, self.cols)

    @property
    def tile_total(self) -> int:
        """Every tile in the bag, blanks included."""
        return sum(self.counts) + self.blanks

    def tiles(self) -> list[tuple[str, int, int]]:
        """``(letter, value, count)`` for every letter, in alphabet (code) order."""
        return list(zip(self.alphabet.letters, self.values, self.counts, strict=True))

    def letter_value(self, code: int) -> int:
        """The value of a letter code (1..n); a code carrying BLANK_FLAG is a blank and scores blank_value."""
        if code & BLANK_FLAG:
            letter_code = code & ~BLANK_FLAG
            if 1 <= letter_code <= len(self.values):
                return self.blank_value
        elif 1 <= code <= len(self.values):
            return self.values[code - 1]
        raise RulesError(f"{self.name}: letter code {code} is outside 1..{len(self.values)}")

    def score_ceiling(self) -> int:
        """The most a play can score, as the core bounds it (csrc/rules_check.c, score_ceiling): a play
        places k ≤ min(rack_size, longest_line) tiles; its main word holds at most k new tiles at
        the highest letter premium and the rest of a line at face value, times the product of the
        k highest word premiums of some line; each new tile forms at most one cross-word, of at most
        a line, at the highest word premium; plus the bingo bonus."""
        value = max((*self.values, self.blank_value))
        longest = self.longest_line
        tiles = min(self.rack_size, longest)
        squares = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        letter_premium = max(self.letter_multiplier(r, c) for r, c in squares)
        word_premium = max(self.word_multiplier(r, c) for r, c in squares)
        rows = [[self.word_multiplier(r, c) for c in range(self.cols)] for r in range(self.rows)]
        line_product = max(
            math.prod(sorted(line, reverse=True)[:tiles]) for line in [*rows, *zip(*rows, strict=True)]
        )
        main_letters = tiles * letter_premium + longest - tiles
        cross_letters = tiles * (letter_premium + longest - 1) * word_premium
        return value * (main_letters * line_product + cross_letters) + self.bingo_bonus

    def _premium(self, row: int, col: int) -> str:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"square ({row}, {col}) is off the {self.rows}×{self.cols} board")
        if (row, col) == self.start and not self.start_doubles:
            return "."
        return self.premiums[row][col]

    def word_multiplier(self, row: int, col: int) -> int:
        """What a tile newly placed on this square multiplies its words by (1, 2, 3 or 4)."""
        return WORD_MULTIPLIERS.get(self._premium(row, col), 1)

    def letter_multiplier(self, row: int, col: int) -> int:
        """What a tile newly placed on this square multiplies its own value by (1, 2, 3 or 4)."""
        return LETTER_MULTIPLIERS.get(self._premium(row, col), 1)


def available_rules() -> list[str]:
    """The names of the shipped rulesets, the default (english) first, the rest sorted."""
    names = sorted(
        entry.name[: -len(".json")]
        for entry in _rules_folder().iterdir()
        if entry.name.endswith(".json") and entry.is_file()
    )
    return sorted(names, key=lambda name: (name != DEFAULT_RULES, name))


def _rules_folder() -> Traversable:
    return resources.files(_PACKAGE).joinpath("rules")


def portable_rules(name_or_path: str) -> str:
    """A ruleset argument that means the same in another process or on another machine of the
    same layout: a shipped name as it is, a file path (as :meth:`Rules.load` tells them apart)
    made absolute."""
    return str(Path(name_or_path).resolve()) if _looks_like_path(name_or_path) else name_or_path


def _looks_like_path(text: str) -> bool:
    return "/" in text or "\\" in text or text.endswith(".json") or text.startswith(".")


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result
