// Makes the memory snapshot of Python that the page boots from: node scripts/python_snapshot.mjs OUT.gz
//
// Starting Python in Pyodide (the interpreter, then the standard library our package imports)
// is most of the wait before the page can solve: about 2.7 s on a 2-core machine, every visit,
// and more on a phone. Pyodide can instead restore its memory as it was once started
// (loadPyodide's _loadSnapshot, in 0.3-0.6 s), so the site ships that memory, made here under
// Node with the same Pyodide files the site ships: booted to allow a snapshot (_makeSnapshot),
// the standard library below imported, the memory copied (makeMemorySnapshot, ~31 MB, mostly
// zeros) and written gzipped (~7 MB). Our wheel is not in it: its C side module is loaded
// afresh at every start. web/snapshot.js uses it; scripts/build_site.py runs this when the
// snapshot is missing or older than this script or Pyodide. Exit code 0 on success, 1 with a
// message otherwise.
import { loadPyodide } from "pyodide";
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

// The standard library gaddag_solver.web_api imports beyond what Pyodide starts with
// (sys.modules after the import, natively); a name missing here is imported later as usual.
const STDLIB = [
  "ast", "bisect", "bz2", "collections", "contextlib", "copy", "ctypes", "dataclasses", "decimal",
  "enum", "fnmatch", "fractions", "functools", "glob", "gzip", "heapq", "inspect", "ipaddress",
  "itertools", "json", "lzma", "math", "numbers", "operator", "pathlib", "random", "re", "shutil",
  "statistics", "struct", "subprocess", "tarfile", "tempfile", "threading", "typing",
  "unicodedata", "warnings", "weakref", "zipfile",
];

const [output] = process.argv.slice(2);
if (!output) {
  console.error("usage: node scripts/python_snapshot.mjs OUT.gz");
  process.exit(2);
}
try {
  const pyodide = await loadPyodide({ _makeSnapshot: true, env: { LANG: "C.UTF-8" } });
  pyodide.runPython(`
import importlib, os, sys
for name in ${JSON.stringify(STDLIB)}:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
# as a browser starts Python, not as this script did (Node gives its own path): the snapshot
# carries nothing of the machine that made it
os.environ["_"] = "./this.program"
sys.executable = "/home/pyodide/this.program"
`);
  const memory = pyodide.makeMemorySnapshot();
  const packed = gzipSync(memory, { level: 9 });
  writeFileSync(output, packed);
  console.log(`${memory.length.toLocaleString("en")} bytes of memory, ${packed.length.toLocaleString("en")} gzipped`);
} catch (error) {
  console.error(`python_snapshot: ${error.message || error}`);
  process.exit(1);
}
