"""The Python side of the web page: what the Web Worker (web/worker.js) calls inside Pyodide.

Pure Python over the public API (the same code runs natively, where tests/test_web_api.py holds
it to :class:`~gaddag_solver.solver.Solver`). Every entry point takes and returns JSON-ready
dicts; bad input never raises but comes back as ``{"error": message, "field": name}`` with
``field`` one of ``board``, ``rack``, ``lexicon``, ``leaves``, ``rules``, ``cgp``, ``gcg``, ``words``
or ``request``
(and ``square``, e.g. ``"H8"``, when the message names one).

- :func:`load_lexicon` ``(name, data, rules)``: validate a lexicon's bytes once and keep it.
  ``data`` is bytes, or (inside Pyodide) the JS ``Uint8Array`` itself, copied once with
  ``.to_bytes()``; the C core then reads those bytes in place.
- :func:`load_leaves` ``(name, data, rules)``: validate a leave table's bytes (a ``.leaves``
  file) for a ruleset once and keep it, as load_lexicon does.
- :func:`solve` ``(request)``: the moves of a position, valued by a loaded leave table
  (``"leaves"``) and with the exchanges and the pass when asked (``"exchanges"``). The page
  asks for ``"format": "records"``: the core's gd_move records as they are (``record_size``
  bytes each, unsorted) — a two-blank rack has 60,000 plays and building a Python object per
  play would cost more than generating them, so web/moves.js reads, ranks, filters and formats
  the records in the page (only the rows shown are ever turned into text). ``"format":
  "moves"`` gives the best ``top`` moves as dicts instead (coord, word, score, tiles_used,
  leave, tiles, length…), ranked as the Solver ranks them. Either way the answer carries the
  position's unseen tiles.
- :func:`unseen_tiles`: the unseen tiles of a position being edited (no lexicon needed).
- :func:`check_board`: the runs of tiles on a board the lexicon does not hold (a warning).
- :func:`word_tools`: check words, anagrams, patterns, words containing letters, hooks.
- :func:`parse_cgp` / :func:`format_cgp`: import and export a position as a CGP line.
- :func:`review_gcg`: a GCG game replayed and reviewed (every turn's board, scores, rack, the
  move made, the best move by equity and the equity lost; the file's warnings with their lines).
- :func:`export_gcg`: a game played on the page (its plays, exchanges and passes) as GCG text.
- :func:`build_lexicon`, :func:`add_lexicon`, :func:`forget_lexicon`: the player's own
  lexicons, built in the page from a word list or loaded from a ``.gaddag`` file;
  :func:`rules_json`, :func:`check_rules`, :func:`set_rules`: the player's own rulesets.
- :func:`versus`: a game against the computer held in the worker (greedy, equity or simulating),
  started again from its seed and moves after a reload (``web_api.versus``; docs/versus.md).
- :func:`bench`: move generation alone, per position, on prepared boards (the benchmark the
  page runs in the browser).
- :func:`call`: the one door the worker uses: ``call(kind, json_text, data)`` →
  ``(json_text, records or None)``, so no Python object crosses into JavaScript.

``rules_data``, ``lexicon_info`` and ``leaves_info`` describe rulesets, lexicons and leave
tables for the page (scripts/build_site.py writes them to rules.json and lexicons.json).

One module per family of requests, each function named here imported from it: ``loaded`` (the
lexicons, leave tables and rulesets kept between requests, and their descriptions), ``moves``
(solve, judge), ``position`` (the position being edited: unseen tiles, its words, CGP),
``games`` (GCG review and export), ``lookahead`` (simulation, endgame and pre-endgame, a step at
a time), ``versus`` (a game against the computer),
``words`` (the word tools), ``own`` (the player's own lexicons and rules) and ``benchmark``;
``_base`` has what they share (ApiError, the fields of a request read and checked). This module
is the worker's door, :func:`call`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ._base import ApiError, _error
from .benchmark import bench, parse_positions
from .games import export_gcg, review_gcg
from .loaded import (
    all_rules_data,
    compatible_rules,
    get_rules,
    leaves_info,
    lexicon_info,
    load_leaves,
    load_lexicon,
    loaded_leaves,
    loaded_lexicons,
    rules_data,
)
from .lookahead import endgame, infer, preendgame, simulate
from .moves import RECORD_LAYOUT, RECORD_SIZE, exchanges_asked, judge_play, move_dict, solve
from .own import Progress, add_lexicon, build_lexicon, check_rules, forget_lexicon, rules_json, set_rules
from .position import check_board, format_cgp, parse_cgp, unseen_tiles
from .versus import versus
from .words import word_tools

__all__ = [
    "ApiError",
    "RECORD_LAYOUT",
    "RECORD_SIZE",
    "Progress",
    "add_lexicon",
    "all_rules_data",
    "bench",
    "build_lexicon",
    "call",
    "check_board",
    "check_rules",
    "compatible_rules",
    "endgame",
    "exchanges_asked",
    "export_gcg",
    "forget_lexicon",
    "format_cgp",
    "infer",
    "get_rules",
    "judge_play",
    "leaves_info",
    "lexicon_info",
    "load_leaves",
    "load_lexicon",
    "loaded_leaves",
    "loaded_lexicons",
    "move_dict",
    "parse_cgp",
    "parse_positions",
    "preendgame",
    "review_gcg",
    "rules_data",
    "rules_json",
    "set_rules",
    "simulate",
    "solve",
    "unseen_tiles",
    "versus",
    "word_tools",
]

_HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "simulate": simulate,
    "infer": infer,
    "endgame": endgame,
    "preendgame": preendgame,
    "solve": solve,
    "parse_cgp": parse_cgp,
    "format_cgp": format_cgp,
    "unseen": unseen_tiles,
    "bench": bench,
    "export_gcg": export_gcg,
    "check_board": check_board,
    "word_tools": word_tools,
    "judge": judge_play,
    "forget_lexicon": forget_lexicon,
    "rules_json": rules_json,
    "check_rules": check_rules,
    "set_rules": set_rules,
    "versus": versus,
}


def call(
    kind: str, request_json: str, data: Any = None, progress: Progress | None = None
) -> tuple[str, bytes | None]:
    """Run one request for the worker: ``kind`` (``load_lexicon``, ``load_leaves``, ``solve``,
    ``unseen``, ``parse_cgp``, ``format_cgp``, ``review_gcg``, ``export_gcg``, ``bench``,
    ``check_board``, ``word_tools``, ``judge``, ``simulate``, ``infer``, ``endgame``, ``preendgame``,
    ``versus``, ``build_lexicon``, ``add_lexicon``, ``forget_lexicon``, ``rules_json``, ``check_rules``,
    ``set_rules``), the request as JSON, and for the loads, the builds (and a ``review_gcg`` of a
    file) the file's bytes; ``progress`` hears a build's steps. Returns the answer as JSON and,
    for a records solve or a build, the bytes (``None`` otherwise)."""
    try:
        request = json.loads(request_json)
        if not isinstance(request, dict):
            raise ApiError("the request must be a JSON object", "request")
        if kind == "load_lexicon":
            result = load_lexicon(request.get("name"), data, request.get("rules"))
        elif kind == "load_leaves":
            result = load_leaves(request.get("name"), data, request.get("rules"))
        elif kind == "review_gcg":
            result = review_gcg(request, data)
        elif kind == "build_lexicon":
            result = build_lexicon(request, data, progress)
        elif kind == "add_lexicon":
            result = add_lexicon(request, data)
        elif kind in _HANDLERS:
            result = _HANDLERS[kind](request)
        else:
            raise ApiError(f"unknown request {kind!r}", "request")
    except ApiError as exc:
        result = _error(exc.message, exc.field)
    except json.JSONDecodeError as exc:
        result = _error(f"the request is not JSON: {exc}", "request")
    except Exception as exc:  # a bug, not bad input: still answer, with what went wrong
        result = _error(f"internal error: {type(exc).__name__}: {exc}", "internal")
    records = result.pop("records", None)
    return json.dumps(result), records
