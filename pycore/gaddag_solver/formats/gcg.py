"""GCG game records: John Chew's .gcg text, read and written.

The format (poslfit.com/scrabble/gcg) as real files use it: pragma lines (``#player1 NICK FULL
NAME``, ``#title``, ``#lexicon``, ...), then one event line per turn::

    >Nick: RACK 8D WORD +score total      a play: across "8D" (row, column), down "D8"
    >Nick: RACK -TILES +0 total           an exchange (or -N: N tiles, not shown)
    >Nick: RACK - +0 total                a pass
    >Nick: RACK -- -N total               the previous play withdrawn (a phony challenged off)
    >Nick: RACK (challenge) +N total      a bonus for a play challenged and kept
    >Nick: RACK (time) -N total           a time penalty
    >Nick: (RACK) +N total                the end: tiles left on the opponent's rack ...
    >Nick: RACK (RACK) -N total           ... or on one's own (also written ``(RACK) -N``)

In WORD, a tile already on the board is written ``.`` (older files write its letter, or put
letters in parentheses) and a blank in lower case; in a rack a blank is ``?``. ``total`` is the
player's score after the event. ``#note`` lines comment the event before them.

:func:`parse_gcg` reads the text (UTF-8 or ISO-8859-1, see :func:`decode_gcg`) without a lexicon
or a board: what cannot be read on a line is a :class:`GcgIssue` (line number and message) in
``GcgGame.warnings`` and the rest is still read. Only a file that is not GCG at all raises
:class:`GcgError`. The board and the lexicon are checked by the replay
(:mod:`gaddag_solver.game.replay`). :meth:`GcgGame.to_text` writes a game back.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .. import _core_api as core
from ..board import column_name, tiles_text, written
from ..file_io import GCG_CAP, read_capped
from ..limits import score_problem
from ..rules import Rules

BLANK = "?"
_ON_BOARD = 64
_BLANK_FLAG = 128
_LETTER = 63
_NICK_RE = re.compile(r"[^\w:.#-]+")

# event kinds
PLAY = "play"
EXCHANGE = "exchange"
PASS = "pass"
WITHDRAWN = "withdrawn"  # "--": the player's previous play taken back
CHALLENGE_BONUS = "challenge"
TIME_PENALTY = "time"
END_POINTS = "end_points"  # "(RACK) +N": the opponent's tiles, gained by going out
END_PENALTY = "end_penalty"  # "RACK (RACK) -N": one's own tiles left
TURN_KINDS = (PLAY, EXCHANGE, PASS)  # a player's own turn, with a rack to analyse

# pragmas read into fields; others known to the format and kept silently; the rest kept with a warning
KNOWN_PRAGMAS = frozenset(
    {"player1", "player2", "title", "description", "note", "id", "character-encoding", "rack1", "rack2",
     "lexicon", "incomplete"}
)  # fmt: skip
QUIET_PRAGMAS = frozenset({"game-type", "tile-set", "board-layout", "tile-distribution", "last-modified"})

_PRAGMA_RE = re.compile(r"#([A-Za-z0-9][\w-]*)(?:\s+(.*))?$")
_EVENT_RE = re.compile(r">\s*(\S+):(?:\s+|$)(.*)$")  # a nick may hold a colon: up to the last one
_POINTS_RE = re.compile(r"[+-]?\d+")
_TOTAL_RE = re.compile(r"-?\d+")
_COORD_ACROSS_RE = re.compile(r"(\d+)([A-Za-z]+)")
_COORD_DOWN_RE = re.compile(r"([A-Za-z]+)(\d+)")


class GcgError(ValueError):
    """The file is not GCG at all (the message names it and says why)."""


@dataclass(frozen=True)
class GcgIssue:
    """Something wrong on one line of a file: a warning, the rest of the game still read."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class GcgEvent:
    """One event line. ``rack`` is the rack as written ('' when not recorded); ``score`` the
    points as written (signed) and ``total`` the player's score after it. A play has ``coord``
    and ``word``; an exchange ``exchanged`` (the tiles) or only ``exchange_count``; the end of
    the game ``tiles`` (the rack in parentheses)."""

    line: int
    nick: str
    kind: str
    rack: str
    score: int
    total: int
    coord: str = ""
    word: str = ""
    exchanged: str = ""
    exchange_count: int = 0
    tiles: str = ""
    note: str = ""

    def what(self) -> str:
        """The move part of the line, between the rack and the score."""
        if self.kind == PLAY:
            return f"{self.coord} {self.word}"
        if self.kind == EXCHANGE:
            return f"-{self.exchanged or self.exchange_count}"
        if self.kind == PASS:
            return "-"
        if self.kind == WITHDRAWN:
            return "--"
        if self.kind in (CHALLENGE_BONUS, TIME_PENALTY):
            return f"({self.kind})"
        return f"({self.tiles})"

    def to_line(self) -> str:
        rack = "" if self.kind == END_POINTS else self.rack
        fields = [f">{self.nick}:", rack, self.what(), _points(self.score), str(self.total)]
        return " ".join(part for part in fields if part)


