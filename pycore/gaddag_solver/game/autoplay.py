"""Self-play: many games between two configured players, with statistics.

>>> from gaddag_solver.game.autoplay import Match, PlayerSpec, run_autoplay
>>> match = Match.create("sowpods", "english", [PlayerSpec.parse("equity"), PlayerSpec.parse("greedy")])
>>> run = run_autoplay(match, games=100, seed=1)  # doctest: +SKIP
>>> run.summary.players[0].win_rate  # doctest: +SKIP
Interval(value=0.57, low=0.47, high=0.66)

Each game is played whole in C (gd_autoplay); Python only reads the result. Games come in
mirrored pairs: games 2k and 2k+1 draw from the same bag (the same seed) with the players
swapped, so the luck of the draw cancels within a pair. The seed of pair k is derived from the
run's seed alone (:func:`pair_seed`), and results are gathered in game order, so a run gives
the same results whether it runs in this process, on local worker processes or on a Dask
cluster.

Work is sent in chunks of pairs (:func:`play_chunk`, importable so that spawned processes and
Dask workers can run it); each worker process loads the lexicon, the rules and the leave
tables once and keeps one game buffer and workspace for all its games.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _core_api as core
from ..lexicon import Lexicon
from ..lexicons import resolve_lexicon
from ..rules import Rules, portable_rules
from ..solver import check_alphabets, core_rules
from . import parallel
from .stats import Interval, mean_interval, wilson

# equity-pass0: the equity player with a pass that keeps a full rack worth 0, the rule before the
# full-rack value (docs/equity.md): the baseline that rule was measured against
# best: the best player (game/best.py) with a time per turn; best-noinfer without the inference,
# best-nopeg without the pre-endgame (the simulation until the bag is empty): what each is worth
BEST_KINDS = ("best", "best-noinfer", "best-nopeg")
PLAYER_KINDS = ("greedy", "equity", "endgame", "endgame-only", "equity-pass0", *BEST_KINDS)
# the players that take a leave table
TABLE_KINDS = ("equity", "endgame", "endgame-only", "equity-pass0", *BEST_KINDS)
BEST_SECONDS = 1.0  # a best player's time per turn when none is given
# The endgame player: static equity until the bag holds END_BAG tiles or fewer, then the
# pre-endgame solver, and the exact endgame once the bag is empty, each search at most
# END_TURN_SECONDS (Match.end_seconds; the best found by then; by equity when the pre-endgame has
# no answer yet). endgame-only: the same without the pre-endgame (equity until the bag is empty),
# so that a match tells what each phase's solver is worth.
END_BAG = 2
END_TURN_SECONDS = 5.0
TURN_BY_TURN_KINDS = ("endgame", "endgame-only", *BEST_KINDS)
SCHEDULER_TIMEOUT = 10.0  # seconds to reach a Dask scheduler before giving up
MASK64 = (1 << 64) - 1

Progress = Callable[[int, int], None]  # (games done, games in all)


class AutoplayError(ValueError):
    """Self-play cannot run as configured (a bad player, a leave table or a scheduler that
    cannot be reached); the message says which and why."""


class AutoplayInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run: ``run`` summarizes the games finished by then (None when none had),
    of the ``games`` asked for. A KeyboardInterrupt, so that callers that only know Ctrl-C stop."""

    def __init__(self, run: AutoplayRun | None, games: int) -> None:
        super().__init__(f"interrupted: {run.summary.games if run else 0} of {games} games played")
        self.run = run
        self.games = games


