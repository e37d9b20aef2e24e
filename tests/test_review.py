"""Reviewing games: each turn against a recomputation through the public solver API (every move
of the position, ranked by equity), self-played games as an oracle (the core's equity player
with a table never loses equity by that table; the greedy player always plays the top score),
the summary against the turns, the batch on one process, two processes and a Dask LocalCluster
giving the same records, a bad file in a batch reported while the rest is reviewed, and the
command line."""

from __future__ import annotations

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
    find_games,
    review_file,
    review_files,
    review_replay,
)
from gaddag_solver.lexicons import resolve_lexicon
from gaddag_solver.move import PLAY

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
    (folder / "truncated.gcg").write_text("\n".join(text[:9]) + "\n" + text[9][:12] + "\n")
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
    assert len(turns) == 6  # lines 4 to 9; line 10 is cut
    for result in results:
        if result.error is None:
            kinds = [record["type"] for record in result.records]
            assert kinds[-2:] == ["player", "player"] and set(kinds[:-2]) <= {"turn"}


def test_batch_gives_the_same_records_everywhere(batch_folder: Path) -> None:
    import distributed  # the test extra installs it: a missing Dask fails, never skips

    paths = find_games(str(batch_folder))
    spec = ReviewSpec("sowpods", "sowpods")
    one = review_files(paths, spec, workers=1)
    two = review_files(paths, spec, workers=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        dask = review_files(paths, spec, scheduler=cluster.scheduler_address)
    records = [[r.records for r in results] for results in (one, two, dask)]
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
