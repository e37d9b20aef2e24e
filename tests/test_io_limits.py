"""Files in and out (issue 28, defects 6, 12 and 13; docs/files.md): every text input is read up
to a cap (or streamed), whatever the file is; every output is checked before the work and
written whole or not at all; a leave CSV's path is a path, commas and all."""

from __future__ import annotations

import errno
import gzip
import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Rules, file_io, wordlist
from gaddag_solver.cli import _positions as positions
from gaddag_solver.cli import main
from gaddag_solver.formats.leaves import Leaves, LeavesError

REPO = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english")
MEMORY = 2 << 30  # the most a command run here may map: /dev/zero read whole would need ~forever
GCG = REPO / "tests" / "data" / "quackle_boys_2006.gcg"


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_cli(*argv: str, stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, under a 2 GiB address-space limit."""
    return subprocess.run(
        [sys.executable, "-m", "gaddag_solver", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        stdin=stdin,
        preexec_fn=limit_memory,
        timeout=120,
    )


@pytest.fixture(scope="module")
def sparse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 300 MiB file of zeros that costs no disk: over every cap but the word list's."""
    path = tmp_path_factory.mktemp("sparse") / "big.csv"
    with open(path, "wb"):
        pass
    os.truncate(path, 300 << 20)
    return path


# ---- defect 6: inputs are capped -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (
            ["review", "/dev/zero", "--lexicon", "{lexicon}"],
            1,
            "/dev/zero is larger than 4 MiB, the most a GCG file",
        ),
        (
            ["solve", "--board", "/dev/zero", "--rack", "A", "--lexicon", "{lexicon}"],
            1,
            "/dev/zero is larger than 1 MiB, the most a board file may be",
        ),
        (
            ["solve", "--rules", "/dev/zero", "--cgp", "x"],
            1,
            "/dev/zero is larger than 1 MiB, the most a ruleset file may be",
        ),
        (
            ["leaves", "import", "/dev/zero", "-o", "{tmp}/out.leaves"],
            2,
            "/dev/zero is larger than 256 MiB, the most a leave CSV file may be",
        ),
        (
            ["solve", "--batch", "/dev/zero", "--lexicon", "{lexicon}"],
            1,
            "/dev/zero: line 1 is longer than 1 MiB, the most a line of a position batch may be",
        ),
        (
            ["endgame", "--board", "/dev/zero", "--rack", "A", "--lexicon", "{lexicon}"],
            1,
            "/dev/zero is larger than 1 MiB, the most a board file may be",
        ),
        (
            ["build", "/dev/zero", "-o", "{tmp}/x.gaddag"],
            1,
            "/dev/zero is larger than 256 MiB, the most a word list may be",
        ),
        (["solve", "--lexicon", "/dev/zero", "--cgp", "x"], 1, "/dev/zero"),
    ],
    ids=["review", "board", "rules", "leaves-csv", "batch", "endgame", "build", "lexicon"],
)
def test_dev_zero_is_refused_in_a_line(
    argv: list[str], status: int, message: str, lexicon_path: str, tmp_path: Path
) -> None:
    """/dev/zero never ends and has no size: each input stops at its cap."""
    done = run_cli(*(arg.format(lexicon=lexicon_path, tmp=tmp_path) for arg in argv))
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == status, done.stderr
    assert done.stderr.startswith("error: ") and message in done.stderr, done.stderr
    assert not (tmp_path / "out.leaves").exists() and not (tmp_path / "x.gaddag").exists()


