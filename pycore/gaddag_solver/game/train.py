"""Learning a leave table by self-play, generation by generation (docs/leaves.md).

Generation 0 is the table in which every leave is worth 0 (the greedy player). Generation g
plays ``games`` training games with table g−1 in both seats (``gd_train_game``: every full
rack's best equity is added to every leave it holds), derives table g from those statistics
(:mod:`.leave_estimate`), and measures it: mirrored game pairs against table g−1 and against the
greedy player.

A run is reproducible: game i of generation g is seeded from (seed, g, i) alone, games are sent
in chunks of a fixed size whatever the number of workers, and statistics are integer sums, so
the same command gives the same table on one core, on many, or on a Dask cluster.

A run keeps a checkpoint folder next to its output (``OUT.checkpoint/``): the configuration and
the per-generation log (``run.json``), every generation's table (``gen-NN.leaves``), and, while a
generation is under way, the statistics of its finished chunks (``partial.stats``, saved every
half minute, on Ctrl-C and when the generation's games are done, before its table is estimated)
with the list of those chunks and a checksum of both (``partial.json``). The same command
resumes where the run stopped; a checkpoint that does not check out is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import _core_api as core
from ..file_io import atomic_write
from ..formats.leaves import Leaves, LeavesError, tile_set
from ..lexicon import Lexicon
from ..lexicons import resolve_lexicon
from ..rules import Rules, portable_rules
from ..solver import check_alphabets, core_rules
from . import parallel
from .autoplay import SCHEDULER_TIMEOUT, AutoplayError, Match, PlayerSpec, pair_seed, run_autoplay
from .leave_estimate import Estimate, estimate

CHUNK_GAMES = 200  # games per task: fixed, so that the chunks (and the table) do not depend on the workers
CHECKPOINT_SECONDS = 30.0  # how often an unfinished generation's statistics are saved
FORMAT = 1  # of run.json
PARTIAL_FORMAT = 2  # of partial.json (1 had a CRC of the statistics alone, not of the chunk list)
TRAIN_STREAM = 0x545241494E  # seeds of training games
EVAL_STREAM = 0x4556414C  # seeds of the evaluation matches

Progress = Callable[[int, int], None]  # (games done, games in the generation)
Log = Callable[[str], None]


class TrainError(ValueError):
    """A training run cannot start or go on; the message says why and what to do."""


class TrainInterrupted(Exception):
    """The run was interrupted; its checkpoint holds everything finished so far."""


@dataclass(frozen=True)
class TrainConfig:
    """What a run is: two runs with the same configuration produce the same tables."""

    lexicon: str  # absolute path of the .gaddag
    rules: str  # a shipped ruleset's name or an absolute path
    generations: int
    games: int  # training games per generation
    seed: int
    eval_games: int  # games of each evaluation match (0: none)
    smooth: bool = True

    def __post_init__(self) -> None:
        if self.generations < 1:
            raise TrainError(f"--generations must be at least 1, not {self.generations}")
        if self.games < 1:
            raise TrainError(f"--games must be at least 1, not {self.games}")
        if self.eval_games < 0:
            raise TrainError(f"--eval-games must be 0 or more, not {self.eval_games}")

    @classmethod
    def create(
        cls,
        lexicon: str | os.PathLike[str],
        rules: str,
        generations: int,
        games: int,
        seed: int,
        eval_games: int = 2000,
        smooth: bool = True,
    ) -> TrainConfig:
        """A configuration with the lexicon and a rules file resolved to absolute paths, after
        checking that the lexicon fits the ruleset."""
        rules = portable_rules(rules)
        try:
            loaded = Rules.load(rules)
            tile_set(loaded)  # a ruleset whose leaves no table can hold fails here
            path = resolve_lexicon(lexicon).resolve()
            check_alphabets(Lexicon.load(path, loaded), loaded)
        except (OSError, ValueError, LookupError) as exc:
            raise TrainError(str(exc)) from None
        return cls(str(path), rules, generations, games, seed & ((1 << 64) - 1), eval_games, smooth)


# ---- the work a worker does ---------------------------------------------------------------------------


def game_seed(seed: int, generation: int, game: int) -> int:
    """The bag seed of training game `game` of generation `generation`."""
    return pair_seed(pair_seed(seed ^ TRAIN_STREAM, generation), game)


class _Trainer:
    """A process's lexicon, rules and game buffers, loaded once; the table of the generation
    under way is swapped in when other bytes come (compared whole: a .leaves file's own CRC-32
    makes the CRC-32 of the file the same for every table)."""

    def __init__(self, lexicon: str, rules: str) -> None:
        self.rules = Rules.load(rules)
        self.lexicon = Lexicon.load(lexicon, self.rules)
        self.core_rules = core_rules(self.rules)
        self.selfplay = core.SelfPlay()
        self.table: Leaves | None = None

    def use(self, table: bytes) -> Leaves:
        if self.table is None or self.table.to_bytes() != table:
            self.table = Leaves.from_bytes(table, self.rules, "<training table>")
        return self.table


_TRAINERS: dict[tuple[str, str], _Trainer] = {}


def train_chunk(
    lexicon: str, rules: str, table: bytes, seed: int, generation: int, start: int, stop: int
) -> bytes:
    """Training games start..stop-1 of a generation; their statistics as RackStats bytes."""
    trainer = _TRAINERS.get((lexicon, rules))
    if trainer is None:
        _TRAINERS.clear()
        trainer = _TRAINERS[(lexicon, rules)] = _Trainer(lexicon, rules)
    leaves = trainer.use(table)
    stats = core.RackStats(len(leaves))
    for game in range(start, stop):
        core.train_game(
            trainer.lexicon._core, trainer.core_rules, leaves.core, game_seed(seed, generation, game), stats,
            trainer.selfplay,
        )  # fmt: skip
    return stats.to_bytes()


# ---- the checkpoint ---------------------------------------------------------------------------------------


def table_digest(table: bytes) -> str:
    """What identifies a table's bytes (not zlib.crc32: a .leaves file carries its own CRC-32,
    which makes the CRC-32 of every valid file the same constant)."""
    return hashlib.sha256(table).hexdigest()


def checkpoint_dir(out: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(out)}.checkpoint")


def _write_atomic(path: Path, data: bytes) -> None:
    """``path`` written whole or not at all (file_io.atomic_write: no temporary left behind)."""
    with atomic_write(path, "wb") as handle:
        handle.write(data)


@dataclass
class _State:
    folder: Path
    config: TrainConfig
    log: list[dict[str, Any]]  # one entry per finished generation

    @property
    def done(self) -> int:
        return len(self.log)

    def table_path(self, generation: int) -> Path:
        return self.folder / f"gen-{generation:02d}.leaves"

    def save(self) -> None:
        document = {"format": FORMAT, "config": asdict(self.config), "generations": self.log}
        _write_atomic(self.folder / "run.json", json.dumps(document, indent=2).encode())


def _open_state(folder: Path, config: TrainConfig, restart: bool) -> _State:
    run_file = folder / "run.json"
    if restart and folder.exists():
        for path in folder.iterdir():
            if path.is_file():
                path.unlink()
    if not run_file.exists():
        folder.mkdir(parents=True, exist_ok=True)
        state = _State(folder, config, [])
        state.save()
        return state
    try:
        document = json.loads(run_file.read_bytes())
        saved, log = _read_run(document)
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise TrainError(
            f"{run_file}: not a readable checkpoint ({exc}); remove the folder or pass --restart"
        ) from None
    if _identity(saved) != _identity(config):
        raise TrainError(
            f"{folder} holds another run ({_describe(saved)}); this one is {_describe(config)}: "
            "pass --restart to discard it, or choose another output"
        )
    if saved.generations > config.generations:
        raise TrainError(
            f"{folder} holds a run of {saved.generations} generations, more than {config.generations}"
        )
    state = _State(folder, config, log)
    for generation in range(1, state.done + 1):
        if not state.table_path(generation).exists():
            raise TrainError(
                f"{state.table_path(generation)} is missing: the checkpoint is damaged; pass --restart"
            )
    state.save()  # a run may be extended with more generations
    return state


CONFIG_TYPES = {
    "lexicon": str,
    "rules": str,
    "generations": int,
    "games": int,
    "seed": int,
    "eval_games": int,
    "smooth": bool,
}

TYPE_NAMES = {str: "a string", int: "a whole number", bool: "true or false"}


def _read_run(document: Any) -> tuple[TrainConfig, list[dict[str, Any]]]:
    """run.json's configuration and log, checked field by field (ValueError says what is wrong):
    a resumed run reads every field the log's table prints."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a format-{FORMAT} run.json")
    fields = document.get("config")
    if not isinstance(fields, dict) or set(fields) - set(CONFIG_TYPES):
        raise ValueError("config: not a training configuration")
    for name, kind in CONFIG_TYPES.items():
        if name in fields and not _is(fields[name], kind):
            raise ValueError(f"config.{name}: {fields[name]!r} is not {TYPE_NAMES[kind]}")
    saved = TrainConfig(**fields)
    log = document.get("generations")
    if not isinstance(log, list) or len(log) > saved.generations:
        raise ValueError(f"generations: not a list of at most {saved.generations} generations")
    for number, entry in enumerate(log, 1):
        _check_entry(entry, number, saved.games)
    return saved, log


