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

import gzip
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import test_web_e2e
from build_lock import build_lock
from gaddag_solver import Board
from gaddag_solver.rules import available_rules
from gaddag_solver.solver import Solver
from static_server import static_server
from test_web_e2e import DEFAULT_LEAVES, ENGLISH, LEXICON, Page, examples, native_moves, open_position

pytestmark = test_web_e2e.pytestmark
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


MARKED = "[...document.querySelectorAll('#lexicon-select option')]"  # the lexicon choices


def test_offline_after_one_visit(browser: object, server: str, native: Solver) -> None:
    rows, rack = examples()[1]
    page = Page(browser, server).open()
    try:
        page.wait_ready()
        kept = page.page.evaluate("window.gaddag.offline()")
        assert kept["supported"]
        assert {f"lexicons/{LEXICON}.gaddag", "lexicons/twl06.leaves"} <= set(kept["kept"])
        # the service worker keeps Python's snapshot unpacked, and says so (web/sw.js)
        stored = page.page.evaluate(
            """async () => {
              const hit = await caches.match(new URL('python-snapshot.gz', location.href).href);
              return [hit.headers.get('X-Gaddag-Unpacked'), (await hit.arrayBuffer()).byteLength];
            }"""
        )
        unpacked = gzip.decompress((test_web_e2e.SITE / "python-snapshot.gz").read_bytes())
        assert stored == ["gzip", len(unpacked)]
        page.context.set_offline(True)

        # Python started from the site's snapshot (scripts/python_snapshot.mjs)
        assert page.page.evaluate("window.gaddag.timings.pythonFrom") == "snapshot"
        # a reload, offline: the page, Python, its snapshot and the lexicon come from the
        # service worker
        open_position(page, rows, rack)
        assert page.page.evaluate("window.gaddag.timings.pythonFrom") == "snapshot"
        page.solve_with_enter()
        assert page.shown() == native_moves(native, rows, rack)

        # a new tab, offline
        tab = page.context.new_page()
        tab.goto(server)
        tab.wait_for_selector("body[data-ready]", timeout=60_000)
        assert tab.evaluate("window.gaddag.boardRows()") == rows

        # the list says which lexicons this device does not hold, while offline
        page.page.wait_for_function(f"{MARKED}.some((o) => o.text.includes('offline'))", timeout=10_000)
        labels = dict(
            page.page.eval_on_selector_all("#lexicon-select option", "o => o.map(x => [x.value, x.text])")
        )
        assert "not on this device" in labels["sowpods"] and "not on this device" not in labels[LEXICON]
        # a lexicon never fetched: said plainly, and the page keeps the one it has: the selector
        # goes back to it, Solve answers with it, and a new tab does not ask for the other
        # (issue 26, item 2: the selector stayed on sowpods and Solve stayed queued)
        page.page.select_option("#lexicon-select", "sowpods")
        error = page.page.locator("#lexicon-error")
        error.wait_for(state="visible", timeout=30_000)
        assert "'sowpods' is not stored on this device" in error.inner_text()
        assert "offline" in error.inner_text() and f"Still using '{LEXICON}'" in error.inner_text()
        assert "Loading" not in page.page.inner_text("#status-text")
        page.page.wait_for_function(f"document.body.dataset.ready === '{LEXICON}'", timeout=30_000)
        assert page.page.input_value("#lexicon-select") == LEXICON
        page.solve_with_enter()
        assert page.shown() == native_moves(native, rows, rack)
        assert "Queued" not in page.page.inner_text("#status-text")
        # the same for a ruleset whose lexicon was never fetched: back to the rules in use
        page.page.select_option("#rules-select", "polish")
        page.page.wait_for_function(
            "document.querySelector('#lexicon-error').innerText.includes('with English')", timeout=30_000
        )
        assert page.page.input_value("#rules-select") == "english"
        assert page.page.input_value("#lexicon-select") == LEXICON
        page.page.wait_for_function(f"document.body.dataset.ready === '{LEXICON}'", timeout=30_000)
        page.solve_with_enter()
        assert page.shown() == native_moves(native, rows, rack)
        later = page.context.new_page()
        later.goto(server)
        later.wait_for_function(f"document.body.dataset.ready === '{LEXICON}'", timeout=60_000)
        assert later.input_value("#lexicon-select") == LEXICON
        assert later.input_value("#rules-select") == "english"
        later.close()
        page.shot("20-offline-lexicon.png")

        # a visit whose saved lexicon this device does not hold comes up with one it holds
        open_position(page, rows, rack, lexicon={"english": "sowpods"})
        page.page.wait_for_function(f"document.body.dataset.ready === '{LEXICON}'", timeout=60_000)
        assert f"Using '{LEXICON}', which this device holds" in error.inner_text()
        assert page.page.input_value("#lexicon-select") == LEXICON
        page.solve_with_enter()
        assert page.shown() == native_moves(native, rows, rack)

        # online again, the marks go and the same choice loads it (and it is kept from then on)
        page.context.set_offline(False)
        page.page.wait_for_function(f"!{MARKED}.some((o) => o.text.includes('offline'))", timeout=10_000)
        page.page.select_option("#lexicon-select", LEXICON)
        page.page.select_option("#lexicon-select", "sowpods")
        page.page.wait_for_function("document.body.dataset.ready === 'sowpods'", timeout=60_000)
        assert error.is_hidden()
        kept = page.page.evaluate("window.gaddag.offline()")
        assert "lexicons/sowpods.gaddag" in kept["kept"]
        # the site's cache is the version of this build, and only it
        version = json.loads((test_web_e2e.SITE / "site.json").read_text())["version"]
        assert page.page.evaluate("caches.keys()") == [f"gaddag-solver-{version}"]
    finally:
        page.close()


