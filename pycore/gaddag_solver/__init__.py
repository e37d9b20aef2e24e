"""GADDAG Scrabble solver: Gordon's GADDAG move generation in C, with a Python API.

>>> from gaddag_solver import Lexicon
>>> lexicon = Lexicon.load("lexicons/sowpods.gaddag")
>>> "QI" in lexicon
True
"""

from .alphabet import Alphabet, AlphabetError
from .board import Board, PositionError, PositionWarning, position_warnings, square_name
from .formats.cgp import CgpError, Position, format_cgp, parse_cgp
from .formats.leaves import Leaves, LeavesError
from .game.play import Game, GameError, TurnRecord
from .game.verdict import Verdict, judge, judge_tiles
from .lexicon import BuildReport, Lexicon, LexiconBuildError, LexiconFormatError, LexiconStats, build_gaddag
from .move import Move
from .rack import Rack, RackError
from .rules import Rules, RulesError
from .solver import LexiconMismatchError, Solver, solve
from .unseen import Unseen, unseen

__all__ = [
    "Alphabet",
    "AlphabetError",
    "Board",
    "BuildReport",
    "CgpError",
    "Game",
    "GameError",
    "Leaves",
    "LeavesError",
    "Lexicon",
    "LexiconBuildError",
    "LexiconFormatError",
    "LexiconMismatchError",
    "LexiconStats",
    "Move",
    "Position",
    "PositionError",
    "PositionWarning",
    "Rack",
    "RackError",
    "Rules",
    "RulesError",
    "Solver",
    "TurnRecord",
    "Unseen",
    "Verdict",
    "build_gaddag",
    "format_cgp",
    "judge",
    "judge_tiles",
    "parse_cgp",
    "position_warnings",
    "solve",
    "square_name",
    "unseen",
]
