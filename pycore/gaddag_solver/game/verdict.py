"""Validate and explain a play a person describes: is it legal, and if not exactly why; if so, its
score word by word and tile by tile.

A play is given as players write it — a square and a word, ``8D QUIXOTE`` (across: row then
column; ``D8`` is down), letters already on the board written plainly or in parentheses, a blank
as a lower-case letter — or as the tiles placed on squares (the page's board). The reasons a play
is refused name what and where: a square off the board, a letter that contradicts the tile on its
square, tiles not in one line or with a gap between them, a tile the rack does not hold, a play
that touches no tile or leaves the start square empty, and each word formed that the lexicon does
not hold. Scores come from the core's scoring (gd_move_words); the breakdown shows how each word
adds up (letter values, letter premiums under new tiles, the word premiums) and what each new tile
brings, plus the bingo bonus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import _core_api as core
from ..alphabet import BLANK_FLAG
from ..board import Board, square_name, tiles_text
from ..formats.gcg import coordinate
from ..lexicon import Lexicon
from ..move import Move
from ..rack import BLANK, Rack, leave_tiles
from ..rules_core import core_rules
from .replay import read_play


@dataclass(frozen=True)
class LetterScore:
    """One square of a word: its letter (lower case for a blank), whether the play puts it there,
    its face value and the letter premium that counts (1 under a tile already on the board)."""

    square: str
    letter: str
    new: bool
    value: int
    letter_premium: int

    @property
    def points(self) -> int:
        return self.value * self.letter_premium


@dataclass(frozen=True)
class WordScore:
    """A word the play forms: the main word first, then the cross-words."""

    word: str
    coord: str
    main: bool
    in_lexicon: bool
    letters: tuple[LetterScore, ...]
    word_premium: int  # the product of the word premiums under the new tiles
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "coord": self.coord,
            "main": self.main,
            "in_lexicon": self.in_lexicon,
            "letters": [dict(vars(letter), points=letter.points) for letter in self.letters],
            "word_premium": self.word_premium,
            "score": self.score,
        }


@dataclass(frozen=True)
class TileScore:
    """A tile the play places and what it brings: its value times its letter premium, in each
    word it is part of, times that word's premium."""

    square: str
    letter: str
    blank: bool
    value: int
    letter_premium: int
    word_premium: int
    points: int


@dataclass(frozen=True)
class Verdict:
    """Whether a play is legal, why not (``reasons``, each naming what and where), and when it
    can be placed its words and tiles with their scores (``score`` includes the bingo bonus)."""

    play: str
    legal: bool
    reasons: tuple[str, ...]
    move: Move | None = None
    words: tuple[WordScore, ...] = ()
    tiles: tuple[TileScore, ...] = ()
    bingo: int = 0
    score: int = 0
    leave: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "play": self.play,
            "legal": self.legal,
            "reasons": list(self.reasons),
            "score": self.score if self.move is not None else None,
            "bingo": self.bingo,
            "leave": self.leave,
            "words": [word.to_dict() for word in self.words],
            "tiles": [vars(tile) for tile in self.tiles],
        }


def judge(board: Board, play: str, lexicon: Lexicon | None = None, rack: Rack | str | None = None) -> Verdict:
    """The verdict on a play written as a square and a word (``"8D QUIXOTE"``, ``"H4 (Q)UIZ"``).
    `lexicon` None: words are not checked; `rack` None: the tiles are not checked."""
    parts = play.split()
    if len(parts) != 2:
        return Verdict(play, False, (f"{play!r}: write a square and a word, e.g. 8D QUIXOTE (D8 for down)",))
    coord, word = parts
    move, problems = read_play(board, coord, word)
    return _verdict(board, f"{coord} {word}", move, list(problems), lexicon, rack)


def judge_tiles(
    board: Board,
    tiles: Iterable[tuple[int, int, str, bool]],
    lexicon: Lexicon | None = None,
    rack: Rack | str | None = None,
) -> Verdict:
    """The verdict on tiles placed on squares: (row, col, letter, whether a blank), rows and
    columns from 0. The tiles must lie in one line with no empty square between them."""
    rules = board.rules
    placed = list(tiles)
    if not placed:
        return Verdict("", False, ("no tile is placed",))
    reasons = []
    squares = Counter((r, c) for r, c, _l, _b in placed)
    for (r, c), n in squares.items():
        if not (0 <= r < rules.rows and 0 <= c < rules.cols):
            reasons.append(f"square ({r + 1}, {c + 1}) is off the {rules.rows}×{rules.cols} board")
        elif board.code(r, c):
            reasons.append(f"{square_name(r, c)} already holds {board[r, c]}")
        elif n > 1:
            reasons.append(f"{square_name(r, c)} is given {n} tiles")
    if reasons:
        return Verdict("", False, tuple(reasons))
    rows = {r for r, _c, _l, _b in placed}
    cols = {c for _r, c, _l, _b in placed}
    if len(rows) > 1 and len(cols) > 1:
        return Verdict("", False, ("the tiles are not in one row or one column",))
    (r0, c0, *_rest) = min(placed)
    if len(placed) == 1:  # one tile: across when it forms an across word, as the generators record it
        across = any(0 <= c0 + d < rules.cols and board.code(r0, c0 + d) for d in (-1, 1))
    else:
        across = len(rows) == 1
    dr, dc = (0, 1) if across else (1, 0)
    last = max(placed)
    gaps = [
        square_name(r0 + i * dr, c0 + i * dc)
        for i in range(max(last[0] - r0, last[1] - c0) + 1)
        if not board.code(r0 + i * dr, c0 + i * dc) and (r0 + i * dr, c0 + i * dc) not in squares
    ]
    if gaps:
        return Verdict("", False, (f"a gap: {', '.join(gaps)} between the tiles placed is empty",))
    # the whole line the tiles make, board tiles on either side included, written as a play
    while 0 <= r0 - dr and 0 <= c0 - dc and board.code(r0 - dr, c0 - dc):
        r0, c0 = r0 - dr, c0 - dc
    letters = {(r, c): letter.lower() if blank else letter for r, c, letter, blank in placed}
    word = []
    r, c = r0, c0
    while r < rules.rows and c < rules.cols and ((r, c) in letters or board.code(r, c)):
        word.append(letters.get((r, c)) or f"({board[r, c]})")
        r, c = r + dr, c + dc
    text = "".join(
        piece if len(piece) == 1 or piece.startswith("(") else f"[{piece}]" for piece in word
    ).replace(")(", "")  # runs of board letters in one pair
    return judge(board, f"{coordinate(r0, c0, 0 if across else 1)} {text}", lexicon, rack)