# the registration's service workers by state (their scripts all have the same URL)
WORKERS = """navigator.serviceWorker.getRegistration().then((r) => r && Object.fromEntries(
  ["installing", "waiting", "active"].map((k) => [k, r[k] && r[k].state])))"""


def wait_for_caches(page: Page, done: Callable[[list[str], dict], bool], seconds: float) -> None:
    """Poll the page's caches and service workers until `done(names, workers)`."""
    deadline = time.monotonic() + seconds
    while True:
        names, workers = page.page.evaluate("caches.keys()"), page.page.evaluate(WORKERS) or {}
        if done(names, workers):
            return
        assert time.monotonic() < deadline, (names, workers)
        page.page.wait_for_timeout(250)


def test_a_rebuilt_site_replaces_the_cache(browser: object, tmp_path: Path) -> None:
    """scripts/build_site.py run again with a changed page: the next visit installs the new
    version, which keeps the lexicons fetched, takes over and drops the old cache."""
    sys.path.insert(0, str(test_web_e2e.ROOT / "scripts"))
    try:
        import build_site as script
    finally:
        sys.path.pop(0)
    web = tmp_path / "web"
    shutil.copytree(script.WEB, web)
    out = tmp_path / "site"

    def build() -> str:
        saved = script.WEB, script.SERVICE_WORKER
        script.WEB, script.SERVICE_WORKER = web, web / "sw.js"
        try:
            with build_lock():  # the wheel and the snapshot it ships are built in build/wasm
                script.build(out)
        finally:
            script.WEB, script.SERVICE_WORKER = saved
        return json.loads((out / "site.json").read_text())["version"]

    first = build()
    with static_server(out) as url:
        page = Page(browser, url).open()
        try:
            page.wait_ready()
            assert f"lexicons/{LEXICON}.gaddag" in page.page.evaluate("window.gaddag.offline()")["kept"]
            (web / "style.css").write_text((web / "style.css").read_text() + "\nbody { --site-build: 2; }\n")
            second = build()
            assert second != first
            page.page.reload()  # the browser finds the new sw.js, which installs and takes over
            # installing fetches the whole shell again (about 26 MB) while the reloaded page starts
            # Python: a minute and a half leaves room for a loaded machine. Taking over needs the
            # old worker idle (Chromium), which the reloaded page allows by not messaging it about
            # files a cache holds (web/offline.js)
            new = f"gaddag-solver-{second}"
            wait_for_caches(
                page, lambda names, workers: names == [new] and workers.get("active") == "activated", 90
            )
            page.page.reload()  # now from the new version
            page.wait_ready()
            style = "getComputedStyle(document.body).getPropertyValue('--site-build').trim()"
            assert page.page.evaluate(style) == "2"
            kept = page.page.evaluate(
                f"caches.open('gaddag-solver-{second}').then(c => c.keys()).then(k => k.map(r => r.url))"
            )
            assert any(key.endswith(f"lexicons/{LEXICON}.gaddag") for key in kept)
            # and offline, the new version is what answers
            page.context.set_offline(True)
            page.page.reload()
            page.wait_ready()
            assert page.page.evaluate(style) == "2"
        finally:
            page.close()