def test_a_sparse_leave_csv_is_refused(sparse: Path, tmp_path: Path) -> None:
    done = run_cli("leaves", "import", str(sparse), "-o", str(tmp_path / "out.leaves"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == f"error: {sparse} is larger than 256 MiB, the most a leave CSV file may be\n"
    assert list(tmp_path.iterdir()) == []


def test_a_sparse_gcg_is_refused_by_review(sparse: Path, lexicon_path: str) -> None:
    done = run_cli("review", str(sparse), "--lexicon", lexicon_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"error: {sparse} is larger than 4 MiB, the most a GCG file may be\n"


def test_stdin_batch_from_dev_zero(lexicon_path: str) -> None:
    with open("/dev/zero", "rb") as zeros:
        done = run_cli("solve", "--batch", "-", "--lexicon", lexicon_path, stdin=zeros.fileno())
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == (
        "error: standard input: line 1 is longer than 1 MiB, the most a line of a position batch may be\n"
    )


def test_klv2_is_capped(sparse: Path, tmp_path: Path) -> None:
    klv2 = tmp_path / "big.klv2"
    klv2.symlink_to(sparse)
    with pytest.raises(LeavesError, match=r"big.klv2 is larger than 256 MiB, the most a KLV2 file may be$"):
        Leaves.from_klv2(klv2, ENGLISH)


def test_read_capped_reads_one_byte_past_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert file_io.read_capped(path, 10, "test file") == b"x" * 10
    with pytest.raises(ValueError, match=r"f is larger than 9 bytes, the most a test file may be$"):
        file_io.read_capped(path, 9, "test file")
    with open("/dev/zero", "rb") as zeros:
        assert len(file_io.read_stream_capped(zeros, 3 * file_io.MIB)) == 3 * file_io.MIB + 1


def test_a_gzipped_word_list_is_capped_unpacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small .gz may unpack to gigabytes: it is unpacked only up to the cap."""
    monkeypatch.setattr(wordlist, "WORD_LIST_CAP", 1000)
    packed = gzip.compress(b"CAT\n" * 1000)
    assert len(packed) < 1000
    with pytest.raises(
        wordlist.WordListError, match=r"^w.gz \(unpacked\) is larger than .* word list may be$"
    ):
        wordlist.decode_entries(packed, "w.gz")
    assert wordlist.decode_entries(gzip.compress(b"CAT\nDOG\n"), "w.gz") == (["CAT", "DOG", ""], "line")


class Trickle:
    """Standard input that gives its bytes a few at a time, as a pipe does."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.buffer = self
        self.pieces = pieces

    def read1(self, size: int) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""


def test_batch_lines_stream_across_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines split anywhere between reads (a CRLF too, the byte order mark too) come out as the
    whole file's lines would."""
    pieces = [b"\xef\xbb", b"\xbfone\r", b"\ntwo\rthr", b"ee\n\n\xff\n", b"last"]
    monkeypatch.setattr(sys, "stdin", Trickle(pieces))
    lines = list(positions._batch_lines("-"))
    assert lines[:5] == ["one", "two", "three", "", lines[4]] and lines[5:] == ["last"]
    assert isinstance(lines[4], UnicodeDecodeError)
    monkeypatch.setattr(sys, "stdin", Trickle([b"a\r", b"", b"b"]))
    assert list(positions._batch_lines("-")) == ["a"]  # the first empty read is the end
    monkeypatch.setattr(sys, "stdin", Trickle([b"a\r"]))
    assert list(positions._batch_lines("-")) == ["a"]


def test_batch_lines_give_each_line_before_reading_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line is solved as soon as it is complete: what follows it has not been read yet."""
    stdin = Trickle([b"first\nsec", b"ond\n"])
    monkeypatch.setattr(sys, "stdin", stdin)
    lines = positions._batch_lines("-")
    assert next(lines) == "first" and stdin.pieces == [b"ond\n"]
    assert list(lines) == ["second"]


# ---- defect 12: outputs checked first, written whole ---------------------------------------------


def never(*args: object, **kwargs: object) -> None:
    raise AssertionError("the work started although its output cannot be written")


def test_autoplay_checks_its_outputs_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gaddag_solver.game import autoplay

    monkeypatch.setattr(autoplay, "run_autoplay", never)
    missing = tmp_path / "missing" / "x.json"
    assert main(["autoplay", "--games", "2", "--json", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"error: --json {missing}: the folder {missing.parent} does not exist\n"
    )
    assert main(["autoplay", "--games", "2", "--json", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: --json {tmp_path}: is a folder; give the file to write\n"
    a_file = tmp_path / "games"
    a_file.write_text("")
    assert main(["autoplay", "--games", "2", "--gcg-dir", str(a_file)]) == 2
    assert capsys.readouterr().err == f"error: --gcg-dir {a_file}: is not a folder\n"


def test_autoplay_writes_its_files_whole(lexicon_path: str, tmp_path: Path) -> None:
    folder = tmp_path / "new" / "games"  # made, before the games
    done = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "autoplay", "--lexicon", lexicon_path, "--games", "2",
         "--workers", "1", "--players", "greedy,greedy", "--gcg-dir", str(folder),
         "--json", str(tmp_path / "run.json")],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in folder.iterdir()) == ["game-0.gcg", "game-1.gcg"]
    assert (folder / "game-1.gcg").read_text().startswith("#")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["new", "run.json"]  # no temporary left
    done = subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "autoplay", "--lexicon", lexicon_path, "--games", "2",
         "--workers", "1", "--players", "greedy,greedy", "--json", "/dev/full"],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1 and done.stderr.endswith("error: /dev/full: No space left on device\n")


def test_review_batch_checks_its_output_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gaddag_solver.game import review

    monkeypatch.setattr(review, "review_files", never)
    missing = tmp_path / "missing" / "dir" / "x.jsonl"
    assert main(["review", "--batch", str(GCG.parent), "-o", str(missing)]) == 2
    assert capsys.readouterr().err == f"error: -o {missing}: the folder {missing.parent} does not exist\n"


def test_train_leaves_checks_its_output_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gaddag_solver.game import train

    monkeypatch.setattr(train, "train", never)
    assert main(["train-leaves", "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: -o {tmp_path}: is a folder; give the file to write\n"
    assert main(["train-leaves", "-o", "/dev/null"]) == 2  # its checkpoint would go in /dev
    assert capsys.readouterr().err == "error: -o /dev/null: is not a regular file\n"
    assert list(tmp_path.iterdir()) == []


def test_leaves_import_and_export_on_a_full_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "in.csv"
    csv.write_text("?,25\nS,8\n")
    assert main(["leaves", "import", str(csv), "-o", "/dev/full"]) == 2
    assert capsys.readouterr().err == "error: /dev/full: No space left on device\n"
    assert main(["leaves", "export", "sowpods", "-o", "/dev/full"]) == 2
    assert capsys.readouterr().err == "error: /dev/full: No space left on device\n"
    assert main(["leaves", "export", "sowpods", "-o", str(tmp_path / "no" / "out.csv")]) == 2
    assert capsys.readouterr().err == (
        f"error: -o {tmp_path / 'no' / 'out.csv'}: the folder {tmp_path / 'no'} does not exist\n"
    )
    assert main(["leaves", "import", str(csv), "-o", str(tmp_path / "t.leaves")]) == 0
    assert Leaves.load(tmp_path / "t.leaves").value("S") == 8
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.csv", "t.leaves"]


def test_atomic_write_leaves_the_old_file_when_it_fails(tmp_path: Path) -> None:
    path = tmp_path / "table.csv"
    path.write_text("old\n")
    path.chmod(0o640)
    with pytest.raises(OSError) as caught:
        with file_io.atomic_write(path) as handle:
            handle.write("half of the n")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert caught.value.filename == str(path) and caught.value.errno == errno.ENOSPC
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["table.csv"]
    with pytest.raises(KeyboardInterrupt), file_io.atomic_write(path) as handle:
        handle.write("new")
        raise KeyboardInterrupt
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["table.csv"]
    file_io.write_text(path, "new\n")
    assert path.read_text() == "new\n" and (path.stat().st_mode & 0o777) == 0o640
    with pytest.raises(IsADirectoryError) as caught:
        file_io.write_bytes(tmp_path, b"")
    assert caught.value.filename == str(tmp_path)


def test_atomic_write_to_a_device_writes_it(tmp_path: Path) -> None:
    with pytest.raises(OSError) as caught:
        file_io.write_text("/dev/full", "x" * 100_000)
    assert caught.value.filename == "/dev/full" and caught.value.errno == errno.ENOSPC
    assert Path("/dev/full").is_char_device()  # written, not replaced
    file_io.write_bytes("/dev/null", b"fine")


def test_a_write_to_stdout_that_fails_names_it() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "gaddag_solver", "leaves", "export", "sowpods"],
            stdout=full, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120,
        )  # fmt: skip
    assert done.returncode == 1 and done.stderr == "error: standard output: No space left on device\n"


# ---- defect 13: a path is a path --------------------------------------------------------------------


def test_a_csv_named_with_a_comma_is_read_as_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "my,leaves.csv"
    csv.write_text("?,25\nQ,-7.5\n")
    out = tmp_path / "out.leaves"
    assert main(["leaves", "import", str(csv), "-o", str(out)]) == 0, capsys.readouterr().err
    table = Leaves.load(out)
    assert (table.value("?"), table.value("Q"), table.value("E")) == (25, -7.5, 0)
    assert Leaves.from_csv(csv, ENGLISH).to_bytes() == Leaves.from_csv(str(csv), ENGLISH).to_bytes()
    assert Leaves.from_csv(csv, ENGLISH).source == str(csv)


def test_csv_text_goes_through_from_csv_text() -> None:
    table = Leaves.from_csv_text("?,25\nS,8\n", ENGLISH)
    assert (table.value("?"), table.value("S"), table.source) == (25, 8, "<CSV text>")
    with pytest.raises(LeavesError, match=r"^mine: line 1: 'X' is not a number$"):
        Leaves.from_csv_text("S,X\n", ENGLISH, source="mine")
    with pytest.raises(LeavesError, match=r"cannot read: .*\(CSV text goes to Leaves.from_csv_text\)$"):
        Leaves.from_csv("?,25\nS,8\n", ENGLISH)
    with pytest.raises(TypeError):
        Leaves.from_csv(b"?,25\n", ENGLISH)  # type: ignore[arg-type]


def test_a_huge_bad_csv_line_is_not_quoted_whole() -> None:
    with pytest.raises(LeavesError) as caught:
        Leaves.from_csv_text("A" * 100_000 + ",1\n", ENGLISH)
    message = str(caught.value)
    assert message == (
        f"<CSV text>: line 1: leave {'A' * 20!r}… is 100,000 characters long; "
        "a english leave has at most 6 tiles"
    )
    with pytest.raises(LeavesError) as caught:
        Leaves.from_csv_text("\0" * 100_000, ENGLISH)
    assert str(caught.value) == (
        f"<CSV text>: line 1: expected LEAVE,VALUE, found {chr(0) * 30!r}… (100,000 characters)"
    )


def test_stdin_text_stream_stands_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input given as text (a test's StringIO) is read as its UTF-8 bytes."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("abc"))
    assert file_io.read_capped("-", 10, "test file") == b"abc"
