"""Learning leave tables by self-play (docs/leaves.md).

- gd_train_game's statistics against a recomputation in Python from the game's own history
  (every full rack with tiles in the bag, every sub-multiset of it, the equity of the move
  made);
- the estimate against direct arithmetic: raw means, and the shrinkage toward the prior;
- a run is the same table on one worker, two worker processes, a Dask LocalCluster, and when
  interrupted and resumed; bad checkpoints and mismatched runs give clear errors;
- the train-leaves and leaves commands end to end.

Training runs use a tiny ruleset (9×9, seven letters, racks of five) so a generation takes a
second; the recomputation test plays SOWPODS games.
"""

from __future__ import annotations

import itertools
import json
from array import array
from pathlib import Path

import pytest
from gaddag_solver import Lexicon, Rules
from gaddag_solver import _core_api as core
from gaddag_solver.cli import main
from gaddag_solver.formats.leaves import Leaves, LeavesError, entry_keys
from gaddag_solver.game import train
from gaddag_solver.game.leave_estimate import FIT_MIN_SEEN, estimate
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.solver import core_rules
from tiny_rules import tiny_rules, write_tiny_files

ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(lexicon path, rules path) of the tiny ruleset."""
    return write_tiny_files(tmp_path_factory.mktemp("tiny"), "tinytrain")


def config(
    tiny: tuple[str, str], generations: int = 2, games: int = 450, eval_games: int = 20
) -> train.TrainConfig:
    return train.TrainConfig.create(tiny[0], tiny[1], generations, games, 7, eval_games)


# ---- the statistics of a training game -------------------------------------------------------------


def recompute(
    game: core.PlayedGame, rules: Rules, keys: dict[str, int], entries: int
) -> tuple[array, array, tuple[int, int, int]]:
    """What gd_train_game should have recorded, from the history alone."""
    sums = array("q", bytes(8 * entries))
    seen = array("I", bytes(4 * entries))
    bag = rules.blanks + sum(rules.counts) - 2 * rules.rack_size
    racks = total = squares = 0
    for turn in game.turns:
        if len(turn.rack) == rules.rack_size and bag > 0:
            racks += 1
            total += turn.equity
            squares += turn.equity**2
            subsets = set()
            for size in range(1, rules.rack_size):
                subsets.update(itertools.combinations(turn.rack, size))  # rack codes are ascending
            for subset in subsets:
                index = keys["".join(chr(code) for code in subset)]
                sums[index] += turn.equity
                seen[index] += 1
        bag -= turn.drawn
        if turn.kind == core.lib.GD_EXCHANGE:
            bag += len(turn.word)
    return sums, seen, (racks, total, squares)


def test_training_games_record_every_leave_of_every_full_rack() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"), ENGLISH)
    table = Leaves.from_function(
        ENGLISH, lambda leave: 3.0 * leave.count("?") + 1.5 * leave.count("S") - len(leave)
    )
    keys = {key: i for i, key in enumerate(entry_keys(ENGLISH))}
    selfplay = core.SelfPlay()
    rules = core_rules(ENGLISH)
    for seed in (3, 4):
        stats = core.RackStats(len(table))
        core.train_game(lexicon._core, rules, table.core, seed, stats, selfplay)
        game = core.read_game(selfplay.game)
        sums, seen, totals = recompute(game, ENGLISH, keys, len(table))
        assert totals[0] >= 10
        assert bytes(seen) == stats.seen_bytes() and bytes(sums) == stats.sums_bytes()
        assert stats.totals == totals


def test_statistics_merge_and_round_trip_as_bytes() -> None:
    a, b = core.RackStats(5), core.RackStats(5)
    a.sums[1], a.seen[1] = 700, 2
    b.sums[1], b.seen[1], b.sums[4], b.seen[4] = -300, 1, 50, 1
    a.merge(b)
    assert list(a.sums[0:5]) == [0, 400, 0, 0, 50] and list(a.seen[0:5]) == [0, 3, 0, 0, 1]
    copy = core.RackStats.from_bytes(a.to_bytes())
    assert copy.to_bytes() == a.to_bytes()
    with pytest.raises(core.CoreError, match="cannot be merged"):
        a.merge(core.RackStats(4))
    with pytest.raises(core.CoreError, match="must be"):
        core.RackStats.from_bytes(a.to_bytes()[:-1])


def test_a_chunk_plays_with_the_table_it_is_given(tiny: tuple[str, str]) -> None:
    """A process that played one table's chunk and is sent another plays the new one (workers
    and Dask workers live across generations): the statistics equal games played directly."""
    rules = Rules.load(tiny[1])
    lexicon = Lexicon.load(tiny[0], rules)
    zero = Leaves.zero(rules)
    tables = [
        zero,
        Leaves.from_function(rules, lambda leave: 4.0 * leave.count("S") - 3.0 * leave.count("C")),
    ]
    for table in [*tables, tables[0]]:
        data = train.train_chunk(tiny[0], tiny[1], table.to_bytes(), 4, 2, 10, 30)
        direct = core.RackStats(len(table))
        selfplay = core.SelfPlay()
        for game in range(10, 30):
            core.train_game(
                lexicon._core, core_rules(rules), table.core, train.game_seed(4, 2, game), direct, selfplay
            )
        assert data == direct.to_bytes()
    first, second = (train.train_chunk(tiny[0], tiny[1], t.to_bytes(), 4, 2, 10, 30) for t in tables)
    assert first != second


# ---- the estimate ----------------------------------------------------------------------------------


def synthetic(rules: Rules, seed: int) -> tuple[array, array, tuple[int, int, int]]:
    import random

    rng = random.Random(seed)
    keys = entry_keys(rules)
    sums = array("q")
    seen = array("I")
    for key in keys:
        n = rng.choice([0, 1, 3, 40, FIT_MIN_SEEN, 5000])
        truth = 400 * key.count("\0") - 150 * (len(key) - len(set(key))) + 20 * len(key)
        seen.append(n)
        sums.append(
            sum(3000 + truth + rng.randint(-900, 900) for _ in range(min(n, 50))) * n // max(1, min(n, 50))
        )
    racks = 10_000
    return sums, seen, (racks, 3000 * racks, (3000**2 + 500**2) * racks)


def test_raw_values_are_means_minus_the_overall_mean() -> None:
    rules = tiny_rules()
    sums, seen, totals = synthetic(rules, 1)
    found = estimate(sums, seen, totals, rules, smooth=False)
    for i in range(len(sums)):
        expected = round(sums[i] / seen[i] - 3000) if seen[i] else 0
        assert found.values[i] == max(-32767, min(32767, expected))


def test_smoothing_shrinks_toward_the_prior_of_singles_and_pairs() -> None:
    """Every value is (n * raw + m * prior) / (n + m), the prior a + b * x1 + c * x2 from the
    size's coefficients, x1 the sum of the single tiles' values, x2 the sum of the pairs'
    synergies (a pair's value minus its tiles' values) — recomputed here from the output."""
    rules = tiny_rules()
    sums, seen, totals = synthetic(rules, 2)
    raw = estimate(sums, seen, totals, rules, smooth=False)
    found = estimate(sums, seen, totals, rules, smooth=True)
    keys = entry_keys(rules)
    value = {key: found.values[i] for i, key in enumerate(keys)}
    reports = {report.size: report for report in found.sizes}
    checked = 0
    for i, key in enumerate(keys):
        report = reports[len(key)]
        coefficients = report.coefficients
        if len(key) == 1:
            prior = coefficients[0]
        else:
            x1 = sum(value[t] for t in key)
            prior = coefficients[0] + coefficients[1] * x1
            if len(key) > 2:
                pairs = itertools.combinations(key, 2)
                prior += coefficients[2] * sum(value[a + b] - value[a] - value[b] for a, b in pairs)
        n, m = seen[i], report.prior_weight
        exact_raw = sums[i] / n - 3000 if n else 0.0
        expected = (n * exact_raw + m * prior) / (n + m)
        # singles and pairs enter the prior rounded to hundredths here, exactly in the estimate
        assert abs(found.values[i] - expected) <= 1 + 2 * len(key) ** 2, key
        checked += 1
        if n >= 5000:
            assert abs(found.values[i] - raw.values[i]) < abs(raw.values[i] - prior) + 1
    assert checked == len(keys)
    assert all(r.fitted > 0 and r.prior_weight > 0 for r in found.sizes)


# ---- runs: determinism, resuming, bad checkpoints -----------------------------------------------------


def test_a_run_is_the_same_on_one_or_two_workers(tiny: tuple[str, str], tmp_path: Path) -> None:
    one = train.train(config(tiny), tmp_path / "one.leaves", workers=1)
    two = train.train(config(tiny), tmp_path / "two.leaves", workers=2)
    assert one.output.read_bytes() == two.output.read_bytes()
    assert [e["estimate"] for e in one.log] == [e["estimate"] for e in two.log]
    assert len(one.log) == 2 and all("evaluation" in e for e in one.log)
    evaluation = one.log[0]["evaluation"]
    assert evaluation["greedy"]["games"] == 20 and 0 <= evaluation["greedy"]["win_rate"]["value"] <= 1
    # generation 2 was trained with generation 1's table
    assert (tmp_path / "one.leaves.checkpoint" / "gen-02.leaves").read_bytes() == one.output.read_bytes()


def test_the_same_table_on_a_dask_cluster(tiny: tuple[str, str], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local = train.train(config(tiny, eval_games=0), tmp_path / "local.leaves", workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = train.train(
            config(tiny, eval_games=0), tmp_path / "dask.leaves", scheduler=cluster.scheduler_address
        )
    assert local.output.read_bytes() == remote.output.read_bytes()


def test_a_worker_lost_mid_run_costs_nothing(tiny: tuple[str, str], tmp_path: Path) -> None:
    """A Dask worker killed while the run goes on: its chunks are played again elsewhere and the
    table is the one a local run makes."""
    import os
    import signal

    distributed = pytest.importorskip("distributed")
    many = train.TrainConfig.create(tiny[0], tiny[1], 1, 2400, 5, 0)
    local = train.train(many, tmp_path / "local.leaves", workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            pids = sorted(client.run(os.getpid).values())
        killed = []

        def kill_one_worker(generation: int):
            def progress(done: int, total: int) -> None:
                if done and not killed:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(done)

            return progress

        remote = train.train(
            many, tmp_path / "dask.leaves", scheduler=cluster.scheduler_address, progress=kill_one_worker
        )
    assert killed and killed[0] < 2400
    assert local.output.read_bytes() == remote.output.read_bytes()


def test_an_unreachable_scheduler_is_a_clear_error(
    tiny: tuple[str, str], tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(train, "SCHEDULER_TIMEOUT", 1.0)
    with pytest.raises(train.TrainError, match="cannot reach the Dask scheduler"):
        train.train(config(tiny, eval_games=0), tmp_path / "x.leaves", scheduler="tcp://127.0.0.1:9")


def test_an_interrupted_run_resumes_to_the_same_table(tiny: tuple[str, str], tmp_path: Path) -> None:
    straight = train.train(config(tiny, eval_games=0), tmp_path / "straight.leaves", workers=1)
    out = tmp_path / "resumed.leaves"
    calls = []

    def interrupt_in_generation_2(generation: int):
        def progress(done: int, total: int) -> None:
            calls.append((generation, done))
            if generation == 2 and done >= train.CHUNK_GAMES:
                raise KeyboardInterrupt

        return progress

    with pytest.raises(train.TrainInterrupted, match="generation 2 after 200 of 450 games"):
        train.train(config(tiny, eval_games=0), out, workers=1, progress=interrupt_in_generation_2)
    meta = json.loads((tmp_path / "resumed.leaves.checkpoint" / "partial.json").read_text())
    assert meta["generation"] == 2 and meta["chunks"] == [0]
    resumed_from = []
    result = train.train(
        config(tiny, eval_games=0),
        out,
        workers=1,
        progress=lambda g: lambda done, total: resumed_from.append((g, done)),
    )
    assert resumed_from[0] == (2, 200)  # the finished chunk was not played again
    assert result.output.read_bytes() == straight.output.read_bytes()
    assert not (tmp_path / "resumed.leaves.checkpoint" / "partial.json").exists()
    # one more generation continues the run
    longer = train.train(config(tiny, generations=3, eval_games=0), out, workers=1)
    assert len(longer.log) == 3


def test_ctrl_c_in_the_command_saves_and_the_same_command_resumes(
    tiny: tuple[str, str], tmp_path: Path
) -> None:
    """A real SIGINT to `gaddag-solver train-leaves` on two worker processes: exit status 130, a
    message saying how to resume, the finished chunks kept; the rerun ends with the table of an
    uninterrupted run."""
    import re
    import signal
    import subprocess
    import sys
    import threading

    out = tmp_path / "cli.leaves"
    games = 8000
    argv = [sys.executable, "-m", "gaddag_solver", "train-leaves", "--lexicon", tiny[0], "--rules", tiny[1]]
    argv += [
        "--generations",
        "2",
        "--games",
        str(games),
        "--seed",
        "9",
        "--eval-games",
        "0",
        "--workers",
        "2",
    ]
    argv += ["-o", str(out), "--progress"]
    # the command as run in a terminal, where Ctrl-C interrupts it: not with the signal ignored, as
    # this process may have inherited it (a job started in the background by a shell ignores it)
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    err: list[str] = []
    in_generation_2 = threading.Event()
    started = re.compile(rf"generation 2 of 2: self-play\n.*?\] [1-9][0-9]*/{games} games", re.S)

    def read_progress() -> None:  # the bar: interrupt once generation 2 has finished a chunk
        while char := process.stderr.read(1):
            err.append(char)
            if not in_generation_2.is_set() and started.search("".join(err[-400:])):
                in_generation_2.set()

    reader = threading.Thread(target=read_progress)
    reader.start()
    assert in_generation_2.wait(timeout=120), "".join(err)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    reader.join(timeout=60)
    text = "".join(err)
    assert process.returncode == 130, text
    assert "the checkpoint is saved: run the same command to resume" in text and "Traceback" not in text
    meta = json.loads((train.checkpoint_dir(out) / "partial.json").read_text())
    assert meta["generation"] == 2 and 0 < len(meta["chunks"]) < len(train.chunk_ranges(games))
    resumed = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    straight = train.train(
        train.TrainConfig.create(tiny[0], tiny[1], 2, games, 9, 0), tmp_path / "s.leaves", workers=1
    )
    assert out.read_bytes() == straight.output.read_bytes()


def test_bad_checkpoints_and_other_runs_are_refused(tiny: tuple[str, str], tmp_path: Path) -> None:
    out = tmp_path / "t.leaves"
    train.train(config(tiny, generations=1, eval_games=0), out, workers=1)
    with pytest.raises(train.TrainError, match="holds another run .*--restart"):
        train.train(config(tiny, generations=1, games=300, eval_games=0), out, workers=1)
    folder = train.checkpoint_dir(out)
    (folder / "gen-01.leaves").write_bytes(b"\x89LEAVES\nnot really")
    with pytest.raises(train.TrainError, match="damaged"):
        train.train(config(tiny, generations=2, eval_games=0), out, workers=1)
    (folder / "run.json").write_text("{not json")
    with pytest.raises(train.TrainError, match="not a readable checkpoint"):
        train.train(config(tiny, generations=2, eval_games=0), out, workers=1)
    fresh = train.train(config(tiny, generations=1, eval_games=0), out, workers=1, restart=True)
    assert len(fresh.log) == 1
    with pytest.raises(train.TrainError, match="generations must be at least 1"):
        config(tiny, generations=0)


def test_ctrl_c_while_the_table_is_estimated_keeps_the_games(
    tiny: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The estimate takes seconds a generation: Ctrl-C then is the usual message, with the
    generation's statistics saved, and the resumed run plays nothing again."""
    straight = train.train(config(tiny, generations=1, eval_games=0), tmp_path / "s.leaves", workers=1)
    out = tmp_path / "r.leaves"

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    real = train.estimate
    monkeypatch.setattr(train, "estimate", interrupted)
    with pytest.raises(
        train.TrainInterrupted,
        match=r"^interrupted in generation 1 while estimating its table; the checkpoint is saved: run",
    ):
        train.train(config(tiny, generations=1, eval_games=0), out, workers=1)
    meta = json.loads((train.checkpoint_dir(out) / "partial.json").read_text())
    assert meta["generation"] == 1 and meta["chunks"] == [0, 1, 2] and meta["games"] == 450
    monkeypatch.setattr(train, "estimate", real)
    played = []
    resumed = train.train(
        config(tiny, generations=1, eval_games=0),
        out,
        workers=2,
        progress=lambda g: lambda done, total: played.append((g, done)),
    )
    assert played == [(1, 450)]  # the games were all there
    assert resumed.output.read_bytes() == straight.output.read_bytes()


