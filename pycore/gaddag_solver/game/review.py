"""Reviewing recorded games: for every turn with a known rack, the play made against the best
play by static equity (and, when asked, by simulation), and a summary per player.

>>> from gaddag_solver.game.review import review_file
>>> review = review_file("game.gcg", leaves="sowpods")  # doctest: +SKIP
>>> print(review.format_table())  # doctest: +SKIP

For each turn of a :class:`~gaddag_solver.game.replay.Replay` where the file records the whole
rack, the solver lists every move of the position — plays, exchanges (while the bag allows) and
the pass — valued by equity (score + the leave table's value of the tiles kept; with the bag
empty, the end-of-game rule of docs/equity.md). The review gives the move made, its equity, the
best move, the equity lost (best − made, ≥ 0), and the made move's rank (1 + the moves with a
strictly higher equity; of how many). A play the lexicon lacks is not among the generated moves:
withdrawn, it is valued as the pass it amounted to; kept, as its score plus its leave. A bingo
(a play of the whole rack) missed is one the position had when the move made was not one.

With :class:`SimSettings` every reviewed turn whose bag still holds tiles is also simulated
(:mod:`gaddag_solver.game.simulate`): the best candidates by equity plus the move made, from
:meth:`Replay.game_at <gaddag_solver.game.replay.Replay.game_at>`, seeded by the settings' seed
plus the turn's number, so a turn's figures do not depend on which process reviews it.

:func:`review_files` runs many files in parallel (local processes or a Dask cluster, the chunks
and ordering of :mod:`gaddag_solver.game.parallel`); a file that cannot be read is reported in its
result and the others go on.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..formats.gcg import GcgError, read_gcg
from ..formats.leaves import Leaves, LeavesError
from ..lexicon import Lexicon, LexiconFormatError
from ..lexicons import LexiconNotFoundError, resolve_lexicon
from ..move import EXCHANGE, MOVE_RECORD, PASS, PLAY, Move
from ..rack import Rack
from ..rules import Rules
from ..solver import Solver, Valuation, get_solver
from . import parallel
from .play import Game, GameError
from .replay import Replay, ReplayTurn, default_review_lexicon, lexicon_for, tiles_value
from .review_end import EndSettings, TurnEnd, grade_end
from .simulate import (
    DEFAULT_CANDIDATES,
    DEFAULT_CONFIDENCE,
    DEFAULT_ITERATIONS,
    DEFAULT_PLIES,
    MAX_CANDIDATES,
    MAX_PLIES,
    SimResult,
    Simulation,
    SimulationError,
    prune_threshold,
)

__all__ = [
    "EndSettings",
    "GameReview",
    "PlayerReview",
    "ReviewError",
    "ReviewSpec",
    "SimSettings",
    "TurnReview",
    "TurnSim",
    "review_file",
    "review_files",
    "review_replay",
    "sim_candidates",
    "simulate_turn",
]

SCHEDULER_TIMEOUT = 10.0
MISTAKES = 5  # the biggest mistakes a summary lists
_KIND_PLAY = 0


class ReviewError(ValueError):
    """A review cannot run as asked (a lexicon, a leave table, a scheduler or the simulation's
    settings); says which and why."""


class ReviewInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a batch: ``results`` are the files reviewed by then (whole chunks, in the
    order of the paths, possibly with gaps), of ``total``."""

    def __init__(self, results: list[FileResult], total: int) -> None:
        super().__init__(f"interrupted: {len(results)} of {total} files reviewed")
        self.results = results
        self.total = total


