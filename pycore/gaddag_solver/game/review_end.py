"""Reviewing the last turns of a game with the tools for them (docs/review.md): with the bag
empty the exact endgame grades the move made in points lost against the best line; with 1 or 2
tiles in the bag (``max_bag``) the pre-endgame solver grades it in probability of winning lost.
Each graded turn says which tool graded it and whether its figures are exact (a time limit may
leave them unproven)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..formats.leaves import Leaves
from ..move import Move
from .endgame import EndgameError, EndgameSearch, find_move
from .play import GameError
from .preendgame import EXACT, PreendgameError, PreendgameSearch
from .replay import Replay, ReplayTurn

ENDGAME, PREENDGAME = "endgame", "pre-endgame"


@dataclass(frozen=True)
class EndSettings:
    """How the last turns are graded: the pre-endgame up to ``max_bag`` tiles in the bag (0:
    the endgame only), each search at most ``time_limit`` seconds (None: to the end)."""

    time_limit: float | None = 30.0
    max_bag: int = 2

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"the end-of-game time limit must be positive, not {self.time_limit}")
        if not 0 <= self.max_bag <= 6:
            raise ValueError(f"the pre-endgame grades 1 to 6 tiles in the bag at most, not {self.max_bag}")


@dataclass(frozen=True)
class TurnEnd:
    """A turn graded by the endgame (values in points) or the pre-endgame (probabilities of
    winning, a tie counting half). ``lost``: best − made, ≥ 0; None when not found."""

    tool: str
    best: str | None = None
    best_value: float | None = None
    played_value: float | None = None
    lost: float | None = None
    exact: bool = False
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "end_tool": self.tool,
            "end_best": self.best,
            "end_best_value": self.best_value,
            "end_played_value": self.played_value,
            "end_lost": self.lost,
            "end_exact": self.exact,
            "end_note": self.note,
        }


def grade_end(
    replay: Replay, turn: ReplayTurn, made: Move, leaves: Leaves | None, settings: EndSettings
) -> TurnEnd | None:
    """Grade a reviewed turn with the endgame or the pre-endgame, or None when its bag holds
    more than ``settings.max_bag`` tiles. ``made``: the move as the review values it (a
    withdrawn play being the pass)."""
    bag = turn.unseen().bag
    if bag > settings.max_bag:
        return None
    tool = ENDGAME if bag == 0 else PREENDGAME
    try:
        game = replay.game_at(turn.index)
        chosen = find_move(game, "pass" if made.kind == "pass" else f"{made.coord} {made.word}")
    except GameError as error:
        return TurnEnd(tool, note=f"not graded: {error}")
    if made.kind == "exchange":
        return TurnEnd(tool, note="an exchange: not a candidate of the end-of-game tools")
    try:
        if bag == 0:
            return _grade_endgame(game, chosen, settings)
        return _grade_preendgame(game, chosen, leaves, settings)
    except (EndgameError, PreendgameError) as error:
        return TurnEnd(tool, note=f"not graded: {error}")


def _grade_endgame(game: Any, chosen: Move, settings: EndSettings) -> TurnEnd:
    search = EndgameSearch(game)
    best = search.run(time_limit=settings.time_limit)
    given = search.value_of(chosen, time_limit=settings.time_limit)
    exact = best.complete and given.complete
    lost = max(0, best.value - given.value)
    return TurnEnd(
        ENDGAME, str(best.best), float(best.value), float(given.value), float(lost), exact,
        "" if exact else "time ran out: the values rest on the deepest search finished",
    )  # fmt: skip


def _grade_preendgame(game: Any, chosen: Move, leaves: Leaves | None, settings: EndSettings) -> TurnEnd:
    search = PreendgameSearch(game, leaves=leaves)
    result = search.run(time_limit=settings.time_limit)
    index = next((i for i, c in enumerate(result.candidates) if str(c.move) == str(chosen)), None)
    if index is None:
        return TurnEnd(PREENDGAME, note=f"{chosen} is not a candidate of the pre-endgame")
    if result.best_index is None:
        return TurnEnd(PREENDGAME, note="time ran out before any candidate was valued in every world")
    made = search.value_candidate(index, time_limit=settings.time_limit)
    best = result.best
    exact = result.complete and made.status == EXACT
    if made.status == EXACT:
        played = float(made.win_low)
        lost = max(0.0, float(best.win_low - made.win_low))
    else:  # the move made is only bounded: the least it loses
        played = float(made.win_high)
        lost = max(0.0, float(best.win_low - made.win_high))
    note = "" if exact else "time ran out: the move made's figure is a bound"
    return TurnEnd(PREENDGAME, str(best.move), float(best.win_low), played, lost, exact, note)
