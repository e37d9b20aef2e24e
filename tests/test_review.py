"""Reviewing games: each turn against a recomputation through the public solver API (every move
of the position, ranked by equity), self-played games as an oracle (the core's equity player
with a table never loses equity by that table; the greedy player always plays the top score),
the summary against the turns, the batch on one process, two processes and a Dask LocalCluster
giving the same records, a bad file in a batch reported while the rest is reviewed, and the
command line. The review by simulation against simulate() run directly on Replay.game_at with
candidates picked through solve(), and on a position whose best play is forced."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from gaddag_solver import Lexicon, Rules, solve
from gaddag_solver.cli import main
from gaddag_solver.formats.gcg import GcgError
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.autoplay import Match, PlayerSpec, game_gcg, run_autoplay
from gaddag_solver.game.replay import Replay
from gaddag_solver.game.review import (
    ReviewError,
    ReviewSpec,
    SimSettings,
    find_games,
    review_file,
    review_files,
    review_replay,
)
from gaddag_solver.game.simulate import simulate
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.move import PASS, PLAY, Move

DATA = Path(__file__).resolve().parent / "data" / "gcg"
QUACKLE = DATA / "quackle_boys_2006.gcg"
CLUB = DATA / "club_night.gcg"
RULES = Rules.load("english")
GAMES = 6


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load("sowpods", RULES)


@pytest.fixture(scope="module")
def self_played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """GAMES games between the equity player (the sowpods table) and greedy, as GCG files."""
    match = Match.create(
        resolve_lexicon("sowpods"), "english", [PlayerSpec.parse("equity:sowpods"), PlayerSpec("greedy")]
    )
    run = run_autoplay(match, GAMES, seed=7, workers=1, keep_games=True)
    folder = tmp_path_factory.mktemp("games")
    for record in run.records:
        (folder / f"game-{record.index}.gcg").write_text(game_gcg(record, match, RULES), encoding="utf-8")
    return folder


def moves_of(turn, lexicon: Lexicon, leaves: Leaves | None):
    """Every move of the turn's position by equity, through the public solve()."""
    return solve(turn.board, turn.rack, lexicon, RULES, leaves=leaves, exchanges=True)


# ---- one game against a recomputation ---------------------------------------------------------------


def test_each_turn_matches_the_solver(twl06: Lexicon, leaves: Leaves) -> None:
    replay = Replay.load(QUACKLE, twl06)
    review = review_replay(replay, leaves, "sowpods")
    assert len(review.turns) == 15 and review.skipped == []
    for reviewed, turn in zip(review.turns, replay.turns, strict=True):
        moves = moves_of(turn, twl06, leaves)
        assert turn.move is not None
        made = [m for m in moves if m.kind == PLAY and (m.coord, m.word) == (turn.move.coord, turn.move.word)]
        assert len(made) == 1
        equity = made[0].equity
        assert equity is not None and moves[0].equity is not None
        assert reviewed.played_equity == pytest.approx(equity)
        assert reviewed.best_equity == pytest.approx(moves[0].equity)
        assert reviewed.equity_lost == pytest.approx(moves[0].equity - equity)
        assert reviewed.rank == 1 + sum(1 for m in moves if m.equity > equity)
        assert reviewed.moves == len(moves)
        bingos = [m for m in moves if m.kind == PLAY and len(m.tiles) == RULES.rack_size]
        assert reviewed.bingo_available == bool(bingos)
        assert reviewed.bingo_played == (len(turn.move.tiles) == RULES.rack_size)
        assert reviewed.played_score == turn.event.score
    for player in review.players:
        mine = [t for t in review.turns if t.player == player.player]
        assert player.turns == len(mine)
        assert player.equity_lost == pytest.approx(sum(t.equity_lost for t in mine))
        assert player.bingos_missed == sum(1 for t in mine if t.bingo_available and not t.bingo_played)
        assert player.best_found == sum(1 for t in mine if t.equity_lost == 0)
    assert [p.score for p in review.players] == [332, 265]
    lost = sorted((t.equity_lost for t in review.turns if t.equity_lost > 0), reverse=True)
    assert [t.equity_lost for t in review.mistakes()] == lost[:5]