@dataclass
class GcgGame:
    """A game as a GCG file gives it. ``players`` are (nick, full name), player 1 first;
    ``final_racks`` the ``#rack1``/``#rack2`` pragmas; ``pragmas`` every other pragma, in order,
    as (line, name, value); ``notes`` the ``#note`` lines before the first event."""

    players: list[tuple[str, str]] = field(default_factory=list)
    events: list[GcgEvent] = field(default_factory=list)
    title: str = ""
    description: str = ""
    lexicon: str = ""
    id: str = ""
    encoding: str = ""
    incomplete: bool = False
    final_racks: list[str | None] = field(default_factory=lambda: [None, None])
    notes: list[str] = field(default_factory=list)
    pragmas: list[tuple[int, str, str]] = field(default_factory=list)
    warnings: list[GcgIssue] = field(default_factory=list)
    source: str = "<gcg>"
    lines: dict[str, int] = field(default_factory=dict)  # where each known pragma was (last seen)

    def player_index(self, nick: str) -> int | None:
        for i, (known, _name) in enumerate(self.players):
            if known == nick:
                return i
        return None

    def to_text(self) -> str:
        """The game as GCG text (UTF-8 declared): the same events a parse of it gives back."""
        lines = ["#character-encoding UTF-8"]
        for seat, (nick, name) in enumerate(self.players):
            lines.append(f"#player{seat + 1} {nick} {name or nick}")
        for name, value in (("title", self.title), ("lexicon", self.lexicon), ("id", self.id)):
            if value:
                lines.append(f"#{name} {value}")
        if self.description:
            lines.append(f"#description {self.description}")
        for _line, name, value in self.pragmas:
            lines.append(f"#{name} {value}".rstrip())
        if self.incomplete:
            lines.append("#incomplete")
        lines.extend(f"#note {note}" for note in self.notes)
        for event in self.events:
            lines.append(event.to_line())
            if event.note:
                lines.extend(f"#note {note}" for note in event.note.split("\n"))
        for seat, rack in enumerate(self.final_racks):
            if rack is not None:
                lines.append(f"#rack{seat + 1} {rack}")
        return "\n".join(lines) + "\n"


# ---- reading -------------------------------------------------------------------------------------


