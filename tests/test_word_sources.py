"""Where the non-English word lists come from: Hunspell dictionaries expanded to every form
(gaddag_solver/hunspell.py), a Debian package read in place, and a spell checker's capitalized
entries (proper nouns, abbreviations) left out. Small hand-made files; the expected forms are
worked out by hand from Hunspell's rules (strip, add, condition; cross products)."""

from __future__ import annotations

import io
import lzma
import re
import tarfile
from pathlib import Path

import pytest
from gaddag_solver import lexicons
from gaddag_solver.hunspell import HunspellError, expand, parse_affixes

AFF = """SET UTF-8
# a suffix class with conditions, a prefix class, both crossing
SFX A Y 3
SFX A   0     s     [^sy]
SFX A   y     ies   [^aeiou]y
SFX A   0     es    s
PFX U Y 1
PFX U   0     un    .
SFX N N 1
SFX N   ть    л     ть
"""
DIC = """5
cat/A
bus/A
fly/AU
do/U
бежать/N
"""


def test_forms_follow_the_rules() -> None:
    forms = expand(DIC, AFF, "test.dic")
    assert sorted(forms) == sorted(
        [
            "cat",
            "cats",  # 0 -> s after a letter other than s or y
            "bus",
            "buses",  # after s: es, and not s
            "fly",
            "flies",  # y -> ies after a consonant
            "unfly",
            "unflies",  # the prefix crosses with the suffix
            "do",
            "undo",
            "бежать",
            "бежал",
        ]
    )


@pytest.mark.parametrize(
    ("aff", "message"),
    [
        ("FLAG long\n", "line 1: FLAG long (only one-character flags are read)"),
        ("SET ISO8859-5\n", "encoding ISO8859-5"),
        ("SFX A Y 1\nSFX A 0 s/B .\n", "line 2: continuation classes (s/B) are not supported"),
        ("SFX A Y 2\nSFX A 0 s .\n", "class A announces 2 rules and has 1"),
        ("COMPOUNDFLAG X\n", "COMPOUNDFLAG is not supported"),
        ("SFX A Y 1\nSFX A 0 s [a\n", "condition '[a'"),
    ],
)
def test_what_cannot_be_expanded_faithfully_is_refused(aff: str, message: str) -> None:
    with pytest.raises(HunspellError, match=re.escape(message)):
        parse_affixes(aff, "x.aff")


def ar_member(name: str, data: bytes) -> bytes:
    header = f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n".encode()
    return header + data + (b"\n" if len(data) % 2 else b"")


def test_a_debian_package_is_read_in_place(tmp_path: Path) -> None:
    words = "a\nA\nkot\nKraków\nPZU\nżółw\n".encode()
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as tar:
        info = tarfile.TarInfo("./usr/share/dict/polish")
        info.size = len(words)
        tar.addfile(info, io.BytesIO(words))
    deb = tmp_path / "wpolish_1_all.deb"
    deb.write_bytes(
        b"!<arch>\n"
        + ar_member("debian-binary", b"2.0\n")
        + ar_member("control.tar.xz", lzma.compress(b"x"))
        + ar_member("data.tar.xz", lzma.compress(data.getvalue()))
    )
    source = lexicons.SOURCES["sjp"]
    raw = lexicons._read_member(deb, source.member)
    assert raw == words
    # the lower-case entries only: "A", "Kraków" and "PZU" are a letter's name, a city, an abbreviation
    assert lexicons._parse_words(source, raw) == ["a", "kot", "żółw"]
    # German keeps its capitalized nouns, not its abbreviations
    german = lexicons.SOURCES["wngerman"]
    assert lexicons._parse_words(german, "Haus\nhaus\nABC\nACLs\ngehen\nÄrger\nx\n".encode()) == [
        "Haus",
        "haus",
        "gehen",
        "Ärger",
        "x",
    ]
    not_deb = tmp_path / "x.deb"
    not_deb.write_bytes(b"PK\x03\x04")
    with pytest.raises(RuntimeError, match="not a Debian package"):
        lexicons._read_member(not_deb, source.member)


def test_every_shipped_ruleset_has_a_default_list_from_the_registries() -> None:
    from gaddag_solver.rules import Rules, available_rules

    built_for = {source.rules for source in lexicons.SOURCES.values()}
    assert built_for == set(available_rules()) - {"super", "wwf"} | {"english"}
    for name in available_rules():
        default = Rules.load(name).default_lexicon
        assert default in lexicons.SOURCES, name
        assert (
            Rules.load(lexicons.SOURCES[default].rules).alphabet.letters == Rules.load(name).alphabet.letters
        )


# ---- the Russian nouns (gaddag_solver/opencorpora.py) ------------------------------------------------


