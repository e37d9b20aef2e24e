"""The page's look-ahead, end to end in Chromium (the fixtures of tests/test_web_e2e.py): Simulate
shows the candidates updating and can be stopped; the same seeded simulation as natively; Endgame
on a position with the bag empty shows the exact line, held to the native endgame search; an
endgame asked with tiles in the bag is refused with the reason; Pre-endgame with one tile in the bag
shows every exact move's chance and the draws it wins with, as the native solver does."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_web_e2e
from gaddag_solver import Game, Lexicon, Rules
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.endgame import solve_endgame
from gaddag_solver.game.simulate import Simulation
from test_endgame import short_endgame
from test_web_e2e import Page, open_position

pytestmark = test_web_e2e.pytestmark

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english")
LEXICON = "sowpods"


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load(ROOT / "lexicons" / f"{LEXICON}.gaddag", ENGLISH)


@pytest.fixture(scope="module")
def page(browser: object, server: str):  # type: ignore[no-untyped-def]
    opened = Page(browser, server).open()
    yield opened
    opened.close()


def show(page: Page, rows: list[str], rack: str) -> None:
    open_position(page, rows, rack, lexicon={"english": LEXICON})
    page.page.click("#lookahead-box summary")


def wait_done(page: Page, timeout: int = 60_000) -> dict:
    page.page.wait_for_function(
        "() => !document.querySelector('#lookahead').hasAttribute('aria-busy') && window.gaddag.lookAhead()",
        timeout=timeout,
    )
    return page.page.evaluate("window.gaddag.lookAhead()")


def test_simulate_updates_live_stops_and_matches_native(page: Page, lexicon: Lexicon) -> None:
    game = Game.new(lexicon, seed=5)
    for _ in range(4):
        game.play(game.best_move("equity"))
    rows = game.board.to_rows()
    rack = str(game.rack())
    show(page, rows, rack)
    page.page.fill("#sim-candidates", "6")
    page.page.fill("#sim-confidence", "0")  # none dropped: it runs until stopped
    page.page.click("#sim-start")
    page.page.wait_for_selector("#lookahead-stop:not([hidden])")
    page.page.wait_for_function("() => (window.gaddag.lookAhead()?.iterations || 0) > 0", timeout=60_000)
    assert page.page.locator("#lookahead-rows tr").count() == 6
    # the page answers while it simulates: the rack field takes typing
    page.page.click("#rack")
    page.page.click("#lookahead-stop")
    standing = wait_done(page)
    assert page.page.is_hidden("#lookahead-stop")
    assert "stopped" in page.page.text_content("#lookahead-status")
    iterations = standing["iterations"]
    assert iterations > 0
    # the page's seeded simulation (seed 1) equals the native one run for as many iterations
    table = Leaves.load(LEXICON, ENGLISH)
    native_game = Game.from_board(game.board, rack, lexicon)
    native = Simulation(native_game, leaves=table, candidates=6, confidence=0, seed=1).step(iterations)
    assert [c["move"] for c in standing["candidates"]] == [str(c.move) for c in native.candidates]
    assert [c["mean"] for c in standing["candidates"]] == [round(c.mean, 3) for c in native.candidates]
    # a row previews its move on the board
    page.page.click("#lookahead-rows tr[data-index='0']")
    assert page.page.locator("#board .preview").count() == len(native.candidates[0].move.tiles)
    assert not page.errors, page.errors


def test_simulate_on_two_workers_gives_the_standing_of_one(page: Page, lexicon: Lexicon) -> None:
    """Shared between the page's worker and a helper, a simulation that ends by itself (the stopping
    rule or its 2,000 iterations) stands exactly as one worker's: the native run of as many."""
    game = Game.new(lexicon, seed=8)
    for _ in range(5):
        game.play(game.best_move("equity"))
    rack = str(game.rack())
    show(page, game.board.to_rows(), rack)
    page.page.fill("#sim-candidates", "5")
    page.page.fill("#sim-confidence", "0.99")
    page.page.fill("#sim-workers", "2")
    page.page.click("#sim-start")
    standing = wait_done(page, timeout=180_000)
    status = page.page.text_content("#lookahead-status")
    assert "on 2 workers" in status and "simulation finished" in status, status
    table = Leaves.load(LEXICON, ENGLISH)
    native_game = Game.from_board(game.board, rack, lexicon)
    native = Simulation(native_game, leaves=table, candidates=5, confidence=0.99, seed=1).run(iterations=2000)
    assert standing["iterations"] == native.iterations
    assert [(c["move"], c["iterations"], c["mean"], c["dropped"]) for c in standing["candidates"]] == [
        (str(c.move), c.iterations, round(c.mean, 3), c.dropped) for c in native.candidates
    ]
    page.page.fill("#sim-workers", "1")
    assert not page.errors, page.errors


