"""The solver page end to end: Debian's Chromium driven by Python Playwright, on build/site
served by a local static server (python -m http.server on 127.0.0.1, a free port).

A player's path: the page boots offline (no request leaves 127.0.0.1); a mid-game position and
a rack are typed on the keyboard; the listed moves and scores are the native engine's (the
same lexicon through the cffi binding); a move is previewed and played; racks with blanks; bad
input is reported without losing what was typed; a reload keeps the board; CGP goes out and
comes back. With a small leave table (a second site, scripts/build_site.py --lexicons): equity
as the native Solver values it, exchanges and the pass, the unseen-tiles panel kept current.
Screenshots of the main states go to test-artifacts/web/.

Needs /usr/bin/chromium (apt-get install chromium), the playwright package and Pyodide in
node_modules (npm ci); scripts/setup_env.sh installs all three. The site is (re)built first
(scripts/build_site.py, incremental).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

# Locally a machine without the browser tools skips these tests; in CI (CI=true) that is a
# failure, since scripts/setup_env.sh installs them.
IN_CI = bool(os.environ.get("CI"))
if IN_CI:
    import playwright.sync_api as playwright_api
else:
    playwright_api = pytest.importorskip(
        "playwright.sync_api", reason="pip install playwright (the test extra)"
    )

from build_lock import build_lock  # noqa: E402
from chromium import CHROMIUM  # noqa: E402
from gaddag_solver import Board, Lexicon, Rack, Rules  # noqa: E402
from gaddag_solver.formats.cgp import Position, format_cgp  # noqa: E402
from gaddag_solver.formats.leaves import Leaves  # noqa: E402
from gaddag_solver.game import Game  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402
from gaddag_solver.solver import Solver  # noqa: E402
from gaddag_solver.unseen import unseen  # noqa: E402
from leave_csv import sample_csv  # noqa: E402
from static_server import static_server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site"
ARTIFACTS = ROOT / "test-artifacts" / "web"
EXAMPLES = ROOT / "tests" / "data" / "sowpods" / "examples.txt"
ENGLISH = Rules.load("english")
LEXICON = "enable"  # what the returning player of the tests chose (RETURNING_PLAYER)
DEFAULT_LEAVES = Leaves.for_lexicon(LEXICON, ENGLISH)  # the page ranks by it until a table is chosen

pytestmark = pytest.mark.skipif(
    not IN_CI and not Path(CHROMIUM).exists(), reason="needs Debian's chromium (/usr/bin/chromium)"
)


def examples() -> list[tuple[list[str], str]]:
    blocks = EXAMPLES.read_text().strip().split("\n\n")
    out = []
    for block in blocks:
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        out.append((lines[:15], lines[15]))
    return out


# ---- fixtures ------------------------------------------------------------------------------------


def build_site(out: Path, lexicon_dirs: list[Path] | None = None) -> Path:
    """scripts/build_site.py's build (incremental)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_site as script
    finally:
        sys.path.pop(0)
    with build_lock():
        return script.build(out, lexicon_dirs=lexicon_dirs)


# The site, its static server and the browser are tests/conftest.py's fixtures (site, server,
# browser): made once per pytest-xdist worker, for every module of the page's tests.


# What a returning player chose, as the page keeps it (web/app.js, STORE_KEY): ENABLE and no
# exchanges. Most tests compare the page with the native solver on these; a new visitor gets the
# tournament list for the browser's language and exchanges (Page(..., first_visit=True)).
RETURNING_PLAYER = {"lexicon": {"english": LEXICON}, "exchanges": False}
_RETURNING_SCRIPT = (
    "if (!localStorage.getItem('gaddag-solver/v1')) "
    f"localStorage.setItem('gaddag-solver/v1', {json.dumps(json.dumps(RETURNING_PLAYER))});"
)


