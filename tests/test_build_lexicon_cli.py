"""build_lexicon.py and ``python -m gaddag_solver`` run as subprocesses on temporary files.

What a build wrote is checked with the reference reader (tests/gaddag_reference.py), not with
the package: the words it spells, its header counts, its size.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from gaddag_reference import encode_word, parse, words_of
from gaddag_solver import Lexicon, Rules

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "build_lexicon.py"
ENGLISH = Rules.load("english").alphabet.letters
POLISH = Rules.load("polish").alphabet.letters

WORDS = ["CAT", "CATS", "CATTLE", "TIN", "SIN", "WIN", "A", "QI", "ZA", "OXYPHENBUTAZONE"]


def run_build(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
    )


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gaddag_solver", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def spelled(path: Path, letters: tuple[str, ...]) -> set[str]:
    """The words a written file holds, read by the reference reader."""
    return {"".join(letters[c - 1] for c in w) for w in words_of(path.read_bytes())}


def built_ok(result: subprocess.CompletedProcess[str], output: Path, words: set[str]) -> None:
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert output.is_file()
    assert not output.with_name(output.name + ".partial").exists()
    info = parse(output.read_bytes())
    letters = info.alphabet
    assert spelled(output, letters) == words
    # the statistics line matches the file
    stats = re.search(
        r"words ([\d,]+)  states ([\d,]+)  arcs ([\d,]+) \(([\d,]+) saved by shared list tails\)  "
        r"bytes ([\d,]+)  longest (\d+)",
        result.stderr,
    )
    assert stats, result.stderr
    numbers = [int(g.replace(",", "")) for g in stats.groups()]
    assert numbers[0] == len(words) == info.word_count
    assert numbers[1] == info.state_count
    assert numbers[2] == info.arc_count
    assert numbers[4] == output.stat().st_size
    assert numbers[5] == max(len(encode_word(w, letters)) for w in words) == info.max_word_length
    assert re.search(r"built in \d+\.\d{3} s \(C\), \d+\.\d{3} s in all", result.stderr), result.stderr
    assert f"wrote {output}" in result.stderr
    lexicon = Lexicon.load(output)
    assert all(w in lexicon for w in words)


def write(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path


# ---- input formats -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    folder = tmp_path_factory.mktemp("ref")
    source = write(folder / "words.txt", ("\n".join(WORDS) + "\n").encode())
    output = folder / "ref.gaddag"
    result = run_build(source, "-o", output, "--name", "same")
    built_ok(result, output, set(WORDS))
    assert f"read {len(WORDS)} entries from {source}" in result.stderr
    assert parse(output.read_bytes()).name == "same"
    return output.read_bytes()


FORMATS = {
    "lf.txt": ("\n".join(WORDS) + "\n").encode(),
    "no-final-newline.txt": "\n".join(WORDS).encode(),
    "crlf.txt": ("\r\n".join(WORDS) + "\r\n").encode(),
    "cr-only.txt": ("\r".join(WORDS) + "\r").encode(),
    "mixed-case.txt": "\n".join(w.lower() if i % 2 else w.title() for i, w in enumerate(WORDS)).encode(),
    "bom.txt": b"\xef\xbb\xbf" + "\r\n".join(WORDS).encode(),
    "blank-lines-and-spaces.txt": ("\n\n  " + "  \n\t".join(WORDS) + "\n\n").encode(),
    "duplicates.txt": "\n".join(WORDS + WORDS[::-1] + [w.lower() for w in WORDS]).encode(),
    "words.txt.gz": gzip.compress(("\r\n".join(reversed(WORDS)) + "\r\n").encode(), mtime=0),
    "gz-without-suffix": gzip.compress("\n".join(WORDS).encode(), mtime=0),
    "array.json": json.dumps(WORDS).encode(),
    "array-bom-lower.json": b"\xef\xbb\xbf" + json.dumps([w.lower() for w in WORDS], indent=1).encode(),
}


@pytest.mark.parametrize("file_name", list(FORMATS))
def test_input_formats_give_identical_files(tmp_path: Path, reference: bytes, file_name: str) -> None:
    source = write(tmp_path / file_name, FORMATS[file_name])
    output = tmp_path / "out" / "x.gaddag"
    output.parent.mkdir()  # the builder does not make folders
    result = run_build(source, "-o", output, "--name", "same")
    built_ok(result, output, set(WORDS))
    assert output.read_bytes() == reference


def test_default_name_is_the_output_stem(tmp_path: Path) -> None:
    source = write(tmp_path / "w.txt", b"CAT\n")
    output = tmp_path / "my-words.gaddag"
    built_ok(run_build(source, "-o", output), output, {"CAT"})
    assert parse(output.read_bytes()).name == "my-words"
    assert Lexicon.load(output).name == "my-words"


# ---- what is skipped and reported ----------------------------------------------------------------

BAD_LINES = {3: "C4T", 5: "DØG", 6: "HELLO WORLD", 9: "X-RAY", 10: "ÉCLAIR", 13: "CAT'S", 14: "2"}
LONG_LINES = {4: "ABCDEFGHIJKLMNOP", 11: "PNEUMONOULTRAMICROSCOPIC"}


def messy_list() -> tuple[bytes, set[str]]:
    lines = []
    good = set()
    for number in range(1, 17):
        if number in BAD_LINES:
            lines.append(BAD_LINES[number])
        elif number in LONG_LINES:
            lines.append(LONG_LINES[number])
        elif number == 7:
            lines.append("")  # a blank line still counts as a line
        else:
            word = "AB" + chr(ord("A") + number)
            lines.append(word.lower() if number % 2 else word)
            good.add(word)
    return ("\n".join(lines) + "\n").encode(), good


def test_bad_letters_and_long_words_are_reported(tmp_path: Path) -> None:
    content, good = messy_list()
    source = write(tmp_path / "messy.txt", content)
    output = tmp_path / "messy.gaddag"
    result = run_build(source, "-o", output)
    built_ok(result, output, good)
    assert f"read {16 - 1} entries from {source}" in result.stderr
    bad = re.search(r"skipped (\d+) word\(s\) with letters outside the alphabet, e\.g\. (.*)", result.stderr)
    assert bad, result.stderr
    assert int(bad.group(1)) == len(BAD_LINES) == 7
    shown = [int(n) for n in re.findall(r"line (\d+): ", bad.group(2))]
    assert shown == sorted(BAD_LINES)[:5] == [3, 5, 6, 9, 10]
    assert "line 3: 'C4T' ('4' (position 2) is not a letter of this alphabet)" in bad.group(2)
    assert "line 5: 'DØG' ('Ø' (position 2)" in bad.group(2)
    assert "line 6: 'HELLO WORLD' (' ' (position 6)" in bad.group(2)
    long = re.search(
        r"skipped (\d+) word\(s\) longer than the longest board line, e\.g\. (.*)", result.stderr
    )
    assert long, result.stderr
    assert int(long.group(1)) == 2
    assert long.group(2) == "line 4: ABCDEFGHIJKLMNOP, line 11: PNEUMONOULTRAMICROSCOPIC"


def test_only_cr_and_lf_end_lines(tmp_path: Path) -> None:
    """A form feed, U+0085 or U+2028 inside a line is a bad letter on that line, not a line break
    (str.splitlines would split there and shift every later line number)."""
    content = "CAT\x0cDOG\nPIG\nC4T\nEM\u2028U\nOWL\u2028\r\nB\u0085D\rX1\n".encode()
    source = write(tmp_path / "ff.txt", content)
    output = tmp_path / "ff.gaddag"
    result = run_build(source, "-o", output)
    built_ok(result, output, {"PIG", "OWL"})  # white space around a word is stripped
    shown = re.findall(r"line (\d+): ('[^']*')", result.stderr)
    expected = [(1, "CAT\x0cDOG"), (3, "C4T"), (4, "EM\u2028U"), (6, "B\x85D"), (7, "X1")]
    assert shown == [(str(n), repr(w)) for n, w in expected]


def test_strict_fails_on_bad_letters_and_writes_nothing(tmp_path: Path) -> None:
    content, _ = messy_list()
    source = write(tmp_path / "messy.txt", content)
    output = tmp_path / "strict.gaddag"
    result = run_build(source, "-o", output, "--strict")
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {source}: skipped 7 word(s) with letters outside the alphabet")
    assert "line 3: 'C4T'" in result.stderr
    assert not output.exists() and not list(tmp_path.glob("*.partial"))


def test_strict_allows_only_long_words(tmp_path: Path) -> None:
    source = write(tmp_path / "long.txt", b"CAT\nABCDEFGHIJKLMNOP\n")
    output = tmp_path / "long.gaddag"
    result = run_build(source, "-o", output, "--strict")
    built_ok(result, output, {"CAT"})
    assert (
        "skipped 1 word(s) longer than the longest board line, e.g. line 2: ABCDEFGHIJKLMNOP" in result.stderr
    )


def test_json_positions_are_entries(tmp_path: Path) -> None:
    source = write(tmp_path / "w.json", json.dumps(["CAT", "D0G", "", "B@D"]).encode())
    output = tmp_path / "w.gaddag"
    result = run_build(source, "-o", output)
    built_ok(result, output, {"CAT"})
    assert "entry 2: 'D0G'" in result.stderr and "entry 4: 'B@D'" in result.stderr


# ---- failures ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "file_name, content, message",
    [
        ("empty.txt", b"", "no words to build from (the list is empty)"),
        ("blank.txt", b"\n\n  \r\n", "no words to build from (the list is empty)"),
        ("bom-only.txt", b"\xef\xbb\xbf", "no words to build from (the list is empty)"),
        ("empty.json", b"[]", "no words to build from (the list is empty)"),
        ("empty.gz", gzip.compress(b"", mtime=0), "no words to build from (the list is empty)"),
        ("all-bad.txt", b"C4T\n\nD0G\n", "no words to build from (skipped 2 word(s) with letters outside"),
        ("bad-utf8.txt", b"CAT\nDOG\nD\xffG\nPIG\n", "line 3: not valid UTF-8 (byte 0xff)"),
        ("bad-utf8-crlf.txt", b"CAT\r\n\xe9T\xc9\r\n", "line 2: not valid UTF-8 (byte 0xe9)"),
        ("bad-utf8-cr.txt", b"CAT\rDOG\rD\xffG\r", "line 3: not valid UTF-8 (byte 0xff)"),
        ("bad.json", b'["CAT",\n "DOG",\n DOG]', "line 3, column 2: invalid JSON"),
        ("mixed.json", b'["CAT", 7]', "entry 2 is int, not a string"),
        ("bad.gz", b"\x1f\x8b\x08\x00garbage", "not a valid gzip file"),
    ],
)
def test_failures_exit_nonzero_and_leave_no_file(
    tmp_path: Path, file_name: str, content: bytes, message: str
) -> None:
    source = write(tmp_path / file_name, content)
    output = tmp_path / "out.gaddag"
    result = run_build(source, "-o", output)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(f"error: {source}: "), result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not output.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [file_name]


def test_failed_build_keeps_the_previous_file(tmp_path: Path) -> None:
    output = tmp_path / "keep.gaddag"
    built_ok(run_build(write(tmp_path / "ok.txt", b"CAT\n"), "-o", output), output, {"CAT"})
    before = output.read_bytes()
    result = run_build(write(tmp_path / "empty.txt", b""), "-o", output)
    assert result.returncode == 1
    assert output.read_bytes() == before


def test_missing_input_and_unknown_rules(tmp_path: Path) -> None:
    result = run_build(tmp_path / "nope.txt", "-o", tmp_path / "x.gaddag")
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {tmp_path / 'nope.txt'}: cannot read: No such file or directory")
    result = run_build(write(tmp_path / "w.txt", b"CAT\n"), "-o", tmp_path / "x.gaddag", "--rules", "klingon")
    assert result.returncode == 1
    assert "unknown ruleset 'klingon'" in result.stderr
    assert not (tmp_path / "x.gaddag").exists()
    result = run_build(tmp_path / "w.txt")  # no -o
    assert result.returncode == 2 and "-o/--output" in result.stderr


# ---- other alphabets -----------------------------------------------------------------------------


def test_polish_rules(tmp_path: Path) -> None:
    words = ["ŻÓŁW", "ŹDŹBŁO", "GĘŚ", "ŁĄKA", "KOŃ"]
    # one in NFD, one in lower case: both must become the NFC upper-case letters
    lines = [*words[:3], unicodedata.normalize("NFD", "ŁĄKA"), "koń", "QUIZ", "XYZ"]
    source = write(tmp_path / "pl.txt", "\n".join(lines).encode())
    output = tmp_path / "pl.gaddag"
    result = run_build(source, "-o", output, "--rules", "polish")
    built_ok(result, output, set(words))
    assert parse(output.read_bytes()).alphabet == POLISH
    assert "skipped 2 word(s) with letters outside the alphabet, e.g. line 6: 'QUIZ'" in result.stderr
    assert "line 7: 'XYZ'" in result.stderr


def test_english_rules_reject_polish_letters(tmp_path: Path) -> None:
    source = write(tmp_path / "pl.txt", "ŻÓŁW\nKOT\n".encode())
    output = tmp_path / "en.gaddag"
    result = run_build(source, "-o", output)
    built_ok(result, output, {"KOT"})
    assert "line 1: 'ŻÓŁW' ('Ż' (position 1) is not a letter of this alphabet)" in result.stderr
    assert parse(output.read_bytes()).alphabet == ENGLISH


# ---- python -m gaddag_solver ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    source = write(folder / "w.txt", "\n".join(["CAT", "ACT", "CATS", "TA", "AT", "SCAT", "DOG"]).encode())
    output = folder / "small.gaddag"
    assert run_build(source, "-o", output).returncode == 0
    return output


def test_cli_check(small_lexicon: Path) -> None:
    result = run_cli("check", "CAT", "cat", "--lexicon", small_lexicon)
    assert (result.returncode, result.stdout) == (0, "CAT\tvalid\ncat\tvalid\n")
    result = run_cli("check", "CAT", "DOGS", "C4T", "--lexicon", small_lexicon)
    assert (result.returncode, result.stdout) == (
        1,
        "CAT\tvalid\nDOGS\tnot valid\nC4T\tnot valid ('4' (position 2) is not a letter of this alphabet)\n",
    )
    result = run_cli("check", "DOG", "TAC", "--json", "--lexicon", small_lexicon)
    assert result.returncode == 1 and json.loads(result.stdout) == {"DOG": True, "TAC": False}


def test_cli_words_read_with_their_rulesets_spelling(small_lexicon: Path) -> None:
    """French's accents are read as the plain letter, by --rules or by the list's own ruleset,
    though English is spelled with the same letters and folds nothing; a ruleset of other letters
    is refused with both alphabets named."""
    result = run_cli("check", "été", "école", "--rules", "french")
    assert (result.returncode, result.stdout) == (0, "été\tvalid\nécole\tvalid\n"), result.stderr
    result = run_cli("check", "été", "--lexicon", "wfrench")
    assert (result.returncode, result.stdout) == (0, "été\tvalid\n"), result.stderr
    assert run_cli("anagram", "ÉTÉ", "--rules", "french").stdout.split() == ["ETE", "TEE"]
    result = run_cli("check", "kiwi", "--rules", "spanish")  # no K tile: said why
    assert (result.returncode, result.stdout) == (
        1,
        "kiwi\tnot valid ('K' (position 1) is not a letter of this alphabet)\n",
    )
    result = run_cli("check", "CAT", "--lexicon", small_lexicon, "--rules", "polish")
    assert result.returncode != 0 and "not the polish letters" in result.stderr


def test_cli_anagram(small_lexicon: Path) -> None:
    result = run_cli("anagram", "TAC", "--lexicon", small_lexicon)
    assert (result.returncode, result.stdout) == (0, "ACT\nCAT\n")
    result = run_cli("anagram", "tac", "--partial", "--lexicon", small_lexicon)
    assert result.stdout.split() == ["ACT", "AT", "CAT", "TA"]
    result = run_cli("anagram", "TA?", "--json", "--lexicon", small_lexicon)
    assert json.loads(result.stdout) == ["AcT", "cAT"]
    result = run_cli("anagram", "XYZ", "--lexicon", small_lexicon)
    assert (result.returncode, result.stdout) == (0, "")


def test_cli_pattern_and_containing(small_lexicon: Path) -> None:
    result = run_cli("pattern", "?A.", "--lexicon", small_lexicon)
    assert (result.returncode, result.stdout) == (0, "CAT\n")
    result = run_cli("pattern", "..", "--json", "--lexicon", small_lexicon)
    assert json.loads(result.stdout) == ["AT", "TA"]
    result = run_cli("containing", "CAT", "--lexicon", small_lexicon)
    assert (result.returncode, result.stdout) == (0, "CAT\nCATS\nSCAT\n")
    result = run_cli("containing", "at", "--json", "--lexicon", small_lexicon)
    assert json.loads(result.stdout) == ["AT", "CAT", "CATS", "SCAT"]


def test_cli_errors(small_lexicon: Path, tmp_path: Path) -> None:
    result = run_cli("anagram", "TA1", "--lexicon", small_lexicon)
    assert result.returncode == 1
    assert result.stderr == "error: '1' (position 3) is not a letter of this alphabet\n"
    missing = tmp_path / "missing.gaddag"
    result = run_cli("check", "CAT", "--lexicon", missing)
    assert result.returncode == 1 and result.stderr.startswith(f"error: no lexicon file '{missing}'")
    damaged = bytearray(small_lexicon.read_bytes())
    damaged[-10] ^= 1
    broken = write(tmp_path / "broken.gaddag", bytes(damaged))
    result = run_cli("pattern", "...", "--lexicon", broken)
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {broken}: checksum mismatch")
    assert f"(at byte {len(damaged) - 4})" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_closed_pipe_is_not_an_error(small_lexicon: Path) -> None:
    code = (
        "import subprocess, sys\n"
        f"p = subprocess.Popen([sys.executable, '-m', 'gaddag_solver', 'pattern', '.' * 3, "
        f"'--lexicon', {str(small_lexicon)!r}], stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
        "p.stdout.close()\n"
        "err = p.stderr.read()\n"
        "print(p.wait(), err.decode())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.split(None, 1)[0] == "0", result.stdout
    assert "error" not in result.stdout and "Traceback" not in result.stdout


# ---- where the file goes, and the name it holds (issue 16) -----------------------------------------


def test_output_must_be_a_file_in_a_folder_that_exists(tmp_path: Path) -> None:
    """-o DIR is a clear error that leaves no DIR.partial behind; a folder that does not exist is
    not made (a mistyped path made folders), and a file is not a folder."""
    source = write(tmp_path / "w.txt", b"CAT\n")
    folder = tmp_path / "out"
    folder.mkdir()
    result = run_build(source, "-o", folder)
    assert result.returncode == 1
    assert (
        result.stderr
        == f"error: {folder}: is a folder; give the file to write, e.g. {folder / 'NAME.gaddag'}\n"
    )
    assert not Path(f"{folder}.partial").exists() and list(folder.iterdir()) == []
    missing = tmp_path / "no" / "such" / "x.gaddag"
    result = run_build(source, "-o", missing)
    assert result.returncode == 1
    assert result.stderr == f"error: {missing}: the folder {missing.parent} does not exist (make it first)\n"
    assert not (tmp_path / "no").exists()
    result = run_build(source, "-o", source / "x.gaddag")
    assert result.returncode == 1
    assert result.stderr == f"error: {source / 'x.gaddag'}: the folder {source} is not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "w.txt"]


def test_a_name_over_255_bytes_or_not_utf8_is_refused(tmp_path: Path) -> None:
    """--name is stored whole or refused: it was cut at 255 bytes, and bytes that are not UTF-8
    became '?', without a word."""
    source = write(tmp_path / "w.txt", b"CAT\n")
    output = tmp_path / "x.gaddag"
    built_ok(run_build(source, "-o", output, "--name", "é" * 127 + "x"), output, {"CAT"})  # 255 bytes
    assert Lexicon.load(output).name == "é" * 127 + "x"
    output.unlink()
    result = run_build(source, "-o", output, "--name", "é" * 128)
    assert result.returncode == 1
    assert (
        result.stderr
        == f"error: {source}: the lexicon name is 256 bytes of UTF-8; a lexicon stores at most 255\n"
    )
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(source), "-o", str(output), "--name", b"caf\xe9"],
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert b"the lexicon name 'caf\\udce9' is not valid UTF-8 (at character 4)" in result.stderr
    assert b"Traceback" not in result.stderr
    assert not output.exists()


def test_long_words_are_shown_cut_in_messages(tmp_path: Path) -> None:
    """A 100 KB line is reported by its first 40 characters and its length, not echoed whole."""
    source = write(tmp_path / "w.txt", b"CAT\n" + b"A" * 100_000 + b"\n" + b"B" * 50_000 + b"1\n")
    output = tmp_path / "x.gaddag"
    result = run_build(source, "-o", output)
    built_ok(result, output, {"CAT"})
    assert f"line 2: {'A' * 40}… (100,000 characters)" in result.stderr
    assert f"line 3: '{'B' * 40}… (50,001 characters)' ('1' (position 50001)" in result.stderr
    assert len(result.stderr) < 2000


def test_control_characters_are_not_letters(tmp_path: Path) -> None:
    """Control characters (which str.strip() took for white space at a word's ends) make a word
    bad, reported like any other; spaces, tabs and no-break spaces around a word are stripped."""
    lines = ["CAT", "\x1fDOG", "COW\x0b", "PI\x85G", "H\x00EN", "E\x7fL", " \tOX\u00a0", "ANT\x1c"]
    source = write(tmp_path / "w.txt", "\n".join(lines).encode())
    output = tmp_path / "x.gaddag"
    result = run_build(source, "-o", output)
    built_ok(result, output, {"CAT", "OX"})
    assert "skipped 6 word(s) with letters outside the alphabet" in result.stderr
    assert "line 2: '\\x1fDOG' ('\\x1f' (position 1) is not a letter of this alphabet)" in result.stderr
    assert "line 3: 'COW\\x0b' ('\\x0b' (position 4)" in result.stderr
