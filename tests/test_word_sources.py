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
