"""The page's replay of a recorded game, end to end in Chromium (the fixtures and helpers of
tests/test_web_e2e.py): a GCG file opened, its turns stepped through with the buttons and the
keys, and what the page shows — the board at every turn, the best move, the equity lost, the
warnings with their lines — held to the native review of the same file
(gaddag_solver.game.review with the same lexicon and leave table); bad files reported; the
game exported as GCG and parsed back to the same events; a game played on the page exported.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import test_web_e2e
from gaddag_solver import Board, Lexicon, Rack, Rules
from gaddag_solver.formats.gcg import GcgGame, parse_gcg, read_gcg
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.replay import Replay
from gaddag_solver.game.review import GameReview, review_replay
from gaddag_solver.solver import Solver
from test_web_e2e import Page, open_position

# the page's tests' skip where there is no chromium (their fixtures, the site built and served and
# one Chromium, are tests/conftest.py's)
pytestmark = test_web_e2e.pytestmark

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "data" / "gcg"
ENGLISH = Rules.load("english")
LEXICON = "sowpods"  # its own leave table ships with the package: the page picks it by default
EMPTY = ["." * 15] * 15


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load(ROOT / "lexicons" / f"{LEXICON}.gaddag", ENGLISH)


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load(LEXICON, ENGLISH)


def native_review(gcg: GcgGame, lexicon: Lexicon, leaves: Leaves) -> tuple[Replay, GameReview]:
    """The oracle: the command line's replay and review of the same game."""
    replay = Replay(gcg, lexicon, ENGLISH)
    return replay, review_replay(replay, leaves, LEXICON)


def fresh_page(browser: object, server: str, width: int = 1280) -> Page:
    page = Page(browser, server, viewport={"width": width, "height": 900}).open()
    open_position(page, EMPTY, "", lexicon={"english": LEXICON})
    assert page.page.input_value("#leaves-select") == LEXICON
    page.page.click("#replay-box summary")
    return page


def wait_review(page: Page, seq_before: int = 0) -> dict:
    page.page.wait_for_function(
        "() => !document.querySelector('#replay').hidden && "
        "!document.querySelector('#replay').hasAttribute('aria-busy')",
        timeout=60_000,
    )
    return page.page.evaluate("window.gaddag.replay()")


def wait_turns(page: Page, count: int) -> None:
    page.page.wait_for_function(
        f"() => window.gaddag.replay() && window.gaddag.replay().turns.length === {count}"
    )


def shown_turn(page: Page) -> dict:
    return page.page.evaluate(
        """() => {
            const info = document.querySelector('#replay-turn');
            const lines = Object.fromEntries([...info.querySelectorAll('.replay-line')]
                .map((l) => [l.dataset.key, l.querySelector('.replay-value').textContent]));
            return { step: Number(info.dataset.step), best: info.dataset.best, lost: info.dataset.lost, lines,
                     pos: document.querySelector('#replay-pos').textContent };
        }"""
    )


def key(page: Page, name: str) -> None:
    """A key pressed with nothing focused (the page, not a field)."""
    page.page.evaluate("document.activeElement && document.activeElement.blur()")
    page.page.keyboard.press(name)


def event_fields(game: GcgGame) -> list[dict]:
    return [{k: v for k, v in dataclasses.asdict(event).items() if k != "line"} for event in game.events]


# ---- tests ---------------------------------------------------------------------------------------


