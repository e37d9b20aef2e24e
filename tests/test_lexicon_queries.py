"""Every Lexicon query against brute force over the word list it was built from.

The oracles know nothing of GADDAGs: a word is a tuple of letter codes (split by the reference
module's own greedy splitter), and each query is answered by looking at every word (or, for
anagrams on the full SOWPODS list, by enumerating every multiset the rack can spell).

Blanks: the C search uses a real tile before a blank for the same letter, so which *occurrences*
of a letter are lower case is the implementation's choice. The tests therefore compare the
upper-cased results as sets, and check separately that each result has exactly as many
lower-case copies of each letter as the rack was short of it: max(0, needed - on the rack).
"""

from __future__ import annotations

import random
import re
import struct
import unicodedata
from collections import Counter
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest
from gaddag_reference import MAGIC, SEPARATOR, Arc, accepted_strings, encode_word, gaddag_strings, with_crc
from gaddag_solver import Alphabet, AlphabetError, Lexicon, Rules, build_gaddag
from hypothesis import given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english").alphabet
POLISH = Rules.load("polish").alphabet

SOWPODS_CANDIDATES = [REPO / "lexicons/sources/sowpods.txt"]


# ---- brute force ---------------------------------------------------------------------------------


class Oracle:
    """The word list as tuples of codes, and every query answered by looking at every word."""

    def __init__(self, words: list[str], alphabet: Alphabet) -> None:
        self.alphabet = alphabet
        self.letters = alphabet.letters
        self.codes = {encode_word(self.normalize(w), self.letters) for w in words if w.strip()}

    def normalize(self, text: str) -> str:
        return unicodedata.normalize("NFC", text.strip()).upper()

    def text(self, codes: tuple[int, ...]) -> str:
        return "".join(self.letters[c - 1] for c in codes)

    def sort(self, words: set[tuple[int, ...]]) -> list[str]:
        return [self.text(w) for w in sorted(words)]

    def rack(self, rack: str) -> tuple[Counter[int], int]:
        rack = self.normalize(rack).replace(" ", "")
        blanks = rack.count("?")
        return Counter(encode_word(rack.replace("?", ""), self.letters)), blanks

    def anagrams(self, rack: str, partial: bool) -> set[tuple[int, ...]]:
        have, blanks = self.rack(rack)
        tiles = sum(have.values()) + blanks
        out = set()
        for word in self.codes:
            if not partial and len(word) != tiles:
                continue
            short = sum(max(0, n - have[c]) for c, n in Counter(word).items())
            if short <= blanks:
                out.add(word)
        return out

    def pattern(self, pattern: str) -> set[tuple[int, ...]]:
        pieces = []
        for part in re.split(r"([.?])", self.normalize(pattern)):
            if part in (".", "?"):
                pieces.append(None)
            elif part:
                pieces.extend(encode_word(part, self.letters))
        return {
            w
            for w in self.codes
            if len(w) == len(pieces) and all(p is None or p == c for p, c in zip(pieces, w, strict=True))
        }

    def containing(self, sub: str) -> set[tuple[int, ...]]:
        s = encode_word(self.normalize(sub), self.letters)
        return {w for w in self.codes if any(w[i : i + len(s)] == s for i in range(len(w) - len(s) + 1))}


def check_blank_case(result: list[str], oracle: Oracle, rack: str) -> None:
    """Each word's lower-case letters are exactly the ones the rack had to cover with blanks."""
    have, blanks = oracle.rack(rack)
    for word in result:
        codes = encode_word(word.upper(), oracle.letters)
        needed = Counter(codes)
        lower = Counter(encode_word(ch.upper(), oracle.letters)[0] for ch in word if ch != ch.upper())
        for code, n in needed.items():
            assert lower[code] == max(0, n - have[code]), (word, rack)
        assert sum(lower.values()) <= blanks
        assert all(code in needed for code in lower)


def check_anagrams(lexicon: Lexicon, oracle: Oracle, rack: str, partial: bool) -> list[str]:
    result = lexicon.anagrams(rack, partial=partial)
    expected = oracle.anagrams(rack, partial)
    upper = [w.upper() for w in result]
    assert len(set(upper)) == len(upper), "a word appears twice"
    assert upper == oracle.sort(expected), (rack, partial)
    check_blank_case(result, oracle, rack)
    if "?" not in rack:
        assert result == upper
    return result


