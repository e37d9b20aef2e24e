// The solver's Web Worker: boots Pyodide from our own files, installs our wheel (the Python
// package with the C core as a WebAssembly side module), loads lexicons and answers the page's
// requests with Python (gaddag_solver/web_api/). The page never waits on it: every request
// is a message, answered by a message.
//
// Page → worker: {id, type, ...}
//   load      {lexicon, rules}            fetch lexicons/NAME.gaddag and validate it in Python
//   load_leaves {leaves, rules}           fetch lexicons/NAME.leaves and validate it likewise
//   solve     {lexicon, rules, board, rack, leaves, exchanges[, bag]}   (leaves: a name or null);
//             the answer's began_at (ms since the epoch) says when it began, after any wait for
//             Python or a file to load
//   unseen    {rules, board, rack}        the unseen tiles of a position being edited
//   check_board {lexicon, rules, board}   the runs of tiles on the board the lexicon does not hold
//   word_tools {lexicon, rules, tool, query, limit | hooks}   check, anagram, build, pattern,
//             contains (web_api.word_tools); with hooks (a word): it in the lexicon, and its hooks
//   parse_cgp {cgp, rules}   format_cgp {board, rack, rules, lexicon}
//   bench     {lexicon, rules, positions, min_ms}   move generation alone, per position
//   review_gcg {lexicon, rules, leaves, name, gcg | data}   a GCG game replayed and reviewed
//             (data: the file's bytes, an ArrayBuffer, decoded as the file says; else gcg, text):
//             every turn's board, scores, rack, move made, best move and equity lost, the
//             file's warnings with their lines, and the game written back as GCG (web_api.review_gcg)
//   infer     {lexicon, rules, board, rack, leaves, last_move}   what the opponent likely kept with
//             their last move (web_api.infer); simulate's start takes last_move too
//   versus    {action, ...}   a game against the computer held here (web_api.versus): "new" names
//             lexicon, rules, leaves, level, sim_ms, seed, human and the moves to replay; then
//             play, exchange, pass, computer, undo, hint, state, gcg
//   export_gcg {rules, lexicon, players, title, events}   a game played on the page as GCG text
//             (events: [{kind, rack, coord, word, score, exchanged}]), with the warnings of its replay
//   build_lexicon, add_lexicon, remove_lexicon, rules_json, check_rules, save_rules, remove_rules:
//             the player's own lexicons and rulesets (web/own-worker.js lists them); a lexicon
//             the player stored is read from the browser's store instead of the site
// Worker → page: {id, ok: true, result[, records]} or {id, ok: false, error, field}; and,
// unasked, {type: "progress", stage, message, ms} while booting and loading lexicons.

import { handleOwn, ownLexiconBytes, restoreOwnRules } from "./own-worker.js";
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { bootPython } from "./snapshot.js";

const base = new URL("./", self.location.href);
const started = performance.now();
const since = () => Math.round(performance.now() - started);

function progress(stage, message, extra = {}) {
  self.postMessage({ type: "progress", stage, message, ms: since(), ...extra });
}

let pyodide = null;
let call = null; // gaddag_solver.web_api.call
const fetches = new Map(); // file name -> Promise<Uint8Array>
const loads = new Map(); // file name -> Promise<info> (a lexicon's load serves every ruleset of its alphabet)

const site = fetch(new URL("site.json", base)).then(
  (response) => {
    if (!response.ok) throw new Error(`site.json could not be downloaded (HTTP ${response.status})`);
    return response.json();
  },
  () => {
    throw new Error("site.json could not be downloaded (the page is offline or the network failed)");
  },
);

