"""Fuzz target: leave tables, as .leaves bytes, CSV text or KLV2 bytes (the first input byte
picks which, and for .leaves bytes whether they are forged first: size and CRC-32 made to
match, see _common.forge; the rest is the file), for a tiny ruleset (so that a valid table is small).

Contract: Leaves.from_bytes, Leaves.from_csv_text and Leaves.from_klv2 either give a table whose
values can be read, or raise LeavesError.
"""

from __future__ import annotations

import atheris

with atheris.instrument_imports():
    from _common import forge, fuzz, text
    from gaddag_solver.formats.leaves import Leaves, LeavesError
    from tiny_rules import tiny_rules

RULES = tiny_rules()


def test_one_input(data: bytes) -> None:
    if not data:
        return
    mode, body = data[0] % 4, data[1:]
    try:
        if mode == 0:
            table = Leaves.from_bytes(body, RULES)
        elif mode == 3:
            table = Leaves.from_bytes(forge(body), RULES)
        elif mode == 1:
            # CSV text goes to from_csv_text (from_csv takes only paths)
            table = Leaves.from_csv_text(text(body), RULES)
        else:
            table = Leaves.from_klv2(body, RULES)
    except LeavesError:
        return
    for leave in ("", "?", "AE", "CORS", "??AT"):
        table.value(leave)


if __name__ == "__main__":
    fuzz(test_one_input)
