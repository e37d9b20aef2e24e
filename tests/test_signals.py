"""Ctrl-C and kill -9, on the real commands: each test starts ``python -m gaddag_solver ...`` in a
process group of its own (as a shell starts a job), waits until the work is under way (its
progress on stderr), then sends SIGINT to the whole group, as Ctrl-C in a terminal does, or
SIGKILL to the parent alone.

- SIGINT: the command exits within a few seconds, without a traceback, with its one-line
  message (and for autoplay the summary of the games finished, for review --batch their records);
- SIGKILL of the parent: its worker processes are gone within a few seconds (they watch their
  parent).

The runs use the tiny ruleset (tests/tiny_rules.py), whose games take milliseconds, and ask for
far more work than they are given time to do."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gaddag_solver.game import autoplay
from tiny_rules import write_tiny_files

PROMPT = 5.0  # seconds a command may take to exit after SIGINT (it takes well under one)
GONE = 5.0  # seconds the workers of a killed parent may take to exit (they take about one)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(lexicon path, rules path) of the tiny ruleset."""
    return write_tiny_files(tmp_path_factory.mktemp("tiny"), "tinysignals")


class Command:
    """A command run as a job of its own, its output read as it comes."""

    def __init__(self, *argv: str, stdin: str | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gaddag_solver", *argv],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group, as a shell's job
            # Ctrl-C as in a terminal: this process may have inherited SIGINT ignored (a background job)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        if stdin is not None:
            assert self.process.stdin is not None
            self.process.stdin.write(stdin)
            self.process.stdin.close()
        self._out: list[str] = []
        self._err: list[str] = []
        self._changed = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self._out), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self._err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, stream: object, into: list[str]) -> None:
        while text := stream.read(1):  # type: ignore[attr-defined]
            with self._changed:
                into.append(text)
                self._changed.notify_all()

    @property
    def out(self) -> str:
        with self._changed:
            return "".join(self._out)

    @property
    def err(self) -> str:
        with self._changed:
            return "".join(self._err)

    def wait_for(self, pattern: str, timeout: float = 60.0) -> None:
        """Until stderr matches ``pattern`` (the command's progress); fails if it exits first."""
        found = re.compile(pattern, re.S)
        deadline = time.monotonic() + timeout
        with self._changed:
            while not found.search("".join(self._err)):
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    pytest.fail(f"no {pattern!r} on stderr; it says: {''.join(self._err)[-2000:]}")
                self._changed.wait(min(left, 0.2))

    def interrupt(self) -> float:
        """Ctrl-C: SIGINT to the whole group; the seconds until the command exited."""
        sent = time.monotonic()
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill_all()
            pytest.fail(f"still running 30 s after SIGINT; stderr: {self.err[-2000:]}")
        seconds = time.monotonic() - sent
        for reader in self._readers:
            reader.join(timeout=10)
        return seconds

    def kill_all(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _parent_and_state(int(entry))[0] == pid:
            found.append(int(entry))
    return found


def _parent_and_state(pid: int) -> tuple[int | None, str]:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None, "gone"
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (name)", which may hold spaces
    return int(fields[1]), fields[0]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is not)."""
    return _parent_and_state(pid)[1] not in ("gone", "Z", "X")


def workers_of(command: Command, count: int, timeout: float = 30.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while len(found := children(command.process.pid)) < count:
        assert time.monotonic() < deadline, f"{len(found)} workers, not {count}"
        time.sleep(0.05)
    return found


def assert_workers_die_with_their_parent(command: Command, workers: list[int]) -> float:
    """SIGKILL to the parent alone; the seconds until none of its workers runs."""
    try:
        command.process.send_signal(signal.SIGKILL)
        command.process.wait(timeout=10)
        killed = time.monotonic()
        while left := [pid for pid in workers if alive(pid)]:
            assert time.monotonic() - killed < GONE, (
                f"workers {left} still running {GONE} s after the parent died"
            )
            time.sleep(0.05)
        return time.monotonic() - killed
    finally:
        for pid in workers:  # whatever the outcome, leave nothing behind
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        command.kill_all()


GAMES_DONE = r"\] [1-9][0-9]*/{total} games"  # the progress bar, once a chunk has finished


# ---- autoplay --------------------------------------------------------------------------------------------


def autoplay_argv(tiny: tuple[str, str], games: int, workers: int) -> list[str]:
    return [
        "autoplay", "--lexicon", tiny[0], "--rules", tiny[1], "--players", "equity,greedy",
        "--games", str(games), "--seed", "3", "--workers", str(workers), "--progress",
    ]  # fmt: skip


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_autoplay_with_the_summary_so_far(tiny: tuple[str, str], workers: int) -> None:
    games = 2_000_000
    command = Command(*autoplay_argv(tiny, games, workers))
    command.wait_for(GAMES_DONE.format(total=games))
    seconds = command.interrupt()
    err = command.err
    assert command.process.returncode == 130, err
    assert seconds < PROMPT, f"{seconds:.1f} s from SIGINT to exit"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    message = re.search(rf"interrupted: (\d+) of {games} games played; the summary of those follows", err)
    assert message, err
    played = int(message[1])
    assert 0 < played < games and played % 2 == 0  # whole chunks of whole mirrored pairs
    lines = command.out.strip().splitlines()
    assert lines[0].split()[:4] == ["player", "wins", "draws", "losses"]
    first, second = (line.split() for line in lines[1:3])
    assert first[0] == "equity" and second[0] == "greedy"
    assert int(first[1]) + int(first[2]) + int(first[3]) == played  # wins + draws + losses
    assert int(first[1]) == int(second[3]) and int(first[3]) == int(second[1])
    where = "1 worker" if workers == 1 else "2 workers"
    assert re.match(rf"{played} games \(seed 3\), .* games/s \({where}\)$", lines[3]), lines[3]


def test_the_partial_summary_is_the_summary_of_those_games(tiny: tuple[str, str]) -> None:
    """What an interrupted run reports is exactly what a run of its finished games reports: the
    first chunks, in game order (chunks finish out of order on two workers)."""
    match = autoplay.Match.create(
        tiny[0], tiny[1], [autoplay.PlayerSpec("equity"), autoplay.PlayerSpec("greedy")]
    )
    games = 4000
    calls = []

    def stop_after_three_chunks(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(autoplay.AutoplayInterrupted) as stopped:
        autoplay.run_autoplay(match, games, 5, workers=1, progress=stop_after_three_chunks)
    run = stopped.value.run
    assert run is not None and stopped.value.games == games
    size = autoplay.chunks(games, 1)[0][1]
    assert run.summary.games == 3 * size == calls[-1]
    assert [r.index for r in run.records] == list(range(3 * size))
    assert run.summary == autoplay.run_autoplay(match, 3 * size, 5, workers=1).summary
    with pytest.raises(autoplay.AutoplayInterrupted) as none:
        autoplay.run_autoplay(
            match, games, 5, workers=1, progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt)
        )
    assert none.value.run is not None and none.value.run.summary.games == size  # the chunk was done


def test_autoplay_workers_die_with_a_killed_parent(tiny: tuple[str, str]) -> None:
    games = 2_000_000
    command = Command(*autoplay_argv(tiny, games, 2))
    command.wait_for(GAMES_DONE.format(total=games))
    workers = workers_of(command, 2)
    assert_workers_die_with_their_parent(command, workers)


# ---- train-leaves ----------------------------------------------------------------------------------------


def train_argv(tiny: tuple[str, str], out: Path, games: int) -> list[str]:
    return [
        "train-leaves", "--lexicon", tiny[0], "--rules", tiny[1], "--generations", "1",
        "--games", str(games), "--seed", "4", "--eval-games", "0", "--workers", "2",
        "-o", str(out), "--progress",
    ]  # fmt: skip


def test_ctrl_c_stops_train_leaves_at_once(tiny: tuple[str, str], tmp_path: Path) -> None:
    games = 1_000_000
    command = Command(*train_argv(tiny, tmp_path / "t.leaves", games))
    command.wait_for(GAMES_DONE.format(total=games))
    seconds = command.interrupt()
    err = command.err
    assert command.process.returncode == 130, err
    assert seconds < PROMPT, f"{seconds:.1f} s from SIGINT to exit"
    assert "Traceback" not in err, err
    found = re.search(
        rf"interrupted in generation 1 after (\d+) of {games} games; the checkpoint is saved", err
    )
    assert found, err
    meta = json.loads((tmp_path / "t.leaves.checkpoint" / "partial.json").read_text())
    assert meta["games"] == int(found[1]) == 200 * len(meta["chunks"]) > 0


def test_train_leaves_workers_die_with_a_killed_parent(tiny: tuple[str, str], tmp_path: Path) -> None:
    games = 1_000_000
    command = Command(*train_argv(tiny, tmp_path / "t.leaves", games))
    command.wait_for(GAMES_DONE.format(total=games))
    workers = workers_of(command, 2)
    assert_workers_die_with_their_parent(command, workers)


# ---- review --batch --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def batch(tiny: tuple[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of 60 GCG files of tiny games."""
    from gaddag_solver import Rules

    match = autoplay.Match.create(
        tiny[0], tiny[1], [autoplay.PlayerSpec("equity"), autoplay.PlayerSpec("greedy")]
    )
    rules = Rules.load(tiny[1])
    run = autoplay.run_autoplay(match, 60, 8, workers=1, keep_games=True)
    folder = tmp_path_factory.mktemp("batch")
    for record in run.records:
        (folder / f"game-{record.index:02d}.gcg").write_text(autoplay.game_gcg(record, match, rules))
    return folder


