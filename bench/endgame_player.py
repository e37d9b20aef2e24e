"""Strength of the endgame player (equity, then the pre-endgame and the exact endgame) against
the static equity player with the same leave table: win rate with a 95% interval.

The games are the mirrored pairs of `gaddag-solver autoplay` (the same seeds, so the same
games as `autoplay --players endgame:T,equity:T --seed S --end-seconds X`), played a pair at a
time (on --workers processes) and appended to a checkpoint (one JSON line a game), so a long run
can be stopped and resumed; the summary is printed from the checkpoint.

    python bench/endgame_player.py --games 2000 --seconds 2 --workers 2 --checkpoint runs/full.jsonl
    python bench/endgame_player.py --player endgame-only --games 2000 --seconds 2 --checkpoint runs/end.jsonl
    python bench/endgame_player.py --compare runs/full.jsonl runs/end.jsonl

--player endgame-only plays the exact endgame but no pre-endgame (equity until the bag is empty):
run with the same --seed, its games are the full player's up to the pre-endgame, so --compare
tells, pair by pair on the same games, what each phase's solver adds (the endgame: endgame-only
against equity; the pre-endgame: the full player against endgame-only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))

from gaddag_solver.game.autoplay import (  # noqa: E402
    END_BAG,
    GameRecord,
    Match,
    PlayerSpec,
    play_chunk,
    summarize,
)
from gaddag_solver.game.stats import Interval, mean_interval  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402


def read_checkpoint(path: Path) -> tuple[dict[str, object], dict[int, GameRecord]]:
    """The run's settings (its first line) and its games by index."""
    settings: dict[str, object] = {}
    records: dict[int, GameRecord] = {}
    if not path.exists():
        return settings, records
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            if number == len(path.read_text().splitlines()):
                continue  # a line cut short by a stop: the game is played again
            raise SystemExit(f"{path}:{number}: not a JSON line") from None
        if "settings" in data:
            settings = data["settings"]
            continue
        fields = (tuple(data["scores"]), tuple(data["end_adjustments"]), tuple(data["bingos"]))
        index = data["index"]
        records[index] = GameRecord(index, data["seed"], data["first"], *fields, data["turn_count"])
    return settings, records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--leaves", default="sowpods")
    parser.add_argument("--player", choices=("endgame", "endgame-only"), default="endgame")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per pre-endgame or endgame search")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes, each playing a pair at a time")
    parser.add_argument("--checkpoint", type=Path, help="JSON lines, one a game; resumed")
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("FULL", "ENDGAME_ONLY"), help="two checkpoints of one seed"
    )
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.checkpoint is None:
        parser.error("give --checkpoint (or --compare)")
    settings = {"player": args.player, "leaves": args.leaves, "lexicon": args.lexicon, "seed": args.seed,
                "seconds": args.seconds}  # fmt: skip
    players = [PlayerSpec.parse(f"{args.player}:{args.leaves}"), PlayerSpec.parse(f"equity:{args.leaves}")]
    match = Match.create(resolve_lexicon(args.lexicon), "english", players, end_seconds=args.seconds)
    stored, records = read_checkpoint(args.checkpoint)
    if stored and stored != settings:
        raise SystemExit(f"{args.checkpoint} holds a run with other settings: {stored}")
    args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    done_before = len(records)
    pairs = [index for index in range(0, args.games, 2) if index not in records or index + 1 not in records]
    with args.checkpoint.open("a") as out, ProcessPoolExecutor(max(1, args.workers)) as pool:
        if not stored:
            out.write(json.dumps({"settings": settings}) + "\n")
        pending = set()
        for index in pairs:
            pending.add(pool.submit(play_chunk, match, args.seed, index, min(index + 2, args.games)))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for record in future.result():
                    row = {"index": record.index, "seed": record.seed, "first": record.first,
                           "scores": record.scores, "end_adjustments": record.end_adjustments,
                           "bingos": record.bingos, "turn_count": record.turn_count}  # fmt: skip
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    records[record.index] = record
            rate = (len(records) - done_before) / (time.perf_counter() - started)
            shown = f"\r{len(records)}/{args.games} games, {rate:.2f} games/s"
            print(shown, end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    summary = summarize([records[i] for i in sorted(records) if i < args.games], match.names, args.seed)
    print(f"$ {' '.join(sys.argv)}")
    phases = f"the pre-endgame at 1-{END_BAG} in the bag and " if args.player == "endgame" else ""
    print(f"{args.player} player (equity; {phases}the exact endgame, {args.seconds:g} s a search) against "
          f"equity, {args.lexicon}, leaves {args.leaves}; load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    print("| player | games | wins | draws | losses | win rate (95% CI) | mean spread (95% CI) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for p in summary.players:
        w, s = p.win_rate, p.mean_spread
        print(f"| {p.name} | {p.games} | {p.wins} | {p.draws} | {p.losses} | {100 * w.value:.1f}% "
              f"[{100 * w.low:.1f}, {100 * w.high:.1f}] | "
              f"{s.value:+.1f} [{s.low:+.1f}, {s.high:+.1f}] |")  # fmt: skip
    games = [records[i] for i in sorted(records) if i < args.games]
    w, s = pair_intervals([(record, None) for record in games])
    print(f"by mirrored pair (the pair shares its deal): {args.player} wins {100 * (0.5 + w.value):.1f}% "
          f"[{100 * (0.5 + w.low):.1f}, {100 * (0.5 + w.high):.1f}], "
          f"spread {s.value:+.2f} [{s.low:+.2f}, {s.high:+.2f}]")  # fmt: skip
    return 0


def pair_intervals(games: list[tuple[GameRecord, GameRecord | None]]) -> tuple[Interval, Interval]:
    """Win rate and spread gained by player 0, with 95% intervals over mirrored pairs (a pair
    shares its deal, so the pair is the independent unit): against the equity player in the same
    game when the second of a couple is None, else against the other run's game of that index
    (the same deal, the same opponent)."""
    by_pair: dict[int, list[tuple[float, float]]] = {}
    for record, base in games:
        if base is None:
            gain = (outcome(record) - 0.5, float(record.spread))
        else:
            gain = (outcome(record) - outcome(base), float(record.spread - base.spread))
        by_pair.setdefault(record.index // 2, []).append(gain)
    wins = mean_interval([sum(g[0] for g in pair) / len(pair) for pair in by_pair.values()])
    spreads = mean_interval([sum(g[1] for g in pair) / len(pair) for pair in by_pair.values()])
    return wins, spreads


def outcome(record: GameRecord) -> float:
    """Player 0's result: 1 a win, 1/2 a draw, 0 a loss."""
    spread = record.spread
    return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0


def compare(full_path: Path, end_path: Path) -> int:
    """Game by game on the same seeds: what the pre-endgame adds to the endgame player."""
    full_settings, full = read_checkpoint(full_path)
    end_settings, end = read_checkpoint(end_path)
    if full_settings.get("seed") != end_settings.get("seed"):
        raise SystemExit("the two checkpoints were played with different seeds")
    common = sorted(set(full) & set(end))
    if not common:
        raise SystemExit("the two checkpoints share no game")
    print(f"$ {' '.join(sys.argv)}")
    print(f"{len(common)} games of seed {full_settings.get('seed')}: {full_settings} against {end_settings}")
    print(
        "| phase | against | games | win rate gained (95% CI) | spread gained a game (95% CI) "
        "| games changed |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    rows = [
        ("the endgame (bag empty)", "equity", [(end[i], None) for i in common]),
        ("the pre-endgame (1-2 in the bag)", "endgame-only", [(full[i], end[i]) for i in common]),
        ("both", "equity", [(full[i], None) for i in common]),
    ]
    for name, against, games in rows:
        w, s = pair_intervals(games)
        changed = sum(base is not None and record.scores != base.scores for record, base in games)
        shown = str(changed) if against != "equity" else "-"
        print(f"| {name} | {against} | {len(games)} | {100 * w.value:+.1f} points [{100 * w.low:+.1f}, "
              f"{100 * w.high:+.1f}] | {s.value:+.2f} [{s.low:+.2f}, {s.high:+.2f}] | {shown} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
