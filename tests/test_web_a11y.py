"""The page as a screen reader meets it, in Chromium (the fixtures and helpers of
tests/test_web_e2e.py).

An automated scan: axe-core (npm, injected by the test from node_modules, never served with the
site) runs its WCAG 2.0–2.2 A and AA rules on the page after it loads, after a solve with a move
previewed, after a move is played, with every panel open and filled (word tools, look-ahead,
a reviewed game, the rules editor, the filters with an error), and on a phone (390×844). Any
violation fails the test, listed with its rule, impact and the elements it found.

And the semantics a screen-reader user relies on, read from the browser's own accessibility
tree (Playwright's roles and accessible names, and its ARIA snapshot): the board is a grid of
rows and named cells, each square's name saying its coordinate, premium and tile, held to the
ruleset (premiums from its multipliers, letter values from its alphabet) and to what was typed;
the moves are a table with a header row whose rows the keyboard reaches, each named after the
native engine's move; the status is a polite live region whose text changes with a solve; every
form control has a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import test_web_e2e
from gaddag_solver import Board
from gaddag_solver.solver import Solver
from playwright.sync_api import expect
from test_web_e2e import DEFAULT_LEAVES, ENGLISH, Page, examples, native_moves, open_position

pytestmark = test_web_e2e.pytestmark
native = test_web_e2e.native

AXE = Path(test_web_e2e.ROOT) / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]  # axe has no wcag22a rule
PHONE = {"width": 390, "height": 844}
GCG = Path(test_web_e2e.ROOT) / "tests" / "data" / "gcg" / "quackle_boys_2006.gcg"
EMPTY = ["." * 15] * 15

VALUES = dict(zip(ENGLISH.alphabet.letters, ENGLISH.values, strict=True))
WORD_PREMIUMS = {2: ("double word", "DW"), 3: ("triple word", "TW"), 4: ("quadruple word", "QW")}
LETTER_PREMIUMS = {2: ("double letter", "DL"), 3: ("triple letter", "TL"), 4: ("quadruple letter", "QL")}


# ---- axe ---------------------------------------------------------------------------------------


def axe(page: Page) -> dict:
    """axe-core's WCAG 2 A/AA rules run on the page as it is now."""
    if not page.page.evaluate("typeof window.axe === 'object'"):
        page.page.add_script_tag(path=str(AXE))  # the test's own copy: the site does not carry it
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    return page.page.evaluate("(options) => axe.run(document, options)", options)