@pytest.mark.parametrize("snapshot", ["unreachable", "damaged"])
def test_python_starts_afresh_when_its_snapshot_cannot_be_used(
    browser: object, server: str, native: Solver, snapshot: str
) -> None:
    rows, rack = examples()[1]
    page = Page(browser, server, service_workers="block")  # every load fetches the snapshot
    warnings: list[str] = []
    page.page.on("console", lambda line: warnings.append(line.text) if line.type == "warning" else None)
    try:
        if snapshot == "unreachable":
            page.context.route("**/python-snapshot.gz", lambda route: route.abort())
        else:  # a gzip file that holds no memory snapshot
            damaged = gzip.compress(b"not a memory snapshot" * 1000, mtime=0)
            page.context.route("**/python-snapshot.gz", lambda route: route.fulfill(status=200, body=damaged))
        page.open()
        open_position(page, rows, rack)
        assert page.page.evaluate("window.gaddag.timings.pythonFrom") == "start"
        assert any("the Python snapshot could not be used" in text for text in warnings), warnings
        page.solve_with_enter()
        assert page.shown() == native_moves(native, rows, rack)
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


def imported_by(module: str) -> set[str]:
    """The modules of web/ that ``module`` imports, directly or through others (``from "./x.js"``)."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        text = (test_web_e2e.ROOT / "web" / todo.pop()).read_text(encoding="utf-8")
        for name in re.findall(r'from "\./([a-z-]+\.js)"', text):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return seen - {module}


def test_the_first_frame_shows_the_board_and_the_selectors(browser: object, server: str) -> None:
    """The page's data is written into index.html and the module that draws the board holds the
    first paint: the first frame painted already has the board, the rulesets and the lexicons,
    rules.json and lexicons.json are not fetched, and every module the page imports is preloaded
    from its head (fetched together, not one import after another)."""
    page = Page(browser, server)
    try:
        page.open()
        page.page.wait_for_selector("body[data-board-ready]")
        marks = page.page.evaluate(
            """() => ({
                fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
                drawn: window.gaddag.timings.interactive,
                fetched: performance.getEntriesByType('resource')
                    .map((e) => [new URL(e.name).pathname.split('/').pop(), e.startTime]),
                preloaded: [...document.querySelectorAll('link[rel=modulepreload]')]
                    .map((l) => new URL(l.href).pathname.split('/').pop()),
            })"""
        )
        assert marks["fcp"] is not None and marks["drawn"] <= marks["fcp"], marks
        started = {name: at for name, at in reversed(marks["fetched"])}  # each file's first fetch
        assert "rules.json" not in started and "lexicons.json" not in started
        assert sorted(marks["preloaded"]) == sorted(imported_by("app.js"))
        assert page.page.locator("#board .sq").count() == 225
        assert page.page.locator("#rules-select option").count() == len(available_rules())
        assert page.page.input_value("#lexicon-select") == LEXICON
    finally:
        page.close()


# ---- the editor ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def editor(browser: object, server: str) -> Iterator[Page]:
    """One page for the editing tests below, each starting from an empty board."""
    page = Page(browser, server).open()
    page.wait_ready()
    yield page
    page.close()


def fresh_board(page: Page) -> None:
    page.page.click("#clear-board")
    page.set_rack("")
    assert page.board_rows() == EMPTY


def rows_with(*words: tuple[int, int, str, str]) -> list[str]:
    """EMPTY with words written in: (row, column, direction, letters)."""
    grid = [list(line) for line in EMPTY]
    for r, c, direction, letters in words:
        for k, letter in enumerate(letters):
            rr, cc = (r, c + k) if direction == "across" else (r + k, c)
            grid[rr][cc] = letter
    return ["".join(line) for line in grid]


def test_a_second_click_turns_the_typing_direction(editor: Page, browser: object, server: str) -> None:
    fresh_board(editor)
    editor.click_square(7, 7, "across")
    editor.square(7, 7).click()
    assert editor.direction() == "down"
    editor.type_tiles("AT")
    assert editor.board_rows() == rows_with((7, 7, "down", "AT"))
    editor.square(3, 3).click()  # another square: selected, the direction kept
    assert editor.direction() == "down"
    editor.square(3, 3).click()
    assert editor.direction() == "across"
    # and by touch, on a phone
    phone = Page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True).open()
    try:
        phone.square(7, 7).tap()
        assert phone.direction() == "across"
        phone.square(7, 7).tap()
        assert phone.direction() == "down"
        phone.square(7, 7).tap()
        assert phone.direction() == "across"
    finally:
        phone.close()


def test_typing_through_tiles_keeps_them(editor: Page) -> None:
    fresh_board(editor)
    editor.click_square(7, 7, "across")
    editor.type_tiles("QUIZ")
    quiz = rows_with((7, 7, "across", "QUIZ"))
    assert editor.board_rows() == quiz
    # the whole word typed down through the I of QUIZ: the I is kept
    editor.click_square(6, 9, "down")
    editor.type_tiles("BIT")
    assert editor.board_rows() == rows_with((7, 7, "across", "QUIZ"), (6, 9, "down", "BIT"))
    # only the new letters typed: the Z is stepped over
    editor.click_square(6, 10, "down")
    editor.type_tiles("AE")
    assert editor.board_rows() == rows_with(
        (7, 7, "across", "QUIZ"), (6, 9, "down", "BIT"), (6, 10, "down", "AZE")
    )
    # a blank typed through keeps the tile's own kind
    editor.click_square(7, 6, "across")
    editor.type_tiles("squiz")
    assert editor.board_rows()[7] == "......sQUIZ...."


def test_the_blank_button_makes_one_blank(editor: Page) -> None:
    fresh_board(editor)
    editor.click_square(7, 7, "across")
    editor.page.click("#blank-toggle")
    assert editor.page.get_attribute("#blank-toggle", "aria-pressed") == "true"
    editor.type_tiles("AB")
    assert editor.board_rows()[7] == ".......aB......"
    assert editor.page.get_attribute("#blank-toggle", "aria-pressed") == "false"


def test_an_import_error_goes_once_acted_on(editor: Page) -> None:
    fresh_board(editor)
    error = editor.page.locator("#cgp-error")

    def failed_import() -> None:
        if not editor.page.locator("#cgp-box").evaluate("el => el.open"):
            editor.page.click("#cgp-box summary")
        editor.page.fill("#cgp", "15/15 AB/")
        editor.page.click("#cgp-import")
        error.wait_for(state="visible")

    failed_import()
    editor.click_square(7, 7, "across")
    editor.type_tiles("C")  # an edit of the board
    assert error.is_hidden()
    failed_import()
    editor.set_rack("AT")  # of the rack
    assert error.is_hidden()
    failed_import()
    before = solve_seq(editor)
    editor.page.click("#solve")  # a solve
    wait_solved(editor, before)
    assert error.is_hidden()
    failed_import()
    editor.page.select_option("#rules-select", "super")  # a change of rules
    assert error.is_hidden()
    editor.page.select_option("#rules-select", "english")
    assert editor.page.input_value("#cgp") == "15/15 AB/"  # the text itself stays


def test_undo_and_redo(editor: Page, native: Solver) -> None:
    fresh_board(editor)
    undo, redo = editor.page.locator("#undo"), editor.page.locator("#redo")
    editor.click_square(7, 7, "across")
    editor.type_tiles("CAT")
    cat = rows_with((7, 7, "across", "CAT"))
    editor.set_rack("AEINRST")
    editor.solve_with_enter()
    best = native.solve(Board.from_rows(cat, ENGLISH), "AEINRST", top=1, leaves=DEFAULT_LEAVES)[0]
    assert editor.shown(1)[0][:3] == (best.coord, best.word, best.score)
    editor.page.locator(".results-scroll .row[data-pos='0'] button.play").click()
    played = Board.from_rows(cat, ENGLISH).play(best).to_rows()
    assert editor.board_rows() == played and editor.page.input_value("#rack") == best.leave

    # Ctrl+Z: the play, then the rack typed (one step), then each tile
    editor.page.keyboard.press("Control+Z")
    assert editor.board_rows() == cat and editor.page.input_value("#rack") == "AEINRST"
    assert "Undone: the play" in editor.page.inner_text("#status-text")
    editor.page.keyboard.press("Control+Z")
    assert editor.board_rows() == cat and editor.page.input_value("#rack") == ""
    for done in ("CA", "C", ""):
        editor.page.keyboard.press("Control+Z")
        assert editor.board_rows() == rows_with((7, 7, "across", done))
    assert redo.is_enabled()
    # Ctrl+Shift+Z and the button go forward again, to the play
    for _ in range(4):
        editor.page.keyboard.press("Control+Shift+Z")
    assert editor.board_rows() == cat and editor.page.input_value("#rack") == "AEINRST"
    redo.click()
    assert editor.board_rows() == played and redo.is_disabled()
    # the board cleared and the clearing undone with the button
    editor.page.click("#clear-board")
    assert editor.board_rows() == EMPTY
    undo.click()
    assert editor.board_rows() == played
    # a change after an undo drops what was undone
    undo.click()
    editor.click_square(0, 0, "across")
    editor.type_tiles("Z")
    assert redo.is_disabled()
    # the text boxes that are not the position keep their own Ctrl+Z
    editor.page.fill("#filter", "ab")
    editor.page.keyboard.press("Control+Z")
    assert editor.board_rows()[0][0] == "Z"


def test_a_solve_asked_while_loading_is_queued_and_timed_apart(
    browser: object, server: str, native: Solver
) -> None:
    page = Page(browser, server)
    held: list[object] = []
    held_leaves: list[object] = []
    try:
        # the lexicon (and the leave table, whose check would say so in the status) is held back
        # until the solve has been asked for
        page.context.route(f"**/lexicons/{LEXICON}.gaddag", lambda route: held.append(route))
        page.context.route("**/lexicons/*.leaves", lambda route: held_leaves.append(route))
        page.open()
        # Python up: from here until the files are let through, no step of the loading posts its
        # own status over what the queued solve says (a busy machine boots in seconds)
        page.page.wait_for_function("window.gaddag.timings.pythonReady !== null", timeout=60_000)
        page.click_square(7, 7, "across")
        page.type_tiles("CAT")
        page.set_rack("AEINRST")
        before = solve_seq(page)
        page.page.click("#solve")
        assert page.page.get_attribute("#solve", "data-queued") == "true"
        assert page.page.inner_text("#solve") == "Queued…"
        assert "Solving as soon as the solver has loaded" in page.page.inner_text("#status-text")
        for _ in range(600):  # the worker asks for the lexicon as it starts Python
            if held:
                break
            page.page.wait_for_timeout(100)
        assert held, "the lexicon was never asked for"
        page.page.wait_for_timeout(1000)  # the solve waits at least this long for it
        for route in held + held_leaves:
            route.continue_()
        solved = wait_solved(page, before)
        ready = page.page.evaluate("window.gaddag.timings.ready")
        # the time shown is the solve's own: about the time from the lexicon being ready (as the
        # page heard it, a message later than the worker) to the list drawn, not from the click
        assert solved["ms"] <= solved["at"] - ready + 50
        assert solved["waited_ms"] >= 1000
        assert "waiting" in page.page.inner_text("#results-summary")
        assert page.page.inner_text("#solve") == "Solve"
        rows = rows_with((7, 7, "across", "CAT"))
        assert page.shown() == native_moves(native, rows, "AEINRST")
    finally:
        page.close()


# ---- the words on the board ------------------------------------------------------------------------


def test_words_not_in_the_lexicon_are_marked(editor: Page, native: Solver) -> None:
    fresh_board(editor)
    editor.click_square(7, 7, "across")
    editor.type_tiles("QZX")
    editor.click_square(7, 7, "down")
    editor.type_tiles("QAT")
    rows = rows_with((7, 7, "across", "QZX"), (7, 7, "down", "QAT"))
    assert editor.board_rows() == rows
    note = editor.page.locator("#board-words")
    note.wait_for(state="visible", timeout=20_000)
    lexicon = native.lexicon
    assert "QZX" not in lexicon and "QAT" in lexicon  # the oracle: the lexicon itself
    assert "QZX (8H)" in note.inner_text() and "QAT" not in note.inner_text()
    marked = editor.page.eval_on_selector_all(
        "#board .sq.unknown-word", "els => els.map(el => [Number(el.dataset.r), Number(el.dataset.c)])"
    )
    assert sorted(marked) == [[7, 7], [7, 8], [7, 9]]
    editor.shot("21-unknown-word.png")
    # a warning, not an error: the position is solved
    editor.set_rack("AEINRST")
    solved = editor.solve_with_enter()
    assert solved["count"] == len(native_moves(native, rows, "AEINRST"))
    # QZ is no word either; Q alone across is none at all: the warning goes
    editor.click_square(7, 9, "across")
    editor.page.keyboard.press("Delete")
    editor.page.wait_for_function("document.querySelector('#board-words').textContent.includes('QZ (8H)')")
    assert editor.page.locator("#board .sq.unknown-word").count() == 2
    editor.click_square(7, 8, "across")
    editor.page.keyboard.press("Delete")
    editor.page.wait_for_function("document.querySelector('#board-words').hidden")
    assert editor.page.locator("#board .sq.unknown-word").count() == 0


# ---- a phone ---------------------------------------------------------------------------------------


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's box lies wholly on the screen, and is the element seen at its centre
    (not covered by the pinned board or the rack)."""
    return page.page.eval_on_selector(
        selector,
        """(el) => {
            const box = el.getBoundingClientRect();
            const inside = box.top >= 0 && box.left >= 0
                && box.bottom <= innerHeight && box.right <= innerWidth;
            if (!inside) return false;
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return hit !== null && (el.contains(hit) || hit.contains(el));
        }""",
    )