def test_ctrl_c_stops_a_review_batch_and_keeps_what_was_reviewed(tiny: tuple[str, str], batch: Path) -> None:
    """--sim makes each file take a second or more: the workers are inside a file when Ctrl-C
    comes, and are not waited for."""
    command = Command(
        "review", "--batch", str(batch), "--lexicon", tiny[0], "--rules", tiny[1], "--leaves", "none",
        "--workers", "2", "--sim", "--sim-iterations", "400", "--progress",
    )  # fmt: skip
    command.wait_for(GAMES_DONE.format(total=60))
    seconds = command.interrupt()
    err = command.err
    assert command.process.returncode == 130, err
    assert seconds < PROMPT, f"{seconds:.1f} s from SIGINT to exit"
    assert "Traceback" not in err, err
    found = re.search(r"interrupted: (\d+) of 60 games reviewed \(0 failed\); their records are written", err)
    assert found, err
    records = [json.loads(line) for line in command.out.splitlines()]
    files = {record["file"] for record in records if record["type"] == "player"}
    assert len(files) == int(found[1]) > 0


# ---- sim and endgame: they handle Ctrl-C themselves --------------------------------------------------------


CGP_BOARD = "15/15/15/15/7Q7/7U7/7E7/3FLOWERs5/7N1I5/9Z5/8VEX4/15/15/15/15"