class Page:
    """One browser page on the site, with the helpers a player's actions need. Unless
    ``first_visit``, the browser has kept a returning player's choices (RETURNING_PLAYER)."""

    def __init__(
        self,
        browser: object,
        url: str,
        viewport: dict[str, int] | None = None,
        first_visit: bool = False,
        **options: object,
    ) -> None:
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, **options)
        if not first_visit:
            self.context.add_init_script(_RETURNING_SCRIPT)
        self.page = self.context.new_page()
        self.url = url
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self) -> Page:
        self.page.goto(self.url)
        self.page.wait_for_selector("body[data-board-ready]", timeout=10_000)
        return self

    def wait_ready(self) -> Page:
        self.page.wait_for_selector("body[data-ready]", timeout=60_000)
        return self

    def close(self) -> None:
        self.context.close()

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)

    # ---- the board ----------------------------------------------------------------------------

    def square(self, r: int, c: int) -> object:
        return self.page.locator(f'#board .sq[data-r="{r}"][data-c="{c}"]')

    def direction(self) -> str:
        return "across" if "across" in self.page.inner_text("#dir-toggle") else "down"

    def click_square(self, r: int, c: int, direction: str) -> None:
        self.square(r, c).click()
        if self.direction() != direction:
            self.page.keyboard.press("Space")
        assert self.direction() == direction

    def type_tiles(self, text: str) -> None:
        """Type tiles as a player does: a letter is a tile, Shift+letter a blank."""
        for char in text:
            if char.islower():
                self.page.keyboard.press(f"Shift+{char.upper()}")
            else:
                self.page.keyboard.type(char.lower())

    def type_board(self, rows: list[str]) -> None:
        """Type a position: words across row by row, then down words with letters still missing,
        then any tile left alone."""
        typed: set[tuple[int, int]] = set()

        def runs(line: str) -> Iterator[tuple[int, str]]:
            start = None
            for i, char in enumerate(line + "."):
                if char != "." and start is None:
                    start = i
                elif char == "." and start is not None:
                    yield start, line[start:i]
                    start = None

        for r, line in enumerate(rows):
            for c, word in runs(line):
                if len(word) > 1:
                    self.click_square(r, c, "across")
                    self.type_tiles(word)
                    typed.update((r, c + k) for k in range(len(word)))
        for c in range(len(rows[0])):
            column = "".join(row[c] for row in rows)
            for r, word in runs(column):
                squares = {(r + k, c) for k in range(len(word))}
                if len(word) > 1 and squares - typed:
                    self.click_square(r, c, "down")
                    self.type_tiles(word)
                    typed |= squares
        for r, line in enumerate(rows):
            for c, char in enumerate(line):
                if char != "." and (r, c) not in typed:
                    self.click_square(r, c, "across")
                    self.type_tiles(char)

    def board_rows(self) -> list[str]:
        return self.page.evaluate("window.gaddag.boardRows()")

    # ---- solving ------------------------------------------------------------------------------

    def set_rack(self, rack: str) -> None:
        self.page.click("#rack")
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Delete")
        self.page.keyboard.type(rack)

    def solve_with_enter(self) -> dict:
        before = self.page.get_attribute("#results", "data-solve-seq") or "0"
        self.page.click("#rack")
        self.page.keyboard.press("End")
        self.page.keyboard.press("Enter")
        self.page.wait_for_function(
            f"(document.querySelector('#results').dataset.solveSeq || '0') !== '{before}'", timeout=60_000
        )
        return self.page.evaluate("window.gaddag.lastSolve")

    def shown(self, limit: int | None = None) -> list[tuple[str, str, int, str, str]]:
        # as JSON text: Playwright hands tens of thousands of objects over one by one, 30 s for a
        # two-blank rack's list on a loaded machine, where one string takes a fraction of a second
        shown = f"window.gaddag.shownMoves({limit if limit is not None else 'Infinity'})"
        moves = json.loads(self.page.evaluate(f"JSON.stringify({shown})"))
        return [(m["coord"], m["word"], m["score"], m["tiles_used"], m["leave"]) for m in moves]

    def visible_rows(self) -> list[list[str]]:
        return self.page.evaluate(
            """() => [...document.querySelectorAll('.results-scroll .row')]
                .sort((a, b) => a.dataset.pos - b.dataset.pos)
                .map(row => [...row.querySelectorAll('[role=cell]')].slice(0, 8).map(c => c.textContent))"""
        )


@pytest.fixture(scope="module")
def native() -> Solver:
    return Solver(Lexicon.load(ROOT / "lexicons" / f"{LEXICON}.gaddag"), ENGLISH)


def native_moves(solver: Solver, rows: list[str], rack: str) -> list[tuple[str, str, int, str, str]]:
    moves = solver.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, leaves=DEFAULT_LEAVES)
    return [(m.coord, m.word, m.score, m.tiles_used, m.leave) for m in moves]


@pytest.fixture(scope="module")
def player(browser: object, server: str) -> Iterator[Page]:
    """One page that the tests below play through in order: the mid-game position typed in."""
    page = Page(browser, server).open()
    page.wait_ready()
    yield page
    page.close()


# ---- tests ---------------------------------------------------------------------------------------


