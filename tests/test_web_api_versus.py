"""web_api.versus natively, held to the native Game (gaddag_solver.game.play) played with the same
seed and moves: every turn, the board, the player's rack, the unseen tiles, the end's adjustments
and the GCG; a game started again from its moves (a reload) is the same game; undo; the
computer's rack kept hidden until the end; bad requests answered with their reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gaddag_solver import web_api
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.best import INFER_RACKS
from gaddag_solver.game.endgame import solve_endgame
from gaddag_solver.game.infer import infer_last_move
from gaddag_solver.game.play import Game
from gaddag_solver.game.preendgame import PreendgameSearch
from gaddag_solver.game.simulate import DEFAULT_ITERATIONS, Simulation
from gaddag_solver.lexicon import Lexicon
from gaddag_solver.rules import Rules
from gaddag_solver.web_api.versus import turn_seed

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english")
LEAVES = ROOT / "pycore" / "gaddag_solver" / "leaves" / "sowpods.leaves"


@pytest.fixture(scope="module")
def lexicon(sowpods: Lexicon) -> Lexicon:
    web_api.load_lexicon("sowpods", (ROOT / "lexicons" / "sowpods.gaddag").read_bytes(), "english")
    web_api.load_leaves("sowpods", LEAVES.read_bytes(), "english")
    return sowpods


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load(LEAVES, ENGLISH)


def ask(**request: Any) -> dict[str, Any]:
    answer, records = web_api.call("versus", json.dumps(request))
    assert records is None
    return json.loads(answer)


def new(seed: int, level: str = "equity", **more: Any) -> dict[str, Any]:
    return ask(
        action="new", lexicon="sowpods", rules="english", leaves="sowpods", level=level, seed=seed, **more
    )


def native_turns(game: Game, human: int) -> list[tuple[int, str, int, int]]:
    out = []
    for t in game.history:
        text = str(t.move).rsplit(" ", 1)[0] if t.move.kind == "play" else str(t.move)
        if t.move.kind == "exchange" and t.player != human and not game.over:
            text = f"exchange {len(t.move.exchanged)}"
        out.append((t.player, text, t.move.score, t.total))
    return out


def shown_turns(state: dict[str, Any]) -> list[tuple[int, str, int, int]]:
    return [(t["player"], t["text"], t["score"], t["total"]) for t in state["turns"]]


def check_same(state: dict[str, Any], game: Game, human: int) -> None:
    assert "error" not in state, state
    assert shown_turns(state) == native_turns(game, human)
    assert state["board"] == game.board.to_rows()
    assert state["rack"] == str(game.rack(human))
    assert state["scores"] == list(game.scores)
    assert state["bag"] == game.bag_count
    assert state["to_move"] == game.to_move
    assert state["unseen"] == game.unseen(human).to_dict()
    assert state["over"] == game.over


def expected_likely(game: Game, human: int, seed: int, leaves: Leaves) -> dict[str, Any] | None:
    """What the player can infer the computer kept with its last move, natively."""
    history = game.history
    if game.over or not game.bag_count or game.to_move != human or not history:
        return None
    if history[-1].move.kind == "pass":
        return None
    found = infer_last_move(game, leaves=leaves, max_racks=INFER_RACKS, seed=turn_seed(seed, len(history)))
    if not found.informative:
        return None
    return {
        "leaves": [x.to_dict() for x in found.leaves[:5]],
        "holds": {k: round(v, 4) for k, v in found.holds.items() if v >= 0.5},
        "exhaustive": found.exhaustive,
        "racks": found.racks,
    }


def human_move(state: dict[str, Any]) -> dict[str, Any]:
    """The player's move chosen by the test: the hint (the best by equity), made as a player would."""
    hint = ask(action="hint")["hint"]
    if hint["kind"] == "play":
        return ask(action="play", tiles=hint["tiles"])
    if hint["kind"] == "exchange":
        return ask(action="exchange", tiles=hint["tiles"])
    return ask(action="pass")