def check_all_queries(lexicon: Lexicon, oracle: Oracle, racks, patterns, substrings, absent) -> None:
    for word in oracle.codes:
        text = oracle.text(word)
        assert text in lexicon
        assert text.lower() in lexicon  # lower case is the same word, not blanks
    for word in absent:
        assert (word in lexicon) == (encode_word(word, oracle.letters) in oracle.codes)
    for rack in racks:
        for partial in (False, True):
            check_anagrams(lexicon, oracle, rack, partial)
    for pattern in patterns:
        assert lexicon.pattern(pattern) == oracle.sort(oracle.pattern(pattern)), pattern
    for sub in substrings:
        assert lexicon.containing(sub) == oracle.sort(oracle.containing(sub)), sub


# ---- hand-made lexicons --------------------------------------------------------------------------

SMALL = ["CAT", "CATS", "CATTLE", "ACT", "TACT", "TAT", "AT", "TA", "A", "SCAT", "CASTLE", "TIN", "SIN", "QI"]


@pytest.fixture(scope="module")
def small() -> tuple[Lexicon, Oracle]:
    data, _ = build_gaddag(SMALL, ENGLISH, name="small")
    return Lexicon.load(data), Oracle(SMALL, ENGLISH)


def test_small_lexicon_every_query(small) -> None:
    lexicon, oracle = small
    racks = [
        "CAT",
        "TAC",
        "ACTS",
        "CATTLE",
        "ELTTAC",
        "A",
        "?",
        "??",
        "C?T",
        "?AT",
        "T?",
        "TT?",
        "A??",
        "QI",
        "I?",
    ]
    racks += ["XYZ", "", "E"]
    patterns = [
        "C.T",
        "C?T",
        "...",
        "?",
        ".",
        "..T",
        "A.",
        "C.T.",
        "CATTLE",
        "......",
        "Q.",
        "Z..",
        ".A.",
        "c.t",
    ]
    substrings = ["A", "AT", "CAT", "T", "TT", "LE", "CASTLE", "Q", "Z", "ACT", "CATTLES"]
    absent = ["DOG", "CA", "CATT", "ZZZ", "ATT", "TAA", "QIS"]
    check_all_queries(lexicon, oracle, racks, patterns, substrings, absent)


def test_hand_checked_answers(small) -> None:
    """A few answers worked out by hand, so the brute force itself is checked too."""
    lexicon, _ = small
    assert lexicon.anagrams("TCA") == ["ACT", "CAT"]
    assert lexicon.anagrams("TAC", partial=True) == ["A", "ACT", "AT", "CAT", "TA"]
    assert lexicon.anagrams("C?T") == ["aCT", "CaT"]
    assert lexicon.anagrams("??") == ["at", "qi", "ta"]
    assert lexicon.anagrams("TT?") == ["TaT"]
    assert lexicon.pattern("C.T") == ["CAT"]
    assert lexicon.pattern("?A?") == ["CAT", "TAT"]
    assert lexicon.containing("CAT") == ["CAT", "CATS", "CATTLE", "SCAT"]
    assert lexicon.containing("TT") == ["CATTLE"]
    assert lexicon.containing("LE") == ["CASTLE", "CATTLE"]


def test_blank_stands_for_a_letter_the_rack_lacks(small) -> None:
    lexicon, _ = small
    # T, A and a blank spell TAT (the blank is one of the T's), CAT and ACT (the blank is the C)
    result = lexicon.anagrams("TA?")
    assert sorted(w.upper() for w in result) == ["ACT", "CAT", "TAT"]
    assert {w.upper(): sum(ch.islower() for ch in w) for w in result} == {"ACT": 1, "CAT": 1, "TAT": 1}
    assert "CaT" not in result and "cAT" in result


def test_contains_edge_cases(small) -> None:
    lexicon, _ = small
    assert "CAT" in lexicon and "cat" in lexicon and "Cat" in lexicon
    assert "" not in lexicon
    assert "CAT1" not in lexicon and "ĄA" not in lexicon and "C?T" not in lexicon and "C.T" not in lexicon
    assert "CATTLES" not in lexicon and "CA" not in lexicon
    assert "A" * 40 not in lexicon
    assert 123 not in lexicon and None not in lexicon and b"CAT" not in lexicon


