"""The player's own lexicons (built in the page from a word list, or a .gaddag file built
elsewhere) and rulesets (made in the rules editor)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from ..lexicon import LexiconBuildError, build_gaddag
from ..rules import Rules, RulesError, available_rules
from ..wordlist import FilterReport, WordListError, decode_entries
from ._base import ApiError, _as_bytes, _check_name, _error
from .loaded import (
    _lexicons,
    _rules,
    _solvers,
    get_rules,
    load_lexicon,
    rules_data,
)

Progress = Callable[[str], None]


def _report_progress(progress: Progress | None, phase: str, **facts: Any) -> None:
    if progress is not None:
        progress(json.dumps({"phase": phase, **facts}))


def build_lexicon(request: dict[str, Any], data: Any, progress: Progress | None = None) -> dict[str, Any]:
    """Build a lexicon from a word list's bytes (plain text one word per line, gzipped or not, or
    a JSON array of strings: the formats build_lexicon.py reads), load it under ``name`` and
    give the ``.gaddag`` bytes back as ``records`` for the page to store.

    request: ``name``, ``rules`` (the ruleset whose alphabet spells the words and whose board
    bounds their length), ``file`` (the file's name, for messages). ``progress`` hears JSON
    ``{"phase": "read" | "filtered" | "built" | "loaded", ...}`` as each step ends. Returns
    :func:`lexicon_info` with the build's statistics (``entries``, ``kept``, ``bad_letters``,
    ``too_long`` with examples, ``states``, ``arcs``, ``arcs_unshared``, ``summary``: the
    CLI's lines) and ``ms`` per step. A file that is not a word list, or holds no word of the
    alphabet, is an error with ``field`` ``"words"``; nothing is kept then.
    """
    try:
        name = _check_name(request.get("name"), "lexicon")
        rules = get_rules(request.get("rules"))
        file = request.get("file") if isinstance(request.get("file"), str) else "<words>"
        started = time.perf_counter()
        raw = _as_bytes(data, "words")
        try:
            entries, unit = decode_entries(raw, file)
        except WordListError as exc:
            raise ApiError(str(exc), "words") from None
        del raw
        read = time.perf_counter()
        _report_progress(progress, "read", entries=len(entries), ms=(read - started) * 1e3)

        def filtered(report: FilterReport) -> None:
            _report_progress(
                progress,
                "filtered",
                kept=report.kept,
                bad_letters=report.bad_letters,
                too_long=report.too_long,
                ms=(time.perf_counter() - started) * 1e3,
            )

        try:
            gaddag, report = build_gaddag(
                entries,
                rules.alphabet,
                name=name,
                max_length=rules.longest_line,
                source=file,
                unit=unit,
                on_filtered=filtered,
            )
        except LexiconBuildError as exc:
            raise ApiError(str(exc), "words") from None
        del entries
        built = time.perf_counter()
        _report_progress(progress, "built", bytes=len(gaddag), ms=(built - started) * 1e3)
        info = load_lexicon(name, gaddag, rules.name)
        if "error" in info:  # the core refused its own output: a bug, said as one
            raise ApiError(f"the lexicon built could not be loaded: {info['error']}", "internal")
        finished = time.perf_counter()
        _report_progress(progress, "loaded", ms=(finished - started) * 1e3)
        skipped = report.filter
        info.update(
            file=file,
            letters=list(rules.alphabet.letters),
            built_for=rules.name,
            entries=skipped.entries,
            kept=skipped.kept,
            bad_letters=skipped.bad_letters,
            bad_examples=[[n, word, why] for n, word, why in skipped.bad_examples],
            too_long=skipped.too_long,
            too_long_examples=[[n, word] for n, word in skipped.too_long_examples],
            unit=skipped.unit,
            states=report.states,
            arcs=report.arcs,
            arcs_unshared=report.arcs_unshared,
            summary=report.summary_lines(),
            records=gaddag,
        )
        info["ms"] = {
            "read": (read - started) * 1e3,
            "build": (built - read) * 1e3,
            "build_c": report.build_seconds * 1e3,
            "load": (finished - built) * 1e3,
            "total": (finished - started) * 1e3,
        }
        return info
    except ApiError as exc:
        return _error(exc.message, exc.field)


def add_lexicon(request: dict[str, Any], data: Any) -> dict[str, Any]:
    """A ``.gaddag`` file built elsewhere: validated in full as :func:`load_lexicon` does (and
    against ``rules``' alphabet), kept under ``name``; ``letters`` says which alphabet it
    spells, for the page to list it under every ruleset of those letters."""
    info = load_lexicon(request.get("name"), data, request.get("rules"))
    if "error" not in info:
        info["letters"] = list(_lexicons[info["name"]].alphabet.letters)
        info["built_for"] = request.get("rules")
    return info


def forget_lexicon(request: dict[str, Any]) -> dict[str, Any]:
    """Drop a loaded lexicon and its solvers (the page removed it): its memory can be reused."""
    name = request.get("name")
    known = _lexicons.pop(name, None) if isinstance(name, str) else None
    for key in [key for key in _solvers if key[0] == name]:
        del _solvers[key]
    return {"name": name, "removed": known is not None}


def rules_json(request: dict[str, Any]) -> dict[str, Any]:
    """A ruleset (shipped or the player's own) in the JSON schema of rules/*.json: where the
    rules editor starts."""
    try:
        return {"rules": get_rules(request.get("name")).to_dict()}
    except ApiError as exc:
        return _error(exc.message, exc.field)


def _own_rules(data: object) -> Rules:
    """Rules.from_dict for a ruleset made in the page; raises RulesError (with its ``field``)."""
    rules = Rules.from_dict(data, source="rules")  # type: ignore[arg-type]
    if rules.name in available_rules():
        raise RulesError(f"rules: name: {rules.name!r} is a shipped ruleset; give yours another name", "name")
    return rules


def check_rules(request: dict[str, Any]) -> dict[str, Any]:
    """Validate a ruleset exactly as Rules.load does: ``rules`` (the editor's JSON object; a
    shipped ruleset's name is refused, the editor saves under its own) or ``text`` (a file's
    text being imported; any name). Answers ``valid``; when false, ``field`` (the JSON field at
    fault, e.g. ``layout[4]``, or null) and ``message``; when true, ``rules`` (``to_dict()``)
    and ``text`` (``to_json()``: the file to export)."""
    try:
        text = request.get("text")
        if isinstance(text, str):
            rules = Rules.from_json(text, source=str(request.get("file") or "rules"))
        else:
            rules = _own_rules(request.get("rules"))
    except RulesError as exc:
        return {"valid": False, "field": exc.field, "message": str(exc)}
    return {"valid": True, "field": None, "message": "", "rules": rules.to_dict(), "text": rules.to_json()}


def set_rules(request: dict[str, Any]) -> dict[str, Any]:
    """Register the player's own ruleset (``rules``: the JSON object), replacing one of the same
    name; answers :func:`rules_data` (what the page draws the board from) with ``json`` (the
    ruleset as exported). An invalid one is an error with ``field`` ``"rules"``."""
    try:
        try:
            rules = _own_rules(request.get("rules"))
        except RulesError as exc:
            raise ApiError(str(exc), "rules") from None
        _rules[rules.name] = rules
        for key in [key for key in _solvers if key[1] == rules.name]:
            del _solvers[key]
        out = rules_data(rules.name)
        out["json"] = rules.to_dict()
        out["own"] = True
        return out
    except ApiError as exc:
        return _error(exc.message, exc.field)
