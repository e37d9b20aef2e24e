"""The words Russian Scrabble and Эрудит allow, read from OpenCorpora's morphological dictionary.

Both games allow common nouns in the nominative singular, and the nominative plural only of a
noun that has no singular (НОЖНИЦЫ, САНИ, ДЕНЬГИ); no verbs, adjectives, other cases, proper
nouns or abbreviations. A spelling dictionary holds every inflected form of every word (1.4
million for Russian), most of which these games refuse. OpenCorpora's dictionary tags every
form with its part of speech and grammemes, so the rule can be applied as the games state it.

The dictionary comes compiled for pymorphy3 (PyPI ``pymorphy3-dicts-ru``): a table of
*paradigms* (how a stem inflects, each form with its tag) and a DAWG of every word form with its
paradigm and form number. A noun lacks a singular exactly when its paradigm has no singular
form, so the rule is decided once per paradigm form (990 of the dictionary's forms qualify), and
then every word form is kept or dropped by its (paradigm, form) pair.

Refused as well: forms tagged as proper nouns (Name, Surn, Patr, Geox, Orgn, Trad), abbreviations
and initials (Abbr, Init), and informal, slang, misspelt or distorted variants (Infr, Slng, Erro,
Dist); words holding anything but letters (АФРО-АМЕРИКАНЕЦ). Indeclinable nouns (КОФЕ, МЕТРО)
and nouns used as adjectives are nouns of the dictionary and are kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: grammemes that make a noun form one the games refuse
REFUSED = frozenset(
    {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init", "Infr", "Slng", "Erro", "Dist"}
)


def _dictionary(folder: Path) -> Any:
    try:
        from pymorphy3.opencorpora_dict.wrapper import Dictionary
    except ImportError:
        raise RuntimeError(
            "the Russian word lists are read with pymorphy3: pip install 'pymorphy3==2.0.6' "
            "(or pip install -e '.[test]')"
        ) from None
    try:
        return Dictionary(str(folder))
    except (OSError, ValueError, KeyError) as error:
        raise RuntimeError(f"{folder}: not a pymorphy3 dictionary: {error}") from None


def _allowed(tag: Any) -> bool:
    grammemes = tag.grammemes
    return tag.POS == "NOUN" and "nomn" in grammemes and not (grammemes & REFUSED)


def allowed_forms(paradigms: Iterable[Any], gramtab: Any) -> set[tuple[int, int]]:
    """The (paradigm, form) pairs the games allow: a paradigm's nominative singular forms, or its
    nominative plural forms when it has no singular. ``paradigms`` are pymorphy3's arrays
    (suffixes, tags and prefixes, a third each); ``gramtab`` maps a tag number to its tag."""
    allowed: set[tuple[int, int]] = set()
    for para_id, paradigm in enumerate(paradigms):
        forms = len(paradigm) // 3
        tags = [gramtab[paradigm[forms + idx]] for idx in range(forms)]
        nouns = [(idx, tag) for idx, tag in enumerate(tags) if _allowed(tag)]
        singular = [idx for idx, tag in nouns if "sing" in tag.grammemes]
        chosen = singular or [idx for idx, tag in nouns if "plur" in tag.grammemes]
        allowed.update((para_id, idx) for idx in chosen)
    return allowed


def game_nouns(folder: str | Path) -> list[str]:
    """The words of the dictionary in ``folder`` (pymorphy3's ``data`` folder) that Russian
    Scrabble and Эрудит allow, lower case as the dictionary writes them (Ё kept), sorted."""
    dictionary = _dictionary(Path(folder))
    allowed = allowed_forms(dictionary.paradigms, dictionary.gramtab)
    return sorted(
        {
            word
            for word, (para_id, idx) in dictionary.words.iteritems()
            if (para_id, idx) in allowed and word.isalpha()
        }
    )
