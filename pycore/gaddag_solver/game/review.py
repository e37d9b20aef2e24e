"""Reviewing recorded games: for every turn with a known rack, the play made against the best
play by static equity, and a summary per player.

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

:func:`review_files` runs many files in parallel (local processes or a Dask cluster, the chunks
and ordering of :mod:`gaddag_solver.game.parallel`); a file that cannot be read is reported in its
result and the others go on.
"""

from __future__ import annotations

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
from .replay import Replay, ReplayTurn, lexicon_for, tiles_value

__all__ = [
    "GameReview",
    "PlayerReview",
    "ReviewError",
    "ReviewSpec",
    "TurnReview",
    "review_file",
    "review_files",
    "review_replay",
]

SCHEDULER_TIMEOUT = 10.0
MISTAKES = 5  # the biggest mistakes a summary lists
_KIND_PLAY = 0


class ReviewError(ValueError):
    """A review cannot run as asked (a lexicon, a leave table or a scheduler); says which and why."""


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

    @property
    def bingo_missed(self) -> bool:
        return self.bingo_available and not self.bingo_played

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "bingo_missed": self.bingo_missed}


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

    @property
    def mean_equity_lost(self) -> float:
        return self.equity_lost / self.turns if self.turns else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "mean_equity_lost": round(self.mean_equity_lost, 2)}


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

    def mistakes(self, count: int = MISTAKES) -> list[TurnReview]:
        """The turns that lost the most equity (none that lost nothing)."""
        lost = [turn for turn in self.turns if turn.equity_lost > 0]
        return sorted(lost, key=lambda turn: (-turn.equity_lost, turn.turn))[:count]

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
        }

    def format_table(self) -> str:
        """The turns, the players' summary, the biggest mistakes and the warnings, as text."""
        header = ["line", "player", "rack", "played", "score", "equity", "best", "equity", "lost", "rank"]
        rows = [header]
        for t in self.turns:
            rows.append(
                [
                    str(t.line), t.nick, t.rack, t.played + (" *" if t.note else ""), str(t.played_score),
                    f"{t.played_equity:.1f}", t.best, f"{t.best_equity:.1f}", f"{t.equity_lost:.1f}",
                    f"{t.rank}/{t.moves}",
                ]
            )  # fmt: skip
        lines = _columns(rows, right={0, 4, 5, 7, 8, 9})
        for t in self.turns:
            if t.note:
                lines.append(f"  * line {t.line}: {t.note}")
        lines.append("")
        rows = [["player", "score", "turns", "equity lost", "per turn", "best found", "bingos", "missed"]]
        for p in self.players:
            rows.append(
                [
                    p.nick, str(p.score), str(p.turns), f"{p.equity_lost:.1f}", f"{p.mean_equity_lost:.1f}",
                    str(p.best_found), str(p.bingos_played), str(p.bingos_missed),
                ]
            )  # fmt: skip
        lines.extend(_columns(rows, right=set(range(1, 8))))
        mistakes = self.mistakes()
        if mistakes:
            lines.append("")
            lines.append("biggest mistakes:")
            for t in mistakes:
                lines.append(
                    f"  line {t.line} {t.nick} {t.rack}: {t.played} ({t.played_equity:.1f}) for "
                    f"{t.best} ({t.best_equity:.1f}), -{t.equity_lost:.1f}"
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
        lines.append(f"{self.source}: lexicon {self.lexicon}, leaves {self.leaves}")
        return "\n".join(lines)


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


def review_replay(replay: Replay, leaves: Leaves | None, leaves_name: str = "") -> GameReview:
    """Review every turn of ``replay`` that has a whole rack, with ``leaves`` (None: every
    leave worth 0)."""
    started = time.perf_counter()
    assert replay.lexicon is not None
    solver = get_solver(replay.lexicon, replay.rules)
    turns: list[TurnReview] = []
    skipped: list[tuple[int, str, str]] = []
    for turn in replay.turns:
        if turn.kind not in (PLAY, EXCHANGE, PASS):
            continue
        why = _skip_reason(turn)
        if why is not None:
            skipped.append((turn.line, turn.nick, why))
            continue
        turns.append(review_turn(solver, turn, leaves))
    players = []
    for seat in (0, 1):
        nick, name = replay.players[seat] if seat < len(replay.players) else ("", "")
        mine = [t for t in turns if t.player == seat]
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
    )


# ---- what to review with --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewSpec:
    """What every game is reviewed with: a lexicon name or path (None: each file's ``#lexicon``,
    see :func:`~gaddag_solver.game.replay.lexicon_for`), a leave table's name or path (None: the
    lexicon's own; ``"none"``: every leave worth 0) and the ruleset."""

    lexicon: str | None = None
    leaves: str | None = None
    rules: str = "english"


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

    def review(self, path: str) -> GameReview:
        gcg = read_gcg(path)
        name, note = lexicon_for(gcg.lexicon, self.spec.lexicon)
        lexicon = self.lexicon(name)
        replay = Replay(gcg, lexicon, self.rules, note)
        table, table_name = self.leaves(lexicon)
        return review_replay(replay, table, table_name)


_ENGINES: dict[ReviewSpec, _Engine] = {}


def _engine(spec: ReviewSpec) -> _Engine:
    engine = _ENGINES.get(spec)
    if engine is None:
        _ENGINES.clear()
        engine = _ENGINES[spec] = _Engine(spec)
    return engine


def review_file(
    path: str | os.PathLike[str],
    lexicon: str | None = None,
    leaves: str | None = None,
    rules: str = "english",
) -> GameReview:
    """Review the GCG file at ``path`` (see :class:`ReviewSpec` for the options). Raises GcgError
    for a file that is not GCG, OSError when it cannot be read, ReviewError for a lexicon or leave
    table that cannot be loaded."""
    return _engine(ReviewSpec(lexicon, leaves, rules)).review(os.fspath(path))


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
            review = engine.review(path)
        except (GcgError, ReviewError) as error:
            results.append(_failed(path, str(error)))
            continue
        except OSError as error:
            results.append(_failed(path, f"{path}: {error.strerror or error}"))
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
    return [result for part in parts for result in part]