def test_the_game_nouns_are_chosen_per_paradigm() -> None:
    """Hand-made paradigms of pymorphy3's layout (suffixes, tags, prefixes: a third each), each
    form's tag as OpenCorpora writes it."""
    import pymorphy3
    from gaddag_solver.opencorpora import allowed_forms

    tag = pymorphy3.MorphAnalyzer().TagClass  # the tag class, knowing OpenCorpora's grammemes
    gramtab = [
        tag(text)
        for text in [
            "NOUN,anim,masc sing,nomn",  # 0
            "NOUN,anim,masc sing,gent",  # 1
            "NOUN,anim,masc plur,nomn",  # 2
            "NOUN,inan,GNdr,Pltm plur,nomn",  # 3
            "NOUN,inan,GNdr,Pltm plur,gent",  # 4
            "INFN,impf,intr",  # 5
            "NOUN,anim,masc,Name sing,nomn",  # 6
            "NOUN,inan,femn sing,nomn,Infr",  # 7
            "NOUN,inan,femn plur,nomn",  # 8
            "ADJF,Qual masc,sing,nomn",  # 9
            "NOUN,inan,masc,Abbr sing,nomn",  # 10
            "NOUN,inan,neut,Fixd sing,nomn",  # 11
        ]
    ]

    def paradigm(*tags: int) -> list[int]:
        return [0] * len(tags) + list(tags) + [0] * len(tags)

    paradigms = [
        paradigm(0, 1, 2),  # КОТ, КОТА, КОТЫ: the singular only
        paradigm(3, 4),  # НОЖНИЦЫ: no singular, so the nominative plural
        paradigm(5),  # a verb
        paradigm(6, 2),  # a name (and a plural of no name)
        paradigm(7, 8),  # ДЕНЬГИ: its singular only informal, so the plural
        paradigm(9),  # an adjective
        paradigm(10),  # an abbreviation
        paradigm(11, 11),  # КОФЕ: indeclinable, a noun
    ]
    assert allowed_forms(paradigms, gramtab) == {(0, 0), (1, 0), (3, 1), (4, 1), (7, 0), (7, 1)}


@pytest.mark.parametrize(
    ("name", "allowed", "refused"),
    [
        (
            "opencorpora",
            ["КОТ", "ЁЖ", "СТОЛ", "НОЖНИЦЫ", "САНИ", "ДЕНЬГИ", "КОФЕ", "МЕТРО", "ЕЛЬ"],
            ["КОТОМ", "СТОЛЫ", "БЕЖАТЬ", "КРАСИВЫЙ", "МОСКВА", "ИВАН", "ВУЗ", "ХОРОШО", "ЕЖ"],
        ),
        ("opencorpora-erudit", ["КОТ", "ЕЖ", "НОЖНИЦЫ", "КОФЕ"], ["КОТОМ", "СТОЛЫ", "БЕЖАТЬ", "ИВАН"]),
    ],
)
def test_the_russian_lists_hold_the_nouns_the_games_allow(
    name: str, allowed: list[str], refused: list[str]
) -> None:
    """A noun in, and a case, a plural with a singular, a verb, an adjective, a place, a name, an
    abbreviation and an adverb out (the default lexicons are built by scripts/setup_env.sh)."""
    from gaddag_solver import Lexicon, Rules
    from gaddag_solver.lexicons import resolve_lexicon

    source = lexicons.SOURCES[name]
    lexicon = Lexicon.load(resolve_lexicon(name), Rules.load(source.rules))
    assert [word for word in allowed if word not in lexicon] == []
    assert [word for word in refused if word in lexicon] == []
    assert 60_000 < len(lexicon) < 70_000


@pytest.mark.parametrize(
    ("name", "allowed", "refused"),
    [
        ("wfrench", ["ETE", "ÉTÉ", "COEUR", "MANGEAIENT", "ZEN", "ÉCOLE"], ["PORTEMONNAIE", "AUJOURDHUI"]),
        (
            "wngerman",
            ["HAUS", "STRASSE", "Straße", "ÄRGER", "GEHEN", "SCHÖN"],
            ["ABC", "ACL", "AERGER", "SCHOEN"],
        ),
        ("spanish-words", ["CHORRO", "CALLE", "ÑANDÚ", "PERRO", "CANTÁBAMOS"], ["KIWI", "NANDU"]),
    ],
)
def test_the_new_language_lists_spell_words_with_the_games_tiles(
    name: str, allowed: list[str], refused: list[str]
) -> None:
    """French folds its accents, German keeps Ä Ö Ü and spells ß as SS, Spanish spells CH, LL and
    RR with their own tiles (the default lexicons are built by scripts/setup_env.sh)."""
    from gaddag_solver import Lexicon, Rules
    from gaddag_solver.alphabet import AlphabetError
    from gaddag_solver.lexicons import resolve_lexicon

    rules = Rules.load(lexicons.SOURCES[name].rules)
    lexicon = Lexicon.load(resolve_lexicon(name), rules)
    assert [word for word in allowed if word not in lexicon] == []
    for word in refused:
        try:
            assert word not in lexicon
        except AlphabetError:
            pass  # a letter the set does not have (K in Spanish) is refused outright
    assert 250_000 < len(lexicon) < 700_000
