"""The word tools (gaddag_solver.word_tools, web_api.word_tools) held to brute force over the
small word list the lexicon is built from (tests/small_words.py): regular expressions for
patterns, counted letters for anagrams, substrings, membership and hooks."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from gaddag_solver import Lexicon, Rules, web_api
from gaddag_solver.word_tools import WordToolError, hooks, pattern_words, word_query
from small_words import WORDS

ENGLISH = Rules.load("english")


@pytest.fixture(scope="module")
def small(lexicon_path: str) -> Lexicon:
    return Lexicon.load(lexicon_path, ENGLISH)


def by_regex(pattern: str) -> set[str]:
    regex = re.compile("^" + pattern.replace("?", ".").replace("*", ".*") + "$")
    return {word for word in WORDS if regex.match(word)}


@pytest.mark.parametrize("pattern", ["C?T", "*S", "CA*", "*AT*", "?A*S", "T*E*S", "??", "Q?"])
def test_patterns_match_brute_force(small: Lexicon, pattern: str) -> None:
    found = pattern_words(small, pattern)
    assert set(found) == by_regex(pattern)
    assert len(found) == len(set(found))


def fits(word: str, tiles: str, whole: bool) -> bool:
    need = Counter(word)
    have = Counter(tiles.replace("?", ""))
    short = sum((need - have).values())
    blanks = tiles.count("?")
    return short <= blanks and (not whole or len(word) == len(tiles))


@pytest.mark.parametrize("tiles", ["AERST", "CAT?", "RAT??"])
def test_anagrams_and_builds_match_brute_force(small: Lexicon, tiles: str) -> None:
    whole = word_query(small, "anagram", tiles).words
    assert {w.upper() for w in whole} == {w for w in WORDS if fits(w, tiles, True)}
    some = word_query(small, "build", tiles).words
    assert {w.upper() for w in some} == {w for w in WORDS if fits(w, tiles, False)}


def test_check_contains_and_hooks(small: Lexicon) -> None:
    answer = word_query(small, "check", "cat, cta  qi")
    assert (answer.words, answer.valid) == (["CAT", "CTA", "QI"], [True, False, True])
    assert set(word_query(small, "contains", "AT").words) == {w for w in WORDS if "AT" in w}
    found = hooks(small, "AT")
    letters = ENGLISH.alphabet.letters
    assert found["front"] == [x for x in letters if x + "AT" in WORDS]
    assert found["back"] == [x for x in letters if "AT" + x in WORDS]


def test_bad_queries_say_what_is_wrong(small: Lexicon) -> None:
    with pytest.raises(WordToolError, match="type some letters"):
        word_query(small, "pattern", "  ")
    with pytest.raises(WordToolError, match="unknown word tool"):
        word_query(small, "define", "CAT")
    with pytest.raises(WordToolError, match="at most two"):
        word_query(small, "pattern", "A*B*C*D")
    with pytest.raises(WordToolError, match="at least one letter"):
        word_query(small, "pattern", "??*")
    with pytest.raises(WordToolError, match="tiles"):
        word_query(small, "anagram", "CA*")
    with pytest.raises(WordToolError):
        word_query(small, "contains", "C1")


def test_through_the_web_api(lexicon_path: str) -> None:
    web_api.load_lexicon("small-tools", Path(lexicon_path).read_bytes(), "english")

    def ask(**request: object) -> dict:
        return json.loads(web_api.call("word_tools", json.dumps({"lexicon": "small-tools", **request}))[0])

    answer = ask(tool="pattern", query="*s", limit=5)
    expected = sorted(by_regex("*S"))
    assert answer["count"] == len(expected) and answer["words"] == expected[:5]
    assert ask(hooks="at") == {"word": "AT", "in_lexicon": True, **hooks(Lexicon.load(lexicon_path), "AT")}
    assert ask(tool="pattern", query="")["field"] == "query"
    assert ask(tool="pattern", query="C?T", limit=-1)["field"] == "request"