def test_a_phone_shows_the_board_moves_and_rack_together(
    browser: object, server: str, native: Solver
) -> None:
    rows, rack = examples()[1]
    page = Page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True).open()
    try:
        open_position(page, rows, rack)
        # nothing wider than the phone (a mobile viewport widens to fit the page: compare with 390)
        width = page.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        square = page.square(7, 7).bounding_box()
        assert square["width"] >= 23, square  # the board spans the screen
        page.page.locator("#solve").tap()
        page.page.wait_for_function(
            "document.querySelector('#results').dataset.solveSeq === '1'", timeout=60_000
        )
        expected = native_moves(native, rows, rack)
        assert page.shown(3) == expected[:3]
        # the moves in view under the board, the rack and Solve at the foot, the status on top
        for selector in (".results-scroll .row[data-pos='0']", "#board", "#solve", "#rack", "#status-text"):
            assert in_view(page, selector), selector
        page.shot("22-phone-solved.png")
        # a move tapped: previewed on a board in sight
        page.page.locator(".results-scroll .row[data-pos='0'] .c-word").tap()
        previewed = page.page.locator("#board .sq.preview")
        assert previewed.count() > 0
        for k in range(previewed.count()):
            box = previewed.nth(k).bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
        page.shot("23-phone-preview.png")
        # played: the board and the status say so on screen
        page.page.locator(".results-scroll .row[data-pos='0'] button.play").tap()
        best = native.solve(Board.from_rows(rows, ENGLISH), rack, top=1, leaves=DEFAULT_LEAVES)[0]
        assert page.board_rows() == Board.from_rows(rows, ENGLISH).play(best).to_rows()
        assert in_view(page, "#board") and in_view(page, "#status-text")
        assert "Played" in page.page.inner_text("#status-text")
        # further down the page, the rack and Solve are still at hand
        page.page.locator("#unseen").scroll_into_view_if_needed()
        assert in_view(page, "#solve") and in_view(page, "#rack")
        page.shot("24-phone-played.png")
    finally:
        page.close()


