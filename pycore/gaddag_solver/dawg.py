"""The DAWG of a lexicon: the automaton of its words read from their first letter, which
Appel & Jacobson's move generator walks (``engine="dawg"``; docs/dawg.md).

A ``.dawg`` file has the ``.gaddag`` layout with its own magic, and is validated the same way.
:func:`dawg_for` gives the DAWG of a loaded :class:`~gaddag_solver.lexicon.Lexicon`: the
``NAME.dawg`` file beside its ``NAME.gaddag`` when there is one (``build_lexicon.py --dawg``
writes it), else one built in memory from the lexicon's own words.
"""

from __future__ import annotations

import os
import threading
import weakref
from pathlib import Path

from . import _core_api as core
from .alphabet import Alphabet, AlphabetError
from .lexicon import (
    Lexicon,
    LexiconFormatError,
    LexiconStats,
    _alphabet_for,
    dawg_path_for,
    open_lexicon_file,
)
from .rules import Rules


class DawgMismatchError(ValueError):
    """A .dawg file beside a .gaddag file that holds other words."""


class Dawg:
    """A validated DAWG lexicon. Create with :meth:`load` or :func:`dawg_for`."""

    def __init__(self, opened: core.OpenedLexicon, source: str | None, alphabet: Alphabet) -> None:
        self._core = opened
        self.source = source
        self.alphabet = alphabet
        self.name = opened.name
        self.stats = LexiconStats(
            opened.words, opened.states, opened.arcs, opened.size, opened.max_word_length
        )

    @classmethod
    def load(
        cls, source: str | os.PathLike[str] | bytes | bytearray | memoryview, rules: Rules | str | None = None
    ) -> Dawg:
        """Load and fully validate a .dawg file from a path or its bytes. Raises
        LexiconFormatError (a .gaddag file given here is named as such), AlphabetError, OSError."""
        opened, label, ruleset = open_lexicon_file(source, rules, "dawg")
        try:
            return cls(opened, label, _alphabet_for(opened.alphabet, ruleset))
        except AlphabetError as exc:
            raise LexiconFormatError(f"the alphabet cannot be used: {exc}", None, label) from None

    def __repr__(self) -> str:
        return f"<Dawg {self.name!r}: {self.stats.words} words, {self.stats.arcs} arcs>"

    def __len__(self) -> int:
        return self.stats.words

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            codes = self.alphabet.encode(word)
        except AlphabetError:
            return False
        return core.contains(self._core, codes)


def dawg_bytes(lexicon: Lexicon) -> bytes:
    """The .dawg file of a lexicon's words, built from the words its GADDAG spells."""
    words = b"".join(
        core.pattern(lexicon._core, bytes(length)) for length in range(1, lexicon.stats.max_word_length + 1)
    )
    data, _stats = core.build(
        words, len(lexicon.alphabet), lexicon.alphabet.header_bytes(), lexicon.name.encode(), kind="dawg"
    )
    return data


_dawgs: weakref.WeakKeyDictionary[Lexicon, Dawg] = weakref.WeakKeyDictionary()
_dawgs_lock = threading.Lock()


def dawg_for(lexicon: Lexicon) -> Dawg:
    """The DAWG of `lexicon`'s words, made once per lexicon: the .dawg file beside its .gaddag
    file when there is one (refused with DawgMismatchError when its words or letters differ),
    else built in memory (about a second for SOWPODS)."""
    with _dawgs_lock:
        dawg = _dawgs.get(lexicon)
        if dawg is not None:
            return dawg
        beside = dawg_path_for(lexicon.source) if lexicon.source else None
        if beside is not None and Path(beside).is_file():
            dawg = Dawg.load(beside)
            dawg.alphabet = lexicon.alphabet
            if dawg._core.alphabet != lexicon._core.alphabet or dawg.stats.words != lexicon.stats.words:
                raise DawgMismatchError(
                    f"{beside} holds {dawg.stats.words:,} words of {''.join(dawg._core.alphabet)}, but "
                    f"{lexicon.source} holds {lexicon.stats.words:,} of {''.join(lexicon._core.alphabet)}: "
                    f"rebuild both with build_lexicon.py --dawg"
                )
        else:
            dawg = Dawg(core.open_lexicon(dawg_bytes(lexicon), "dawg"), None, lexicon.alphabet)
        _dawgs[lexicon] = dawg
        return dawg
