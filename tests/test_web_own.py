"""The player's own word lists and rules in the page, end to end in Debian's Chromium: a lexicon
built in the page from a small word list solves as the native Solver with the same words does,
is kept in the browser across a reload offline, downloads
byte-identical to build_lexicon.py's output and is removed; a .gaddag built elsewhere is loaded;
a 9×9 ruleset made in the rules editor (its own premiums and tile values) solves with the
scores the Python API gives under the exported JSON; bad files (binary garbage, an empty list,
a ruleset with a missing field) are refused with a message and lose nothing kept.

One browser and one site for the module (the default site: the player's files need no other).
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_web_e2e
from gaddag_solver import Board, Lexicon, Rules
from gaddag_solver.lexicon import build_gaddag
from gaddag_solver.solver import Solver
from small_words import WORDS
from test_web_e2e import Page

# the page's tests' skip where there is no chromium (their fixtures, the site built and served and
# one Chromium, are tests/conftest.py's)
pytestmark = test_web_e2e.pytestmark

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english")
# The list as a player might have it: lower case, a word with a letter outside A-Z, one longer
# than the board, a blank line, CRLF line ends; gzipped.
WORD_FILE = gzip.compress(
    ("\r\n".join([w.lower() for w in WORDS] + ["café", "", "A" * 16]) + "\r\n").encode("utf-8"), mtime=0
)


@pytest.fixture(scope="module")
def page(browser: object, server: str) -> Iterator[Page]:
    """One player's page (one browser profile: what is kept survives reloads)."""
    player = Page(browser, server).open()
    player.wait_ready()
    yield player
    player.close()


def choose_file(
    page: Page, selector: str, name: str, data: bytes, mime: str = "application/octet-stream"
) -> None:
    page.page.set_input_files(selector, files=[{"name": name, "mimeType": mime, "buffer": data}])


def no_leaves(page: Page) -> None:
    """Rank by score, as the native comparison does (a ruleset with no table already does)."""
    if page.page.is_enabled("#leaves-select"):
        page.page.select_option("#leaves-select", "")


def native_scores(solver: Solver, rows: list[str], rack: str) -> list[tuple[str, str, int]]:
    moves = solver.solve(Board.from_rows(rows, solver.rules), rack, warn=False)
    return [(m.coord, m.word, m.score) for m in moves]


def shown_scores(page: Page) -> list[tuple[str, str, int]]:
    return [(coord, word, score) for coord, word, score, _tiles, _leave in page.shown()]


def kept_names(page: Page) -> list[str]:
    return page.page.eval_on_selector_all("#own-list li", "items => items.map(li => li.dataset.name)")


def build(page: Page, name: str, file_name: str, data: bytes, rules: str = "english") -> None:
    page.page.click("#own-box summary") if not page.page.is_visible("#own-build") else None
    choose_file(page, "#own-file", file_name, data)
    page.page.fill("#own-name", name)
    page.page.select_option("#own-rules", rules)
    page.page.click("#own-build")


def wait_built(page: Page, name: str) -> None:
    page.page.wait_for_function(f"document.body.dataset.ownBuilt === {json.dumps(name)}", timeout=60_000)
    page.page.wait_for_function(f"document.body.dataset.ready === {json.dumps(name)}", timeout=60_000)