def test_without_a_table_equity_is_the_score(twl06: Lexicon) -> None:
    replay = Replay.load(QUACKLE, twl06)
    review = review_replay(replay, None)
    for reviewed, turn in zip(review.turns, replay.turns, strict=True):
        best = max(m.score for m in solve(turn.board, turn.rack, twl06, RULES) if m.kind == PLAY)
        assert reviewed.best_equity == best
        assert reviewed.played_equity == turn.event.score


def test_withdrawn_phony_is_valued_as_the_pass_and_unknown_exchange_skipped(
    sowpods: Lexicon, leaves: Leaves
) -> None:
    replay = Replay.load(CLUB, sowpods)
    review = review_replay(replay, leaves, "sowpods")
    by_line = {t.line: t for t in review.turns}
    phony = by_line[14]
    turn = replay.turns[2]
    moves = moves_of(turn, sowpods, leaves)
    passing = [m for m in moves if m.kind == "pass"]
    assert phony.played_equity == pytest.approx(passing[0].equity)
    assert phony.played_kind == "pass" and phony.played == "10G TEVL" and "withdrawn" in phony.note
    assert phony.rank == 1 + sum(1 for m in moves if m.equity > passing[0].equity)
    assert review.skipped == [(16, "Zoë", "the tiles exchanged are not shown")]
    assert sorted(by_line) == [10, 13, 14, 17, 19]


def test_phony_kept_is_valued_as_score_plus_leave(twl06: Lexicon, leaves: Leaves) -> None:
    lines = QUACKLE.read_text().splitlines()[:7]
    lines.append(">Quackle: BDEGMNP  7e   BEDIN  +26   66")  # BEDIN: not a word, and it stood
    replay = Replay.from_text("\n".join(lines) + "\n", twl06)
    assert replay.turns[-1].phonies
    review = review_replay(replay, leaves, "sowpods")
    phony = review.turns[-1]
    assert phony.line == 8
    assert phony.played_equity == pytest.approx(26 + leaves.value("GMP"))
    assert "phony" in phony.note
    moves = moves_of(replay.turns[-1], twl06, leaves)
    assert phony.rank == 1 + sum(1 for m in moves if m.equity > phony.played_equity)


def test_exchange_the_bag_did_not_allow(self_played: Path, sowpods: Lexicon, leaves: Leaves) -> None:
    path = self_played / "game-0.gcg"
    replay = Replay.load(path, sowpods)
    late = next(t for t in replay.turns if t.kind == PLAY and 0 < t.unseen().bag < RULES.exchange_minimum)
    assert late.rack is not None
    lines = path.read_text().splitlines()
    tile = late.rack.tiles[0]
    lines[late.line - 1] = f">{late.nick}: {late.event.rack} -{tile} +0 {late.scores[late.player]}"
    changed = Replay.from_text("\n".join(lines) + "\n", sowpods)
    bag = late.unseen().bag
    assert f"line {late.line}: {late.nick}: an exchange with {bag} tiles in the bag (at least 7)" in [
        str(w) for w in changed.warnings
    ]
    review = review_replay(changed, leaves, "sowpods")
    reviewed = next(t for t in review.turns if t.line == late.line)
    kept = list(late.rack.tiles)
    kept.remove(tile)
    assert reviewed.played_equity == pytest.approx(leaves.value("".join(kept)))
    assert reviewed.note == f"exchange {tile} is not allowed with {bag} tiles in the bag: valued by its leave"


def test_a_partial_rack_is_not_reviewed(twl06: Lexicon) -> None:
    lines = QUACKLE.read_text().splitlines()[:7]
    lines[6] = ">David: EDYEIG?   h2  rEDYEING        +64   64"
    lines.append(">Quackle: BEDIM  7e   BEDIM  +26   66")  # only the tiles played
    lines.append(">David:  j1  HEALERS  +75  139")  # no rack at all
    review = review_replay(Replay.from_text("\n".join(lines) + "\n", twl06), None)
    assert review.skipped == [
        (8, "Quackle", "the rack BEDIM is not the whole rack"),
        (9, "David", "the rack is not recorded"),
    ]
    assert [t.line for t in review.turns] == [6, 7]


# ---- self-play as the oracle -----------------------------------------------------------------------------


