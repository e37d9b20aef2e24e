"""MAGPIE (github.com/jvc56/MAGPIE) on the same machine, positions, lexicon and leave table as ours.

The benchmark scripts import this (bench/ is on their ``sys.path``) to put MAGPIE's figures
beside their own. It runs what ``bash bench/magpie/build.sh`` builds in bench/magpie/build/:
MAGPIE's release binary, our timing driver linked to MAGPIE's objects (bench/magpie/movegen.c),
and MAGPIE's data with our SOWPODS words and our shipped sowpods leave table converted to its
formats (lexicon CSW_SOWPODS: MAGPIE takes the letter distribution from the name's prefix).
When nothing is built, :func:`magpie_dir` returns None and a script prints :data:`SKIP_MESSAGE`.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

BUILD_DIR = Path(__file__).resolve().parent / "magpie" / "build"
LEXICON = "CSW_SOWPODS"  # our lexicons/sources/sowpods.txt
LEAVES = "CSW_SOWPODS"  # our shipped sowpods table
ZERO_LEAVES = "CSW_SOWPODS_ZERO"  # every leave worth 0
SKIP_MESSAGE = "MAGPIE is not built, so it is left out; build it with: bash bench/magpie/build.sh"


def magpie_dir() -> Path | None:
    """bench/magpie/build/, holding bin/magpie, magpie-movegen, magpie-simulate and data/, or None when any of
    them is missing."""
    needed = [
        BUILD_DIR / "bin" / "magpie",
        BUILD_DIR / "magpie-movegen",
        BUILD_DIR / "magpie-simulate",
        BUILD_DIR / "data" / "lexica" / f"{LEXICON}.kwg",
        BUILD_DIR / "data" / "lexica" / f"{LEAVES}.klv2",
        BUILD_DIR / "data" / "lexica" / f"{ZERO_LEAVES}.klv2",
    ]
    return BUILD_DIR if all(path.is_file() for path in needed) else None


def _require() -> Path:
    folder = magpie_dir()
    if folder is None:
        raise RuntimeError(SKIP_MESSAGE)
    return folder


def movegen(cgp_path: Path, min_ms: float, record: str = "small") -> list[tuple[int, float]]:
    """(plays, µs per generation) for each position of a CGP file, in order, by MAGPIE.

    Only tile placement plays are counted, as our gd_generate counts them; on an empty board
    MAGPIE makes only the across plays (the down ones are the same plays turned), so there it
    finds half of ours. ``record="small"`` times MAGPIE's unsorted all-plays mode (scores, no
    leave values, no exchanges; the closest to gd_generate), ``"all"`` its ``generate``
    command's mode (equity with the leave table, exchanges, a heap, its word map). Timing as in
    bench/movegen.py: batches of at least ``min_ms``, fastest of three."""
    folder = _require()
    completed = subprocess.run(
        [str(folder / "magpie-movegen"), str(folder / "data"), LEXICON, str(cgp_path), str(min_ms)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "MAGPIE_RECORD": record},
    )
    rows = []
    for line in completed.stdout.splitlines():
        fields = line.split()
        if fields and fields[0].isdigit():
            rows.append((int(fields[2]), float(fields[3])))
    return rows


def simulate(
    cgp_path: Path, iterations: int, plies: int, candidates: int, threads: int = 1
) -> list[tuple[int, float]]:
    """(playouts, seconds) for each position of a CGP file, in order, by MAGPIE's simulation.

    Each position: MAGPIE's ``candidates`` best plays by static equity (our sowpods table in
    its format), each simulated ``iterations`` times round robin to ``plies`` plies with no
    stopping rule, on ``threads`` threads, the opponent's rack drawn from the unseen tiles; the
    seed is the position's number. Timed in one process (bench/magpie/simulate.c), so the
    lexicon and table are loaded once and not counted."""
    folder = _require()
    completed = subprocess.run(
        [
            str(folder / "magpie-simulate"),
            str(folder / "data"),
            LEXICON,
            str(cgp_path),
            str(iterations),
            str(plies),
            str(candidates),
            str(threads),
            LEAVES,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in completed.stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0] == "POSITION":
            rows.append((int(fields[2]), float(fields[3])))
    return rows


def _run_autoplay(folder: Path, games: int, seed: int, leaves: bool, threads: int) -> tuple[float, str]:
    command = [
        str(folder / "bin" / "magpie"),
        "autoplay",
        "games",
        str(games),
        "-lex",
        LEXICON,
        "-leaves",
        LEAVES if leaves else ZERO_LEAVES,
        "-s1",
        "equity",
        "-s2",
        "equity",
        "-r1",
        "best",
        "-r2",
        "best",
        "-threads",
        str(threads),
        "-seed",
        str(seed),
        "-gp",
        "false",
        "-hr",
        "true",
        "-savesettings",
        "false",
    ]
    started = time.perf_counter()
    # MAGPIE reads ./data; in build/ there is no settings.txt for it to pick up
    completed = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, completed.stdout


def _count(output: str, label: str) -> int:
    found = re.search(rf"^{label}:\s*(\d+)", output, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"MAGPIE's autoplay output has no {label!r} line:\n{output}")
    return int(found.group(1))


def autoplay(games: int, seed: int, leaves: bool, threads: int = 1) -> dict[str, float | int | str]:
    """MAGPIE's self-play: ``games`` games (no game pairs) between two static equity players
    (each turn the best play by score + leave value + MAGPIE's opening, pre-endgame and endgame
    adjustments), with our sowpods leave table or, ``leaves=False``, one in which every leave is
    worth 0. ``bin/magpie autoplay`` in one process, ``threads`` games at a time.

    ``seconds`` is the wall time around that process less its start-up: the time of a 1-game
    run (loading the lexicon, its word map and the leave table, then one game), the shorter of
    two, is taken off, and one game with it, so ``games_per_s`` is (games - 1) / seconds. Also
    the turns per game and µs per turn."""
    folder = _require()
    if games < 2:
        raise ValueError("autoplay needs at least 2 games: one is taken off with the start-up")
    start_up = min(_run_autoplay(folder, 1, seed, leaves, threads)[0] for _ in range(2))
    elapsed, output = _run_autoplay(folder, games, seed, leaves, threads)
    played = _count(output, "Games Played")
    turns = _count(output, "Turns Played")
    seconds = max(elapsed - start_up, 1e-9)
    rate = (played - 1) / seconds
    return {
        "engine": "MAGPIE",
        "leaves": LEAVES if leaves else ZERO_LEAVES,
        "games": played,
        "threads": threads,
        "seconds": seconds,
        "start_up_s": start_up,
        "games_per_s": rate,
        "turns_per_game": turns / played,
        "us_per_turn": 1e6 * seconds / (turns * (played - 1) / played),
    }


def cpu_model() -> str:
    """The processor's name from /proc/cpuinfo, or "unknown"."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown"
    found = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else "unknown"
