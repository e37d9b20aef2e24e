"""The .gaddag files the builder writes, and the loader's checks, against docs/gaddag-format.md.

Oracles, all independent of the package under test:

* tests/gaddag_reference.py reads files with ``struct`` and walks the arcs in Python;
* the language a GADDAG of a word list must accept is computed from the definition
  (``gaddag_strings``), and the minimal automaton's size from the language's right quotients;
* the CRC is ``zlib.crc32``; words are turned into letter codes by ``unicodedata`` + the
  alphabet's letter order, not by the package's encoder.
"""

from __future__ import annotations

import dataclasses
import random
import struct
import unicodedata
import zlib
from pathlib import Path

import pytest
from gaddag_reference import (
    FIXED_HEADER,
    MAGIC,
    SEPARATOR,
    Arc,
    accepted_strings,
    encode_word,
    gaddag_strings,
    list_starts,
    minimal_automaton_size,
    parse,
    repair_counts,
    set_arc,
    sibling_list,
    unshared_arc_count,
    with_crc,
    words_of,
)
from gaddag_solver import (
    Alphabet,
    AlphabetError,
    Lexicon,
    LexiconBuildError,
    LexiconFormatError,
    Rules,
    build_gaddag,
)
from gaddag_solver.lexicon import build_lexicon_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ENGLISH = Rules.load("english").alphabet
POLISH = Rules.load("polish").alphabet
RUSSIAN = Rules.load("russian").alphabet
ERUDIT = Rules.load("erudit").alphabet

POLISH_WORDS = ["ŻÓŁW", "ŹDŹBŁO", "GĘŚ", "GĘŚLA", "ŁĄKA", "CHRZĄSZCZ", "KOŃ", "SŁOŃ", "ŻÓŁĆ", "ĆMA", "DŹWIĘK"]
RUSSIAN_WORDS = ["ЁЖ", "ЖУК", "ЩЕКА", "СЪЕЗД", "ЭХО", "ЮЛА", "ЯБЛОКО", "ПОДЪЁМ", "ЁЛКА", "ЕЛКА"]


# ---- the oracle side -----------------------------------------------------------------------------


def oracle_normalize(word: str, alphabet: Alphabet) -> str:
    text = unicodedata.normalize("NFC", word.strip()).upper()
    for source, target in alphabet.fold.items():
        text = text.replace(source, target)
    return text


def oracle_codes(words: list[str], alphabet: Alphabet) -> set[tuple[int, ...]]:
    return {encode_word(oracle_normalize(w, alphabet), alphabet.letters) for w in words if w.strip()}


def check_built(data: bytes, report, words: list[str], alphabet: Alphabet, name: str) -> None:
    """Everything a freshly built file must satisfy, checked against the oracles."""
    info = parse(data)
    codes = oracle_codes(words, alphabet)
    language = gaddag_strings(codes)

    # header
    assert data[:8] == MAGIC
    assert info.version == 1
    assert info.flags == 0
    assert info.reserved == 0
    assert info.file_size == len(data)
    assert info.header_size % 4 == 0
    assert info.header_size + 4 * info.arc_count + 4 == len(data)
    assert info.alphabet == alphabet.letters
    assert info.alphabet_size == len(alphabet)
    assert info.name == name
    padding = data[info.name_offset + info.name_length : info.header_size]
    assert padding == bytes(len(padding)) and len(padding) < 4
    assert info.word_count == len(codes)
    assert info.max_word_length == max(len(c) for c in codes)
    assert info.crc == zlib.crc32(data[:-4])

    # the automaton: exactly the GADDAG language, minimal, acyclic by index order
    assert accepted_strings(info) == language
    assert words_of(info) == codes
    states, arcs = minimal_automaton_size(language)
    assert info.state_count == states == len(list_starts(info))
    assert report.arcs_unshared == arcs + 1 == unshared_arc_count(info)
    assert info.arc_count <= report.arcs_unshared
    entry = info.arcs[0]
    assert (entry.letter, entry.last, entry.accepts, entry.child) == (SEPARATOR, True, False, 1)
    used: set[int] = set()
    for start in list_starts(info):
        members = sibling_list(info.arcs, start)
        used.update(members)
        letters = [info.arcs[i].letter for i in members]
        assert letters == sorted(set(letters)), f"list at {start} not strictly increasing"
    assert used == set(range(1, info.arc_count)), "every stored arc belongs to some list"
    for index, arc in enumerate(info.arcs[1:], start=1):
        assert arc.child == 0 or index < arc.child < info.arc_count
        assert arc.accepts or arc.child
        assert 0 <= arc.letter <= len(alphabet)
        if arc.letter == SEPARATOR:
            assert not arc.accepts and arc.child

    # the report and the loader agree with the file
    assert (report.words, report.states, report.arcs, report.bytes, report.max_word_length) == (
        info.word_count,
        info.state_count,
        info.arc_count,
        len(data),
        info.max_word_length,
    )
    lexicon = Lexicon.load(data)
    assert (lexicon.stats.words, lexicon.stats.states, lexicon.stats.arcs, lexicon.stats.bytes) == (
        info.word_count,
        info.state_count,
        info.arc_count,
        len(data),
    )
    assert lexicon.alphabet.letters == alphabet.letters
    assert lexicon.name == name


