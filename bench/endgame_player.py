"""Strength of the endgame player (equity, then the pre-endgame and the exact endgame) against
the static equity player with the same leave table: win rate with a 95% interval.

The games are the mirrored pairs of `gaddag-solver autoplay` (the same seeds, so the same
games as `autoplay --players endgame:T,equity:T --seed S`), played a pair at a time on this
process and appended to a checkpoint (one JSON line a game), so a long run can be stopped and
resumed; the summary is printed from the checkpoint.

    python bench/endgame_player.py --games 2000 --checkpoint runs/endgame_player.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver.game.autoplay import (  # noqa: E402
    END_BAG,
    END_TURN_SECONDS,
    GameRecord,
    Match,
    PlayerSpec,
    play_chunk,
    summarize,
)
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--leaves", default="sowpods")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint", type=Path, required=True, help="JSON lines, one a game; resumed")
    args = parser.parse_args()
    players = [PlayerSpec.parse(f"endgame:{args.leaves}"), PlayerSpec.parse(f"equity:{args.leaves}")]
    match = Match.create(resolve_lexicon(args.lexicon), "english", players)
    records: list[GameRecord] = []
    if args.checkpoint.exists():
        for line in args.checkpoint.read_text().splitlines():
            data = json.loads(line)
            if data["seed_of_run"] != args.seed:
                raise SystemExit(f"{args.checkpoint} holds games of another seed ({data['seed_of_run']})")
            fields = (tuple(data["scores"]), tuple(data["end_adjustments"]), tuple(data["bingos"]))
            records.append(
                GameRecord(data["index"], data["seed"], data["first"], *fields, data["turn_count"])
            )
    args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    done_before = len(records)
    with args.checkpoint.open("a") as out:
        while len(records) < args.games:
            start = len(records)
            for record in play_chunk(match, args.seed, start, min(start + 2, args.games)):
                row = {"seed_of_run": args.seed, "index": record.index, "seed": record.seed,
                       "first": record.first, "scores": record.scores,
                       "end_adjustments": record.end_adjustments, "bingos": record.bingos,
                       "turn_count": record.turn_count}  # fmt: skip
                out.write(json.dumps(row) + "\n")
                out.flush()
                records.append(record)
            rate = (len(records) - done_before) / (time.perf_counter() - started)
            print(
                f"\r{len(records)}/{args.games} games, {rate:.2f} games/s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    summary = summarize(records, match.names, args.seed)
    print(f"$ {' '.join(sys.argv)}")
    print(f"endgame player (equity; the pre-endgame at 1-{END_BAG} in the bag and the exact endgame, "
          f"{END_TURN_SECONDS:g} s a search) against equity, {args.lexicon}, leaves {args.leaves}; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    print("| player | games | wins | draws | losses | win rate (95% CI) | mean spread (95% CI) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for p in summary.players:
        w, s = p.win_rate, p.mean_spread
        print(f"| {p.name} | {p.games} | {p.wins} | {p.draws} | {p.losses} | {100 * w.value:.1f}% "
              f"[{100 * w.low:.1f}, {100 * w.high:.1f}] | "
              f"{s.value:+.1f} [{s.low:+.1f}, {s.high:+.1f}] |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
