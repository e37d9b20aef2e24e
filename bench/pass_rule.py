#!/usr/bin/env python3
"""The pass and the full rack: the equity player against the same player with the old pass rule.

    .venv/bin/python bench/pass_rule.py [--lexicon sowpods] [--rules english] [--leaves sowpods]
                                        [--games 100000] [--seed 2026] [--workers 2]

Plays ``equity:LEAVES`` against ``equity-pass0:LEAVES`` (a pass that keeps a full rack worth
0, the rule before docs/equity.md's "The pass and the full rack") in mirrored pairs, and prints
the match as ``gaddag-solver autoplay`` does, then the same figures over the pairs where the two
rules made a difference. The players differ only when one of them would pass and the other
not, a few turns in a thousand; a pair where neither did plays the same game twice with the
seats swapped, so its scores are mirror images and its spread is 0. Those pairs are most of
the match: they add nothing to the spread and only noise to the win rate's interval, so the
pairs whose scores are not mirror images (the games the rules changed) are counted apart, with
the new player's wins (a draw counted as half; Wilson 95% interval over those games) and its
mean spread (95% t interval over those pairs).

The number of passes each player made is counted too (each game's turns are read back in the
worker that played it, and only the counts come back).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver import _core_api as core  # noqa: E402
from gaddag_solver.game.autoplay import (  # noqa: E402
    AutoplayRun,
    Match,
    PlayerSpec,
    chunks,
    format_table,
    play_chunk,
    summarize,
)
from gaddag_solver.game.stats import mean_interval, wilson  # noqa: E402

NEW, OLD = 0, 1  # the match players: the new rule first


def played(match: Match, seed: int, start: int, stop: int) -> tuple[list, list[int]]:
    """Games start..stop-1 (whole pairs): their records without the turns, and the passes each
    match player made."""
    records = play_chunk(match, seed, start, stop, keep_games=True)
    passes = [0, 0]
    for record in records:
        assert record.game is not None
        for turn in record.game.turns:
            if turn.kind == core.lib.GD_PASS:
                passes[turn.player ^ record.first] += 1
    return [dataclasses.replace(record, game=None) for record in records], passes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--rules", default="english")
    parser.add_argument("--leaves", default="sowpods", help="the leave table both players use")
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.games % 2:
        parser.error("--games must be even (whole mirrored pairs)")

    players = [PlayerSpec.parse(f"equity:{args.leaves}"), PlayerSpec.parse(f"equity-pass0:{args.leaves}")]
    match = Match.create(args.lexicon, args.rules, players)
    started = time.perf_counter()
    parts = chunks(args.games, args.workers)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(played, *zip(*((match, args.seed, a, b) for a, b in parts), strict=True)))
    seconds = time.perf_counter() - started
    records = sorted((r for rs, _ in results for r in rs), key=lambda r: r.index)
    passes = [sum(p[i] for _, p in results) for i in (0, 1)]
    summary = summarize(records, match.names, args.seed)
    print(format_table(AutoplayRun(summary, records, seconds, args.workers)))
    print(f"passes: {passes[NEW]} by {match.names[NEW]}, {passes[OLD]} by {match.names[OLD]}")

    changed = []
    for k in range(0, len(records), 2):
        a, b = records[k], records[k + 1]
        if a.scores != b.scores[::-1] or a.end_adjustments != b.end_adjustments[::-1]:
            changed.append((a, b))
    wins = sum(
        (r.scores[NEW] > r.scores[OLD]) + 0.5 * (r.scores[NEW] == r.scores[OLD]) for p in changed for r in p
    )
    games = 2 * len(changed)
    spreads = [(a.spread + b.spread) / 2 for a, b in changed]
    print(f"pairs the rules changed (scores not mirror images): {len(changed)} of {len(records) // 2}")
    if changed:
        rate = wilson(wins, games)
        spread = mean_interval(spreads)
        print(
            f"  {match.names[NEW]} in those {games} games: win rate {100 * wins / games:.1f}% "
            f"[{100 * rate.low:.1f}, {100 * rate.high:.1f}], mean spread {spread.value:+.2f} "
            f"[{spread.low:+.2f}, {spread.high:+.2f}] a game (by pair)"
        )
        every = [(a.spread + b.spread) / 2 for a, b in zip(records[::2], records[1::2], strict=True)]
        overall = mean_interval(every)
        print(
            f"  over all {len(records)} games: {overall.value:+.3f} points a game "
            f"[{overall.low:+.3f}, {overall.high:+.3f}] (by pair)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
