"""An independent pure-Python reader of the .gaddag format, written from docs/gaddag-format.md.

It shares no code with the package under test (no C loader, no cffi): it parses the header,
the alphabet, the source name and the arc words with ``struct``, and walks the automaton in
Python. The tests use it as the oracle for what a built file *means*:

* :func:`parse` splits a file into its fields (and checks nothing beyond what it needs to read);
* :func:`accepted_strings` enumerates every string the automaton accepts (0 = separator);
* :func:`gaddag_strings` computes the language a GADDAG of a word list must accept, straight
  from the definition, with no automaton at all;
* :func:`words_of` reads the words back (the separator-free accepted strings, reversed).

Letters are codes 1..n as in the file; words given to :func:`gaddag_strings` are tuples of
codes.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

MAGIC = b"\x89GADDAG\n"
FIXED_HEADER = 36
SEPARATOR = 0

LETTER_MASK = 0x3F
LAST = 1 << 6
ACCEPTS = 1 << 7
CHILD_SHIFT = 8


@dataclass(frozen=True)
class Arc:
    letter: int
    last: bool
    accepts: bool
    child: int

    @classmethod
    def decode(cls, word: int) -> Arc:
        return cls(word & LETTER_MASK, bool(word & LAST), bool(word & ACCEPTS), word >> CHILD_SHIFT)

    def encode(self) -> int:
        return (
            self.letter
            | (LAST if self.last else 0)
            | (ACCEPTS if self.accepts else 0)
            | (self.child << CHILD_SHIFT)
        )


@dataclass(frozen=True)
class GaddagFile:
    version: int
    header_size: int
    flags: int
    file_size: int
    word_count: int
    state_count: int
    arc_count: int
    alphabet_size: int
    max_word_length: int
    name_length: int
    reserved: int
    alphabet: tuple[str, ...]
    alphabet_offsets: tuple[int, ...]  # file offset of each letter's length byte
    name: str
    name_offset: int
    arcs: tuple[Arc, ...]
    crc: int

    @property
    def arcs_offset(self) -> int:
        return self.header_size

    def arc_offset(self, index: int) -> int:
        return self.header_size + 4 * index

    @property
    def crc_offset(self) -> int:
        return self.header_size + 4 * self.arc_count


def parse(data: bytes) -> GaddagFile:
    """Split a (well-formed) file into its fields; raises ValueError if it cannot be read."""
    data = bytes(data)
    if len(data) < FIXED_HEADER or data[:8] != MAGIC:
        raise ValueError("not a .gaddag file")
    (version, header_size, flags, file_size, word_count, state_count, arc_count) = struct.unpack_from(
        "<HHIIIII", data, 8
    )
    alphabet_size, max_word_length, name_length, reserved = struct.unpack_from("<BBBB", data, 32)
    pos = FIXED_HEADER
    letters: list[str] = []
    offsets: list[int] = []
    for _ in range(alphabet_size):
        length = data[pos]
        offsets.append(pos)
        letters.append(data[pos + 1 : pos + 1 + length].decode("utf-8"))
        pos += 1 + length
    name_offset = pos
    name = data[pos : pos + name_length].decode("utf-8")
    if header_size + 4 * arc_count + 4 != len(data):
        raise ValueError("sizes do not add up")
    words = struct.unpack_from(f"<{arc_count}I", data, header_size)
    (crc,) = struct.unpack_from("<I", data, header_size + 4 * arc_count)
    return GaddagFile(
        version=version,
        header_size=header_size,
        flags=flags,
        file_size=file_size,
        word_count=word_count,
        state_count=state_count,
        arc_count=arc_count,
        alphabet_size=alphabet_size,
        max_word_length=max_word_length,
        name_length=name_length,
        reserved=reserved,
        alphabet=tuple(letters),
        alphabet_offsets=tuple(offsets),
        name=name,
        name_offset=name_offset,
        arcs=tuple(Arc.decode(w) for w in words),
        crc=crc,
    )


def crc_ok(data: bytes) -> bool:
    return zlib.crc32(bytes(data[:-4])) == struct.unpack_from("<I", data, len(data) - 4)[0]


def with_crc(data: bytes | bytearray) -> bytes:
    """The same bytes with the trailing CRC-32 recomputed (so structural checks are reached)."""
    out = bytearray(data)
    struct.pack_into("<I", out, len(out) - 4, zlib.crc32(bytes(out[:-4])))
    return bytes(out)


def set_arc(data: bytes, index: int, arc: Arc, fix_crc: bool = True) -> bytes:
    """A copy of the file with arc `index` replaced (and by default the CRC recomputed)."""
    info = parse(data)
    out = bytearray(data)
    struct.pack_into("<I", out, info.arc_offset(index), arc.encode())
    return with_crc(out) if fix_crc else bytes(out)


def sibling_list(arcs: tuple[Arc, ...], start: int) -> list[int]:
    """Indices of the arcs of the sibling list starting at `start` (up to the `last` flag)."""
    out = []
    i = start
    while True:
        out.append(i)
        if arcs[i].last:
            return out
        i += 1


def list_starts(info: GaddagFile) -> set[int]:
    """Distinct sibling-list starts: the root plus every non-zero child."""
    return {info.arcs[0].child} | {a.child for a in info.arcs[1:] if a.child}


def accepted_strings(data: bytes | GaddagFile) -> set[tuple[int, ...]]:
    """Every string the automaton accepts, as tuples of codes (0 = the separator)."""
    info = data if isinstance(data, GaddagFile) else parse(data)
    arcs = info.arcs
    out: set[tuple[int, ...]] = set()
    memo: dict[int, frozenset[tuple[int, ...]]] = {}

    def from_list(start: int, depth: int) -> frozenset[tuple[int, ...]]:
        # the language of the node whose list starts at `start` (suffixes after its parent arc)
        if start in memo:
            return memo[start]
        if depth > 2 * 64:
            raise ValueError("path too long: the automaton is not acyclic")
        found: set[tuple[int, ...]] = set()
        for i in sibling_list(arcs, start):
            arc = arcs[i]
            if arc.accepts:
                found.add((arc.letter,))
            if arc.child:
                found.update((arc.letter, *rest) for rest in from_list(arc.child, depth + 1))
        memo[start] = frozenset(found)
        return memo[start]

    out.update(from_list(arcs[0].child, 0))
    return out


def gaddag_strings(words: Iterable[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """The language of the GADDAG of `words`, from the definition:
    {REV(w[:i]) + (0,) + w[i:] for 1 <= i < n} ∪ {REV(w)}."""
    out: set[tuple[int, ...]] = set()
    for word in words:
        word = tuple(word)
        n = len(word)
        for i in range(1, n):
            out.add(tuple(reversed(word[:i])) + (SEPARATOR,) + word[i:])
        out.add(tuple(reversed(word)))
    return out


def words_of(data: bytes | GaddagFile) -> set[tuple[int, ...]]:
    """The words a file holds: its separator-free accepted strings, read back to front."""
    return {tuple(reversed(s)) for s in accepted_strings(data) if SEPARATOR not in s}


def unshared_arc_count(info: GaddagFile) -> int:
    """Arcs the file would need if no sibling list were stored inside another (entry included)."""
    return 1 + sum(len(sibling_list(info.arcs, start)) for start in list_starts(info))


def encode_word(word: str, alphabet: tuple[str, ...]) -> tuple[int, ...]:
    """Greedy longest-letter-first split of an upper-case word into codes (oracle side)."""
    codes = {letter: i + 1 for i, letter in enumerate(alphabet)}
    longest = max(len(letter) for letter in alphabet)
    out = []
    pos = 0
    while pos < len(word):
        for size in range(min(longest, len(word) - pos), 0, -1):
            if word[pos : pos + size] in codes:
                out.append(codes[word[pos : pos + size]])
                pos += size
                break
        else:
            raise ValueError(f"{word!r}: {word[pos]!r} is not a letter")
    return tuple(out)


def minimal_automaton_size(strings: Iterable[tuple[int, ...]]) -> tuple[int, int]:
    """(states, arcs) of the minimal automaton with accepting *arcs* for a finite language,
    computed from the strings alone: a state is a distinct non-empty right language
    {s : p + s in L, s non-empty} of some prefix p; its arcs are the distinct first letters of
    that language. Arcs do not include the entry arc."""
    language = set(strings)
    quotients: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for s in language:
        for cut in range(len(s)):
            quotients.setdefault(s[:cut], set()).add(s[cut:])
    distinct = {frozenset(q) for q in quotients.values()}
    arcs = sum(len({s[0] for s in q}) for q in distinct)
    return len(distinct), arcs


def repair_counts(data: bytes) -> bytes:
    """A copy of a (possibly damaged) file whose word count, state count, longest word and CRC
    are recomputed from its arcs, so that damage to the arcs alone reaches the loader's
    structural checks and, when those pass, the queries. Returns the data unchanged (CRC
    fixed) when the arcs are not acyclic by index order or do not end with a `last` arc."""
    info = parse(data)
    arcs = info.arcs
    count = info.arc_count
    if not arcs[count - 1].last or arcs[0].child != 1:
        return with_crc(data)
    for index, arc in enumerate(arcs[1:], start=1):
        if arc.child and not index < arc.child < count:
            return with_crc(data)
    # (words, longest) of separator-free accepting paths from each list start, memoized
    memo: dict[int, tuple[int, int]] = {}

    def walk(start: int) -> tuple[int, int]:
        if start not in memo:
            words = longest = 0
            for i in sibling_list(arcs, start):
                arc = arcs[i]
                if arc.letter == SEPARATOR:
                    continue
                if arc.accepts:
                    words += 1
                    longest = max(longest, 1)
                if arc.child:
                    below, deepest = walk(arc.child)
                    words += below
                    if deepest:
                        longest = max(longest, deepest + 1)
            memo[start] = (words, longest)
        return memo[start]

    words, longest = walk(1)
    out = bytearray(data)
    struct.pack_into("<I", out, 20, min(words, 0xFFFFFFFF))
    struct.pack_into("<I", out, 24, len(list_starts(info)))
    out[33] = min(longest, 255)
    return with_crc(out)