def test_the_opponent_s_last_move_says_what_they_kept(page: Page, lexicon: Lexicon) -> None:
    """Written under the unseen tiles, the opponent's last move shows what they likely kept (the
    native inference's likeliest leaves), and Simulate draws their rack from it."""
    from gaddag_solver.formats.cgp import parse_cgp
    from gaddag_solver.game.best import INFER_RACKS
    from gaddag_solver.game.infer import infer_written

    board = parse_cgp("15/15/15/15/15/15/15/4FOXY7/15/15/15/15/15/15/15 DGLNOPU/ 40/0 0", ENGLISH).board
    rack = "DGLNOPU"
    show(page, board.to_rows(), rack)
    page.page.fill("#last-move", "8E FOXY")
    page.page.wait_for_selector("#likely:not([hidden])", timeout=60_000)
    table = Leaves.load(LEXICON, ENGLISH)
    game = Game.from_board(board, rack, lexicon)
    native = infer_written(game, "8E FOXY", leaves=table, max_racks=INFER_RACKS, seed=0)
    shown = page.page.text_content("#likely-leaves")
    for leave in native.leaves[:5]:
        assert f"{leave.tiles or 'nothing'} {100 * leave.probability:.0f}%" in shown, shown
    assert "Simulate draws their rack from this" in page.page.text_content("#likely-how")
    # a move that is not on the board says why
    page.page.fill("#last-move", "8A QUIZ")
    page.page.wait_for_selector("#likely-error:not([hidden])", timeout=60_000)
    assert page.page.is_hidden("#likely")
    # Simulate with the inference: the native simulation with the same inference (seed 1)
    page.page.fill("#last-move", "8E FOXY")
    page.page.wait_for_selector("#likely:not([hidden])", timeout=60_000)
    page.page.fill("#sim-candidates", "4")
    page.page.fill("#sim-confidence", "0.99")
    page.page.click("#sim-start")
    standing = wait_done(page, timeout=180_000)
    inferred = infer_written(game, "8E FOXY", leaves=table, max_racks=INFER_RACKS, seed=1)
    simulation = Simulation(game, leaves=table, candidates=4, confidence=0.99, seed=1, inference=inferred)
    expected = simulation.run(iterations=2000)
    assert simulation.inferred
    assert [(c["move"], c["iterations"], c["mean"]) for c in standing["candidates"]] == [
        (str(c.move), c.iterations, round(c.mean, 3)) for c in expected.candidates
    ]
    page.page.fill("#last-move", "")
    page.page.wait_for_selector("#likely", state="hidden")
    assert not page.errors, page.errors


def test_endgame_shows_the_exact_line(page: Page, lexicon: Lexicon) -> None:
    game = short_endgame(lexicon, 4)
    rack = str(game.rack())
    position = Game.from_board(game.board, rack, lexicon)
    assert position.bag_count == 0
    expected = solve_endgame(position)
    show(page, game.board.to_rows(), rack)
    page.page.click("#endgame-start")
    answer = wait_done(page)
    assert answer["complete"] and answer["value"] == expected.value
    assert [m["move"] for m in answer["line"]] == [str(m) for m in expected.line]
    assert page.page.locator("#lookahead-rows tr").count() == len(expected.line)
    assert "exact" in page.page.text_content("#lookahead-status")
    # told with the lead, the game's outcome: behind by the value, a tie; by one more, a loss
    for lead, outcome in (
        (-expected.value, "a tie"),
        (-expected.value - 1, "a loss"),
        (1 - expected.value, "a win"),
    ):
        page.page.fill("#lookahead-lead", str(lead))
        page.page.click("#endgame-start")
        wait_done(page)
        final = lead + expected.value
        said = f"with a lead of {lead:+d} the game ends {final:+d}: {outcome}"
        assert said in page.page.text_content("#lookahead-status")
    page.page.fill("#lookahead-lead", "0")
    # the header names every column (issue 26, item 11: "Who" and "Move" were visually hidden)
    head = page.page.locator("#lookahead-head th")
    assert head.all_inner_texts() == ["#", "Who", "Move"]
    assert page.page.locator("#lookahead-head .visually-hidden").count() == 0
    assert not page.errors, page.errors