# ---- players and matches ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSpec:
    """A player: ``greedy`` (the best score), ``equity`` (the best score + leave value),
    ``endgame`` (equity, then the pre-endgame and the endgame solvers at the end of the game) or
    ``endgame-only`` (equity, then the endgame solver once the bag is empty), the last three
    with a leave table (``leaves``, a file path) or without (every leave worth 0); or ``best``
    (and its variants without a part, BEST_KINDS) with ``seconds`` a turn and the lexicon's
    table unless another is given."""

    kind: str
    leaves: str | None = None
    seconds: float | None = None  # a best player's time per turn

    def __post_init__(self) -> None:
        if self.kind not in PLAYER_KINDS:
            raise AutoplayError(f"unknown player kind {self.kind!r}; known: {', '.join(PLAYER_KINDS)}")
        if self.leaves is not None and self.kind not in TABLE_KINDS:
            raise AutoplayError(f"a {self.kind} player takes no leave table")
        if (self.seconds is not None) != (self.kind in BEST_KINDS):
            raise AutoplayError(f"only a best player takes a time per turn, and it needs one ({self.kind})")
        if self.seconds is not None and not 0 < self.seconds <= 3600:
            raise AutoplayError(
                f"a best player's time per turn is above 0 and at most 3600 s, not {self.seconds}"
            )

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """``greedy``, ``equity``, ``endgame``, ``endgame-only``, or ``equity:NAME_OR_PATH`` /
        ``endgame:NAME_OR_PATH`` / ``endgame-only:NAME_OR_PATH`` (a leave table's name or file);
        ``best``, ``best:SECONDS`` or ``best:SECONDS:NAME_OR_PATH`` (and best-noinfer, best-nopeg)."""
        kind, colon, table = text.strip().partition(":")
        kind = kind.strip().lower()
        if kind in BEST_KINDS:
            return cls._parse_best(text, kind, table if colon else "")
        if kind not in PLAYER_KINDS:
            raise AutoplayError(
                f"unknown player {text!r}: write greedy, equity, equity:LEAVES, endgame, endgame:LEAVES, "
                "endgame-only:LEAVES or equity-pass0:LEAVES (a leave table's name or path)"
            )
        if not colon:
            return cls(kind)
        if not table.strip():
            raise AutoplayError(f"player {text!r}: name the leave table after the colon")
        if kind not in TABLE_KINDS:
            raise AutoplayError(
                f"player {text!r}: only an equity, endgame, endgame-only or equity-pass0 player "
                "takes a leave table"
            )
        return cls(kind, str(_resolve_leaves(table.strip())))

    @classmethod
    def _parse_best(cls, text: str, kind: str, rest: str) -> PlayerSpec:
        seconds_text, _, table = rest.partition(":")
        try:
            seconds = float(seconds_text) if seconds_text.strip() else BEST_SECONDS
        except ValueError:
            raise AutoplayError(
                f"player {text!r}: write {kind}, {kind}:SECONDS or {kind}:SECONDS:LEAVES (e.g. {kind}:0.5)"
            ) from None
        return cls(kind, str(_resolve_leaves(table.strip())) if table.strip() else None, seconds)

    def with_lexicon_table(self, lexicon: str | os.PathLike[str], rules: str) -> PlayerSpec:
        """A best player without a table plays with its lexicon's for the ruleset (docs/leaves.md),
        when there is one."""
        if self.kind not in BEST_KINDS or self.leaves is not None:
            return self
        name = _leaves_module().default_leaves(Path(lexicon).name.removesuffix(".gaddag"), rules)
        return self if name is None else PlayerSpec(self.kind, str(_resolve_leaves(name)), self.seconds)

    @property
    def label(self) -> str:
        if self.seconds is not None:
            return f"{self.kind}:{self.seconds:g}s"
        if self.leaves is None:
            return self.kind
        name = Path(self.leaves).name
        return f"{self.kind}:{name.removesuffix(''.join(Path(name).suffixes)) or name}"


def _leaves_module() -> Any:
    """gaddag_solver.formats.leaves, imported only when a player asks for a table."""
    try:
        from ..formats import leaves
    except ImportError as exc:
        raise AutoplayError(f"leave tables are not available in this build ({exc})") from None
    return leaves


def _resolve_leaves(name_or_path: str) -> Path:
    leaves = _leaves_module()
    try:
        return Path(leaves.resolve_leaves(name_or_path)).resolve()
    except (LookupError, OSError, ValueError) as exc:
        raise AutoplayError(f"leave table {name_or_path!r}: {exc}") from None


@dataclass(frozen=True)
class Match:
    """What every game of a run is played with: the lexicon file, the ruleset (a shipped name or
    a file path) and the two players. Paths are absolute so that workers elsewhere find them
    (on a cluster they must exist at the same place on every worker)."""

    lexicon: str
    rules: str
    players: tuple[PlayerSpec, PlayerSpec]
    end_seconds: float = END_TURN_SECONDS  # each search of an endgame player, at most

    @classmethod
    def create(
        cls,
        lexicon: str | os.PathLike[str],
        rules: str,
        players: Sequence[PlayerSpec],
        end_seconds: float = END_TURN_SECONDS,
    ) -> Match:
        if len(players) != 2:
            raise AutoplayError(f"self-play needs two players, not {len(players)}")
        if not end_seconds > 0:
            raise AutoplayError(f"an endgame player's time per search must be above 0 s, not {end_seconds!r}")
        rules = portable_rules(rules)
        loaded = Rules.load(rules)
        lexicon_path = str(resolve_lexicon(lexicon).resolve())
        players = [player.with_lexicon_table(lexicon_path, loaded.name) for player in players]
        for player in players:
            load_table(player, loaded)  # a table that does not fit fails here, not in a worker
        return cls(lexicon_path, rules, (players[0], players[1]), float(end_seconds))

    @property
    def names(self) -> tuple[str, str]:
        """The players' labels, told apart when they are the same."""
        first, second = (player.label for player in self.players)
        return (f"{first}#1", f"{second}#2") if first == second else (first, second)