def test_page_boots_from_our_own_files_only(browser: object, server: str) -> None:
    page = Page(browser, server)
    try:
        page.open()
        page.shot("00-loading.png")
        # the board is usable before the solver has loaded
        page.click_square(7, 7, "across")
        page.type_tiles("C")
        assert page.board_rows()[7][7] == "C"
        page.page.keyboard.press("Backspace")
        page.page.keyboard.press("Backspace")
        assert page.board_rows()[7] == "." * 15
        page.wait_ready()
        page.shot("01-ready.png")
        hosts = {urlparse(url).hostname for url in page.requests if not url.startswith(("data:", "blob:"))}
        assert hosts == {"127.0.0.1"}, hosts
        assert any(url.endswith("pyodide.asm.wasm") for url in page.requests)
        assert any(url.endswith(f"lexicons/{LEXICON}.gaddag") for url in page.requests)
        # the board as the rules say: 15×15, coordinates on the edges, premiums labelled
        assert page.page.locator("#board .sq").count() == 225
        assert page.page.locator("#board .col-label").all_inner_texts() == [chr(65 + i) for i in range(15)]
        assert page.page.locator("#board .row-label").all_inner_texts() == [str(i) for i in range(1, 16)]
        assert page.page.locator("#board .sq.tw").count() == 8
        assert page.page.locator("#board .sq.tl").count() == 12
        assert page.square(0, 0).inner_text() == "TW"
        # English first, with the tournament list of the browser's language first (Chromium here:
        # en-US, so TWL06) and the returning player's choice (enable) chosen; each ruleset with its
        # own default lexicon
        assert page.page.evaluate("navigator.language") == "en-US"
        assert page.page.locator("#rules-select option").first.get_attribute("value") == "english"
        assert page.page.locator("#lexicon-select option").first.get_attribute("value") == "twl06"
        assert page.page.input_value("#lexicon-select") == "enable"
        page.page.select_option("#rules-select", "polish")
        assert page.page.locator("#lexicon-select option").first.get_attribute("value") == "sjp"
        # French and English are both spelled A to Z, but each offers the word lists of its language
        assert "[" not in page.page.inner_text("label[for=rack]")  # no such tile in Polish
        page.page.select_option("#rules-select", "french")
        assert page.page.eval_on_selector_all("#lexicon-select option", "os => os.map(o => o.value)") == [
            "wfrench"
        ]
        assert page.page.input_value("#leaves-select") == "wfrench"
        page.page.select_option("#rules-select", "super")
        assert page.page.locator("#board .sq").count() == 21 * 21
        # the table trained for ENABLE under Super Scrabble's 200 tiles, not twl06's 100-tile one
        assert page.page.input_value("#leaves-select") == "enable-super"
        assert page.page.locator("#board .col-label").all_inner_texts()[-1] == "U"
        page.page.select_option("#rules-select", "english")
        assert not page.errors, page.errors
    finally:
        page.close()


@pytest.mark.parametrize(
    ("locale", "rules", "lexicon"),
    [
        ("fr-FR", "french", "wfrench"),
        ("de-AT", "german", "wngerman"),
        ("es-MX", "spanish", "spanish-words"),
        ("ru-RU", "russian", "opencorpora"),
        ("pl-PL", "polish", "sjp"),
    ],
)
def test_a_first_visit_plays_the_scrabble_of_its_language(
    browser: object, server: str, locale: str, rules: str, lexicon: str
) -> None:
    """Nothing kept in the browser: a French browser starts with French Scrabble, its word list
    and its trained table (Russian Scrabble rather than Эрудит for Russian), and the choice is
    kept for the next visit."""
    page = Page(browser, server, first_visit=True, locale=locale).open()
    try:
        page.page.wait_for_selector("body[data-board-ready]")
        assert page.page.input_value("#rules-select") == rules
        assert page.page.input_value("#lexicon-select") == lexicon
        assert page.page.input_value("#leaves-select") == lexicon
        page.page.reload()
        page.page.wait_for_selector("body[data-board-ready]", timeout=10_000)
        assert page.page.input_value("#rules-select") == rules
        assert not page.errors, page.errors
    finally:
        page.close()


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "twl06"), ("en-CA", "twl06"), ("en-GB", "sowpods"), ("nl-NL", "sowpods")],
)
def test_a_first_visit_gets_the_tournament_list_of_its_language_and_exchanges(
    browser: object, server: str, native: Solver, locale: str, expected: str
) -> None:
    """Nothing kept in the browser: the English lexicon is the tournament list of where the
    browser's language places the player, QI is a word in it, and Exchanges & pass is ticked, so
    a rack best exchanged lists the exchange first. The choice is kept for the next visit."""
    page = Page(browser, server, first_visit=True, locale=locale).open()
    try:
        assert page.page.evaluate("navigator.language") == locale
        assert page.page.input_value("#lexicon-select") == expected
        assert page.page.is_checked("#exchanges")
        page.wait_ready()
        assert any(url.endswith(f"lexicons/{expected}.gaddag") for url in page.requests)
        rack = "IIUUVW?"
        page.set_rack(rack)
        listed = page.solve_with_enter()
        tournament = Lexicon.load(resolve_lexicon(expected), ENGLISH)
        leaves = Leaves.for_lexicon(expected, ENGLISH)
        moves = Solver(tournament).solve(Board.empty(ENGLISH), rack, leaves=leaves, exchanges=True)
        best = moves[0]
        assert best.kind == "exchange", best  # the native solver: keeping I? beats any play
        first = json.loads(page.page.evaluate("JSON.stringify(window.gaddag.shownMoves(1))"))[0]
        assert (first.get("kind"), first["exchanged"], first["leave"]) == (
            "exchange",
            best.exchanged,
            best.leave,
        )
        assert first["equity"] == pytest.approx(best.equity, abs=0.01)
        assert listed["count"] == len(moves)
        page.page.reload()
        page.page.wait_for_selector("body[data-board-ready]", timeout=10_000)
        assert page.page.input_value("#lexicon-select") == expected  # kept
        assert not page.errors, page.errors
    finally:
        page.close()


