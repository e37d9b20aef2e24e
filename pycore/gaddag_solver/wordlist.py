"""Reading word lists: plain text (one word per line, LF or CRLF, optionally gzipped) or a
JSON array of strings. Words are normalized for an alphabet and filtered, with every word
that is dropped accounted for."""

from __future__ import annotations

import gzip
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .alphabet import Alphabet, AlphabetError, shown
from .file_io import WORD_LIST_CAP, read_capped, read_stream_capped, too_large

EXAMPLES_KEPT = 5
# Line ends: LF, CRLF or a lone CR, and nothing else (str.splitlines would also split at form
# feeds, U+0085, U+2028... and so miscount the line numbers in messages).
LINE_BREAK = re.compile(r"\r\n|\r|\n")
LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


# What is stripped around an entry: spaces and tabs, and Unicode's space, line and paragraph
# separators (Zs, Zl, Zp). str.strip() would also strip control characters (U+001C..U+001F,
# U+0085, vertical tab, form feed) and so take "\x1fCAT" for CAT; here they stay, and the word is
# skipped as a bad one.
BLANKS = "\t \u00a0\u1680\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029"


class WordListError(ValueError):
    """A word list that cannot be read or yields no words."""


@dataclass
class FilterReport:
    """What happened to the input's entries."""

    entries: int = 0  # non-empty lines or JSON strings read
    kept: int = 0  # words passed to the builder (duplicates included)
    bad_letters: int = 0
    bad_examples: list[tuple[int, str, str]] = field(default_factory=list)  # (line, word, reason)
    too_long: int = 0
    too_long_examples: list[tuple[int, str]] = field(default_factory=list)
    unit: str = "line"  # how positions are named: "line" or "entry"

    def describe_skips(self) -> list[str]:
        lines = []
        if self.bad_letters:
            examples = "; ".join(
                f"{self.unit} {n}: {shown(word)!r} ({why})" for n, word, why in self.bad_examples
            )
            lines.append(
                f"skipped {self.bad_letters} word(s) with letters outside the alphabet, e.g. {examples}"
            )
        if self.too_long:
            examples = ", ".join(f"{self.unit} {n}: {shown(word)}" for n, word in self.too_long_examples)
            lines.append(
                f"skipped {self.too_long} word(s) longer than the longest board line, e.g. {examples}"
            )
        return lines


def read_entries(path: str | Path) -> tuple[list[str], str]:
    """The raw entries of a word list, one per line (or JSON element), and their unit name.

    Raises WordListError naming the file and position of anything unreadable, or a file over
    WORD_LIST_CAP.
    """
    path = Path(path)
    try:
        raw = read_capped(path, WORD_LIST_CAP, "word list", WordListError)
    except OSError as exc:
        raise WordListError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return decode_entries(raw, str(path))


def decode_entries(raw: bytes, source: str) -> tuple[list[str], str]:
    """:func:`read_entries` for a file's bytes (a file dropped on the web page); ``source``
    names it in messages. Unpacked, a gzipped list is held to WORD_LIST_CAP too."""
    if len(raw) > WORD_LIST_CAP:
        raise WordListError(too_large(source, WORD_LIST_CAP, "word list"))
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unpacked:
                raw = read_stream_capped(unpacked, WORD_LIST_CAP)
        except (OSError, EOFError) as exc:
            raise WordListError(f"{source}: not a valid gzip file: {exc}") from None
        if len(raw) > WORD_LIST_CAP:
            raise WordListError(too_large(f"{source} (unpacked)", WORD_LIST_CAP, "word list"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = len(LINE_BREAK_BYTES.findall(raw, 0, exc.start)) + 1
        raise WordListError(f"{source}: line {line}: not valid UTF-8 (byte 0x{raw[exc.start]:02x})") from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise WordListError(
                f"{source}: line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}"
            ) from None
        if not isinstance(data, list):
            raise WordListError(f"{source}: a JSON word list must be an array of strings")
        for index, item in enumerate(data):
            if not isinstance(item, str):
                raise WordListError(f"{source}: entry {index + 1} is {type(item).__name__}, not a string")
        return data, "entry"
    return LINE_BREAK.split(text), "line"


def filter_words(
    entries: list[str], alphabet: Alphabet, max_length: int, unit: str = "line"
) -> tuple[list[str], FilterReport]:
    """Normalize entries for `alphabet` and keep those it can spell in at most `max_length` letters.

    Returns the kept words (normalized, duplicates kept) and a report of everything dropped.
    """
    report = FilterReport(unit=unit)
    kept: list[str] = []
    normalized = alphabet.normalize("\n".join(entry.strip(BLANKS) for entry in entries)).split("\n")
    if len(normalized) != len(entries):  # an entry held a line break of its own; go one by one
        normalized = [alphabet.normalize(entry.strip(BLANKS)) for entry in entries]
    simple = alphabet.single_characters
    if simple:
        letters = "".join(alphabet.letters)
        outside = re.compile(f"[^{re.escape(letters)}]")
        everything = "".join(normalized)
        any_bad = outside.search(everything) is not None
    for number, word in enumerate(normalized, start=1):
        if not word:
            continue
        report.entries += 1
        if simple and (not any_bad or outside.search(word) is None):
            length = len(word)
        else:
            try:
                length = len(alphabet.split(word))
            except AlphabetError as exc:
                report.bad_letters += 1
                if len(report.bad_examples) < EXAMPLES_KEPT:
                    report.bad_examples.append((number, entries[number - 1].strip(BLANKS), str(exc)))
                continue
        if length > max_length:
            report.too_long += 1
            if len(report.too_long_examples) < EXAMPLES_KEPT:
                report.too_long_examples.append((number, word))
            continue
        kept.append(word)
    report.kept = len(kept)
    return kept, report
