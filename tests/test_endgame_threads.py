"""The endgame searched on several threads sharing one table (docs/endgame.md, "Threads"): a
complete search's value must be one thread's, and the brute-force minimax's of test_endgame.py,
however the threads' work interleaves. Small slices and a small table make the threads meet
often: positions marked busy, moves put off, buckets replaced under each other."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from gaddag_solver import Lexicon
from gaddag_solver import _core_api as core
from gaddag_solver.game.endgame import EndgameError, EndgameSearch
from gaddag_solver.lexicons import resolve_lexicon
from test_endgame import endgames, minimax, play_line, short_endgame, small_lexicon, small_set_rules

SMALL_TABLE = 1 << 16  # 1,024 entries


def test_two_threads_find_the_minimax_value_of_small_endgames() -> None:
    rules = small_set_rules(6)
    lexicon = small_lexicon(rules)
    games = endgames(lexicon, rules, range(30))[:12]
    assert len(games) >= 8
    for game in games:
        expected = minimax(game, {})
        search = EndgameSearch(game, threads=2, table_bytes=SMALL_TABLE)
        result = list(search.deepen(slice_nodes=40))[-1]
        assert result.complete and result.reason == "solved"
        assert result.value == expected, f"{game}: two threads {result.value}, minimax {expected}"
        assert play_line(game, result.line) == expected  # the line, whichever thread found it


def search_to_the_end(state: core.EndgameState, values: list[int | None], counted: list[int], k: int) -> None:
    """Thread k's search, depth after depth in slices of 25 positions, to a complete value."""
    depth = 1
    while depth <= 64:
        found = core.endgame_search(state, depth, 25)
        counted[k] += found.stats[5]  # moves put off
        if found.stopped:
            continue
        if found.complete:
            values[k] = found.value
            return
        depth += 1


def test_threads_that_meet_put_moves_off_and_keep_every_value() -> None:
    """Two states of one search (core.endgame_share) searched at once, each in its own thread,
    depth after depth to the end: both complete values are the minimax value, and over these
    endgames the threads did meet (moves put off because the other was searching there)."""
    rules = small_set_rules(6)
    lexicon = small_lexicon(rules)
    deferred = checked = 0
    for game in endgames(lexicon, rules, range(30)):
        if checked >= 12 and deferred:
            break  # enough: on a loaded machine the threads may take turns rather than meet
        checked += 1
        expected = minimax(game, {})
        main = core.endgame_start(lexicon._core, game._rules, game._state, table_bytes=SMALL_TABLE)
        states = [main, core.endgame_share(main)]
        values: list[int | None] = [None, None]
        counted = [0, 0]
        threads = [
            threading.Thread(target=search_to_the_end, args=(states[k], values, counted, k)) for k in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert values == [expected, expected], f"{game}: {values}, minimax {expected}"
        deferred += sum(counted)
    assert deferred > 0  # the threads met, so the put-off moves' second pass was searched


def test_a_seven_tile_endgame_on_two_threads_equals_one_thread() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = short_endgame(lexicon, 3)
    alone = EndgameSearch(game).run()
    together = EndgameSearch(game, threads=2).run()
    assert alone.complete and together.complete
    assert together.value == alone.value
    assert play_line(game, together.line) == together.value


def test_the_best_k_and_a_given_move_on_two_threads_equal_one_thread() -> None:
    rules = small_set_rules(2)
    lexicon = small_lexicon(rules)
    for game in endgames(lexicon, rules, range(8))[:4]:
        alone, together = EndgameSearch(game), EndgameSearch(game, threads=2, table_bytes=SMALL_TABLE)
        assert [r.value for r in together.best_moves(3)] == [r.value for r in alone.best_moves(3)]
        for move in game.moves()[:3]:
            assert together.value_of(move).value == alone.value_of(move).value, str(move)


def test_thread_counts_are_checked() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = short_endgame(lexicon, 3)
    for bad in (0, -1, 65, 1.5):
        with pytest.raises(EndgameError, match="threads must be a whole number from 1 to 64"):
            EndgameSearch(game, threads=bad)  # type: ignore[arg-type]


def test_endgame_command_on_two_threads() -> None:
    lexicon = Lexicon.load(resolve_lexicon("sowpods"))
    game = short_endgame(lexicon, 3)
    board_file = "\n".join(game.board.to_rows()) + "\n"
    command = [sys.executable, "-m", "gaddag_solver", "endgame", "--lexicon", "sowpods", "--board", "-"]
    command += ["--rack", str(game.rack()), "--opponent-rack", str(game.rack(1 - game.to_move))]

    def endgame(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, *extra], input=board_file, capture_output=True, text=True, timeout=120
        )

    one, two = endgame(), endgame("--threads", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    value = [line for line in one.stdout.splitlines() if line.startswith("value ")]
    assert value and value[0].split()[1] == f"{EndgameSearch(game).run().value:+d}"
    assert [line for line in two.stdout.splitlines() if line.startswith("value ")][0].split()[:2] == value[
        0
    ].split()[:2]
    refused = endgame("--threads", "0")
    assert refused.returncode == 2 and "--threads" in refused.stderr