def decode_gcg(data: bytes, source: str = "<gcg>") -> tuple[str, list[GcgIssue]]:
    """The text of a GCG file's bytes. ``#character-encoding`` (UTF-8 or ISO-8859-1) decides;
    without it the spec's default is ISO-8859-1, but files written since are nearly all UTF-8,
    so valid UTF-8 is read as UTF-8 and anything else as ISO-8859-1. A byte-order mark is
    skipped. Bytes that are not text (NUL) raise GcgError."""
    issues: list[GcgIssue] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\0" in data:
        raise GcgError(f"{source}: not a GCG file (binary data)")
    declared = re.search(rb"^#character-encoding[ \t]+(\S+)", data, re.MULTILINE)
    name = declared.group(1).decode("ascii", "replace").lower().replace("_", "-") if declared else ""
    if name in ("utf-8", "utf8"):
        try:
            return data.decode("utf-8"), issues
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            issues.append(GcgIssue(line, "not valid UTF-8 although declared so; read as ISO-8859-1"))
            return data.decode("latin-1"), issues
    if name in ("iso-8859-1", "iso8859-1", "latin-1", "latin1"):
        return data.decode("latin-1"), issues
    if name:
        line = data[: declared.start()].count(b"\n") + 1 if declared else 1
        issues.append(GcgIssue(line, f"unknown character encoding {name!r}; read as UTF-8 or ISO-8859-1"))
    try:
        return data.decode("utf-8"), issues
    except UnicodeDecodeError:
        return data.decode("latin-1"), issues


def read_gcg(path: str | Path) -> GcgGame:
    """Parse the GCG file at ``path`` (OSError when it cannot be read; GcgError when it is not GCG,
    or holds more than GCG_CAP bytes: a game is tens of kB)."""
    data = read_capped(path, GCG_CAP, "GCG file", GcgError)
    text, issues = decode_gcg(data, str(path))
    game = parse_gcg(text, str(path))
    game.warnings[:0] = issues
    return game


def parse_gcg(text: str, source: str = "<gcg>") -> GcgGame:
    """Parse GCG text. What a line gets wrong is a warning with its line number; the game is
    what the readable lines give. GcgError only when nothing in it is GCG."""
    game = GcgGame(source=source)
    warn = game.warnings.append
    continuing: str | None = None  # "description" or "note": the pragma whose text may go on
    gcg_lines = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continuing = None
            continue
        if line.startswith("#-") and continuing is not None:  # "#- text": the note goes on
            _continue(game, continuing, line[2:].strip())
            continue
        if line.startswith("#"):
            match = _PRAGMA_RE.match(line)
            if not match:
                warn(GcgIssue(number, f"cannot read the pragma {line!r}; ignored"))
                continuing = None
                continue
            gcg_lines += 1
            name, value = match.group(1).lower(), (match.group(2) or "").strip()
            continuing = _pragma(game, number, name, value)
            continue
        if line.startswith(">"):
            continuing = None
            event = _event(game, number, line)
            if event is not None:
                gcg_lines += 1
                game.events.append(event)
            continue
        if continuing is not None:
            _continue(game, continuing, line)
        else:
            warn(GcgIssue(number, f"not a GCG line (neither #pragma nor >event): {line[:40]!r}; ignored"))
    if not gcg_lines:
        raise GcgError(f"{source}: not a GCG file (no #pragma or >event line)")
    if not game.players and not game.events:
        raise GcgError(f"{source}: not a GCG file (no #player pragma and no >event line)")
    return game


