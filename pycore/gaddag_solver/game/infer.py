"""What the opponent kept: inference of their rack from the move they made (docs/inference.md).

Every rack the opponent could have held before the move (drawn from what the inferring player
could not see) is valued in the C core (``gd_infer``): the move is taken to be near that rack's
best by static equity, within ``tolerance`` points, or the rack is ruled out. What is left,
weighted by each rack's chance of being drawn, is the distribution of the leave they kept, and
from it the chance that they hold each letter now.

    inference = infer_last_move(game, leaves=Leaves.load("sowpods"))
    for leave in inference.leaves[:5]:
        print(leave.tiles, f"{leave.probability:.1%}")
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import _core_api as core
from ..board import Board, PositionError, letter_text, square_name, tiles_text
from ..move import BLANK_FLAG, PASS, PLAY, Move
from ..rack import tiles_of_counts
from ..rules_core import core_rules
from .play import Game, GameError

if TYPE_CHECKING:  # pragma: no cover
    from ..formats.leaves import Leaves
    from ..lexicon import Lexicon

# A move within this many points of a rack's best by equity counts as one the rack would make:
# players and other engines value leaves differently from our table, and without a margin a rack
# whose best beats the move by a point would be ruled out. bench/infer.py tolerance: against a
# player valuing leaves by another table, 0 misses the real leave on 7% of turns, 2 never does
# and keeps most of 0's sharpness (docs/inference.md).
DEFAULT_TOLERANCE = 2.0
# Exhaustive up to this many racks (a play of 1-2 tiles keeps 5-6 unknown tiles: more racks than
# this, so they are sampled); about a second on one core.
DEFAULT_MAX_RACKS = 20_000


class InferenceError(GameError):
    """A move that cannot be inferred from (not made on the board given, tiles not unseen, ...)."""


@dataclass(frozen=True)
class InferredLeave:
    """A leave the opponent may have kept, with its probability."""

    tiles: str  # rack text, ``?`` for a blank; "" for nothing kept
    probability: float

    def to_dict(self) -> dict[str, object]:
        return {"tiles": self.tiles, "probability": round(self.probability, 6)}


@dataclass(frozen=True)
class Inference:
    """The opponent's leave after ``move``: its distribution, and per letter the chance that the
    leave holds it (``kept``) and that their rack holds it now, after drawing (``holds``).
    ``informative`` is False when the move says nothing here (a pass) or no rack fits it (a move
    far from every rack's best): the leaves are then empty and a simulation draws at random."""

    move: str
    tolerance: float
    informative: bool
    reason: str
    leaves: list[InferredLeave]  # most likely first
    kept: dict[str, float]
    holds: dict[str, float]
    racks: int  # racks valued (drawn, when not exhaustive)
    consistent: int  # of them, those the move fits
    exhaustive: bool
    effective_racks: float  # the number of equally weighted racks the estimate is worth
    rack_tiles: int  # tiles the opponent held before the move
    drawn: int  # tiles they drew after it
    core_leaves: list[tuple[bytes, float]] = field(default_factory=list, repr=False, compare=False)

    def stderr(self, probability: float) -> float:
        """The standard error of a probability of this inference (0 when exhaustive)."""
        if self.exhaustive or not self.informative or self.effective_racks <= 0:
            return 0.0
        return math.sqrt(max(0.0, probability * (1 - probability)) / self.effective_racks)

    def to_dict(self, top: int = 20) -> dict[str, object]:
        return {
            "move": self.move,
            "tolerance": self.tolerance,
            "informative": self.informative,
            "reason": self.reason,
            "exhaustive": self.exhaustive,
            "racks": self.racks,
            "consistent": self.consistent,
            "effective_racks": round(self.effective_racks, 1),
            "rack_tiles": self.rack_tiles,
            "drawn": self.drawn,
            "leaves": [leave.to_dict() for leave in self.leaves[:top]],
            "leave_count": len(self.leaves),
            "kept": {letter: round(p, 6) for letter, p in self.kept.items()},
            "holds": {letter: round(p, 6) for letter, p in self.holds.items()},
        }


def _no_inference(move: str, tolerance: float, reason: str, rack_tiles: int, drawn: int) -> Inference:
    return Inference(move, tolerance, False, reason, [], {}, {}, 0, 0, True, 0.0, rack_tiles, drawn)


def infer(
    board: Board,
    unseen: list[int],
    move: Move,
    lexicon: Lexicon,
    *,
    leaves: Leaves | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_racks: int = DEFAULT_MAX_RACKS,
    seed: int = 0,
) -> Inference:
    """What the opponent kept after making ``move`` on ``board`` (the board before the move),
    ``unseen`` being what the inferring player could not see before it, by code ([0] the blanks:
    the bag and the opponent's rack together). ``leaves`` is the table the opponent is taken to
    value leaves by."""
    rules = board.rules
    letters = ("?", *rules.alphabet.letters)
    if not (isinstance(tolerance, int | float) and 0 <= tolerance <= 1000):
        raise InferenceError(f"the tolerance is a number of points from 0 to 1000, not {tolerance!r}")
    if not (isinstance(max_racks, int) and 1 <= max_racks <= 10_000_000):
        raise InferenceError(f"max_racks is a whole number from 1 to 10,000,000, not {max_racks!r}")
    total = sum(unseen)
    rack_tiles = min(rules.rack_size, total)
    bag_before = total - rack_tiles
    text = str(move)
    if move.kind == PASS:
        return _no_inference(text, tolerance, "a pass tells nothing of the rack here", rack_tiles, 0)
    try:
        record = move.record(rules)
    except (PositionError, ValueError) as error:
        raise InferenceError(f"{text}: {error}") from None
    used = len(move.tiles) if move.kind == PLAY else record[11]  # an exchange's length: tiles put back
    drawn = min(used, bag_before)
    try:
        found, summary = core.infer(
            lexicon._core,
            core_rules(rules),
            board.codes(),
            list(unseen),
            record,
            None if leaves is None else leaves.core,
            round(100 * tolerance),
            max_racks,
            seed,
        )
    except core.CoreError as error:
        raise InferenceError(f"{text}: {error}") from None
    if not found:
        return _no_inference(
            text, tolerance, f"no rack has {text} within {tolerance:g} of its best", rack_tiles, drawn
        )
    weight = summary.weight
    ranked = sorted(found, key=lambda e: (-e[1], e[0]))
    inferred = [
        # written so that it reads back as the same tiles (Spanish R, R is [R]R)
        InferredLeave(tiles_text(tiles_of_counts(counts, rules.alphabet.letters), rules.alphabet), w / weight)
        for counts, w in ranked
    ]
    after = list(unseen)  # what is unseen after the move: the tiles played are on the board
    if move.kind == PLAY:
        for _r, _c, letter, blank in move.tiles:
            after[0 if blank else rules.alphabet.code(letter)] -= 1
    kept, holds = _letter_chances(found, weight, after, drawn, letters)
    effective = weight * weight / summary.weight_squares if summary.weight_squares > 0 else 0.0
    return Inference(
        text, tolerance, True, "", inferred, kept, holds, summary.racks, summary.consistent,
        summary.exhaustive, effective, rack_tiles, drawn, found,
    )  # fmt: skip


def _letter_chances(
    found: list[tuple[bytes, float]], weight: float, after: list[int], drawn: int, letters: tuple[str, ...]
) -> tuple[dict[str, float], dict[str, float]]:
    """Per letter: the chance the leave holds one, and that the rack does after drawing ``drawn``
    tiles at random from what is unseen beside the leave."""
    kept = [0.0] * len(letters)
    holds = [0.0] * len(letters)
    for counts, w in found:
        p = w / weight
        pool = sum(after) - sum(counts)
        for c in range(len(letters)):
            if counts[c]:
                kept[c] += p
                holds[c] += p
            elif after[c] and drawn:
                others = pool - after[c]
                holds[c] += p * (1 - math.comb(others, drawn) / math.comb(pool, drawn))
    order = list(range(1, len(letters))) + [0]
    return (
        {letters[c]: kept[c] for c in order if after[c]},
        {letters[c]: holds[c] for c in order if after[c]},
    )


def infer_last_move(
    game: Game,
    *,
    leaves: Leaves | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_racks: int = DEFAULT_MAX_RACKS,
    seed: int = 0,
) -> Inference:
    """What the opponent kept with the last move of ``game``, from the view of the player to move."""
    history = game.history
    if not history:
        raise InferenceError("the game has no move yet to infer from")
    last = history[-1]
    if last.player == game.to_move:
        raise InferenceError("the last move was the player to move's own")
    before, unseen = position_before(game.board, core.game_unseen(game._state, game.to_move), last.move)
    return infer(
        before, unseen, last.move, game.lexicon, leaves=leaves, tolerance=tolerance, max_racks=max_racks,
        seed=seed,
    )  # fmt: skip


def position_before(board: Board, unseen_after: list[int], move: Move) -> tuple[Board, list[int]]:
    """The board before ``move`` (a play on ``board``: its tiles taken off) and what was unseen
    before it (``unseen_after`` and the tiles it placed); an exchange or pass changes neither."""
    unseen = list(unseen_after)
    if move.kind != PLAY:
        return board, unseen
    codes = bytearray(board.codes())
    rules = board.rules
    for r, c, letter, blank in move.tiles:
        code = board.code(r, c)
        if not code:
            raise InferenceError(f"{move}: {letter} is not on the board at row {r + 1}, column {c + 1}")
        codes[r * rules.cols + c] = 0
        unseen[0 if blank else rules.alphabet.code(letter)] += 1
    return Board(rules, bytes(codes)), unseen


def last_move_on_board(board: Board, text: str, lexicon: Lexicon) -> tuple[Board, Move]:
    """The board before the opponent's last move and the move, from ``board`` (after it) and the
    move as written: a play as a square and a word whose letters it placed are on the board
    (``8D W(O)RD``: the O was there before; lower case a blank), ``exch N`` (or ``-N``) for an
    exchange of N tiles, ``pass``."""
    from ..formats.gcg import parse_coordinate, word_squares
    from .verdict import judge

    written = text.strip()
    lowered = written.lower()
    if lowered == "pass":
        return board, Move.pass_turn()
    count = (
        lowered.removeprefix("exch").strip().removeprefix("-") if lowered.startswith(("exch", "-")) else ""
    )
    if count:
        if not count.isdigit() or not 1 <= int(count) <= board.rules.rack_size:
            raise InferenceError(
                f"{written!r}: an exchange is written 'exch N', N from 1 to {board.rules.rack_size}"
            )
        return board, Move.exchange("?" * int(count))
    parts = written.split()
    if len(parts) != 2:
        raise InferenceError(
            f"{written!r}: write the last move as a square and a word (8D W(O)RD), exch N or pass"
        )
    coord, word = parts
    try:
        row, col, across = parse_coordinate(coord)
        squares = list(word_squares(word))
    except ValueError as error:
        raise InferenceError(f"{written}: {error}") from None
    rules = board.rules
    dr, dc = (0, 1) if across else (1, 0)
    codes = bytearray(board.codes())
    for i, (letter, through) in enumerate(squares):
        r, c = row + i * dr, col + i * dc
        if not (0 <= r < rules.rows and 0 <= c < rules.cols) or not board.code(r, c):
            raise InferenceError(f"{written}: the board has no tile on the play's square {i + 1}")
        here = letter_text(board.code(r, c), rules.alphabet)
        if letter and rules.alphabet.normalize(letter) != rules.alphabet.normalize(here):
            raise InferenceError(f"{written}: {square_name(r, c)} holds {here}, the move writes {letter}")
        if not through and (letter != letter.upper()) != bool(board.code(r, c) & BLANK_FLAG):
            blank = "a blank" if letter != letter.upper() else "a letter tile"
            where = square_name(r, c)
            raise InferenceError(f"{written}: {where} holds {here}, the move writes {blank} {letter}")
        if not through:
            codes[r * rules.cols + c] = 0
    before = Board(rules, bytes(codes))
    verdict = judge(before, f"{coord} {word}", lexicon)
    if verdict.move is None or not verdict.legal:
        raise InferenceError(f"{written}: not a legal play before it: {'; '.join(verdict.reasons)}")
    move = verdict.move
    if Board.play(before, move) != board:
        raise InferenceError(f"{written}: the board does not hold the tiles this play placed")
    return before, move


def infer_written(
    game: Game,
    last_move: str,
    *,
    leaves: Leaves | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_racks: int = DEFAULT_MAX_RACKS,
    seed: int = 0,
) -> Inference:
    """What the opponent kept with ``last_move`` (written as :func:`last_move_on_board` reads it),
    the move that made the board of ``game``, from the view of the player to move."""
    _before, move = last_move_on_board(game.board, last_move, game.lexicon)
    board, unseen = position_before(game.board, core.game_unseen(game._state, game.to_move), move)
    return infer(
        board, unseen, move, game.lexicon, leaves=leaves, tolerance=tolerance, max_racks=max_racks, seed=seed
    )