# ---- word lists of many shapes -------------------------------------------------------------------

SHAPES = {
    "one word": (["QUIZ"], ENGLISH, 15),
    "one letter": (["A"], ENGLISH, 15),
    "one letter alphabet": (["A", "AA", "AAA"], Alphabet("A"), 15),
    "shared prefixes": (["CAT", "CATS", "CATTLE"], ENGLISH, 15),
    "shared suffixes": (["TIN", "SIN", "WIN"], ENGLISH, 15),
    "prefix and suffix": (["CAT", "CATS", "CATTLE", "TIN", "SIN", "WIN", "A", "QI"], ENGLISH, 15),
    "palindromes": (["ABA", "ABBA", "A", "AA", "BAB"], ENGLISH, 15),
    "15 letters": (["OXYPHENBUTAZONE", "ABCDEFGHIJKLMNO", "ZYXWVUTSRQPONML", "A"], ENGLISH, 15),
    "32 letters": (["AB" * 16, "BA" * 16, "A" * 32], ENGLISH, 32),
    "duplicates": (["CAT", "cat", "Cat", "DOG", "DOG", " DOG ", "cat"], ENGLISH, 15),
    "polish": (POLISH_WORDS + ["żółw", "gęś"], POLISH, 15),
    "russian": (RUSSIAN_WORDS + ["ёж"], RUSSIAN, 15),
    "erudit folds Ё": (["ЁЖ", "ЁЛКА", "ЕЛКА", "ЕЖ", "ЖУК"], ERUDIT, 15),
    "digraph letters": (
        ["CHAL", "LLAMA", "CALL", "HOLA"],
        Alphabet(["A", "CH", "C", "H", "L", "LL", "M", "O"]),
        15,
    ),
    "full alphabet": ([chr(ord("A") + k) for k in range(26)], ENGLISH, 15),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_built_file_matches_the_definition(shape: str) -> None:
    words, alphabet, max_length = SHAPES[shape]
    data, report = build_gaddag(words, alphabet, name="shape", max_length=max_length)
    check_built(data, report, words, alphabet, "shape")


def test_erudit_fold_merges_words() -> None:
    data, report = build_gaddag(["ЁЖ", "ЁЛКА", "ЕЛКА"], ERUDIT, name="e")
    assert report.words == 2  # ЕЖ, ЕЛКА
    assert "Ё" not in ERUDIT.letters
    lexicon = Lexicon.load(data)
    assert "ЕЛКА" in lexicon and "ЕЖ" in lexicon and "ЖУК" not in lexicon


def test_erudit_lexicon_folds_queries() -> None:
    data, _ = build_gaddag(["ЁЛКА"], ERUDIT, name="e")
    assert "ЁЛКА" in Lexicon.load(data)


def test_tail_sharing_happens_and_is_counted() -> None:
    words = SHAPES["prefix and suffix"][0]
    data, report = build_gaddag(words, ENGLISH, name="t")
    info = parse(data)
    shared = [s for s in list_starts(info) if s > 1 and not info.arcs[s - 1].last]
    assert shared, "this list has a sibling list stored inside another"
    saved = sum(len(sibling_list(info.arcs, s)) for s in list_starts(info)) + 1 - info.arc_count
    assert saved > 0
    assert report.arcs_unshared - report.arcs == saved


def test_name_is_stored_whole_or_refused() -> None:
    """Up to 255 bytes of UTF-8 are stored as given; a longer name, or one that is not UTF-8 (a
    lone surrogate: command-line bytes that were not UTF-8), is refused, not cut or spoiled."""
    data, _ = build_gaddag(["CAT"], ENGLISH, name="Żółw ☃")
    assert parse(data).name == "Żółw ☃" == Lexicon.load(data).name
    data, _ = build_gaddag(["CAT"], ENGLISH, name="x" * 253 + "é")  # 255 bytes
    assert Lexicon.load(data).name == "x" * 253 + "é"
    with pytest.raises(
        LexiconBuildError, match="the lexicon name is 256 bytes of UTF-8; a lexicon stores at most 255"
    ):
        build_gaddag(["CAT"], ENGLISH, name="x" * 254 + "é")
    with pytest.raises(LexiconBuildError, match="300 bytes"):
        build_gaddag(["CAT"], ENGLISH, name="y" * 300)
    with pytest.raises(LexiconBuildError, match=r"is not valid UTF-8 \(at character 3\)"):
        build_gaddag(["CAT"], ENGLISH, name="ab\udcff")
    with pytest.raises(LexiconBuildError, match="NUL"):
        build_gaddag(["CAT"], ENGLISH, name="a\0b")


# ---- property test over random word lists --------------------------------------------------------

LETTER_POOL = "ABCDEQĄŻЖЯΩ"


@st.composite
def word_lists(draw):
    letters = draw(st.lists(st.sampled_from(LETTER_POOL), min_size=2, max_size=5, unique=True))
    words = draw(
        st.lists(st.text(alphabet="".join(letters), min_size=1, max_size=7), min_size=1, max_size=40)
    )
    return Alphabet(letters), words


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_lists())
def test_random_word_lists(case) -> None:
    alphabet, words = case
    data, report = build_gaddag(words, alphabet, name="prop")
    check_built(data, report, words, alphabet, "prop")
    assert report.words == len(set(words))