def test_stepping_through_a_game_shows_the_native_review(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves
) -> None:
    path = GAMES / "quackle_boys_2006.gcg"
    replay, review = native_review(read_gcg(path), lexicon, leaves)
    reviewed = {turn.turn: turn for turn in review.turns}
    assert len(reviewed) >= 10 and any(turn.equity_lost > 0 for turn in review.turns)
    page = fresh_page(browser, server)
    try:
        page.page.set_input_files("#gcg-file", str(path))
        wait_review(page)
        assert page.page.locator("#replay-turn").is_visible()
        # the focus went from the file picker to the turn buttons: the keys work at once
        assert page.page.evaluate("document.activeElement.id") == "replay-next"
        for index, turn in enumerate(replay.turns):
            shown = shown_turn(page)
            assert shown["step"] == index
            assert shown["pos"] == f"Turn {index + 1} of {len(replay.turns)}"
            assert page.board_rows() == turn.board.to_rows(), f"turn {index}"
            assert page.page.input_value("#rack") == turn.event.rack
            nicks = [nick for nick, _ in replay.players]
            assert shown["lines"]["scores"] == f"{nicks[0]} {turn.scores[0]} · {nicks[1]} {turn.scores[1]}"
            expected = reviewed.get(index)
            if expected is None:
                assert shown["best"] == "" and "lost" not in shown["lines"]
            else:
                assert shown["best"] == expected.best
                assert float(shown["lost"]) == expected.equity_lost
                assert shown["lines"]["lost"] == f"{expected.equity_lost:.2f}"
                assert shown["lines"]["rank"] == f"{expected.rank} of {expected.moves:,}"
                # the move made is drawn on the board; the best one when asked
                made = {(r, c) for r, c, _l, _b in turn.move.tiles}
                assert set(previewed(page)) == made
                if expected.best != expected.played and expected.best_kind == "play":
                    page.page.click("#replay-show-best")
                    coord, word = expected.best.split(" ")
                    best = Board.from_rows(turn.board.to_rows(), ENGLISH)
                    placed = {(r, c) for r, c, _l, _b in _read(best, coord, word)}
                    assert set(previewed(page)) == placed
                    if index == 3:
                        page.shot("replay-best.png")
            if index == 0:
                page.page.keyboard.press("ArrowRight")  # the focus on a button: the key works
            elif index == 1:
                page.page.click("#replay-next")  # the button
            else:
                key(page, "ArrowRight")  # the key, with nothing focused
        shown = shown_turn(page)
        assert shown["step"] == len(replay.turns) and shown["pos"].startswith("End")
        assert page.board_rows() == replay.board.to_rows()
        key(page, "ArrowRight")  # past the end: stays
        assert shown_turn(page)["step"] == len(replay.turns)
        key(page, "Home")
        assert shown_turn(page)["step"] == 0 and page.board_rows() == EMPTY
        key(page, "End")
        assert shown_turn(page)["step"] == len(replay.turns)
        key(page, "ArrowLeft")
        assert shown_turn(page)["step"] == len(replay.turns) - 1
        assert page.board_rows() == replay.turns[-1].board.to_rows()
        # the players' summary is the review's
        cells = page.page.locator("#replay-summary-body tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        assert [[c[0], int(c[1]), int(c[2])] for c in cells] == [
            [p.nick, p.score, p.turns] for p in review.players
        ]
        assert page.page.locator("#replay-warnings-box").is_hidden()  # a clean file
        assert not page.errors, page.errors
    finally:
        page.close()


def warnings_shown(page: Page) -> list[str]:
    return page.page.locator("#replay-warnings li").evaluate_all("items => items.map(i => i.textContent)")


def previewed(page: Page) -> list[tuple[int, int]]:
    squares = page.page.locator("#board .sq.preview").evaluate_all(
        "sqs => sqs.map(s => [Number(s.dataset.r), Number(s.dataset.c)])"
    )
    return [(r, c) for r, c in squares]


def _read(board: Board, coord: str, word: str) -> tuple:
    from gaddag_solver.game.replay import read_play

    move, _problems = read_play(board, coord, word)
    assert move is not None
    return move.tiles


