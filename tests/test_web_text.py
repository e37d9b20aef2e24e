"""The page's words, in Chromium (the fixtures of tests/test_web_e2e.py; issue 26, item 12): the
play check reads "on the board or write a play"; the unseen-tile warnings are sentences of their
own; messages name a ruleset by its title ("English Scrabble", "Эрудит"), not its internal name;
a Latin letter typed for a Cyrillic alphabet says which alphabet is wanted; "1 candidate left";
a reversed score range is said, not silently empty; the play box shows its whole placeholder."""

from __future__ import annotations

import re

import pytest
import test_web_e2e
from test_web_e2e import Page, open_position

pytestmark = test_web_e2e.pytestmark

EMPTY = ["." * 15] * 15
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def page(browser: object, server: str):  # type: ignore[no-untyped-def]
    opened = Page(browser, server).open()
    opened.wait_ready()
    yield opened
    opened.close()


def test_the_play_check_reads_as_words(page: Page) -> None:
    text = " ".join(page.page.inner_text("#play-check").split())
    assert "on the board or write a play" in text, text


def placeholder_fits(page: Page) -> bool:
    return page.page.evaluate(
        """() => {
            const input = document.getElementById('play-text');
            const style = getComputedStyle(input);
            const context = document.createElement('canvas').getContext('2d');
            context.font = style.font;
            const text = context.measureText(input.placeholder).width;
            const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return room > 0 && text <= room;
        }"""
    )


def test_the_play_placeholder_is_not_cut_off(page: Page, browser: object, server: str) -> None:
    assert placeholder_fits(page)
    phone = Page(browser, server, viewport=PHONE, is_mobile=True, has_touch=True).open()
    try:
        assert placeholder_fits(phone)
    finally:
        phone.close()


def test_unseen_warnings_are_sentences_naming_the_ruleset(page: Page) -> None:
    rows = list(EMPTY)
    rows[7] = "....ZAX.XYZ...."  # two Z and three X with the rack's: the bag has one of each
    open_position(page, rows, "ZXAEIRS")
    page.page.wait_for_selector("#unseen-warnings:not([hidden])", timeout=60_000)
    text = page.page.inner_text("#unseen-warnings")
    assert re.search(r"has only 1\. The board and rack hold 3 Z tiles", text), text
    assert "English Scrabble bag" in text and "english bag" not in text
    assert text.endswith(".")


def test_a_rack_error_names_the_ruleset_by_its_title(page: Page) -> None:
    open_position(page, EMPTY, "AEIRSTUV")
    page.page.click("#rack")
    page.page.keyboard.press("Enter")
    error = page.page.locator("#rack-error")
    error.wait_for(state="visible")
    assert "the English Scrabble rack holds at most 7" in error.inner_text()


def test_a_latin_letter_for_erudit_says_the_alphabet_is_cyrillic(page: Page) -> None:
    open_position(page, EMPTY, "AБВГДЕЖ", rules="erudit", lexicon={"erudit": "opencorpora-erudit"})
    page.page.click("#rack")
    page.page.keyboard.press("Enter")
    page.page.wait_for_function("document.querySelector('#rack-error').textContent.includes('Cyrillic')")
    rack_error = page.page.inner_text("#rack-error")
    assert "'A'" in rack_error and "Latin" in rack_error and "Эрудит" in rack_error, rack_error
    assert "erudit" not in rack_error
    # typed on the board
    page.click_square(7, 7, "across")
    page.page.keyboard.type("a")
    board_error = page.page.inner_text("#board-error")
    assert "'A'" in board_error and "Latin" in board_error and "Cyrillic" in board_error, board_error
    assert page.board_rows() == EMPTY


def test_a_reversed_score_range_is_said(page: Page) -> None:
    open_position(page, EMPTY, "AEIRSTU")
    page.solve_with_enter()
    page.page.click("#more-filters summary")
    page.page.fill("#f-score-min", "50")
    page.page.fill("#f-score-max", "20")
    error = page.page.locator("#filters-error")
    error.wait_for(state="visible")
    assert "50" in error.inner_text() and "20" in error.inner_text()
    assert page.page.get_attribute("#f-score-max", "aria-invalid") == "true"
    page.page.click("#f-clear")
    error.wait_for(state="hidden")


def test_one_candidate_left_is_singular(page: Page) -> None:
    open_position(page, EMPTY, "AEIRSTU", lexicon={"english": "sowpods"})
    page.page.click("#lookahead-box summary")
    page.page.fill("#sim-candidates", "1")  # one candidate: decided at once
    page.page.click("#sim-start")
    page.page.wait_for_function("() => window.gaddag.lookAhead()?.done", timeout=60_000)
    page.page.wait_for_selector("#lookahead-stop", state="hidden")
    status = page.page.inner_text("#lookahead-status")
    assert "1 candidate left" in status, status