def _pragma(game: GcgGame, number: int, name: str, value: str) -> str | None:
    """Read one pragma into the game; returns the pragma whose text may continue on the lines after."""
    warn = game.warnings.append
    if name in KNOWN_PRAGMAS:
        game.lines[name] = number
    if name in ("player1", "player2"):
        seat = int(name[-1]) - 1
        nick, _, full = value.partition(" ")
        if not nick:
            warn(GcgIssue(number, f"#{name} needs a nickname"))
            return None
        held = game.players[seat][0] if seat < len(game.players) else ""
        if held and held != nick and any(event.nick == held for event in game.events):
            # events already went to the seat's player: renaming it would orphan them
            warn(GcgIssue(number, f"#{name} {nick} comes after {held}'s events in that seat; ignored"))
            return None
        other = game.player_index(nick)
        if other is not None and other != seat:
            warn(GcgIssue(number, f"#{name} {nick}: {nick} is already player {other + 1}; ignored"))
            return None
        while len(game.players) <= seat:
            game.players.append(("", ""))
        game.players[seat] = (nick, full.strip() or nick)
    elif name in ("rack1", "rack2"):
        game.final_racks[int(name[-1]) - 1] = value
    elif name == "note":
        _add_note(game, value)
        return "note"
    elif name == "description":
        game.description = value
        return "description"
    elif name == "incomplete":
        game.incomplete = True
    elif name == "character-encoding":
        if number != 1:
            warn(GcgIssue(number, "#character-encoding belongs on the first line"))
        game.encoding = value
    elif name in ("title", "lexicon", "id"):
        setattr(game, name, value)
    else:
        if name not in QUIET_PRAGMAS:
            warn(GcgIssue(number, f"unknown pragma #{name}; kept"))
        game.pragmas.append((number, name, value))
    return None


def _continue(game: GcgGame, pragma: str, text: str) -> None:
    """A line that goes on with the text of a #description or #note."""
    if pragma == "description":
        game.description += "\n" + text
    else:
        _add_note(game, text)


def _add_note(game: GcgGame, text: str) -> None:
    if game.events:
        event = game.events[-1]
        event.note = f"{event.note}\n{text}" if event.note else text
    else:
        game.notes.append(text)


def _event(game: GcgGame, number: int, line: str) -> GcgEvent | None:
    warn = game.warnings.append
    match = _EVENT_RE.match(line)
    if not match:
        warn(GcgIssue(number, f"cannot read the event {line[:60]!r}: expected '>NICK: RACK ...'; ignored"))
        return None
    nick, rest = match.group(1), match.group(2).split()
    if game.player_index(nick) is None:  # no #player pragma names it: the next free seat
        free = [seat for seat, (known, _) in enumerate(game.players) if not known]
        if free:
            game.players[free[0]] = (nick, nick)
        elif len(game.players) < 2:
            game.players.append((nick, nick))
        else:
            names = " and ".join(known for known, _ in game.players)
            warn(GcgIssue(number, f"{nick!r} is neither player ({names}); the event is ignored"))
            return None
    try:
        return _event_fields(nick, number, rest)
    except _BadEvent as error:
        warn(GcgIssue(number, f"{error}; the event is ignored"))
        return None


class _BadEvent(ValueError):
    pass


def _number(token: str, pattern: re.Pattern[str], what: str) -> int:
    if not pattern.fullmatch(token):
        raise _BadEvent(f"{what} {token!r} is not a number")
    value = int(token)
    problem = score_problem(value, what)
    if problem:
        raise _BadEvent(problem)
    return value