# ---- errors when building ------------------------------------------------------------------------


@pytest.mark.parametrize("words", [[], [""], ["", "  ", "\t"]])
def test_empty_list_is_an_error(words: list[str]) -> None:
    with pytest.raises(LexiconBuildError, match=r"no words to build from \(the list is empty\)"):
        build_gaddag(words, ENGLISH, source="empty.txt")


def test_all_words_bad_names_the_skipped_words() -> None:
    with pytest.raises(LexiconBuildError) as caught:
        build_gaddag(["CAT1", "DØG", "x y"], ENGLISH, source="bad.txt")
    message = str(caught.value)
    assert message.startswith("bad.txt: no words to build from")
    assert "skipped 3 word(s) with letters outside the alphabet" in message
    assert "line 1: 'CAT1'" in message and "line 2: 'DØG'" in message and "line 3: 'x y'" in message
    assert "'1' (position 4)" in message


def test_all_words_too_long_is_an_error() -> None:
    with pytest.raises(LexiconBuildError, match=r"skipped 2 word\(s\) longer than the longest board line"):
        build_gaddag(["ABCDEF", "ABCDEFG"], ENGLISH, max_length=5)


def test_strict_rejects_bad_letters() -> None:
    with pytest.raises(LexiconBuildError, match=r"skipped 1 word\(s\).*line 2: 'B4D'"):
        build_gaddag(["GOOD", "B4D"], ENGLISH, strict=True)
    data, report = build_gaddag(["GOOD", "B4D"], ENGLISH)
    assert report.words == 1 and report.filter.bad_letters == 1


def test_word_longer_than_the_format_allows() -> None:
    with pytest.raises(LexiconBuildError, match="33 letters"):
        build_gaddag(["A" * 33], ENGLISH, max_length=40)


# ---- determinism ---------------------------------------------------------------------------------


def test_same_words_any_order_give_identical_bytes() -> None:
    words = ["CAT", "CATS", "CATTLE", "TIN", "SIN", "WIN", "A", "QI", "ZA", "OXYPHENBUTAZONE"]
    reference, _ = build_gaddag(words, ENGLISH, name="d")
    rng = random.Random(7)
    for _ in range(20):
        shuffled = words[:]
        rng.shuffle(shuffled)
        extra = [w.lower() for w in rng.sample(words, 4)] + [f" {w.title()} " for w in rng.sample(words, 3)]
        data, _ = build_gaddag(shuffled + extra, ENGLISH, name="d")
        assert data == reference


def test_same_words_through_files_give_identical_bytes(tmp_path: Path) -> None:
    words = ["CAT", "CATS", "CATTLE", "TIN", "SIN", "WIN", "A", "QI", "ZA"]
    variants = {
        "lf.txt": ("\n".join(words) + "\n").encode(),
        "crlf.txt": ("\r\n".join(reversed(words)) + "\r\n").encode(),
        "mixed.txt": ("\n".join([w.lower() for w in words] + words[:3] + [""]) + "\n").encode(),
        "bom.txt": b"\xef\xbb\xbf" + "\n".join(sorted(words, key=len)).encode(),
        "array.json": ('["' + '", "'.join(words[::-1]) + '"]').encode(),
    }
    outputs = []
    for file_name, content in variants.items():
        source = tmp_path / file_name
        source.write_bytes(content)
        target = tmp_path / (file_name + ".gaddag")
        build_lexicon_file(source, target, name="same", log=None)
        outputs.append(target.read_bytes())
    assert all(out == outputs[0] for out in outputs)
    assert words_of(outputs[0]) == oracle_codes(words, ENGLISH)


# ---- corrupt files -------------------------------------------------------------------------------

BASE_WORDS = ["CAT", "CATS", "CATTLE", "TIN", "SIN", "WIN", "A", "QI", "ZA", "TAT"]


