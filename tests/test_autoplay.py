"""Self-play: determinism across workers and on a Dask cluster, the statistics against a
recomputation from the games themselves, the interval formulas against textbook values, GCG
export read back, the ctypes binding against cffi, and the autoplay command end to end.

Games are played on SOWPODS (the built lexicon; missing, the tests fail rather than skip), a
few dozen at a time."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Rules
from gaddag_solver import _core_api as core
from gaddag_solver.cli import main
from gaddag_solver.formats.gcg import format_gcg
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game import autoplay
from gaddag_solver.game.autoplay import AutoplayError, Match, PlayerSpec, pair_seed, run_autoplay
from gaddag_solver.game.stats import mean_interval, t95, wilson
from gaddag_solver.lexicons import resolve_lexicon

ROOT = Path(__file__).resolve().parent.parent
GAMES = 40
SEED = 2026
RULES = Rules.load("english")


@pytest.fixture(scope="module")
def match() -> Match:
    return Match.create(resolve_lexicon("sowpods"), "english", [PlayerSpec("equity"), PlayerSpec("greedy")])


@pytest.fixture(scope="module")
def run_one(match: Match) -> autoplay.AutoplayRun:
    """GAMES games in this process, every game kept."""
    return run_autoplay(match, GAMES, SEED, workers=1, keep_games=True)


# ---- the statistics -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [  # R. G. Newcombe, Statistics in Medicine 17:857-872 (1998), Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_newcombe(successes: int, n: int, low: float, high: float) -> None:
    interval = wilson(successes, n)
    assert interval.value == successes / n
    assert round(interval.low, 4) == low and round(interval.high, 4) == high


def test_t_critical_values_and_mean_interval() -> None:
    # two-sided 95% points of Student's t (any table)
    for df, value in [(1, 12.706), (9, 2.262), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980)]:
        assert t95(df) == pytest.approx(value, abs=6e-4)
    interval = mean_interval([float(x) for x in range(1, 11)])  # mean 5.5, sd sqrt(55/6)
    assert interval.value == 5.5
    assert interval.half_width == pytest.approx(2.262 * math.sqrt(55 / 6) / math.sqrt(10))
    with pytest.raises(ValueError):
        wilson(3, 2)


# ---- seeds, chunks, players -----------------------------------------------------------------------


def test_pair_seeds_and_chunks() -> None:
    assert pair_seed(1, 0) == pair_seed(1, 0) != pair_seed(1, 1) != pair_seed(2, 1)
    assert len({pair_seed(0, k) for k in range(1000)}) == 1000
    for games, workers in [(1, 1), (7, 2), (40, 2), (1001, 16)]:
        ranges = autoplay.chunks(games, workers)
        assert [i for start, stop in ranges for i in range(start, stop)] == list(range(games))
        assert all(start % 2 == 0 for start, _ in ranges)  # a pair is never split


def test_player_specs() -> None:
    assert PlayerSpec.parse("greedy") == PlayerSpec("greedy")
    assert PlayerSpec.parse(" Equity ") == PlayerSpec("equity")
    assert PlayerSpec.parse("equity-pass0") == PlayerSpec("equity-pass0")
    for bad, message in [
        ("champion", "unknown player 'champion'"),
        ("equity:", "name the leave table"),
        ("greedy:x", "only an equity, endgame, endgame-only or equity-pass0 player"),
        ("equity:/no/such/leaves.klv", "leave table"),
    ]:
        with pytest.raises(AutoplayError, match=message):
            PlayerSpec.parse(bad)


# ---- playing -----------------------------------------------------------------------------------------


def test_games_are_whole_and_consistent(run_one: autoplay.AutoplayRun) -> None:
    for record in run_one.records:
        game = record.game
        assert game is not None and game.turns
        assert game.turns[0].player == 0
        last = [0, 0]
        for turn in game.turns:
            assert turn.total == last[turn.player] + turn.score
            last[turn.player] = turn.total
            if turn.kind == core.lib.GD_PLAY:
                assert 1 <= turn.tiles_placed <= 7 and turn.score > 0
                assert sum(1 for c in turn.word if not c & 64) == turn.tiles_placed
            else:
                assert turn.score == 0
        for seat in (0, 1):
            assert game.scores[seat] == last[seat] + game.end_adjustments[seat]
        # mirrored pairs: the same bag, so the same first rack, seats swapped
        if record.index % 2:
            twin = run_one.records[record.index - 1]
            assert twin.seed == record.seed and twin.first == 0 and record.first == 1
            assert twin.game is not None and twin.game.turns[0].rack == game.turns[0].rack


def test_same_seed_same_results_with_one_and_two_workers(match: Match, run_one: autoplay.AutoplayRun) -> None:
    run_two = run_autoplay(match, GAMES, SEED, workers=2, keep_games=True)
    assert run_two.workers == 2
    assert run_two.summary == run_one.summary
    assert run_two.records == run_one.records
    assert [r.game for r in run_two.records] == [r.game for r in run_one.records]
    other = run_autoplay(match, GAMES, SEED + 1, workers=1)
    assert other.summary != run_one.summary


def test_summary_equals_a_recomputation_from_the_games(run_one: autoplay.AutoplayRun) -> None:
    """The oracle: every figure from the seat-by-seat games, with textbook formulas."""
    summary = run_one.summary
    n = len(run_one.records)
    assert summary.games == n == GAMES and summary.seed == SEED
    scores: list[tuple[int, int]] = []
    bingos = [0, 0]
    turns = 0
    for record in run_one.records:
        game = record.game
        assert game is not None
        seats = (record.first, 1 - record.first)  # seats[player]
        scores.append((game.scores[seats[0]], game.scores[seats[1]]))
        turns += len(game.turns)
        for turn in game.turns:
            if turn.kind == core.lib.GD_PLAY and turn.tiles_placed == RULES.rack_size:
                bingos[seats.index(turn.player)] += 1
    assert summary.turns_per_game == turns / n
    t_games, t_pairs = 2.0227, 2.0930  # t for 39 and 19 degrees of freedom
    for player, stats in enumerate(summary.players):
        mine = [s[player] for s in scores]
        spreads = [s[player] - s[1 - player] for s in scores]
        wins = sum(1 for d in spreads if d > 0)
        draws = spreads.count(0)
        assert (stats.wins, stats.draws, stats.losses) == (wins, draws, n - wins - draws)
        p = (wins + draws / 2) / n
        z = 1.959964
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        assert stats.win_rate.value == pytest.approx(p)
        assert stats.win_rate.low == pytest.approx(max(0, centre - half), abs=1e-6)
        assert stats.win_rate.high == pytest.approx(min(1, centre + half), abs=1e-6)
        mean = sum(mine) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in mine) / (n - 1))
        assert stats.mean_score.value == pytest.approx(mean)
        assert stats.mean_score.half_width == pytest.approx(t_games * sd / math.sqrt(n), rel=1e-3)
        pair_means = [(spreads[i] + spreads[i + 1]) / 2 for i in range(0, n, 2)]
        pm = sum(pair_means) / len(pair_means)
        psd = math.sqrt(sum((x - pm) ** 2 for x in pair_means) / (len(pair_means) - 1))
        assert stats.mean_spread.value == pytest.approx(sum(spreads) / n)
        assert stats.mean_spread.half_width == pytest.approx(t_pairs * psd / math.sqrt(n // 2), rel=1e-3)
        assert stats.bingos_per_game == bingos[player] / n
    assert summary.players[0].wins == summary.players[1].losses


def test_dask_local_cluster_gives_the_local_results(match: Match, run_one: autoplay.AutoplayRun) -> None:
    import distributed  # the test extra installs it: a missing Dask fails, never skips

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        run = run_autoplay(match, GAMES, SEED, scheduler=cluster.scheduler_address, keep_games=True)
    assert run.workers == 0
    assert run.summary == run_one.summary
    assert [r.game for r in run.records] == [r.game for r in run_one.records]


def test_an_unreachable_scheduler_is_a_clear_error(match: Match) -> None:
    with pytest.raises(AutoplayError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        run_autoplay(match, 2, scheduler="tcp://127.0.0.1:9", scheduler_timeout=1)


def test_ctypes_binding_plays_the_same_games(run_one: autoplay.AutoplayRun, ctypes_library: Path) -> None:
    script = (
        "from gaddag_solver.game import autoplay as a\n"
        "from gaddag_solver._binding import BINDING\n"
        "m = a.Match.create('sowpods', 'english', [a.PlayerSpec('equity'), a.PlayerSpec('greedy')])\n"
        f"run = a.run_autoplay(m, 6, {SEED}, workers=1, keep_games=True)\n"
        "print(BINDING)\n"
        "print(repr([r.game for r in run.records]))\n"
    )
    env = dict(os.environ, GADDAG_SOLVER_BINDING="ctypes", GADDAG_SOLVER_CTYPES_LIB=str(ctypes_library))
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    binding, games = result.stdout.splitlines()
    assert binding == "ctypes"
    assert games == repr([r.game for r in run_one.records[:6]])


def test_an_all_zero_leave_table_plays_as_no_table(match: Match, tmp_path: Path) -> None:
    """equity:TABLE reaches the core: a table of zeros must play the games of plain equity."""
    path = tmp_path / "zero.leaves"
    Leaves.zero(RULES).save(path)
    with_table = Match.create(
        match.lexicon, "english", [PlayerSpec.parse(f"equity:{path}"), PlayerSpec("greedy")]
    )
    assert with_table.players[0].leaves == str(path.resolve()) and with_table.names[0] == "equity:zero"
    expected = run_autoplay(match, 6, SEED, workers=1, keep_games=True)
    run = run_autoplay(with_table, 6, SEED, workers=1, keep_games=True)
    assert [r.game for r in run.records] == [r.game for r in expected.records]


# ---- GCG -------------------------------------------------------------------------------------------------

EVENT = re.compile(
    r">(\S+): (\S+|\(\S*\)) (?:(\d+[A-Z]+|[A-Z]+\d+) (\S+)|-(\S*)|(?=[+-]\d)) ?([+-]\d+) (-?\d+)$"
)


def read_gcg(text: str) -> tuple[list[str], dict[str, list[int]], list[str]]:
    """A tiny GCG reader: the nicknames, each player's points events and their stated totals
    checked against the running sum, and the words played."""
    lines = text.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    nicks = [lines[1].split()[1], lines[2].split()[1]]
    assert lines[1].startswith("#player1 ") and lines[2].startswith("#player2 ")
    totals: dict[str, list[int]] = {nick: [0] for nick in nicks}
    words = []
    for line in lines[3:]:
        if line.startswith("#"):
            continue
        match = EVENT.match(line)
        assert match, line
        nick, _rack, _coord, word, _exchanged, points, total = match.groups()
        running = totals[nick]
        running.append(running[-1] + int(points))
        assert running[-1] == int(total), line
        if word:
            words.append(word)
    return nicks, totals, words


def test_gcg_export_sums_to_the_final_scores(run_one: autoplay.AutoplayRun, match: Match) -> None:
    ends = 0
    for record in run_one.records[:10]:
        game = record.game
        assert game is not None
        names = match.names if record.first == 0 else match.names[::-1]
        text = format_gcg(game, RULES, names)
        nicks, totals, words = read_gcg(text)
        assert nicks == list(names)
        assert [totals[nick][-1] for nick in nicks] == list(game.scores)
        assert len(words) == sum(1 for t in game.turns if t.kind == core.lib.GD_PLAY)
        assert all(re.fullmatch(r"[A-Za-z.]+", word) and word.strip(".") for word in words)
        ends += text.count(": (")
    assert ends > 0  # the end-of-game rack lines are there


def test_gcg_coordinates() -> None:
    from gaddag_solver.formats.gcg import coordinate

    assert coordinate(7, 3, 0) == "8D" and coordinate(7, 3, 1) == "D8" and coordinate(0, 14, 1) == "O1"


# ---- the command ---------------------------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["autoplay", "--lexicon", "sowpods", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_end_to_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, run_one: autoplay.AutoplayRun
) -> None:
    summary_file = tmp_path / "summary.json"
    code, out, err = cli(
        capsys, "--players", "equity,greedy", "--games", "6", "--seed", str(SEED), "--workers", "1",
        "--gcg-dir", str(tmp_path / "games"), "--json", str(summary_file),
    )  # fmt: skip
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    header, first, second, pace = out.strip().splitlines()
    assert header.split()[:4] == ["player", "wins", "draws", "losses"]
    assert first.startswith("equity ") and second.startswith("greedy ")
    assert re.match(
        r"6 games \(seed 2026\), [\d.]+ turns per game, [\d.]+ s: [\d.]+ games/s \(1 worker\)", pace
    )
    summary = json.loads(summary_file.read_text())
    assert summary["games"] == 6 and summary["players"][0]["kind"] == "equity"
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files] == [f"game-{i}.gcg" for i in range(6)]
    for path, record in zip(files, run_one.records, strict=False):
        _, totals, _ = read_gcg(path.read_text())
        assert record.game is not None
        assert [t[-1] for t in totals.values()] == list(record.game.scores)
    code, _, err = cli(capsys, "--players", "greedy,greedy", "--games", "2", "--workers", "1", "--progress")
    assert code == 0 and "2/2 games" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "equity,wizard"], "unknown player 'wizard'"),
        (["--players", "equity"], "--players names two players"),
        (["--players", "equity:/no/such/table.klv,greedy"], "leave table"),
        (["--games", "0"], "--games must be at least 1, not 0"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--rules", "klingon"], "unknown ruleset 'klingon'"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err, err


def test_cli_unreachable_scheduler(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(autoplay, "SCHEDULER_TIMEOUT", 1.0)
    code, out, err = cli(capsys, "--games", "2", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and out == ""
    assert "error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in err
