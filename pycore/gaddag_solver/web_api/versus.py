"""A game against the computer, held in the worker: the page's player against one of the engine's
players (docs/versus.md).

The game is a :class:`~gaddag_solver.game.play.Game` (the C core's bag, racks and rules), so the
same seed and the same moves give the same game natively and in the page. The page keeps only
the seed and the moves (``moves`` in every answer) and, after a reload, starts the game again
from them (``action`` "new" with ``moves``): the computer's moves are replayed, not chosen
again, so a game whose computer simulated for a time comes back as it was played.

``request["action"]``:

- ``"new"``: ``lexicon``, ``rules``, ``leaves`` (a loaded table's name, or null: every leave
  worth 0), ``level`` (``greedy``, ``equity``, ``simulation`` or ``lookahead``: the simulation,
  the pre-endgame with 1 to 6 tiles in the bag and the exact endgame with none), ``sim_ms`` (the
  time per move of the simulation or search, 100 to 60,000 ms), ``seed`` (0 to 2**53 - 1),
  ``human`` (0: the player moves first, 1: the computer does) and ``moves`` (the moves so far, as
  answers give them: replayed);
- ``"play"`` (``tiles``: ``[[row, col, letter, blank], ...]``, the tiles the player placed),
  ``"exchange"`` (``tiles``: rack text), ``"pass"``: the player's move;
- ``"computer"``: the computer chooses and makes its move;
- ``"undo"``: take back the player's last move and the computer's replies to it;
- ``"hint"``: the best move by equity for the player (not made);
- ``"state"``, and ``"gcg"`` (``names``): the game as GCG text, naming its ``#lexicon``.

Every answer (but ``gcg`` and ``hint``) is the game as the player may see it: the board, their
rack only (the computer's comes out when the game is over), the scores, the bag, the tiles
unseen by the player (the bag and the computer's rack together), every turn (the computer's
exchanges by their number of tiles) and, once over, the end's adjustments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..formats.leaves import Leaves
from ..game.best import choose_best, infer_opponent, turn_seed
from ..game.infer import Inference
from ..game.play import Game, GameError
from ..game.preendgame import MAX_BAG
from ..game.simulate import DEFAULT_ITERATIONS, Simulation, SimulationError
from ..game.verdict import judge_tiles
from ..move import EXCHANGE, PASS, PLAY, Move
from ..rack import BLANK, Rack, RackError, parse_tiles
from ..rules import Rules
from ._base import ApiError, _choice, _error, _placed
from .loaded import _leave_table, _solver

LEVELS = ("equity", "greedy", "simulation", "lookahead")
MIN_SIM_MS = 100
MAX_SIM_MS = 60_000
DEFAULT_SIM_MS = 2_000
MAX_SEED = 2**53 - 1  # what a JavaScript number holds exactly
MAX_MOVES = 600


@dataclass
class Versus:
    """The game in the worker and how the computer plays it."""

    game: Game
    lexicon: str
    rules: Rules
    leaves_name: str | None
    leaves: Leaves | None
    level: str
    sim_ms: int
    seed: int
    human: int
    last_search: dict[str, Any] | None = None
    _likely: tuple[int, dict[str, Any] | None] | None = None  # (turns, what the computer likely kept)

    @property
    def computer(self) -> int:
        return 1 - self.human

    def likely_kept(self) -> dict[str, Any] | None:
        """What the computer likely kept with its last move, as the player can infer it (None
        when its last move was not the last turn, a pass, or the bag is empty); once a turn."""
        turns = len(self.game.history)
        if self._likely is None or self._likely[0] != turns:
            found = None
            if not self.game.over and self.game.bag_count and self.game.to_move == self.human:
                inference = infer_opponent(self.game, self.leaves, turn_seed(self.seed, turns))
                if inference is not None:
                    found = {
                        "leaves": [x.to_dict() for x in inference.leaves[:5]],
                        "holds": {k: round(v, 4) for k, v in inference.holds.items() if v >= 0.5},
                        "exhaustive": inference.exhaustive,
                        "racks": inference.racks,
                    }
            self._likely = (turns, found)
        return self._likely[1]

    def computer_move(self) -> Move:
        """The computer's move now, by its level (a simulation seeded by the game and the turn;
        ``lookahead``: the best player of game/best.py, with the pre-endgame from 6 tiles in the
        bag down and the clock: the exact endgame search with the bag empty, the pre-endgame with
        1 to 6 tiles in it, else the simulation against the racks the player's last move says they
        kept (game/infer.py); each given ``sim_ms``)."""
        game = self.game
        self.last_search = None
        if self.level == "greedy":
            return game.best_move("greedy")
        if self.level == "equity":
            return game.best_move("equity", self.leaves)
        seed = turn_seed(self.seed, len(game.history))
        if self.level == "simulation":
            try:
                simulation = Simulation(game, leaves=self.leaves, seed=seed)
            except SimulationError:  # no play or exchange (only the pass): what the equity player does
                return game.best_move("equity", self.leaves)
            result = simulation.run(DEFAULT_ITERATIONS, self.sim_ms / 1000)
            self._searched(result)
            return result.best.move
        choice = choose_best(game, self.leaves, self.sim_ms / 1000, seed, preendgame_bag=MAX_BAG, clock=True)
        if choice.tool == "endgame":
            self.last_search = {"kind": "endgame", **choice.result.to_dict()}
        elif choice.tool == "preendgame":
            pre = choice.result
            best = pre.best
            self.last_search = {
                "kind": "preendgame",
                "complete": pre.complete,
                "reason": pre.reason,
                "method": pre.method,
                "elapsed_ms": round(pre.elapsed * 1000),
                "candidates": len(pre.candidates),
                "best": {"move": str(best.move), "win": None if best.win is None else float(best.win)},
            }
        elif choice.tool == "simulation":
            self._searched(choice.result, choice.inference, choice.fallback)
        return choice.move

    def _searched(self, result: Any, inference: Inference | None = None, fallback: str | None = None) -> None:
        """What the page is told of a simulation the computer ran."""
        self.last_search = {
            "kind": "simulation",
            **({"fallback": fallback} if fallback else {}),
            **({"inferred": [x.to_dict() for x in inference.leaves[:3]]} if inference is not None else {}),
            "iterations": result.iterations,
            "candidates": len(result.candidates),
            "reason": result.reason,
            "elapsed_ms": round(result.elapsed * 1000),
            "best": result.best.to_dict(),
        }


_current: list[Versus] = []  # the game in progress (one per worker)


def _whole_in(request: dict[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = request.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(f"{key} must be a whole number from {low} to {high}, not {value!r}", key)
    return value


def _game() -> Versus:
    if not _current:
        raise ApiError("no game against the computer is in progress (start a new one)", "versus")
    return _current[0]


def _tiles(request: dict[str, Any], rules: Rules) -> list[tuple[int, int, str, bool]]:
    tiles = request.get("tiles")
    if not isinstance(tiles, list) or not all(
        isinstance(t, list) and len(t) == 4 and type(t[0]) is int and type(t[1]) is int
        and isinstance(t[2], str) and isinstance(t[3], bool) for t in tiles
    ):  # fmt: skip
        raise ApiError("tiles must be a list of [row, col, letter, blank]", "play")
    if not tiles:
        raise ApiError("place tiles on the board first (or exchange, or pass)", "play")
    out = []
    for r, c, letter, blank in tiles:
        try:
            code = rules.alphabet.code(letter)
        except ValueError as exc:
            raise ApiError(str(exc), "play") from None
        out.append((r, c, rules.alphabet.letters[code - 1], blank))
    return out


def _placed_move(versus: Versus, tiles: list[tuple[int, int, str, bool]]) -> Move:
    """The play of the tiles placed, or an ApiError giving every reason it is not legal."""
    game = versus.game
    verdict = judge_tiles(game.board, tiles, versus.game.lexicon, game.rack())
    if not verdict.legal or verdict.move is None:
        raise ApiError("; ".join(verdict.reasons) or "not a legal play", "play")
    return verdict.move


def _apply(versus: Versus, move: dict[str, Any]) -> None:
    """Make a move given as the answers write it (``moves``): a play's tiles, an exchange's, a pass."""
    game = versus.game
    kind = move.get("kind") if isinstance(move, dict) else None
    if kind == PLAY:
        game.play(_placed_move(versus, _tiles(move, versus.rules)))
    elif kind == EXCHANGE:
        tiles = move.get("tiles")
        if not isinstance(tiles, str) or not tiles:
            raise ApiError("an exchange names the tiles put back, e.g. QV", "exchange")
        game.exchange(tiles)
    elif kind == PASS:
        game.pass_turn()
    else:
        raise ApiError(f"a move's kind is play, exchange or pass, not {kind!r}", "request")


def _move_out(move: Move) -> dict[str, Any]:
    if move.kind == PLAY:
        return {"kind": PLAY, "tiles": _placed(move)}
    if move.kind == EXCHANGE:
        return {"kind": EXCHANGE, "tiles": move.exchanged}
    return {"kind": PASS}


def _new(request: dict[str, Any]) -> Versus:
    solver = _solver(request.get("lexicon"), request.get("rules"))
    rules = solver.rules
    leaves_name = request.get("leaves")
    table = _leave_table(leaves_name, rules)
    level = _choice(request, "level", LEVELS)
    sim_ms = _whole_in(request, "sim_ms", MIN_SIM_MS, MAX_SIM_MS, DEFAULT_SIM_MS)
    seed = _whole_in(request, "seed", 0, MAX_SEED, 0)
    human = _whole_in(request, "human", 0, 1, 0)
    moves = request.get("moves") or []
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise ApiError(f"moves must be a list of at most {MAX_MOVES} moves", "request")
    try:
        game = Game.new(solver.lexicon, rules, seed)
    except GameError as exc:
        raise ApiError(str(exc), "rules") from None
    versus = Versus(game, str(request["lexicon"]), rules, leaves_name, table, level, sim_ms, seed, human)
    for number, move in enumerate(moves, 1):
        try:
            _apply(versus, move)
        except (ApiError, GameError, RackError) as exc:
            message = exc.message if isinstance(exc, ApiError) else str(exc)
            raise ApiError(
                f"the saved game could not be replayed at turn {number}: {message}", "versus"
            ) from None
    return versus


def state(versus: Versus) -> dict[str, Any]:
    """The game as the player sees it (see the module's documentation)."""
    game = versus.game
    human = versus.human
    over = game.over
    turns = []
    moves = []
    for record in game.history:
        move = record.move
        mine = record.player == human
        turn: dict[str, Any] = {
            "player": record.player,
            "kind": move.kind,
            "score": move.score,
            "total": record.total,
            "drawn": record.drawn,
        }
        if move.kind == PLAY:
            turn.update(coord=move.coord, word=move.word, tiles=_placed(move))
        elif move.kind == EXCHANGE:
            turn["count"] = len(parse_tiles(move.exchanged, versus.rules))
            if mine or over:
                turn["exchanged"] = move.exchanged
        if mine or over:
            turn["rack"] = record.rack
        turn["text"] = _turn_text(turn)
        turns.append(turn)
        moves.append(_move_out(move))
    out: dict[str, Any] = {
        "seed": versus.seed,
        "level": versus.level,
        "sim_ms": versus.sim_ms,
        "human": human,
        "lexicon": versus.lexicon,
        "rules": versus.rules.name,
        "leaves": versus.leaves_name,
        "board": game.board.to_rows(),
        "rack": str(game.rack(human)),
        "scores": list(game.scores),
        "to_move": game.to_move,
        "bag": game.bag_count,
        "unseen": game.unseen(human).to_dict(),
        "likely_kept": versus.likely_kept(),
        "scoreless_turns": game.scoreless_turns,
        "over": over,
        "turns": turns,
        "moves": moves,
        "can_undo": any(t["player"] == human for t in turns),
        "can_exchange": game.bag_count >= versus.rules.exchange_minimum,
    }
    if over:
        racks = [str(game.rack(p)) for p in (0, 1)]
        out["end"] = {
            "adjustments": list(game.end_adjustments),
            "racks": racks,
            "rack_values": [_rack_value(game.rack(p), versus.rules) for p in (0, 1)],
            "went_out": next((p for p in (0, 1) if not racks[p]), None),
        }
    return out


def _rack_value(rack: Rack, rules: Rules) -> int:
    values = dict(zip(rules.alphabet.letters, rules.values, strict=True))
    return sum(rules.blank_value if tile == BLANK else values[tile] for tile in rack)


def _turn_text(turn: dict[str, Any]) -> str:
    if turn["kind"] == PLAY:
        return f"{turn['coord']} {turn['word']}"
    if turn["kind"] == EXCHANGE:
        return f"exchange {turn['exchanged']}" if "exchanged" in turn else f"exchange {turn['count']}"
    return "pass"


def versus(request: dict[str, Any]) -> dict[str, Any]:
    """One request of the game against the computer (see the module's documentation)."""
    try:
        action = request.get("action")
        if action == "new":
            _current[:] = [_new(request)]
            return state(_current[0])
        current = _game()
        game = current.game
        if action == "state":
            return state(current)
        if action == "gcg":
            names = request.get("names") or ["player", "computer"]
            if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names)):
                raise ApiError("names must be two names: the player's and the computer's", "request")
            seats = (names[0], names[1]) if current.human == 0 else (names[1], names[0])
            return {"gcg": game.to_gcg(seats, request.get("title") or None, current.lexicon)}
        if action == "undo":
            if not any(t.player == current.human for t in game.history):
                raise ApiError("there is no move of yours to take back", "versus")
            while game.history[-1].player != current.human:
                game.undo()
            game.undo()
            current.last_search = None
            return state(current)
        if game.over:
            raise ApiError("the game is over", "versus")
        if action == "computer":
            if game.to_move != current.computer:
                raise ApiError("it is your turn, not the computer's", "versus")
            move = current.computer_move()
            game.play(move)
            out = state(current)
            out["search"] = current.last_search
            return out
        if game.to_move != current.human:
            raise ApiError("it is the computer's turn", "versus")
        if action == "hint":
            best = game.best_move("equity", current.leaves)
            return {"hint": {**_move_out(best), "text": str(best), "equity": best.equity}}
        if action == "play":
            _apply(current, {"kind": PLAY, "tiles": request.get("tiles")})
        elif action == "exchange":
            _apply(current, {"kind": EXCHANGE, "tiles": request.get("tiles")})
        elif action == "pass":
            _apply(current, {"kind": PASS})
        else:
            raise ApiError(
                "action must be new, play, exchange, pass, computer, undo, hint, state or gcg, "
                f"not {action!r}",
                "request",
            )
        return state(current)
    except ApiError as exc:
        return _error(exc.message, exc.field)
    except (GameError, RackError) as exc:
        return _error(str(exc), "play")