def test_midgame_typed_on_the_keyboard_lists_the_native_moves(player: Page, native: Solver) -> None:
    rows, rack = examples()[1]  # the mid-game board of tests/data/sowpods/examples.txt, AEIRSTU
    player.type_board(rows)
    assert player.board_rows() == rows
    assert player.square(7, 9).get_attribute("class").split().count("blank") == 1  # FLOWERs: a blank s
    player.set_rack(rack.lower())
    player.solve_with_enter()
    expected = native_moves(native, rows, rack)
    shown = player.shown()
    assert len(shown) == len(expected) > 500
    assert shown == expected
    # the rows on screen say the same
    visible = player.visible_rows()
    assert len(visible) < 100  # a virtual list: only the rows in view exist
    valued = native.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, leaves=DEFAULT_LEAVES)[:10]
    for cells, move in zip(visible[:10], valued, strict=True):
        # ranked by the lexicon's table: coord, word, length, score, equity, tiles, leave, leave value
        points = lambda value, signed=False: (  # noqa: E731  (results.js's points(), fixed)
            ("+" if signed and value > 0 else "") + f"{value:.2f}"
        ).replace("-", "−")
        assert cells == [
            move.coord,
            move.word,
            str(len(move.word)),
            str(move.score),
            points(move.equity),
            move.tiles_used,
            move.leave or "–",
            points(move.leave_value, signed=True),
        ]
    summary = player.page.inner_text("#results-summary")
    assert f"{len(expected):,} moves" in summary
    player.shot("02-midgame-results.png")

    # sorting and filtering
    player.page.click("#results [data-sort=word]")
    words = [m[1].upper() for m in player.shown(50)]
    assert words == sorted(words)
    player.page.click("#results [data-sort=score]")
    by_score = native.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, top=3)
    assert [m[2] for m in player.shown(3)] == [m.score for m in by_score]
    player.page.fill("#filter", "ite")
    player.page.wait_for_function(f"window.gaddag.shownCount() < {len(expected)}")
    filtered = player.shown()
    assert sorted(filtered) == sorted(m for m in expected if "ITE" in m[1].upper())
    assert [m[2] for m in filtered] == sorted((m[2] for m in filtered), reverse=True)  # still by score
    player.page.fill("#filter", "")
    player.page.wait_for_function(f"window.gaddag.shownCount() === {len(expected)}")
    player.page.click("#results [data-sort=equity]")  # back to the ranking the tests below expect
    assert player.shown(3) == expected[:3]


def test_preview_and_play_a_move(player: Page, native: Solver) -> None:
    rows, rack = examples()[1]
    first = native.solve(Board.from_rows(rows, ENGLISH), rack, top=1, leaves=DEFAULT_LEAVES)[0]
    row = player.page.locator(".results-scroll .row[data-pos='0']")
    row.hover()
    previewed = player.page.locator("#board .sq.preview")
    assert previewed.count() == len(first.tiles)
    for r, c, letter, _blank in first.tiles:
        assert "preview" in player.square(r, c).get_attribute("class")
        assert player.square(r, c).inner_text().startswith(letter)
    player.shot("03-preview.png")
    # keyboard focus previews too
    player.page.mouse.move(0, 0)
    assert player.page.locator("#board .sq.preview").count() == 0
    row.focus()
    assert player.page.locator("#board .sq.preview").count() == len(first.tiles)
    player.page.keyboard.press("ArrowDown")
    second = player.page.locator(".results-scroll .row[data-pos='1']")
    assert second.evaluate("el => el === document.activeElement")

    row.locator("button.play").click()
    after = Board.from_rows(rows, ENGLISH).play(first)
    assert player.board_rows() == after.to_rows()
    assert player.page.input_value("#rack") == first.leave  # URALITES uses the whole rack: ""
    assert player.page.locator("#board .sq.preview").count() == 0
    assert not player.page.locator("#results-note").is_hidden()  # "the position has changed"
    assert player.page.locator(".results-scroll button.play").first.is_disabled()
    player.shot("04-played.png")
    # back to the mid-game position for the next tests
    for r, c, _letter, _blank in first.tiles:
        player.click_square(r, c, "across")
        player.page.keyboard.press("Delete")
    assert player.board_rows() == rows


def test_racks_with_blanks(player: Page, native: Solver) -> None:
    rows, _ = examples()[1]
    player.set_rack("deirst?")
    player.solve_with_enter()
    expected = native_moves(native, rows, "DEIRST?")
    assert player.shown() == expected
    assert player.page.locator(".results-scroll .row[data-pos='0'] .c-word .bl").count() >= 1
    player.shot("05-blank-rack.png")

    rows4, rack4 = examples()[3]  # a two-blank rack: tens of thousands of plays
    for r, line in enumerate(rows4):
        for c, char in enumerate(line):
            if char != rows[r][c]:
                player.click_square(r, c, "across")
                if rows[r][c] != ".":
                    player.page.keyboard.press("Delete")  # typed on a tile, a letter keeps the tile
                player.type_tiles(char)
    assert player.board_rows() == rows4
    player.set_rack(rack4)
    solved = player.solve_with_enter()
    expected = native_moves(native, rows4, rack4)
    assert solved["count"] == len(expected) > 20_000
    assert player.shown(200) == expected[:200]
    assert player.shown()[-50:] == expected[-50:]
    # scrolled to the end, the last rows are drawn
    player.page.eval_on_selector(".results-scroll", "el => { el.scrollTop = el.scrollHeight; }")
    player.page.wait_for_function(
        f"document.querySelector('.results-scroll .row[data-pos=\"{len(expected) - 1}\"]') !== null"
    )
    assert len(player.visible_rows()) < 100


