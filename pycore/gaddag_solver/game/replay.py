"""Replaying a recorded game: the board, both scores, the rack and the unseen tiles at any turn.

>>> from gaddag_solver.game.replay import Replay
>>> replay = Replay.load("game.gcg")  # doctest: +SKIP
>>> turn = replay.turns[10]  # doctest: +SKIP
>>> turn.board, turn.scores, turn.rack, turn.unseen()  # doctest: +SKIP
>>> [str(w) for w in replay.warnings]  # doctest: +SKIP

A GCG file (:mod:`gaddag_solver.formats.gcg`) is replayed event by event on a
:class:`~gaddag_solver.board.Board`, and every turn is re-checked against the board and the
lexicon: the square and the word must fit the board (letters written over tiles already there
must match them), the play must touch the tiles on the board (or cover the start square), the
rack must hold the tiles played, every word formed must be in the lexicon, the score in the file
must be ours (the C core's scoring plus the full-rack bonus), and each total must be the previous
total plus the points. What disagrees is a warning on the turn and in ``Replay.warnings``, with
the line number; the game goes on from what the file says (a play that cannot be placed leaves
the board as it was, the scores always follow the file's totals), so one bad line does not
spoil the rest.

The bag of a real game is not ours to shuffle, so a replay is positions (board, scores, rack,
unseen tiles: what analysis needs); :meth:`Replay.game_at` makes a
:class:`~gaddag_solver.game.play.Game` of any of them, to play on from there. A Game we play
holds its own history: ``Game.to_gcg`` exports it.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..alphabet import AlphabetError
from ..board import Board, letter_text, position_warnings, square_name, tile_code
from ..formats.gcg import (
    CHALLENGE_BONUS,
    END_PENALTY,
    END_POINTS,
    EXCHANGE,
    PASS,
    PLAY,
    TIME_PENALTY,
    WITHDRAWN,
    GcgError,
    GcgEvent,
    GcgGame,
    GcgIssue,
    decode_gcg,
    parse_coordinate,
    parse_gcg,
    read_gcg,
    word_squares,
)
from ..lexicon import Lexicon
from ..lexicons import SOURCES, resolve_lexicon
from ..move import ACROSS, DOWN, Move
from ..rack import BLANK, Rack, RackError, leave_tiles
from ..rules import Rules
from ..unseen import Unseen, unseen

if TYPE_CHECKING:
    from .play import Game

__all__ = ["Replay", "ReplayTurn", "default_review_lexicon", "lexicon_for", "read_play", "tiles_value"]

# the lexicons we build, as our own files' #lexicon names them (scripts/build_default_lexicons.py)
OUR_LEXICONS = tuple(SOURCES)
# what a file's #lexicon names, as the lexicons we build (prefixes, upper case)
LEXICON_NAMES = (
    ("CSW", "sowpods"),
    ("SOWPODS", "sowpods"),
    ("TWL", "twl06"),
    ("NWL", "twl06"),
    ("OTCWL", "twl06"),
    ("OWL", "twl06"),
    ("ENABLE", "enable"),
)


def default_review_lexicon(rules: Rules) -> str:
    """The lexicon a game without ``#lexicon`` is checked with: SOWPODS for English (it holds
    the other English lists' words), the ruleset's own list otherwise (Spanish, Polish...)."""
    return "sowpods" if rules.name == "english" or not rules.default_lexicon else rules.default_lexicon


def lexicon_for(
    declared: str, explicit: str | None = None, default: str = "sowpods"
) -> tuple[str, str | None]:
    """The lexicon to check a game with, and a note when it is a guess: ``explicit`` when given,
    else the lexicon the file's ``#lexicon`` names (one of ours by its name, as the files we
    write say it; CSW* → sowpods, TWL*/NWL* → twl06, ENABLE), else ``default``. A newer edition
    is checked with the older list we have (the note says so)."""
    if explicit:
        return explicit, None
    if declared.strip().lower() in OUR_LEXICONS:
        return declared.strip().lower(), None
    name = declared.strip().upper()
    for prefix, ours in LEXICON_NAMES:
        if name.startswith(prefix):
            exact = name in ("SOWPODS", "TWL06", "ENABLE")
            return ours, None if exact else f"#lexicon {declared} is checked with {ours}"
    if name:
        return default, f"#lexicon {declared} is not one we have; checked with {default}"
    return default, None


@dataclass
class ReplayTurn:
    """One event of the game and the position before it.

    ``board`` and ``scores`` are before the event, ``scores_after`` after it (the file's totals).
    ``rack`` is the rack the file records (None when it records none or it cannot be read);
    ``move`` the play placed on ``board`` (with our score), the exchange or the pass, None for
    the other events or a play that cannot be placed. ``problems`` says what disagrees;
    ``withdrawn`` marks a play taken back later (``--``)."""

    index: int
    event: GcgEvent
    player: int
    board: Board
    scores: tuple[int, int]
    scores_after: tuple[int, int] = (0, 0)
    rack: Rack | None = None
    move: Move | None = None
    score: int | None = None  # our score of a play
    phonies: tuple[str, ...] = ()  # words formed that the lexicon lacks
    problems: list[str] = field(default_factory=list)
    withdrawn: bool = False
    rack_mismatch: bool = False  # the rack recorded lacks tiles the move uses

    @property
    def line(self) -> int:
        return self.event.line

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def nick(self) -> str:
        return self.event.nick

    def unseen(self) -> Unseen:
        """What the player cannot see before the event: the bag and the opponent's rack (with the
        rack unknown, the player's own tiles are unseen too)."""
        return unseen(self.board, self.rack)

    @property
    def rack_complete(self) -> bool:
        """Whether ``rack`` is the whole rack: a full one, or all the player can hold with the
        bag empty. Analysis needs the whole rack."""
        if self.rack is None:
            return False
        rules = self.board.rules
        return len(self.rack) == rules.rack_size or (len(self.rack) > 0 and self.unseen().bag == 0)


class Replay:
    """A recorded game replayed turn by turn (one :class:`ReplayTurn` per event line)."""

    def __init__(
        self,
        gcg: GcgGame,
        lexicon: Lexicon | None = None,
        rules: Rules | None = None,
        lexicon_note: str | None = None,
    ) -> None:
        """Replay ``gcg``; with ``lexicon`` every word formed is checked. ``lexicon_note`` (from
        :func:`lexicon_for`) is said as a warning at the ``#lexicon`` line."""
        self.gcg = gcg
        self.lexicon = lexicon
        self.rules = rules if rules is not None else Rules.load("english")
        self.turns: list[ReplayTurn] = []
        self.board = Board.empty(self.rules)
        self.scores: tuple[int, int] = (0, 0)
        self._issues: list[GcgIssue] = []
        if lexicon_note:
            self._issues.append(GcgIssue(gcg.lines.get("lexicon", 0), lexicon_note))
        self._replay()

    # ---- loading ------------------------------------------------------------------------------

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        lexicon: Lexicon | str | None = None,
        rules: Rules | None = None,
    ) -> Replay:
        """Replay the GCG file at ``path``, checked with ``lexicon`` (a Lexicon, a name or path;
        None: the one the file's ``#lexicon`` names, else sowpods — see :func:`lexicon_for`)."""
        return cls.from_gcg(read_gcg(path), lexicon, rules)

    @classmethod
    def from_text(
        cls, text: str | bytes, lexicon: Lexicon | str | None = None, rules: Rules | None = None
    ) -> Replay:
        """Replay GCG text (bytes are decoded as :func:`~gaddag_solver.formats.gcg.decode_gcg` says)."""
        issues: list[GcgIssue] = []
        if isinstance(text, bytes):
            text, issues = decode_gcg(text)
        gcg = parse_gcg(text)
        gcg.warnings[:0] = issues
        return cls.from_gcg(gcg, lexicon, rules)

    @classmethod
    def from_gcg(
        cls, gcg: GcgGame, lexicon: Lexicon | str | None = None, rules: Rules | None = None
    ) -> Replay:
        note = None
        if not isinstance(lexicon, Lexicon):
            rules = rules if rules is not None else Rules.load("english")
            explicit = None if lexicon is None else os.fspath(lexicon)
            name, note = lexicon_for(gcg.lexicon, explicit, default_review_lexicon(rules))
            lexicon = Lexicon.load(resolve_lexicon(name), rules)
        return cls(gcg, lexicon, rules, note)

    # ---- reading --------------------------------------------------------------------------------

    @property
    def warnings(self) -> list[GcgIssue]:
        """Everything found wrong, in line order: the file's (parse) and the turns' (replay)."""
        return sorted([*self.gcg.warnings, *self._issues], key=lambda issue: issue.line)

    @property
    def players(self) -> list[tuple[str, str]]:
        return self.gcg.players

    def at(self, index: int) -> ReplayTurn:
        """The turn ``index`` (0-based event number; negative counts from the end)."""
        return self.turns[index]

    def game_at(self, index: int, seed: int = 0) -> Game:
        """A :class:`~gaddag_solver.game.play.Game` at turn ``index``, ready to go on from there:
        the board and scores before it, the player of the turn to move. The racks are what the
        file records — the player's at this turn, the opponent's at their next turn (their rack
        does not change in between) or in ``#rack1``/``#rack2`` — and what it does not record is
        drawn at random (``seed``) from the unseen tiles; the bag holds the rest, shuffled by
        ``seed``. GameError when the file's racks hold tiles the set does not have."""
        from .play import Game, GameError

        if self.lexicon is None:
            raise GameError("a game needs a lexicon: replay with one")
        turn = self.turns[index]
        racks: list[list[str]] = [[], []]
        racks[turn.player] = list(turn.rack.tiles) if turn.rack is not None else []
        racks[1 - turn.player] = self._rack_later(1 - turn.player, turn.index)
        pool = [tile for tile, count in unseen(turn.board, None).counts.items() for _ in range(count)]
        for rack in racks:
            for tile in rack:
                if tile in pool:
                    pool.remove(tile)
        random.Random(seed).shuffle(pool)
        for player in (turn.player, 1 - turn.player):
            while len(racks[player]) < self.rules.rack_size and pool:
                racks[player].append(pool.pop())
        held = (Rack(racks[0], self.rules), Rack(racks[1], self.rules))
        return Game.from_position(turn.board, held, self.lexicon, turn.scores, to_move=turn.player, seed=seed)

    def _rack_later(self, player: int, index: int) -> list[str]:
        """The player's rack as next recorded after event ``index`` (a turn's whole rack, the
        final rack pragma, or the tiles an end-of-game line counts), else none."""
        for turn in self.turns[index + 1 :]:
            if turn.player == player and turn.kind in (PLAY, EXCHANGE, PASS) and turn.rack_complete:
                assert turn.rack is not None
                return list(turn.rack.tiles)
            if turn.kind in (END_POINTS, END_PENALTY) and (turn.player != player) == (
                turn.kind == END_POINTS
            ):
                try:
                    return list(Rack(turn.event.tiles, self.rules).tiles)
                except RackError:
                    return []
        final = self.gcg.final_racks[player]
        try:
            return list(Rack(final, self.rules).tiles) if final else []
        except RackError:
            return []

    def to_gcg(self) -> str:
        """The game as GCG text (the file's events, pragmas and notes)."""
        return self.gcg.to_text()

    def __repr__(self) -> str:
        nicks = " v ".join(nick for nick, _ in self.players) or "?"
        return f"Replay({nicks}, {len(self.turns)} events, scores {self.scores[0]}-{self.scores[1]})"

    # ---- replaying ------------------------------------------------------------------------------

    def _replay(self) -> None:
        totals = [0, 0]
        board = self.board
        last_mover: int | None = None
        told: set[str] = set()  # too many tiles of a letter: said once
        for index, event in enumerate(self.gcg.events):
            player = self.gcg.player_index(event.nick)
            if player is None:  # only a GcgGame made by hand: the parser keeps only players' events
                raise GcgError(f"line {event.line}: {event.nick!r} is neither player of the game")
            turn = ReplayTurn(index, event, player, board, (totals[0], totals[1]))
            turn.rack = self._rack(turn)
            if event.kind in (PLAY, EXCHANGE, PASS):
                if last_mover == player:
                    turn.problems.append("moves twice in a row (a turn of the opponent missing?)")
                last_mover = player
                for message in position_warnings(board, turn.rack, self.rules):
                    if message not in told:
                        told.add(message)
                        turn.problems.append(message)
            if event.kind == PLAY:
                board = self._play(turn, board)
            elif event.kind == EXCHANGE:
                self._exchange(turn)
            elif event.kind == WITHDRAWN:
                board = self._withdraw(turn, board)
            elif event.kind == PASS:
                turn.move = Move.pass_turn(str(turn.rack) if turn.rack is not None else "")
            elif event.kind in (END_POINTS, END_PENALTY):
                self._end(turn)
            elif event.kind in (CHALLENGE_BONUS, TIME_PENALTY) and (event.score < 0) != (
                event.kind == TIME_PENALTY
            ):
                sign = "-" if event.kind == TIME_PENALTY else "+"
                turn.problems.append(
                    f"a {event.kind} event's points are written {sign}N, not {event.score:+d}"
                )
            if event.kind == PASS and event.score != 0:
                turn.problems.append(f"a pass scores 0, not {event.score}")
            expected = totals[player] + event.score
            if event.total != expected:
                turn.problems.append(
                    f"the total {event.total} is not {totals[player]} {event.score:+d} = {expected}; "
                    f"the file's total is kept"
                )
            totals[player] = event.total
            turn.scores_after = (totals[0], totals[1])
            self.turns.append(turn)
            self._issues.extend(GcgIssue(event.line, f"{event.nick}: {p}") for p in turn.problems)
        self.board = board
        self.scores = (totals[0], totals[1])

    def _rack(self, turn: ReplayTurn) -> Rack | None:
        text = turn.event.rack
        if not text or turn.kind in (END_POINTS,):
            return None
        try:
            return Rack(text, self.rules)
        except RackError as error:
            turn.problems.append(f"rack {text!r}: {error}")
            return None

    def _play(self, turn: ReplayTurn, board: Board) -> Board:
        event = turn.event
        move, problems = read_play(board, event.coord, event.word)
        turn.problems.extend(problems)
        if move is None:
            return board
        rules = self.rules
        used = [BLANK if blank else letter for _r, _c, letter, blank in move.tiles]
        if turn.rack is not None and leave_tiles(turn.rack.tiles, used) is None:
            turn.rack_mismatch = True
            turn.problems.append(f"the rack {turn.rack} does not hold the tiles played ({move.tiles_used})")
        if len(used) > rules.rack_size:  # no rack holds them: the scorer refuses such a play
            turn.problems.append(
                f"{event.coord} {event.word} places {len(used)} tiles, more than a rack of "
                f"{rules.rack_size} holds: the file's score {event.score} is kept unchecked"
            )
            turn.move = dataclasses.replace(move, score=event.score, leave="")
            turn.score = event.score
            return board.play(turn.move)
        words = move.words
        score = sum(points for _word, points in words) + (
            rules.bingo_bonus if len(used) == rules.rack_size else 0
        )
        leave = leave_tiles(turn.rack.tiles, used) if turn.rack is not None else None
        turn.move = dataclasses.replace(move, score=score, leave="".join(leave or ()))
        turn.score = score
        if score != event.score:
            turn.problems.append(
                f"the file scores {event.coord} {event.word} {event.score}, we score {score}"
            )
        if self.lexicon is not None:
            turn.phonies = tuple(word for word, _ in words if word.upper() not in self.lexicon)
            if turn.phonies:
                lexicon = self.lexicon.name or "the lexicon"
                turn.problems.append(f"not in {lexicon}: {', '.join(w.upper() for w in turn.phonies)}")
        return board.play(turn.move)

    def _exchange(self, turn: ReplayTurn) -> None:
        event = turn.event
        rules = self.rules
        if event.score != 0:
            turn.problems.append(f"an exchange scores 0, not {event.score}")
        if event.exchange_count > rules.rack_size or event.exchange_count < 1:
            turn.problems.append(f"an exchange of {event.exchange_count} tiles is impossible")
        bag = unseen(turn.board, turn.rack).bag if turn.rack is not None else None
        if bag is not None and bag < rules.exchange_minimum:
            turn.problems.append(
                f"an exchange with {bag} tiles in the bag (at least {rules.exchange_minimum})"
            )
        if not event.exchanged:
            return
        try:
            tiles = Rack(event.exchanged, rules)
        except RackError as error:
            turn.problems.append(f"exchange {event.exchanged!r}: {error}")
            return
        kept = leave_tiles(turn.rack.tiles, tiles.tiles) if turn.rack is not None else None
        if turn.rack is not None and kept is None:
            turn.rack_mismatch = True
            turn.problems.append(f"the rack {turn.rack} does not hold the tiles exchanged ({tiles})")
        turn.move = Move.exchange(str(tiles), "".join(kept or ()))

    def _withdraw(self, turn: ReplayTurn, board: Board) -> Board:
        previous = next((t for t in reversed(self.turns) if t.player == turn.player), None)
        if previous is None or previous.kind != PLAY or previous.withdrawn:
            turn.problems.append("'--' withdraws a play, but the player's last event is not a play")
            return board
        previous.withdrawn = True
        if turn.event.score != -previous.event.score:
            turn.problems.append(
                f"withdrawing a play of {previous.event.score} takes back {-previous.event.score}, "
                f"not {turn.event.score:+d}"
            )
        return previous.board if previous.move is not None else board

    def _end(self, turn: ReplayTurn) -> None:
        event = turn.event
        rules = self.rules
        try:
            value = tiles_value(Rack(event.tiles, rules).tiles, rules)
        except RackError as error:
            turn.problems.append(f"end rack ({event.tiles}): {error}")
            return
        if event.kind == END_POINTS:
            expected = rules.going_out_bonus * value
            if event.score != expected:
                turn.problems.append(
                    f"going out gains {rules.going_out_bonus} × {value} = {expected} for ({event.tiles}), "
                    f"not {event.score}"
                )
        elif event.score not in (-value, -rules.going_out_penalty * value):
            turn.problems.append(f"tiles left ({event.tiles}) cost {value}, not {-event.score}")


