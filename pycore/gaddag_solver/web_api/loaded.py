"""What the worker keeps between requests: the lexicons, leave tables and rulesets loaded (and
the solvers made for them), and their descriptions for the page (rules.json, lexicons.json)."""

from __future__ import annotations

import time
from typing import Any

from ..alphabet import AlphabetError
from ..formats.leaves import Leaves, LeavesError
from ..lexicon import Lexicon, LexiconFormatError
from ..lexicons import SOURCES
from ..rules import Rules, RulesError, available_rules
from ..solver import LexiconMismatchError, Solver
from ._base import ApiError, _as_bytes, _check_name, _error

_lexicons: dict[str, Lexicon] = {}
_solvers: dict[tuple[str, str], Solver] = {}
_rules: dict[str, Rules] = {}
_leaves: dict[str, Leaves] = {}


def rules_data(name: str) -> dict[str, Any]:
    """What the page needs to draw and edit a board for a ruleset (one entry of rules.json)."""
    rules = get_rules(name)
    return {
        "name": rules.name,
        "title": rules.title,
        "language": rules.language,
        "rows": rules.rows,
        "cols": rules.cols,
        "layout": ["".join(row) for row in rules.premiums],
        "start": list(rules.start),
        "start_doubles": rules.start_doubles,
        "rack_size": rules.rack_size,
        "bingo_bonus": rules.bingo_bonus,
        "letters": list(rules.alphabet.letters),
        "values": list(rules.values),
        "counts": list(rules.counts),
        "blanks": rules.blanks,
        "blank_value": rules.blank_value,
        "fold": dict(rules.alphabet.fold),
        "default_lexicon": rules.default_lexicon,
        "exchange_minimum": rules.exchange_minimum,
        "vowels": list(rules.vowels),
    }


def all_rules_data() -> dict[str, Any]:
    """rules.json: every shipped ruleset, the default first."""
    names = available_rules()
    return {"default": names[0], "rules": [rules_data(name) for name in names]}


def compatible_rules(lexicon: Lexicon) -> list[str]:
    """The rulesets spelled with the lexicon's letters: the shipped ones (the default first),
    then the player's own registered with :func:`set_rules`. A word list we build serves the
    rulesets of its own language among them: French and English are both spelled A to Z, but
    the French list is not offered for English Scrabble, nor the English ones for French."""
    shipped = available_rules()
    own = sorted(name for name in _rules if name not in shipped)
    spelled = [name for name in shipped + own if get_rules(name).alphabet.letters == lexicon.alphabet.letters]
    source = SOURCES.get(lexicon.name)
    if source is None:
        return spelled
    language = get_rules(source.rules).language
    return [name for name in spelled if get_rules(name).language == language] or spelled


def lexicon_info(name: str, lexicon: Lexicon) -> dict[str, Any]:
    """One entry of lexicons.json: name, the rulesets it serves, words and file bytes."""
    return {
        "name": name,
        "source_name": lexicon.name,
        "rules": compatible_rules(lexicon),
        "words": lexicon.stats.words,
        "bytes": lexicon.stats.bytes,
        "max_word_length": lexicon.stats.max_word_length,
    }


def leaves_info(name: str, table: Leaves) -> dict[str, Any]:
    """One entry of lexicons.json's ``leaves``: name, the ruleset it values, entries, bytes."""
    return {
        "name": name,
        "rules": table.ruleset,
        "entries": len(table),
        "max_leave": table.max_leave,
        "bytes": len(table.to_bytes()),
    }


def get_rules(name: object) -> Rules:
    if not isinstance(name, str) or not name:
        raise ApiError(f"a ruleset name is needed, not {name!r}", "rules")
    rules = _rules.get(name)
    if rules is None:
        try:
            rules = Rules.load(name)
        except RulesError as exc:
            raise ApiError(str(exc), "rules") from None
        _rules[name] = rules
    return rules


def _loaded(store: dict[str, Any], name: object, field: str, what: str) -> Any:
    """``store[name]``, or an ApiError naming what is loaded."""
    if not isinstance(name, str) or not name:
        raise ApiError(f"a {what} name is needed, not {name!r}", field)
    found = store.get(name)
    if found is None:
        loaded = ", ".join(sorted(store)) or "none"
        raise ApiError(f"unknown {what} {name!r} (loaded: {loaded})", field)
    return found