@pytest.fixture(scope="module")
def base() -> bytes:
    # name "ab": 36 + 52 alphabet bytes + 2 = 90, so the header has two bytes of padding
    data, _ = build_gaddag(BASE_WORDS, ENGLISH, name="ab")
    info = parse(data)
    assert info.header_size == 92 and info.name_offset == 88
    return data


def rejected(data: bytes | bytearray, offset: int, *phrases: str) -> LexiconFormatError:
    with pytest.raises(LexiconFormatError) as caught:
        Lexicon.load(bytes(data))
    error = caught.value
    assert error.offset == offset, f"{error} (wanted offset {offset})"
    for phrase in phrases:
        assert phrase in error.reason, f"{phrase!r} not in {error.reason!r}"
    assert f"(at byte {offset})" in str(error)
    return error


def patched(data: bytes, offset: int, fmt: str, value: int, fix_crc: bool = False) -> bytes:
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, value)
    return with_crc(out) if fix_crc else bytes(out)


def find_arc(info, predicate) -> int:
    for index in range(1, info.arc_count):
        if predicate(index, info.arcs[index]):
            return index
    raise AssertionError("no such arc in the base lexicon")


def test_base_loads(base: bytes) -> None:
    lexicon = Lexicon.load(base)
    assert lexicon.stats.words == len(BASE_WORDS)
    assert all(w in lexicon for w in BASE_WORDS)


@pytest.mark.parametrize("length", [8, 9, 20, 35])
def test_truncated_inside_the_fixed_header(base: bytes, length: int) -> None:
    rejected(base[:length], length, "truncated", f"{length} bytes", "36-byte header")


@pytest.mark.parametrize("cut", [36, 37, 88, 92, 96, -5, -4, -1])
def test_truncated_after_the_fixed_header(base: bytes, cut: int) -> None:
    length = cut if cut > 0 else len(base) + cut
    rejected(base[:length], length, "truncated", f"has {length} bytes", f"says {len(base)}")


@pytest.mark.parametrize("length", [0, 1, 4, 7])
def test_shorter_than_the_magic_is_rejected(base: bytes, length: int) -> None:
    with pytest.raises(LexiconFormatError):
        Lexicon.load(base[:length])


@pytest.mark.parametrize("length", [0, 4, 7])
def test_shorter_than_the_magic_is_named_truncated(base: bytes, length: int) -> None:
    rejected(base[:length], length, "truncated")


def test_extended_file(base: bytes) -> None:
    rejected(base + b"\0\0\0\0", len(base), "4 unexpected bytes after the end")


@pytest.mark.parametrize(
    "offset, bit",
    [
        (20, 0),  # word count
        (24, 3),  # state count
        (37, 5),  # alphabet: 'A' -> 'a' (still valid UTF-8, still distinct)
        (61, 5),  # alphabet: another letter (M -> m)
        (88, 0),  # the name
        (92 + 4 * 1, 2),  # arc 1, a letter bit
        (92 + 4 * 2, 6),  # arc 2, last flag
        (92 + 4 * 3, 7),  # arc 3, accepts flag
        (92 + 4 * 4 + 1, 0),  # arc 4, child bits
        (-4, 0),  # the checksum itself
        (-1, 7),
    ],
)
def test_flipped_bit_is_a_checksum_error(base: bytes, offset: int, bit: int) -> None:
    damaged = bytearray(base)
    damaged[offset] ^= 1 << bit
    error = rejected(damaged, len(base) - 4, "checksum mismatch", "damaged")
    stored = struct.unpack_from("<I", damaged, len(base) - 4)[0]
    assert f"stored 0x{stored:08x}" in error.reason
    assert f"computed 0x{zlib.crc32(bytes(damaged[:-4])):08x}" in error.reason


@pytest.mark.parametrize("position", range(8))
def test_wrong_magic(base: bytes, position: int) -> None:
    damaged = bytearray(base)
    damaged[position] ^= 0x20
    rejected(damaged, 0, "bad magic")


@pytest.mark.parametrize("version", [0, 2, 0xFFFF])
def test_wrong_version(base: bytes, version: int) -> None:
    rejected(patched(base, 8, "<H", version), 8, f"unsupported format version {version}")


@pytest.mark.parametrize("flags", [1, 0x80, 1 << 31])
def test_unknown_flag(base: bytes, flags: int) -> None:
    rejected(patched(base, 12, "<I", flags), 12, f"unknown flags 0x{flags:08x}")


def test_wrong_file_size_field(base: bytes) -> None:
    size = len(base)
    rejected(patched(base, 16, "<I", size + 4), size, "truncated", f"says {size + 4}")
    rejected(patched(base, 16, "<I", size - 4), size - 4, "4 unexpected bytes")
    rejected(patched(base, 16, "<I", 0), 0, f"{size} unexpected bytes")