def described(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {' '.join(node['target'])}: {node['failureSummary']}")
    return "\n".join(lines)


def assert_accessible(page: Page, state: str) -> None:
    result = axe(page)
    # the scan looked at the page: these rules found elements to pass
    passed = {rule["id"] for rule in result["passes"]}
    assert {"color-contrast", "label", "aria-required-children", "button-name"} <= passed, state
    if result["violations"]:
        text = described(result["violations"])
        print(f"axe, {state}:\n{text}")
        pytest.fail(f"axe found {len(result['violations'])} rules violated {state}:\n{text}")


# ---- what the names should say ---------------------------------------------------------------------


def square_name(
    r: int,
    c: int,
    tile: str | None = None,
    *,
    blank: bool = False,
    preview: bool = False,
    unknown: bool = False,
) -> str:
    """A square's accessible name from the ruleset: "H8, double word, start, letter Q, 10 points".
    An empty premium square also says the label printed on it (TW, DL…); a tile of a word the
    lexicon lacks says so (``unknown``)."""
    start = (r, c) == tuple(ENGLISH.start)
    premium = None
    if not start or ENGLISH.start_doubles:
        premium = WORD_PREMIUMS.get(ENGLISH.word_multiplier(r, c)) or LETTER_PREMIUMS.get(
            ENGLISH.letter_multiplier(r, c)
        )
    parts = [f"{chr(65 + c)}{r + 1}"]
    if premium:
        name, printed = premium
        parts.append(f"{name} {printed}" if tile is None and not start else name)
    if start:
        parts.append("start")
    if tile is None:
        parts.append("empty")
    elif blank:
        parts.append(f"blank as {tile}")
    else:
        value = VALUES[tile]
        parts.append(f"letter {tile}, {value} {'point' if value == 1 else 'points'}")
    if preview:
        parts.append("preview")
    if unknown:
        parts.append("in a word not in the lexicon")
    return ", ".join(parts)


def points(value: float) -> str:
    """Equity as the page writes it in words (results.js's points(), not fixed)."""
    text = str(int(value)) if float(value).is_integer() else f"{value:.2f}"
    return re.sub(r"(\.\d)0$", r"\1", text).replace("-", "−")


def row_name(move: object) -> str:
    """The name of a row of the moves (and, without the leave, of its Play button)."""
    equity = f"equity {points(move.equity)}"
    return f"{move.coord} {move.word} for {move.score}, {equity}, leave {move.leave or 'none'}"


def grid_cell_names(page: Page) -> list[str]:
    """The gridcells' names as the browser's accessibility tree has them, row by row."""
    snapshot = page.page.get_by_role("grid", name="Board").aria_snapshot()
    return re.findall(r'^\s*- gridcell "([^"]*)"', snapshot, flags=re.MULTILINE)


# ---- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def desk(browser: object, server: str) -> Iterator[Page]:
    page = Page(browser, server).open()
    page.wait_ready()
    yield page
    page.close()


def solve(page: Page, rows: list[str], rack: str) -> None:
    open_position(page, rows, rack)
    page.solve_with_enter()


def fill_the_panels(page: Page, simulated: Callable[[], None] | None = None) -> None:
    """Every panel open and showing what it shows in use (``simulated``: called once the
    simulation has stopped, before a reviewed game takes the board)."""
    p = page.page
    for summary in ["#words-box", "#lookahead-box", "#replay-box", "#cgp-box", "#more-filters", "#own-box"]:
        p.click(f"{summary} > summary")
    p.click("#rules-editor > summary")
    p.click("#re-start")
    p.wait_for_selector("#re-fields:not([hidden])")
    # word tools: anagrams, and a word looked up
    p.select_option("#words-tool", "anagram")
    p.fill("#words-query", "AEIRST?")
    p.click("#words-form button[type=submit]")
    p.wait_for_selector("#words-list button")
    p.locator("#words-list button").first.click()
    # a filter that is not a whole number: its error shows
    p.fill("#f-score-min", "1.5")
    p.wait_for_selector("#filters-error:not([hidden])")
    # a simulation, stopped once it has a standing
    p.fill("#sim-candidates", "4")
    p.fill("#sim-confidence", "0")
    p.click("#sim-start")
    p.wait_for_function("() => (window.gaddag.lookAhead()?.iterations || 0) > 0", timeout=60_000)
    if p.is_visible("#lookahead-stop"):
        p.click("#lookahead-stop")
    p.wait_for_function("() => !document.querySelector('#lookahead').hasAttribute('aria-busy')")
    if simulated:
        simulated()
    # a game reviewed, a turn on
    p.set_input_files("#gcg-file", str(GCG))
    p.wait_for_function(
        "() => { const box = document.querySelector('#replay'); return !box.hidden && !box.ariaBusy; }",
        timeout=60_000,
    )
    p.click("#replay-next")


# ---- the scans ---------------------------------------------------------------------------------


def test_the_scan_finds_a_violation_put_in(desk: Page) -> None:
    """The scan can fail: an unnamed field and a grey-on-grey note put in the page are found."""
    desk.page.evaluate(
        """() => {
            const probe = document.createElement('div');
            probe.id = 'a11y-probe';
            probe.innerHTML = '<input id="a11y-probe-field" type="text">'
                + '<p style="color:#bbb;background:#ccc">faint</p>';
            document.querySelector('main').append(probe);
        }"""
    )
    try:
        found = {v["id"]: v for v in axe(desk)["violations"]}
        assert {"label", "color-contrast"} <= set(found), described(list(found.values()))
        assert [node["target"] for node in found["label"]["nodes"]] == [["#a11y-probe-field"]]
    finally:
        desk.page.evaluate("document.getElementById('a11y-probe').remove()")


def test_axe_is_not_part_of_the_site(site: Path, desk: Page) -> None:
    """axe-core is the tests' tool: the site does not carry it and the page never asks for it."""
    assert AXE.is_file()
    assert not [path for path in site.rglob("*") if "axe" in path.name.lower()]
    assert not [url for url in desk.requests if "axe" in url.lower()]


def test_loaded_solved_previewed_and_played(desk: Page, native: Solver) -> None:
    open_position(desk, EMPTY, "")
    assert_accessible(desk, "after the page loaded")
    rows, rack = examples()[1]
    solve(desk, rows, rack)
    first = native.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, leaves=DEFAULT_LEAVES)[0]
    desk.page.locator(".results-scroll .row[data-pos='0']").hover()
    expect(desk.page.locator("#board .sq.preview")).to_have_count(len(first.tiles))
    assert_accessible(desk, "after a solve, a move previewed")
    desk.page.locator(".results-scroll .row[data-pos='0'] button.play").click()
    expect(desk.page.locator("#results-note")).to_be_visible()
    assert_accessible(desk, "after a move was played (the list stale, the last move marked)")
    desk.set_rack("QQ1")
    desk.page.keyboard.press("Enter")
    expect(desk.page.locator("#rack-error")).to_be_visible()
    assert_accessible(desk, "with an error on the rack")


