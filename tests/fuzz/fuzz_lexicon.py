"""Fuzz target: the bytes of a .gaddag file, loaded and validated, then queried. The first input
byte picks whether the rest is loaded as it is, or forged first (size field and CRC-32 made to
match, see _common.forge) so that mutations reach the checks behind the checksum.

Contract: Lexicon.load(bytes) either returns a lexicon whose queries answer (a query may refuse
a word with AlphabetError), or raises LexiconFormatError. Move generation on a loaded lexicon
with an unusual alphabet may raise LexiconMismatchError or PositionError, nothing else.
"""

from __future__ import annotations

import atheris

with atheris.instrument_imports():
    from _common import forge, fuzz
    from gaddag_solver import Lexicon, Rules, solve
    from gaddag_solver.alphabet import AlphabetError
    from gaddag_solver.board import PositionError
    from gaddag_solver.formats.cgp import parse_cgp
    from gaddag_solver.lexicon import LexiconFormatError
    from gaddag_solver.solver import LexiconMismatchError

ENGLISH = Rules.load("english")
# a board with a word on it, so that cross-sets and hooks are computed too
POSITION = parse_cgp("15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEIRST?/ 0/0 0", ENGLISH)


def test_one_input(data: bytes) -> None:
    if not data:
        return
    body = forge(data[1:]) if data[0] & 1 else data[1:]
    try:
        lexicon = Lexicon.load(body)
    except LexiconFormatError:
        return
    assert len(lexicon) >= 0
    try:
        "CAT" in lexicon  # noqa: B015 — the query is what is exercised
        lexicon.anagrams("AEST?", partial=True)
        lexicon.pattern(".A.")
        lexicon.containing("A")
    except AlphabetError:
        pass
    try:
        solve(POSITION.board, POSITION.rack, lexicon, top=5)
    except (LexiconMismatchError, PositionError):
        pass


if __name__ == "__main__":
    fuzz(test_one_input)
