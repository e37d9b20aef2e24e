#!/usr/bin/env python3
"""The screenshots of docs/page.md, taken in Debian's Chromium with Playwright: the page after a
solve of the mid-game position of tests/data/sowpods/examples.txt (rack AEIRSTU) with a new US
visitor's defaults (TWL06, exchanges and pass listed), a move hovered
so that its preview shows on the board, at 1920×1080 and 1366×768 (the desktop layout) and
390×844 (a phone, the move tapped); and a game against the computer (docs/versus.md) a few turns
in, a hint placed on the board, at 1920×1080 and 390×844. Not a test.

    .venv/bin/python tests/web_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import playwright.sync_api as playwright_api  # noqa: E402
from chromium import launch  # noqa: E402
from static_server import static_server  # noqa: E402
from test_web_e2e import ROOT, SITE, Page, build_site, examples, open_position  # noqa: E402

SHOTS = [  # file, viewport, phone, the row hovered (or tapped)
    ("desktop-1920x1080.png", {"width": 1920, "height": 1080}, False, 3),
    ("desktop-1366x768.png", {"width": 1366, "height": 768}, False, 3),
    ("phone-390x844.png", {"width": 390, "height": 844}, True, 0),
]


VERSUS_SHOTS = [  # file, viewport, phone
    ("versus-1920x1080.png", {"width": 1920, "height": 1080}, False),
    ("versus-phone-390x844.png", {"width": 390, "height": 844}, True),
]


def versus_shots(browser: object, url: str, out: Path) -> None:
    """A seeded game against the computer, four turns each played by the hint and Enter."""
    for name, viewport, phone in VERSUS_SHOTS:
        options = {"is_mobile": True, "has_touch": True} if phone else {}
        page = Page(browser, url, viewport=viewport, **options).open()
        try:
            open_position(page, ["." * 15] * 15, "", lexicon={"english": "sowpods"})
            p = page.page
            p.click("#versus-toggle")  # with no game yet, the new game's form is open
            p.fill("#vs-seed", "7")
            p.set_checked("#vs-practice", True)
            p.click("#vs-start")
            idle = "() => window.gaddag.versus() && !document.body.dataset.versusBusy"
            for turn in range(5):
                p.wait_for_function(idle, timeout=60_000)
                p.click("#vs-hint")
                p.wait_for_function("() => document.querySelector('#vs-pending').dataset.legal === 'true'")
                if turn < 4:
                    p.keyboard.press("Enter")
                    p.wait_for_function(f"() => window.gaddag.versus().turns.length >= {2 * turn + 2}")
            p.evaluate("window.scrollTo(0, 0)")
            path = out / name
            p.screenshot(path=str(path))
            print(f"{path}: {path.stat().st_size:,} bytes")
        finally:
            page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    build_site(SITE)
    rows, rack = examples()[1]
    with playwright_api.sync_playwright() as p, static_server(SITE) as url:
        browser = launch(p)
        for name, viewport, phone, hovered in SHOTS:
            options = {"is_mobile": True, "has_touch": True} if phone else {}
            page = Page(browser, url, viewport=viewport, **options).open()
            try:
                # what a new visitor in the United States starts with: TWL06, exchanges listed
                open_position(page, rows, rack, lexicon={"english": "twl06"}, exchanges=True)
                if phone:
                    page.page.locator("#solve").tap()
                    page.page.wait_for_selector("#results[data-solve-seq]", timeout=60_000)
                else:
                    page.solve_with_enter()
                row = page.page.locator(f".results-scroll .row[data-pos='{hovered}'] .c-word")
                if phone:
                    row.tap()
                else:
                    row.hover()
                path = args.out / name
                page.page.screenshot(path=str(path))
                print(f"{path}: {path.stat().st_size:,} bytes")
            finally:
                page.close()
        versus_shots(browser, url, args.out)
        browser.close()


if __name__ == "__main__":
    main()