def test_own_word_list_built_solved_kept_downloaded_removed(page: Page, tmp_path: Path) -> None:
    # every request to the site, the service worker's included: an own lexicon's name is never
    # one of them (issue 26, item 13: keeping it offline asked for /lexicons/mywords.gaddag)
    asked: list[str] = []
    page.context.on("request", lambda request: asked.append(request.url))
    build(page, "mywords", "my words.txt.gz", WORD_FILE)
    wait_built(page, "mywords")
    # the statistics the CLI prints, for the same list (the CLI reads the same file)
    words_file = tmp_path / "my words.txt.gz"
    words_file.write_bytes(WORD_FILE)
    expected, report = build_gaddag(
        gzip.decompress(WORD_FILE).decode().split("\r\n"),
        ENGLISH.alphabet,
        name="mywords",
        max_length=ENGLISH.longest_line,
        source="my words.txt.gz",
    )
    stats = page.page.inner_text("#own-stats")
    assert f"words {report.words:,}" in stats and f"states {report.states:,}" in stats
    assert "skipped 1 word(s) with letters outside the alphabet" in stats and "café" in stats
    assert "skipped 1 word(s) longer than the longest board line" in stats
    assert report.words == len(WORDS) and report.filter.bad_letters == 1 and report.filter.too_long == 1
    assert kept_names(page) == ["mywords"]
    assert page.page.input_value("#lexicon-select") == "mywords"
    phases = page.page.get_attribute("#own-progress", "data-phases")
    assert phases == "read filtered built loaded stored"

    # solving with it gives the native Solver's moves with the same words
    solver = Solver(Lexicon.load(expected), ENGLISH)
    rows = ["." * 15] * 7 + ["....CAT........"] + ["." * 15] * 7
    page.type_board(rows)
    page.set_rack("AERST?X")
    no_leaves(page)
    page.solve_with_enter()
    want = native_scores(solver, rows, "AERST?X")
    assert len(want) > 100
    assert shown_scores(page) == want

    # reload offline: the service worker serves the page, the kept lexicon comes from the browser
    kept = page.page.evaluate("window.gaddag.offline()")  # waits for the service worker's shell
    assert kept["supported"]
    assert not [path for path in kept["kept"] if "mywords" in path]
    assert not [url for url in asked if "mywords" in url]
    fetched: list[str] = []
    page.page.on("request", lambda request: fetched.append(request.url))
    page.context.set_offline(True)
    try:
        page.page.reload()
        page.page.wait_for_selector("body[data-ready='mywords']", timeout=60_000)
        assert page.page.input_value("#lexicon-select") == "mywords"
        assert page.board_rows() == rows
        no_leaves(page)
        page.solve_with_enter()
        assert shown_scores(page) == want
    finally:
        page.context.set_offline(False)
    assert not [url for url in fetched if "mywords" in url], "the kept lexicon is read from the browser"

    # download: build_lexicon.py's bytes for the same list and name
    page.page.click("#own-box summary") if not page.page.is_visible("#own-list") else None
    with page.page.expect_download() as download:
        page.page.click("#own-list li[data-name='mywords'] button[data-action='download']")
    assert Path(download.value.path()).read_bytes() == expected

    # a .gaddag built elsewhere: the same bytes under another name, listed and usable
    build(page, "fromfile", "elsewhere.gaddag", expected)
    wait_built(page, "fromfile")
    assert kept_names(page) == ["fromfile", "mywords"]
    no_leaves(page)
    page.solve_with_enter()
    assert shown_scores(page) == want

    # removed: gone from the list and the choices, the site's default back in use
    page.page.click("#own-list li[data-name='fromfile'] button[data-action='remove']")
    page.page.wait_for_function("!document.querySelector(\"#own-list li[data-name='fromfile']\")")
    options = page.page.eval_on_selector_all("#lexicon-select option", "o => o.map(x => x.value)")
    assert "fromfile" not in options and "mywords" in options


def start_editing(page: Page) -> None:
    """Edit a copy of the base chosen, and wait until the editor holds it: the fields of an earlier
    edit may still be on screen while the copy is asked of the worker."""
    p = page.page
    base = p.input_value("#re-base")
    p.evaluate("delete document.querySelector('#rules-editor').dataset.editing")
    p.click("#re-start")
    p.wait_for_selector(f"#rules-editor[data-editing='{base}-own']")
    p.wait_for_selector("#re-fields:not([hidden])")


def test_bad_files_refused_and_nothing_lost(page: Page) -> None:
    before = kept_names(page)
    assert "mywords" in before
    cases = [
        ("garbage.txt", bytes(range(256)) * 8, "not valid UTF-8"),
        ("empty.txt", b"\n\n  \n", "no words to build from"),
        ("fake.gaddag", b"\x89GADDAG\n" + b"\x00" * 40, "not a valid .gaddag file"),
        ("wrong.json", b'["CAT", 7]', "entry 2 is int, not a string"),
    ]
    for file_name, data, message in cases:
        build(page, "mywords", file_name, data)  # the name of the lexicon kept: nothing replaced
        page.page.wait_for_function("!document.querySelector('#own-error').hidden", timeout=30_000)
        text = page.page.inner_text("#own-error")
        assert message in text, (file_name, text)
        page.page.evaluate("document.querySelector('#own-error').hidden = true")
    assert kept_names(page) == before
    # a file dropped on the panel's drop zone is the panel's, not a game record for the replay
    page.page.evaluate(
        """() => {
            const data = new DataTransfer();
            data.items.add(new File(["CAT\\nDOG\\n"], "dropped.txt", { type: "text/plain" }));
            const zone = document.querySelector("#own-drop");
            const drop = new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
            zone.dispatchEvent(drop);
        }"""
    )
    assert page.page.inner_text("#own-chosen").startswith("dropped.txt")
    assert page.page.input_value("#own-name") == "dropped"
    assert not page.page.is_visible("#replay")
    # the kept lexicon is intact: it still loads and solves
    page.page.select_option("#lexicon-select", "mywords")
    page.page.wait_for_selector("body[data-ready='mywords']", timeout=60_000)