@pytest.mark.parametrize(
    ("seed", "level", "human"), [(3, "equity", 0), (11, "greedy", 1), (2026, "equity", 1)]
)
def test_a_whole_game_is_the_native_games(
    lexicon: Lexicon, leaves: Leaves, seed: int, level: str, human: int
) -> None:
    game = Game.new(lexicon, ENGLISH, seed)
    state = new(seed, level, human=human)
    check_same(state, game, human)
    likely = 0  # turns the answer said what the computer likely kept
    while not game.over:
        if game.to_move == human:
            state = human_move(state)
            game.play(game.best_move("equity", leaves))
        else:
            state = ask(action="computer")
            game.play(game.best_move(level, leaves if level == "equity" else None))
        check_same(state, game, human)
        assert state["likely_kept"] == expected_likely(game, human, seed, leaves)
        likely += state["likely_kept"] is not None
        # the computer's rack is never in the answer while the game goes on
        if not game.over:
            assert "end" not in state
            assert all("rack" not in t for t in state["turns"] if t["player"] != human)
    assert likely >= 5
    assert state["end"]["adjustments"] == list(game.end_adjustments)
    assert state["end"]["racks"] == [str(game.rack(0)), str(game.rack(1))]
    assert sum(state["end"]["adjustments"]) != 0
    assert all("rack" in t for t in state["turns"])
    names = ["you", "computer"]
    seats = tuple(names) if human == 0 else tuple(reversed(names))
    gcg = ask(action="gcg", names=names)["gcg"]
    assert gcg == game.to_gcg(seats, None, "sowpods")
    assert "#lexicon sowpods" in gcg
    # the game started again from its moves (a reload) is the same game, to the last answer
    state.pop("search", None)  # the last search's figures: said by the move's answer only
    assert new(seed, level, human=human, moves=state["moves"]) == state


def test_undo_takes_back_the_players_move_and_the_reply(lexicon: Lexicon, leaves: Leaves) -> None:
    game = Game.new(lexicon, ENGLISH, 5)
    new(5)
    for _ in range(3):
        human_move({})
        game.play(game.best_move("equity", leaves))
        ask(action="computer")
        game.play(game.best_move("equity", leaves))
    state = ask(action="undo")
    game.undo()
    game.undo()
    check_same(state, game, 0)
    assert len(state["turns"]) == 4 and state["to_move"] == 0
    # the same move again gives the same draw (the bag as it was)
    state = human_move(state)
    game.play(game.best_move("equity", leaves))
    check_same(state, game, 0)


def test_simulation_level_plays_the_simulations_best(lexicon: Lexicon, leaves: Leaves) -> None:
    seed = 9
    game = Game.new(lexicon, ENGLISH, seed)
    state = new(seed, "simulation", human=1, sim_ms=300)
    # the computer moves first: its move is the simulation's best with the turn's seed, seeded the
    # same natively (a time limit long enough for the iterations to end it would be needed for a
    # tie to the last iteration; here the move made must be a candidate and legal)
    state = ask(action="computer")
    assert "error" not in state, state
    simulation = Simulation(game, leaves=leaves, seed=turn_seed(seed, 0))
    candidates = {str(m) for m in simulation.moves}
    search = state["search"]
    assert search["elapsed_ms"] <= 300 + 250 and search["iterations"] > 0
    assert search["best"]["move"] in candidates
    made = state["turns"][0]
    assert f"{made['text']} {made['score']}" == search["best"]["move"]
    # replayed natively, the move is legal and scores the same
    first = next(m for m in simulation.moves if str(m) == search["best"]["move"])
    game.play(first)
    check_same(state, game, 1)
    assert DEFAULT_ITERATIONS >= search["iterations"]


def replayed(lexicon: Lexicon, seed: int, moves: list[dict[str, Any]]) -> Game:
    """The native game of ``seed`` after ``moves`` (as the answers write them)."""
    game = Game.new(lexicon, ENGLISH, seed)
    for made in moves:
        if made["kind"] == "exchange":
            game.exchange(made["tiles"])
        elif made["kind"] == "pass":
            game.pass_turn()
        else:
            tiles = sorted(tuple(t) for t in made["tiles"])
            game.play(next(m for m in game.moves() if m.kind == "play" and sorted(m.tiles) == tiles))
    return game