def test_query_argument_errors(small) -> None:
    lexicon, _ = small
    with pytest.raises(AlphabetError):
        lexicon.anagrams("CA1")
    with pytest.raises(AlphabetError, match="255 tiles"):
        lexicon.anagrams("A" * 256)
    with pytest.raises(AlphabetError, match="255 tiles"):
        lexicon.anagrams("?" * 300)
    with pytest.raises(AlphabetError):
        lexicon.pattern("C*T")
    with pytest.raises(AlphabetError):
        lexicon.containing("")
    with pytest.raises(AlphabetError):
        lexicon.containing("Ą")
    assert lexicon.pattern("") == []
    assert lexicon.pattern("." * 40) == []
    assert lexicon.containing("A" * 40) == []
    assert lexicon.anagrams("") == [] and lexicon.anagrams("", partial=True) == []
    assert lexicon.anagrams("C A T") == ["ACT", "CAT"]
    assert lexicon.anagrams("A" * 255) == []  # more tiles than any word: nothing uses them all
    assert lexicon.anagrams("A" * 200 + "T", partial=True) == ["A", "AT", "TA"]


def test_long_rack_with_many_blanks(small) -> None:
    lexicon, oracle = small
    for rack in ("?" * 6, "?" * 7, "CATTLE??", "?" * 20):
        check_anagrams(lexicon, oracle, rack, partial=True)
        check_anagrams(lexicon, oracle, rack, partial=False)


# ---- Polish and other non-ASCII alphabets --------------------------------------------------------

POLISH_WORDS = [
    "ŻÓŁW",
    "ŹDŹBŁO",
    "GĘŚ",
    "GĘŚLA",
    "ŁĄKA",
    "KOŃ",
    "SŁOŃ",
    "ŻÓŁĆ",
    "ĆMA",
    "DŹWIĘK",
    "ŁAK",
    "AŁA",
]


def test_polish_queries() -> None:
    data, _ = build_gaddag(POLISH_WORDS, POLISH, name="pl")
    lexicon, oracle = Lexicon.load(data), Oracle(POLISH_WORDS, POLISH)
    assert "żółw" in lexicon and "ŻÓŁW" in lexicon and "ZOLW" not in lexicon
    assert lexicon.anagrams("WŁÓŻ") == ["ŻÓŁW"]
    assert lexicon.anagrams("GŚ?") == ["GęŚ"]
    assert lexicon.pattern("Ź.ŹB.O") == ["ŹDŹBŁO"]
    # Polish alphabet order, not code point order: Ł (after L) before Ż, A before Ą
    assert lexicon.containing("Ł") == ["AŁA", "ŁAK", "ŁĄKA", "SŁOŃ", "ŹDŹBŁO", "ŻÓŁĆ", "ŻÓŁW"]
    racks = ["ŻÓŁW", "ŁĄKA?", "??", "Ś?G", "ŃOK", "ŹDŹBŁO", "AŁA", "Ł?"]
    patterns = ["...", "Ż...", "?Ó??", "Ł.K", "..Ń", "......"]
    subs = ["Ł", "ŹB", "ÓŁ", "Ń", "Ę", "A"]
    absent = ["ŻÓŁWIE", "GĘ", "ŁAKA", "ĄŁA"]
    check_all_queries(lexicon, oracle, racks, patterns, subs, absent)


def test_digraph_alphabet_queries() -> None:
    alphabet = Alphabet(["A", "CH", "C", "H", "L", "LL", "M", "O"])
    words = ["CHAL", "LLAMA", "CALL", "HOLA", "CHOLLA", "LOCH"]
    data, _ = build_gaddag(words, alphabet, name="dg")
    lexicon, oracle = Lexicon.load(data), Oracle(words, alphabet)
    assert lexicon.pattern("...") == ["CHAL", "CALL", "LOCH"]  # CH and LL are one tile each
    check_all_queries(
        lexicon, oracle, ["CHAL", "LLAAM", "CH?", "??"], ["..", "L.CH", "?O?"], ["LL", "CH", "A"], []
    )


# ---- property test over random lexicons ----------------------------------------------------------

POOL = "ABCDEŻŁĄЖ"


