"""The page as players use it, in Chromium (the fixtures and helpers of tests/test_web_e2e.py):
offline after one visit (the service worker, web/sw.js), a clear error when Python cannot load,
undo and redo of every board and rack change, the editor's behaviour (a second click turns the
typing direction, typing through tiles on the board keeps them, a solve asked while loading),
errors that go away once acted on, the words on the board checked against the lexicon, and the
phone layout (390×844, screenshots in test-artifacts/web/).

Each expectation is held to the native engine (moves, words in the lexicon) or to the board as
typed, never to numbers taken from the page itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import test_web_e2e
from gaddag_solver import Board, Lexicon
from gaddag_solver.solver import Solver
from test_web_e2e import ENGLISH, LEXICON, Page, examples, native_moves, open_position

pytestmark = test_web_e2e.pytestmark
site = test_web_e2e.site
server = test_web_e2e.server
browser = test_web_e2e.browser
native = test_web_e2e.native

EMPTY = ["." * 15] * 15
PHONE = {"width": 390, "height": 844}


def wait_solved(page: Page, before: str) -> dict:
    page.page.wait_for_function(
        f"(document.querySelector('#results').dataset.solveSeq || '0') !== '{before}'", timeout=60_000
    )
    return page.page.evaluate("window.gaddag.lastSolve")


def solve_seq(page: Page) -> str:
    return page.page.get_attribute("#results", "data-solve-seq") or "0"


# ---- offline -------------------------------------------------------------------------------------


def test_offline_after_one_visit(browser: object, server: str, native: Solver) -> None:
    rows, rack = examples()[1]
    page = Page(browser, server).open()
    try:
        page.wait_ready()
        kept = page.page.evaluate("window.gaddag.offline()")
        assert kept["supported"]
        assert {f"lexicons/{LEXICON}.gaddag", "lexicons/twl06.leaves"} <= set(kept["kept"])
        page.context.set_offline(True)

        # a reload, offline: the page, Python and the lexicon come from the service worker
        open_position(page, rows, rack)
        page.solve_with_enter()
        assert page.shown() == native_moves(native, rows, rack)

        # a new tab, offline
        tab = page.context.new_page()
        tab.goto(server)
        tab.wait_for_selector("body[data-ready]", timeout=60_000)
        assert tab.evaluate("window.gaddag.boardRows()") == rows

        # a lexicon never fetched: said plainly, and the page keeps the one it has
        page.page.select_option("#lexicon-select", "sowpods")
        error = page.page.locator("#lexicon-error")
        error.wait_for(state="visible", timeout=30_000)
        assert "'sowpods' is not stored on this device" in error.inner_text()
        assert "offline" in error.inner_text()
        assert "Loading" not in page.page.inner_text("#status-text")
        page.shot("20-offline-lexicon.png")

        # online again, the same choice loads it (and it is kept from then on)
        page.context.set_offline(False)
        page.page.select_option("#lexicon-select", LEXICON)
        page.page.select_option("#lexicon-select", "sowpods")
        page.page.wait_for_function("document.body.dataset.ready === 'sowpods'", timeout=60_000)
        assert error.is_hidden()
        kept = page.page.evaluate("window.gaddag.offline()")
        assert "lexicons/sowpods.gaddag" in kept["kept"]
        # the cache is the version of this build, and nothing else
        version = json.loads((test_web_e2e.SITE / "site.json").read_text())["version"]
        caches = page.page.evaluate("caches.keys()")
        assert caches == [f"gaddag-solver-{version}"]
    finally:
        page.close()


def test_python_that_cannot_load_says_so(browser: object, server: str) -> None:
    page = Page(browser, server)
    try:
        page.context.route("**/pyodide.asm.wasm", lambda route: route.abort())
        page.open()
        page.page.wait_for_selector("#status.failed", timeout=30_000)
        text = page.page.inner_text("#status-text")
        assert "Python could not be loaded" in text and "pyodide/pyodide.asm.wasm" in text
        assert page.page.locator("#load-progress").is_hidden()
    finally:
        page.close()
