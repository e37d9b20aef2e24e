"""gaddag_solver.game.parallel: Ctrl-C and lost parents of local workers, and Dask scheduler
addresses, failed connections and a scheduler lost during a run (autoplay and train-leaves).

The Dask tests start a real scheduler and worker as processes of their own (a LocalCluster in a
child process), so that the scheduler can be killed while a run uses it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gaddag_solver.game import autoplay, parallel, train
from tiny_rules import write_tiny_files


class Refused(ValueError):
    pass


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(lexicon path, rules path) of the tiny ruleset."""
    return write_tiny_files(tmp_path_factory.mktemp("tiny"), "tinyparallel")


# ---- local workers -----------------------------------------------------------------------------------


def test_ctrl_c_in_a_local_run_keeps_the_finished_parts_in_order() -> None:
    """Results of the tasks finished before Ctrl-C, in task order, None for the others; the
    workers are stopped without waiting for the tasks under way (each would take 30 s)."""
    tasks = [((0.0,), 1), ((30.0,), 1), ((0.0,), 1), ((0.0,), 1), ((30.0,), 1), ((0.0,), 1)]
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(parallel.RunInterrupted) as stopped:
        parallel.run_local(nap, tasks, 2, progress)
    assert time.monotonic() - started < 10
    assert seen == [1, 2, 3] and stopped.value.done == 3 and stopped.value.total == 6
    parts = stopped.value.parts
    assert parts == [0.0, None, 0.0, 0.0, None, None]
    assert isinstance(stopped.value, KeyboardInterrupt)  # what callers that only know Ctrl-C catch


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_worker_exits_when_its_parent_dies(tmp_path: Path) -> None:
    """A parent started with a pool, killed outright while its workers are busy: they notice."""
    script = (
        "import os, sys, time\n"
        "from gaddag_solver.game import parallel\n"
        "with parallel.local_pool(2) as pool:\n"
        "    futures = [pool.submit(time.sleep, 60) for _ in range(2)]\n"
        "    while len(pool._processes) < 2: time.sleep(0.01)\n"
        "    print(*pool._processes, flush=True)\n"
        "    time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    workers = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(workers) == 2
    time.sleep(0.3)  # busy in time.sleep(60)
    parent.kill()
    parent.wait()
    killed = time.monotonic()
    try:
        while any(_running(pid) for pid in workers):
            assert time.monotonic() - killed < 5, "workers outlived their parent"
            time.sleep(0.05)
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def test_c_calls_release_the_gil() -> None:
    """The parent-watching thread of a worker runs while the worker is inside a C call (a whole
    game in gd_autoplay): with the switch interval at a second, a thread ticks inside the calls
    only if they release the GIL."""
    from gaddag_solver import _core_api as core

    match = autoplay.Match.create("sowpods", "english", [autoplay.PlayerSpec("greedy")] * 2)
    engine = autoplay._engine(match)
    for seat in (0, 1):
        engine.selfplay.set_player(seat, "greedy", None)
    ticks: list[float] = []
    done = threading.Event()

    def tick() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0002)

    calls = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1.0)  # the GIL is handed over only when released, not every 5 ms
    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        time.sleep(0.01)
        for seed in range(20):
            began = time.perf_counter()
            core.autoplay(engine.lexicon._core, engine.core_rules, engine.selfplay, seed)
            calls.append((began, time.perf_counter()))
    finally:
        done.set()
        ticker.join()
        sys.setswitchinterval(interval)
    inside = [sum(1 for t in ticks if began < t < ended) for began, ended in calls]
    # a tick inside a call means the GIL was let go there (with the GIL held for a whole call the
    # ticker cannot run); each game lasts milliseconds, so most calls see ticks, but on a loaded
    # machine the ticker waits for a core too
    assert sum(1 for count in inside if count >= 1) >= 8, inside


# ---- Dask: addresses and failed connections ------------------------------------------------------------


@pytest.mark.parametrize("address", ["notaurl", "tcp://", "http://127.0.0.1:8787", "", "tcp://host:99999"])
def test_a_malformed_scheduler_address_is_refused_at_once(address: str) -> None:
    # Dask's own import (a second or two on a loaded machine) is not what is timed: the refusal is,
    # which must come well before the 10 s connection timeout
    import distributed  # noqa: F401

    started = time.monotonic()
    with pytest.raises(Refused, match=r"is not a Dask scheduler address: write tcp://HOST:PORT"):
        parallel.run_dask(len, lambda workers: [], address, 10.0, None, Refused)
    assert time.monotonic() - started < 1


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://sched.example.org:8786", "tcp://[::1]:8786"]
)
def test_well_formed_scheduler_addresses(address: str) -> None:
    assert parallel.check_scheduler_address(address, Refused) == address


