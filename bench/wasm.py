#!/usr/bin/env python3
"""Move generation in the browser build against native, measured in one run.

    .venv/bin/python bench/wasm.py [--min-ms 20] [--no-chromium] [--lexicon PATH] [--parts]
                                   [--rounds N] [--emcc-flags "-O2 -flto" ...] [--quiet]

The same benchmark (bench/movegen.py: per position, all plays, generation timed alone; each
figure a batch of at least --min-ms) runs three ways:

1. natively, through the cffi extension;
2. in Pyodide under Node (npm ``pyodide``), with our browser wheel — wasm side module + ctypes;
3. in Pyodide in a Web Worker in Debian's Chromium, driven by Playwright, from a temporary
   static site on 127.0.0.1 (the Pyodide runtime, the wheel, the lexicon, the positions).

Prints µs per position for each and the ratio to native, then medians, means, the lexicon
load-and-validate time in each, and the targets (wasm ≤ 1.5× native per position, issue 14;
SOWPODS load with full validation ≤ 100 ms in Pyodide). Needs scripts/setup_env.sh to have run.

--parts takes a generate call apart (movegen.generation_parts): a call that does nothing (the
binding's own cost), the generator with an empty rack (the wrapper, its arguments and the
core's fixed cost per call), the generator without copying the records out, and the whole
call; and prints the ratio for each, and for the generator itself (less the empty call).

--emcc-flags FLAGS (repeatable) measures wheels whose C is optimized with FLAGS instead of the
build's own (scripts/build_wasm.py OPTIMIZE_FLAGS), each built in build/wasm-variants/, under
Node. --rounds N runs everything N times, one after the other in turn, and keeps each
position's fastest time: on a machine others use, load comes and goes, and a comparison of
two runs taken minutes apart measures the load as much as the code.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import build_wasm  # noqa: E402
import movegen  # noqa: E402
from build_site import PYODIDE_FILES  # noqa: E402
from chromium import launch  # noqa: E402

PAGE = """<!doctype html><meta charset="utf-8"><title>movegen benchmark</title>
<script type="module">
const worker = new Worker("worker.mjs", { type: "module" });
worker.onmessage = (event) => { window.benchResult = event.data; };
worker.onerror = (event) => { window.benchResult = JSON.stringify({ error: event.message }); };
</script>"""

WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
try {
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location).href });
  await pyodide.loadPackage(new URL("./%(wheel)s", location).href);
  pyodide.FS.mkdirTree("/bench");
  for (const name of ["movegen.py", "positions.cgp", "lexicon.gaddag"]) {
    const bytes = new Uint8Array(await (await fetch(name)).arrayBuffer());
    pyodide.FS.writeFile("/bench/" + name, bytes);
  }
  const result = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/bench")
import movegen
lines = [l for l in open("/bench/positions.cgp").read().splitlines() if l.strip()]
json.dumps(movegen.measure("/bench/lexicon.gaddag", lines, "english", %(min_ms)s, %(parts)s))
`);
  postMessage(result);
} catch (error) {
  postMessage(JSON.stringify({ error: String(error) }));
}
"""