def tiles_value(tiles: Iterable[str], rules: Rules) -> int:
    """The face value of tiles (``?`` a blank)."""
    code = rules.alphabet.code
    return sum(rules.blank_value if tile == BLANK else rules.letter_value(code(tile)) for tile in tiles)


def read_play(board: Board, coord: str, word: str) -> tuple[Move | None, list[str]]:
    """A GCG play (square and word) placed on ``board`` (its score not yet worked out: 0), and
    what is wrong with it. None when it cannot be placed: a square off the board, a letter that
    contradicts the tile on its square, ``.`` on an empty square, no tile placed. A play that can
    be placed but breaks the rules (not touching the tiles, the start square left empty, a word
    that goes on past the letters written) comes back with its problems."""
    rules = board.rules
    alphabet = rules.alphabet
    try:
        row, col, across = parse_coordinate(coord)
    except ValueError as error:
        return None, [str(error)]
    if not (0 <= row < rules.rows and 0 <= col < rules.cols):
        return None, [f"square {coord} is off the {rules.rows}×{rules.cols} board"]
    dr, dc = (0, 1) if across else (1, 0)
    try:
        letters = list(word_squares(word))
    except ValueError as error:
        return None, [str(error)]
    if not letters:
        return None, [f"{coord} {word}: no letters"]
    tiles: list[tuple[int, int, str, bool]] = []
    for i, (letter, through) in enumerate(letters):
        r, c = row + i * dr, col + i * dc
        if r >= rules.rows or c >= rules.cols:
            return None, [f"{coord} {word} runs off the board"]
        here = board.code(r, c)
        if here:
            have = letter_text(here, alphabet)
            if letter and alphabet.normalize(letter) != alphabet.normalize(have):
                return None, [f"{coord} {word}: {square_name(r, c)} holds {have}, the play writes {letter}"]
            continue
        if through:
            return None, [
                f"{coord} {word}: {square_name(r, c)} is empty, but the play writes it as on the board"
            ]
        try:
            code = tile_code(letter, alphabet)
        except AlphabetError:
            hint = alphabet.script_hint(letter)
            return None, [f"{coord} {word}: {letter!r} is not a letter of the {rules.title} alphabet{hint}"]
        tiles.append((r, c, alphabet.letters[(code & 0x3F) - 1], letter != letter.upper()))
    if not tiles:
        return None, [f"{coord} {word} places no tile"]
    problems: list[str] = []
    # the whole word: it may go on past the letters the file writes
    while 0 <= row - dr and 0 <= col - dc and board.code(row - dr, col - dc):
        row, col = row - dr, col - dc
    end_r, end_c = row + len(letters) * dr, col + len(letters) * dc
    if (row, col) != parse_coordinate(coord)[:2] or (
        end_r < rules.rows and end_c < rules.cols and board.code(end_r, end_c)
    ):
        problems.append(f"{coord} {word}: the word goes on past the letters written")
    placed = {(r, c) for r, c, _l, _b in tiles}
    if board.is_empty:
        if rules.start not in placed:
            problems.append(
                f"{coord} {word}: the first play must cover the start square {square_name(*rules.start)}"
            )
        if len(tiles) < 2:
            problems.append(f"{coord} {word}: the first play must place at least two tiles")
    else:
        touching = len(tiles) < len(letters) or any(
            0 <= r + a < rules.rows and 0 <= c + b < rules.cols and board.code(r + a, c + b)
            for r, c in placed
            for a, b in ((-1, 0), (1, 0), (0, -1), (0, 1))
        )
        if not touching:
            problems.append(f"{coord} {word}: the play touches no tile on the board")
    move = Move(row, col, ACROSS if across else DOWN, "", 0, tuple(tiles), board=board)
    squares = move._squares()
    text = "".join(
        letter_text(board.code(r, c), alphabet) if board.code(r, c) else _placed_text(tiles, r, c)
        for r, c in squares
    )
    return dataclasses.replace(move, word=text), problems


def _placed_text(tiles: list[tuple[int, int, str, bool]], row: int, col: int) -> str:
    for r, c, letter, blank in tiles:
        if (r, c) == (row, col):
            return letter.lower() if blank else letter
    return "?"