# ---- filters -----------------------------------------------------------------------------------------


def test_filters_and_a_reload_keep_the_list(browser: object, server: str, native: Solver) -> None:
    rows, rack = examples()[1]  # AEIRSTU on the mid-game board
    page = Page(browser, server).open()
    try:
        open_position(page, rows, rack)
        page.solve_with_enter()
        every = native.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, leaves=DEFAULT_LEAVES)

        def expect(keep: object) -> list[tuple[str, str, int, str, str]]:
            return [(m.coord, m.word, m.score, m.tiles_used, m.leave) for m in every if keep(m)]

        def uses(move: object, tiles: str) -> bool:
            left = list(move.tiles_used)
            for tile in tiles:
                if tile not in left:
                    return False
                left.remove(tile)
            return True

        page.page.click("#more-filters summary")
        page.page.fill("#f-uses", "su")
        wanted = expect(lambda m: uses(m, "SU"))
        page.page.wait_for_function(f"window.gaddag.shownCount() === {len(wanted)}")
        assert page.shown() == wanted and 0 < len(wanted) < len(every)
        page.page.fill("#f-score-min", "20")
        page.page.fill("#f-score-max", "40")
        page.page.fill("#f-length-min", "5")
        page.page.fill("#f-length-max", "6")
        wanted = expect(lambda m: uses(m, "SU") and 20 <= m.score <= 40 and 5 <= len(m.word) <= 6)
        page.page.wait_for_function(f"window.gaddag.shownCount() === {len(wanted)}")
        assert page.shown() == wanted and wanted
        summary = page.page.inner_text("#results-summary")
        assert f"{len(wanted):,} of {len(every):,} moves" in summary
        page.shot("25-filters.png")
        # a tile that is no letter is said, and the list stays as it was
        page.page.fill("#f-uses", "s1")
        page.page.locator("#filters-error").wait_for(state="visible")
        assert "'1'" in page.page.inner_text("#filters-error")
        assert page.page.get_attribute("#f-uses", "aria-invalid") == "true"
        assert page.shown() == wanted
        page.page.fill("#f-uses", "su")
        page.page.locator("#filters-error").wait_for(state="hidden")

        # a reload: the list comes back, filtered as it was, without a Solve
        page.page.reload()
        page.wait_ready()
        page.page.wait_for_function(f"window.gaddag.shownCount() === {len(wanted)}", timeout=30_000)
        assert page.shown() == wanted
        assert page.page.input_value("#f-score-max") == "40"
        page.page.click("#f-clear")
        page.page.wait_for_function(f"window.gaddag.shownCount() === {len(every)}")
        assert not page.errors, page.errors
    finally:
        page.close()