@pytest.mark.parametrize("header_size", [0, 34, 90, 0xFFFC])
def test_bad_header_size(base: bytes, header_size: int) -> None:
    rejected(patched(base, 10, "<H", header_size), 10, f"header size {header_size} is invalid")


@pytest.mark.parametrize("arcs", [0, 1, 1 << 24])
def test_arc_count_out_of_range(base: bytes, arcs: int) -> None:
    rejected(patched(base, 28, "<I", arcs), 28, f"arc count {arcs} is out of range")


def test_arc_count_not_fitting_the_size(base: bytes) -> None:
    arcs = parse(base).arc_count
    rejected(patched(base, 28, "<I", arcs - 1), 28, f"arc count {arcs - 1} does not fit")


@pytest.mark.parametrize("size", [0, 64, 255])
def test_alphabet_size_out_of_range(base: bytes, size: int) -> None:
    rejected(patched(base, 32, "<B", size), 32, f"alphabet size {size} is out of range")


@pytest.mark.parametrize("longest", [0, 33, 255])
def test_longest_word_out_of_range(base: bytes, longest: int) -> None:
    rejected(patched(base, 33, "<B", longest), 33, f"longest word {longest} is out of range")


def test_reserved_byte(base: bytes) -> None:
    rejected(patched(base, 35, "<B", 1), 35, "reserved header byte is 1")


@pytest.mark.parametrize("length", [0, 9])
def test_alphabet_entry_length(base: bytes, length: int) -> None:
    info = parse(base)
    at = info.alphabet_offsets[3]
    rejected(patched(base, at, "<B", length), at, f"alphabet letter 4 has length {length}")


def test_alphabet_runs_past_the_header(base: bytes) -> None:
    info = parse(base)
    at = info.alphabet_offsets[25]  # 'Z' at 86: length 8 reaches past the 92-byte header
    rejected(patched(base, at, "<B", 8), at, "alphabet letter 26 runs past the header")


def test_name_runs_past_the_header(base: bytes) -> None:
    rejected(patched(base, 34, "<B", 5), 34, "source name runs past the header")


# ---- structural damage with a correct checksum ---------------------------------------------------


@pytest.mark.parametrize("value", [0xFF, 0x80, 0xC0])
def test_bad_utf8_in_the_alphabet(base: bytes, value: int) -> None:
    info = parse(base)
    at = info.alphabet_offsets[2] + 1
    rejected(patched(base, at, "<B", value, fix_crc=True), at, "alphabet letter 3 is not valid UTF-8")
    # and without the CRC recomputed the same damage is found first (the header is checked first)
    rejected(patched(base, at, "<B", value), at, "not valid UTF-8")


def test_bad_utf8_in_the_name(base: bytes) -> None:
    rejected(patched(base, 89, "<B", 0xFF, fix_crc=True), 88, "source name is not valid UTF-8")


def test_duplicate_alphabet_letters(base: bytes) -> None:
    info = parse(base)
    at = info.alphabet_offsets[1] + 1  # 'B' -> 'A'
    rejected(patched(base, at, "<B", ord("A"), fix_crc=True), at, "alphabet letter 2 repeats letter 1")


@pytest.mark.parametrize("at", [90, 91])
def test_nonzero_header_padding(base: bytes, at: int) -> None:
    rejected(patched(base, at, "<B", 7, fix_crc=True), at, "header padding byte is 7")


@pytest.mark.parametrize(
    "letters, offset_index",
    [
        ("Aa", 1),  # the C loader sees distinct bytes; both are 'A' to the Python alphabet
        ("A?", 1),  # '?' is the blank and cannot be a letter
    ],
)
def test_alphabet_the_python_layer_cannot_use(letters: str, offset_index: int) -> None:
    data, _ = build_gaddag(["A"], Alphabet(letters[0]), name="")
    # hand-build a two-letter alphabet: rewrite the header with the entries given
    info = parse(data)
    header = bytearray(data[: info.header_size])
    entries = b"".join(bytes([len(c.encode())]) + c.encode() for c in letters)
    header[32] = len(letters)
    new_header = bytes(header[:FIXED_HEADER]) + entries
    new_header += bytes(-len(new_header) % 4)
    arcs = data[info.header_size : -4]
    out = bytearray(new_header + arcs + b"\0\0\0\0")
    struct.pack_into("<H", out, 10, len(new_header))
    struct.pack_into("<I", out, 16, len(out))
    error = rejected(with_crc(out), FIXED_HEADER + 2 * offset_index, "the alphabet cannot be used")
    assert not isinstance(error, AlphabetError)


