"""The solve's options and the list's order, in Chromium (the fixtures and helpers of
tests/test_web_e2e.py; issue 26, items 5 and 6): an option changed with the moves on show (the
exchanges, the leave table, the engine's direction) solves again at once, with no "the position
has changed" note; every visit starts best first by equity, whatever order the last one left;
sorted by word, position or length, the exchanges and the pass follow the plays. Each list is held
to the native engine's."""

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


def test_every_visit_starts_best_first(browser: object, server: str, native: Solver) -> None:
    rows, rack = examples()[1]
    best_first = native_dicts(native, rows, rack, leaves=DEFAULT_LEAVES)
    equity = "#results .c-eq[role=columnheader]"
    page = Page(browser, server).open()
    try:
        # a state saved by an earlier visit, sorted worst first
        open_position(page, rows, rack, sorts={"equity": {"key": "equity", "descending": False}})
        page.solve_with_enter()
        assert page.page.get_attribute(equity, "aria-sort") == "descending"
        assert listed(page)[:10] == best_first[:10]
        # sorted worst first in this visit: kept through a reload of the page
        page.page.click("#results [data-sort=equity]")
        assert page.page.get_attribute(equity, "aria-sort") == "ascending"
        page.page.reload()
        page.wait_ready()
        page.page.wait_for_function("window.gaddag.shownCount() > 0", timeout=30_000)
        assert page.page.get_attribute(equity, "aria-sort") == "ascending"
        assert listed(page)[0] == min(best_first, key=lambda m: m["equity"])
        # a new visit (another tab, the same storage): best first again, and the summary says so
        tab = page.context.new_page()
        tab.goto(page.url)
        tab.wait_for_selector("body[data-ready]", timeout=60_000)
        tab.wait_for_function("window.gaddag.shownCount() > 0", timeout=30_000)
        assert tab.get_attribute(equity, "aria-sort") == "descending"
        assert listed(tab)[:10] == best_first[:10]
        assert "highest first" in tab.inner_text("#results-summary")
        assert not page.errors, page.errors
    finally:
        page.close()


def test_exchanges_and_the_pass_follow_the_plays(browser: object, server: str, native: Solver) -> None:
    rows, rack = examples()[1]
    page = Page(browser, server).open()
    try:
        open_position(page, rows, rack, exchanges=True)
        page.solve_with_enter()
        ranked = native_dicts(native, rows, rack, leaves=DEFAULT_LEAVES, exchanges=True)
        plays = [m for m in ranked if "kind" not in m]
        others = [m for m in ranked if "kind" in m]  # the exchanges and the pass, best first
        assert len(others) > 100
        orders = [  # a column's title clicked, the plays' order, how the summary says it
            ("word", sorted(plays, key=lambda m: m["word"].upper()), "by word, A to Z"),
            ("word", sorted(plays, key=lambda m: m["word"].upper(), reverse=True), "by word, Z to A"),
            (
                "position",
                sorted(plays, key=lambda m: (m["row"], m["col"], m["direction"] == "down")),
                "by position",
            ),
        ]
        for key, want, said in orders:
            page.page.click(f"#results [data-sort={key}]")
            got = listed(page)
            assert [m["word"] for m in got[: len(plays)]] == [m["word"] for m in want], key
            assert got == want + others, key
            assert said in page.page.inner_text("#results-summary")
        # ranked by score (no table), where the list has its Len column: by length either way
        before = page.page.get_attribute("#results", "data-solve-seq")
        page.page.select_option("#leaves-select", "")
        page.page.wait_for_function(f"document.querySelector('#results').dataset.solveSeq !== '{before}'")
        ranked = native_dicts(native, rows, rack, exchanges=True)
        plays = [m for m in ranked if "kind" not in m]
        others = [m for m in ranked if "kind" in m]
        for want in (sorted(plays, key=lambda m: -m["length"]), sorted(plays, key=lambda m: m["length"])):
            page.page.click("#results [data-sort=length]")
            assert listed(page) == want + others
        assert not page.errors, page.errors
    finally:
        page.close()