def test_warnings_show_their_lines_and_bad_files_do_not_stop_the_page(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves
) -> None:
    page = fresh_page(browser, server)
    try:
        # an ISO-8859-1 file with a withdrawn phony, an unknown pragma, end-of-game lines
        path = GAMES / "club_night.gcg"
        replay, review = native_review(read_gcg(path), lexicon, leaves)
        page.page.set_input_files("#gcg-file", str(path))
        result = wait_review(page)
        assert result["players"][0]["name"] == "José Pérez"  # decoded as the file says
        shown = warnings_shown(page)
        assert shown == [str(w) for w in replay.warnings] and shown
        assert all(text.startswith("line ") for text in shown)
        # a file with a wrong score and a line that cannot be read
        text = (
            "#player1 ann Ann\n#player2 bob Bob\n"
            ">ann: AEINRST 8D RETAINS +70 70\n"
            ">bob: EIKORST 88 TAKE +8 8\n"
            ">bob: DEIKORT - +0 0\n"
        )
        native, _ = native_review(parse_gcg(text), lexicon, leaves)
        page.page.fill("#gcg-text", text)
        page.page.click("#gcg-review")
        wait_turns(page, 2)
        shown = warnings_shown(page)
        assert shown == [str(w) for w in native.warnings]
        assert any(t.startswith("line 3: ann: the file scores 8D RETAINS 70, we score") for t in shown)
        assert any(t.startswith("line 4: ") and "'88' is not a square" in t for t in shown)
        assert "the file scores 8D RETAINS 70" in shown_turn(page)["lines"]["problem"]
        # not GCG at all: said, and the page goes on
        page.page.fill("#gcg-text", "this is not a game record")
        page.page.click("#gcg-review")
        error = page.page.locator("#gcg-error")
        error.wait_for(state="visible")
        assert "not a GCG file" in error.inner_text()
        page.page.set_input_files(
            "#gcg-file", files=[{"name": "x.gcg", "mimeType": "text/plain", "buffer": b"\0\1\2"}]
        )
        page.page.wait_for_function("() => document.querySelector('#gcg-error').textContent.includes('bin')")
        assert "x.gcg" in error.inner_text()
        page.page.set_input_files("#gcg-file", str(GAMES / "quackle_boys_2006.gcg"))
        page.page.wait_for_function("() => window.gaddag.replay().players[0].nick === 'Quackle'")
        assert error.is_hidden()
        page.solve_with_enter()  # the solver still answers: the first turn's rack on the empty board
        assert page.page.evaluate("window.gaddag.shownCount()") > 0
        assert not page.errors, page.errors
    finally:
        page.close()


def test_export_round_trips(browser: object, server: str, lexicon: Lexicon, leaves: Leaves) -> None:
    page = fresh_page(browser, server)
    try:
        path = GAMES / "club_night.gcg"
        original = read_gcg(path)
        page.page.set_input_files("#gcg-file", str(path))
        wait_review(page)
        page.page.click("#gcg-export")
        text = page.page.input_value("#gcg-text")
        assert event_fields(parse_gcg(text)) == event_fields(original)
        assert parse_gcg(text).players == original.players
        assert page.page.locator("#gcg-download").get_attribute("download") == "club_night.gcg"
        # the exported text opens again, to the same review
        page.page.click("#gcg-review")
        page.page.wait_for_function(
            "() => document.querySelector('#replay-status').textContent.includes('Cl')"
        )
        again = page.page.evaluate("window.gaddag.replay()")
        assert [t["what"] for t in again["turns"]] == [e.what() for e in original.events]
        assert not page.errors, page.errors
    finally:
        page.close()