def test_entry_arc(base: bytes) -> None:
    info = parse(base)
    for arc in (
        Arc(0, True, False, 2),
        Arc(1, True, False, 1),
        Arc(0, False, False, 1),
        Arc(0, True, True, 1),
    ):
        rejected(set_arc(base, 0, arc), info.arc_offset(0), "arc 0 is not the entry arc")


@pytest.mark.parametrize("child", ["arc count", "max"])
def test_child_index_out_of_range(base: bytes, child: str) -> None:
    info = parse(base)
    i = find_arc(info, lambda i, a: a.child != 0)
    target = info.arc_count if child == "arc count" else 0xFFFFFF
    damaged = set_arc(base, i, Arc(info.arcs[i].letter, info.arcs[i].last, info.arcs[i].accepts, target))
    rejected(damaged, info.arc_offset(i), f"arc {i}: child index {target} is out of range")


def test_child_pointing_backwards_makes_a_cycle(base: bytes) -> None:
    info = parse(base)
    # an arc in the middle of a list, pointed back at its own list's start: a real cycle
    starts = sorted(list_starts(info))
    start = next(s for s in starts if len(sibling_list(info.arcs, s)) >= 2)
    i = sibling_list(info.arcs, start)[1]
    arc = info.arcs[i]
    damaged = set_arc(base, i, Arc(arc.letter, arc.last, arc.accepts, start))
    rejected(damaged, info.arc_offset(i), f"arc {i}: child index {start} is out of range")
    # the arc pointing at itself
    damaged = set_arc(base, i, Arc(arc.letter, arc.last, arc.accepts, i))
    rejected(damaged, info.arc_offset(i), f"child index {i} is out of range")
    # without the CRC recomputed the checksum catches it first
    rejected(
        set_arc(base, i, Arc(arc.letter, arc.last, arc.accepts, i), fix_crc=False), len(base) - 4, "checksum"
    )


def test_unsorted_siblings(base: bytes) -> None:
    info = parse(base)
    i = find_arc(info, lambda i, a: not a.last and a.letter != SEPARATOR)
    following = info.arcs[i + 1]
    arc = info.arcs[i]
    # equal letters
    damaged = set_arc(base, i, Arc(following.letter, arc.last, arc.accepts, arc.child))
    rejected(damaged, info.arc_offset(i + 1), f"arc {i + 1}: sibling letters are not in increasing order")
    # swapped letters
    swapped = set_arc(base, i, Arc(following.letter, arc.last, arc.accepts, arc.child))
    swapped = set_arc(swapped, i + 1, Arc(arc.letter, following.last, following.accepts, following.child))
    rejected(swapped, info.arc_offset(i + 1), "not in increasing order")


@pytest.mark.parametrize("letter", [27, 63])
def test_letter_beyond_the_alphabet(base: bytes, letter: int) -> None:
    info = parse(base)
    i = find_arc(info, lambda i, a: a.last and a.letter != SEPARATOR)
    arc = info.arcs[i]
    damaged = set_arc(base, i, Arc(letter, arc.last, arc.accepts, arc.child))
    rejected(damaged, info.arc_offset(i), f"arc {i}: letter code {letter} is outside the alphabet (1..26)")


def test_separator_arc_that_accepts(base: bytes) -> None:
    info = parse(base)
    i = find_arc(info, lambda i, a: a.letter == SEPARATOR)
    arc = info.arcs[i]
    damaged = set_arc(base, i, Arc(SEPARATOR, arc.last, True, arc.child))
    rejected(damaged, info.arc_offset(i), f"arc {i}: a separator arc must have a child and cannot accept")
    damaged = set_arc(base, i, Arc(SEPARATOR, arc.last, True, 0))
    rejected(damaged, info.arc_offset(i), "separator arc must have a child")


def test_dead_arc(base: bytes) -> None:
    info = parse(base)
    i = find_arc(info, lambda i, a: a.child != 0 and a.letter != SEPARATOR)
    arc = info.arcs[i]
    damaged = set_arc(base, i, Arc(arc.letter, arc.last, False, 0))
    rejected(damaged, info.arc_offset(i), f"arc {i} leads nowhere")


def test_missing_last_flag_at_the_end(base: bytes) -> None:
    info = parse(base)
    last = info.arc_count - 1
    arc = info.arcs[last]
    damaged = set_arc(base, last, Arc(arc.letter, False, arc.accepts, arc.child))
    rejected(damaged, info.arc_offset(last), f"arc {last}, the last one, does not end its sibling list")


@pytest.mark.parametrize("delta", [-1, 1, 1000])
def test_wrong_word_count(base: bytes, delta: int) -> None:
    words = parse(base).word_count
    rejected(
        patched(base, 20, "<I", words + delta, fix_crc=True),
        20,
        f"word count {words + delta} does not match the {words} words",
    )