def _is(value: Any, kind: type) -> bool:
    """isinstance, with a bool not taken for an int (JSON's true is not 1)."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def _check_entry(entry: Any, number: int, games: int) -> None:
    where = f"generations[{number - 1}]"
    if (
        not isinstance(entry, dict)
        or entry.get("generation") != number
        or not _is(entry.get("generation"), int)
    ):
        raise ValueError(f"{where}: not generation {number}'s entry")
    if entry.get("games") != games or not _is(entry.get("games"), int):
        raise ValueError(f"{where}.games: not {games}")
    for name in ("play_seconds", "games_per_second"):
        value = entry.get(name)
        if value is not None and not _is(value, float) and not _is(value, int):
            raise ValueError(f"{where}.{name}: not a number")
    evaluation = entry.get("evaluation")
    if evaluation is None:
        return
    if not isinstance(evaluation, dict):
        raise ValueError(f"{where}.evaluation: not an object")
    for name in ("previous", "greedy"):
        result = evaluation.get(name)
        if not isinstance(result, dict) or not _is(result.get("games"), int):
            raise ValueError(f"{where}.evaluation.{name}: not a match's result")
        for figure in ("win_rate", "mean_spread"):
            interval = result.get(figure)
            if not isinstance(interval, dict) or not all(
                _is(interval.get(key), float) or _is(interval.get(key), int)
                for key in ("value", "low", "high")
            ):
                raise ValueError(f"{where}.evaluation.{name}.{figure}: not an interval")


def _identity(config: TrainConfig) -> tuple[Any, ...]:
    """What must agree for a checkpoint to be resumed (more generations may be asked for)."""
    return (config.lexicon, config.rules, config.games, config.seed, config.eval_games, config.smooth)


def _describe(config: TrainConfig) -> str:
    return (
        f"lexicon {Path(config.lexicon).name}, rules {config.rules}, {config.games} games per generation, "
        f"seed {config.seed}, {config.eval_games} evaluation games, "
        f"{'smoothed' if config.smooth else 'raw means'}"
    )


# ---- one generation ---------------------------------------------------------------------------------------


def chunk_ranges(games: int) -> list[tuple[int, int]]:
    return [(start, min(start + CHUNK_GAMES, games)) for start in range(0, games, CHUNK_GAMES)]


@contextmanager
def _interrupt_after() -> Iterator[None]:
    """Ctrl-C during the block takes effect at its end, not between two of its statements (Python
    raises it as soon as a call into C returns; a checkpoint saved then would hold a chunk's
    statistics without the chunk, which a resumed run would play again). Only where Ctrl-C raises
    KeyboardInterrupt: in the main thread, with Python's own handler."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


