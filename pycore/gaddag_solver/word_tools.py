"""Word tools for players: check words, anagrams of tiles (with blanks), patterns and words
containing letters, all answered by the lexicon's own queries.

A pattern is written with ``?`` (or ``.``) for any one letter and ``*`` for any run of letters
(none included): ``Q?I*`` is every word of three letters or more starting with Q, any letter,
then I. ``*`` is not a query of the core; a pattern with it is answered by the core's pattern
query once per length the runs could take (at most ``MAX_LENGTH`` letters in all), so it
stays exact and needs no word list in memory. At most two ``*`` and at least one letter, which
keeps a query under a second on SOWPODS (``*`` alone would list all 267,751 words).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from .alphabet import AlphabetError, normalize_text, split_keeping
from .lexicon import WILDCARDS, Lexicon

MAX_LENGTH = 21  # the longest word a shipped board holds (the 21×21 board)
TOOLS = ("check", "anagram", "build", "pattern", "contains")


class WordToolError(ValueError):
    """A query that cannot be answered; the message says what is wrong with it."""


@dataclass(frozen=True)
class WordAnswer:
    """The words found (all of them, in the lexicon's order) and, for "check", which are valid."""

    tool: str
    query: str
    words: list[str]
    valid: list[bool] | None = None

    def to_dict(self, limit: int | None = None) -> dict[str, object]:
        shown = self.words if limit is None else self.words[:limit]
        out: dict[str, object] = {
            "tool": self.tool,
            "query": self.query,
            "count": len(self.words),
            "words": shown,
        }
        if self.valid is not None:
            out["valid"] = self.valid[: len(shown)]
        return out


def _squares(lexicon: Lexicon, part: str) -> int:
    """How many letters a piece of a pattern without ``*`` stands for."""
    pieces = split_keeping(lexicon.alphabet.normalize(part), WILDCARDS)
    return sum(1 if piece in WILDCARDS else len(lexicon.alphabet.split(piece)) for piece in pieces)


def pattern_words(lexicon: Lexicon, pattern: str) -> list[str]:
    """Words matching ``pattern`` (``?``/``.`` one letter, ``*`` any run, possibly empty), in
    the lexicon's order."""
    parts = pattern.split("*")
    if len(parts) == 1:
        return lexicon.pattern(pattern)
    if len(parts) == 3 and not parts[0] and not parts[2] and not any(c in WILDCARDS for c in parts[1]):
        return lexicon.containing(parts[1])  # *LETTERS*: the core's own query
    fixed = sum(_squares(lexicon, part) for part in parts)
    runs = len(parts) - 1
    if runs > 2:
        raise WordToolError("a pattern may hold at most two '*'")
    if all(char in "?.*" for char in pattern):
        raise WordToolError("a pattern with '*' needs at least one letter (or it matches every word)")
    found: set[str] = set()
    room = MAX_LENGTH - fixed
    for lengths in itertools.product(range(room + 1), repeat=runs):
        if sum(lengths) > room or fixed + sum(lengths) == 0:
            continue
        expanded = parts[0] + "".join("?" * n + part for n, part in zip(lengths, parts[1:], strict=True))
        found.update(lexicon.pattern(expanded))
    return sorted(found, key=lexicon.encode)


def hooks(lexicon: Lexicon, word: str) -> dict[str, list[str]]:
    """The letters that make a word of ``word`` put before it (``front``) or after it (``back``)."""
    letters = lexicon.alphabet.letters
    spelled = lexicon.alphabet.normalize(word)
    return {
        "front": [letter for letter in letters if letter + spelled in lexicon],
        "back": [letter for letter in letters if spelled + letter in lexicon],
    }


def word_query(lexicon: Lexicon, tool: str, query: str) -> WordAnswer:
    """Answer one query: ``check`` (words separated by spaces or commas), ``anagram`` (words of
    all the tiles, ``?`` a blank), ``build`` (words of some of them), ``pattern``, ``contains``."""
    if tool not in TOOLS:
        raise WordToolError(f"unknown word tool {tool!r} (one of {', '.join(TOOLS)})")
    text = normalize_text(str(query)).strip()
    if not text:
        raise WordToolError("type some letters first")
    try:
        if tool == "check":
            words = [part for part in text.replace(",", " ").split() if part]
            spelled = [lexicon.alphabet.normalize(word) for word in words]
            return WordAnswer(tool, text, spelled, [word in lexicon for word in spelled])
        if tool in ("anagram", "build"):
            if "*" in text or "." in text:
                raise WordToolError("anagrams take tiles: letters and ? for a blank")
            return WordAnswer(tool, text, lexicon.anagrams(text, partial=tool == "build"))
        if tool == "pattern":
            return WordAnswer(tool, text, pattern_words(lexicon, text.replace(" ", "")))
        return WordAnswer(tool, text, lexicon.containing(text.replace(" ", "")))
    except AlphabetError as exc:
        raise WordToolError(str(exc)) from None
