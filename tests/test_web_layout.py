"""The desktop layout, in Chromium (the fixtures and helpers of tests/test_web_e2e.py; issue 26,
item 1): from 1200 px wide the board and the moves side by side, so that after a solve at
1366×768, 1400×1000 and 1920×1080 (and 1280×800) the board and the first ten moves are on screen
without scrolling, the table whole; hovering the tenth move previews it on a board in sight, also
with the page scrolled to its foot (the board stays pinned); a reviewed game's turn and a
simulation's candidates show beside the board too. Each box is measured in the page
(getBoundingClientRect), each move held to the native engine's. The phone layout has its own
tests (tests/test_web_page.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_web_e2e
from gaddag_solver import Board
from gaddag_solver.solver import Solver
from test_web_e2e import DEFAULT_LEAVES, ENGLISH, Page, examples, native_moves, open_position

pytestmark = test_web_e2e.pytestmark
native = test_web_e2e.native

DESKTOPS = [(1366, 768), (1400, 1000), (1920, 1080)]
EMPTY = ["." * 15] * 15
GAMES = Path(__file__).resolve().parent / "data" / "gcg"

BOXES = """(selectors) => selectors.map((selector) => [...document.querySelectorAll(selector)].map((el) => {
    const box = el.getBoundingClientRect();
    return { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
}))"""


def boxes(page: Page, *selectors: str) -> list[list[dict[str, float]]]:
    """The boxes of every element each selector finds, in the viewport's coordinates."""
    return page.page.evaluate(BOXES, list(selectors))


def box(page: Page, selector: str) -> dict[str, float]:
    (found,) = boxes(page, selector)
    assert len(found) == 1, (selector, found)
    return found[0]


def on_screen(page: Page, found: dict[str, float]) -> bool:
    width, height = page.page.evaluate("[innerWidth, innerHeight]")
    width, height = width + 0.5, height + 0.5  # a box scrolled into view may end a fraction of a pixel out
    return found["top"] >= 0 and found["left"] >= 0 and found["bottom"] <= height and found["right"] <= width


def sized(browser: object, server: str, width: int, height: int) -> Page:
    return Page(browser, server, viewport={"width": width, "height": height}).open()


def assert_preview_in_sight(page: Page, tiles: int) -> None:
    """The board wholly on screen, with `tiles` squares previewed on it."""
    board = box(page, "#board")
    assert on_screen(page, board), board
    (previewed,) = boxes(page, "#board .sq.preview")
    assert len(previewed) == tiles
    assert all(on_screen(page, square) for square in previewed), previewed


@pytest.mark.parametrize(("width", "height"), [*DESKTOPS, (1280, 800)])
def test_the_board_and_the_first_ten_moves_show_side_by_side(
    browser: object, server: str, native: Solver, width: int, height: int
) -> None:
    rows, rack = examples()[1]
    page = sized(browser, server, width, height)
    try:
        open_position(page, rows, rack)
        page.solve_with_enter()
        expected = native_moves(native, rows, rack)
        assert page.shown(10) == expected[:10]
        assert page.page.evaluate("[scrollX, scrollY]") == [0, 0]  # nothing scrolled
        board = box(page, "#board")
        assert on_screen(page, board), board
        for k in range(10):
            row = box(page, f".results-scroll .row[data-pos='{k}']")
            assert on_screen(page, row), (k, row)
            assert row["left"] >= board["right"], (k, row, board)  # beside the board, not under it
        # the table whole in its column: the last cell, the Play button, not cut off
        play = box(page, ".results-scroll .row[data-pos='0'] button.play")
        assert play["right"] <= box(page, ".results-scroll")["right"], play
        assert box(page, "#rack")["left"] >= board["right"]
        assert page.page.evaluate("document.documentElement.scrollWidth") <= width
        # Len beside the equity wherever the moves panel has room for it (42rem: at 1366 and
        # 1920 px wide), each the length of the native move's word; hidden where it has not
        room, shown = page.page.evaluate(
            """() => {
              const panel = document.querySelector('#results-panel'), style = getComputedStyle(panel);
              const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
              const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
              const len = document.querySelector('.results .head .c-len');
              return [panel.clientWidth - padding >= 42 * rem, getComputedStyle(len).display !== 'none'];
            }"""
        )
        assert shown == room, (width, room, shown)
        assert shown or width < 1900
        if shown:
            row = ".results-scroll .row[data-pos='{}'] .c-len"
            lengths = [page.page.inner_text(row.format(k)) for k in range(10)]
            assert lengths == [str(len(move[1])) for move in expected[:10]]
            assert box(page, ".results .head .c-len")["right"] <= box(page, ".results .head .c-score")["left"]
        page.page.screenshot(path=str(test_web_e2e.ARTIFACTS / f"desktop-{width}x{height}.png"))

        # the tenth move hovered: previewed on the board, in sight
        tenth = ".results-scroll .row[data-pos='9'] .c-word"
        page.page.hover(tenth)
        assert_preview_in_sight(page, len(expected[9][3]))
        # the page scrolled to its foot and the tenth move hovered again: the board stays in sight
        page.page.mouse.move(0, 0)
        page.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert page.page.evaluate("scrollY") > 0
        page.page.hover(tenth)
        assert box(page, "#board")["top"] >= 0
        assert_preview_in_sight(page, len(expected[9][3]))
        # and a move played from there lands on that board
        page.page.locator(".results-scroll .row[data-pos='0'] button.play").click()
        best = native.solve(Board.from_rows(rows, ENGLISH), rack, top=1, leaves=DEFAULT_LEAVES)[0]
        assert page.board_rows() == Board.from_rows(rows, ENGLISH).play(best).to_rows()
        assert on_screen(page, box(page, "#board"))
        assert not page.errors, page.errors
    finally:
        page.close()


@pytest.mark.parametrize(("width", "height"), DESKTOPS)
def test_a_reviewed_turn_and_a_simulation_show_beside_the_board(
    browser: object, server: str, width: int, height: int
) -> None:
    page = sized(browser, server, width, height)
    try:
        open_position(page, EMPTY, "", lexicon={"english": "sowpods"})
        page.page.click("#replay-box summary")
        page.page.set_input_files("#gcg-file", str(GAMES / "club_night.gcg"))
        page.page.wait_for_function(
            "() => !document.querySelector('#replay').hidden && "
            "!document.querySelector('#replay').hasAttribute('aria-busy') && window.gaddag.replay()",
            timeout=60_000,
        )
        page.page.click("#replay-next")  # the first turn: HAD, 8G
        page.page.wait_for_function("() => document.querySelector('#replay-turn').dataset.step === '1'")
        # the turn's account scrolled into view: the board, with the move made on it, beside it
        page.page.locator("#replay-turn").scroll_into_view_if_needed()
        turn = box(page, "#replay-turn")
        board = box(page, "#board")
        assert on_screen(page, turn), turn
        assert on_screen(page, board), board
        assert turn["left"] >= board["right"], (turn, board)
        assert_preview_in_sight(page, 3)
        page.page.click("#replay-close")
        assert page.board_rows() == EMPTY  # Close brings back the position before the game

        # a simulation of an opening rack: its table beside the board, a candidate clicked shows
        # on it
        page.set_rack("AEINRST")
        page.page.click("#lookahead-box summary")
        page.page.fill("#sim-candidates", "4")
        page.page.fill("#sim-confidence", "0")  # none dropped: it runs until stopped
        page.page.click("#sim-start")
        page.page.wait_for_function("() => (window.gaddag.lookAhead()?.iterations || 0) > 0", timeout=60_000)
        page.page.click("#lookahead-stop")
        page.page.wait_for_function(
            "() => !document.querySelector('#lookahead').hasAttribute('aria-busy')", timeout=60_000
        )
        standing = page.page.evaluate("window.gaddag.lookAhead()")
        row = page.page.locator("#lookahead-rows tr[data-index='0']")
        row.click()
        table = box(page, "#lookahead-rows tr[data-index='0']")
        assert on_screen(page, table), table
        board = box(page, "#board")
        assert table["left"] >= board["right"], (table, board)
        assert_preview_in_sight(page, len(standing["candidates"][0]["placed"]))
        page.page.screenshot(path=str(test_web_e2e.ARTIFACTS / f"desktop-simulation-{width}x{height}.png"))
        assert not page.errors, page.errors
    finally:
        page.close()


def test_rows_drawn_under_a_resting_pointer_wait_for_it_to_move(
    browser: object, server: str, native: Solver
) -> None:
    """A solve draws its rows under wherever the pointer rests; the browser then reports a
    mouseover that the player did not make. Previewing that row on the board would show a move
    nobody pointed at, in the very frame that should show the rows (it made that frame a third
    longer): the preview waits until the pointer moves."""
    rows, rack = examples()[1]
    page = sized(browser, server, 1400, 1000)
    try:
        open_position(page, rows, rack)
        page.solve_with_enter()
        expected = native_moves(native, rows, rack)
        third = page.page.locator(".results-scroll .row[data-pos='2'] .c-word")
        found = third.bounding_box()
        assert found is not None
        x, y = found["x"] + found["width"] / 2, found["y"] + found["height"] / 2
        page.page.mouse.move(x, y)
        assert_preview_in_sight(page, len(expected[2][3]))
        # solved again from the keyboard, the pointer where it was: the rows are drawn anew under it
        before = page.page.get_attribute("#results", "data-solve-seq")
        page.page.focus("#rack")
        page.page.keyboard.press("Enter")
        page.page.wait_for_function(f"document.querySelector('#results').dataset.solveSeq !== '{before}'")
        two_frames = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        page.page.evaluate(two_frames)
        assert boxes(page, "#board .sq.preview") == [[]]
        # the pointer moves a pixel: the row under it is previewed
        page.page.mouse.move(x + 1, y)
        assert_preview_in_sight(page, len(expected[2][3]))
        assert not page.errors, page.errors
    finally:
        page.close()
