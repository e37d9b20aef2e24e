"""The solve's options, in Chromium (the fixtures and helpers of tests/test_web_e2e.py; issue 26,
item 5): an option changed with the moves on show (the exchanges, the leave table, the engine's
direction) solves again at once, with no "the position has changed" note. Each list is held to
the native engine's."""

from __future__ import annotations

import json

import test_web_e2e
from gaddag_solver.solver import Solver
from test_web_e2e import DEFAULT_LEAVES, Page, examples, native_dicts, open_position

pytestmark = test_web_e2e.pytestmark
native = test_web_e2e.native

STORE_KEY = "gaddag-solver/v1"


def solve_seq(page: Page) -> str:
    return page.page.get_attribute("#results", "data-solve-seq") or "0"


def solved_again(page: Page, before: str) -> None:
    """The list drawn anew since `before` (data-solve-seq), within a few seconds: an option's solve
    takes milliseconds."""
    page.page.wait_for_function(
        "(before) => (document.querySelector('#results').dataset.solveSeq || '0') !== before",
        arg=before,
        timeout=10_000,
    )


def listed(page: Page | object) -> list[dict]:
    """The moves listed, in order (`page`: a Page, or a Playwright page)."""
    tab = page.page if isinstance(page, Page) else page
    return json.loads(tab.evaluate("JSON.stringify(window.gaddag.shownMoves(Infinity))"))


def assert_current(page: Page) -> None:
    """The list is the position's: not greyed, no note that the position changed, Play enabled."""
    assert "stale" not in (page.page.get_attribute("#results", "class") or "")
    note = page.page.locator("#results-note")
    assert note.is_hidden() or "has changed" not in note.inner_text()
    assert page.page.locator(".results-scroll .row[data-pos='0'] button.play").is_enabled()


def test_an_option_changed_solves_again(browser: object, server: str, native: Solver) -> None:
    rows, rack = examples()[1]
    page = Page(browser, server).open()
    try:
        open_position(page, rows, rack)
        page.solve_with_enter()
        assert listed(page) == native_dicts(native, rows, rack, leaves=DEFAULT_LEAVES)

        # exchanges and the pass ticked: listed at once, valued by the same table
        before = solve_seq(page)
        page.page.check("#exchanges")
        solved_again(page, before)
        assert_current(page)
        moves = listed(page)
        assert moves == native_dicts(native, rows, rack, leaves=DEFAULT_LEAVES, exchanges=True)
        kinds = [move.get("kind", "play") for move in moves]
        assert kinds.count("exchange") > 100 and kinds.count("pass") == 1
        assert page.page.evaluate("document.activeElement.id") == "exchanges"  # the focus stays

        # no leave table: ranked by score
        before = solve_seq(page)
        page.page.select_option("#leaves-select", "")
        solved_again(page, before)
        assert_current(page)
        assert listed(page) == native_dicts(native, rows, rack, exchanges=True)
        assert page.page.locator("#results .c-eq").first.is_hidden()

        # plays across only
        before = solve_seq(page)
        page.page.select_option("#direction-select", "across")
        solved_again(page, before)
        assert_current(page)
        assert listed(page) == native_dicts(native, rows, rack, exchanges=True, direction="across")

        # the rack edited: the list is not the position's any more, and says so until solved
        page.set_rack(rack[:-1])
        assert "has changed" in page.page.inner_text("#results-note")
        assert not page.errors, page.errors
    finally:
        page.close()