// A file of Python's own (Pyodide's runtime, our wheel) that cannot be downloaded does not make
// loadPyodide fail: it waits forever. So the worker watches those fetches itself, and the first
// that fails ends the boot with a message naming the file.
let failBoot = () => {};
const bootFailure = new Promise((_, reject) => (failBoot = reject));
const fetchOverNetwork = self.fetch.bind(self);
const BOOT_FILES = /\/(pyodide|wheels)\/[^/]+$/;
self.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), base);
  const watched = BOOT_FILES.test(url.pathname);
  const file = url.pathname.slice(base.pathname.length);
  let response;
  try {
    response = await fetchOverNetwork(input, init);
  } catch (error) {
    if (watched) {
      const offline = self.navigator.onLine === false ? "the page is offline" : "the network failed";
      failBoot(new Error(`${file} could not be downloaded (${offline}); reload the page when online`));
    }
    throw error;
  }
  if (watched && !response.ok) failBoot(new Error(`${file} could not be downloaded (HTTP ${response.status})`));
  return response;
};

async function boot() {
  progress("pyodide", "Loading Python (Pyodide)…");
  const { wheel, python_snapshot: snapshot } = await site;
  const booted = await bootPython(
    loadPyodide,
    {
      indexURL: new URL("pyodide/", base).href,
      stdout: (text) => console.log(text),
      stderr: (text) => console.warn(text),
    },
    snapshot ? new URL(snapshot, base) : null,
  );
  pyodide = booted.pyodide;
  progress("wheel", "Loading the solver package…", { from: booted.from });
  await pyodide.loadPackage(new URL(wheel, base).href, { messageCallback: () => {} });
  progress("import", "Starting the solver…");
  const api = pyodide.pyimport("gaddag_solver.web_api");
  call = api.call;
  await restoreOwnRules(python);
  progress("python", "Python ready");
}

const ready = Promise.race([boot(), bootFailure]);
ready.catch((error) =>
  progress("failed", `Python could not be loaded, so the solver cannot run: ${error.message || error}`),
);

/** Fetch lexicons/FILE (a .gaddag or a .leaves); `field` names it in an error. */
function fetchFile(file, field) {
  if (!fetches.has(file)) {
    const url = new URL(`lexicons/${encodeURIComponent(file)}`, base);
    const what = field === "leaves" ? "leave table" : "lexicon";
    const name = file.replace(/\.[a-z]+$/, "");
    const unreachable = () =>
      Object.assign(
        new Error(
          `The ${what} '${name}' is not stored on this device yet and cannot be downloaded now` +
            `${self.navigator.onLine === false ? " (offline)" : " (the network failed)"}: ` +
            "choose it once while online and it is kept for offline use.",
        ),
        { field, offline: true },
      );
    const fromNetwork = () =>
      fetch(url).then(
        async (response) => {
          if (!response.ok) {
            throw Object.assign(new Error(`unknown ${what} '${name}' (HTTP ${response.status} for ${url.pathname})`), {
              field,
            });
          }
          return new Uint8Array(await response.arrayBuffer());
        },
        () => {
          throw unreachable();
        },
      );
    // the player's own lexicons are kept in the browser; the site's come from the network (or the cache)
    const promise = ownLexiconBytes(file).then((own) => own || fromNetwork());
    promise.catch(() => fetches.delete(file));
    fetches.set(file, promise);
  }
  return fetches.get(file);
}

/** Run web_api.call(kind, request): the answer as an object, and the records if any. */
function python(kind, request, data = undefined, onProgress = undefined) {
  const answer = call(kind, JSON.stringify(request), data, onProgress);
  try {
    const result = JSON.parse(answer.get(0));
    const recordsProxy = answer.get(1);
    let records;
    if (recordsProxy) {
      const view = recordsProxy.getBuffer("u8");
      try {
        records = view.data.slice().buffer; // the one copy out of wasm memory
      } finally {
        view.release();
        recordsProxy.destroy();
      }
    }
    return { result, records };
  } finally {
    answer.destroy();
  }
}