@dataclass(frozen=True)
class SimSettings:
    """How each turn is simulated: the ``candidates`` best moves by equity (the move made is added
    when it is not among them), ``plies`` moves looked ahead after each, at most ``iterations``
    iterations and ``time_limit`` seconds a turn (None: no limit; a time limit makes the figures
    depend on the machine), the stopping rule's ``confidence``, and ``seed`` (turn i is simulated
    with seed + i). Bad values raise ReviewError."""

    candidates: int = DEFAULT_CANDIDATES
    plies: int = DEFAULT_PLIES
    iterations: int = DEFAULT_ITERATIONS
    time_limit: float | None = None
    confidence: float = DEFAULT_CONFIDENCE
    seed: int = 0

    def __post_init__(self) -> None:
        if not _whole(self.candidates) or not 2 <= self.candidates <= MAX_CANDIDATES - 1:
            raise ReviewError(
                f"simulation candidates must be a whole number from 2 to {MAX_CANDIDATES - 1} "
                f"(the move made is added), not {self.candidates!r}"
            )
        if not _whole(self.plies) or not 0 <= self.plies <= MAX_PLIES:
            raise ReviewError(
                f"simulation plies must be a whole number from 0 to {MAX_PLIES}, not {self.plies!r}"
            )
        if not _whole(self.iterations) or self.iterations < 1:
            raise ReviewError(
                f"simulation iterations must be a whole number from 1 up, not {self.iterations!r}"
            )
        if self.time_limit is not None and not (
            isinstance(self.time_limit, int | float) and 0 < self.time_limit < float("inf")
        ):
            raise ReviewError(
                f"the simulation time a turn must be a number of seconds above 0, not {self.time_limit!r}"
            )
        try:
            prune_threshold(self.confidence, self.candidates)
        except (SimulationError, TypeError):
            raise ReviewError(
                f"simulation confidence must be 0 (never drop a candidate) or between 0 and 1, "
                f"not {self.confidence!r}"
            ) from None
        if not _whole(self.seed):
            raise ReviewError(f"the simulation seed must be a whole number, not {self.seed!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class TurnSim:
    """One turn simulated (values in points: the spread gained over the look-ahead plus the
    difference of the last leaves; docs/simulation.md). Values are None when the turn was not
    simulated, or for a move made that cannot be played forward; ``note`` says why."""

    best: str | None = None
    best_value: float | None = None
    best_win_rate: float | None = None
    played_value: float | None = None
    played_win_rate: float | None = None
    equity_lost: float | None = None  # best − made, never below 0
    candidates: int = 0
    iterations: int = 0
    stopped: str = ""  # why the simulation ended: decided, iterations or time
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        def points(value: float | None) -> float | None:
            return None if value is None else round(value, 3)

        def rate(value: float | None) -> float | None:
            return None if value is None else round(value, 4)

        return {
            "sim_best": self.best,
            "sim_best_value": points(self.best_value),
            "sim_best_win_rate": rate(self.best_win_rate),
            "sim_played_value": points(self.played_value),
            "sim_played_win_rate": rate(self.played_win_rate),
            "sim_equity_lost": points(self.equity_lost),
            "sim_candidates": self.candidates,
            "sim_iterations": self.iterations,
            "sim_stopped": self.stopped,
            "sim_note": self.note,
        }


@dataclass(frozen=True)
class TurnReview:
    """One turn reviewed. Equities are in points; ``rank`` is 1 for the best move."""

    turn: int  # the event's index in the replay
    line: int
    player: int
    nick: str
    rack: str
    played: str
    played_kind: str
    played_score: int
    played_equity: float
    best: str
    best_kind: str
    best_score: int
    best_equity: float
    equity_lost: float
    rank: int
    moves: int
    bingo_available: bool
    bingo_played: bool
    best_bingo: str
    note: str = ""
    sim: TurnSim | None = None  # None: the review was not asked to simulate
    end: TurnEnd | None = (
        None  # graded by the endgame or the pre-endgame (None: not asked, or too many in the bag)
    )

    @property
    def bingo_missed(self) -> bool:
        return self.bingo_available and not self.bingo_played

    def to_dict(self) -> dict[str, Any]:
        static = {
            f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("sim", "end")
        }
        out = {**static, "bingo_missed": self.bingo_missed}
        if self.sim is not None:
            out.update(self.sim.to_dict())
        if self.end is not None:
            out.update(self.end.to_dict())
        return out


@dataclass(frozen=True)
class PlayerReview:
    """One player's game: turns reviewed, equity lost in all, best moves found, bingos."""

    player: int
    nick: str
    name: str
    score: int
    turns: int
    equity_lost: float
    best_found: int
    bingos_played: int
    bingos_missed: int
    sim_turns: int | None = None  # turns whose move made was simulated (None: no simulation asked)
    sim_equity_lost: float | None = None

    @property
    def mean_equity_lost(self) -> float:
        return self.equity_lost / self.turns if self.turns else 0.0

    def to_dict(self) -> dict[str, Any]:
        out = {**asdict(self), "mean_equity_lost": round(self.mean_equity_lost, 2)}
        if self.sim_turns is None:
            del out["sim_turns"], out["sim_equity_lost"]
        return out


@dataclass(frozen=True)
class GameReview:
    """A game reviewed: every turn that could be, the turns that could not (line, nick, why),
    the file's warnings and the per-player summary."""

    source: str
    lexicon: str
    leaves: str
    turns: list[TurnReview]
    skipped: list[tuple[int, str, str]]
    warnings: list[str]
    players: tuple[PlayerReview, PlayerReview]
    seconds: float = field(default=0.0, compare=False)
    sim: SimSettings | None = None

    def mistakes(self, count: int = MISTAKES) -> list[TurnReview]:
        """The turns that lost the most equity (none that lost nothing)."""
        lost = [turn for turn in self.turns if turn.equity_lost > 0]
        return sorted(lost, key=lambda turn: (-turn.equity_lost, turn.turn))[:count]

    def sim_mistakes(self, count: int = MISTAKES) -> list[TurnReview]:
        """The turns that lost the most by simulation (none that lost nothing)."""
        lost = [(t.sim.equity_lost, t) for t in self.turns if t.sim is not None and t.sim.equity_lost]
        return [t for _, t in sorted(lost, key=lambda pair: (-pair[0], pair[1].turn))][:count]

    def records(self) -> list[dict[str, Any]]:
        """JSON Lines records: one per turn reviewed (``"type": "turn"``), then one per player."""
        head = {"file": self.source}
        out = [{"type": "turn", **head, **turn.to_dict()} for turn in self.turns]
        out.extend({"type": "player", **head, **player.to_dict()} for player in self.players)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.source,
            "lexicon": self.lexicon,
            "leaves": self.leaves,
            "turns": [turn.to_dict() for turn in self.turns],
            "skipped": [{"line": line, "nick": nick, "reason": why} for line, nick, why in self.skipped],
            "warnings": self.warnings,
            "players": [player.to_dict() for player in self.players],
            "mistakes": [turn.turn for turn in self.mistakes()],
            **(
                {"sim": self.sim.to_dict(), "sim_mistakes": [turn.turn for turn in self.sim_mistakes()]}
                if self.sim is not None
                else {}
            ),
        }

    def format_table(self) -> str:
        """The turns, the players' summary, the biggest mistakes and the warnings, as text."""
        header = ["line", "player", "rack", "played", "score", "equity", "best", "equity", "lost", "rank"]
        right = {0, 4, 5, 7, 8, 9}
        if self.sim is not None:
            header += ["sim best", "value", "win %", "played", "win %", "sim lost", "iterations"]
            right |= {11, 12, 13, 14, 15, 16}
        rows = [header]
        for t in self.turns:
            row = [
                str(t.line), t.nick, t.rack, t.played + (" *" if t.note or _sim_note(t) else ""),
                str(t.played_score), f"{t.played_equity:.1f}", t.best, f"{t.best_equity:.1f}",
                f"{t.equity_lost:.1f}", f"{t.rank}/{t.moves}",
            ]  # fmt: skip
            if t.sim is not None:
                sim = t.sim
                row += [
                    sim.best or "-", _number(sim.best_value), _percent(sim.best_win_rate),
                    _number(sim.played_value), _percent(sim.played_win_rate), _number(sim.equity_lost),
                    str(sim.iterations) if sim.best else "-",
                ]  # fmt: skip
            rows.append(row)
        lines = _columns(rows, right=right)
        for t in self.turns:
            for note in (t.note, _sim_note(t)):
                if note:
                    lines.append(f"  * line {t.line}: {note}")
        graded = [t for t in self.turns if t.end is not None]
        if graded:
            lines.append("")
            lines.append("the last turns, graded by the endgame (points) and the pre-endgame (win %):")
            for t in graded:
                lines.append(f"  line {t.line} {t.nick} {t.rack}: {_end_note(t)}")
        lines.append("")
        header = ["player", "score", "turns", "equity lost", "per turn", "best found", "bingos", "missed"]
        if self.sim is not None:
            header += ["simulated", "sim lost"]
        rows = [header]
        for p in self.players:
            rows.append(
                [
                    p.nick, str(p.score), str(p.turns), f"{p.equity_lost:.1f}", f"{p.mean_equity_lost:.1f}",
                    str(p.best_found), str(p.bingos_played), str(p.bingos_missed),
                ]
                + ([str(p.sim_turns), _number(p.sim_equity_lost)] if self.sim is not None else [])
            )  # fmt: skip
        lines.extend(_columns(rows, right=set(range(1, len(header)))))
        mistakes = self.mistakes()
        if mistakes:
            lines.append("")
            lines.append("biggest mistakes:")
            for t in mistakes:
                lines.append(
                    f"  line {t.line} {t.nick} {t.rack}: {t.played} ({t.played_equity:.1f}) for "
                    f"{t.best} ({t.best_equity:.1f}), -{t.equity_lost:.1f}"
                )
        sim_mistakes = self.sim_mistakes()
        if sim_mistakes:
            lines.append("")
            lines.append("biggest mistakes by simulation:")
            for t in sim_mistakes:
                assert t.sim is not None
                lines.append(
                    f"  line {t.line} {t.nick} {t.rack}: {t.played} ({_number(t.sim.played_value)}) for "
                    f"{t.sim.best} ({_number(t.sim.best_value)}), -{_number(t.sim.equity_lost)}"
                )
        if self.skipped:
            lines.append("")
            lines.append("not reviewed:")
            lines.extend(f"  line {line} {nick}: {why}" for line, nick, why in self.skipped)
        if self.warnings:
            lines.append("")
            lines.append("warnings:")
            lines.extend(f"  {warning}" for warning in self.warnings)
        lines.append("")
        settings = ""
        if self.sim is not None:
            sim = self.sim
            limit = f", {sim.time_limit:g} s" if sim.time_limit is not None else ""
            settings = (
                f"; simulated: {sim.candidates} candidates + the move made, {sim.plies} plies, at most "
                f"{sim.iterations} iterations{limit} a turn, confidence {sim.confidence:g}, seed {sim.seed}"
            )
        lines.append(f"{self.source}: lexicon {self.lexicon}, leaves {self.leaves}{settings}")
        return "\n".join(lines)


