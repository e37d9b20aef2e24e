// Runs a Python script inside Pyodide under Node, with our browser wheel installed.
//
//   node tests/pyodide/run.mjs --wheel build/wasm/gaddag_solver-*.whl [--mount DIR] SCRIPT.py [ARGS...]
//
// DIR (default: the repository) is mounted read-only at the same path inside Pyodide, so the
// script can open lexicons and test data by their usual paths. The script's stdout and stderr
// pass through; the exit code is 0 unless Python raised (1) or the runner failed (2).
// Only packages we ship are loaded: a missing one would fall back to a CDN and fail offline.
import { loadPyodide } from "pyodide";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let wheel = null;
let mount = path.resolve(here, "..", "..");
while (args.length && args[0].startsWith("--")) {
  const flag = args.shift();
  if (flag === "--wheel") wheel = path.resolve(args.shift());
  else if (flag === "--mount") mount = path.resolve(args.shift());
  else { console.error(`unknown option ${flag}`); process.exit(2); }
}
if (!wheel || !args.length) {
  console.error("usage: run.mjs --wheel WHEEL [--mount DIR] SCRIPT.py [ARGS...]");
  process.exit(2);
}
const script = path.resolve(args.shift());

const started = performance.now();
const pyodide = await loadPyodide({ stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
const booted = performance.now();
await pyodide.loadPackage(wheel, { messageCallback: () => {} });
const loaded = performance.now();

// Mount the host folder at the same path (creating parents inside the virtual FS).
let current = "";
for (const part of mount.split("/").filter(Boolean)) {
  current += "/" + part;
  try { pyodide.FS.mkdir(current); } catch { /* exists */ }
}
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: mount }, mount);

pyodide.globals.set("RUNNER_ARGS", pyodide.toPy([script, ...args]));
pyodide.globals.set("RUNNER_TIMES", pyodide.toPy({ boot_ms: booted - started, wheel_ms: loaded - booted }));
let code;
try {
  code = await pyodide.runPythonAsync(`
import sys, runpy
sys.argv = list(RUNNER_ARGS)
sys.path.insert(0, __import__("os").path.dirname(sys.argv[0]))
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    code = 0
except SystemExit as exit:
    code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    if not isinstance(exit.code, (int, type(None))):
        print(exit.code, file=sys.stderr)
code
`);
} catch (error) {
  console.error(String(error.message || error));
  process.exit(1);
}
process.exit(code);