@pytest.fixture(scope="module")
def half_trained(tiny: tuple[str, str], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A checkpoint interrupted in generation 1 after two of its three chunks (its folder), and
    the table an uninterrupted run makes."""
    folder = tmp_path_factory.mktemp("half")
    straight = train.train(config(tiny, generations=1, eval_games=0), folder / "s.leaves", workers=1)

    def stop_after_two_chunks(generation: int):
        def progress(done: int, total: int) -> None:
            if done >= 2 * train.CHUNK_GAMES:
                raise KeyboardInterrupt

        return progress

    with pytest.raises(train.TrainInterrupted):
        train.train(
            config(tiny, generations=1, eval_games=0),
            folder / "h.leaves",
            workers=1,
            progress=stop_after_two_chunks,
        )
    return train.checkpoint_dir(folder / "h.leaves"), straight.output.read_bytes()


def _forged(meta: dict, data: bytes, **fields: object) -> dict:
    """partial.json with ``fields`` changed and the checksum made to match again."""
    forged = {**meta, **fields}
    forged["checksum"] = train._partial_checksum(
        data, forged["generation"], forged["table"], forged["chunks"], forged["games"]
    )
    return forged


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda meta, data: {**meta, "chunks": [-1]}, "checksum"),
        (lambda meta, data: {**meta, "chunks": ["a"]}, "not a list of chunk numbers"),
        (lambda meta, data: {**meta, "chunks": [0, 1, 2]}, "checksum"),  # every chunk: 400 games as 450
        (lambda meta, data: {**meta, "chunks": None}, "not a list of chunk numbers"),
        (lambda meta, data: {**meta, "chunks": [True, 1]}, "not a list of chunk numbers"),
        (lambda meta, data: _forged(meta, data, chunks=[0, 7], games=400), "outside 0..2"),
        (lambda meta, data: _forged(meta, data, chunks=[-1, 0], games=400), "outside 0..2"),
        (lambda meta, data: _forged(meta, data, chunks=[0, 0], games=400), "without repeats"),
        (lambda meta, data: _forged(meta, data, chunks=[0, 1, 2], games=400), "the chunks listed hold 450"),
        (lambda meta, data: {k: v for k, v in meta.items() if k != "checksum"}, "checksum"),
        (lambda meta, data: {**meta, "format": 1}, "not a format-2 partial.json"),
        (lambda meta, data: [meta], "not a format-2 partial.json"),
        (lambda meta, data: "[" * 100_000 + "]" * 100_000, "nest|recursion|depth"),
    ],
)
def test_a_partial_checkpoint_that_does_not_check_out_is_refused(
    tiny: tuple[str, str], half_trained: tuple[Path, bytes], tmp_path: Path, change, message: str
) -> None:
    import shutil

    folder = tmp_path / "t.leaves.checkpoint"
    shutil.copytree(half_trained[0], folder)
    meta_path = folder / "partial.json"
    meta = json.loads(meta_path.read_text())
    assert meta["chunks"] == [0, 1] and meta["games"] == 400
    changed = change(meta, (folder / "partial.stats").read_bytes())
    meta_path.write_text(changed if isinstance(changed, str) else json.dumps(changed))
    with pytest.raises(
        train.TrainError, match=rf"partial\.json: a damaged checkpoint \(.*({message}).*\); pass --restart$"
    ):
        train.train(config(tiny, generations=1, eval_games=0), tmp_path / "t.leaves", workers=1)
    meta_path.write_text(json.dumps(meta))  # as it was: it resumes to the uninterrupted run's table
    assert (
        train.train(
            config(tiny, generations=1, eval_games=0), tmp_path / "t.leaves", workers=1
        ).output.read_bytes()
        == half_trained[1]
    )


def test_statistics_that_do_not_match_the_chunk_list_are_refused(
    tiny: tuple[str, str], half_trained: tuple[Path, bytes], tmp_path: Path
) -> None:
    import shutil

    folder = tmp_path / "t.leaves.checkpoint"
    shutil.copytree(half_trained[0], folder)
    stats = bytearray((folder / "partial.stats").read_bytes())
    stats[-1] ^= 1
    (folder / "partial.stats").write_bytes(bytes(stats))
    with pytest.raises(train.TrainError, match=r"do not match their checksum\); pass --restart$"):
        train.train(config(tiny, generations=1, eval_games=0), tmp_path / "t.leaves", workers=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda doc: {**doc, "generations": [{}]}, r"generations\[0\]: not generation 1's entry"),
        (lambda doc: {**doc, "generations": {}}, "generations: not a list"),
        (lambda doc: {**doc, "generations": None}, "generations: not a list"),
        (
            lambda doc: {**doc, "config": {**doc["config"], "games": "450"}},
            r"config\.games: '450' is not a whole number",
        ),
        (
            lambda doc: {**doc, "config": {**doc["config"], "smooth": 1}},
            r"config\.smooth: 1 is not true or false",
        ),
        (lambda doc: {**doc, "config": None}, "config: not a training configuration"),
        (lambda doc: [doc], "not a format-1 run.json"),
        (lambda doc: "{" * 50_000, "nest|recursion|depth|Expecting"),
        (lambda doc: "[" * 100_000 + "]" * 100_000, "nest|recursion|depth"),
    ],
)
def test_a_run_log_that_does_not_check_out_is_refused(
    tiny: tuple[str, str], tmp_path: Path, change, message: str
) -> None:
    out = tmp_path / "t.leaves"
    train.train(config(tiny, generations=1, games=200, eval_games=4), out, workers=1)
    run_file = train.checkpoint_dir(out) / "run.json"
    document = json.loads(run_file.read_text())
    changed = change(document)
    run_file.write_text(changed if isinstance(changed, str) else json.dumps(changed))
    with pytest.raises(
        train.TrainError,
        match=rf"run\.json: not a readable checkpoint \(.*({message}).*\); .*pass --restart$",
    ):
        train.train(config(tiny, generations=2, games=200, eval_games=4), out, workers=1)


def test_a_run_log_entry_missing_a_figure_is_refused(tiny: tuple[str, str], tmp_path: Path) -> None:
    out = tmp_path / "t.leaves"
    train.train(config(tiny, generations=1, games=200, eval_games=4), out, workers=1)
    run_file = train.checkpoint_dir(out) / "run.json"
    document = json.loads(run_file.read_text())
    del document["generations"][0]["evaluation"]["greedy"]["win_rate"]["low"]
    run_file.write_text(json.dumps(document))
    with pytest.raises(train.TrainError, match=r"evaluation\.greedy\.win_rate: not an interval"):
        train.train(config(tiny, generations=2, games=200, eval_games=4), out, workers=1)


def test_a_lexicon_for_other_rules_is_refused(tiny: tuple[str, str]) -> None:
    with pytest.raises(train.TrainError):
        train.TrainConfig.create(tiny[0], "russian", 1, 10, 1)


# ---- the commands ------------------------------------------------------------------------------------


def test_train_leaves_command(
    tiny: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cli.leaves"
    argv = ["train-leaves", "--lexicon", tiny[0], "--rules", tiny[1], "--generations", "1", "--games", "200"]
    assert main([*argv, "--seed", "3", "--eval-games", "10", "--workers", "1", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "generation 1: 200 games" in printed and "vs greedy" in printed and f"wrote {out}" in printed
    table = Leaves.load(out, Rules.load(tiny[1]))
    assert len(table) == len(entry_keys(Rules.load(tiny[1])))
    assert (
        main(["train-leaves", "--rules", tiny[1], "--lexicon", tiny[0], "--games", "0", "-o", str(out)]) == 2
    )
    assert "--games must be at least 1" in capsys.readouterr().err


def test_leaves_command_shows_values(
    tiny: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Rules.load(tiny[1])
    table = Leaves.from_function(rules, lambda leave: 2.0 * leave.count("S") - 0.5 * len(leave))
    path = tmp_path / "t.leaves"
    table.save(path)
    assert main(["leaves", "--leaves", str(path), "--rules", tiny[1], "ss", "TA"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == ["SS\t+3.00", "AT\t-1.00"]
    assert main(["leaves", "--leaves", str(path), "--rules", tiny[1], "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 tile (8): best S +1.50" in out and "4 tiles" in out
    assert main(["leaves", "--leaves", str(path), "--rules", tiny[1], "QQ"]) == 2
    assert "QQ" in capsys.readouterr().err
    assert main(["leaves", "info", str(path), "--rules", tiny[1]]) == 0
    assert "entries" in capsys.readouterr().out


def test_unknown_leave_table_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaves", "--leaves", "no-such-table", "AE"]) == 2
    assert "no leave table 'no-such-table'" in capsys.readouterr().err
    with pytest.raises(LeavesError):
        Leaves.load("no-such-table", ENGLISH)


def test_a_ctrl_c_during_a_merge_waits_for_the_chunk_to_be_recorded(tmp_path: Path) -> None:
    """Ctrl-C arriving while a chunk's statistics are merged (a call into C, after which Python raises
    it at once) must not leave the checkpoint holding the statistics without the chunk."""
    import os
    import signal

    partial = train._Partial(tmp_path, 1, b"table", 4, train.chunk_ranges(800))
    merged: list[object] = []

    class MergedUnderCtrlC:
        def merge(self, other: object) -> None:
            os.kill(os.getpid(), signal.SIGINT)  # delivered while the merge runs
            merged.append(other)

    partial.stats = MergedUnderCtrlC()  # type: ignore[assignment]
    # as in a terminal: this process may have inherited the signal ignored (a background job does)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            partial.add(3, core.RackStats(4).to_bytes())
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert len(merged) == 1 and partial.done == {3}  # raised once the chunk was recorded with its statistics


def test_the_table_is_written_whole_with_nothing_left_beside_it(tmp_path: Path) -> None:
    """The final table (and run.json) go through file_io.atomic_write: no OUT.tmp stays behind,
    and a failed write names the file."""
    out = tmp_path / "t.leaves"
    train._write_atomic(out, b"table")
    assert out.read_bytes() == b"table" and sorted(p.name for p in tmp_path.iterdir()) == ["t.leaves"]
    (tmp_path / "folder.leaves").mkdir()
    with pytest.raises(OSError, match="folder.leaves"):
        train._write_atomic(tmp_path / "folder.leaves", b"table")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.leaves", "t.leaves"]