class _Partial:
    """The statistics of a generation's finished chunks, saved now and then."""

    def __init__(
        self, folder: Path, generation: int, table: bytes, entries: int, ranges: list[tuple[int, int]]
    ) -> None:
        self.stats_path = folder / "partial.stats"
        self.meta_path = folder / "partial.json"
        self.generation = generation
        self.ranges = ranges
        self.table_digest = table_digest(table)
        self.stats = core.RackStats(entries)
        self.done: set[int] = set()
        self.saved_at = time.monotonic()
        self._load(entries)

    def _load(self, entries: int) -> None:
        if not self.meta_path.exists():
            return
        try:
            meta = json.loads(self.meta_path.read_bytes())
            data = self.stats_path.read_bytes()
            chunks = self._check(meta, data)
            stats = core.RackStats.from_bytes(data)
        except (OSError, ValueError, KeyError, TypeError, RecursionError, core.CoreError) as exc:
            raise TrainError(f"{self.meta_path}: a damaged checkpoint ({exc}); pass --restart") from None
        if meta["generation"] != self.generation or meta["table"] != self.table_digest:
            return  # left by an earlier generation: start this one afresh
        if stats.entries != entries:
            raise TrainError(
                f"{self.stats_path}: statistics for {stats.entries} leaves, not {entries}; pass --restart"
            )
        if (stats.totals[0] == 0) != (not chunks):
            raise TrainError(
                f"{self.stats_path}: {stats.totals[0]} racks recorded in {len(chunks)} chunks; pass --restart"
            )
        self.stats = stats
        self.done = set(chunks)

    def _check(self, meta: Any, data: bytes) -> list[int]:
        """partial.json's chunk list, once its layout, its checksum and its ranges check out
        (ValueError says what does not): a chunk missing from the list would be played again and
        counted twice, one listed but not in the statistics never played."""
        if not isinstance(meta, dict) or meta.get("format") != PARTIAL_FORMAT:
            raise ValueError(f"not a format-{PARTIAL_FORMAT} partial.json")
        chunks, generation, table = meta.get("chunks"), meta.get("generation"), meta.get("table")
        if not isinstance(chunks, list) or not all(_is(chunk, int) for chunk in chunks):
            raise ValueError("chunks: not a list of chunk numbers")
        if not _is(generation, int) or not isinstance(table, str) or not _is(meta.get("games"), int):
            raise ValueError("generation, table or games: missing or of the wrong type")
        if meta.get("checksum") != _partial_checksum(data, generation, table, chunks, meta["games"]):
            raise ValueError("the statistics and their chunk list do not match their checksum")
        if chunks != sorted(set(chunks)):
            raise ValueError("chunks: not in ascending order without repeats")
        if generation != self.generation or table != self.table_digest:
            return chunks  # another generation's: not resumed, its ranges do not matter
        count = len(self.ranges)
        if chunks and not 0 <= chunks[0] <= chunks[-1] < count:
            raise ValueError(f"chunks: a chunk number outside 0..{count - 1}")
        games = sum(self.ranges[chunk][1] - self.ranges[chunk][0] for chunk in chunks)
        if meta["games"] != games:
            raise ValueError(f"games: {meta['games']}, but the chunks listed hold {games}")
        return chunks

    def add(self, chunk: int, data: bytes) -> None:
        incoming = core.RackStats.from_bytes(data)
        with _interrupt_after():  # the statistics and the chunks they hold change together
            self.stats.merge(incoming)
            self.done.add(chunk)

    def save(self) -> None:
        data = self.stats.to_bytes()
        chunks = sorted(self.done)
        games = sum(self.ranges[chunk][1] - self.ranges[chunk][0] for chunk in chunks)
        meta = {
            "format": PARTIAL_FORMAT,
            "generation": self.generation,
            "table": self.table_digest,
            "chunks": chunks,
            "games": games,
            "checksum": _partial_checksum(data, self.generation, self.table_digest, chunks, games),
        }
        # both written in full, then renamed one after the other, Ctrl-C held off meanwhile: the
        # checksum refuses a pair from two saves, which only a kill between the renames could leave
        stats_tmp = self.stats_path.with_name(self.stats_path.name + ".tmp")
        meta_tmp = self.meta_path.with_name(self.meta_path.name + ".tmp")
        with _interrupt_after():
            stats_tmp.write_bytes(data)
            meta_tmp.write_bytes(json.dumps(meta).encode())
            os.replace(stats_tmp, self.stats_path)
            os.replace(meta_tmp, self.meta_path)
        self.saved_at = time.monotonic()

    def maybe_save(self) -> None:
        if time.monotonic() - self.saved_at >= CHECKPOINT_SECONDS:
            self.save()

    def remove(self) -> None:
        for path in (self.stats_path, self.meta_path):
            path.unlink(missing_ok=True)


