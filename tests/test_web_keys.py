"""The page by keyboard (issue 26, item 10), in Chromium: from the rack the moves are two Tab
stops and Enter away (the "Moves ↓" link after Solve), or one ↓; "?" lists the keys in a dialog
that Esc closes; the move reached is the native engine's best, previewed."""

from __future__ import annotations

import pytest
import test_web_e2e
from gaddag_solver import Board
from gaddag_solver.solver import Solver
from playwright.sync_api import expect
from test_web_e2e import DEFAULT_LEAVES, ENGLISH, Page, examples, open_position

pytestmark = test_web_e2e.pytestmark
native = test_web_e2e.native


@pytest.mark.parametrize("size", [(1920, 1080), (1366, 768), (390, 844)])
def test_the_moves_are_two_tab_stops_from_the_rack(
    browser: object, server: str, native: Solver, size: tuple[int, int]
) -> None:
    page = Page(browser, server, viewport={"width": size[0], "height": size[1]}).open()
    try:
        rows, rack = examples()[1]
        open_position(page, rows, rack)
        page.solve_with_enter()
        best = native.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, leaves=DEFAULT_LEAVES)[0]
        page.page.focus("#rack")
        focused = page.page.locator(":focus")
        stops = 0
        while focused.get_attribute("id") != "to-moves":
            page.page.keyboard.press("Tab")
            stops += 1
            assert stops <= 5, focused.evaluate("el => el.outerHTML.slice(0, 80)")
        assert stops == 2  # Solve, then the link
        box = focused.bounding_box()
        assert box and box["width"] > 20 and 0 <= box["y"] < size[1]  # seen when focused
        page.page.keyboard.press("Enter")
        expect(focused).to_have_role("row")
        expect(focused).to_have_attribute("aria-rowindex", "2")
        assert str(best.word) in (focused.get_attribute("aria-label") or "").replace(" ", "")
        # and ↓ from the rack
        page.page.focus("#rack")
        page.page.keyboard.press("ArrowDown")
        expect(focused).to_have_role("row")
        assert not page.errors, page.errors
    finally:
        page.close()


def test_question_mark_lists_the_keys(browser: object, server: str) -> None:
    page = Page(browser, server).open()
    try:
        page.wait_ready()
        dialog = page.page.locator("#keys-dialog")
        expect(dialog).to_be_hidden()
        page.page.focus("#rack")
        page.page.keyboard.type("?")  # in the rack "?" is a blank, not a shortcut
        expect(dialog).to_be_hidden()
        assert page.page.input_value("#rack").endswith("?")
        page.page.evaluate("document.activeElement.blur()")
        page.page.keyboard.press("?")
        expect(dialog).to_be_visible()
        expect(page.page.get_by_role("dialog", name="Keys")).to_be_visible()
        text = dialog.inner_text()
        assert "to the moves" in text and "play it" in text and "Esc" in text
        page.page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        page.page.click("#keys-open")
        expect(dialog).to_be_visible()
        page.page.click("#keys-close")
        expect(dialog).to_be_hidden()
        assert not page.errors, page.errors
    finally:
        page.close()