# The 9×9 board: English's layout as the editor scales it, with these squares painted.
PAINTED = {(8, 8): "T", (0, 8): "T", (8, 0): "T", (5, 4): "q", (2, 6): "Q", (4, 4): "D"}


def scaled(layout: list[str], rows: int, cols: int) -> list[str]:
    """The editor's scaling, recomputed: each square takes the old top-left quarter's square at
    the same fraction of the way from the nearest edge to the middle, row and column."""

    def source(i: int, n: int, old: int) -> int:
        half, old_half = (n - 1) / 2, (old - 1) / 2
        j = math.floor(min(i, n - 1 - i) * old_half / half + 0.5) if half > 0 else 0
        return min(j, math.floor(old_half))

    return [
        "".join(layout[source(r, rows, len(layout))][source(c, cols, len(layout[0]))] for c in range(cols))
        for r in range(rows)
    ]


def nine_layout() -> list[str]:
    rows = [list(row) for row in scaled(["".join(r) for r in ENGLISH.premiums], 9, 9)]
    for (r, c), char in PAINTED.items():
        rows[r][c] = char
    return ["".join(row) for row in rows]


def editor_board(page: Page) -> tuple[list[str], tuple[int, int]]:
    """The editor's board as drawn: its premium characters, row by row, and the start square."""
    squares = page.page.eval_on_selector_all(
        "#re-board .re-square",
        "s => s.map(q => [+q.dataset.row, +q.dataset.col, q.dataset.premium, !!q.dataset.start])",
    )
    rows = max(r for r, _c, _p, _s in squares) + 1
    cols = max(c for _r, c, _p, _s in squares) + 1
    grid = [["."] * cols for _ in range(rows)]
    start = (-1, -1)
    for r, c, premium, is_start in squares:
        grid[r][c] = premium
        if is_start:
            start = (r, c)
    return ["".join(row) for row in grid], start