def _lexicon(name: object) -> Lexicon:
    return _loaded(_lexicons, name, "lexicon", "lexicon")


def _solver(lexicon_name: object, rules_name: object, engine: str = "gaddag") -> Solver:
    rules = get_rules(rules_name)
    lexicon = _lexicon(lexicon_name)
    key = (str(lexicon_name), rules.name, engine)
    solver = _solvers.get(key)
    if solver is None:
        try:
            solver = Solver(lexicon, rules, engine)
        except LexiconMismatchError as exc:
            raise ApiError(str(exc), "lexicon") from None
        _solvers[key] = solver
    return solver


def load_lexicon(name: str, data: Any, rules_name: str | None = None) -> dict[str, Any]:
    """Validate a lexicon's bytes and keep it under ``name`` (replacing one of that name).

    ``data``: bytes, or an object with ``to_bytes()`` (a Pyodide JsProxy of a Uint8Array: the
    one copy from JavaScript memory into Python). ``rules_name``: the ruleset it is used with;
    a lexicon spelled with other letters is refused.
    """
    try:
        _check_name(name, "lexicon")
        started = time.perf_counter()
        data = _as_bytes(data, "lexicon")
        copied = time.perf_counter()
        rules = get_rules(rules_name) if rules_name else None
        try:
            lexicon = Lexicon.load(data, rules=rules)
        except LexiconFormatError as exc:
            raise ApiError(f"lexicon {name!r} is not a valid .gaddag file: {exc}", "lexicon") from None
        except AlphabetError as exc:
            raise ApiError(
                f"lexicon {name!r} does not fit the {rules_name} rules: {exc}", "lexicon"
            ) from None
        loaded = time.perf_counter()
        _lexicons[name] = lexicon
        for key in [key for key in _solvers if key[0] == name]:
            del _solvers[key]
        if rules_name:
            _solver(name, rules_name)  # ready to solve: the first solve pays no set-up
        finished = time.perf_counter()
        info = lexicon_info(name, lexicon)
        info["ms"] = {
            "copy": (copied - started) * 1e3,
            "load": (loaded - copied) * 1e3,
            "solver": (finished - loaded) * 1e3,
        }
        return info
    except ApiError as exc:
        return _error(exc.message, exc.field)


def loaded_lexicons() -> list[str]:
    return sorted(_lexicons)


def load_leaves(name: str, data: Any, rules_name: str | None = None) -> dict[str, Any]:
    """Validate a leave table's bytes (a ``.leaves`` file) and keep it under ``name`` (replacing
    one of that name). ``data`` as for :func:`load_lexicon`. ``rules_name``: the ruleset it
    values moves for; a table made for another ruleset (or tile set) is refused, as is a
    damaged one, with ``field`` ``"leaves"``. Without ``rules_name`` the shipped ruleset the
    file names is used."""
    try:
        _check_name(name, "leaves")
        started = time.perf_counter()
        data = _as_bytes(data, "leaves")
        rules = get_rules(rules_name) if rules_name else None
        try:
            table = Leaves.from_bytes(data, rules, source=f"leave table {name!r}")
        except LeavesError as exc:
            raise ApiError(str(exc), "leaves") from None
        _leaves[name] = table
        info = leaves_info(name, table)
        info["ms"] = {"load": (time.perf_counter() - started) * 1e3}
        return info
    except ApiError as exc:
        return _error(exc.message, exc.field)


def loaded_leaves() -> list[str]:
    return sorted(_leaves)


def _leave_table(name: object, rules: Rules) -> Leaves | None:
    """The loaded table ``name`` (None: no table), which must value moves for ``rules``."""
    if name is None:
        return None
    table: Leaves = _loaded(_leaves, name, "leaves", "leave table")
    if table.ruleset != rules.name:
        raise ApiError(f"leave table {name!r} is for the {table.ruleset} rules, not {rules.name}", "leaves")
    return table