# ---- two players -----------------------------------------------------------------------------------


def test_two_players_take_turns(browser: object, server: str, native: Solver) -> None:
    page = Page(browser, server).open()
    try:
        open_position(page, EMPTY, "")
        board = Board.empty(ENGLISH)
        played = []
        for rack in ("RETAINS", "QUIZ?ED"):
            page.set_rack(rack)
            page.solve_with_enter()
            best = native.solve(board, rack, top=1, warn=False, leaves=DEFAULT_LEAVES)[0]
            assert page.shown(1)[0][:3] == (best.coord, best.word, best.score)
            page.page.locator(".results-scroll .row[data-pos='0'] button.play").click()
            board = board.play(best)
            played.append(best)
        assert page.board_rows() == board.to_rows()
        scores = [played[0].score, played[1].score]
        assert [int(page.page.inner_text(f"#player{seat}-score")) for seat in (1, 2)] == scores
        assert page.page.inner_text("#players-turn") == "Player1 to play"
        # the look-ahead plays for Player1's lead (their score less Player2's)
        assert page.page.input_value("#lookahead-lead") == str(scores[0] - scores[1])
        last = sorted(
            (int(el["r"]), int(el["c"]))
            for el in page.page.eval_on_selector_all(
                "#board .sq.last-move", "els => els.map(el => ({r: el.dataset.r, c: el.dataset.c}))"
            )
        )
        assert last == sorted((r, c) for r, c, _letter, _blank in played[1].tiles)
        page.page.fill("#player1", "Ann")
        page.page.fill("#player2", "Bob")
        assert page.page.inner_text("#players-turn") == "Ann to play"
        page.shot("26-players.png")
        # the second play undone: Bob's turn again, the first play highlighted
        page.page.click("#undo")
        assert page.page.inner_text("#players-turn") == "Bob to play"
        assert int(page.page.inner_text("#player2-score")) == 0
        assert page.page.input_value("#lookahead-lead") == str(-scores[0])
        assert page.page.locator("#board .sq.last-move").count() == len(played[0].tiles)
        page.page.click("#redo")
        # kept with the position
        page.page.reload()
        page.wait_ready()
        assert page.page.input_value("#player1") == "Ann"
        assert [int(page.page.inner_text(f"#player{seat}-score")) for seat in (1, 2)] == scores
        assert page.page.locator("#board .sq.last-move").count() == len(played[1].tiles)
        # the game exported under their names
        page.page.click("#replay-box summary")
        page.page.click("#gcg-export-played")
        page.page.wait_for_function("() => document.querySelector('#gcg-text').value.includes('#player1')")
        text = page.page.input_value("#gcg-text")
        assert "#player1 Ann Ann" in text and "#player2 Bob Bob" in text
        assert f">Bob: {played[1].leave}" not in text  # the rack written is the one played from
        assert not page.errors, page.errors
    finally:
        page.close()