def test_endgame_with_tiles_in_the_bag_is_refused(page: Page) -> None:
    show(page, ["." * 15] * 15, "AEINRST")
    page.page.click("#endgame-start")
    page.page.wait_for_selector("#lookahead-status.error")
    assert "empty bag" in page.page.text_content("#lookahead-status")
    assert page.page.is_enabled("#endgame-start")


def self_played_until(lexicon: Lexicon, table: Leaves, seed: int, bag: int) -> Game:
    """A game of the static player with this seed, played until the bag holds ``bag`` tiles."""
    game = Game.new(lexicon, seed=seed)
    while game.bag_count > bag:
        game.play(game.best_move("equity", table))
    assert game.bag_count == bag
    return game


def test_pre_endgame_shows_each_move_s_chance_as_natively(page: Page, lexicon: Lexicon) -> None:
    from gaddag_solver.game.preendgame import PreendgameSearch

    table = Leaves.load(LEXICON, ENGLISH)
    game = self_played_until(lexicon, table, 15, bag=1)
    rack = str(game.rack())
    position = Game.from_board(game.board, rack, lexicon)
    expected = PreendgameSearch(position, leaves=table).run()
    assert expected.complete
    show(page, game.board.to_rows(), rack)
    page.page.click("#peg-start")
    answer = wait_done(page, timeout=120_000)
    assert answer["complete"] and answer["best"] == str(expected.best.move)
    # which moves end exact rather than ruled out depends on how the search was sliced (the page
    # runs it in steps); the best and every exact figure do not
    shown = [c for c in answer["candidates"] if c["status"] == "exact"]
    assert shown and any(c["best"] and c["win"] == float(expected.best.win) for c in shown)
    for row in shown:
        native = next(c for c in expected.candidates if str(c.move) == row["move"])
        assert float(native.win_low) <= row["win"] <= float(native.win_high)
        if native.status == "exact":
            assert row["win"] == float(native.win)
            assert row["wins_with"] == sorted({bag for bag, _r, _w, o in native.worlds if o == 1})
    assert page.page.locator("#lookahead-rows tr").count() == len(answer["candidates"])
    assert "(exact)" in page.page.text_content("#lookahead-status")
    assert not page.errors, page.errors


def test_pre_endgame_plays_for_the_lead_of_an_imported_position(page: Page, lexicon: Lexicon) -> None:
    """A CGP's scores set the look-ahead's lead, and the pre-endgame's chances are the native
    search's with those scores (here the mover is behind: the move that wins every draw of a
    tied game wins none)."""
    from gaddag_solver.formats.cgp import Position, format_cgp
    from gaddag_solver.game.preendgame import PreendgameSearch

    table = Leaves.load(LEXICON, ENGLISH)
    game = self_played_until(lexicon, table, 26, bag=1)
    rack = str(game.rack())
    scores = (game.scores[game.to_move], game.scores[1 - game.to_move])
    tied = PreendgameSearch(Game.from_board(game.board, rack, lexicon), leaves=table).run()
    expected = PreendgameSearch(Game.from_board(game.board, rack, lexicon, None, scores), leaves=table).run()
    assert tied.complete and expected.complete
    assert expected.best.win != tied.best.win  # the lead matters here
    show(page, game.board.to_rows(), rack)
    page.page.click("#cgp-box summary")
    page.page.fill("#cgp", format_cgp(Position(game.board, game.rack(), None, scores, 0, {"lex": LEXICON})))
    page.page.click("#cgp-import")
    page.page.wait_for_function(
        f"document.querySelector('#lookahead-lead').value === '{scores[0] - scores[1]}'"
    )
    # the players start from the CGP's scores, and an export writes them back
    assert [int(page.page.inner_text(f"#player{seat}-score")) for seat in (1, 2)] == list(scores)
    page.page.click("#cgp-export")
    page.page.wait_for_function(f"document.querySelector('#cgp').value.includes(' {scores[0]}/{scores[1]} ')")
    page.page.click("#peg-start")
    answer = wait_done(page, timeout=120_000)
    assert answer["complete"] and answer["best"] == str(expected.best.move)
    best = next(c for c in answer["candidates"] if c["best"])
    assert best["win"] == float(expected.best.win)
    page.page.fill("#lookahead-lead", "0")
    assert not page.errors, page.errors


