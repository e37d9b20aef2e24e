"""The game layer, above the solver: a game played turn by turn (play: ``Game``), self-play
between configured players (autoplay) and its statistics (stats), recorded games replayed
(replay: ``Replay``) and reviewed (review), and the parallel running they share (parallel).
Nothing below imports it.
"""

from .play import Game, GameError, TurnRecord
from .replay import Replay, ReplayTurn

__all__ = ["Game", "GameError", "Replay", "ReplayTurn", "TurnRecord"]