def test_spanish_tiles_of_two_letters(browser: object, server: str) -> None:
    """Spanish: a board holding CH, LL and RR tiles, a rack typed with [RR], and the page lists
    what the native solver does; C then H typed on the board is one CH tile, L then L one LL."""
    spanish = Rules.load("spanish")
    lexicon = Lexicon.load(resolve_lexicon("spanish-words"), spanish)
    game = Game.new(lexicon, spanish, seed=5)
    for _ in range(8):
        game.play(game.best_move())
    rows = game.board.to_rows()
    assert sum(row.count("[") for row in rows) >= 2  # the position holds two-letter tiles
    page = Page(browser, server).open()
    try:
        open_position(
            page, rows, "", rules="spanish", boards={"spanish": rows}, lexicon={"spanish": "spanish-words"}
        )
        assert page.board_rows() == rows
        assert page.square(7, 0).inner_text().startswith("CH")
        assert "CH or [CH] for the CH tile" in page.page.inner_text("label[for=rack]")
        rack = "AEEIO[RR]S"
        page.set_rack(rack.lower())
        page.solve_with_enter()
        table = Leaves.for_lexicon("spanish-words", spanish)
        moves = Solver(lexicon, spanish).solve(Board.from_rows(rows, spanish), rack, warn=False, leaves=table)
        expected = [(m.coord, m.word, m.score, m.tiles_used, m.leave) for m in moves]
        assert len(expected) > 100 and any("[RR]" in tiles for _c, _w, _s, tiles, _l in expected)
        assert page.shown(100) == expected[:100]
        page.click_square(0, 0, "across")
        page.type_tiles("CHOLLO")
        assert page.board_rows()[0].startswith("[CH]O[LL]O.")
        assert not page.errors, page.errors
    finally:
        page.close()


def test_bad_input_is_reported_and_kept(player: Page) -> None:
    rows = player.board_rows()
    player.set_rack("AEIRSTUV")
    player.page.keyboard.press("Enter")
    error = player.page.locator("#rack-error")
    error.wait_for(state="visible")
    assert "at most 7" in error.inner_text()
    assert player.page.input_value("#rack") == "AEIRSTUV"
    assert player.page.get_attribute("#rack", "aria-invalid") == "true"
    player.shot("06-rack-error.png")

    player.set_rack("AE1")
    player.page.keyboard.press("Enter")
    player.page.wait_for_function("document.querySelector('#rack-error').textContent.includes(\"'1'\")")
    assert player.page.input_value("#rack") == "AE1"

    # a tile that touches nothing: solved, with a warning naming it
    player.click_square(0, 0, "across")
    player.type_tiles("Z")
    player.set_rack("AEIRSTU")
    player.page.keyboard.press("Enter")
    note = player.page.locator("#results-note")
    player.page.wait_for_function(
        "document.querySelector('#results-note').textContent.includes('Floating tile Z at A1')",
        timeout=60_000,
    )
    assert note.is_visible()
    assert player.page.locator("#board-error").is_hidden()
    assert "error-square" not in player.square(0, 0).get_attribute("class")
    assert player.board_rows()[0][0] == "Z"  # nothing typed is lost
    player.shot("07-floating-warning.png")
    player.click_square(0, 0, "across")
    player.page.keyboard.press("Delete")
    assert player.board_rows() == rows

    # a key that is not a letter of the alphabet
    player.click_square(0, 0, "across")
    player.page.keyboard.type("7")
    assert "'7' is not a letter" in player.page.inner_text("#board-error")
    assert player.board_rows() == rows

    # a CGP line naming a lexicon that is not built
    player.page.click("#cgp-box summary")
    player.page.fill("#cgp", "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEIRST?/ 0/0 0 lex CSW99;")
    player.page.click("#cgp-import")
    cgp_error = player.page.locator("#cgp-error")
    cgp_error.wait_for(state="visible")
    assert "CSW99" in cgp_error.inner_text() and "not available" in cgp_error.inner_text()
    assert player.board_rows()[7] == ".......CAT....."
    assert player.page.input_value("#lexicon-select") == LEXICON
    # and a CGP line that is not one
    player.page.fill("#cgp", "15/15 AB/")
    player.page.click("#cgp-import")
    player.page.wait_for_function("document.querySelector('#cgp-error').textContent.includes('rows')")
    assert player.page.input_value("#cgp") == "15/15 AB/"
    player.page.click("#clear-board")
    assert player.board_rows() == ["." * 15] * 15


