"""A game, turn by turn: the bag, two racks, scores, moves, undo — held by the C core.

>>> from gaddag_solver import Game, Lexicon
>>> game = Game.new(Lexicon.load("lexicons/sowpods.gaddag"), seed=7)  # doctest: +SKIP
>>> move = game.best_move()  # the core's equity player  # doctest: +SKIP
>>> game.play(move); game.scores  # doctest: +SKIP

The state lives in a ``gd_game`` (csrc/game.c): the same structure self-play runs whole games
in, so a game played here and one played by ``autoplay`` follow the same rules (docs/game.md):
a play draws as many tiles as it placed; an exchange is allowed while the bag holds at least
the ruleset's ``exchange_minimum``; the game ends when a player goes out with the bag empty
(they gain ``going_out_bonus`` times the opponent's rack value, the opponent loses
``going_out_penalty`` times it) or after ``scoreless_turns`` scoreless turns in a row (each
player loses the value of their own rack). Undo restores a snapshot of the whole structure.

Moves are checked before they are made: a play must be one the solver generates for the rack
(so every word is in the lexicon), an exchange needs its tiles on the rack and enough tiles in
the bag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import _core_api as core
from ..board import Board, PositionError, held_tiles
from ..lexicon import Lexicon
from ..limits import score_problem
from ..move import EXCHANGE, MOVE_RECORD, PLAY, Move
from ..rack import BLANK, Rack, RackError, parse_tiles, tiles_of_counts
from ..rules import Rules
from ..rules_core import core_rules
from ..solver import Solver, get_solver
from ..unseen import Unseen, unseen, unseen_from_counts

if TYPE_CHECKING:
    from ..formats.leaves import Leaves

__all__ = ["Game", "GameError", "TurnRecord"]


def _check_tile_counts(board: Board, racks: Sequence[Rack], rules: Rules) -> None:
    """GameError naming the letter when the board and racks hold more of it than the set has."""
    held = held_tiles(board, racks[0], rules)  # [0] blanks, [c] letter code c
    other = racks[1].counts()
    for c, n in enumerate(held):
        n += other[c]
        has = rules.blanks if c == 0 else rules.counts[c - 1]
        if n > has:
            what = "blanks" if c == 0 else f"{rules.alphabet.letters[c - 1]!r} tiles"
            raise GameError(
                f"the board and racks hold {n} {what}; the {rules.title} set has {has} ({n - has} too many)"
            )


class GameError(PositionError):
    """A move that cannot be made now, or a game that cannot be set up."""


@dataclass(frozen=True)
class TurnRecord:
    """One turn of the game so far: who moved (0 or 1), their rack before the move, the move,
    the tiles they drew and their score after it (end-of-game adjustments not included)."""

    player: int
    rack: str
    move: Move
    drawn: int
    total: int


class Game:
    """A two-player game. Make one with :meth:`new` (a shuffled bag) or :meth:`from_position`."""

    def __init__(self, lexicon: Lexicon, rules: Rules | None = None) -> None:
        """An empty shell; use :meth:`new` or :meth:`from_position`."""
        self.lexicon = lexicon
        self.rules = rules if rules is not None else Rules.load("english")
        self.solver: Solver = get_solver(lexicon, self.rules)
        self._rules = core_rules(self.rules)
        self._state = core.GameState()
        self._undo: list[bytes] = []
        self._letters = self.rules.alphabet.letters

    # ---- set-up ----------------------------------------------------------------------------------

    @classmethod
    def new(cls, lexicon: Lexicon, rules: Rules | None = None, seed: int = 0) -> Game:
        """A new game: the full tile set shuffled by ``seed`` (the same seed, the same bag, natively
        and in the browser), a full rack each, player 0 to move."""
        game = cls(lexicon, rules)
        try:
            core.new_game(game._state, game._rules, seed)
        except core.CoreError as error:
            raise GameError(str(error)) from None
        return game

    @classmethod
    def from_position(
        cls,
        board: Board,
        racks: Sequence[Rack | str],
        lexicon: Lexicon,
        scores: Sequence[int] = (0, 0),
        to_move: int = 0,
        seed: int = 0,
    ) -> Game:
        """A game from a position: the board, both racks, the scores and who moves next. The bag
        holds every other tile of the set, shuffled by ``seed``. A board and racks holding more
        tiles of a letter than the set has are refused with a GameError."""
        rules = board.rules
        game = cls(lexicon, rules)
        if len(racks) != 2 or len(scores) != 2:
            raise GameError("a game has two racks and two scores")
        held = [r if isinstance(r, Rack) else Rack(r, rules) for r in racks]
        for seat, score in enumerate(scores):
            problem = score_problem(int(score), f"player {seat + 1}'s score")
            if problem:
                raise GameError(problem)
        if not 0 <= to_move <= 1:
            raise GameError(f"to_move is 0 or 1 (the player to move), not {to_move}")
        _check_tile_counts(board, held, rules)
        try:
            core.game_from_position(
                game._state,
                game._rules,
                board.codes(),
                (held[0].counts(), held[1].counts()),
                (int(scores[0]), int(scores[1])),
                to_move,
                seed,
            )
        except core.CoreError as error:
            raise GameError(str(error)) from None
        return game

    @classmethod
    def from_board(
        cls,
        board: Board,
        rack: Rack | str,
        lexicon: Lexicon,
        opponent_rack: Rack | str | None = None,
        scores: Sequence[int] = (0, 0),
        scoreless_turns: int = 0,
        seed: int = 0,
    ) -> Game:
        """The position of a board and the rack of the player to move (player 0), as a solver sees
        it. Without ``opponent_rack`` the opponent holds a full rack of the unseen tiles (which
        ones is arbitrary: a simulation deals them afresh; with no more unseen tiles than a rack,
        they are exactly the opponent's, so the bag is empty and the endgame is known)."""
        rules = board.rules
        mine = rack if isinstance(rack, Rack) else Rack(rack, rules)
        if opponent_rack is None:
            left = unseen(board, mine, rules)
            tiles = [letter for letter, n in left.counts.items() for _ in range(n)]
            blanks = [t for t in tiles if t == BLANK]
            tiles = [t for t in tiles if t != BLANK] + blanks
            theirs = Rack(tiles[: rules.rack_size], rules)
        else:
            theirs = opponent_rack if isinstance(opponent_rack, Rack) else Rack(opponent_rack, rules)
        game = cls.from_position(board, [mine, theirs], lexicon, scores, 0, seed)
        if not 0 <= scoreless_turns <= rules.scoreless_turns:
            raise GameError(
                f"scoreless_turns {scoreless_turns}: the game ends after {rules.scoreless_turns} "
                f"scoreless turns, so it is 0 to {rules.scoreless_turns}"
            )
        if scoreless_turns:
            game._state.game.scoreless = int(scoreless_turns)
        return game

    # ---- reading ---------------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        squares = self.rules.rows * self.rules.cols
        return Board(self.rules, core.game_board(self._state, squares), check=False)

    def rack(self, player: int | None = None) -> Rack:
        """A player's rack (default: the player to move)."""
        player = self.to_move if player is None else player
        return Rack(self._tiles(core.game_rack(self._state, player)), self.rules)

    @property
    def racks(self) -> tuple[Rack, Rack]:
        return self.rack(0), self.rack(1)

    @property
    def scores(self) -> tuple[int, int]:
        return int(self._state.game.score[0]), int(self._state.game.score[1])

    @property
    def to_move(self) -> int:
        return int(self._state.game.to_move)

    @property
    def bag_count(self) -> int:
        return int(self._state.game.bag_count)

    @property
    def over(self) -> bool:
        return bool(self._state.game.over)

    @property
    def end_adjustments(self) -> tuple[int, int]:
        """What the end of the game added to each score (0, 0 while it goes on)."""
        return int(self._state.game.end_adjustment[0]), int(self._state.game.end_adjustment[1])

    @property
    def scoreless_turns(self) -> int:
        """Scoreless turns in a row so far."""
        return int(self._state.game.scoreless)

    def unseen(self, player: int | None = None) -> Unseen:
        """What ``player`` (default: the player to move) cannot see: the bag and the opponent's
        rack, letter by letter, with the bag's count."""
        player = self.to_move if player is None else player
        counts = core.game_unseen(self._state, player)
        return unseen_from_counts(counts, self.bag_count, self.rules)

    @property
    def history(self) -> list[TurnRecord]:
        """Every turn so far, in order."""
        played = core.read_game(self._state.game)
        board = Board.empty(self.rules)
        records: list[TurnRecord] = []
        for turn in played.turns:
            rack = Rack(self._tiles_sorted(turn.rack), self.rules)
            move = self._turn_move(turn, rack, board)
            if move.kind == PLAY:
                board = board.play(move)
            records.append(TurnRecord(turn.player, str(rack), move, turn.drawn, turn.total))
        return records

    def to_gcg(
        self, names: tuple[str, str] = ("player1", "player2"), title: str | None = None, lexicon: str = ""
    ) -> str:
        """The game so far as GCG text; ``#lexicon`` names ``lexicon``, by default the game's own
        (its name, else its file's)."""
        from ..formats.gcg import format_gcg

        named = lexicon or self.lexicon.name or self.lexicon.source or ""
        return format_gcg(core.read_game(self._state.game), self.rules, names, title, named)

    # ---- moves -------------------------------------------------------------------------------------

    def moves(
        self, top: int | None = None, *, leaves: Leaves | None = None, equity: bool | None = None
    ) -> list[Move]:
        """The legal moves of the player to move, exchanges (when the bag allows) and the pass
        included, best first: by equity with a leave table (or ``equity=True``), else by score."""
        if self.over:
            return []
        return self.solver.solve(
            self.board,
            self.rack(),
            top,
            warn=False,
            leaves=leaves,
            equity=equity,
            exchanges=True,
            bag=self.bag_count,
            opponent_rack=self.rack(1 - self.to_move),
        )

    def best_move(self, player: str = "equity", leaves: Leaves | None = None) -> Move:
        """The move the core's ``player`` makes: ``"equity"`` (best equity with ``leaves``, every
        leave worth 0 without; exchanges and the pass considered) or ``"greedy"`` (best score;
        with no play, exchange the whole rack or pass). The same choice self-play makes."""
        if self.over:
            raise GameError("the game is over")
        record = core.choose_move(
            self.lexicon._core, self._rules, self._state, player, None if leaves is None else leaves.core
        )
        return self._record_move(record)

    def play(self, move: Move) -> None:
        """Make ``move`` for the player to move (a play the solver lists, an exchange or the pass)."""
        if self.over:
            raise GameError("the game is over")
        if move.kind == PLAY:
            record = self._legal_play(move)
        else:
            if move.kind == EXCHANGE:
                self._check_exchange(move.exchanged)
            record = move.record(self.rules)
        snapshot = self._state.snapshot()
        try:
            core.game_move(self._state, self._rules, record)
        except core.CoreError as error:
            self._state.restore(snapshot)
            raise GameError(str(error)) from None
        self._undo.append(snapshot)

    def exchange(self, tiles: str) -> None:
        """Put ``tiles`` (rack text, ``?`` a blank) back in the bag and draw as many."""
        self.play(Move.exchange(tiles))

    def pass_turn(self) -> None:
        self.play(Move.pass_turn())

    def undo(self) -> None:
        """Take back the last move (the bag, racks and scores as they were before it)."""
        if not self._undo:
            raise GameError("there is no move to take back")
        self._state.restore(self._undo.pop())

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # ---- helpers -----------------------------------------------------------------------------------

    def _tiles(self, counts: bytes) -> list[str]:
        return tiles_of_counts(counts, self._letters)

    def _tiles_sorted(self, codes: bytes) -> list[str]:
        """Rack tiles from codes ascending (0 a blank): letters, then blanks."""
        return [self._letters[c - 1] for c in codes if c] + [BLANK] * codes.count(0)

    def _check_exchange(self, tiles: str) -> None:
        """A GameError, in letters, when the tiles to put back are not on the rack."""
        rack = self.rack()
        try:
            wanted = parse_tiles(tiles, self.rules)
        except RackError as error:
            raise GameError(f"exchange {tiles!r}: {error}") from None
        try:
            rack.remove(wanted)
        except RackError:
            raise GameError(f"exchange {tiles!r}: rack {rack} does not hold those tiles") from None

    def _legal_play(self, move: Move) -> bytes:
        """The record of ``move`` if the solver lists it for the rack, else a GameError. Its score
        is the solver's; its equity the move's own when it was valued (the history keeps it)."""
        board = self.board
        try:
            wanted = Move(move.row, move.col, move.direction, move.word, move.score, move.tiles, board=board)
            wanted_record = wanted.record()
        except (PositionError, ValueError) as error:
            raise GameError(f"{move}: {error}") from None
        key = wanted_record[8:]  # everything but score and equity
        _count, records = self.solver.solve_raw(board, self.rack())
        for i in range(0, len(records), MOVE_RECORD.size):
            if records[i + 8 : i + MOVE_RECORD.size] == key:
                found = records[i : i + MOVE_RECORD.size]
                if move.equity is None:
                    return found
                return found[:4] + round(100 * move.equity).to_bytes(4, "little", signed=True) + found[8:]
        raise GameError(f"{move.coord} {move.word} is not a legal play for rack {self.rack()}")

    def _record_move(self, record: bytes) -> Move:
        board = self.board
        rack = self.rack()
        valued = self.solver.moves_from_records(record, board, rack, valued=True)
        return valued[0]

    def _turn_move(self, turn: core.Turn, rack: Rack, board: Board) -> Move:
        """The Move of a history turn, read on the board it was made on."""
        record = MOVE_RECORD.pack(
            turn.score, turn.equity, turn.row, turn.col, turn.direction, len(turn.word), turn.tiles_placed,
            turn.kind, turn.word,
        )  # fmt: skip
        return self.solver.moves_from_records(record, board, rack, valued=True)[0]

    def __repr__(self) -> str:
        state = "over" if self.over else f"player {self.to_move} to move"
        first, second = self.scores
        return f"Game({self.rules.name}, scores {first}-{second}, bag {self.bag_count}, {state})"