def _partial_checksum(data: bytes, generation: int, table: str, chunks: list[int], games: int) -> str:
    """What binds a generation's saved statistics to the chunks they hold."""
    digest = hashlib.sha256(data)
    digest.update(json.dumps([generation, table, chunks, games]).encode())
    return digest.hexdigest()


def _play_generation(
    config: TrainConfig,
    generation: int,
    table: bytes,
    partial: _Partial,
    workers: int,
    scheduler: str | None,
    progress: Progress | None,
) -> None:
    ranges = chunk_ranges(config.games)
    todo = [i for i in range(len(ranges)) if i not in partial.done]

    def done_games() -> int:
        return sum(ranges[i][1] - ranges[i][0] for i in partial.done)

    if progress:
        progress(done_games(), config.games)
    args = (config.lexicon, config.rules)
    try:
        if scheduler is not None:
            _play_dask(config, generation, table, partial, ranges, todo, scheduler, progress, done_games)
        elif workers == 1:
            for i in todo:
                start, stop = ranges[i]
                partial.add(i, train_chunk(*args, table, config.seed, generation, start, stop))
                partial.maybe_save()
                if progress:
                    progress(done_games(), config.games)
        else:
            # workers ignore Ctrl-C and die with this process; on any exception they are stopped
            # at once, their chunks under way lost (a resumed run plays them again)
            with parallel.local_pool(workers) as pool:
                pending: dict[Future[bytes], int] = {}
                queue = list(todo)
                while queue or pending:
                    while queue and len(pending) < 2 * workers:  # a few ahead, not the whole generation
                        i = queue.pop(0)
                        start, stop = ranges[i]
                        pending[
                            pool.submit(train_chunk, *args, table, config.seed, generation, start, stop)
                        ] = i
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        partial.add(pending.pop(future), future.result())
                    partial.maybe_save()
                    if progress:
                        progress(done_games(), config.games)
    except KeyboardInterrupt:
        partial.save()
        raise TrainInterrupted(
            f"interrupted in generation {generation} after {done_games()} of {config.games} games; "
            "the checkpoint is saved: run the same command to resume"
        ) from None
    except Exception:
        partial.save()  # what finished is kept whatever stopped the rest
        raise