def _event_fields(nick: str, number: int, tokens: list[str]) -> GcgEvent:
    """The event from the tokens after ``>NICK:``."""
    if not tokens:
        raise _BadEvent("the event line stops after the nickname (truncated?)")
    # the rack may be missing before (challenge) and (time), and is not written before (RACK) +N
    first = tokens[0]
    # a rack has no digits, a square has: ">Nick: 8D WORD +10 10" is a play without its rack
    no_rack_play = len(tokens) == 4 and (_COORD_ACROSS_RE.fullmatch(first) or _COORD_DOWN_RE.fullmatch(first))
    if first.startswith("(") or first in ("-", "--") or no_rack_play:
        rack, rest = "", tokens
    else:
        rack, rest = first, tokens[1:]
    if not rest:
        raise _BadEvent("the event line ends after the rack (truncated?)")
    what = rest[0]
    if what.startswith("(") and what.endswith(")") and len(what) > 2:
        inner = what[1:-1]
        if len(rest) < 3:
            raise _BadEvent(f"{what} needs points and a total (truncated?)")
        score = _number(rest[1], _POINTS_RE, "the points")
        total = _number(rest[2], _TOTAL_RE, "the total")
        note = " ".join(rest[3:])
        if inner.lower() in (CHALLENGE_BONUS, TIME_PENALTY):
            return GcgEvent(number, nick, inner.lower(), rack, score, total, note=note)
        # (RACK) +N: going out; (RACK) -N, RACK (RACK) -N and (RACK) +0 (no penalty): tiles left
        kind = END_PENALTY if score <= 0 or rack else END_POINTS
        return GcgEvent(number, nick, kind, rack, score, total, tiles=inner, note=note)
    if what.startswith("-"):
        if len(rest) < 3:
            raise _BadEvent(f"{what!r} needs points and a total (truncated?)")
        score = _number(rest[1], _POINTS_RE, "the points")
        total = _number(rest[2], _TOTAL_RE, "the total")
        note = " ".join(rest[3:])
        if what == "--":
            return GcgEvent(number, nick, WITHDRAWN, rack, score, total, note=note)
        if what == "-":
            return GcgEvent(number, nick, PASS, rack, score, total, note=note)
        tiles = what[1:]
        if tiles.isascii() and tiles.isdigit():  # not "³", which int() refuses
            return GcgEvent(number, nick, EXCHANGE, rack, score, total, exchange_count=int(tiles), note=note)
        return GcgEvent(
            number, nick, EXCHANGE, rack, score, total, exchanged=tiles, exchange_count=len(tiles), note=note
        )
    if len(rest) < 4:
        raise _BadEvent(f"a play needs a square, a word, points and a total: {' '.join(rest)!r} (truncated?)")
    coord, word = rest[0], rest[1]
    if not (_COORD_ACROSS_RE.fullmatch(coord) or _COORD_DOWN_RE.fullmatch(coord)):
        raise _BadEvent(f"{coord!r} is not a square: write 8D (across) or D8 (down)")
    score = _number(rest[2], _POINTS_RE, "the points")
    total = _number(rest[3], _TOTAL_RE, "the total")
    return GcgEvent(number, nick, PLAY, rack, score, total, coord=coord, word=word, note=" ".join(rest[4:]))


def parse_coordinate(coord: str) -> tuple[int, int, bool]:
    """``"8D"`` → (7, 3, across), ``"D8"`` → (7, 3, down); ValueError for anything else."""
    across = _COORD_ACROSS_RE.fullmatch(coord)
    down = None if across else _COORD_DOWN_RE.fullmatch(coord)
    if across:
        digits, letters = across.groups()
    elif down:
        letters, digits = down.groups()
    else:
        raise ValueError(f"{coord!r} is not a square: write 8D (across) or D8 (down)")
    col = 0
    for char in letters.upper():
        col = col * 26 + ord(char) - ord("A") + 1
    row = int(digits)
    if row < 1:
        raise ValueError(f"{coord!r}: rows are numbered from 1")
    return row - 1, col - 1, bool(across)


def word_squares(word: str) -> Iterator[tuple[str, bool]]:
    """The letters of a GCG word, each with whether it is written as already on the board:
    ``.`` (letter unknown: ''), or a letter inside parentheses. ``[CH]`` is one letter."""
    through = False
    i = 0
    while i < len(word):
        char = word[i]
        if char == "(":
            through = True
        elif char == ")":
            through = False
        elif char == ".":
            yield "", True
        elif char == "[":
            end = word.find("]", i + 1)
            if end < 0:
                raise ValueError(f"'[' in {word!r} is not closed")
            yield word[i + 1 : end], through
            i = end
        else:
            yield char, through
        i += 1


# ---- writing our own games ----------------------------------------------------------------------


def nickname(name: str) -> str:
    """A player's name as one GCG token (no white space)."""
    return _NICK_RE.sub("_", name.strip()) or "player"