def test_every_panel_open(desk: Page) -> None:
    rows, rack = examples()[1]
    solve(desk, rows, rack)

    def show_a_candidate() -> None:
        """The look-ahead's moves are buttons: the keyboard shows one on the board."""
        show = desk.page.get_by_role("button", name=re.compile(r"^Show .+ on the board$")).first
        move = show.inner_text()
        show.focus()
        desk.page.keyboard.press("Enter")
        placed = desk.page.evaluate(
            "(move) => window.gaddag.lookAhead().candidates.find((c) => c.move === move).placed.length", move
        )
        assert placed > 0
        expect(desk.page.get_by_role("gridcell", name=re.compile(r", preview$"))).to_have_count(placed)

    fill_the_panels(desk, show_a_candidate)
    assert_accessible(desk, "with every panel open and in use")


def test_on_a_phone(browser: object, server: str) -> None:
    page = Page(browser, server, viewport=PHONE).open()
    try:
        page.wait_ready()
        assert_accessible(page, "on a phone, loaded")
        rows, rack = examples()[1]
        solve(page, rows, rack)
        assert_accessible(page, "on a phone, after a solve")
        fill_the_panels(page)
        assert_accessible(page, "on a phone, with every panel open")
        assert not page.errors, page.errors
    finally:
        page.close()


# ---- the semantics -----------------------------------------------------------------------------


def test_the_board_is_a_grid_of_named_squares(desk: Page, native: Solver) -> None:
    open_position(desk, EMPTY, "")
    grid = desk.page.get_by_role("grid", name="Board")
    expect(grid.get_by_role("row")).to_have_count(ENGLISH.rows + 1)  # the column letters, then the rows
    expect(grid.get_by_role("columnheader")).to_have_count(ENGLISH.cols)
    expect(grid.get_by_role("rowheader")).to_have_text([str(r + 1) for r in range(ENGLISH.rows)])
    expected = [square_name(r, c) for r in range(ENGLISH.rows) for c in range(ENGLISH.cols)]
    assert grid_cell_names(desk) == expected

    # a tile typed on H8, a blank after it: the names say them, and the field that takes the keys
    # says where the next letter goes
    desk.click_square(7, 7, "across")
    input_name = f"Board square {square_name(7, 7)}; typing across"
    expect(desk.page.get_by_role("textbox", name=input_name, exact=True)).to_be_focused()
    desk.type_tiles("Qi")
    # the page checks the words in its worker and then says the tiles are of a word it lacks:
    # before or after that answer, the squares name the tiles typed
    for (r, c), tile, blank in (((7, 7), "Q", False), ((7, 8), "I", True)):
        either = [square_name(r, c, tile, blank=blank, unknown=unknown) for unknown in (False, True)]
        exactly = re.compile("^(" + "|".join(map(re.escape, either)) + ")$")
        expect(grid.get_by_role("gridcell", name=exactly)).to_have_count(1)
    next_name = f"Board square {square_name(7, 9)}; typing across"
    expect(desk.page.get_by_role("textbox", name=next_name, exact=True)).to_be_focused()
    expect(desk.page.locator("#board .sq.selected")).to_have_attribute("aria-selected", "true")
    desk.page.keyboard.press("Space")
    down_name = f"Board square {square_name(7, 9)}; typing down"
    expect(desk.page.get_by_role("textbox", name=down_name, exact=True)).to_be_focused()
    # the whole board read back once the page has checked its words: two tiles, which spell QI, a
    # word the lexicon lacks (said in both names), and every other square as before
    assert "QI" not in native.lexicon  # the oracle: the lexicon itself
    listed = "document.querySelector('#board-words').textContent.includes('Qi (8H)')"  # i: the blank
    desk.page.wait_for_function(listed)
    typed = {
        (7, 7): square_name(7, 7, "Q", unknown=True),
        (7, 8): square_name(7, 8, "I", blank=True, unknown=True),
    }
    assert grid_cell_names(desk) == [
        typed.get((r, c), square_name(r, c)) for r in range(ENGLISH.rows) for c in range(ENGLISH.cols)
    ]


