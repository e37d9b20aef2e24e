"""What the atheris targets share: the repository's tests/ folder on the path (for the tiny
ruleset and the small word list) and the libFuzzer entry point.

Each target is run as a script: ``python tests/fuzz/fuzz_NAME.py [libFuzzer options] [CORPUS...]``
(scripts/fuzz.sh and tests/test_fuzz.py do so). A target calls :func:`fuzz` with a function of
one ``bytes`` input that returns normally when the input is accepted or rejected with the
documented error; anything else it lets escape, and atheris reports it as a finding.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import atheris

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "tests") not in sys.path:
    sys.path.insert(0, str(REPO / "tests"))


def fuzz(test_one_input: Callable[[bytes], None]) -> None:
    """Hand the target to libFuzzer (never returns: libFuzzer exits the process)."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


def text(data: bytes) -> str:
    """The input as text, as a file reader would see it (undecodable bytes replaced)."""
    return data.decode("utf-8", errors="replace")


def forge(data: bytes) -> bytes:
    """The file as a forger would make it: the size field (bytes 16-19 of a .gaddag or .leaves
    header) set to the real size and the trailing CRC-32 recomputed, so that the checks behind
    the checksum (the structure, the counts, the bounds) are what the fuzzer explores."""
    if len(data) < 24:
        return data
    body = bytearray(data[:-4])
    body[16:20] = len(data).to_bytes(4, "little")
    return bytes(body) + zlib.crc32(body).to_bytes(4, "little")