@pytest.mark.parametrize("delta", [-1, 1])
def test_wrong_state_count(base: bytes, delta: int) -> None:
    states = parse(base).state_count
    rejected(
        patched(base, 24, "<I", states + delta, fix_crc=True),
        24,
        f"state count {states + delta} does not match the {states} sibling lists",
    )


@pytest.mark.parametrize("delta", [-1, 1])
def test_wrong_longest_word(base: bytes, delta: int) -> None:
    longest = parse(base).max_word_length
    assert longest == 6
    rejected(
        patched(base, 33, "<B", longest + delta, fix_crc=True),
        33,
        f"longest word {longest + delta} does not match the {longest} letters",
    )


def test_accept_flag_removed_is_caught_by_the_word_count(base: bytes) -> None:
    """A structurally valid file that spells one word fewer: only the word count can tell.
    The root list's arc for A accepts (the word "A") and has a child (ZA, TA...)."""
    info = parse(base)
    root = sibling_list(info.arcs, 1)
    i = next(i for i in root if info.arcs[i].letter == 1)
    arc = info.arcs[i]
    assert arc.accepts and arc.child
    damaged = set_arc(base, i, Arc(arc.letter, arc.last, False, arc.child))
    assert words_of(damaged) == words_of(base) - {(1,)}
    words = len(BASE_WORDS)
    rejected(damaged, 20, f"word count {words} does not match the {words - 1} words")
    # with the word count corrected as well, the file is valid and "A" is gone
    fixed = patched(damaged, 20, "<I", words - 1, fix_crc=True)
    lexicon = Lexicon.load(fixed)
    assert "A" not in lexicon and "ZA" in lexicon and lexicon.stats.words == words - 1


# ---- random damage never crashes -----------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_base() -> bytes:
    data, _ = build_gaddag(BASE_WORDS + ["ACT", "TACT", "SAT", "ANT"], ENGLISH, name="fz")
    return data


def exercise(lexicon: Lexicon) -> None:
    """Run every query on a lexicon that loaded; check what can be checked on any valid file."""
    letters = lexicon.alphabet.letters
    all_words: set[str] = set()
    for length in range(1, lexicon.stats.max_word_length + 1):
        found = lexicon.pattern("." * length)
        assert all(len(lexicon.alphabet.split(w)) == length for w in found)
        all_words.update(found)
    # the loader counted the separator-free accepting paths; an all-wildcard pattern walks them
    assert len(all_words) == lexicon.stats.words
    lengths = [len(lexicon.alphabet.split(w)) for w in all_words]
    assert max(lengths) == lexicon.stats.max_word_length
    for word in sorted(all_words)[:20]:
        assert word in lexicon
    rack = "".join(letters[k % len(letters)] for k in range(5))
    for query in (rack, rack + "?", "??"):
        for partial in (False, True):
            for word in lexicon.anagrams(query, partial=partial):
                assert word.upper() in all_words
    for letter in letters[:6]:
        lexicon.containing(letter)
        lexicon.containing(letter * 2)
        lexicon.pattern("." + letter + ".")
    assert "ZZZZ" not in lexicon or "ZZZZ" in all_words


@settings(max_examples=300, deadline=None)
@given(
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), min_size=1, max_size=6),
    fix_crc=st.booleans(),
)
def test_random_byte_flips_never_crash(fuzz_base: bytes, flips, fix_crc: bool) -> None:
    damaged = bytearray(fuzz_base)
    for position, xor in flips:
        damaged[position % (len(damaged) - (4 if fix_crc else 0))] ^= xor
    if fix_crc:
        damaged = bytearray(with_crc(damaged))
    changed = bytes(damaged) != fuzz_base
    try:
        lexicon = Lexicon.load(bytes(damaged))
    except LexiconFormatError as error:
        assert error.offset is not None and 0 <= error.offset <= len(damaged)
        return
    # a change the CRC was not told about is always caught (up to a 2**-32 collision)
    assert fix_crc or not changed
    exercise(lexicon)
    if lexicon.stats.words < 5000:
        oracle_words = {lexicon.alphabet.decode(w) for w in words_of(bytes(damaged))}
        assert {w for n in range(1, 33) for w in lexicon.pattern("." * n)} == oracle_words