def test_ctrl_c_stops_a_simulation_with_its_standing() -> None:
    command = Command(
        "sim", "--lexicon", "sowpods", "--cgp", f"{CGP_BOARD} AEIRSTU/ 0/0 0", "--candidates", "4",
        "--iterations", "100000000", "--plies", "4", "--confidence", "0.999999999", "--progress",
    )  # fmt: skip
    command.wait_for(r"[1-9][0-9]* iterations +4 candidates left")
    seconds = command.interrupt()
    err = command.err
    assert command.process.returncode == 0, err
    assert seconds < PROMPT, f"{seconds:.1f} s from SIGINT to exit"
    assert "Traceback" not in err and "interrupted: the standing so far" in err, err
    table = command.out.splitlines()
    assert table[0].split()[:2] == ["rank", "move"] and len(table) == 1 + 4 + 1
    assert re.match(r"[1-9][0-9]* iterations, 4 plies, ", table[-1]), table[-1]
    assert table[-1].endswith("playouts/s): interrupted (Ctrl-C), the standing so far"), table[-1]


@pytest.fixture(scope="module")
def endgame_position() -> tuple[str, str]:
    """(board text, rack) of a SOWPODS endgame that takes more than three seconds to solve."""
    from gaddag_solver import Lexicon, Rules
    from gaddag_solver.game.play import Game
    from gaddag_solver.lexicons import resolve_lexicon

    game = Game.new(Lexicon.load(resolve_lexicon("sowpods"), Rules.load("english")), seed=6)
    while game.bag_count:
        game.play(game.best_move("equity"))
    return "\n".join(game.board.to_rows()) + "\n", str(game.rack())


def test_ctrl_c_stops_an_endgame_search(endgame_position: tuple[str, str]) -> None:
    board, rack = endgame_position
    command = Command(
        "endgame", "--lexicon", "sowpods", "--board", "-", "--rack", rack, "--progress", stdin=board
    )
    command.wait_for(r"depth [1-9]")
    time.sleep(0.5)  # inside a deeper search
    seconds = command.interrupt()
    err = command.err
    assert seconds < PROMPT, f"{seconds:.1f} s from SIGINT to exit"
    assert "Traceback" not in err and "interrupted" in err, err
