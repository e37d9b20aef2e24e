"""Lexicons: build a .gaddag file from a word list, load one, and query it.

All queries are answered by the GADDAG in the C core; this module converts between text and
letter codes and keeps the bytes alive.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from . import _core_api as core
from .alphabet import BLANK_FLAG, Alphabet, AlphabetError, split_keeping
from .file_io import output_problem, write_bytes
from .rules import Rules, available_rules
from .wordlist import FilterReport, WordListError, filter_words, read_entries

WILDCARDS = frozenset("?.")
MAX_NAME_BYTES = 255  # the source name a .gaddag header holds (docs/gaddag-format.md)
Log = Callable[[str], None]


class LexiconFormatError(ValueError):
    """A .gaddag file that is not valid. `offset` is the byte the problem was found at."""

    def __init__(self, message: str, offset: int | None = None, source: str | None = None) -> None:
        where = f"{source}: " if source else ""
        at = f" (at byte {offset})" if offset is not None else ""
        super().__init__(f"{where}{message}{at}")
        self.reason = message
        self.offset = offset
        self.source = source


class LexiconBuildError(ValueError):
    """A word list that cannot be turned into a lexicon."""


@dataclass(frozen=True)
class LexiconStats:
    words: int
    states: int
    arcs: int
    bytes: int
    max_word_length: int


class Lexicon:
    """A validated GADDAG lexicon. Create with :meth:`load`."""

    def __init__(self, opened: core.OpenedLexicon, source: str | None, rules: Rules | None = None) -> None:
        self._core = opened
        self.source = source
        self.alphabet = _alphabet_for(opened.alphabet, rules)
        self.name = opened.name
        self.stats = LexiconStats(
            opened.words, opened.states, opened.arcs, opened.size, opened.max_word_length
        )

    @classmethod
    def load(
        cls, source: str | os.PathLike[str] | bytes | bytearray | memoryview, rules: Rules | str | None = None
    ) -> Lexicon:
        """Load and fully validate a lexicon from a path or from the file's bytes.

        `rules` (a Rules or a ruleset name) gives the spelling conventions for queries, such as
        Эрудит's Ё read as Е; without it they come from the shipped rulesets that use the
        same letters. Raises LexiconFormatError (what is wrong and at which byte) for anything
        invalid, AlphabetError if `rules` has other letters, and OSError if a path cannot be read.
        """
        opened, label, ruleset = open_lexicon_file(source, rules, "gaddag")
        try:
            return cls(opened, label, ruleset)
        except AlphabetError as exc:
            # letters the C loader accepts (distinct bytes) but the Python layer cannot use,
            # e.g. "a" next to "A", "?" or a letter that is not NFC
            raise LexiconFormatError(
                f"the alphabet cannot be used: {exc}", _bad_letter_offset(opened), label
            ) from None

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {self.stats.words} words, {self.stats.arcs} arcs>"

    def __len__(self) -> int:
        return self.stats.words

    # ---- conversions -------------------------------------------------------------------------

    def encode(self, word: str) -> bytes:
        """Letter codes of a word; raises AlphabetError for a letter outside the alphabet."""
        return self.alphabet.encode(word)

    def _words(self, raw: bytes) -> list[str]:
        """Decode a query's output: unique words, in alphabet order."""
        found = {chunk for chunk in raw.split(b"\0") if chunk}
        ordered = sorted(found, key=lambda codes: (bytes(c & ~BLANK_FLAG for c in codes), codes))
        return [self.alphabet.decode(codes) for codes in ordered]

    # ---- queries -----------------------------------------------------------------------------

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            codes = self.encode(word)
        except AlphabetError:
            return False
        return core.contains(self._core, codes)

    def anagrams(self, rack: str, partial: bool = False) -> list[str]:
        """Words spelled with the rack's tiles (``?`` is a blank): all of them, or with
        ``partial=True`` any of them. Letters a blank stands for are in lower case."""
        counts = bytearray(64)
        rack = self.alphabet.normalize(rack.replace(" ", ""))
        blanks = rack.count("?")
        letters = self.alphabet.split(rack.replace("?", ""))
        if len(letters) + blanks > 255:
            raise AlphabetError("a rack holds at most 255 tiles")
        counts[0] = blanks
        for letter in letters:
            counts[self.alphabet.code(letter)] += 1
        return self._words(core.anagrams(self._core, bytes(counts), partial))

    def pattern(self, pattern: str) -> list[str]:
        """Words matching a pattern such as ``.A.E``: ``.`` or ``?`` stands for any one letter."""
        codes = bytearray()
        for piece in self._pattern_pieces(pattern):
            codes.append(0 if piece in WILDCARDS else self.alphabet.code(piece))
        return self._words(core.pattern(self._core, bytes(codes)))

    def containing(self, substring: str) -> list[str]:
        """Words that contain `substring` (e.g. the hooks of a word: ``containing("CAT")``)."""
        codes = self.encode(substring)
        if not codes:
            raise AlphabetError("the substring is empty")
        return self._words(core.containing(self._core, codes))

    def _pattern_pieces(self, pattern: str) -> list[str]:
        pieces: list[str] = []
        for part in split_keeping(self.alphabet.normalize(pattern), WILDCARDS):
            pieces.extend([part] if part in WILDCARDS else self.alphabet.split(part))
        return pieces