def test_a_game_played_on_the_page_is_exported(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves
) -> None:
    solver = Solver(lexicon, ENGLISH)
    page = fresh_page(browser, server)
    try:
        board = Board.empty(ENGLISH)
        played = []
        racks = ("RETAINS", "QUIZ?ED")
        for rack in racks:
            page.set_rack(rack)
            page.solve_with_enter()
            best = solver.solve(board, rack, top=1, warn=False, leaves=leaves)[0]
            assert page.shown(1)[0][:3] == (best.coord, best.word, best.score)
            page.page.locator("#results button.play").first.click()
            played.append(best)
            board = board.play(best)
            assert page.board_rows() == board.to_rows()
        page.page.click("#clear-board")  # cleared and undone: the moves played come back with the board
        page.page.click("#undo")
        assert page.board_rows() == board.to_rows()
        page.page.click("#gcg-export-played")
        page.page.wait_for_function("() => document.querySelector('#gcg-text').value.includes('#player1')")
        text = page.page.input_value("#gcg-text")
        game = parse_gcg(text)
        assert [(e.kind, e.coord, e.score, e.rack) for e in game.events] == [
            ("play", m.coord, m.score, str(Rack(r, ENGLISH))) for m, r in zip(played, racks, strict=True)
        ]
        assert [e.total for e in game.events] == [played[0].score, played[1].score]
        replay = Replay(game, lexicon, ENGLISH)
        assert replay.warnings == [] and replay.board.to_rows() == board.to_rows()
        assert "warns" not in page.page.inner_text("#gcg-note")
        # and reviewed on the page like any file
        page.page.click("#gcg-review")
        wait_turns(page, 2)
        _replay, review = native_review(game, lexicon, leaves)
        assert shown_turn(page)["best"] == review.turns[0].best
        assert not page.errors, page.errors
    finally:
        page.close()


def test_replay_on_a_phone(browser: object, server: str) -> None:
    page = fresh_page(browser, server, width=390)
    try:
        page.page.set_input_files("#gcg-file", str(GAMES / "club_night.gcg"))
        wait_review(page)
        page.page.click("#replay-warnings-box summary")
        page.page.click("#replay-next")
        width = page.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        # with the board in view, the turn buttons are too (kept at the foot of the screen)
        page.page.evaluate("window.scrollTo(0, 0)")
        box = page.page.locator("#replay-next").bounding_box()
        assert box["y"] + box["height"] <= 900 and box["x"] + box["width"] <= 390, box
        page.page.click("#replay-next")
        assert shown_turn(page)["step"] == 2
        page.page.screenshot(path=str(test_web_e2e.ARTIFACTS / "replay-phone-top.png"))
        page.shot("replay-phone.png")
        page.page.click("#replay-close")
        assert page.page.locator("#replay").is_hidden()
        assert page.page.evaluate("document.body.classList.contains('replaying')") is False
    finally:
        page.close()


def test_a_file_dropped_on_the_page_is_opened(browser: object, server: str) -> None:
    page = fresh_page(browser, server)
    try:
        text = (GAMES / "quackle_boys_2006.gcg").read_text()
        page.page.evaluate(
            """(text) => {
                const transfer = new DataTransfer();
                transfer.items.add(new File([text], "dropped.gcg", { type: "text/plain" }));
                const target = document.querySelector("#board");
                const options = { dataTransfer: transfer, bubbles: true, cancelable: true };
                for (const type of ["dragover", "drop"]) target.dispatchEvent(new DragEvent(type, options));
            }""",
            text,
        )
        review = wait_review(page)
        assert review["title"] == "2006 Human vs. Computer Showdown Round 1"
        assert page.page.url == page.url  # the browser did not open the file instead
        assert "reviewed in" in page.page.inner_text("#replay-status")
        assert not page.errors, page.errors
    finally:
        page.close()


