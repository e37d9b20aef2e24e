"""A plain progress bar for long commands: one line on a terminal, redrawn in place."""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 30
MIN_INTERVAL = 0.1  # seconds between redraws


def duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class ProgressBar:
    """``[#####.....]  120/1000 games  85.3 games/s  ETA 10s``, redrawn at most every 0.1 s.
    Call it with (done, total); :meth:`close` ends the line."""

    def __init__(self, unit: str = "items", stream: TextIO | None = None) -> None:
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.perf_counter()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.drawn < MIN_INTERVAL:
            return
        self.drawn = now
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        filled = WIDTH * done // total if total else WIDTH
        eta = duration((total - done) / rate) if rate > 0 else "?"
        line = (
            f"[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} {self.unit}  "
            f"{rate:.1f} {self.unit}/s  ETA {eta}"
        )
        self.stream.write(f"\r{line}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False
