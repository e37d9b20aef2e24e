"""Alphabets: the letters of a ruleset or lexicon and their codes in the C core.

Code 0 is the GADDAG separator; letters are 1..len(letters), in the order given. A letter
is normally one character, but may be a short sequence (a digraph tile such as ``CH``); words
are split greedily, longest letter first.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

MAX_LETTERS = 63
MAX_LETTER_BYTES = 8
BLANK_FLAG = 0x80
_NOT_LETTERS = frozenset({"Cc", "Cf", "Cs"})  # control, format (zero-width...) and surrogate characters


SHOWN_CHARACTERS = 40  # text in a message is cut after this many characters


def shown(text: str) -> str:
    """Text as a message shows it: cut after SHOWN_CHARACTERS characters, with its length, so that
    a word of 100 KB does not make a message of 100 KB."""
    if len(text) <= SHOWN_CHARACTERS:
        return text
    return f"{text[:SHOWN_CHARACTERS]}… ({len(text):,} characters)"


def _script(text: str) -> str | None:
    """The script of a letter from its Unicode name ("LATIN", "CYRILLIC", "GREEK"), or None when
    ``text`` is not a single letter."""
    if len(text) != 1 or not text.isalpha():
        return None
    return unicodedata.name(text, "").split(" ", 1)[0] or None


class AlphabetError(ValueError):
    """A word or letter that the alphabet cannot represent."""


def split_keeping(text: str, separators: Iterable[str]) -> list[str]:
    """Split text at each separator character, keeping each separator as an item of its own
    (``"AB?C"`` at ``"?"`` gives ``["AB", "?", "C"]``), so runs of letters stay whole for
    digraph splitting."""
    out: list[str] = []
    current = ""
    seps = set(separators)
    for char in text:
        if char in seps:
            if current:
                out.append(current)
                current = ""
            out.append(char)
        else:
            current += char
    if current:
        out.append(current)
    return out


def normalize_text(text: str) -> str:
    """Unicode NFC, then upper case: the form letters are compared in."""
    return unicodedata.normalize("NFC", text).upper()


# characters a letter may not hold: what the text formats give a meaning (see Alphabet)
_RESERVED = frozenset("0123456789/#,[]()+-*:;")


class Alphabet:
    """An ordered set of letters with optional folding (e.g. ``Ё`` read as ``Е``)."""

    __slots__ = ("letters", "fold", "_codes", "_multi", "_fold_table")

    def __init__(self, letters: Iterable[str], fold: Mapping[str, str] | None = None) -> None:
        self.letters: tuple[str, ...] = tuple(normalize_text(letter) for letter in letters)
        if not 1 <= len(self.letters) <= MAX_LETTERS:
            raise AlphabetError(f"an alphabet has 1 to {MAX_LETTERS} letters, not {len(self.letters)}")
        self._codes: dict[str, int] = {}
        for index, letter in enumerate(self.letters):
            if not letter or len(letter.encode()) > MAX_LETTER_BYTES:
                raise AlphabetError(f"letter {letter!r} must be 1 to {MAX_LETTER_BYTES} bytes of UTF-8")
            if letter in self._codes:
                raise AlphabetError(f"letter {letter!r} appears twice in the alphabet")
            if letter in ("?", ".") or letter.isspace():
                raise AlphabetError(f"{letter!r} cannot be a letter")
            reserved = sorted({char for char in letter if char in _RESERVED})
            if reserved:
                raise AlphabetError(
                    f"{letter!r} cannot be a letter: {''.join(reserved)!r} has a meaning of its own in "
                    f"boards, CGP, GCG or leave files (digits count empty squares, / ends a row, "
                    f"# starts a pragma, comma separates a leave from its value, brackets hold a "
                    f"letter of several characters)"
                )
            if any(unicodedata.category(char) in _NOT_LETTERS for char in letter):
                raise AlphabetError(f"{letter!r} cannot be a letter: it holds a control or format character")
            if letter.lower() == letter or normalize_text(letter.lower()) != letter:
                raise AlphabetError(
                    f"{letter!r} cannot be a letter: it has no lower case of its own, and a blank "
                    f"played as a letter is written in lower case (in boards, CGP, GCG and moves)"
                )
            self._codes[letter] = index + 1
        self.fold: dict[str, str] = {normalize_text(k): normalize_text(v) for k, v in (fold or {}).items()}
        for source, target in self.fold.items():
            if target not in self._codes:
                raise AlphabetError(f"fold {source!r} -> {target!r}: {target!r} is not a letter")
        self._multi = any(len(letter) > 1 for letter in self.letters)
        self._fold_table = str.maketrans({k: v for k, v in self.fold.items() if len(k) == 1})

    def __len__(self) -> int:
        return len(self.letters)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Alphabet) and self.letters == other.letters

    def __hash__(self) -> int:
        return hash(self.letters)

    def __repr__(self) -> str:
        return f"Alphabet({''.join(self.letters)!r})"

    def code(self, letter: str) -> int:
        """The code (1..n) of one letter, upper or lower case."""
        key = self.normalize(letter)
        try:
            return self._codes[key]
        except KeyError:
            raise AlphabetError(f"{letter!r} is not a letter of this alphabet") from None

    def script_hint(self, char: str) -> str:
        """What to add to "``char`` is not a letter of this alphabet" when ``char`` is a letter of
        another script than the alphabet's (a Latin A typed for Эрудит looks like Cyrillic А):
        ``" ('A' is a Latin letter; these letters are Cyrillic, А to Я)"``, else ``""``."""
        theirs = _script(char)
        ours = {_script(letter) for letter in self.letters}
        if theirs is None or len(ours) != 1 or theirs in ours:
            return ""
        (script,) = ours
        span = f"{self.letters[0]} to {self.letters[-1]}"
        return f" ({char!r} is a {theirs.title()} letter; these letters are {script.title()}, {span})"

    def normalize(self, text: str) -> str:
        """NFC, upper case and folded: how a word is spelled for this alphabet."""
        text = normalize_text(text)
        if self.fold:
            text = text.translate(self._fold_table)
            for source, target in self.fold.items():
                if len(source) > 1:
                    text = text.replace(source, target)
        return text

    def split(self, word: str) -> list[str]:
        """Split an already-normalized word into letters; raises AlphabetError naming the first bad one."""
        if not self._multi:
            for position, char in enumerate(word):
                if char not in self._codes:
                    raise AlphabetError(
                        f"{char!r} (position {position + 1}) is not a letter of this alphabet"
                    )
            return list(word)
        letters: list[str] = []
        position = 0
        longest = max(len(letter) for letter in self.letters)
        while position < len(word):
            for size in range(min(longest, len(word) - position), 0, -1):
                piece = word[position : position + size]
                if piece in self._codes:
                    letters.append(piece)
                    position += size
                    break
            else:
                raise AlphabetError(
                    f"{word[position]!r} (position {position + 1}) is not a letter of this alphabet"
                )
        return letters

    def encode(self, word: str) -> bytes:
        """A word as letter codes; lower-case letters in ``word`` are *not* treated as blanks."""
        return bytes(self._codes[letter] for letter in self.split(self.normalize(word)))

    def decode(self, codes: bytes | Iterable[int]) -> str:
        """Codes back to text; a code carrying BLANK_FLAG is shown in lower case."""
        parts = []
        for code in codes:
            letter = self.letters[(code & ~BLANK_FLAG) - 1]
            parts.append(letter.lower() if code & BLANK_FLAG else letter)
        return "".join(parts)

    @property
    def single_characters(self) -> bool:
        """True when every letter is one character (the common, fast case)."""
        return not self._multi

    def header_bytes(self) -> bytes:
        """The alphabet as stored in a .gaddag header: length byte + UTF-8 per letter."""
        out = bytearray()
        for letter in self.letters:
            raw = letter.encode()
            out.append(len(raw))
            out += raw
        return bytes(out)