def _end_note(turn: TurnReview) -> str:
    end = turn.end
    assert end is not None
    if end.lost is None:
        return f"{end.tool}: {end.note}"
    exact = "exact" if end.exact else end.note
    if end.tool == "endgame":
        return (f"endgame: {turn.played} {end.played_value:+.0f}, best {end.best} {end.best_value:+.0f}, "
                f"{end.lost:.0f} points lost ({exact})")  # fmt: skip
    return (f"pre-endgame: {turn.played} wins {_percent(end.played_value)}%, best {end.best} "
            f"{_percent(end.best_value)}%, {_percent(end.lost)} points of win % lost ({exact})")  # fmt: skip


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}"


def _sim_note(turn: TurnReview) -> str:
    return turn.sim.note if turn.sim is not None else ""


def _columns(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(_cell(cell, widths[i], i in right) for i, cell in enumerate(row)).rstrip() for row in rows
    ]


# ---- one turn, one game -------------------------------------------------------------------------


def _cell(text: str, width: int, right: bool) -> str:
    return text.rjust(width) if right else text.ljust(width)


def describe(move: Move) -> str:
    """A move as the review writes it: ``8D WORD``, ``exchange ABC`` or ``pass``."""
    if move.kind == PLAY:
        return f"{move.coord} {move.word}"
    return f"exchange {move.exchanged}" if move.kind == EXCHANGE else "pass"


