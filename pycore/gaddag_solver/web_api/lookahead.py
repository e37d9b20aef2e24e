"""Looking ahead, a step at a time: simulation, the endgame search and the pre-endgame.

The page drives both: a "start" request makes the search and keeps it under a session number, each
"step" runs it for about ``ms`` milliseconds and answers with the standing, and "stop" drops it. A
step returns within its time, so the worker answers other requests between steps and the page
stops a search by sending no more steps.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable
from typing import Any

from ..formats.leaves import Leaves
from ..game.best import INFER_RACKS
from ..game.endgame import EndgameError, EndgameSearch
from ..game.infer import Inference, InferenceError, infer_written
from ..game.play import Game, GameError
from ..game.preendgame import PreendgameError, PreendgameResult, PreendgameSearch
from ..game.simulate import (
    DEFAULT_CANDIDATES,
    DEFAULT_CONFIDENCE,
    DEFAULT_ITERATIONS,
    DEFAULT_PLIES,
    Simulation,
    SimulationError,
)
from ..limits import score_problem
from ..rack import RackError
from ..rules import Rules
from ._base import ApiError, _board, _error, _placed, _rack, _whole
from .loaded import (
    _leave_table,
    _solver,
)

_sessions: dict[int, Any] = {}
_next_session = [1]
MAX_SESSIONS = 4
DEFAULT_STEP_MS = 150


def _look_ahead_game(request: dict[str, Any]) -> tuple[Game, Rules, Leaves | None]:
    solver = _solver(request.get("lexicon"), request.get("rules"))
    rules = solver.rules
    table = _leave_table(request.get("leaves"), rules)
    board = _board(request.get("board"), rules)
    rack = _rack(request.get("rack"), rules)
    opponent = request.get("opponent_rack")
    lead = _lead(request.get("spread", 0))
    scores = (lead, 0) if lead >= 0 else (0, -lead)
    try:
        return Game.from_board(board, rack, solver.lexicon, opponent or None, scores), rules, table
    except (GameError, RackError) as exc:
        raise ApiError(str(exc), "board") from None


def _lead(spread: object) -> int:
    """The points the player to move is ahead (negative: behind): what a win depends on."""
    if isinstance(spread, bool) or not isinstance(spread, int):
        raise ApiError(f"the lead must be a whole number of points, not {spread!r}", "spread")
    problem = score_problem(spread, "the lead")
    if problem:
        raise ApiError(problem, "spread")
    return spread


def _session_number(request: dict[str, Any]) -> int:
    number = request.get("session")
    if isinstance(number, bool) or not isinstance(number, int):
        raise ApiError(f"session must be the number a start answered, not {number!r}", "request")
    return number


def _session(request: dict[str, Any], kind: type) -> Any:
    """The search kept under the request's session number, which must be a ``kind`` search."""
    number = _session_number(request)
    if number not in _sessions:
        raise ApiError(f"no search in progress with session {number!r} (start one first)", "request")
    search = _sessions[number]
    if not isinstance(search, kind):
        raise ApiError(
            f"session {number} is a {_KIND_NAMES.get(type(search), 'other')} search, "
            f"not a {_KIND_NAMES[kind]} one",
            "request",
        )
    return search


_KIND_NAMES: dict[type, str] = {
    Simulation: "simulation",
    EndgameSearch: "endgame",
    PreendgameSearch: "pre-endgame",
}


def _keep(search: Any) -> int:
    while len(_sessions) >= MAX_SESSIONS:  # the oldest searches make room
        del _sessions[min(_sessions)]
    number = _next_session[0]
    _next_session[0] += 1
    _sessions[number] = search
    return number


def _step_seconds(request: dict[str, Any]) -> float:
    ms = request.get("ms", DEFAULT_STEP_MS)
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not 1 <= ms <= 10_000:
        raise ApiError(f"ms must be a number of milliseconds from 1 to 10000, not {ms!r}", "request")
    return ms / 1000


def _last(items: Iterable[Any]) -> Any:
    """The last of ``items`` (running them all), or None."""
    found = None
    for found in items:  # noqa: B007 - the last one is wanted
        pass
    return found


