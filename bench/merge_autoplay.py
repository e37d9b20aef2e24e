#!/usr/bin/env python3
"""Merge the JSON summaries of several autoplay runs of the same two players into one table.

    .venv/bin/python bench/merge_autoplay.py RUN.json [RUN.json ...]

A long match is best run as chunks, each with a seed of its own and its own --json (a chunk that
finished is kept when the machine stops; run the missing ones again), for example:

    for k in 0 1 2 3 4 5 6 7; do
      gaddag-solver autoplay --lexicon sowpods --players best:1,equity:sowpods --games 250 \\
          --seed $((3000 + k)) --json chunk-$k.json
    done
    .venv/bin/python bench/merge_autoplay.py chunk-*.json

Wins, draws and losses add up (a draw counts half), with the 95% Wilson interval of the whole.
The spread a game is the chunks' means weighted by their games; its interval pools the chunks'
variances (each read back from its own interval) and the spread between their means.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver.game.stats import Z95, wilson  # noqa: E402


def chunk_sd(player: dict) -> float:
    """A run's standard deviation of the spread a game, read back from its interval."""
    spread = player["mean_spread"]
    return (spread["high"] - spread["value"]) * math.sqrt(player["games"]) / Z95


def merge(runs: list[dict]) -> list[dict]:
    """Per player (by seat order of the first run): games, wins, draws, losses, win rate and the
    spread a game with their 95% intervals."""
    names = [player["name"] for player in runs[0]["players"]]
    merged = []
    for k, name in enumerate(names):
        found = [run["players"][k] for run in runs]
        if any(player["name"] != name for player in found):
            raise SystemExit(f"the runs do not play the same players: {[p['name'] for p in found]}")
        games = sum(p["games"] for p in found)
        wins, draws, losses = (sum(p[key] for p in found) for key in ("wins", "draws", "losses"))
        rate = wilson(wins + draws / 2, games)
        mean = sum(p["mean_spread"]["value"] * p["games"] for p in found) / games
        within = sum((p["games"] - 1) * chunk_sd(p) ** 2 for p in found)
        between = sum(p["games"] * (p["mean_spread"]["value"] - mean) ** 2 for p in found)
        sd = math.sqrt((within + between) / (games - 1))
        merged.append(
            {
                "name": name,
                "games": games,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": rate,
                "spread": mean,
                "spread_half": Z95 * sd / math.sqrt(games),
            }  # fmt: skip
        )
    return merged


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1].strip())
        return 2
    runs = []
    for name in sys.argv[1:]:
        try:
            runs.append(json.loads(Path(name).read_text()))
        except (OSError, ValueError) as error:
            raise SystemExit(f"{name}: not an autoplay summary ({error})") from None
    seconds = sum(run["seconds"] for run in runs)
    seeds = ", ".join(str(run["seed"]) for run in runs)
    print(f"{len(runs)} runs (seeds {seeds}), {seconds:,.0f} s in all")
    print("| player | games | wins | draws | losses | win rate (95% CI) | spread a game (95% CI) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for p in merge(runs):
        rate = p["win_rate"]
        print(f"| {p['name']} | {p['games']:,} | {p['wins']:,} | {p['draws']:,} | {p['losses']:,} | "
              f"{100 * rate.value:.1f}% [{100 * rate.low:.1f}, {100 * rate.high:.1f}] | "
              f"{p['spread']:+.1f} ± {p['spread_half']:.1f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