def _verdict(
    board: Board,
    play: str,
    move: Move | None,
    reasons: list[str],
    lexicon: Lexicon | None,
    rack: Rack | str | None,
) -> Verdict:
    rules = board.rules
    if move is None:
        return Verdict(play, False, tuple(reasons))
    used = [BLANK if blank else letter for _r, _c, letter, blank in move.tiles]
    leave = None
    if rack is not None:
        rack = Rack(rack, rules) if isinstance(rack, str) else rack
        missing = Counter(used) - Counter(rack.tiles)
        if missing:
            named = ", ".join(
                f"{n} × {'a blank' if tile == BLANK else tile}"
                if n > 1
                else ("a blank" if tile == BLANK else tile)
                for tile, n in sorted(missing.items())
            )
            reasons.append(f"the rack {rack} does not hold {named}")
        else:
            leave = tiles_text(leave_tiles(rack.tiles, used) or (), rules.alphabet)
    if len(used) > rules.rack_size:
        reasons.append(f"{play} places {len(used)} tiles, more than a rack of {rules.rack_size} holds")
        return Verdict(play, False, tuple(reasons), move)
    words = _words(board, move, lexicon)
    for word in words:
        if not word.in_lexicon:
            reasons.append(f"{word.word.upper()} ({word.coord}) is not in {lexicon.name or 'the lexicon'}")
    bingo = rules.bingo_bonus if len(used) == rules.rack_size else 0
    score = sum(word.score for word in words) + bingo
    return Verdict(
        play,
        not reasons,
        tuple(reasons),
        Move(move.row, move.col, move.direction, move.word, score, move.tiles, leave or "", board=board),
        tuple(words),
        tuple(_tiles(board, move, words)),
        bingo,
        score,
        leave,
    )


def _words(board: Board, move: Move, lexicon: Lexicon | None) -> list[WordScore]:
    """The words the play forms, scored by the core (gd_move_words, main word first), with the
    letters that make their scores."""
    rules = board.rules
    placed = {(r, c): (letter, blank) for r, c, letter, blank in move.tiles}
    found = core.move_words(core_rules(rules), board.codes(), move.record())
    words = []
    for number, ((text, _), (row, col, direction, length, score)) in enumerate(
        zip(move.words, found, strict=True)
    ):
        if length < 2:  # a main word of one letter (a single tile read the other way) is no word
            continue
        dr, dc = (0, 1) if direction == 0 else (1, 0)
        letters = []
        premium = 1
        for i in range(length):
            r, c = row + i * dr, col + i * dc
            if (r, c) in placed:
                letter, blank = placed[(r, c)]
                code = rules.alphabet.code(letter)
                lm = rules.letter_multiplier(r, c)
                premium *= rules.word_multiplier(r, c)
            else:
                code, lm = board.code(r, c), 1
                letter, blank = rules.alphabet.letters[(code & 0x3F) - 1], bool(code & BLANK_FLAG)
            value = rules.blank_value if blank else rules.letter_value(code & 0x3F)
            shown = letter.lower() if blank else letter
            letters.append(LetterScore(square_name(r, c), shown, (r, c) in placed, value, lm))
        in_lexicon = lexicon is None or text.upper() in lexicon
        coord = coordinate(row, col, direction)
        words.append(WordScore(text, coord, number == 0, in_lexicon, tuple(letters), premium, score))
    return words


def _tiles(board: Board, move: Move, words: list[WordScore]) -> list[TileScore]:
    rules = board.rules
    result = []
    for r, c, letter, blank in move.tiles:
        name = square_name(r, c)
        value = rules.blank_value if blank else rules.letter_value(rules.alphabet.code(letter))
        lm, wm = rules.letter_multiplier(r, c), rules.word_multiplier(r, c)
        points = sum(
            value * lm * word.word_premium for word in words if any(x.square == name for x in word.letters)
        )
        result.append(TileScore(name, letter.lower() if blank else letter, blank, value, lm, wm, points))
    return result