def _standing(result: Any) -> dict[str, Any]:
    return {
        "iterations": result.iterations,
        "decided": result.decided,
        "reason": result.reason,
        "elapsed": result.elapsed,
        "ranked_by": result.ranked_by,
        "candidates": [
            {**c.to_dict(), "placed": _placed(c.move), "kind": c.move.kind} for c in result.candidates
        ],
    }


def _stepped(
    request: dict[str, Any],
    kind: type,
    start: Callable[[dict[str, Any]], dict[str, Any]],
    step: Callable[[Any, float], dict[str, Any]],
) -> dict[str, Any]:
    """Dispatch a look-ahead request by its ``action``: start, step (``session``, ``ms``) or stop."""
    try:
        action = request.get("action")
        if action == "start":
            return start(request)
        if action == "step":
            search = _session(request, kind)
            return {"session": request["session"], **step(search, _step_seconds(request))}
        if action == "stop":
            _sessions.pop(_session_number(request), None)
            return {"stopped": True}
        raise ApiError(f"action must be start, step or stop, not {action!r}", "request")
    except ApiError as exc:
        return _error(exc.message, exc.field)


def simulate(request: dict[str, Any]) -> dict[str, Any]:
    """``action`` "start" (the position as for :func:`solve`, ``leaves``, ``candidates`` (15),
    ``plies`` (2), ``confidence`` (0.99), ``seed``), "step" (``session``, ``ms``, ``iterations``:
    the most in all) or "stop" (``session``). Start and step answer the standing: the candidates
    best first with value, standard error, iterations, win rate, the opponent's bingo rate,
    whether dropped, and ``done`` once the stopping rule decided or the iterations ran out."""

    def start(request: dict[str, Any]) -> dict[str, Any]:
        game, _rules, table = _look_ahead_game(request)
        plies = request.get("plies")
        seed = _whole(request, "seed") or 0
        inference = _inference(request, game, table, seed) if request.get("last_move") else None
        try:
            simulation = Simulation(
                game, leaves=table, candidates=_whole(request, "candidates") or DEFAULT_CANDIDATES,
                plies=DEFAULT_PLIES if plies is None else _whole(request, "plies"),
                confidence=float(request.get("confidence", DEFAULT_CONFIDENCE)),
                seed=seed, inference=inference,
            )  # fmt: skip
        except (SimulationError, TypeError, ValueError) as exc:
            raise ApiError(str(exc), "request") from None
        return {"session": _keep(simulation), **_standing(simulation.result()), "done": False}

    def step(simulation: Simulation, seconds: float) -> dict[str, Any]:
        limit = _whole(request, "iterations") or DEFAULT_ITERATIONS
        result = _last(simulation.batches(limit, seconds)) or simulation.result()
        return {**_standing(result), "done": result.reason in ("decided", "iterations")}

    if request.get("action") in SHARED_ACTIONS:
        try:
            return _shared(request, _session(request, Simulation))
        except ApiError as exc:
            return _error(exc.message, exc.field)
    return _stepped(request, Simulation, start, step)


INFER_LEAVES = 5  # the likeliest leaves an inference answers


def _inference(request: dict[str, Any], game: Game, table: Leaves | None, seed: int) -> Inference:
    """What the opponent kept with ``last_move`` (written as the command line takes it: 8D W(O)RD,
    exch 3, pass), the move that made the board."""
    text = request.get("last_move")
    if not isinstance(text, str) or not text.strip():
        raise ApiError("write the opponent's last move: 8D W(O)RD, exch 3 or pass", "last_move")
    try:
        return infer_written(game, text.strip(), leaves=table, max_racks=INFER_RACKS, seed=seed)
    except (InferenceError, GameError, ValueError) as exc:
        raise ApiError(str(exc), "last_move") from None


def infer(request: dict[str, Any]) -> dict[str, Any]:
    """The position as for :func:`solve` and ``last_move``: what the opponent likely kept with it
    (docs/inference.md): the likeliest leaves with their probabilities, the letters more likely
    than not on their rack, whether every rack they could have held was valued, and how many."""
    try:
        game, _rules, table = _look_ahead_game(request)
        inference = _inference(request, game, table, _whole(request, "seed") or 0)
    except ApiError as exc:
        return _error(exc.message, exc.field)
    return {
        "move": str(inference.move),
        "informative": inference.informative,
        "reason": inference.reason,
        "leaves": [x.to_dict() for x in inference.leaves[:INFER_LEAVES]],
        "holds": {letter: round(p, 4) for letter, p in inference.holds.items() if p >= 0.5},
        "exhaustive": inference.exhaustive,
        "racks": inference.racks,
    }