def open_lexicon_file(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview, rules: Rules | str | None, kind: str
) -> tuple[core.OpenedLexicon, str | None, Rules | None]:
    """Read and validate a lexicon file of `kind` ("gaddag" or "dawg", the same layout) from a
    path or its bytes: ``(opened, the path as text or None, the Rules)``. Raises
    LexiconFormatError, AlphabetError when `rules` has other letters, OSError."""
    if isinstance(rules, str):
        rules = Rules.load(rules)
    if isinstance(source, bytes):
        data, label = source, None
    elif isinstance(source, (bytearray, memoryview)):
        # The arcs are used in place after one validation, so a buffer that can still
        # change (or that is not a flat byte view) is copied first.
        data, label = bytes(source), None
    else:
        path = Path(source)
        label = str(path)
        try:
            data = core.read_checked(path, kind)
        except core.CoreFormatError as exc:
            raise LexiconFormatError(exc.message, exc.offset, label) from None
    try:
        opened = core.open_lexicon(data, kind)
    except core.CoreFormatError as exc:
        raise LexiconFormatError(exc.message, exc.offset, label) from None
    if rules is not None and rules.alphabet.letters != tuple(opened.alphabet):
        raise AlphabetError(
            f"{label or 'the lexicon'} is spelled with {''.join(opened.alphabet)!r}, "
            f"not the {rules.name} letters {''.join(rules.alphabet.letters)!r}"
        )
    return opened, label, rules


def _bad_letter_offset(opened: core.OpenedLexicon) -> int:
    """File offset of the length byte of the first letter that makes the alphabet unusable."""
    for count in range(1, len(opened.alphabet) + 1):
        try:
            Alphabet(opened.alphabet[:count])
        except AlphabetError:
            return int(opened.struct.alphabet_offset[count]) - 1
    return int(opened.struct.alphabet_offset[1]) - 1


@functools.cache
def _shipped_folds() -> dict[tuple[str, ...], dict[str, str]]:
    """For each alphabet of the shipped rulesets, the fold they agree on (none if they differ)."""
    folds: dict[tuple[str, ...], list[dict[str, str]]] = {}
    for name in available_rules():
        alphabet = Rules.load(name).alphabet
        folds.setdefault(alphabet.letters, []).append(alphabet.fold)
    return {letters: found[0] for letters, found in folds.items() if all(f == found[0] for f in found)}


def _alphabet_for(letters: list[str], rules: Rules | None) -> Alphabet:
    if rules is not None:
        return rules.alphabet
    return Alphabet(letters, _shipped_folds().get(tuple(letters)))


# ---- building -----------------------------------------------------------------------------------


@dataclass
class BuildReport:
    """What a build read, kept, dropped and produced."""

    source: str
    name: str
    filter: FilterReport
    words: int
    states: int
    arcs: int
    arcs_unshared: int
    bytes: int
    max_word_length: int
    seconds: float
    build_seconds: float

    def summary_lines(self) -> list[str]:
        saved = self.arcs_unshared - self.arcs
        return [
            f"read {self.filter.entries} entries from {self.source}",
            *self.filter.describe_skips(),
            f"words {self.words:,}  states {self.states:,}  arcs {self.arcs:,} "
            f"({saved:,} saved by shared list tails)  bytes {self.bytes:,}  longest {self.max_word_length}",
            f"built in {self.build_seconds:.3f} s (C), {self.seconds:.3f} s in all",
        ]


def _progress_printer(log: Log | None) -> core.ProgressCallback | None:
    if log is None:
        return None
    last = [0.0]

    def show(phase: str, fraction: float, elapsed: float) -> None:
        # Quiet for builds under a second; then about once a second.
        if elapsed >= 1.0 and elapsed - last[0] >= 1.0:
            last[0] = elapsed
            log(f"  {phase}: {fraction:4.0%} ({elapsed:.0f} s)")

    return show


