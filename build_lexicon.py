#!/usr/bin/env python3
"""Build a .gaddag lexicon from a word list.

    python build_lexicon.py INPUT -o OUTPUT.gaddag [--rules english] [--name NAME] [--strict]

INPUT is plain text (one word per line, any case, LF or CRLF, optionally .gz) or a JSON array
of strings. Words with letters outside the ruleset's alphabet are skipped and reported
(--strict makes that an error); words longer than the board's longest line are skipped with a
count. The same words in any order give a byte-identical file.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "pycore"))

from gaddag_solver.cli import build_lexicon_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(build_lexicon_main())
