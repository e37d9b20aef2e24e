"""How our tests and measurements start Debian's Chromium under Playwright.

Never `playwright install`: the browser comes from Debian (`apt-get install chromium`). As
root the sandbox cannot start, and with no network beyond the package registries, Chromium's
background services must stay off.
"""

from __future__ import annotations

from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch(playwright: Any) -> Any:
    """A headless Chromium browser from a running sync_playwright()."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