def _tiles(codes: bytes, rules: Rules) -> str:
    """Rack tiles (codes, 0 a blank) as text: letters in code order, then the blanks; a tile of
    several letters in brackets ([CH]: C then H are two tiles)."""
    letters = rules.alphabet.letters
    return tiles_text([letters[c - 1] for c in codes if c] + [BLANK] * codes.count(0), rules.alphabet)


def _word(codes: bytes, rules: Rules) -> str:
    letters = rules.alphabet.letters
    out = []
    for code in codes:
        if code & _ON_BOARD:
            out.append(".")
        else:
            letter = letters[(code & _LETTER) - 1]
            out.append(written(letter.lower() if code & _BLANK_FLAG else letter))
    return "".join(out)


def coordinate(row: int, col: int, direction: int) -> str:
    """GCG's square of a play: across row then column ("8D"), down column then row ("D8")."""
    if direction == core.lib.GD_ACROSS:
        return f"{row + 1}{column_name(col)}"
    return f"{column_name(col)}{row + 1}"


def _points(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def lexicon_label(lexicon: str | os.PathLike[str]) -> str:
    """A lexicon as ``#lexicon`` names it: a ``.gaddag`` path by its file's name without the
    suffix (``/x/lexicons/twl06.gaddag`` → ``twl06``), a name as it is."""
    text = os.fspath(lexicon)
    return Path(text).stem if text.endswith(".gaddag") or os.sep in text else text


def played_game_gcg(
    game: core.PlayedGame,
    rules: Rules,
    names: tuple[str, str],
    title: str | None = None,
    lexicon: str | os.PathLike[str] = "",
) -> GcgGame:
    """A game played by the core as a GcgGame; names[0] is the player who moved first (seat 0);
    ``lexicon`` (a name or path, see :func:`lexicon_label`) is what ``#lexicon`` says."""
    nicks = tuple(nickname(name) for name in names)
    out = GcgGame(players=[(nicks[seat], names[seat].strip() or nicks[seat]) for seat in (0, 1)])
    out.title = title or ""
    out.lexicon = lexicon_label(lexicon) if lexicon else ""
    out.encoding = "UTF-8"
    totals = [0, 0]
    for turn in game.turns:
        rack = _tiles(turn.rack, rules)
        nick = nicks[turn.player]
        totals[turn.player] = turn.total
        if turn.kind == core.lib.GD_PLAY:
            coord = coordinate(turn.row, turn.col, turn.direction)
            event = GcgEvent(0, nick, PLAY, rack, turn.score, turn.total, coord, _word(turn.word, rules))
        elif turn.kind == core.lib.GD_EXCHANGE:
            tiles = _tiles(turn.word, rules)
            event = GcgEvent(
                0, nick, EXCHANGE, rack, 0, turn.total, exchanged=tiles, exchange_count=len(tiles)
            )
        else:
            event = GcgEvent(0, nick, PASS, rack, 0, turn.total)
        out.events.append(event)
    # the end: a player who went out gains the opponent's tiles; tiles left on a rack cost
    for gaining in (True, False):
        for seat in (0, 1):
            adjustment = game.end_adjustments[seat]
            if gaining != (adjustment > 0) or (adjustment == 0 and not game.racks[seat]):
                continue
            tiles = _tiles(game.racks[1 - seat] if gaining else game.racks[seat], rules)
            totals[seat] += adjustment
            kind = END_POINTS if gaining else END_PENALTY
            out.events.append(GcgEvent(0, nicks[seat], kind, "", adjustment, totals[seat], tiles=tiles))
    return out


def format_gcg(
    game: core.PlayedGame,
    rules: Rules,
    names: tuple[str, str],
    title: str | None = None,
    lexicon: str | os.PathLike[str] = "",
) -> str:
    """The game as GCG text; names[0] is the player who moved first (seat 0). Every file we write
    names its lexicon (``lexicon``: a name or a ``.gaddag`` path), so that a review checks the
    words with it."""
    return played_game_gcg(game, rules, names, title, lexicon).to_text()