def _skip_reason(turn: ReplayTurn) -> str | None:
    """Why a turn cannot be reviewed, or None when it can."""
    if turn.rack is None:
        return "the rack is not recorded"
    if not turn.rack_complete:
        return f"the rack {turn.rack} is not the whole rack"
    if turn.kind == EXCHANGE and turn.move is None:
        if not turn.event.exchanged:
            return "the tiles exchanged are not shown"
        return "the exchange is not possible"
    if turn.move is None:
        return "the play cannot be placed on the board"
    if turn.rack_mismatch:
        return "the rack does not hold the tiles played"
    return None


def _find_record(records: bytes, record: bytes, equities: list[int]) -> int | None:
    """The equity of the generated move ``record`` is (everything but score and equity compared),
    or None when the position has no such move."""
    size = MOVE_RECORD.size
    key = record[8:]
    at = records.find(key)
    while at >= 0:
        if at % size == 8:
            return equities[at // size]
        at = records.find(key, at + 1)
    return None


def _best(
    solver: Solver, records: bytes, among: list[int], equities: list[int], turn: ReplayTurn
) -> Move | None:
    """The best of the moves ``among`` (record indexes) as the solver ranks them by equity, or None."""
    if not among:
        return None
    top = max(equities[i] for i in among)
    size = MOVE_RECORD.size
    tied = b"".join(records[i * size : (i + 1) * size] for i in among if equities[i] == top)
    assert turn.rack is not None
    return solver.moves_from_records(tied, turn.board, turn.rack, 1, valued=True, by_equity=True)[0]


def _equity_of(score: int, leave: str, valuation: Valuation, leaves: Leaves | None, rules: Rules) -> int:
    """The equity (hundredths) of a move the generator does not list, by the rule it values
    moves with (docs/equity.md): score + leave value while the bag holds tiles; with it empty,
    going out gains the opponent's rack, keeping tiles costs twice their value and 10 more."""
    if valuation.bag > 0:
        return round(100 * (score + (leaves.value(leave) if leaves is not None and leave else 0.0)))
    if not leave:
        return 100 * (
            score + (rules.going_out_bonus + rules.going_out_penalty) * valuation.opponent_rack_value
        )
    return 100 * (score - 2 * tiles_value(Rack(leave, rules).tiles, rules) - 10)


def _bingos(records: bytes, rack_size: int) -> list[int]:
    """The indexes of the plays that place the whole rack (rare: found with bytes.find)."""
    size = MOVE_RECORD.size
    placed, kinds = records[12::size], records[13::size]
    found = []
    at = placed.find(rack_size)
    while at >= 0:
        if kinds[at] == _KIND_PLAY:
            found.append(at)
        at = placed.find(rack_size, at + 1)
    return found


def review_turn(solver: Solver, turn: ReplayTurn, leaves: Leaves | None) -> TurnReview:
    """The review of one turn whose rack is whole (see :func:`_skip_reason`)."""
    assert turn.rack is not None and turn.move is not None
    board, rack = turn.board, turn.rack
    rules = solver.rules
    valuation = solver.valuation(board, rack, leaves=leaves, equity=True, exchanges=True)
    assert valuation is not None
    _count, records = solver.solve_raw(board, rack, None, valuation)
    note = ""
    made = turn.move
    if turn.withdrawn:
        made = Move.pass_turn(str(rack))
        note = f"{describe(turn.move)} was withdrawn: valued as a pass"
    # the records' fields read in bulk (csrc/gaddag_solver.h, gd_move; move.MOVE_RECORD): int32
    # score and equity, then bytes row, col, direction, length, tiles placed, kind, ...
    size = MOVE_RECORD.size
    equities = memoryview(records).cast("i")[1 :: size // 4].tolist()
    made_equity = _find_record(records, made.record(rules), equities)
    if made_equity is None:  # a phony that stood, or an exchange the bag did not allow
        made_equity = _equity_of(
            turn.event.score if made.kind == PLAY else 0, made.leave, valuation, leaves, rules
        )
        if made.kind == PLAY:
            note = f"{describe(made)} is not a legal play (a phony kept): valued as its score + leave"
        else:
            note = (
                f"{describe(made)} is not allowed with {valuation.bag} tiles in the bag: valued by its leave"
            )
    top = max(equities)
    best = _best(solver, records, [i for i, equity in enumerate(equities) if equity == top], equities, turn)
    assert best is not None and best.equity is not None
    best_equity = round(100 * best.equity)
    lost = max(0, best_equity - made_equity)  # a phony kept can beat every legal move
    bingos = _bingos(records, rules.rack_size)
    bingo = _best(solver, records, bingos, equities, turn)
    bingo_text = "" if bingo is None else describe(bingo)
    score = turn.event.score if made.kind == PLAY and not turn.withdrawn else 0
    return TurnReview(
        turn=turn.index,
        line=turn.line,
        player=turn.player,
        nick=turn.nick,
        rack=str(rack),
        played=describe(made) if not turn.withdrawn else describe(turn.move),
        played_kind=PASS if turn.withdrawn else made.kind,
        played_score=score,
        played_equity=made_equity / 100,
        best=describe(best),
        best_kind=best.kind,
        best_score=best.score,
        best_equity=best_equity / 100,
        equity_lost=lost / 100,
        rank=1 + sum(equity > made_equity for equity in equities),
        moves=len(equities),
        bingo_available=bool(bingos),
        bingo_played=made.kind == PLAY and len(made.tiles) == rules.rack_size and not turn.withdrawn,
        best_bingo=bingo_text,
        note=note,
    )


# ---- by simulation ---------------------------------------------------------------------------------


def _move_key(move: Move, rules: Rules) -> bytes:
    """What identifies a move among a position's moves: its record less score and equity."""
    return move.record(rules)[8:]


def sim_candidates(
    game: Game, made: Move, count: int, leaves: Leaves | None
) -> tuple[list[Move], int | None]:
    """The moves a review simulates for the player to move in ``game``: the ``count`` best by
    equity other than the pass (as :class:`~gaddag_solver.game.simulate.Simulation` picks its
    own), then ``made`` (the position's own Move, with its equity) when it is not among them. Also
    the index of the move made in that list, None when the position has no such move (a phony
    kept, an exchange the bag did not allow): then it cannot be played forward."""
    rules = game.rules
    moves = game.moves(leaves=leaves, equity=True)
    chosen = [move for move in moves if move.kind != PASS][:count]
    key = _move_key(made, rules)
    for i, move in enumerate(chosen):
        if _move_key(move, rules) == key:
            return chosen, i
    found = next((move for move in moves if _move_key(move, rules) == key), None)
    if found is None:
        return chosen, None
    return [*chosen, found], len(chosen)


def turn_seed(settings: SimSettings, turn: ReplayTurn) -> int:
    """The seed turn ``turn`` is simulated with (and its Game dealt with): the same whichever
    process reviews it, in whatever order."""
    return settings.seed + turn.index


def simulate_turn(
    replay: Replay, turn: ReplayTurn, made: Move, leaves: Leaves | None, settings: SimSettings
) -> TurnSim:
    """Simulate a reviewed turn (``made``: the move as the static review values it, a withdrawn
    play being the pass): the position is ``replay.game_at(turn)``, the candidates
    :func:`sim_candidates`. With the bag empty it is not simulated (the note says why)."""
    if turn.unseen().bag == 0:
        return TurnSim(note="the bag is empty: an endgame, reviewed by static equity only")
    seed = turn_seed(settings, turn)
    try:
        game = replay.game_at(turn.index, seed=seed)
        candidates, made_at = sim_candidates(game, made, settings.candidates, leaves)
        if not candidates:
            return TurnSim(note="no play or exchange to simulate")
        simulation = Simulation(
            game, leaves=leaves, candidates=candidates, plies=settings.plies,
            confidence=settings.confidence, seed=seed,
        )  # fmt: skip
        result = simulation.run(settings.iterations, settings.time_limit)
    except GameError as error:  # SimulationError too: a position the file's racks make impossible
        return TurnSim(note=f"not simulated: {error}")
    return _turn_sim(result, candidates, made_at, made)


def _turn_sim(result: SimResult, candidates: list[Move], made_at: int | None, made: Move) -> TurnSim:
    best = result.best
    note = ""
    if len(candidates) == 1:  # the only move but the pass: nothing to compare it with
        only = candidates[0]
        return TurnSim(
            best=describe(only), equity_lost=0.0 if made_at is not None else None, candidates=1,
            stopped=result.reason, note="one candidate: nothing to compare it with",
        )  # fmt: skip
    played = None
    if made_at is None:
        note = f"{describe(made)} is not a move of the position: it cannot be played forward"
    else:
        played = next(c for c in result.candidates if c.move is candidates[made_at])
    return TurnSim(
        best=describe(best.move),
        best_value=best.mean,
        best_win_rate=best.win_rate,
        played_value=None if played is None else played.mean,
        played_win_rate=None if played is None else played.win_rate,
        # a candidate dropped early keeps the mean it had then, which the leader's may fall below
        equity_lost=None if played is None else 0.0 if played is best else max(0.0, best.mean - played.mean),
        candidates=len(candidates),
        iterations=result.iterations,
        stopped=result.reason,
        note=note,
    )


def review_replay(
    replay: Replay,
    leaves: Leaves | None,
    leaves_name: str = "",
    sim: SimSettings | None = None,
    progress: parallel.Progress | None = None,
    end: EndSettings | None = None,
) -> GameReview:
    """Review every turn of ``replay`` that has a whole rack, with ``leaves`` (None: every
    leave worth 0); with ``sim``, simulate each of them too (:func:`simulate_turn`); with
    ``end``, grade the last turns by the endgame and the pre-endgame (:func:`grade_end`).
    ``progress(turns done, turns)`` is called after each turn."""
    started = time.perf_counter()
    assert replay.lexicon is not None
    solver = get_solver(replay.lexicon, replay.rules)
    turns: list[TurnReview] = []
    skipped: list[tuple[int, str, str]] = []
    todo: list[ReplayTurn] = []
    for turn in replay.turns:
        if turn.kind not in (PLAY, EXCHANGE, PASS):
            continue
        why = _skip_reason(turn)
        if why is not None:
            skipped.append((turn.line, turn.nick, why))
            continue
        todo.append(turn)
    for done, turn in enumerate(todo, 1):
        reviewed = review_turn(solver, turn, leaves)
        if sim is not None:
            assert turn.move is not None and turn.rack is not None
            made = Move.pass_turn(str(turn.rack)) if turn.withdrawn else turn.move
            reviewed = dataclasses.replace(reviewed, sim=simulate_turn(replay, turn, made, leaves, sim))
        if end is not None:
            assert turn.move is not None and turn.rack is not None
            made = Move.pass_turn(str(turn.rack)) if turn.withdrawn else turn.move
            reviewed = dataclasses.replace(reviewed, end=grade_end(replay, turn, made, leaves, end))
        turns.append(reviewed)
        if progress is not None:
            progress(done, len(todo))
    players = []
    for seat in (0, 1):
        nick, name = replay.players[seat] if seat < len(replay.players) else ("", "")
        mine = [t for t in turns if t.player == seat]
        simulated = [t.sim.equity_lost for t in mine if t.sim is not None and t.sim.equity_lost is not None]
        players.append(
            PlayerReview(
                player=seat,
                nick=nick,
                name=name,
                score=replay.scores[seat],
                turns=len(mine),
                equity_lost=round(sum(t.equity_lost for t in mine), 2),
                best_found=sum(1 for t in mine if t.equity_lost == 0),
                bingos_played=sum(1 for t in mine if t.bingo_played),
                bingos_missed=sum(1 for t in mine if t.bingo_missed),
                sim_turns=None if sim is None else len(simulated),
                sim_equity_lost=None if sim is None else round(sum(simulated), 2),
            )
        )
    return GameReview(
        source=replay.gcg.source,
        lexicon=replay.lexicon.name or str(replay.lexicon.source),
        leaves=leaves_name or ("none" if leaves is None else "?"),
        turns=turns,
        skipped=skipped,
        warnings=[str(w) for w in replay.warnings],
        players=(players[0], players[1]),
        seconds=time.perf_counter() - started,
        sim=sim,
    )


# ---- what to review with --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewSpec:
    """What every game is reviewed with: a lexicon name or path (None: each file's ``#lexicon``,
    see :func:`~gaddag_solver.game.replay.lexicon_for`), a leave table's name or path (None: the
    lexicon's own; ``"none"``: every leave worth 0), the ruleset, and how to simulate each turn
    (None: by static equity only)."""

    lexicon: str | None = None
    leaves: str | None = None
    rules: str = "english"
    sim: SimSettings | None = None
    end: EndSettings | None = None


class _Engine:
    """Lexicons and leave tables, loaded once per process."""

    def __init__(self, spec: ReviewSpec) -> None:
        self.spec = spec
        self.rules = Rules.load(spec.rules)
        self.lexicons: dict[str, Lexicon] = {}
        self.tables: dict[str, tuple[Leaves | None, str]] = {}

    def lexicon(self, name: str) -> Lexicon:
        found = self.lexicons.get(name)
        if found is None:
            try:
                found = self.lexicons[name] = Lexicon.load(resolve_lexicon(name), self.rules)
            except (LexiconNotFoundError, LexiconFormatError, OSError) as error:
                raise ReviewError(f"lexicon {name!r}: {error}") from None
        return found

    def leaves(self, lexicon: Lexicon | None) -> tuple[Leaves | None, str]:
        """The table and its name: the one named, else the lexicon's own (None: the named one only)."""
        name = self.spec.leaves
        if name is None and lexicon is None:
            return None, "none"
        key = name or f"@{lexicon.name if lexicon is not None else ''}"
        found = self.tables.get(key)
        if found is None:
            try:
                if name is None:
                    assert lexicon is not None
                    table = Leaves.for_lexicon(lexicon, self.rules)
                    found = (table, "none" if table is None else Path(table.source).stem)
                elif name.lower() == "none":
                    found = (None, "none")
                else:
                    table = Leaves.load(name, self.rules)
                    found = (table, Path(table.source).stem)
            except (LeavesError, LookupError, OSError) as error:
                raise ReviewError(f"leave table {name or getattr(lexicon, 'name', '')!r}: {error}") from None
            self.tables[key] = found
        return found

    def review(
        self,
        path: str,
        sim: SimSettings | None = None,
        progress: parallel.Progress | None = None,
        end: EndSettings | None = None,
    ) -> GameReview:
        gcg = read_gcg(path)
        name, note = lexicon_for(gcg.lexicon, self.spec.lexicon, default_review_lexicon(self.rules))
        lexicon = self.lexicon(name)
        replay = Replay(gcg, lexicon, self.rules, note)
        table, table_name = self.leaves(lexicon)
        return review_replay(replay, table, table_name, sim, progress, end)


_ENGINES: dict[ReviewSpec, _Engine] = {}


def _engine(spec: ReviewSpec) -> _Engine:
    """The engine of what ``spec`` loads (its simulation settings aside: they load nothing)."""
    loads = dataclasses.replace(spec, sim=None, end=None)
    engine = _ENGINES.get(loads)
    if engine is None:
        _ENGINES.clear()
        engine = _ENGINES[loads] = _Engine(loads)
    return engine


def review_file(
    path: str | os.PathLike[str],
    lexicon: str | None = None,
    leaves: str | None = None,
    rules: str = "english",
    sim: SimSettings | None = None,
    progress: parallel.Progress | None = None,
    end: EndSettings | None = None,
) -> GameReview:
    """Review the GCG file at ``path`` (see :class:`ReviewSpec` for the options; ``progress(turns
    done, turns)`` after each turn). Raises GcgError for a file that is not GCG, OSError when it
    cannot be read, ReviewError for a lexicon or leave table that cannot be loaded."""
    return _engine(ReviewSpec(lexicon, leaves, rules)).review(os.fspath(path), sim, progress, end)


# ---- many files ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileResult:
    """One file of a batch: its records (JSON-ready) or why it could not be reviewed."""

    path: str
    records: list[dict[str, Any]]
    error: str | None = None
    warnings: int = 0
    seconds: float = 0.0


def review_chunk(spec: ReviewSpec, paths: list[str]) -> list[FileResult]:
    """Review some files (what a worker is sent); a file that fails is reported, not raised."""
    engine = _engine(spec)
    results = []
    for path in paths:
        try:
            review = engine.review(path, spec.sim, end=spec.end)
        except (GcgError, ReviewError) as error:
            results.append(_failed(path, str(error)))
            continue
        except OSError as error:
            results.append(_failed(path, f"{path}: {error.strerror or error}"))
            continue
        except Exception as error:  # noqa: BLE001 - whatever one file does, the batch goes on
            results.append(_failed(path, f"{path}: cannot review ({type(error).__name__}: {error})"))
            continue
        results.append(FileResult(path, review.records(), None, len(review.warnings), review.seconds))
    return results


def _failed(path: str, message: str) -> FileResult:
    return FileResult(path, [{"type": "error", "file": path, "error": message}], message)


def find_games(where: str) -> list[str]:
    """The GCG files a batch names: every ``*.gcg`` in a folder (recursively), or a glob's
    matches; sorted, so that the records come in the same order on any number of workers."""
    if os.path.isdir(where):
        found = glob.glob(os.path.join(glob.escape(where), "**", "*.gcg"), recursive=True)
        found += glob.glob(os.path.join(glob.escape(where), "**", "*.GCG"), recursive=True)
    else:
        found = glob.glob(where, recursive=True)
    return sorted({path for path in found if os.path.isfile(path)})


def _tasks(spec: ReviewSpec, paths: list[str], workers: int) -> list[parallel.Task]:
    """Chunks of files: about eight per worker so the load evens out, at most 64 files each so
    the progress moves."""
    size = max(1, min(64, len(paths) // max(1, 8 * workers)))
    return [((spec, paths[i : i + size]), len(paths[i : i + size])) for i in range(0, len(paths), size)]


def review_files(
    paths: list[str],
    spec: ReviewSpec,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: parallel.Progress | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT,
) -> list[FileResult]:
    """Review ``paths`` in this process (workers 1), on local processes (default: every core) or
    on the Dask cluster at ``scheduler``; results in the order of ``paths``. The lexicon and the
    leave table are checked here first, so a bad name fails once, not in every file."""
    if not paths:
        return []
    probe = _engine(spec)
    probe.leaves(probe.lexicon(spec.lexicon) if spec.lexicon is not None else None)
    try:
        if scheduler is not None:
            plan = lambda workers: _tasks(spec, paths, workers)  # noqa: E731
            parts = parallel.run_dask(review_chunk, plan, scheduler, scheduler_timeout, progress, ReviewError)
        else:
            used = max(1, min(workers or os.cpu_count() or 1, len(paths)))
            tasks = _tasks(spec, paths, used)
            if used == 1:
                parts = parallel.run_inline(review_chunk, tasks, progress)
            else:
                parts = parallel.run_local(review_chunk, tasks, used, progress)
    except parallel.RunInterrupted as stopped:
        finished = [result for part in stopped.parts if part is not None for result in part]
        raise ReviewInterrupted(finished, len(paths)) from None
    return [result for part in parts for result in part]
