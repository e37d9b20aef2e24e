"""GADDAG Scrabble solver: Gordon's GADDAG move generation in C, with a Python API.

>>> from gaddag_solver import Lexicon
>>> lexicon = Lexicon.load("lexicons/sowpods.gaddag")
>>> "QI" in lexicon
True
"""

from .alphabet import Alphabet, AlphabetError
from .lexicon import BuildReport, Lexicon, LexiconBuildError, LexiconFormatError, LexiconStats, build_gaddag
from .rules import Rules, RulesError

__all__ = [
    "Alphabet",
    "AlphabetError",
    "BuildReport",
    "Lexicon",
    "LexiconBuildError",
    "LexiconFormatError",
    "LexiconStats",
    "Rules",
    "RulesError",
    "build_gaddag",
]