def test_cgp_round_trip_and_reload(browser: object, server: str) -> None:
    rows, rack = examples()[2]  # FLOWERs with DEIRST?
    page = Page(browser, server).open()
    try:
        page.type_board(rows)
        page.set_rack(rack)
        page.page.click("#cgp-box summary")
        page.page.click("#cgp-export")
        page.page.wait_for_function("document.querySelector('#cgp').value.includes('/')")
        line = page.page.input_value("#cgp")
        position = Position(
            Board.from_rows(rows, ENGLISH), Rack(rack, ENGLISH), None, (0, 0), 0, {"lex": LEXICON}
        )
        assert line == format_cgp(position)
        page.page.click("#clear-board")
        page.set_rack("")
        assert page.board_rows() == ["." * 15] * 15
        page.page.fill("#cgp", line)
        page.page.click("#cgp-import")
        page.page.wait_for_function(f"window.gaddag.boardRows()[7] === {json.dumps(rows[7])}")
        assert page.board_rows() == rows
        assert page.page.input_value("#rack") == rack
        page.shot("08-cgp-imported.png")

        # a reload keeps the board, the rack and the choices
        page.page.select_option("#lexicon-select", "sowpods")
        page.page.reload()
        page.page.wait_for_selector("body[data-board-ready]")
        assert page.board_rows() == rows
        assert page.page.input_value("#rack") == rack
        assert page.page.input_value("#lexicon-select") == "sowpods"
        page.wait_ready()
        solved = page.solve_with_enter()
        assert solved["count"] == 11_894  # tests/data/sowpods/README.md: SQuIRTED 84 and 11,893 more
        assert page.shown(1) == [("5G", "SQuIRTED", 84, "S?IRTED", "")]
        assert not page.errors, page.errors
    finally:
        page.close()


def test_phone_width(browser: object, server: str) -> None:
    page = Page(browser, server, viewport={"width": 390, "height": 844}).open()
    try:
        rows, rack = examples()[1]
        open_position(page, rows, rack)  # through the page's own storage
        page.solve_with_enter()
        width = page.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        board_box = page.page.locator("#board").bounding_box()
        assert board_box["width"] <= 390
        page.shot("09-phone.png")
    finally:
        page.close()


# ---- equity: a small leave table, exchanges and the pass, the unseen tiles ----------------------

SITE_EQUITY = ROOT / "build" / "site-equity"
TABLE = "small"  # lexicons/small.leaves in the equity site, from tests/leave_csv.py


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Leaves]:
    """The small table, saved as small.leaves in a folder of its own."""
    folder = tmp_path_factory.mktemp("leaves")
    leaves = Leaves.from_csv_text(sample_csv(ENGLISH), ENGLISH)
    leaves.save(folder / f"{TABLE}.leaves")
    return folder, leaves


@pytest.fixture(scope="module")
def equity_server(table: tuple[Path, Leaves]) -> Iterator[str]:
    """A second site: the usual lexicons and the small table (build_site.py --lexicons)."""
    build_site(SITE_EQUITY, [ROOT / "lexicons", table[0]])
    manifest = json.loads((SITE_EQUITY / "lexicons.json").read_text())
    assert [(entry["name"], entry["rules"]) for entry in manifest["leaves"]] == [
        ("enable-super", "super"),  # by file name: "-" sorts before "."
        ("enable-wwf", "wwf"),
        ("opencorpora-erudit", "erudit"),
        ("opencorpora", "russian"),
        ("sjp", "polish"),
        (TABLE, "english"),
        ("sowpods", "english"),
        ("spanish-words", "spanish"),
        ("twl06", "english"),
        ("wfrench", "french"),
        ("wngerman", "german"),
    ]
    english = [entry for entry in manifest["lexicons"] if "english" in entry["rules"]]
    assert {entry["name"]: entry.get("leaves") for entry in english} == {
        "enable": "twl06",
        "sowpods": "sowpods",
        "twl06": "twl06",
    }
    by_name = {entry["name"]: entry.get("leaves") for entry in manifest["lexicons"]}
    assert by_name["opencorpora"] == "opencorpora"  # the Russian tables go with their lexicons
    assert by_name["opencorpora-erudit"] == "opencorpora-erudit"
    assert by_name["sjp"] == "sjp"
    with static_server(SITE_EQUITY) as url:
        yield url


def open_position(page: Page, rows: list[str], rack: str, **choices: object) -> None:
    """Start the page on a position (as after an earlier visit: through its own storage), with
    the returning player's choices (RETURNING_PLAYER) unless ``choices`` say otherwise."""
    state = {
        **RETURNING_PLAYER,
        "rules": "english",
        "boards": {"english": rows},
        "rack": rack,
        **choices,
    }
    page.page.evaluate(f"localStorage.setItem('gaddag-solver/v1', {json.dumps(json.dumps(state))})")
    page.page.reload()
    page.page.wait_for_selector("body[data-board-ready]")
    page.wait_ready()


def unseen_shown(page: Page, expected: dict) -> dict:
    """The unseen panel once it shows ``expected`` (waited for), read back from the page."""
    want = json.dumps({"bag": expected["bag"], "counts": expected["counts"]}, separators=(",", ":"))
    page.page.wait_for_function(
        """(want) => {
            const cells = [...document.querySelectorAll('#unseen-grid .u-cell')];
            const counts = Object.fromEntries(cells.map((c) => [c.dataset.letter, Number(c.dataset.count)]));
            const bag = Number(document.querySelector('#unseen').dataset.bag);
            return JSON.stringify({ bag, counts }) === want;
        }""",
        arg=want,
        timeout=20_000,
    )
    return page.page.evaluate(
        """() => ({
            counts: Object.fromEntries([...document.querySelectorAll('#unseen-grid .u-cell')]
                .map((c) => [c.dataset.letter, Number(c.dataset.count)])),
            summary: Object.fromEntries([...document.querySelectorAll('#unseen-summary [data-key]')]
                .map((s) => [s.dataset.key, Number(s.querySelector('b').textContent)])),
        })"""
    )