@st.composite
def lexicon_and_queries(draw):
    letters = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=5, unique=True))
    text = "".join(letters)
    words = draw(st.lists(st.text(alphabet=text, min_size=1, max_size=7), min_size=1, max_size=40))
    racks = draw(st.lists(st.text(alphabet=text + "??", max_size=8), min_size=1, max_size=4))
    patterns = draw(st.lists(st.text(alphabet=text + ".?", min_size=1, max_size=8), min_size=1, max_size=4))
    subs = draw(st.lists(st.text(alphabet=text, min_size=1, max_size=4), min_size=1, max_size=4))
    absent = draw(st.lists(st.text(alphabet=text, min_size=1, max_size=8), max_size=6))
    return Alphabet(letters), words, racks, patterns, subs, absent


@settings(max_examples=150, deadline=None)
@given(lexicon_and_queries())
def test_random_lexicons_every_query(case) -> None:
    alphabet, words, racks, patterns, subs, absent = case
    data, _ = build_gaddag(words, alphabet, name="h")
    check_all_queries(Lexicon.load(data), Oracle(words, alphabet), racks, patterns, subs, absent)


# ---- the real thing: SOWPODS ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def sowpods() -> tuple[Lexicon, list[str]]:
    path = next((p for p in SOWPODS_CANDIDATES if p.is_file()), None)
    if path is None:
        pytest.fail("no SOWPODS word list at lexicons/sources/sowpods.txt: run scripts/setup_env.sh")
    words = sorted({w.strip().upper() for w in path.read_text().split() if w.strip()})
    data, report = build_gaddag(words, ENGLISH, name="sowpods")
    assert report.words == len(words)
    return Lexicon.load(data), words


def sowpods_anagrams(index: dict[str, list[str]], rack: str, partial: bool) -> set[str]:
    """Every word whose letters are some sub-multiset of the rack's letters plus at most as many
    other letters as there are blanks (exactly the rack's size when not partial)."""
    letters = Counter(rack.replace("?", ""))
    blanks = rack.count("?")
    keys = sorted(letters)
    found: set[str] = set()
    choices = [range(letters[k] + 1) for k in keys] if partial else [[letters[k]] for k in keys]
    for take in product(*choices):
        base = "".join(k * n for k, n in zip(keys, take, strict=True))
        for used in range(blanks + 1) if partial else [blanks]:
            for extra in combinations_with_replacement("ABCDEFGHIJKLMNOPQRSTUVWXYZ", used):
                signature = "".join(sorted(base + "".join(extra)))
                found.update(index.get(signature, ()))
    return found


def test_sowpods_queries(sowpods) -> None:
    lexicon, words = sowpods
    word_set = set(words)
    rng = random.Random(20240601)
    index: dict[str, list[str]] = {}
    for w in words:
        index.setdefault("".join(sorted(w)), []).append(w)

    assert lexicon.stats.words == len(words)
    assert lexicon.stats.max_word_length == max(map(len, words))

    # membership: every 50th word, lower case too, and near misses
    for w in words[::50]:
        assert w in lexicon and w.lower() in lexicon
    for _ in range(3000):
        w = rng.choice(words)
        i = rng.randrange(len(w))
        miss = w[:i] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + w[i + 1 :]
        assert (miss in lexicon) == (miss in word_set), miss
        assert (w + "Q" in lexicon) == (w + "Q" in word_set)
    assert "QI" in lexicon and "ZA" in lexicon and "XYZZY" not in lexicon

    # anagrams: 30 racks from words' letters, 0-2 blanks, full and partial
    for k in range(30):
        w = rng.choice([x for x in rng.sample(words, 50) if 4 <= len(x) <= 8])
        tiles = list(w)
        rng.shuffle(tiles)
        for b in range(k % 3):
            tiles[b] = "?"
        rack = "".join(tiles)
        for partial in (False, True):
            result = lexicon.anagrams(rack, partial=partial)
            upper = [x.upper() for x in result]
            assert len(set(upper)) == len(upper)
            assert set(upper) == sowpods_anagrams(index, rack, partial), (rack, partial)
            assert upper == sorted(upper)
            if not partial:
                assert w in upper
            have = Counter(rack.replace("?", ""))
            for x in result:
                for letter, n in Counter(x.upper()).items():
                    assert x.count(letter.lower()) == max(0, n - have[letter]), (x, rack)

    # patterns: 30 words with letters replaced by . or ?, plus a few shapes
    by_length: dict[int, str] = {}
    for w in words:
        by_length.setdefault(len(w), [])
        by_length[len(w)].append(w)
    joined = {n: "\n".join(ws) for n, ws in by_length.items()}
    patterns = ["..", "Q.", ".Z.", "?????????????X?", "QI", "CAT", "XYZZY", "." * 15, "." * 16]
    for _ in range(30):
        w = rng.choice(words)
        pattern = "".join(rng.choice(".?") if rng.random() < 0.5 else ch for ch in w)
        patterns.append(pattern.lower() if rng.random() < 0.2 else pattern)
    for pattern in patterns:
        regex = re.compile("^" + pattern.upper().replace("?", ".") + "$", re.MULTILINE)
        expected = regex.findall(joined.get(len(pattern), ""))
        assert lexicon.pattern(pattern) == sorted(expected), pattern

    # containing: 30 substrings of random words, and some that occur nowhere
    subs = ["Q", "ZZ", "QXZ", "JJ", "CAT", "OXYPHENBUTAZONE", "UU"]
    for _ in range(23):
        w = rng.choice(words)
        start = rng.randrange(len(w))
        subs.append(w[start : start + rng.randint(2, 5)])
    for sub in subs:
        assert lexicon.containing(sub) == sorted(w for w in words if sub in w), sub