@pytest.mark.parametrize("address", ["notaurl", "tcp://127.0.0.1:9"])
def test_a_failed_connection_leaves_nothing_behind(tiny: tuple[str, str], address: str) -> None:
    """No hang and no "Exception ignored in Client.__del__" at exit after a scheduler that could
    not be reached (Dask printed it 20 s later)."""
    script = (
        "import sys, time\n"
        "from gaddag_solver.game import autoplay\n"
        "match = autoplay.Match.create(sys.argv[1], sys.argv[2], [autoplay.PlayerSpec('greedy')] * 2)\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    autoplay.run_autoplay(match, 2, scheduler=sys.argv[3], scheduler_timeout=1)\n"
        "except autoplay.AutoplayError as exc:\n"
        "    kept = exc  # as the command keeps it, until exit\n"
        "    print('refused:', exc)\n"
        "print(f'{time.monotonic() - started:.2f}')\n"
    )
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-c", script, *tiny, address], capture_output=True, text=True, timeout=60
    )
    seconds = time.monotonic() - started
    assert run.returncode == 0, run.stderr
    refused, took = run.stdout.splitlines()
    assert refused.startswith("refused: ") and float(took) < 5, run.stdout
    assert "Exception ignored" not in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert seconds < 15


def test_the_command_refuses_a_malformed_address_at_once(tiny: tuple[str, str]) -> None:
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "autoplay", "--lexicon", tiny[0], "--rules", tiny[1],
         "--games", "2", "--scheduler", "notaurl"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "error: --scheduler 'notaurl' is not a Dask scheduler address: write tcp://HOST:PORT "
        "(e.g. tcp://127.0.0.1:8786)\n"
    )
    assert time.monotonic() - started < 10  # Python's start and the imports, no wait


# ---- Dask: a scheduler lost during the run ----------------------------------------------------------------


class Cluster:
    """A scheduler and one worker in a process group of their own, to be killed mid-run."""

    def __init__(self) -> None:
        script = (
            "import time\n"
            "from distributed import LocalCluster\n"
            "cluster = LocalCluster(\n"
            "    n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None\n"
            ")\n"
            "print(cluster.scheduler_address, flush=True)\n"
            "time.sleep(300)\n"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", script],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        self.address = self.process.stdout.readline().strip()
        assert self.address.startswith("tcp://"), self.address

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)


@pytest.fixture
def cluster() -> object:
    pytest.importorskip("distributed")
    running = Cluster()
    try:
        yield running
    finally:
        running.kill()


def test_a_lost_scheduler_is_said_in_one_line_and_the_run_resumes(
    tiny: tuple[str, str], tmp_path: Path, cluster: Cluster, capfd: pytest.CaptureFixture[str]
) -> None:
    games = 8000
    config = train.TrainConfig.create(tiny[0], tiny[1], 1, games, 6, 0)
    out = tmp_path / "t.leaves"

    def kill_the_scheduler(generation: int):
        def progress(done: int, total: int) -> None:
            if done:
                cluster.kill()

        return progress

    started = time.monotonic()
    with pytest.raises(train.TrainError) as lost:
        train.train(config, out, scheduler=cluster.address, progress=kill_the_scheduler)
    seconds = time.monotonic() - started
    message = str(lost.value)
    assert message.startswith(f"lost the Dask scheduler at {cluster.address!r} in generation 1 after "), (
        message
    )
    assert message.endswith("the checkpoint is saved: run the same command to resume"), message
    assert "a worker failed" not in message and seconds < 60
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err and "ERROR" not in printed.err, printed.err
    meta = json.loads((train.checkpoint_dir(out) / "partial.json").read_text())
    assert 0 < meta["games"] < games
    resumed = train.train(config, out, workers=1)
    straight = train.train(config, tmp_path / "s.leaves", workers=1)
    assert resumed.output.read_bytes() == straight.output.read_bytes()


def test_autoplay_says_it_lost_the_scheduler(
    tiny: tuple[str, str], cluster: Cluster, capfd: pytest.CaptureFixture[str]
) -> None:
    match = autoplay.Match.create(
        tiny[0], tiny[1], [autoplay.PlayerSpec("equity"), autoplay.PlayerSpec("greedy")]
    )

    def kill_the_scheduler(done: int, total: int) -> None:
        cluster.kill()

    with pytest.raises(autoplay.AutoplayError, match=f"^lost the Dask scheduler at {cluster.address!r}"):
        autoplay.run_autoplay(match, 200_000, 1, scheduler=cluster.address, progress=kill_the_scheduler)
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err and "ERROR" not in printed.err, printed.err