@settings(max_examples=400, deadline=None)
@given(
    flips=st.lists(
        st.tuples(st.integers(1, 10**6), st.sampled_from([0, 0, 0, 1, 2, 3]), st.integers(0, 7)),
        min_size=1,
        max_size=4,
    )
)
def test_random_arc_damage_with_counts_repaired(fuzz_base: bytes, flips) -> None:
    """Bits flipped in the arcs, then word count, state count, longest word and CRC recomputed by
    the reference reader, so the structural checks decide; whatever loads must answer queries
    without crashing, and its words must be what the reference reader reads."""
    info = parse(fuzz_base)
    damaged = bytearray(fuzz_base)
    for arc, byte, bit in flips:
        damaged[info.arc_offset(1 + arc % (info.arc_count - 1)) + byte] ^= 1 << bit
    damaged = repair_counts(bytes(damaged))
    try:
        lexicon = Lexicon.load(damaged)
    except LexiconFormatError as error:
        if parse(damaged).max_word_length == 0:
            # the damage left no word, so the repaired header (longest word 0) is what is refused
            assert 0 <= error.offset < info.header_size, str(error)
        else:
            assert info.header_size <= error.offset < len(damaged), str(error)
        return
    exercise(lexicon)
    oracle_words = {lexicon.alphabet.decode(w) for w in words_of(damaged)}
    assert {w for n in range(1, 33) for w in lexicon.pattern("." * n)} == oracle_words
    assert all(w in lexicon for w in oracle_words)
    assert lexicon.stats.words == len(oracle_words)


def test_every_single_byte_flip_with_crc_fixed(fuzz_base: bytes) -> None:
    """Each byte flipped (all bits at once and the low bit), CRC recomputed: clean load or error."""
    loaded = 0
    for position in range(len(fuzz_base) - 4):
        for xor in (0xFF, 0x01):
            damaged = bytearray(fuzz_base)
            damaged[position] ^= xor
            try:
                lexicon = Lexicon.load(with_crc(damaged))
            except LexiconFormatError as error:
                assert error.offset is not None
                continue
            loaded += 1
            exercise(lexicon)
    assert loaded > 0  # some flips (e.g. alphabet letters, the name) give another valid file


# ---- what Lexicon.load accepts -------------------------------------------------------------------


def test_load_accepts_paths_and_buffers(base: bytes, tmp_path: Path) -> None:
    path = tmp_path / "base.gaddag"
    path.write_bytes(base)
    misaligned = memoryview(b"x" + base)[1:]
    sources = {
        "path": path,
        "str": str(path),
        "bytes": base,
        "bytearray": bytearray(base),
        "memoryview": memoryview(base),
        "misaligned memoryview": misaligned,
        "misaligned by 2": memoryview(b"xy" + base)[2:],
        "readonly bytearray view": memoryview(bytearray(base)).toreadonly(),
        "memoryview of 32-bit items": memoryview(base).cast("I"),
    }
    for label, source in sources.items():
        lexicon = Lexicon.load(source)
        assert lexicon.stats.words == len(BASE_WORDS), label
        assert all(w in lexicon for w in BASE_WORDS), label
        assert lexicon.anagrams("TAC") == ["CAT"], label
        assert lexicon.source == (str(path) if label in ("path", "str") else None), label


def test_path_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.gaddag"
    path.write_bytes(b"hello, not a lexicon at all")
    with pytest.raises(LexiconFormatError) as caught:
        Lexicon.load(path)
    assert str(caught.value).startswith(f"{path}: not a .gaddag file")
    assert caught.value.source == str(path)
    with pytest.raises(OSError):
        Lexicon.load(tmp_path / "missing.gaddag")


def test_buffer_changed_after_load_is_not_used(base: bytes) -> None:
    """The arcs are walked in place after one validation: a bytearray the caller changes
    afterwards must not reach the C walkers (it used to crash the interpreter)."""
    buffer = bytearray(base)
    lexicon = Lexicon.load(buffer)
    info = parse(base)
    for i in range(1, info.arc_count):
        struct.pack_into("<I", buffer, info.arc_offset(i), (0xFFFFFF << 8) | 1)
    assert lexicon.containing("A") == sorted(w for w in BASE_WORDS if "A" in w)
    assert "CAT" in lexicon


def test_redirected_arcs_never_load_a_language_larger_than_the_header_allows(base: bytes) -> None:
    """Redirect every arc to every later list start, with counts and CRC repaired so only the
    new bound can object: whatever loads spells no string longer than a word plus separator,
    and no more strings than words × longest word — so no query can run away."""
    info = parse(base)
    starts = sorted(list_starts(info))
    loaded = refused_by_bound = 0
    for index in range(1, info.arc_count):
        arc = info.arcs[index]
        for start in starts:
            if start <= index or start == arc.child:
                continue
            mutated = repair_counts(set_arc(base, index, dataclasses.replace(arc, child=start)))
            try:
                Lexicon.load(mutated)
            except LexiconFormatError as error:
                refused_by_bound += "the arcs spell" in error.reason
                continue
            loaded += 1
            header = parse(mutated)
            strings = accepted_strings(header)
            assert max(len(s) for s in strings) <= header.max_word_length + 1
            assert len(strings) <= header.word_count * header.max_word_length
    assert loaded > 0 and refused_by_bound > 0, (loaded, refused_by_bound)