def build_gaddag(
    words: Iterable[str],
    alphabet: Alphabet,
    *,
    name: str = "",
    max_length: int = 15,
    strict: bool = False,
    source: str = "<words>",
    unit: str = "line",
    log: Log | None = None,
    kind: str = "gaddag",
    on_filtered: Callable[[FilterReport], None] | None = None,
) -> tuple[bytes, BuildReport]:
    """Build .gaddag bytes from words (any case, any order, duplicates allowed); with `kind`
    "dawg", the .dawg file of the same words (docs/dawg.md). ``on_filtered`` hears what was
    kept and skipped before the C build starts (the web page's progress bar)."""
    started = time.perf_counter()
    entries = list(words)
    kept, report = filter_words(entries, alphabet, max_length, unit)
    del entries
    if on_filtered is not None:
        on_filtered(report)
    if strict and report.bad_letters:
        raise LexiconBuildError(f"{source}: " + report.describe_skips()[0])
    if not kept:
        reasons = "; ".join(report.describe_skips()) or "the list is empty"
        raise LexiconBuildError(f"{source}: no words to build from ({reasons})")
    if alphabet.single_characters:
        table = {ord(letter): code for code, letter in enumerate(alphabet.letters, start=1)}
        codes = "\0".join(kept).translate(table).encode("latin-1")
    else:
        codes = b"\0".join(alphabet.encode(word) for word in kept)
    name_bytes = _name_bytes(name, source)
    build_started = time.perf_counter()
    try:
        data, stats = core.build(
            codes, len(alphabet), alphabet.header_bytes(), name_bytes, _progress_printer(log), kind
        )
    except core.CoreBuildError as exc:
        raise LexiconBuildError(f"{source}: {exc}") from None
    finished = time.perf_counter()
    return data, BuildReport(
        source=source,
        name=name,
        filter=report,
        words=stats["words"],
        states=stats["states"],
        arcs=stats["arcs"],
        arcs_unshared=stats["arcs_unshared"],
        bytes=stats["bytes"],
        max_word_length=stats["max_word_length"],
        seconds=finished - started,
        build_seconds=finished - build_started,
    )


def _name_bytes(name: str, source: str) -> bytes:
    """The lexicon name as stored: UTF-8, at most MAX_NAME_BYTES bytes, no NUL; anything else is
    refused (it used to be cut, or spoiled to '?', without a word)."""
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: bytes of a command line that are not UTF-8
        raise LexiconBuildError(
            f"{source}: the lexicon name {name!r} is not valid UTF-8 (at character {exc.start + 1}); "
            "give --name (the default is the output file's name)"
        ) from None
    if "\0" in name:
        raise LexiconBuildError(f"{source}: the lexicon name cannot contain a NUL character")
    if len(encoded) > MAX_NAME_BYTES:
        raise LexiconBuildError(
            f"{source}: the lexicon name is {len(encoded)} bytes of UTF-8; "
            f"a lexicon stores at most {MAX_NAME_BYTES}"
        )
    return encoded


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _check_output(output_path: Path) -> None:
    """Refuse an output that cannot be the file to write: a folder, or a file in a folder that
    does not exist (it is not created: a mistyped path should not make folders)."""
    if output_path.is_dir():
        raise LexiconBuildError(
            f"{output_path}: is a folder; give the file to write, e.g. {output_path / 'NAME.gaddag'}"
        )
    folder = output_path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist (make it first)"
        raise LexiconBuildError(f"{output_path}: the folder {folder} {what}")
    if problem := output_problem(output_path):  # one we may not write in
        raise LexiconBuildError(f"{output_path}: {problem}")


def build_lexicon_file(
    input_path: str | os.PathLike[str],
    output_path: str | os.PathLike[str],
    rules: str = "english",
    name: str | None = None,
    strict: bool = False,
    log: Log | None = _stderr,
    dawg: bool = False,
) -> BuildReport:
    """Read a word list, build its GADDAG for a ruleset's alphabet and board, and write it.
    With `dawg`, also build the DAWG of the same words and write it beside, with the suffix
    .dawg (docs/dawg.md).

    The file is written to a temporary name and renamed, so a failed build never leaves a
    half-written lexicon behind.
    """

    ruleset = Rules.load(rules)
    input_path = Path(input_path)
    output_path = Path(output_path)
    _check_output(output_path)
    try:
        entries, unit = read_entries(input_path)
    except WordListError as exc:
        raise LexiconBuildError(str(exc)) from None
    lexicon_name = name if name is not None else output_path.name.removesuffix(".gaddag")
    outputs = []
    for kind, path in [("gaddag", output_path)] + ([("dawg", dawg_path_for(output_path))] if dawg else []):
        data, built = build_gaddag(
            entries,
            ruleset.alphabet,
            name=lexicon_name,
            max_length=ruleset.longest_line,
            strict=strict,
            source=str(input_path),
            unit=unit,
            log=log,
            kind=kind,
        )
        outputs.append((path, data, built))
    for path, contents, built in outputs:
        _write_whole(path, contents)
        if log:
            for line in built.summary_lines():
                log(line)
            log(f"wrote {path}")
    return outputs[0][2]


def dawg_path_for(gaddag_path: str | os.PathLike[str]) -> Path:
    """Where the DAWG of a .gaddag file lives: beside it, NAME.gaddag -> NAME.dawg."""
    path = Path(gaddag_path)
    return path.with_name(path.name.removesuffix(".gaddag") + ".dawg")


def _write_whole(path: Path, data: bytes) -> None:
    """Write through a temporary name and rename, so a failure leaves no half-written file (a
    device, /dev/full, is written directly, never replaced)."""
    write_bytes(path, data)