def run_node(wheel: Path, lexicon: Path, positions: Path, min_ms: float, parts: bool) -> dict:  # type: ignore[type-arg]
    command = [
        "node", str(ROOT / "tests" / "pyodide" / "run.mjs"), "--wheel", str(wheel),
        str(ROOT / "bench" / "movegen.py"), "--lexicon", str(lexicon), "--positions", str(positions),
        "--min-ms", str(min_ms), "--json", *(["--parts"] if parts else []),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=1800)
    if result.returncode != 0:
        raise SystemExit(f"Pyodide under Node failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout)


def run_chromium(wheel: Path, lexicon: Path, positions: Path, min_ms: float, parts: bool) -> dict:  # type: ignore[type-arg]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="gaddag-bench-") as folder:
        site = Path(folder)
        (site / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            shutil.copy(ROOT / "node_modules" / "pyodide" / name, site / "pyodide" / name)
        shutil.copy(wheel, site / wheel.name)
        shutil.copy(ROOT / "bench" / "movegen.py", site / "movegen.py")
        shutil.copy(positions, site / "positions.cgp")
        shutil.copy(lexicon, site / "lexicon.gaddag")
        (site / "index.html").write_text(PAGE)
        (site / "worker.mjs").write_text(WORKER % {"wheel": wheel.name, "min_ms": min_ms, "parts": parts})

        handler = functools.partial(QuietHandler, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
                page.wait_for_function("window.benchResult !== undefined", timeout=1_800_000)
                result = json.loads(page.evaluate("window.benchResult"))
                browser.close()
        finally:
            server.shutdown()
    if "error" in result:
        raise SystemExit(f"Pyodide in Chromium failed: {result['error']}")
    return result


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


TIMES = ("generate_us", "call_us", "empty_us", "raw_us")
PART_NAMES = {
    "call_us": "empty call",
    "empty_us": "empty rack",
    "raw_us": "no copy",
    "generate_us": "whole call",
    "generator_us": "generator",
}


def fastest(results: list[dict]) -> dict:  # type: ignore[type-arg]
    """One run from several of the same: each position's fastest time of each kind."""
    out = dict(results[0])
    out["positions"] = [dict(row) for row in results[0]["positions"]]
    for other in results[1:]:
        for row, more in zip(out["positions"], other["positions"], strict=True):
            for key in TIMES:
                if key in row:
                    row[key] = min(row[key], more[key])
        out["load_ms"] = min(out["load_ms"], other["load_ms"])
        out["index_ms"] = min(out["index_ms"], other["index_ms"])
    for row in out["positions"]:
        if "raw_us" in row:  # the generator itself: the call less its fixed cost
            row["generator_us"] = max(row["raw_us"] - row["empty_us"], 0.01)
    return out


def variant_name(flags: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", flags).strip("_") or "default"


def main() -> int:
    parser = argparse.ArgumentParser(description="Move generation: wasm in Pyodide against native.")
    parser.add_argument("--lexicon", type=Path, default=movegen.DEFAULT_LEXICON)
    parser.add_argument("--positions", type=Path, default=movegen.DEFAULT_POSITIONS)
    parser.add_argument("--min-ms", type=float, default=20.0)
    parser.add_argument("--no-chromium", action="store_true", help="skip the Chromium run")
    parser.add_argument("--parts", action="store_true", help="take each generate call apart")
    parser.add_argument("--rounds", type=int, default=1, help="runs of everything, fastest kept")
    parser.add_argument(
        "--emcc-flags", action="append", default=[], help="optimize a variant wheel with these flags (Node)"
    )
    parser.add_argument(
        "--compare-wheel", action="append", type=Path, default=[], help="also measure this wheel"
    )
    parser.add_argument("--quiet", action="store_true", help="no table per position")
    args = parser.parse_args()

    wheel = build_wasm.build(ROOT / "build" / "wasm")
    wheels = {"": wheel}
    for flags in args.emcc_flags:
        folder = ROOT / "build" / "wasm-variants" / variant_name(flags)
        wheels[f" {flags}"] = build_wasm.build(folder, optimize=flags.split())
    others = {f" {path.parent.name}/{path.name[:24]}": path for path in args.compare_wheel}
    lines = [line for line in args.positions.read_text().splitlines() if line.strip()]
    taken: dict[str, list[dict]] = {}  # type: ignore[type-arg]
    for round_number in range(1, args.rounds + 1):
        taken.setdefault("native", []).append(
            movegen.measure(args.lexicon, lines, "english", args.min_ms, args.parts)
        )
        for label, path in {**wheels, **others}.items():
            taken.setdefault(f"node{label}", []).append(
                run_node(path, args.lexicon, args.positions, args.min_ms, args.parts)
            )
        if not args.no_chromium:
            for label, path in {"": wheel, **others}.items():
                taken.setdefault(f"chromium{label}", []).append(
                    run_chromium(path, args.lexicon, args.positions, args.min_ms, args.parts)
                )
        print(
            f"round {round_number} of {args.rounds} done, load average {os.getloadavg()[0]:.2f}",
            file=sys.stderr,
        )
    runs = {name: fastest(results) for name, results in taken.items()}

    names = list(runs)
    native = runs["native"]["positions"]
    ratios: dict[str, list[float]] = {n: [] for n in names[1:]}
    if not args.quiet:
        header = f"{'pos':>4} {'rack':<8} {'moves':>6}" + "".join(f" {n + ' µs':>13}" for n in names)
        header += "".join(f" {n + '/native':>16}" for n in names[1:])
        print(header)
    for i, row in enumerate(native):
        line = f"{row['position']:>4} {row['rack']:<8} {row['moves']:>6}"
        for n in names:
            line += f" {runs[n]['positions'][i]['generate_us']:>13.1f}"
        for n in names[1:]:
            ratio = runs[n]["positions"][i]["generate_us"] / row["generate_us"]
            ratios[n].append(ratio)
            line += f" {ratio:>16.2f}"
        if not args.quiet:
            print(line)
    print()
    print(
        f"{'run':<24} {'binding':<8} {'median µs':>10} {'mean µs':>10} {'median ratio':>13} {'load ms':>8}"
        f" {'index ms':>9}"
    )
    for n in names:
        times = [r["generate_us"] for r in runs[n]["positions"]]
        ratio = f"{statistics.median(ratios[n]):.2f}" if n in ratios else "1.00"
        median, mean, load = statistics.median(times), statistics.mean(times), runs[n]["load_ms"]
        index = runs[n]["index_ms"]
        print(
            f"{n:<24} {runs[n]['binding']:<8} {median:>10.1f} {mean:>10.1f} {ratio:>13}"
            f" {load:>8.1f} {index:>9.1f}"
        )
    print("load = Lexicon.load with full validation; index = the walk index a Solver builds once")
    if args.parts:
        print_parts(runs)
    print()
    print(
        f"{len(lines)} positions, {args.rounds} round(s), fastest of the rounds per position; "
        f"load average now {os.getloadavg()[0]:.2f}"
    )
    for n in names[1:]:
        median_ratio = statistics.median(ratios[n])
        print(
            f"target: {n} ≤ 1.5× native per position (median ratio): {median_ratio:.2f} "
            f"{'PASS' if median_ratio <= 1.5 else 'MISS'}"
        )
        load = runs[n]["load_ms"]
        verdict = "PASS" if load <= 100 else "MISS"
        print(f"target: {n} lexicon load with full validation ≤ 100 ms: {load:.1f} ms {verdict}")
    return 0


def print_parts(runs: dict[str, dict]) -> None:  # type: ignore[type-arg]
    """Medians over the positions of each part of a generate call, and of its ratio to native."""
    keys = ("call_us", "empty_us", "generator_us", "raw_us", "generate_us")
    native = runs["native"]["positions"]
    print()
    print("A generate call taken apart: median over the positions, µs (and median ratio to native)")
    print(f"{'run':<24}" + "".join(f" {PART_NAMES[k]:>18}" for k in keys))
    for name, run in runs.items():
        line = f"{name:<24}"
        for key in keys:
            value = statistics.median(row[key] for row in run["positions"])
            ratio = statistics.median(
                row[key] / base[key] for row, base in zip(run["positions"], native, strict=True)
            )
            line += f" {value:>9.2f} ({ratio:>4.2f}×)"
        print(line)
    print(
        "empty call: gd_workspace_size (the binding alone); empty rack: the generator with no tiles "
        "(wrapper, arguments, the core's fixed cost); generator: no copy less empty rack; no copy: "
        "the generator call without copying the records out; whole call: what the table above times"
    )


if __name__ == "__main__":
    sys.exit(main())
