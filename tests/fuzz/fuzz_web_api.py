"""Fuzz target: requests to the page's web API (web_api.call), as the Web Worker sends them.

The input bytes are turned into a request kind and a JSON object made of the fields the API
reads (values of any JSON type, often the right words: a loaded lexicon's name, a board's rows,
a rack, a CGP line, events...), and for the loads and review_gcg the rest of the input as the
file's bytes. One lexicon ("small", English) and one leave table ("sowpods") are loaded first.

Contract: call() always answers JSON; bad input comes back as {"error", "field"} with field one
of the documented names, never "internal" (the answer call() gives for an unexpected exception,
which is a finding). ``min_ms`` of a bench request is clamped to at most 1 ms (when the API
would accept it) so that a request for a long benchmark is not reported as a hang.
"""

from __future__ import annotations

import json
from typing import Any

import atheris

with atheris.instrument_imports():
    from _common import REPO, fuzz
    from gaddag_solver import Rules, build_gaddag, web_api
    from small_words import WORDS

ENGLISH = Rules.load("english")
web_api.load_lexicon("small", build_gaddag(WORDS, ENGLISH.alphabet, name="small")[0], "english")
web_api.load_leaves("sowpods", (REPO / "pycore/gaddag_solver/leaves/sowpods.leaves").read_bytes(), "english")

KINDS = ["load_lexicon", "load_leaves", "solve", "unseen", "parse_cgp", "format_cgp", "review_gcg"]
KINDS += ["export_gcg", "bench", "judge", "nonsense", "simulate", "endgame", "preendgame", "add_lexicon"]
KEYS = ["name", "rules", "lexicon", "leaves", "board", "rack", "format", "top", "exchanges", "bag", "cgp"]
KEYS += ["gcg", "events", "players", "title", "positions", "min_ms", "kind", "coord", "word", "score"]
KEYS += ["exchanged", "engine", "direction", "play", "tiles"]
KEYS += ["action", "session", "ms", "iterations", "candidates", "plies", "seed", "opponent_rack"]
HUGE = [2**31 - 1, 2**31, -(2**31) - 1, 2**63, 99_999_999_999, 10**30]
EMPTY_ROWS = ["." * 15] * 15
CAT_ROWS = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
WORDS_USED = ["small", "english", "wwf", "super", "sowpods", "moves", "records", "play", "exchange", "pass"]
WORDS_USED += ["H8", "8H", "G8", "CAT", "C.T", "cAT", "AEIRST?", "?", "", "Player1", "ZZ", "15/" * 14 + "15"]
WORDS_USED += ["15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEIRST?/ 0/0 0"]
WORDS_USED += ["gaddag", "dawg", "both", "across", "down", "8G SCAT", "H7 (C)AT", "G8 s"]
WORDS_USED += ["start", "step", "stop", "EIST", "?"]
WORDS_USED += ["\n".join(CAT_ROWS) + "\nAEST"]
WORDS_USED += ["#player1 a A\n#player2 b B\n>a: AEIRST? 8D RAT +6 6\n>b: EEE -EEE +0 0\n"]


def value(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """A JSON value: mostly words the API knows, else anything."""
    pick = fdp.ConsumeIntInRange(0, 9 if depth < 3 else 5)
    if pick == 0:
        return None
    if pick == 1:
        return fdp.ConsumeBool()
    if pick == 2:
        if fdp.ConsumeBool():
            return fdp.ConsumeIntInRange(-(2**40), 2**40) if fdp.ConsumeBool() else fdp.PickValueInList(HUGE)
        return fdp.ConsumeIntInRange(-2, 20)
    if pick == 3:
        return fdp.ConsumeRegularFloat()
    if pick == 4:
        return fdp.PickValueInList(WORDS_USED)
    if pick == 5:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40))
    if pick == 6:
        if fdp.ConsumeBool():  # a placed tile, as the page sends them: [row, col, letter, blank]
            square = [fdp.ConsumeIntInRange(-1, 16), fdp.ConsumeIntInRange(-1, 16)]
            return [[*square, value(fdp, 3), value(fdp, 3)]]
        return [value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if pick == 7:
        return {fdp.PickValueInList(KEYS): value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 6))}
    rows = list(CAT_ROWS if pick == 8 else EMPTY_ROWS)
    for _ in range(fdp.ConsumeIntInRange(0, 3)):  # damage a row, or the number of rows
        if rows and fdp.ConsumeBool():
            rows[fdp.ConsumeIntInRange(0, len(rows) - 1)] = fdp.ConsumeUnicodeNoSurrogates(16)
        else:
            rows.append(fdp.ConsumeUnicodeNoSurrogates(15)) if fdp.ConsumeBool() else rows.pop()
    return rows


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    kind = fdp.PickValueInList(KINDS)
    request = {fdp.PickValueInList(KEYS): value(fdp) for _ in range(fdp.ConsumeIntInRange(0, 8))}
    if kind in ("load_lexicon", "load_leaves"):
        request["name"] = "fuzzed"  # never replaces what the other requests use
    min_ms = request.get("min_ms")
    if isinstance(min_ms, int | float) and 1 < min_ms <= 60_000:  # above: refused as bad input
        request["min_ms"] = 1
    ms = request.get("ms")
    if isinstance(ms, int | float) and 5 < ms <= 10_000:  # a look-ahead step: short, not a hang
        request["ms"] = 5
    file_bytes: Any = None
    if kind in KINDS[:2] + ["review_gcg", "add_lexicon"]:
        file_bytes = fdp.ConsumeBytes(fdp.remaining_bytes()) or None
        if kind == "add_lexicon" and file_bytes and file_bytes[0] < 64:  # not bytes at all
            file_bytes = file_bytes.decode("latin-1") if file_bytes[0] < 32 else len(file_bytes)
    answer_text, records = web_api.call(kind, json.dumps(request), file_bytes)
    answer = json.loads(answer_text)
    assert isinstance(answer, dict)
    assert answer.get("field") != "internal", (kind, request, answer)
    if records is not None:
        assert len(records) % web_api.RECORD_SIZE == 0


if __name__ == "__main__":
    fuzz(test_one_input)