def test_pre_endgame_on_two_workers_gives_the_answer_of_one(page: Page, lexicon: Lexicon) -> None:
    """Shared between the page's worker and a helper (the helper values the candidates it is lent),
    the pre-endgame's best and every exact figure are the native search's alone. (A position the
    page's worker does not solve within the second it first runs alone.)"""
    from gaddag_solver.game.preendgame import PreendgameSearch

    table = Leaves.load(LEXICON, ENGLISH)
    game = self_played_until(lexicon, table, 11, bag=1)
    rack = str(game.rack())
    expected = PreendgameSearch(Game.from_board(game.board, rack, lexicon), leaves=table).run()
    assert expected.complete
    show(page, game.board.to_rows(), rack)
    page.page.fill("#sim-workers", "2")
    page.page.click("#peg-start")
    answer = wait_done(page, timeout=120_000)
    page.page.fill("#sim-workers", "1")
    status = page.page.text_content("#lookahead-status")
    assert "on 2 workers" in status and "(exact)" in status, status
    assert answer["complete"] and answer["best"] == str(expected.best.move)
    assert 0 < answer["helper_endgames"] < answer["endgames"]
    native = {str(c.move): c for c in expected.candidates}
    shown = [c for c in answer["candidates"] if c["status"] == "exact"]
    assert any(c["best"] and c["win"] == float(expected.best.win) for c in shown)
    for row in shown:
        bounds = native[row["move"]]
        assert float(bounds.win_low) <= row["win"] <= float(bounds.win_high)
        if bounds.status == "exact":
            assert row["win"] == float(bounds.win)
            assert row["wins_with"] == sorted({bag for bag, _r, _w, o in bounds.worlds if o == 1})
    assert not page.errors, page.errors


def test_pre_endgame_estimates_with_three_in_the_bag_as_natively(page: Page, lexicon: Lexicon) -> None:
    """From 3 in the bag the page shows the successive-halving estimate, the native one's to the
    last figure: the same seeded sample of racks, however the steps slice it."""
    from gaddag_solver.game.preendgame import PreendgameSearch

    table = Leaves.load(LEXICON, ENGLISH)
    game = self_played_until(lexicon, table, 12, bag=3)
    rack = str(game.rack())
    expected = PreendgameSearch(Game.from_board(game.board, rack, lexicon), leaves=table).run()
    assert expected.method == "halving" and expected.complete
    show(page, game.board.to_rows(), rack)
    page.page.fill("#sim-workers", "2")  # shared with a helper: the same estimate
    page.page.click("#peg-start")
    answer = wait_done(page, timeout=180_000)
    assert answer["method"] == "halving" and answer["best"] == str(expected.best.move)
    assert "on 2 workers" in page.page.text_content("#lookahead-status")
    assert 0 < answer["helper_endgames"] < answer["endgames"]
    native = {str(c.move): c for c in expected.candidates if c.estimate is not None}
    assert {row["move"] for row in answer["candidates"]} == set(native)
    for row in answer["candidates"]:
        assert row["estimate"] == float(native[row["move"]].estimate)
        assert row["worlds_valued"] == native[row["move"]].worlds_valued
    assert page.page.locator("#lookahead-rows tr").count() == len(answer["candidates"])
    assert page.page.locator("#lookahead-rows tr.dropped").count() == len(native) - 1
    assert page.page.locator("#lookahead-head th").first.inner_text() == "Move"
    status = page.page.text_content("#lookahead-status")
    assert f"best {expected.best.move} wins about" in status and "estimate by successive halving" in status
    assert not page.errors, page.errors
