"""The pre-endgame on several threads (docs/preendgame.md, "Threads"): the threads value different
root candidates, with endgame searches sharing one table, and the answer is the one thread's
however their work interleaves: the best, every exact figure, every bound. Positions come from
self-play on the small set of tests/test_preendgame.py, whose brute-force model is the oracle."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest
from gaddag_solver import Game
from gaddag_solver import _core_api as core
from gaddag_solver.game import preendgame as preendgame_module
from gaddag_solver.game.preendgame import EXACT, PreendgameError, PreendgameSearch
from test_preendgame import Oracle, preendgames, run_in_slices, seen_by_mover, small_peg_command


def same_answer(alone, together) -> None:  # type: ignore[no-untyped-def]
    """Two complete results agree: the best, every exact win and every proven bound."""
    assert alone.complete and together.complete
    assert together.best_index == alone.best_index and together.best.win == alone.best.win
    best = alone.best.win
    for a, b in zip(alone.candidates, together.candidates, strict=True):
        assert str(a.move) == str(b.move)
        if a.status == EXACT and b.status == EXACT:
            assert a.win == b.win and a.worlds == b.worlds
        else:  # ruled out on one side: it cannot beat the best on either
            assert a.win_high <= best and b.win_high <= best or a.status == b.status == EXACT
        if a.status == EXACT:
            assert b.win_low <= a.win <= b.win_high


@pytest.mark.parametrize("bag", [1, 2])
def test_two_threads_give_the_one_thread_answer_and_both_threads_work(bag: int) -> None:
    games = preendgames(bag, range(60))[: 10 if bag == 1 else 5]
    helped = 0
    for game in games:
        alone = PreendgameSearch(game).run()
        search = PreendgameSearch(game, threads=2)
        together = search.run()
        same_answer(alone, together)
        assert together.endgames == sum(c.endgames for c in search._contexts)
        helped += search._contexts[1].endgames > 0
        first, second = search._contexts
        if second.peg is not None:  # the model's table in the core is the calling thread's
            assert second.peg.keep[0] is first.peg and second.peg.table is None
    assert helped >= len(games) // 2  # the second thread searched endgames of its own


def test_a_shared_model_state_is_checked() -> None:
    """gd_peg_share wants a started state other than itself."""
    game = preendgames(1, range(60))[0]
    search = PreendgameSearch(game)
    search.run()
    first = search._contexts[0]
    peg = first.peg
    rc = core.lib.gd_peg_share(peg.buffer, peg.size, peg.buffer, first.eg_state.buffer, peg.error)
    assert rc != core.lib.GD_OK and "its own table" in core._message(peg.error)
    unstarted = core.PegState(64, 0, own_table=False)
    with pytest.raises(core.CoreError, match="not a started pre-endgame"):
        core.peg_share(unstarted, first.eg_state)


def test_two_threads_match_the_brute_force_model() -> None:
    checked = 0
    for game in preendgames(1, range(60)):
        search = PreendgameSearch(game, threads=2)
        if len(search._root) > 12:  # the oracle values every candidate in full: keep it quick
            continue
        result = search.run()
        oracle = Oracle(game)
        board, mine, unseen, spread = seen_by_mover(game)
        truth = [
            oracle.expected(board, mine, unseen, 1, spread, game.scoreless_turns, root.record)
            for root in search._root
        ]
        assert result.best.win == max(truth) and result.best_index == truth.index(max(truth))
        for candidate, value in zip(result.candidates, truth, strict=True):
            assert candidate.win_low <= value <= candidate.win_high
            if candidate.status == EXACT:
                assert candidate.win == value
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_two_threads_over_several_passes_and_stopped_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets of one and 300 positions put nearly every world off to a later pass, and a run
    cut every 20 ms leaves candidates half valued on both threads: the answer stands."""
    for game in preendgames(2, range(60))[:3]:
        alone = PreendgameSearch(game).run()
        monkeypatch.setattr(preendgame_module, "WORLD_BUDGETS", (1, 300))
        result, _parts = run_in_slices(PreendgameSearch(game, threads=2), 0.02)
        monkeypatch.undo()
        same_answer(alone, result)


def test_a_helper_thread_s_error_is_raised_by_run(monkeypatch: pytest.MonkeyPatch) -> None:
    game = next(g for g in preendgames(1, range(60)) if len(PreendgameSearch(g)._root) >= 20)
    search = PreendgameSearch(game, threads=2)
    main = threading.current_thread()

    def failing_off_the_main_thread(real):  # type: ignore[no-untyped-def]
        def call(*args, **kwargs):  # type: ignore[no-untyped-def]
            if threading.current_thread() is not main:
                raise PreendgameError("a helper's endgame failed")
            return real(*args, **kwargs)

        return call

    # the model in the core (peg_value) or in Python (its endgames by endgame_search)
    for name in ("endgame_search", "peg_value"):
        monkeypatch.setattr(core, name, failing_off_the_main_thread(getattr(core, name)))
    with pytest.raises(PreendgameError, match="a helper's endgame failed"):
        search.run()
    assert search._helpers and not any(helper.is_alive() for helper in search._helpers)


def test_thread_counts_are_checked() -> None:
    game = preendgames(1, range(60))[0]
    for bad in (0, -1, 65):
        with pytest.raises(PreendgameError, match="threads must be 1 to 64"):
            PreendgameSearch(game, threads=bad)


def test_peg_command_on_two_threads(tmp_path: Path) -> None:
    game = preendgames(1, range(60))[2]
    expected = PreendgameSearch(Game.from_board(game.board, game.rack(), game.lexicon)).run()  # level scores
    command = [*small_peg_command(tmp_path), "--rack", str(game.rack()), "--format", "json"]
    board_file = "\n".join(game.board.to_rows()) + "\n"

    def peg(*extra: str) -> subprocess.CompletedProcess[str]:
        run = [*command, *extra]
        return subprocess.run(run, input=board_file, capture_output=True, text=True, timeout=120)

    two = peg("--threads", "2")
    assert two.returncode == 0, two.stderr
    found = json.loads(two.stdout)
    assert found["complete"] and found["best"] == str(expected.best.move)
    exact = {c["move"]: c["win"] for c in found["candidates"] if c["status"] == EXACT}
    assert exact[str(expected.best.move)] == float(expected.best.win)
    for candidate in expected.candidates:
        if candidate.status == EXACT and str(candidate.move) in exact:
            assert exact[str(candidate.move)] == float(candidate.win)
    for bad in ("0", "x"):
        refused = peg("--threads", bad)
        assert refused.returncode == 2 and "--threads" in refused.stderr
