#!/usr/bin/env python3
"""A word list built into a lexicon in the page (the player's own word list), against native.

    .venv/bin/python bench/own_lexicon.py [--words lexicons/sources/sowpods.txt] [--builds 3]

The page (build/site, scripts/build_site.py) is opened in Debian's Chromium under Playwright;
the word list is chosen in "Your own word lists" and built --builds times, each under a new
name, as a player does. Per build it prints the worker's figures (reading and filtering the
words, the C build, checking and loading the result: web_api.build_lexicon's ``ms``), the
time from the click until the lexicon is kept in IndexedDB and listed, and the WebAssembly
memory after it (memory never shrinks; the same size after the second build shows the first
build's scratch was freed and reused). Then the native build of the same list (cffi, the same
Python and C) and the target: a SOWPODS-sized list (267,751 words) built in the page in ≤ 3 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from chromium import CHROMIUM, launch  # noqa: E402
from static_server import static_server  # noqa: E402

TARGET_S = 3.0


def page_builds(url: str, words: Path, builds: int) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    data = words.read_bytes()
    rows = []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_context().new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready]", timeout=120_000)
            page.click("#own-box summary")
            for n in range(builds):
                name = f"bench-{n + 1}"
                page.set_input_files(
                    "#own-file", files=[{"name": words.name, "mimeType": "text/plain", "buffer": data}]
                )
                page.fill("#own-name", name)
                page.select_option("#own-rules", "english")
                started = time.perf_counter()
                page.click("#own-build")
                page.wait_for_function(f"document.body.dataset.ownBuilt === '{name}'", timeout=120_000)
                wall = time.perf_counter() - started
                result = page.evaluate(
                    """name => new Promise(resolve => {
                        const open = indexedDB.open("gaddag-solver-own");
                        open.onsuccess = () => {
                          const get = open.result.transaction("lexicons").objectStore("lexicons").get(name);
                          get.onsuccess = () => resolve(get.result.info);
                        };
                    })""",
                    name,
                )
                rows.append({"name": name, "wall": wall, **result})
        finally:
            browser.close()
    return rows


def native_build(words: Path) -> dict[str, float]:
    from gaddag_solver import web_api

    data = words.read_bytes()
    started = time.perf_counter()
    result = web_api.build_lexicon({"name": "native", "rules": "english", "file": words.name}, data)
    return {"wall": time.perf_counter() - started, **result["ms"], "words": result["words"]}


def table_row(label: str, ms: dict[str, float], wall: str, memory: str) -> str:
    filtering = ms["read"] + ms["build"] - ms["build_c"]
    cells = [filtering, ms["build_c"], ms["load"], ms["total"]]
    return f"| {label} | " + " | ".join(f"{value:,.0f} ms" for value in cells) + f" | {wall} | {memory} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=Path, default=ROOT / "lexicons" / "sources" / "sowpods.txt")
    parser.add_argument("--builds", type=int, default=3)
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"needs {CHROMIUM}: apt-get install chromium")
        return 1
    import build_site

    site = build_site.build(ROOT / "build" / "site")
    with static_server(site) as url:
        rows = page_builds(url, args.words, args.builds)
    native = native_build(args.words)

    print(f"{args.words.name}: {rows[0]['words']:,} words, {rows[0]['bytes']:,} bytes built\n")
    head = [
        "build",
        "read + filter",
        "C build",
        "check + load",
        "worker total",
        "click to kept",
        "wasm memory",
    ]
    print("| " + " | ".join(head) + " |")
    print("| --- |" + " ---: |" * (len(head) - 1))
    for row in rows:
        memory = f"{row['wasm_bytes'] / 2**20:,.0f} MiB"
        print(table_row(f"page {row['name']}", row["ms"], f"{row['wall'] * 1e3:,.0f} ms", memory))
    print(table_row("native (cffi)", native, "", ""))
    best = min(row["wall"] for row in rows)
    median = statistics.median(row["wall"] for row in rows)
    verdict = "met" if median <= TARGET_S else "MISSED"
    print(f"\nclick to kept: best {best:.2f} s, median {median:.2f} s; target ≤ {TARGET_S:.0f} s: {verdict}")
    ratio = statistics.median(row["ms"]["total"] for row in rows) / native["total"]
    print(f"page / native (worker total, median): {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