def equity_cells(page: Page) -> list[tuple[str, float, float]]:
    """(word cell, equity, leave value) of the rows drawn, top first."""
    rows = page.page.evaluate(
        """() => [...document.querySelectorAll('.results-scroll .row')]
            .sort((a, b) => a.dataset.pos - b.dataset.pos)
            .map(row => [row.querySelector('.c-word').textContent, row.querySelector('.c-eq').textContent,
                         row.querySelector('.c-lv').textContent])"""
    )
    number = lambda text: float(text.replace("−", "-").replace("+", ""))  # noqa: E731
    return [(word, number(eq), number(lv)) for word, eq, lv in rows]


def native_dicts(solver: Solver, rows: list[str], rack: str, **options: object) -> list[dict]:
    moves = solver.solve(Board.from_rows(rows, ENGLISH), rack, warn=False, **options)
    return [
        {
            **move.to_dict(),
            "tiles": [[r, c, letter, blank] for r, c, letter, blank in move.tiles],
            "length": move.length,
        }
        for move in moves
    ]


def test_equity_with_a_small_table(
    browser: object, equity_server: str, native: Solver, table: tuple[Path, Leaves]
) -> None:
    leaves = table[1]
    rows, rack = examples()[1]
    page = Page(browser, equity_server).open()
    try:
        open_position(page, rows, rack)
        # the lexicon's own table is the default choice (enable plays with twl06's); exchanges are
        # off, as this returning player left them, until toggled
        assert DEFAULT_LEAVES is not None and page.page.input_value("#leaves-select") == "twl06"
        options = page.page.locator("#leaves-select option").all_inner_texts()
        assert [option.split(" ")[0] for option in options] == ["none", TABLE, "sowpods", "twl06"]
        assert not page.page.is_checked("#exchanges")
        page.page.select_option("#leaves-select", TABLE)
        board = Board.from_rows(rows, ENGLISH)
        expected_unseen = unseen(board, Rack(rack, ENGLISH), ENGLISH).to_dict()
        panel = unseen_shown(page, expected_unseen)  # before any solve: the page asks the worker
        assert panel["counts"] == expected_unseen["counts"]
        assert panel["summary"] == {
            key: expected_unseen[key] for key in ("bag", "total", "vowels", "consonants", "blanks")
        }

        page.solve_with_enter()
        expected = native_dicts(native, rows, rack, leaves=leaves)
        assert page.page.get_attribute("#results .c-eq", "aria-sort") == "descending"
        assert page.shown(None) and len(page.shown()) == len(expected)
        shown = page.page.evaluate("window.gaddag.shownMoves(300)")
        assert shown == expected[:300]
        best = native.solve(board, rack, top=1, warn=False, leaves=leaves)[0]
        cells = equity_cells(page)
        assert cells[0][1] == best.equity == max(move["equity"] for move in expected)
        assert [eq for _, eq, _ in cells] == sorted((eq for _, eq, _ in cells), reverse=True)
        for (_, eq, lv), move in zip(cells, expected, strict=False):
            assert (eq, lv) == (move["equity"], move["leave_value"])
        assert not any(word.startswith(("exch", "pass")) for word, _, _ in cells)
        page.shot("10-equity.png")

        # exchanges and the pass, when toggled: solved again at once, the list not marked stale
        before = page.page.get_attribute("#results", "data-solve-seq")
        page.page.check("#exchanges")
        page.page.wait_for_function(f"document.querySelector('#results').dataset.solveSeq !== '{before}'")
        assert page.page.locator("#results-note").is_hidden()
        expected = native_dicts(native, rows, rack, leaves=leaves, exchanges=True)
        listed = page.page.evaluate("window.gaddag.shownMoves(Infinity)")
        assert listed == expected
        kinds = [move.get("kind", "play") for move in listed]
        assert kinds.count("exchange") == 127 and kinds.count("pass") == 1
        page.page.fill("#filter", "")
        first_exchange = kinds.index("exchange")
        exchange = expected[first_exchange]
        page.page.eval_on_selector(".results-scroll", f"el => {{ el.scrollTop = {first_exchange} * 34; }}")
        row = page.page.locator(f".results-scroll .row[data-pos='{first_exchange}']")
        row.wait_for()
        assert row.locator(".c-word").inner_text() == f"exch {exchange['exchanged']}"
        row.hover()
        assert page.page.locator("#board .sq.preview").count() == 0  # an exchange places nothing
        page.shot("11-exchanges.png")
        row.locator("button.play").click()
        assert page.board_rows() == rows
        assert page.page.input_value("#rack") == exchange["leave"]
        after = unseen(board, Rack(exchange["leave"], ENGLISH), ENGLISH).to_dict()
        assert unseen_shown(page, after)["counts"] == after["counts"]
        assert "Exchanged" in page.page.inner_text("#status-text")
        assert not page.errors, page.errors
    finally:
        page.close()