# ---- word tools ------------------------------------------------------------------------------------


def test_word_tools(editor: Page, native: Solver) -> None:
    lexicon = native.lexicon
    editor.page.click("#words-box summary")

    def ask(tool: str, query: str) -> tuple[int, list[str]]:
        editor.page.select_option("#words-tool", tool)
        editor.page.fill("#words-query", query)
        before = editor.page.get_attribute("#words-summary", "data-seq") or "0"
        editor.page.click("#words-form button[type=submit]")
        editor.page.wait_for_function(
            "(before) => (document.querySelector('#words-summary').dataset.seq || '0') !== before", arg=before
        )
        count = int(editor.page.get_attribute("#words-summary", "data-count"))
        return count, editor.page.eval_on_selector_all(
            "#words-list button", "els => els.map(e => e.dataset.word)"
        )

    count, words = ask("anagram", "aeinrst")
    assert words == lexicon.anagrams("AEINRST") and count == len(words) > 3
    count, words = ask("pattern", "q?i*")
    assert count == len(words) and set(words) == {
        w for n in range(19) for w in lexicon.pattern("Q?I" + "?" * n)
    }
    checked = ["QI", "AT", "ZZZ"]
    count, words = ask("check", "qi, at zzz")
    assert words == checked
    valid = sum(word in lexicon for word in checked)  # enable has no QI
    assert f"{valid} of 3 valid" in editor.page.inner_text("#words-summary")
    # a word clicked: found in the lexicon, with its hooks
    editor.page.click("#words-list button[data-word='AT']")
    editor.page.wait_for_function("document.querySelector('#words-word').dataset.word === 'AT'")
    text = editor.page.inner_text("#words-word")
    front = [x for x in ENGLISH.alphabet.letters if x + "AT" in lexicon]
    back = [x for x in ENGLISH.alphabet.letters if "AT" + x in lexicon]
    assert "AT is in enable" in text
    assert f"Front hooks: {' '.join(front)}." in text and f"Back hooks: {' '.join(back)}." in text
    editor.shot("27-word-tools.png")
    # a query that cannot be answered is said
    editor.page.select_option("#words-tool", "pattern")
    editor.page.fill("#words-query", "a*b*c*d")
    editor.page.click("#words-form button[type=submit]")
    editor.page.locator("#words-error").wait_for(state="visible")
    assert "at most two" in editor.page.inner_text("#words-error")
