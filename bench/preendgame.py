"""Pre-endgame speed: self-played positions with a given number of tiles in the bag, solved.

Each game is played by the static equity player (the lexicon's own leave table) until the bag
holds at most --bag tiles; a game whose bag then holds exactly --bag tiles gives a position.
Each is solved with `PreendgameSearch` on one core, up to --limit seconds. Prints a line per
position (stderr) and a table of the times (median with its 95% interval, 90th percentile,
worst, unsolved in the limit), with the machine's load.

--threads 1,2 solves each position with each number of threads in turn (the search's --threads),
prints the table for each, then the speed-up of each over the first (bench/endgame.py's table:
the geometric mean of the ratios with its 95% interval, over positions both solved that took at
least 0.2 s with the first) and how many best moves or exact win probabilities differ.

--engine python values the root's moves with the model written in Python rather than in the core
(the same figures; for comparing their speed).

--page 1,2 solves each position in the page instead (Chromium, the built site, Pre-endgame with
that many workers: docs/preendgame.md, "Workers"), timed from the click to the answer, with the
same tables and speed-ups.

    python bench/preendgame.py --bag 1 --positions 50 --limit 120 [--threads 1,2] [--engine python]
    python bench/preendgame.py --bag 1 --positions 16 --limit 60 --page 1,2
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import median_interval, print_speedups, thread_counts  # noqa: E402
from gaddag_solver import Game, Leaves, Lexicon, Rules  # noqa: E402
from gaddag_solver.game.preendgame import ENGINES, PreendgameSearch  # noqa: E402
from gaddag_solver.game.preendgame_model import EXACT, RULED_OUT  # noqa: E402
from gaddag_solver.lexicons import resolve_lexicon  # noqa: E402

PageSolve = tuple[float, bool, object, str]  # seconds, complete, answer, the best as shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="sowpods")
    parser.add_argument("--bag", type=int, default=1, help="tiles in the bag (1 to 6)")
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per position before giving up")
    parser.add_argument(
        "--threads", type=thread_counts, default=[1], metavar="N,...", help="threads per search (default 1)"
    )
    parser.add_argument(
        "--engine", choices=ENGINES, default="core", help="where the model runs (default core)"
    )
    parser.add_argument(
        "--page", type=thread_counts, default=None, metavar="N,...",
        help="solve in the page (Chromium) with each number of workers instead",
    )  # fmt: skip
    args = parser.parse_args()
    counts = args.page or args.threads
    print(f"$ {' '.join(sys.argv)}")
    rules = Rules.load("english")
    lexicon = Lexicon.load(resolve_lexicon(args.lexicon), rules)
    leaves = Leaves.load(args.lexicon, rules)
    solved: dict[int, Found] = {n: {} for n in counts}
    methods: set[str] = set()
    seed = args.seed
    loads = [os.getloadavg()[0]]
    with contextlib.ExitStack() as stack:
        page = stack.enter_context(page_solver(args.limit)) if args.page else None
        while len(solved[counts[0]]) < args.positions:
            seed = next_position(args, lexicon, leaves, seed, page, solved, methods, loads)
    for n in counts:
        print_table(args, n, solved[n], loads, methods)
    if len(counts) > 1:
        print_speedups(counts, solved)
    return 0


def next_position(
    args: argparse.Namespace, lexicon: Lexicon, leaves: Leaves, seed: int, page: object,
    solved: dict[int, Found], methods: set[str], loads: list[float],
) -> int:  # fmt: skip
    """Play the game of ``seed``; when it gives a position, solve it with each count (threads, or
    workers in the page). Returns the next seed."""
    game = Game.new(lexicon, seed=seed)
    seed += 1
    while not game.over and game.bag_count > args.bag:
        game.play(game.best_move("equity", leaves))
    if game.over or game.bag_count != args.bag:
        return seed
    for threads in args.page or []:
        seconds, complete, answer, best = page(game, threads)  # type: ignore[operator]
        loads.append(os.getloadavg()[0])
        methods.add("exact" if args.bag <= 2 else "halving")
        solved[threads][seed - 1] = (0, seconds, 0, complete, answer)
        print(f"  seed {seed - 1}: {threads} worker(s) in the page, {seconds:.2f} s, best {best}, "
              f"{'solved' if complete else 'not done'}", file=sys.stderr, flush=True)  # fmt: skip
    for threads in [] if args.page else args.threads:
        started = time.perf_counter()
        search = PreendgameSearch(game, leaves=leaves, threads=threads, engine=args.engine)
        result = search.run(time_limit=args.limit)
        seconds = time.perf_counter() - started
        loads.append(os.getloadavg()[0])
        best = "-"
        if result.best_index is not None:
            win = result.best.win if result.best.win is not None else result.best.estimate
            best = f"{result.best.move} {'' if result.best.win is not None else '~'}{100 * float(win):.1f}%"
        methods.add(result.method)
        answer = (result.best_index, result.best.win, result.best.estimate) if result.complete else None
        solved[threads][seed - 1] = (0, seconds, result.nodes, result.complete, answer)
        status = result.reason if result.complete else "not done"
        settled = sum(c.status in (EXACT, RULED_OUT) for c in result.candidates)
        print(f"  seed {seed - 1}: {threads} thread(s), {seconds:.2f} s, "
              f"{len(result.candidates)} candidates ({settled} settled), {result.endgames:,} endgames, "
              f"{result.nodes:,} positions, best {best}, {status}",
              file=sys.stderr, flush=True)  # fmt: skip
    return seed


@contextlib.contextmanager
def page_solver(limit: float):  # type: ignore[no-untyped-def]
    """A Chromium tab on the built site; yields solve(game, workers) → PageSolve. The page is
    told the position (board, rack) and the lead of the player to move, as natively."""
    sys.path.insert(0, str(ROOT / "tests"))
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from web_figures import set_position, site_tab

    busy = "() => !document.querySelector('#lookahead').hasAttribute('aria-busy')"
    with site_tab() as tab:
        tab.select_option("#lexicon-select", "sowpods")
        last: list[object] = [None]

        def solve(game: Game, workers: int) -> PageSolve:
            position = (game.board.to_rows(), str(game.rack()))
            if position != last[0]:  # set again, the page would stop the search it starts
                set_position(tab, *position)
                last[0] = position
            if not tab.locator("#lookahead-box").evaluate("el => el.open"):
                tab.click("#lookahead-box summary")
            tab.fill("#lookahead-lead", str(game.scores[game.to_move] - game.scores[1 - game.to_move]))
            tab.fill("#sim-workers", str(workers))
            tab.wait_for_function(busy)
            started = time.perf_counter()
            tab.click("#peg-start")
            try:
                tab.wait_for_function(busy, timeout=limit * 1000)
            except PlaywrightTimeout:
                tab.click("#lookahead-stop")
                tab.wait_for_function(busy)
            seconds = time.perf_counter() - started
            found = tab.evaluate("window.gaddag.lookAhead()") or {}
            complete = bool(found.get("complete"))
            best = next((c for c in found.get("candidates", []) if c["best"]), None)
            shown = "-" if best is None else f"{best['move']} {100 * (best['win'] or 0):.1f}%"
            answer = (found.get("best"), json.dumps(best and best["win"])) if complete else None
            return seconds, complete, answer, shown

        yield solve


Found = dict[int, tuple[int, float, int, bool, object]]  # seed: (0, seconds, positions, complete, answer)


def print_table(
    args: argparse.Namespace, threads: int, found: Found, loads: list[float], methods: set[str]
) -> None:
    ordered = sorted(s if complete else float("inf") for _c, s, _n, complete, _a in found.values())
    unsolved = sum(1 for s in ordered if s == float("inf"))
    low, high = median_interval(ordered)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    how = " and ".join(sorted("exact" if m == "exact" else "estimated (successive halving)" for m in methods))
    where = f"the model in {'the core' if args.engine == 'core' else 'Python'}"
    who = f"{threads} worker(s) in the page (Chromium)" if args.page else f"{threads} thread(s), {where}"
    print(f"pre-endgames with {args.bag} in the bag from self-play ({args.lexicon}), {who}, "
          f"limit {args.limit:.0f} s, {how}; load average {min(loads):.2f}–{max(loads):.2f}")  # fmt: skip
    print("| positions | median s | 95% CI of the median | 90th percentile s | worst s | not done in limit |")
    print("| --- | --- | --- | --- | --- | --- |")
    worst = max(ordered)
    print(f"| {len(ordered)} | {statistics.median(ordered):.2f} | [{low:.2f}, {high:.2f}] | {p90:.2f} | "
          f"{'unsolved' if worst == float('inf') else f'{worst:.2f}'} | {unsolved} |")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
