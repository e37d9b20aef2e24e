"""The game layer, above the solver: a game played turn by turn (play: ``Game``), self-play
between configured players (autoplay) and its statistics (stats). Nothing below imports it.
"""

from .play import Game, GameError, TurnRecord

__all__ = ["Game", "GameError", "TurnRecord"]