def test_lookahead_level_searches_the_end(lexicon: Lexicon, leaves: Leaves) -> None:
    """Near the end the look-ahead computer plays the pre-endgame's best (one of its candidates)
    and, with the bag empty, the exact endgame's: the value the native search finds. Before, it
    simulates against what the player's last play says they kept. Games are played until the
    computer has met each phase (which turns it meets depends on the timed searches)."""
    kinds: list[str | None] = []
    solved = fallbacks = inferred = 0
    for seed in (4, 5, 6, 7, 8):
        state = new(seed, "lookahead", sim_ms=800)
        while not state["over"]:
            if state["to_move"] == 0:
                state = human_move(state)
                continue
            before = replayed(lexicon, seed, state["moves"])
            state = ask(action="computer")
            assert "error" not in state, state
            search = state["search"]
            made = state["turns"][-1]
            kinds.append(search["kind"] if search else None)
            if before.bag_count == 0:
                assert search["kind"] == "endgame"
                if search["complete"]:  # solved within its time (a loaded machine may not): exact
                    native = solve_endgame(before)
                    assert native.complete
                    assert search["value"] == native.value
                    assert search["line"][0] == str(native.best)
                    solved += 1
                else:
                    assert search["reason"] == "time"
            elif before.bag_count <= 6 and search["kind"] == "simulation":  # the pre-endgame ran out of time
                assert search["fallback"].startswith("the pre-endgame valued no candidate")
                fallbacks += 1
            elif before.bag_count <= 6:
                assert search["kind"] == "preendgame"
                search_native = PreendgameSearch(before, leaves=leaves).run(time_limit=0.001)
                candidates = {str(c.move) for c in search_native.candidates}
                assert search["best"]["move"] in candidates
            else:
                assert search["kind"] == "simulation"
                last = before.history[-1].move if before.history else None
                if last is not None and last.is_play and len(last.tiles) < 7:
                    turn = turn_seed(seed, len(before.history))
                    likely = infer_last_move(before, leaves=leaves, max_racks=INFER_RACKS, seed=turn)
                    assert search["inferred"] == [x.to_dict() for x in likely.leaves[:3]], search
                    inferred += 1
            # the move made is the search's choice
            chosen = search["line"][0] if search["kind"] == "endgame" else search["best"]["move"]
            if made["kind"] == "play":
                assert chosen == f"{made['text']} {made['score']}"
            check_same(state, replayed(lexicon, seed, state["moves"]), 0)
        if "endgame" in kinds and solved >= 1 and ("preendgame" in kinds or fallbacks):
            break
    # the pre-endgame chose a move (or, on a machine too loaded for it, said why it did not)
    assert "endgame" in kinds and "simulation" in kinds and solved >= 1 and inferred >= 3
    assert "preendgame" in kinds or fallbacks


def test_bad_requests_say_why(lexicon: Lexicon) -> None:
    state = new(1)
    rack = state["rack"]
    error = ask(action="play", tiles=[[0, 0, rack[0], False]])
    assert error == {
        "error": f"A1 {rack[0]}: the first play must cover the start square H8; "
        f"A1 {rack[0]}: the first play must place at least two tiles",
        "field": "play",
    }
    missing = next(letter for letter in "QZXJKVWY" if letter not in rack)
    error = ask(action="exchange", tiles=missing)
    assert error["field"] == "play" and f"rack {rack} does not hold those tiles" in error["error"]
    assert ask(action="computer")["error"] == "it is your turn, not the computer's"
    assert ask(action="undo")["error"] == "there is no move of yours to take back"
    assert "level must be one of" in new(1, "genius")["error"]
    assert "seed must be a whole number" in new(-1)["error"]
    assert "sim_ms must be a whole number from 100" in new(1, sim_ms=5)["error"]
    assert "action must be" in ask(action="resign")["error"]
    bad = new(1, moves=[{"kind": "exchange", "tiles": missing}])
    assert bad["field"] == "versus" and "could not be replayed at turn 1" in bad["error"]
    assert ask(action="play", tiles="8D WORD")["error"].startswith("tiles must be a list")
