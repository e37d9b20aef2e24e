"""The page's engine and direction choices and its check of a play (web/verdict.js), in Chromium
through Playwright, against the native engines and the native verdict (game/verdict.py).

The same player's path as tests/test_web_e2e.py (its fixtures and helpers): the mid-game example
position typed in; solved by the DAWG engine, down only, the list is the native GADDAG engine's
down plays; tiles typed on the board after "Check the tiles I place" get the native verdict, live;
a written play too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gaddag_solver import Board, judge, judge_tiles
from test_web_e2e import (  # noqa: F401  (fixtures)
    ENGLISH,
    Page,
    examples,
    native,
)


@pytest.fixture(scope="module")
def checker(browser: object, server: str) -> Iterator[Page]:  # noqa: F811
    page = Page(browser, server).open()
    page.wait_ready()
    yield page
    page.close()


def verdict_text(page: Page, expected: str) -> str:
    page.page.wait_for_function(
        "want => document.querySelector('#play-verdict').innerText.includes(want)",
        arg=expected,
        timeout=30_000,
    )
    return page.page.inner_text("#play-verdict")


def test_dawg_engine_down_only_lists_the_native_plays(checker: Page, native) -> None:  # noqa: F811
    rows, rack = examples()[1]
    checker.type_board(rows)
    checker.set_rack(rack)
    checker.page.select_option("#engine-select", "dawg")
    checker.page.select_option("#direction-select", "down")
    checker.solve_with_enter()
    board = Board.from_rows(rows, ENGLISH)
    want = [(m.coord, m.word, m.score) for m in native.solve(board, rack, warn=False, direction="down")]
    shown = [(coord, word, score) for coord, word, score, _used, _leave in checker.shown()]
    assert shown == want and len(want) > 100
    assert not checker.errors, checker.errors


def test_placed_tiles_get_the_native_verdict(checker: Page, native) -> None:  # noqa: F811
    rows, rack = examples()[1]
    board = Board.from_rows(rows, ENGLISH)
    checker.page.check("#place-tiles")
    verdict_text(checker, "Place tiles on the board")
    checker.click_square(4, 4, "down")  # E5 down: URALITES, the best play
    checker.type_tiles("URA")
    text = verdict_text(checker, "E5 URA(L): not legal")  # the verdict on all three tiles
    placed = [(4, 4, "U", False), (5, 4, "R", False), (6, 4, "A", False)]
    want = judge_tiles(board, placed, native.lexicon, rack)
    assert not want.legal and all(reason in text for reason in want.reasons)
    checker.type_tiles("LITES")  # the L is on the board already: typed over, unchanged
    text = verdict_text(checker, "E5 URA(L)ITES: legal")
    want = judge(board, "E5 URALITES", native.lexicon, rack)
    assert want.legal and f"{want.score} points" in text and f"bingo +{ENGLISH.bingo_bonus}" in text
    checker.page.uncheck("#place-tiles")
    checker.page.fill("#play-text", "9A QUIT")
    text = verdict_text(checker, "9A QUIT: not legal")
    want = judge(checker_board(checker), "9A QUIT", native.lexicon, rack)
    assert all(reason in text for reason in want.reasons)
    assert not checker.errors, checker.errors


def checker_board(page: Page) -> Board:
    return Board.from_rows(page.board_rows(), ENGLISH)
