// Python started from a memory snapshot shipped with the site, so that no visit pays for
// starting the interpreter.
//
// Starting Python in Pyodide (the interpreter and the standard library our package imports)
// is most of the page's start: about 2.7 s on a 2-core machine, more on a phone. The site
// ships Python's memory as it was once started (python-snapshot.gz, ~7 MB, made by
// scripts/python_snapshot.mjs with the same Pyodide files), and the worker boots from it
// (loadPyodide's _loadSnapshot): the file is fetched and unpacked while Pyodide's own script
// loads. Our wheel is not in it: its C side module is loaded afresh each time. The option is
// Pyodide's own, marked private: when the snapshot cannot be fetched or used (a site built
// without Node, a browser without DecompressionStream), the worker starts Python as usual.

/** The snapshot's bytes: python-snapshot.gz fetched and unpacked (the service worker keeps it
 * unpacked, and says so with a header of its own: web/sw.js). */
async function unpacked(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname} could not be downloaded (HTTP ${response.status})`);
  if (response.headers.get("X-Gaddag-Unpacked") === "gzip") return new Uint8Array(await response.arrayBuffer());
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Boot Pyodide with `options` (loadPyodide's), from the snapshot at `snapshotURL` (a URL, or
 * null when the site has none), else as usual. Returns {pyodide, from} with from "snapshot"
 * or "start".
 */
export async function bootPython(loadPyodide, options, snapshotURL) {
  if (snapshotURL && typeof DecompressionStream !== "undefined") {
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: unpacked(snapshotURL) });
      // the snapshot holds the random state of the Python that made it: draw a new one
      pyodide.runPython("import random\nrandom.seed()");
      return { pyodide, from: "snapshot" };
    } catch (error) {
      console.warn(`the Python snapshot could not be used (${error.message || error}); starting Python afresh`);
    }
  }
  return { pyodide: await loadPyodide(options), from: "start" };
}