def _play_dask(
    config: TrainConfig,
    generation: int,
    table: bytes,
    partial: _Partial,
    ranges: list[tuple[int, int]],
    todo: list[int],
    scheduler: str,
    progress: Progress | None,
    done_games: Callable[[], int],
) -> None:
    with parallel.dask_client(scheduler, SCHEDULER_TIMEOUT, TrainError) as client:
        from distributed import as_completed

        futures: list[Any] = []
        try:
            shared = client.scatter(table, broadcast=True)
            chunk_of = {}
            for i in todo:
                start, stop = ranges[i]
                future = client.submit(
                    train_chunk, config.lexicon, config.rules, shared, config.seed, generation, start, stop,
                    pure=False, retries=2,
                )  # fmt: skip
                futures.append(future)
                chunk_of[future.key] = i
            for future in as_completed(futures, loop=client.loop):
                i = chunk_of[future.key]
                try:
                    data = future.result()
                except Exception as exc:
                    if parallel.lost_scheduler(client, exc):
                        raise
                    raise TrainError(
                        f"a worker failed on training games {ranges[i][0]}..{ranges[i][1] - 1}: {exc}"
                    ) from exc
                partial.add(i, data)
                future.release()
                partial.maybe_save()
                if progress:
                    progress(done_games(), config.games)
        except KeyboardInterrupt:
            parallel.cancel(client, futures)
            raise
        except TrainError:
            raise
        except Exception as exc:
            if parallel.lost_scheduler(client, exc):
                raise TrainError(
                    f"lost the Dask scheduler at {scheduler!r} in generation {generation} after "
                    f"{done_games()} of {config.games} games; the checkpoint is saved: run the same "
                    "command to resume"
                ) from None
            raise