def test_the_moves_are_a_table_the_keyboard_walks(desk: Page, native: Solver) -> None:
    rows, rack = examples()[1]
    open_position(desk, rows, rack)
    status = desk.page.locator("#status")
    expect(status).to_have_role("status")
    expect(status).to_have_attribute("aria-live", "polite")
    before = status.inner_text()
    desk.solve_with_enter()
    expected = native_moves(native, rows, rack)
    # the status, a polite live region, says the solve
    expect(status).to_contain_text(f"{len(expected):,} moves in")
    assert status.inner_text() != before
    expect(desk.page.locator("#results-summary")).to_have_attribute("aria-live", "polite")

    table = desk.page.get_by_role("table", name="Moves")
    expect(table).to_have_attribute("aria-rowcount", str(len(expected) + 1))
    header = table.get_by_role("row").first
    # ranked by a leave table: the equity and the leave's value instead of the word's length
    assert re.findall(r'- columnheader "([^"]*)"', header.aria_snapshot()) == [
        "Pos", "Word", "Score", "Equity", "Tiles", "Leave", "Leave value", "Play"
    ]  # fmt: skip
    equity = table.get_by_role("columnheader", name="Equity", exact=True)
    expect(equity).to_have_attribute("aria-sort", "descending")

    # Tab from the filter reaches the list: the first move, named for what it is
    best = native.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, leaves=DEFAULT_LEAVES)[:2]
    desk.page.focus("#filter")
    focused = desk.page.locator(":focus")
    for _ in range(12):
        desk.page.keyboard.press("Tab")
        if focused.evaluate("el => el.getAttribute('role')") == "row":
            break
    expect(focused).to_have_role("row")
    expect(focused).to_have_accessible_name(row_name(best[0]))
    expect(focused).to_have_attribute("aria-rowindex", "2")
    # the focused move is previewed: its squares are named as previewed tiles
    for r, c, letter, blank in best[0].tiles:
        name = square_name(r, c, letter, blank=blank, preview=True)
        expect(desk.page.get_by_role("gridcell", name=name, exact=True)).to_be_visible()
    desk.page.keyboard.press("ArrowDown")
    expect(focused).to_have_accessible_name(row_name(best[1]))
    play = f"Play {row_name(best[1]).split(', leave')[0]}"
    expect(focused.get_by_role("button", name=play, exact=True)).to_have_count(1)


def test_every_form_control_is_named(desk: Page) -> None:
    rows, rack = examples()[1]
    solve(desk, rows, rack)
    fill_the_panels(desk)
    named = {
        "rules-select": ("combobox", "Rules"),
        "lexicon-select": ("combobox", "Lexicon"),
        "rack": ("textbox", "Rack (letters, ? for a blank)"),
        "leaves-select": ("combobox", "Leaves"),
        "exchanges": ("checkbox", "Exchanges & pass"),
        "filter": ("searchbox", "Filter"),
        "player1": ("textbox", "First player's name"),
        "words-query": ("textbox", "Letters, words or pattern"),
        "sim-candidates": ("spinbutton", "Candidates"),
        "f-score-min": ("spinbutton", "Lowest score"),
        "gcg-text": ("textbox", "GCG text"),
        "cgp": ("textbox", "CGP line"),
    }
    for element_id, (role, name) in named.items():
        expect(desk.page.get_by_role(role, name=name, exact=True)).to_have_id(element_id)
    # and no control in the accessibility tree without a name
    snapshot = desk.page.locator("body").aria_snapshot()
    controls = r"(textbox|searchbox|combobox|checkbox|spinbutton|button|slider|radio)"
    unnamed = re.findall(rf"^\s*- {controls}(?: \[[^\]]*\])?(?::.*)?$", snapshot, flags=re.MULTILINE)
    assert not unnamed, unnamed
    assert len(re.findall(rf'^\s*- {controls} "', snapshot, flags=re.MULTILINE)) > 40