def test_a_resized_board_keeps_a_symmetric_layout_with_the_start_in_the_middle(page: Page) -> None:
    """Issue 26, item 8: 15×15 to 11×11 kept the top-left corner (triple words at A1, H1 and A8
    only) and the start at 8,8, off centre."""
    p = page.page
    p.click("#rules-editor summary")
    p.select_option("#re-base", "english")
    start_editing(page)
    english = ["".join(row) for row in ENGLISH.premiums]
    for rows, cols in ((11, 11), (9, 13), (21, 21), (15, 15)):
        p.fill("#re-rows", str(rows))
        p.fill("#re-cols", str(cols))
        p.wait_for_function(f"document.querySelectorAll('#re-board .re-square').length === {rows * cols}")
        layout, start = editor_board(page)
        assert layout == scaled(english, rows, cols), (rows, cols)
        assert layout == [row[::-1] for row in layout] and layout == layout[::-1]  # symmetric both ways
        assert start == (rows // 2, cols // 2)
        assert p.input_value("#re-start-row") == str(rows // 2 + 1)
        assert {layout[0][0], layout[0][-1], layout[-1][0], layout[-1][-1]} == {english[0][0]}
    assert editor_board(page)[0] == english  # back to 15×15: the shipped layout itself
    # typed a digit at a time (1, then 11): scaled from the layout loaded, not from a 1-row one
    p.fill("#re-rows", "1")
    p.fill("#re-rows", "11")
    p.fill("#re-cols", "11")
    p.wait_for_function("document.querySelectorAll('#re-board .re-square').length === 121")
    assert editor_board(page)[0] == scaled(english, 11, 11)
    p.click("#rules-editor summary")  # closed again, as the next test finds the page


def test_nine_by_nine_rules_made_in_the_editor(page: Page, tmp_path: Path) -> None:
    p = page.page
    p.click("#rules-editor summary")
    p.select_option("#re-base", "english")
    start_editing(page)
    p.fill("#re-name", "nine")
    p.fill("#re-title", "Nine")
    p.fill("#re-rows", "9")
    p.fill("#re-cols", "9")
    p.wait_for_function("document.querySelectorAll('#re-board .re-square').length === 81")
    for (r, c), tool in PAINTED.items():
        p.click(f"#re-palette button[data-tool='{tool}']")
        p.click(f"#re-board [data-row='{r}'][data-col='{c}']")
    p.click("#re-palette button[data-tool='start']")
    p.click("#re-board [data-row='4'][data-col='4']")
    # tile values: E worth 5, Z worth 7; a missing value is said at the letters
    e_value = p.locator("#re-letters tr:nth-child(5) input[data-part='value']")
    e_value.fill("")
    p.wait_for_function("!document.querySelector('[data-error-for=letters]').hidden")
    assert "letters[4]" in p.inner_text("[data-error-for=letters]")
    e_value.fill("5")
    p.locator("#re-letters tr:nth-child(26) input[data-part='value']").fill("7")
    p.fill("#re-rack_size", "0")
    p.wait_for_function("!document.querySelector('[data-error-for=rack_size]').hidden")
    assert "rack_size" in p.inner_text("[data-error-for=rack_size]")
    p.fill("#re-rack_size", "7")
    p.wait_for_function("document.querySelector('#re-status').dataset.valid === 'true'")
    p.click("#re-export")
    p.wait_for_function("document.querySelector('#re-json').value.length > 0")
    exported = p.input_value("#re-json")
    rules = Rules.from_json(exported, "nine.json")
    assert ["".join(row) for row in rules.premiums] == nine_layout()
    assert rules.start == (4, 4) and rules.values[4] == 5 and rules.values[25] == 7
    assert rules.to_json() == exported
    # the command line takes the exported file as it is
    (tmp_path / "nine.json").write_text(exported, encoding="utf-8")
    assert Rules.load(tmp_path / "nine.json") == rules

    p.click("#re-save")
    p.wait_for_function("document.querySelector('#rules-select').value === 'nine'")
    p.wait_for_selector("body[data-ready]", timeout=60_000)
    lexicon = p.input_value("#lexicon-select")
    solver = Solver(Lexicon.load(ROOT / "lexicons" / f"{lexicon}.gaddag"), rules)
    empty = ["." * 9] * 9
    page.set_rack("ZEAXRTS")
    no_leaves(page)
    page.solve_with_enter()
    want = native_scores(solver, empty, "ZEAXRTS")
    assert len(want) > 20 and shown_scores(page) == want

    # kept across a reload, with its board
    p.reload()
    p.wait_for_selector("body[data-ready]", timeout=60_000)
    assert p.input_value("#rules-select") == "nine"
    assert p.eval_on_selector_all("#board .sq", "s => s.length") == 81

    # a ruleset file with a missing field is refused by the import, and the one kept stays
    p.click("#rules-editor summary")
    broken = json.loads(exported)
    del broken["rack_size"]
    choose_file(page, "#re-import", "broken.json", json.dumps(broken).encode(), "application/json")
    p.wait_for_function("!document.querySelector('#re-error').hidden")
    assert "rack_size: missing" in p.inner_text("#re-error")
    assert p.input_value("#rules-select") == "nine"


def test_rules_with_tiles_of_two_letters_in_the_editor(page: Page) -> None:
    """Spanish in the rules editor: CH, LL and RR are letters like any other, a new letter of two
    (NY, as Catalan's) can be added, and the export is a valid ruleset with them."""
    p = page.page
    p.evaluate("document.querySelector('#rules-editor').open = true")
    p.select_option("#re-base", "spanish")
    start_editing(page)
    spanish = Rules.load("spanish")
    letters = p.eval_on_selector_all(
        "#re-letters input[data-part='letter']", "inputs => inputs.map(i => i.value)"
    )
    assert letters == list(spanish.alphabet.letters)
    ch = letters.index("CH") + 1
    p.locator(f"#re-letters tr:nth-child({ch}) input[data-part='value']").fill("6")
    p.fill("#re-name", "spanish-ny")
    p.click("#re-add-letter")
    last = p.locator("#re-letters tr:last-child")
    last.locator("input[data-part='value']").fill("9")
    last.locator("input[data-part='count']").fill("1")
    last.locator("input[data-part='letter']").fill("ny")  # a letter is written in upper case: said so
    # the check runs after each change: wait for the one of "ny" (the empty new row's may show first)
    p.wait_for_function(
        """() => { const e = document.querySelector('[data-error-for=letters]');
                   return !e.hidden && e.textContent.includes("write 'NY'"); }"""
    )
    last.locator("input[data-part='letter']").fill("NY")
    p.wait_for_function("document.querySelector('#re-status').dataset.valid === 'true'")
    p.click("#re-export")
    p.wait_for_function("document.querySelector('#re-json').value.includes('spanish-ny')")
    rules = Rules.from_json(p.input_value("#re-json"), "spanish-ny.json")
    assert rules.letter_value(rules.alphabet.code("CH")) == 6
    assert rules.letter_value(rules.alphabet.code("NY")) == 9
    assert rules.alphabet.split(rules.alphabet.normalize("nyoqui")) == ["NY", "O", "Q", "U", "I"]
    assert rules.tile_total == spanish.tile_total + 1


def test_no_script_errors(page: Page) -> None:
    """Everything above ran without an uncaught error or a console error in the page."""
    assert not page.errors, page.errors
