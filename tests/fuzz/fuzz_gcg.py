"""Fuzz target: the bytes of a GCG file, decoded, parsed and replayed as `review` reads them.

Contract: decode_gcg gives text (or GcgError for binary data), parse_gcg gives a game whose
every problem is a warning with a line number inside the file, or raises GcgError, and the game
replays (with a small English lexicon) to turns whose problems are warnings too — whatever the
file's events and pragmas say, in whatever order (an event before the #player pragma that then
names another player, totals beyond 32 bits).
"""

from __future__ import annotations

import atheris

with atheris.instrument_imports():
    from _common import fuzz
    from gaddag_solver import Rules, build_gaddag
    from gaddag_solver.formats.gcg import GcgError, decode_gcg, parse_gcg
    from gaddag_solver.game.replay import Replay
    from gaddag_solver.lexicon import Lexicon
    from small_words import WORDS

ENGLISH = Rules.load("english")
LEXICON = Lexicon.load(build_gaddag(WORDS, ENGLISH.alphabet, name="small")[0], ENGLISH)


def test_one_input(data: bytes) -> None:
    try:
        text, issues = decode_gcg(data)
        game = parse_gcg(text)
    except GcgError:
        return
    lines = max(1, len(text.splitlines()))
    for issue in [*issues, *game.warnings]:
        assert 1 <= issue.line <= lines, issue
    replay = Replay(game, LEXICON, ENGLISH)
    assert len(replay.turns) == len(game.events)
    for issue in replay.warnings:
        assert 0 <= issue.line <= lines, issue


if __name__ == "__main__":
    fuzz(test_one_input)