def pair_seed(seed: int, pair: int) -> int:
    """The bag seed of game pair `pair`: element `pair` of the splitmix64 sequence from `seed`."""
    z = (seed + (pair + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


# ---- one game -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game, by match player (index 0 is ``match.players[0]``, whichever seat it took)."""

    index: int  # the game's number in the run
    seed: int  # the bag seed (shared with the other game of its pair)
    first: int  # the match player who moved first (seat 0)
    scores: tuple[int, int]
    end_adjustments: tuple[int, int]
    bingos: tuple[int, int]  # plays placing a whole rack
    turn_count: int
    game: core.PlayedGame | None = field(default=None, compare=False)  # by seat; when kept

    @property
    def spread(self) -> int:
        """Player 0's score minus player 1's."""
        return self.scores[0] - self.scores[1]

    def seat(self, player: int) -> int:
        return player ^ self.first


class _Engine:
    """What a process needs to play a match's games, loaded once per process."""

    def __init__(self, match: Match) -> None:
        rules = Rules.load(match.rules)
        lexicon = Lexicon.load(match.lexicon, rules)
        check_alphabets(lexicon, rules)
        self.rules = rules
        self.lexicon = lexicon
        self.core_rules = core_rules(rules)
        self.players = match.players
        self.tables = [load_table(player, rules) for player in match.players]  # kept: .core points in
        self.end_seconds = match.end_seconds
        self.selfplay = core.SelfPlay()

    def play(self, index: int, seed: int, keep: bool) -> GameRecord:
        first = index % 2
        if any(player.kind in TURN_BY_TURN_KINDS for player in self.players):
            game = self._play_turn_by_turn(first, seed)
        else:
            for seat in (0, 1):
                player = seat ^ first
                table = self.tables[player]
                self.selfplay.set_player(
                    seat, self.players[player].kind, None if table is None else table.core
                )
            game = core.autoplay(self.lexicon._core, self.core_rules, self.selfplay, seed)
        bingos = [0, 0]
        rack_size = self.rules.rack_size
        for turn in game.turns:
            if turn.kind == core.lib.GD_PLAY and turn.tiles_placed == rack_size:
                bingos[turn.player ^ first] += 1
        other = 1 - first
        return GameRecord(
            index,
            seed,
            first,
            (game.scores[first], game.scores[other]),
            (game.end_adjustments[first], game.end_adjustments[other]),
            (bingos[0], bingos[1]),
            len(game.turns),
            game if keep else None,
        )

    def _play_turn_by_turn(self, first: int, seed: int) -> Any:
        """A game with an endgame player: the same deal as gd_autoplay's (gd_game_new with the
        seed), each move chosen in Python (the core's choice for the static players)."""
        from .best import PREENDGAME_BAG, choose_best, turn_seed
        from .endgame import solve_endgame
        from .play import Game
        from .preendgame import PreendgameSearch

        game = Game.new(self.lexicon, self.rules, seed=seed)
        while not game.over:
            player = game.to_move ^ first
            spec, table = self.players[player], self.tables[player]
            kind = spec.kind
            move = None
            if kind in BEST_KINDS:
                assert spec.seconds is not None
                bag = 0 if kind == "best-nopeg" else PREENDGAME_BAG
                turn = turn_seed(seed, len(game.history))
                move = choose_best(
                    game, table, spec.seconds, turn, preendgame_bag=bag, infer=kind != "best-noinfer"
                ).move
            elif kind in TURN_BY_TURN_KINDS and game.bag_count == 0:
                move = solve_endgame(game, time_limit=self.end_seconds).best
            elif kind == "endgame" and game.bag_count <= END_BAG:
                result = PreendgameSearch(game, leaves=table).run(time_limit=self.end_seconds)
                if result.best_index is not None:
                    move = result.best.move
            if move is None:
                move = game.best_move("equity" if kind in TURN_BY_TURN_KINDS else kind, table)
            game.play(move)
        return core.read_game(game._state.game)


def game_gcg(record: GameRecord, match: Match, rules: Rules, title: str | None = None) -> str:
    """A kept game of a run as GCG text, the players named by the seats they took, ``#lexicon``
    the match's lexicon."""
    from ..formats.gcg import format_gcg

    if record.game is None:
        raise AutoplayError(f"game {record.index} was not kept (run with keep_games=True)")
    names = match.names if record.first == 0 else match.names[::-1]
    return format_gcg(record.game, rules, (names[0], names[1]), title, match.lexicon)


def load_table(player: PlayerSpec, rules: Rules) -> Any:
    """The player's leave table (a gaddag_solver.formats.leaves.Leaves for `rules`), or None."""
    if player.leaves is None:
        return None
    leaves = _leaves_module()
    try:
        return leaves.Leaves.load(player.leaves, rules)
    except (OSError, ValueError) as exc:
        raise AutoplayError(f"leave table {player.leaves!r}: {exc}") from None


_ENGINES: dict[Match, _Engine] = {}


def _engine(match: Match) -> _Engine:
    engine = _ENGINES.get(match)
    if engine is None:
        engine = _Engine(match)
        _ENGINES.clear()  # one match at a time per process: free the previous lexicon
        _ENGINES[match] = engine
    return engine


def played_game(match: Match, index: int, seed: int) -> core.PlayedGame:
    """Game ``index`` of a match (its number decides who moves first) from the bag ``seed``
    shuffles, with every turn: what fitting from games reads (win_fit.py)."""
    game = _engine(match).play(index, seed, True).game
    assert game is not None  # kept: play was asked to keep it
    return game


def play_chunk(match: Match, seed: int, start: int, stop: int, keep_games: bool = False) -> list[GameRecord]:
    """Games start..stop-1 of a run seeded `seed` (what a worker is sent)."""
    engine = _engine(match)
    return [engine.play(index, pair_seed(seed, index // 2), keep_games) for index in range(start, stop)]


# ---- statistics -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: Interval  # a draw counts half
    mean_score: Interval
    mean_spread: Interval
    bingos_per_game: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate.to_dict(),
            "mean_score": self.mean_score.to_dict(),
            "mean_spread": self.mean_spread.to_dict(),
            "bingos_per_game": self.bingos_per_game,
        }


@dataclass(frozen=True)
class Summary:
    """What a run found; the same for the same match, games and seed, however it was run."""

    games: int
    seed: int
    players: tuple[PlayerSummary, PlayerSummary]
    turns_per_game: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "turns_per_game": self.turns_per_game,
            "players": [player.to_dict() for player in self.players],
        }


def summarize(records: Sequence[GameRecord], names: tuple[str, str], seed: int = 0) -> Summary:
    """Statistics of a run's games, per match player.

    The spread's interval is drawn from the mirrored pairs' mean spreads (a pair is the
    independent unit: its two games share a bag), around the mean over games; a last game
    without its mirror counts as a unit of its own."""
    if not records:
        raise AutoplayError("no games to summarize")
    n = len(records)
    pairs: dict[int, list[int]] = {}
    for record in records:
        pairs.setdefault(record.index // 2, []).append(record.spread)
    pair_spreads = [sum(spreads) / len(spreads) for spreads in pairs.values()]
    players = []
    for player in (0, 1):
        sign = 1 if player == 0 else -1
        wins = sum(1 for r in records if sign * r.spread > 0)
        draws = sum(1 for r in records if r.spread == 0)
        mean_spread = sign * sum(r.spread for r in records) / n
        players.append(
            PlayerSummary(
                name=names[player],
                games=n,
                wins=wins,
                draws=draws,
                losses=n - wins - draws,
                win_rate=wilson(wins + draws / 2, n),
                mean_score=mean_interval([r.scores[player] for r in records]),
                mean_spread=mean_interval([sign * s for s in pair_spreads], centre=mean_spread),
                bingos_per_game=sum(r.bingos[player] for r in records) / n,
            )
        )
    return Summary(n, seed, (players[0], players[1]), sum(r.turn_count for r in records) / n)


# ---- running --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AutoplayRun:
    summary: Summary
    records: list[GameRecord]
    seconds: float
    workers: int  # processes used locally; 0 on a Dask cluster

    @property
    def games_per_second(self) -> float:
        return self.summary.games / self.seconds if self.seconds > 0 else float("inf")


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Game ranges of whole pairs: about eight per worker, so the load evens out, and at most
    256 games each, so progress moves."""
    pairs = (games + 1) // 2
    size = 2 * max(1, min(128, pairs // max(1, 8 * workers)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run_autoplay(
    match: Match,
    games: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    keep_games: bool = False,
    progress: Progress | None = None,
    scheduler_timeout: float | None = None,
) -> AutoplayRun:
    """Play `games` games of `match` and summarize them.

    Runs in this process when workers is 1, on `workers` local processes otherwise (default:
    every core), or on the Dask cluster whose scheduler is at `scheduler` ("tcp://HOST:8786",
    needs ``pip install gaddag-solver[cluster]``). `keep_games` keeps every game's turns in the
    records (for GCG export). `progress(done, total)` is called as chunks finish. Reaching the
    scheduler takes at most `scheduler_timeout` seconds (default SCHEDULER_TIMEOUT). Ctrl-C stops
    the run at once and raises AutoplayInterrupted with the summary of the games finished.
    """
    if games < 1:
        raise AutoplayError(f"the number of games must be at least 1, not {games}")
    seed &= MASK64
    started = time.perf_counter()
    used = 0 if scheduler is not None else max(1, min(workers or os.cpu_count() or 1, (games + 1) // 2))
    try:
        if scheduler is not None:
            timeout = SCHEDULER_TIMEOUT if scheduler_timeout is None else scheduler_timeout
            plan = functools.partial(_tasks, match, games, seed, keep=keep_games)
            parts = parallel.run_dask(play_chunk, plan, scheduler, timeout, progress, AutoplayError)
        else:
            tasks = _tasks(match, games, seed, used, keep_games)
            if used == 1:
                _engine(match)  # load before the clock matters to progress
                parts = parallel.run_inline(play_chunk, tasks, progress)
            else:
                parts = parallel.run_local(play_chunk, tasks, used, progress)
    except parallel.RunInterrupted as stopped:
        # the finished chunks, in game order; a chunk holds whole mirrored pairs
        results = [record for part in stopped.parts if part is not None for record in part]
        seconds = time.perf_counter() - started
        run = AutoplayRun(summarize(results, match.names, seed), results, seconds, used) if results else None
        raise AutoplayInterrupted(run, games) from None
    results = [record for part in parts for record in part]
    seconds = time.perf_counter() - started
    return AutoplayRun(summarize(results, match.names, seed), results, seconds, used)


def _tasks(match: Match, games: int, seed: int, workers: int, keep: bool) -> list[parallel.Task]:
    return [((match, seed, start, stop, keep), stop - start) for start, stop in chunks(games, workers)]


# ---- reporting ------------------------------------------------------------------------------------


def _signed(value: float) -> str:
    return f"{value:+.1f}"


def format_table(run: AutoplayRun) -> str:
    """One row per player (wins, draws, losses, win rate and mean spread with their 95%
    intervals, mean score, bingos per game), then the pace."""
    header = [
        "player",
        "wins",
        "draws",
        "losses",
        "win rate (95% CI)",
        "mean score",
        "spread (95% CI)",
        "bingos/game",
    ]
    rows = [header]
    for p in run.summary.players:
        rows.append(
            [
                p.name,
                str(p.wins),
                str(p.draws),
                str(p.losses),
                f"{100 * p.win_rate.value:.1f}% [{100 * p.win_rate.low:.1f}, {100 * p.win_rate.high:.1f}]",
                f"{p.mean_score.value:.1f}",
                f"{_signed(p.mean_spread.value)} ± {p.mean_spread.half_width:.1f}",
                f"{p.bingos_per_game:.2f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
        for row in rows
    ]
    where = f"{run.workers} worker{'s' if run.workers != 1 else ''}" if run.workers else "Dask cluster"
    s = run.summary
    lines.append(
        f"{s.games} games (seed {s.seed}), {s.turns_per_game:.1f} turns per game, {run.seconds:.2f} s: "
        f"{run.games_per_second:.1f} games/s ({where})"
    )
    return "\n".join(lines)


def summary_json(run: AutoplayRun, match: Match) -> dict[str, Any]:
    """The summary with what produced it and how fast, for --json."""
    summary = run.summary.to_dict()
    for entry, spec in zip(summary["players"], match.players, strict=True):
        entry.update(kind=spec.kind, leaves=spec.leaves)
    return {
        "lexicon": match.lexicon,
        "rules": match.rules,
        **summary,
        "seconds": run.seconds,
        "games_per_second": run.games_per_second,
        "workers": run.workers,
    }