# ---- the run --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainResult:
    output: Path
    log: list[dict[str, Any]]
    seconds: float  # this invocation's time


def _evaluate(
    config: TrainConfig, generation: int, new: Path, previous: Path | None, workers: int
) -> dict[str, Any]:
    """Mirrored pairs of the new table against the previous one and against greedy."""
    results = {}
    base = pair_seed(config.seed ^ EVAL_STREAM, generation)
    opponents = {
        "previous": PlayerSpec("equity", None if previous is None else str(previous)),
        "greedy": PlayerSpec("greedy"),
    }
    for k, (name, opponent) in enumerate(opponents.items()):
        match = Match.create(config.lexicon, config.rules, [PlayerSpec("equity", str(new)), opponent])
        run = run_autoplay(match, config.eval_games, pair_seed(base, k), workers=workers)
        player = run.summary.players[0]
        results[name] = {
            "games": player.games,
            "win_rate": player.win_rate.to_dict(),
            "mean_spread": player.mean_spread.to_dict(),
            "seconds": round(run.seconds, 2),
        }
    return results


def train(
    config: TrainConfig,
    out: str | os.PathLike[str],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    restart: bool = False,
    progress: Callable[[int], Progress | None] | None = None,
    log: Log | None = None,
) -> TrainResult:
    """Run (or resume) a training run and write its last table to `out`.

    `progress(generation)` may return a callback for that generation's games; `log` receives a
    line per finished generation. Raises TrainInterrupted on Ctrl-C (the checkpoint is saved)."""
    try:
        return _train(config, out, workers, scheduler, restart, progress, log)
    except KeyboardInterrupt:  # between the steps that say where they were: every file is whole
        raise TrainInterrupted(
            "interrupted; the checkpoint is saved: run the same command to resume"
        ) from None


def _train(
    config: TrainConfig,
    out: str | os.PathLike[str],
    workers: int | None,
    scheduler: str | None,
    restart: bool,
    progress: Callable[[int], Progress | None] | None,
    log: Log | None,
) -> TrainResult:
    started = time.perf_counter()
    say = log or (lambda line: None)
    rules = Rules.load(config.rules)
    folder = checkpoint_dir(out)
    state = _open_state(folder, config, restart)
    used = max(1, workers or os.cpu_count() or 1)
    previous_path = state.table_path(state.done) if state.done else None
    if previous_path is not None:
        try:
            start = Leaves.load(previous_path, rules)
        except LeavesError as exc:
            raise TrainError(f"{exc}: the checkpoint is damaged; pass --restart") from None
    else:
        start = Leaves.zero(rules)
    table, entries = start.to_bytes(), len(start)
    if state.done:
        say(f"resuming after generation {state.done} of {config.generations} ({folder})")
    for generation in range(state.done + 1, config.generations + 1):
        t0 = time.perf_counter()
        partial = _Partial(folder, generation, table, entries, chunk_ranges(config.games))
        _play_generation(
            config, generation, table, partial, used, scheduler, progress(generation) if progress else None
        )
        play_seconds = time.perf_counter() - t0
        path = state.table_path(generation)
        try:
            partial.save()  # the estimate takes seconds: Ctrl-C then must not lose the games
            sums, seen = _arrays(partial.stats)
            found: Estimate = estimate(sums, seen, partial.stats.totals, rules, smooth=config.smooth)
            new = Leaves.from_hundredths(rules, found.values, f"generation {generation}")
            _write_atomic(path, new.to_bytes())
        except KeyboardInterrupt:
            raise TrainInterrupted(
                f"interrupted in generation {generation} while estimating its table; the checkpoint is "
                "saved: run the same command to resume"
            ) from None
        entry: dict[str, Any] = {
            "generation": generation,
            "games": config.games,
            "play_seconds": round(play_seconds, 2),
            "games_per_second": round(config.games / play_seconds, 1) if play_seconds > 0 else None,
            "estimate": found.to_dict(),
        }
        if config.eval_games:
            try:
                entry["evaluation"] = _evaluate(config, generation, path, previous_path, used)
            except KeyboardInterrupt:
                partial.save()
                raise TrainInterrupted(
                    f"interrupted while measuring generation {generation}; the checkpoint is saved: "
                    "run the same command to resume"
                ) from None
            except AutoplayError as exc:
                raise TrainError(f"measuring generation {generation}: {exc}") from None
        entry["seconds"] = round(time.perf_counter() - t0, 2)
        entry["peak_rss_mib"] = _peak_memory()
        state.log.append(entry)
        state.save()
        partial.remove()
        say(format_generation(entry))
        table = new.to_bytes()
        previous_path = path
    output = Path(out)
    _write_atomic(output, table)
    return TrainResult(output, state.log, time.perf_counter() - started)