def complete_language_gaddag(length: int) -> bytes:
    """A hand-made GADDAG of every word of ``length`` letters over {A, B}: 2**length words and
    length·2**length strings from 39 sibling lists (docs/gaddag-format.md). Lists P_i (i letters
    read before the separator, P_0 the root) then S_r (r letters left after it), so every child
    lies after its parent."""
    p_start: dict[int, int] = {}
    s_start: dict[int, int] = {}
    index = 1
    for i in range(length):
        p_start[i] = index
        index += (1 if i else 0) + 2
    for r in range(length - 1, 0, -1):
        s_start[r] = index
        index += 2
    arcs = [Arc(SEPARATOR, True, False, 1)]
    for i in range(length):
        if i:
            arcs.append(Arc(SEPARATOR, False, False, s_start[length - i]))
        for letter in (1, 2):
            full = i + 1 == length
            arcs.append(Arc(letter, letter == 2, full, 0 if full else p_start[i + 1]))
    for r in range(length - 1, 0, -1):
        for letter in (1, 2):
            arcs.append(Arc(letter, letter == 2, r == 1, 0 if r == 1 else s_start[r - 1]))
    alphabet = b"\x01A\x01B"
    name = b"complete"
    header_size = (36 + len(alphabet) + len(name) + 3) // 4 * 4
    size = header_size + 4 * len(arcs) + 4
    head = MAGIC + struct.pack(
        "<HHIIIIIBBBB",
        1,
        header_size,
        0,
        size,
        2**length,
        len(p_start) + len(s_start),
        len(arcs),
        2,
        length,
        len(name),
        0,
    )
    body = (head + alphabet + name).ljust(header_size, b"\0") + struct.pack(
        f"<{len(arcs)}I", *(a.encode() for a in arcs)
    )
    return with_crc(body + b"\0\0\0\0")


def test_a_lexicon_of_more_than_16_million_strings_loads() -> None:
    """Every 20-letter word over {A, B}: 1,048,576 words spelling 20,971,520 strings, more than
    the 24-bit string counter the loader once had (a 3-million-word list of inflected forms
    spells some 33 million; the bound is now 2**26 - 1)."""
    data = complete_language_gaddag(20)
    lexicon = Lexicon.load(data)
    assert lexicon.stats.words == 2**20 and lexicon.stats.max_word_length == 20
    rng = random.Random(7)
    for _ in range(50):
        word = "".join(rng.choice("AB") for _ in range(20))
        assert word in lexicon and word[:-1] not in lexicon and word + "A" not in lexicon
    # the reference reader agrees on the language, on a size it can enumerate
    small = complete_language_gaddag(6)
    assert accepted_strings(small) == gaddag_strings(product((1, 2), repeat=6))