def test_playing_updates_the_unseen_tiles(
    browser: object, equity_server: str, native: Solver, table: tuple[Path, Leaves]
) -> None:
    rows, rack = examples()[2]
    page = Page(browser, equity_server).open()
    try:
        open_position(page, rows, rack, exchanges=True, leaves={"english": TABLE})
        page.solve_with_enter()
        board = Board.from_rows(rows, ENGLISH)
        best = native.solve(board, rack, top=1, warn=False, leaves=table[1], exchanges=True)[0]
        top = page.page.locator(".results-scroll .row[data-pos='0']")
        top.hover()
        assert page.page.locator("#board .sq.preview").count() == len(best.tiles)
        top.locator("button.play").click()
        after = board.play(best)
        assert page.board_rows() == after.to_rows()
        assert page.page.input_value("#rack") == best.leave
        expected = unseen(after, Rack(best.leave, ENGLISH), ENGLISH).to_dict()
        panel = unseen_shown(page, expected)
        assert panel["counts"] == expected["counts"] and panel["summary"]["bag"] == expected["bag"]
        # editing the rack and the board keeps it current too
        page.set_rack(best.leave + "QZ")
        with_qz = unseen(after, Rack(best.leave + "QZ", ENGLISH), ENGLISH).to_dict()
        assert unseen_shown(page, with_qz)["counts"]["Q"] == 0
        page.click_square(0, 0, "across")
        page.type_tiles("Z")  # a second Z: more than the set holds
        codes = bytearray(after.codes())
        codes[0] = ENGLISH.alphabet.code("Z")
        floating = Board(ENGLISH, bytes(codes), check=False)
        too_many = unseen(floating, Rack(best.leave + "QZ", ENGLISH), ENGLISH).to_dict()
        unseen_shown(page, too_many)
        warning = page.page.locator("#unseen-warnings")
        warning.wait_for(state="visible")
        first = too_many["warnings"][0]
        assert f"{first[0].upper()}{first[1:]}." in warning.inner_text()  # a sentence (app.js sentences)
        page.shot("12-unseen-warning.png")
        assert not page.errors, page.errors
    finally:
        page.close()


def late_game(lexicon: Lexicon, seed: int = 7) -> Game:
    """A game played by the engine until fewer tiles than an exchange needs are left in the bag."""
    game = Game.new(lexicon, ENGLISH, seed=seed)
    while game.bag_count >= ENGLISH.exchange_minimum and not game.over:
        game.play(game.best_move("greedy"))
    assert 0 < game.bag_count < ENGLISH.exchange_minimum, game.bag_count
    return game


def test_no_exchanges_when_the_bag_runs_low(
    browser: object, equity_server: str, native: Solver, table: tuple[Path, Leaves]
) -> None:
    game = late_game(native.lexicon)
    rows, rack = game.board.to_rows(), str(game.rack())
    page = Page(browser, equity_server).open()
    try:
        open_position(page, rows, rack, exchanges=True, leaves={"english": TABLE})
        expected_unseen = unseen(game.board, game.rack(), ENGLISH).to_dict()
        assert expected_unseen["bag"] == game.bag_count
        panel = unseen_shown(page, expected_unseen)
        assert panel["summary"]["bag"] == game.bag_count
        page.solve_with_enter()
        listed = page.page.evaluate("window.gaddag.shownMoves(Infinity)")
        expected = native_dicts(native, rows, rack, leaves=table[1], exchanges=True)
        assert listed == expected
        kinds = [move.get("kind", "play") for move in listed]
        assert "exchange" not in kinds and kinds.count("pass") == 1
        assert "No exchanges" in page.page.inner_text("#results-note")
        # pass: nothing changes
        at = kinds.index("pass")
        page.page.eval_on_selector(".results-scroll", f"el => {{ el.scrollTop = {at} * 34; }}")
        row = page.page.locator(f".results-scroll .row[data-pos='{at}']")
        row.wait_for()
        assert row.locator(".c-word").inner_text() == "pass"
        row.locator("button.play").click()
        assert page.board_rows() == rows and page.page.input_value("#rack") == rack
        assert "Passed" in page.page.inner_text("#status-text")
        page.shot("13-late-game.png")
        # no table: ranked by score, no equity columns
        page.page.select_option("#leaves-select", "")
        page.solve_with_enter()
        assert page.page.locator("#results .c-eq").first.is_hidden()
        assert page.shown(5) == [
            (m["coord"], m["word"], m["score"], m["tiles_used"], m["leave"])
            for m in native_dicts(native, rows, rack, exchanges=True)[:5]
        ]
        assert not page.errors, page.errors
    finally:
        page.close()


def test_equity_on_a_phone(browser: object, equity_server: str) -> None:
    rows, rack = examples()[1]
    page = Page(browser, equity_server, viewport={"width": 390, "height": 844}).open()
    try:
        open_position(page, rows, rack, exchanges=True, leaves={"english": TABLE})
        page.solve_with_enter()
        width = page.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        for selector in (
            ".results-scroll .row[data-pos='0'] .c-eq",
            ".results-scroll .row[data-pos='0'] .c-lv",
        ):
            box = page.page.locator(selector).bounding_box()
            assert box and box["x"] + box["width"] <= 390
        page.shot("14-phone-equity.png")
        page.page.locator("#unseen").scroll_into_view_if_needed()
        page.page.screenshot(path=str(ARTIFACTS / "15-phone-unseen.png"))
    finally:
        page.close()