# A simulation shared among Web Workers (docs/simulation.md, "Several threads"): each worker starts
# the same simulation; one deals the iterations, every worker plays its share, and the dealer merges
# them in order: the standing of one worker alone.
SHARED_ACTIONS = ("deal", "play", "merge")
MAX_DEALT = 100_000


def _shared(request: dict[str, Any], simulation: Simulation) -> dict[str, Any]:
    """``deal`` (``iterations``: the seeds, as decimal strings, and the candidates dropped),
    ``play`` (``seeds``, ``dropped``: the playouts, base64) or ``merge`` (``rows``: the workers'
    playouts in the order dealt, ``ms`` the time the round took: the standing, as a step's)."""
    action = request["action"]
    try:
        if action == "deal":
            iterations = _whole(request, "iterations")
            if not 1 <= iterations <= MAX_DEALT:
                raise ApiError(f"iterations must be from 1 to {MAX_DEALT}, not {iterations}", "request")
            seeds, dropped = simulation.deal(iterations)
            return {"seeds": [str(seed) for seed in seeds], "dropped": dropped}
        if action == "play":
            seeds = [int(seed) for seed in request.get("seeds", [])]
            dropped = [int(index) for index in request.get("dropped", [])]
            if any(not 0 <= seed < 2**64 for seed in seeds):
                raise ApiError("a seed must be a whole number from 0 to 2**64 - 1", "request")
            return {"rows": base64.b64encode(simulation.play_dealt(seeds, dropped)).decode("ascii")}
        rows = b"".join(base64.b64decode(part, validate=True) for part in request.get("rows", []))
        result = simulation.merge_dealt(rows, float(request.get("ms", 0)) / 1000)
        limit = _whole(request, "iterations") or DEFAULT_ITERATIONS
        done = result.decided or result.iterations >= limit
        return {"session": request["session"], **_standing(result), "done": done}
    except (SimulationError, TypeError, ValueError, binascii.Error) as exc:
        raise ApiError(str(exc), "request") from None


def endgame(request: dict[str, Any]) -> dict[str, Any]:
    """``action`` "start" (the position as for :func:`solve`, the bag empty: ``opponent_rack``, or
    the unseen tiles are the opponent's), "step" (``session``, ``ms``) or "stop". A step answers
    the deepest finished search: ``value`` (the spread the player to move gains), the ``line``
    (each move with the tiles it places), ``depth``, ``complete`` (exact) and ``done``."""

    def start(request: dict[str, Any]) -> dict[str, Any]:
        game, _rules, _table = _look_ahead_game(request)
        try:
            search = EndgameSearch(game)
        except EndgameError as exc:
            raise ApiError(str(exc), "board") from None
        return {"session": _keep(search), "done": False, "depth": 0, "line": []}

    def step(search: EndgameSearch, seconds: float) -> dict[str, Any]:
        found = _last(search.deepen(time_limit=seconds))
        if found is None:
            return {"done": False, "depth": 0, "line": []}
        return {
            **found.to_dict(),
            "line": [{"move": str(m), "placed": _placed(m), "kind": m.kind} for m in found.line],
            "done": found.complete or found.reason == "depth",
        }

    return _stepped(request, EndgameSearch, start, step)


PREENDGAME_ROWS = 30  # candidates a step answers: the exact ones by their chance, then the pending


def preendgame(request: dict[str, Any]) -> dict[str, Any]:
    """``action`` "start" (the position as for :func:`solve` with 1 to 6 tiles in the bag, and
    ``leaves`` for the candidates' order), "step" (``session``, ``ms``) or "stop". A step answers
    the standing (docs/preendgame.md): the best so far, ``complete`` once every candidate is exact
    or ruled out, and up to PREENDGAME_ROWS candidates (exact first, by their probability of
    winning) each with its status, ``win`` (exact) or bounds, and the bags it wins and loses with.
    From 3 in the bag (``method`` "halving") the candidates are estimates: ``estimate`` over
    ``worlds_valued`` of the racks, those still in the running first."""

    def start(request: dict[str, Any]) -> dict[str, Any]:
        game, _rules, table = _look_ahead_game(request)
        try:
            search = PreendgameSearch(game, leaves=table)
        except PreendgameError as exc:
            raise ApiError(str(exc), "board") from None
        started = {"done": False, "candidates": [], "complete": False, "method": search.method}
        return {"session": _keep(search), **started}

    def step(search: PreendgameSearch, seconds: float) -> dict[str, Any]:
        return _peg_standing(search.run(time_limit=seconds))

    if request.get("action") in PEG_SHARED_ACTIONS:
        try:
            return _peg_shared(request, _session(request, PreendgameSearch))
        except ApiError as exc:
            return _error(exc.message, exc.field)
    return _stepped(request, PreendgameSearch, start, step)