/** Fetch lexicons/FILE and hand it to web_api (kind "load_lexicon" or "load_leaves") once. */
function loadFile(kind, file, request, field, what) {
  if (!loads.has(file)) {
    const promise = (async () => {
      const bytesPromise = fetchFile(file, field); // starts now, alongside Pyodide's boot
      await ready;
      const bytes = await bytesPromise;
      progress(field, `Checking ${what}…`, { [field]: request.name });
      // The Uint8Array goes in as it is; Python copies it once (data.to_bytes()).
      const { result } = python(kind, request, bytes);
      fetches.delete(file); // Python holds its own copy now
      if (result.error) throw Object.assign(new Error(result.error), { field: result.field });
      progress("ready", `${what} ready`, { [field]: request.name, info: result });
      return result;
    })();
    promise.catch(() => loads.delete(file));
    loads.set(file, promise);
  }
  return loads.get(file);
}

function loadLexicon(name, rules) {
  return loadFile("load_lexicon", `${name}.gaddag`, { name, rules }, "lexicon", `lexicon ${name}`);
}

function loadLeaves(name, rules) {
  return loadFile("load_leaves", `${name}.leaves`, { name, rules }, "leaves", `leave table ${name}`);
}

async function handle(message) {
  const { type } = message;
  if (type === "load") {
    return { result: await loadLexicon(message.lexicon, message.rules) };
  }
  if (type === "load_leaves") {
    return { result: await loadLeaves(message.leaves, message.rules) };
  }
  await ready;
  const own = await handleOwn(message, { python, loads, fetches, wasmBytes: () => pyodide._module.HEAPU8.byteLength });
  if (own) return own;
  if (type === "solve") {
    await loadLexicon(message.lexicon, message.rules);
    if (message.leaves) await loadLeaves(message.leaves, message.rules);
    const started = performance.now();
    const beganAt = performance.timeOrigin + started;
    const answer = python("solve", {
      lexicon: message.lexicon,
      rules: message.rules,
      board: message.board,
      rack: message.rack,
      leaves: message.leaves || null,
      exchanges: Boolean(message.exchanges),
      bag: message.bag ?? null,
      engine: message.engine || "gaddag",
      direction: message.direction || "both",
      format: "records",
    });
    answer.result.worker_ms = performance.now() - started;
    // when the solve itself began (ms since the epoch): a solve asked for while Python or a file
    // was still loading waited until then, and the page times it from there
    answer.result.began_at = beganAt;
    return answer;
  }
  if (type === "simulate" || type === "endgame" || type === "preendgame" || type === "versus" || type === "infer") {
    // a start names the position's lexicon and table; a step or stop only its session
    if (message.lexicon) await loadLexicon(message.lexicon, message.rules);
    if (message.leaves) await loadLeaves(message.leaves, message.rules);
    const { id: _id, type: _type, ...request } = message;
    return python(type, request);
  }
  if (type === "bench") {
    await loadLexicon(message.lexicon, message.rules);
    return python("bench", message);
  }
  if (type === "review_gcg") {
    await loadLexicon(message.lexicon, message.rules);
    if (message.leaves) await loadLeaves(message.leaves, message.rules);
    const { data, ...rest } = message;
    return python("review_gcg", rest, data ? new Uint8Array(data) : undefined);
  }
  if (type === "word_tools") {
    await loadLexicon(message.lexicon, message.rules);
    return python("word_tools", message);
  }
  if (type === "check_board") {
    await loadLexicon(message.lexicon, message.rules);
    return python("check_board", message);
  }
  if (type === "export_gcg") {
    if (message.lexicon) await loadLexicon(message.lexicon, message.rules);
    return python("export_gcg", message);
  }
  if (type === "judge") {
    await loadLexicon(message.lexicon, message.rules);
    return python("judge", message);
  }
  if (type === "parse_cgp" || type === "format_cgp" || type === "unseen") {
    return python(type, message);
  }
  throw Object.assign(new Error(`unknown request ${type}`), { field: "request" });
}

self.onmessage = async (event) => {
  const message = event.data || {};
  const { id } = message;
  try {
    const { result, records } = await handle(message);
    if (result && result.error) {
      self.postMessage({ id, ok: false, error: result.error, field: result.field, square: result.square });
    } else if (records) {
      self.postMessage({ id, ok: true, result, records }, [records]);
    } else {
      self.postMessage({ id, ok: true, result });
    }
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error.message || error), field: error.field || "internal" });
  }
};

