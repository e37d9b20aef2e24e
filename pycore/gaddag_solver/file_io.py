"""Files in and out, bounded and whole: inputs read up to a cap, outputs checked before the work
and written to a temporary name renamed into place (docs/files.md).

The lowest layer of the package (the standard library only), so the formats, the rules and the
CLI can all use it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

MIB = 1 << 20

# The most each kind of text input may hold: far above any real one, far below what hurts.
RULES_CAP = 1 * MIB  # a ruleset is a few kB
BOARD_CAP = 1 * MIB  # a board grid (21 x 21 at most) is under 2 kB
GCG_CAP = 4 * MIB  # a game with long notes is tens of kB
POSITION_LINE_CAP = 1 * MIB  # one CGP line of a --batch file (the file itself is streamed)
LEAVES_CAP = 256 * MIB  # the English table as CSV is 11 MB, Polish several times that
WORD_LIST_CAP = 256 * MIB  # the biggest list (Polish, every form) is about 60 MB
ARCHIVE_CAP = 512 * MIB  # a downloaded word-list archive


def _mib(limit: int) -> str:
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"


def too_large(name: str, limit: int, what: str) -> str:
    """The message for an input over its cap."""
    return f"{name} is larger than {_mib(limit)}, the most a {what} may be"


def read_capped(
    path: str | os.PathLike[str], limit: int, what: str, error: type[Exception] = ValueError
) -> bytes:
    """The bytes of a file ('-': standard input), refused with ``error`` naming the file and the
    cap when it holds more than ``limit`` bytes. At most ``limit + 1`` bytes are read, whatever
    the file is (/dev/zero, a pipe, a sparse file): its size is never trusted. OSError when it
    cannot be read."""
    if os.fspath(path) == "-":
        stdin: Any = sys.stdin
        data = read_stream_capped(getattr(stdin, "buffer", stdin), limit)
        name = "standard input"
    else:
        with open(path, "rb") as handle:
            data = read_stream_capped(handle, limit)
        name = os.fspath(path)
    if len(data) > limit:
        raise error(too_large(name, limit, what))
    return data


def read_stream_capped(handle: IO[Any], limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of an open stream (more than ``limit``: the input is too large)."""
    chunks = []
    left = limit + 1
    try:  # a regular file's size, as a hint only: one read, one buffer, when it is right
        hint = os.fstat(handle.fileno()).st_size
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        hint = 0
    if hint > 0:
        chunks.append(handle.read(min(hint, limit) + 1))
        left -= len(chunks[0])
    while left > 0:
        chunk = handle.read(min(left, 8 * MIB))
        if not chunk:
            break
        if isinstance(chunk, str):  # a text stream standing in for stdin (tests)
            chunk = chunk.encode()
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


# ---- outputs ------------------------------------------------------------------------------------


def output_problem(path: str | os.PathLike[str], device_ok: bool = True) -> str | None:
    """Why ``path`` cannot be the file to write (checked before the work, so hours of it are not
    lost at the end), or None: a folder, a folder that does not exist (not created: a mistyped
    path should not make folders), or one this process may not write in; with ``device_ok``
    false, anything but a regular file (for an output that lives beside others, a checkpoint)."""
    target = Path(path)
    if target.is_dir():
        return "is a folder; give the file to write"
    if target.exists() and not target.is_file():  # a device or a pipe (/dev/null, /dev/stdout)
        if not device_ok:
            return "is not a regular file"
        return None if os.access(target, os.W_OK) else "cannot write: Permission denied"
    folder = target.parent
    if not folder.is_dir():
        return f"the folder {folder} {'is not a folder' if folder.exists() else 'does not exist'}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write in the folder {folder}: Permission denied"
    return None


def check_output(
    path: str | os.PathLike[str],
    error: type[Exception] = ValueError,
    option: str = "",
    device_ok: bool = True,
) -> None:
    """Raise ``error`` ("[OPTION ]PATH: why") when ``path`` cannot be written (see output_problem)."""
    problem = output_problem(path, device_ok)
    if problem is not None:
        raise error(f"{option + ' ' if option else ''}{os.fspath(path)}: {problem}")


def check_output_folder(
    path: str | os.PathLike[str], error: type[Exception] = ValueError, option: str = ""
) -> Path:
    """The folder files will be written into, made now if it does not exist; ``error`` when it is
    a file, or cannot be made or written in."""
    folder = Path(path)
    prefix = f"{option + ' ' if option else ''}{os.fspath(path)}"
    if folder.exists() and not folder.is_dir():
        raise error(f"{prefix}: is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(f"{prefix}: cannot make the folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise error(f"{prefix}: cannot write in the folder: Permission denied")
    return folder


def _named(exc: OSError, path: str | os.PathLike[str]) -> OSError:
    """The error with the file it is about (a failed write names no file: "None: No space left")."""
    return OSError(exc.errno, exc.strerror or str(exc), os.fspath(path))


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8"
) -> Iterator[IO[Any]]:
    """Write ``path`` whole or not at all: into a temporary file in the same folder, renamed over
    ``path`` when the block ends without an exception (and removed when it does not), so a full
    disk or an interrupt leaves the old file (or none), never half a file. A path that is not a
    regular file (a device, a pipe: /dev/full, /dev/stdout) is written directly. Every OSError
    names ``path``. ``mode`` is "w" (text) or "wb"."""
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', not {mode!r}")
    binary = mode == "wb"
    target = Path(os.path.realpath(path))  # through a symlink: replace what it points at
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise _named(exc, path) from None
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise _named(OSError(errno.EISDIR, "is a folder"), path)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        try:
            handle = open(target, mode, **({} if binary else {"encoding": encoding}))
        except OSError as exc:
            raise _named(exc, path) from None
        try:
            with handle:
                yield handle
        except OSError as exc:
            raise _named(exc, path) from None
        return
    temporary, handle = _temporary(target, mode, encoding, path)
    try:
        with handle:
            yield handle
        if existing is not None:  # keep the mode of the file replaced
            os.chmod(temporary, stat.S_IMODE(existing.st_mode))
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise _named(exc, path) from None
        raise


def _temporary(
    target: Path, mode: str, encoding: str | None, path: str | os.PathLike[str]
) -> tuple[Path, IO[Any]]:
    """A new file beside ``target`` (the umask applies, as to a file opened directly)."""
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _named(exc, path) from None
        binary = mode == "wb"
        return temporary, os.fdopen(fd, mode, **({} if binary else {"encoding": encoding}))
    raise _named(OSError(errno.EEXIST, "cannot find a free temporary name"), path)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """:func:`atomic_write` of bytes."""
    with atomic_write(path, "wb") as handle:
        handle.write(data)


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """:func:`atomic_write` of text."""
    with atomic_write(path, "w", encoding) as handle:
        handle.write(text)