PEG_SHARED_ACTIONS = ("lend", "work", "take_back")


def _peg_shared(request: dict[str, Any], search: PreendgameSearch) -> dict[str, Any]:
    """The pre-endgame shared among workers (docs/preendgame.md, "Workers"). On the page's worker:
    ``lend`` (``wants``: how many candidates each helper should hold) answers a share per helper,
    ``take_back`` (``answers``: the helpers' answers, in the order of the shares) records them and
    answers the standing, as a step does. On a helper: ``work`` (a share: ``jobs``, ``slack``;
    ``ms``) values what it holds for about that long and answers what it found."""
    action = request["action"]
    try:
        if action == "lend":
            wants = request.get("wants")
            whole = isinstance(wants, list) and all(type(w) is int for w in wants)
            if not whole:
                raise ApiError(f"wants must be a list of whole numbers, not {wants!r}", "request")
            return {"shares": search.lend(wants)}
        if action == "work":
            jobs, slack = request.get("jobs", []), request.get("slack", {})
            listed = isinstance(jobs, list) and all(isinstance(job, dict) for job in jobs)
            if not listed or not isinstance(slack, dict):
                raise ApiError("a share is a list of jobs and a slack by candidate", "request")
            return search.work_lent(jobs, slack, _step_seconds(request))
        answers = request.get("answers")
        if not isinstance(answers, list) or not all(isinstance(answer, dict) for answer in answers):
            raise ApiError(f"answers must be the helpers' answers, not {answers!r}", "request")
        for helper, answer in enumerate(answers):
            search.take_back(helper, answer)
        standing = _peg_standing(search.standing())
        return {"session": request["session"], **standing, "helper_endgames": search.lent_endgames}
    except PreendgameError as exc:
        raise ApiError(str(exc), "request") from None


def _peg_standing(result: PreendgameResult) -> dict[str, Any]:
    """What a pre-endgame step answers (:func:`preendgame`)."""
    candidates = result.candidates
    if result.method == "halving":  # the estimates: those still in the running, then the longest kept
        shown = [i for i, c in enumerate(candidates) if c.estimate is not None]
        shown.sort(key=lambda i: (candidates[i].status != "estimated", -candidates[i].worlds_valued,
                                  -(candidates[i].estimate or 0), i))  # fmt: skip
    else:
        shown = sorted(
            (i for i, c in enumerate(candidates) if c.status != "ruled out"),
            key=lambda i: (candidates[i].status != "exact", -candidates[i].win_high, i),
        )
    rows = []
    for i in shown[:PREENDGAME_ROWS]:
        c = candidates[i]
        rows.append({
            "move": str(c.move), "placed": _placed(c.move), "kind": c.move.kind, "status": c.status,
            "best": i == result.best_index, "win": None if c.win is None else float(c.win),
            "win_low": float(c.win_low), "win_high": float(c.win_high),
            "estimate": None if c.estimate is None else float(c.estimate),
            "worlds_valued": c.worlds_valued,
            "wins_with": sorted({bag for bag, _r, _w, o in c.worlds if o == 1}),
            "loses_with": sorted({bag for bag, _r, _w, o in c.worlds if o == 0}),
        })  # fmt: skip
    ruled = sum(1 for c in candidates if c.status == "ruled out")
    return {
        "candidates": rows, "complete": result.complete, "done": result.complete, "bag": result.bag,
        "method": result.method, "worlds": result.worlds, "count": len(candidates), "ruled_out": ruled,
        "endgames": result.endgames, "nodes": result.nodes, "elapsed": result.elapsed,
        "best": None if result.best_index is None else str(result.best.move),
    }  # fmt: skip