def test_the_lexicon_a_file_names_is_used(browser: object, server: str) -> None:
    page = Page(browser, server).open()
    try:
        open_position(page, EMPTY, "", lexicon={"english": "enable"})
        page.page.click("#replay-box summary")
        page.page.set_input_files("#gcg-file", str(GAMES / "club_night.gcg"))  # #lexicon CSW19
        # reviewed with the lexicon the file names (CSW19: sowpods here), and the page says so
        page.page.wait_for_function("() => window.gaddag.replay()?.lexicon === 'sowpods'", timeout=60_000)
        assert wait_review(page)["lexicon"] == "sowpods"
        assert page.page.input_value("#lexicon-select") == "sowpods"
        note = page.page.inner_text("#replay-lexicon-note")
        assert "#lexicon CSW19" in note and "reviewed with sowpods, not enable" in note, note
        # and back to the lexicon the page had, at the same turn; then the file's is offered
        page.page.click("#replay-next")
        page.page.click("#replay-use-lexicon")
        page.page.wait_for_function("() => window.gaddag.replay()?.lexicon === 'enable'", timeout=60_000)
        assert page.page.input_value("#lexicon-select") == "enable"
        assert shown_turn(page)["step"] == 1  # at the same turn
        assert "it was reviewed with enable" in page.page.inner_text("#replay-lexicon-note")
        page.page.click("#replay-use-lexicon")
        page.page.wait_for_function("() => window.gaddag.replay()?.lexicon === 'sowpods'", timeout=60_000)
        assert page.page.input_value("#lexicon-select") == "sowpods"
        assert shown_turn(page)["step"] == 1
        assert not page.errors, page.errors
    finally:
        page.close()


def test_a_game_of_our_autoplay_is_reviewed_with_its_lexicon(
    browser: object, server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gaddag_solver.cli import main

    folder = tmp_path / "games"
    argv = ["autoplay", "--lexicon", "twl06", "--players", "equity,greedy", "--games", "1", "--workers", "1"]
    assert main([*argv, "--seed", "5", "--gcg-dir", str(folder)]) == 0, capsys.readouterr().err
    (path,) = folder.iterdir()
    assert parse_gcg(path.read_text()).lexicon == "twl06"
    page = Page(browser, server).open()
    try:
        open_position(page, EMPTY, "", lexicon={"english": "enable"})
        page.page.click("#replay-box summary")
        page.page.set_input_files("#gcg-file", str(path))
        page.page.wait_for_function("() => window.gaddag.replay()?.lexicon === 'twl06'", timeout=60_000)
        review = wait_review(page)
        assert page.page.input_value("#lexicon-select") == "twl06"
        assert "reviewed with twl06, not enable" in page.page.inner_text("#replay-lexicon-note")
        # every word the engine played is a word of the lexicon it played with
        assert not [t["problems"] for t in review["turns"] if t["problems"]]
        assert not page.errors, page.errors
    finally:
        page.close()


def test_close_brings_back_the_board_as_it_was(browser: object, server: str) -> None:
    """Opening games replaces the board with their turns; Close puts back the player's own
    position, board and rack, even after a second game was opened over the first (issue 26,
    item 7), and it stays after a reload."""
    page = fresh_page(browser, server)
    try:
        rows = ["." * 15] * 7 + ["....CAT........"] + ["." * 15] * 7
        open_position(page, rows, "AERST?X", lexicon={"english": LEXICON})
        page.page.click("#replay-box summary")
        assert page.board_rows() == rows
        page.page.set_input_files("#gcg-file", str(GAMES / "club_night.gcg"))
        wait_review(page)
        page.page.click("#replay-last")
        assert page.board_rows() != rows
        page.page.fill("#gcg-text", (GAMES / "quackle_boys_2006.gcg").read_text())
        page.page.click("#gcg-review")
        page.page.wait_for_function("() => window.gaddag.replay() && window.gaddag.replay().turns.length > 0")
        wait_review(page)
        page.page.click("#replay-next")
        assert page.board_rows() != rows
        page.page.click("#replay-close")
        assert page.page.locator("#replay").is_hidden()
        assert page.board_rows() == rows and page.page.input_value("#rack") == "AERST?X"
        page.page.reload()
        page.page.wait_for_selector("body[data-board-ready]")
        assert page.board_rows() == rows and page.page.input_value("#rack") == "AERST?X"
        assert not page.errors, page.errors
    finally:
        page.close()