def _peak_memory() -> dict[str, float]:
    """The largest resident size so far of this process and of its finished local workers (MiB):
    a run whose memory stays flat shows the same figures generation after generation."""
    try:
        import resource
    except ImportError:  # not on every platform
        return {}
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1024 * 1024)  # kilobytes on Linux, bytes on macOS
    return {
        "main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale, 1),
        "workers": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale, 1),
    }


def _arrays(stats: core.RackStats) -> tuple[Any, Any]:
    from array import array

    sums = array("q")
    sums.frombytes(stats.sums_bytes())
    seen = array("I")
    seen.frombytes(stats.seen_bytes())
    return sums, seen


def _rate(result: dict[str, Any]) -> str:
    w = result["win_rate"]
    s = result["mean_spread"]
    return (
        f"{100 * w['value']:.1f}% [{100 * w['low']:.1f}, {100 * w['high']:.1f}] "
        f"spread {s['value']:+.1f} ± {(s['high'] - s['low']) / 2:.1f}"
    )


def format_generation(entry: dict[str, Any]) -> str:
    """One generation's line: pace, and the evaluation against the previous table and greedy."""
    line = (
        f"generation {entry['generation']}: {entry['games']} games in {entry['play_seconds']:.0f} s "
        f"({entry['games_per_second']} games/s)"
    )
    evaluation = entry.get("evaluation")
    if evaluation:
        line += (
            f"; vs previous {_rate(evaluation['previous'])}; vs greedy {_rate(evaluation['greedy'])} "
            f"({evaluation['greedy']['games']} games each)"
        )
    return line


def format_log(log: list[dict[str, Any]]) -> str:
    """The per-generation table of a run's log."""
    rows = [
        [
            "gen",
            "games",
            "games/s",
            "vs previous: win % (95% CI)",
            "spread",
            "vs greedy: win % (95% CI)",
            "spread",
        ]
    ]
    for entry in log:
        evaluation = entry.get("evaluation") or {}
        cells = [str(entry["generation"]), str(entry["games"]), str(entry.get("games_per_second"))]
        for name in ("previous", "greedy"):
            result = evaluation.get(name)
            if result is None:
                cells += ["-", "-"]
                continue
            w, s = result["win_rate"], result["mean_spread"]
            cells.append(f"{100 * w['value']:.1f} [{100 * w['low']:.1f}, {100 * w['high']:.1f}]")
            cells.append(f"{s['value']:+.1f} ± {(s['high'] - s['low']) / 2:.1f}")
        rows.append(cells)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(widths[i]) for i, cell in enumerate(row)) for row in rows)