def test_equity_player_loses_nothing_and_greedy_plays_the_top_score(
    self_played: Path, sowpods: Lexicon, leaves: Leaves
) -> None:
    greedy_turns = 0
    for path in sorted(self_played.glob("*.gcg")):
        replay = Replay.load(path, sowpods)
        assert replay.warnings == []
        review = review_replay(replay, leaves, "sowpods")
        assert review.skipped == []
        equity_seat = [seat for seat, (nick, _) in enumerate(replay.players) if nick.startswith("equity")][0]
        for reviewed, turn in zip(
            review.turns, [t for t in replay.turns if t.kind in ("play", "exchange", "pass")], strict=True
        ):
            assert reviewed.note == ""  # every move made, exchanges and passes too, found among the moves
            if reviewed.player == equity_seat:
                assert reviewed.equity_lost == 0, (path.name, reviewed)
                assert reviewed.rank == 1
            elif reviewed.played_kind == PLAY:
                greedy_turns += 1
                top = max(m.score for m in solve(turn.board, turn.rack, sowpods, RULES))
                assert reviewed.played_score == top
        assert review.players[equity_seat].equity_lost == 0
    assert greedy_turns > 10 * GAMES


# ---- many games ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def batch_folder(self_played: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The self-played games, a file that is not GCG and a truncated one."""
    folder = tmp_path_factory.mktemp("batch")
    for path in self_played.glob("*.gcg"):
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "broken.gcg").write_bytes(b"\x00\x01 not a game")
    text = (self_played / "game-0.gcg").read_text().splitlines()
    cut = next(i for i, line in enumerate(text) if line.startswith(">")) + 6  # six events, then a cut one
    (folder / "truncated.gcg").write_text("\n".join(text[:cut]) + "\n" + text[cut][:12] + "\n")
    return folder


def test_batch_reports_a_bad_file_and_reviews_the_rest(batch_folder: Path) -> None:
    paths = find_games(str(batch_folder))
    assert len(paths) == GAMES + 2
    results = review_files(paths, ReviewSpec(None, "sowpods"), workers=1)
    assert [r.path for r in results] == paths
    failed = [r for r in results if r.error is not None]
    assert [Path(r.path).name for r in failed] == ["broken.gcg"]
    assert failed[0].records == [
        {"type": "error", "file": failed[0].path, "error": f"{failed[0].path}: not a GCG file (binary data)"}
    ]
    truncated = next(r for r in results if r.path.endswith("truncated.gcg"))
    assert truncated.error is None and truncated.warnings == 1
    turns = [r for r in truncated.records if r["type"] == "turn"]
    assert len(turns) == 6  # the six whole events; the seventh is cut
    for result in results:
        if result.error is None:
            kinds = [record["type"] for record in result.records]
            assert kinds[-2:] == ["player", "player"] and set(kinds[:-2]) <= {"turn"}


