// A memory snapshot of Python, so that a repeat visit skips starting the interpreter.
//
// Starting Python in Pyodide (the interpreter and the standard library our package imports)
// is most of the page's start. The first visit boots as usual, asked to allow a snapshot
// (loadPyodide's _makeSnapshot), imports that part of the standard library, copies the
// WebAssembly memory (pyodide.makeMemorySnapshot, ~30 MB) and keeps it in Cache Storage; a
// later visit boots from it (_loadSnapshot). The snapshot is taken before our wheel is
// installed: its C side module is loaded afresh each time, never restored from memory. Both
// options are Pyodide's own, marked private: when a snapshot cannot be made, stored or
// restored (another Pyodide build, no Cache Storage), the worker boots as before.

const CACHE = "gaddag-solver:python-snapshot"; // not "gaddag-solver-…": sw.js prunes those

// The standard library gaddag_solver.web_api imports beyond what Pyodide starts with
// (sys.modules after the import, natively); a name missing here is imported later as usual.
const STDLIB = [
  "ast", "bisect", "bz2", "collections", "contextlib", "copy", "ctypes", "dataclasses", "decimal",
  "enum", "fnmatch", "fractions", "functools", "glob", "gzip", "heapq", "inspect", "ipaddress",
  "itertools", "json", "lzma", "math", "numbers", "operator", "pathlib", "random", "re", "shutil",
  "statistics", "struct", "subprocess", "tarfile", "tempfile", "threading", "typing",
  "unicodedata", "warnings", "weakref", "zipfile",
];

function key(version) {
  return new URL(`python-snapshot/${encodeURIComponent(version)}`, self.location.href).href;
}

async function stored(version) {
  try {
    const hit = await (await caches.open(CACHE)).match(key(version));
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function forget() {
  try {
    await caches.delete(CACHE);
  } catch {
    /* nothing to forget */
  }
}

/**
 * Boot Pyodide with `options` (loadPyodide's), from a snapshot when one is stored for
 * `version` (the Pyodide version), else as usual while making one. Returns {pyodide, from}
 * with from "snapshot" or "start".
 */
export async function bootPython(loadPyodide, options, version) {
  const snapshot = typeof caches === "undefined" ? null : await stored(version);
  if (snapshot) {
    try {
      return { pyodide: await loadPyodide({ ...options, _loadSnapshot: snapshot }), from: "snapshot" };
    } catch (error) {
      console.warn(`the Python snapshot could not be used (${error.message || error}); starting afresh`);
      await forget();
    }
  }
  const canKeep = typeof caches !== "undefined";
  const pyodide = await loadPyodide(canKeep ? { ...options, _makeSnapshot: true } : options);
  if (canKeep) {
    try {
      pyodide.runPython(
        `import importlib\nfor name in ${JSON.stringify(STDLIB)}:\n    try:\n        importlib.import_module(name)\n    except ImportError:\n        pass`,
      );
      const bytes = pyodide.makeMemorySnapshot();
      // kept in the background: the page goes on meanwhile
      caches
        .open(CACHE)
        .then(async (cache) => {
          for (const request of await cache.keys()) await cache.delete(request); // one at a time
          await cache.put(key(version), new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
        })
        .catch((error) => console.warn(`the Python snapshot was not kept: ${error.message || error}`));
    } catch (error) {
      console.warn(`no Python snapshot: ${error.message || error}`);
    }
  }
  return { pyodide, from: "start" };
}