def records_everywhere(paths: list[str], spec: ReviewSpec) -> list[list[list[dict]]]:
    """The batch's records on one process, on two, and on a Dask LocalCluster of two."""
    import distributed  # the test extra installs it: a missing Dask fails, never skips

    one = review_files(paths, spec, workers=1)
    two = review_files(paths, spec, workers=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        dask = review_files(paths, spec, scheduler=cluster.scheduler_address)
    return [[r.records for r in results] for results in (one, two, dask)]


def test_batch_gives_the_same_records_everywhere(batch_folder: Path) -> None:
    records = records_everywhere(find_games(str(batch_folder)), ReviewSpec("sowpods", "sowpods"))
    assert records[0] == records[1] == records[2]
    assert sum(len(r) for r in records[0]) > GAMES * 20


def test_bad_names_fail_once_with_a_clear_message(batch_folder: Path) -> None:
    paths = find_games(str(batch_folder))
    with pytest.raises(ReviewError, match="lexicon 'nosuch'"):
        review_files(paths, ReviewSpec("nosuch"), workers=1)
    with pytest.raises(ReviewError, match="leave table 'nosuch'"):
        review_files(paths, ReviewSpec("sowpods", "nosuch"), workers=1)
    with pytest.raises(ReviewError, match="leave table 'nosuch'"):  # each file's lexicon: still once
        review_files(paths, ReviewSpec(None, "nosuch"), workers=1)
    with pytest.raises(ReviewError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        review_files(paths, ReviewSpec("sowpods"), scheduler="tcp://127.0.0.1:9", scheduler_timeout=1)


# ---- the command line ----------------------------------------------------------------------------------


def test_cli_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["review", str(QUACKLE), "--lexicon", "twl06", "--leaves", "sowpods", "--format", "json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    expected = review_file(QUACKLE, "twl06", "sowpods").to_dict()
    assert out == json.loads(json.dumps(expected))
    assert main(["review", str(QUACKLE), "--lexicon", "twl06", "--leaves", "sowpods"]) == 0
    table = capsys.readouterr().out
    assert "biggest mistakes:" in table and "4C WAILED" in table
    assert "lexicon twl06, leaves sowpods" in table


def test_cli_bad_input_is_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.gcg"
    bad.write_text("shopping list\n")
    assert main(["review", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {bad}: not a GCG file (no #pragma or >event line)\n"
    assert main(["review", str(tmp_path / "missing.gcg")]) == 1
    assert "missing.gcg" in capsys.readouterr().err
    assert main(["review", str(QUACKLE), "--lexicon", "nosuch"]) == 2
    assert "lexicon 'nosuch'" in capsys.readouterr().err
    assert main(["review"]) == 2
    with pytest.raises(GcgError):
        review_file(bad)


def test_cli_batch(batch_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "review.jsonl"
    status = main(
        [
            "review",
            "--batch",
            str(batch_folder / "*.gcg"),
            "--leaves",
            "sowpods",
            "--workers",
            "2",
            "-o",
            str(out),
        ]
    )
    assert status == 1  # a file failed: said, and the others written
    err = capsys.readouterr().err
    assert "broken.gcg: not a GCG file (binary data) (skipped)" in err
    assert f"{GAMES + 1} games reviewed, 1 failed" in err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    expected = review_files(find_games(str(batch_folder)), ReviewSpec(None, "sowpods"), workers=1)
    assert records == [json.loads(json.dumps(r)) for result in expected for r in result.records]


# ---- by simulation ---------------------------------------------------------------------------------------

SIM = SimSettings(candidates=3, plies=1, iterations=40, seed=11)


def is_made(move: Move, made: Move) -> bool:
    if move.kind != made.kind:
        return False
    if made.kind == PLAY:
        return (move.coord, move.word) == (made.coord, made.word)
    return sorted(move.exchanged) == sorted(made.exchanged)


def oracle_candidates(turn, lexicon: Lexicon, leaves: Leaves, count: int) -> tuple[list[Move], Move]:
    """Through solve(): the ``count`` best moves by equity but the pass, the move made added when
    it is not among them; and the move made as solve() lists it."""
    assert turn.move is not None
    made = Move.pass_turn() if turn.withdrawn else turn.move
    moves = solve(turn.board, turn.rack, lexicon, RULES, leaves=leaves, exchanges=True, bag=turn.unseen().bag)
    found = [m for m in moves if is_made(m, made)]
    assert len(found) == 1, (turn.line, made)
    top = [m for m in moves if m.kind != PASS][:count]
    return (top if found[0] in top else [*top, found[0]]), found[0]


def assert_sim_matches_simulate(
    replay: Replay, review, lexicon: Lexicon, leaves: Leaves, settings
) -> tuple[int, int]:
    """Every simulated turn of ``review`` is what simulate() gives on game_at(turn) with the
    oracle's candidates and the turn's seed; the turns simulated, and those not (the bag empty)."""
    simulated = endgame = 0
    for reviewed in review.turns:
        turn = replay.turns[reviewed.turn]
        sim = reviewed.sim
        assert sim is not None
        if turn.unseen().bag == 0:
            assert sim.best is None and sim.equity_lost is None and "bag is empty" in sim.note
            endgame += 1
            continue
        candidates, made = oracle_candidates(turn, lexicon, leaves, settings.candidates)
        seed = settings.seed + turn.index
        result = simulate(
            replay.game_at(turn.index, seed=seed), leaves=leaves, candidates=candidates,
            plies=settings.plies, iterations=settings.iterations, confidence=settings.confidence, seed=seed,
        )  # fmt: skip
        played = next(c for c in result.candidates if c.move is made)
        assert sim.candidates == len(candidates) and sim.iterations == result.iterations
        assert sim.best == (f"{result.best.move.coord} {result.best.move.word}" if result.best.move.is_play
                            else str(result.best.move))  # fmt: skip
        assert (sim.best_value, sim.best_win_rate) == (result.best.mean, result.best.win_rate)
        assert (sim.played_value, sim.played_win_rate) == (played.mean, played.win_rate)
        assert sim.equity_lost is not None and sim.equity_lost >= 0
        assert sim.equity_lost == pytest.approx(max(0.0, result.best.mean - played.mean))
        if played is result.best:
            assert sim.equity_lost == 0
        simulated += 1
    return simulated, endgame


def test_sim_fields_are_what_simulate_gives(twl06: Lexicon, leaves: Leaves) -> None:
    replay = Replay.load(QUACKLE, twl06)
    review = review_replay(replay, leaves, "sowpods", SIM)
    static = review_replay(replay, leaves, "sowpods")
    assert [dataclasses.replace(t, sim=None) for t in review.turns] == static.turns  # static fields kept
    assert assert_sim_matches_simulate(replay, review, twl06, leaves, SIM) == (len(review.turns), 0)
    for player in review.players:
        mine = [
            t.sim.equity_lost
            for t in review.turns
            if t.player == player.player and t.sim.equity_lost is not None
        ]
        assert player.sim_turns == len(mine)
        assert player.sim_equity_lost == pytest.approx(sum(mine), abs=0.01)
    record = review.records()[0]
    assert record["sim_best_value"] == round(review.turns[0].sim.best_value, 3)
    assert "sim_best" not in static.records()[0] and "sim_turns" not in static.records()[-1]


def test_the_move_made_is_always_simulated(self_played: Path, sowpods: Lexicon, leaves: Leaves) -> None:
    """Two candidates only: greedy's plays and the exchanges and passes are mostly outside them."""
    settings = SimSettings(candidates=2, plies=1, iterations=16, seed=3)
    added = 0
    for path in sorted(self_played.glob("*.gcg"))[:2]:
        replay = Replay.load(path, sowpods)
        review = review_replay(replay, leaves, "sowpods", settings)
        simulated, endgame = assert_sim_matches_simulate(replay, review, sowpods, leaves, settings)
        assert simulated > 10 and endgame > 0  # the game's last turns, the bag empty, are not simulated
        for reviewed in review.turns:
            sim = reviewed.sim
            if sim is not None and sim.best is not None:
                assert sim.played_value is not None and sim.note == ""
                if reviewed.played == sim.best:
                    assert sim.equity_lost == 0
                added += sim.candidates == 3
    assert added >= 5  # the case occurs (greedy plays outside the top two by equity)


def test_a_pass_a_withdrawn_play_and_an_exchange_made_are_simulated(
    sowpods: Lexicon, twl06: Lexicon, leaves: Leaves
) -> None:
    replay = Replay.load(CLUB, sowpods)
    review = review_replay(replay, leaves, "sowpods", SIM)
    assert assert_sim_matches_simulate(replay, review, sowpods, leaves, SIM) == (5, 0)
    by_line = {t.line: t for t in review.turns}
    for line in (14, 19):  # 10G TEVL withdrawn (valued as the pass it amounted to), then a pass
        sim = by_line[line].sim
        assert sim is not None and sim.candidates == SIM.candidates + 1 and sim.played_value is not None
    lines = QUACKLE.read_text().splitlines()[:8]
    lines[7] = ">Quackle: BEDGMNP  -BGMP  +0   40"
    replay = Replay.from_text("\n".join(lines) + "\n", twl06)
    review = review_replay(replay, leaves, "sowpods", SIM)
    assert assert_sim_matches_simulate(replay, review, twl06, leaves, SIM) == (3, 0)
    exchange = review.turns[-1]
    assert exchange.played == "exchange BGMP" and exchange.sim is not None
    assert exchange.sim.played_value is not None and exchange.sim.note == ""


def forced_gcg(sowpods: Lexicon, leaves: Leaves, bingo: bool) -> str:
    """FLOWERs, QUEEN, SIZE and VEX on the board (test_simulate's position), then AEIRSTU to play:
    URALITES (82) or the best play of 12 points or fewer; the scores are the replay's own."""
    events = [
        ("Ann", "8D FLOWERs"),
        ("Bob", "H5 QUE.N"),
        ("Ann", "J8 .IZE"),
        ("Bob", "11I V.X"),
    ]
    head = "#character-encoding UTF-8\n#player1 Ann Ann\n#player2 Bob Bob\n"
    draft = Replay.from_text(head + "".join(f">{nick}: {play} +0 0\n" for nick, play in events), sowpods)
    assert all(t.move is not None for t in draft.turns)
    moves = solve(draft.board, "AEIRSTU", sowpods, RULES, leaves=leaves)
    last = (
        next(m for m in moves if m.word == "URALITES") if bingo else next(m for m in moves if m.score <= 12)
    )
    lines, totals = [], {"Ann": 0, "Bob": 0}
    for (nick, play), turn in zip(events, draft.turns, strict=True):
        totals[nick] += turn.score
        lines.append(f">{nick}: {play} +{turn.score} {totals[nick]}")
    lines.append(f">Ann: AEIRSTU {last.coord} {last.word} +{last.score} {totals['Ann'] + last.score}")
    return head + "\n".join(lines) + "\n"


@pytest.mark.parametrize("bingo", [False, True])
def test_a_forced_best_play_is_the_best_by_simulation(sowpods: Lexicon, leaves: Leaves, bingo: bool) -> None:
    replay = Replay.from_text(forced_gcg(sowpods, leaves, bingo), sowpods)
    assert replay.warnings == []
    review = review_replay(replay, leaves, "sowpods", SimSettings(candidates=4, iterations=400, seed=2))
    (turn,) = review.turns
    assert turn.sim is not None and turn.sim.best == "E5 URALITES"
    assert turn.sim.stopped == "decided" and turn.sim.candidates == (4 if bingo else 5)
    if bingo:
        assert turn.played == "E5 URALITES" and turn.sim.equity_lost == 0
    else:
        assert turn.sim.equity_lost is not None and turn.sim.equity_lost > 40
        assert turn.sim.equity_lost == pytest.approx(turn.sim.best_value - turn.sim.played_value)
    assert review.players[0].sim_equity_lost == pytest.approx(turn.sim.equity_lost, abs=0.01)


def test_batch_sim_gives_the_same_records_everywhere(self_played: Path, tmp_path: Path) -> None:
    for path in sorted(self_played.glob("*.gcg"))[:2]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    spec = ReviewSpec("sowpods", "sowpods", sim=SimSettings(candidates=2, plies=1, iterations=12, seed=5))
    records = records_everywhere(find_games(str(tmp_path)), spec)
    assert records[0] == records[1] == records[2]
    turns = [r for game in records[0] for r in game if r["type"] == "turn"]
    assert sum(r["sim_best"] is not None for r in turns) > 20


def test_cli_sim(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["review", str(QUACKLE), "--lexicon", "twl06", "--leaves", "sowpods", "--sim"]
    args += ["--sim-candidates", "3", "--sim-plies", "1", "--sim-iterations", "40", "--sim-seed", "11"]
    assert main([*args, "--format", "json", "--progress"]) == 0
    captured = capsys.readouterr()
    assert "15/15 turns" in captured.err  # the progress bar, a turn at a time
    out = json.loads(captured.out)
    expected = review_file(QUACKLE, "twl06", "sowpods", sim=SIM).to_dict()
    assert out == json.loads(json.dumps(expected))
    assert out["sim"] == {"candidates": 3, "plies": 1, "iterations": 40, "time_limit": None,
                          "confidence": 0.99, "seed": 11}  # fmt: skip
    assert main(args) == 0
    table = capsys.readouterr().out
    assert "sim best" in table and "biggest mistakes by simulation:" in table
    assert main([*args, "--sim-plies", "40"]) == 2
    err = capsys.readouterr().err
    assert err == "error: simulation plies must be a whole number from 0 to 16, not 40\n"
    assert main(["review", str(QUACKLE), "--sim-time", "1"]) == 2
    assert "--sim-time is a setting of --sim" in capsys.readouterr().err


def test_bad_sim_settings_are_refused() -> None:
    with pytest.raises(ReviewError, match="candidates must be a whole number from 2 to 63"):
        SimSettings(candidates=1)
    with pytest.raises(ReviewError, match="iterations must be a whole number from 1 up, not 0"):
        SimSettings(iterations=0)
    with pytest.raises(ReviewError, match="seconds above 0, not -1"):
        SimSettings(time_limit=-1)
    with pytest.raises(ReviewError, match="confidence must be 0 .* or between 0 and 1, not 1.5"):
        SimSettings(confidence=1.5)
