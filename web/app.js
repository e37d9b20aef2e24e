// The page: wires the board editor, the rack, the selectors (rules, lexicon, leave table,
// exchanges), CGP import/export, the unseen-tiles panel, the move list and its filters
// (filters.js), the replay of a recorded game (replay.js), undo (undo.js), the words on the
// board checked (wordcheck.js), the word tools (wordtools.js), the players (players.js), a game
// against the computer (versus.js) and the phone layout (phone.js) to the solver worker; keeps the position across reloads
// (localStorage), with the moves played here (the game exported as GCG); and, once the solver
// is ready, starts offline use (offline.js, sw.js).
//
// The worker is started first thing, so Pyodide boots while the board is drawn; the main
// thread never waits on it — a request made before it is ready is answered when it is.

import { BoardView, cellsFromRows, normalizer } from "./board.js";
import { EXCHANGE, MoveList, PASS, SORTS, written } from "./moves.js";
import { moveFilter, NO_FILTERS } from "./filters.js";
import { LookAheadPanel } from "./lookahead.js";
import { enableOffline, heldOffline, keepOffline, offlineReady } from "./offline.js";
import { wireKeys } from "./keys.js";
import { showUnder } from "./phone.js";
import { PlayersPanel } from "./players.js";
import { ReplayPanel } from "./replay.js";
import { ResultsView, points } from "./results.js";
import { History, undoKeys } from "./undo.js";
import { BoardCheck } from "./wordcheck.js";
import { WordTools } from "./wordtools.js";
import { PlayCheck } from "./verdict.js";
import { OwnLexicons } from "./own-lexicons.js";
import { RulesEditor } from "./rules-editor.js";
import { VersusPanel } from "./versus.js";
import { listOwn, mergeLexicons, ownLexiconEntries } from "./user-store.js";
import { HelperPool, defaultWorkers } from "./helpers.js";

const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });

const STORE_KEY = "gaddag-solver/v1";
const $ = (id) => document.getElementById(id);
const timings = { interactive: null, pythonReady: null, ready: null, stages: {} }; // stages: worker's ms per step
const STAGES = { start: 0, pyodide: 1, wheel: 2, import: 2.5, python: 3, lexicon: 3.5, ready: 4 };

// ---- the worker --------------------------------------------------------------------------------

let nextId = 1;
const pending = new Map();
let lookAhead = null; // the look-ahead panel, made once the board and the requests exist
let solverReady = false; // Python is up
let lexiconReady = null; // name of the lexicon loaded for the current rules
let lastLoaded = null; // {name, rules}: the last lexicon loaded, gone back to when another fails
const failedLexicons = new Set(); // names that could not be loaded since the last that could
let bootFailed = false;

worker.onmessage = (event) => {
  const message = event.data;
  if (message.type === "progress") {
    onProgress(message);
    return;
  }
  const waiting = pending.get(message.id);
  if (!waiting) return;
  pending.delete(message.id);
  if (message.ok) waiting.resolve({ result: message.result, records: message.records });
  else {
    const error = new Error(message.error);
    error.field = message.field;
    error.square = message.square;
    waiting.reject(error);
  }
};
worker.onerror = (event) => {
  bootFailed = true;
  stopLoadingTimer();
  setStatus(`The solver could not start: ${event.message || "worker error"}`, { failed: true });
  for (const [id, waiting] of pending) {
    pending.delete(id);
    waiting.reject(Object.assign(new Error("the solver could not start"), { field: "internal" }));
  }
};

function request(type, payload = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ ...payload, id, type });
  });
}

// ---- status ----------------------------------------------------------------------------------

let loadingTimer = 0;
let stageMessage = "Starting…";

function setStatus(text, { progress = null, failed = false, elapsed = "" } = {}) {
  if ($("status-text").textContent !== text) $("status-text").textContent = text;
  $("status-time").textContent = elapsed;
  $("status").classList.toggle("failed", failed);
  const bar = $("load-progress");
  if (progress === null) bar.hidden = true;
  else {
    bar.hidden = false;
    bar.value = progress;
  }
}

function onProgress(message) {
  timings.stages[message.stage] ??= message.ms;
  if (message.from) timings.pythonFrom = message.from; // "snapshot" or "start" (web/snapshot.js)
  if (message.stage === "failed") {
    bootFailed = true;
    stopLoadingTimer();
    setStatus(message.message, { failed: true });
    return;
  }
  if (message.stage === "python") {
    solverReady = true;
    timings.pythonReady = performance.now();
  }
  if (message.stage === "ready") return; // the load request's answer reports it
  stageValue = STAGES[message.stage] ?? stageValue;
  if (lexiconReady && message.stage !== "lexicon") return;
  stageMessage = message.message;
  showLoading();
}

let stageValue = 0;

function showLoading() {
  const seconds = (performance.now() / 1000).toFixed(1);
  setStatus(stageMessage, { progress: stageValue, elapsed: `${seconds} s` });
  if (!loadingTimer) loadingTimer = setInterval(showLoading, 250);
}

function stopLoadingTimer() {
  clearInterval(loadingTimer);
  loadingTimer = 0;
}

// ---- state -------------------------------------------------------------------------------------

function loadState() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}
const state = Object.assign(
  {
    rules: null,
    lexicon: {},
    leaves: {},
    exchanges: true, // a rack like IIUUVW? is best exchanged: the list says so unless asked not to
    boards: {},
    rack: "",
    filter: "",
    filters: { ...NO_FILTERS },
    solvedKey: null, // the position whose moves were on show: solved again after a reload
    players: ["", ""], // the names typed (empty: Player1, Player2)
    lastMove: null, // {rules, squares}: the tiles of the last move played, highlighted
  },
  loadState(),
);
delete state.sorts; // kept here by earlier versions: each visit now starts best first
// The sort of each kind of list: "equity" (moves valued by a leave table) and "score" (not).
const DEFAULT_SORTS = { equity: { key: "equity", descending: true }, score: { key: "score", descending: true } };
// The sort the player chose lasts the visit (this tab, through its reloads), not the next one: a
// new visit starts best first, as a player expects, not with a direction left by the last one.
const SORTS_KEY = "gaddag-solver/v1/sorts";
const sorts = (() => {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SORTS_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
})();

function saveSorts() {
  try {
    sessionStorage.setItem(SORTS_KEY, JSON.stringify(sorts));
  } catch {
    /* private mode or full: the sort lasts the page */
  }
}

function saveState() {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(state));
  } catch {
    /* private mode or full: the page still works */
  }
}

// ---- page parts --------------------------------------------------------------------------------

let rulesets = new Map(); // name -> rules data (rules.json)
let lexicons = []; // lexicons.json entries
let leaveTables = []; // lexicons.json "leaves" entries
let rules = null; // current ruleset
let lexicon = null; // current lexicon name (null: none built for these rules)
let normalize = (text) => text.toUpperCase();
let shown = null; // {list, key, request}: the moves on show
let resolving = null; // the key of the request an option's solve is finding (optionChanged)
let solveSeq = 0;
let lastSolve = null;

const board = new BoardView($("board"), $("board-input"), {
  onChange: () => {
    state.boards[rules.name] = board.rowsText();
    saveState();
    hideError("board");
    hideError("cgp"); // a failed import is over once the board is edited
    positionChanged();
    edits.commit("board", "the edit of the board");
  },
  onSolve: () => solve(),
  onMessage: (text) => (text ? showError("board", text) : hideError("board")),
  onDirection: (dir) => {
    $("dir-toggle").textContent = dir === "across" ? "Typing across →" : "Typing down ↓";
  },
  onBlankMode: (on) => $("blank-toggle").setAttribute("aria-pressed", String(on)),
});

const playCheck = new PlayCheck($("engine-options"), $("play-check"), {
  request,
  position: () => ({ lexicon, rules: rules.name, board: board.rowsText(), rack: $("rack").value }),
  onChoice: () => optionChanged(),
});

const results = new ResultsView($("results"), {
  onPreview: (index) => {
    if (index === null || !shown || results.stale) board.preview(null);
    else board.preview(shown.list.tiles(index));
  },
  onPlay: (index) => play(index),
  onSort: (key, descending) => {
    if (shown) sorts[shown.list.rankKey] = { key, descending };
    saveSorts();
    updateSummary();
  },
  normalize: (text) => normalize(text),
});

wireKeys({
  hasMoves: () => Boolean(shown) && results.view.length > 0,
  focusMoves: () => results.focusRow(results.focusPos),
});

// ---- errors ------------------------------------------------------------------------------------

const ERROR_FIELDS = {
  board: "board-error",
  rack: "rack-error",
  lexicon: "lexicon-error",
  leaves: "leaves-error",
  cgp: "cgp-error",
};

function showError(field, text) {
  const id = ERROR_FIELDS[field];
  if (!id) {
    setStatus(text, { failed: true });
    return;
  }
  const el = $(id);
  el.textContent = text;
  el.hidden = false;
  if (field === "rack") $("rack").setAttribute("aria-invalid", "true");
  if (field === "cgp") $("cgp").setAttribute("aria-invalid", "true");
}

function hideError(field) {
  const el = $(ERROR_FIELDS[field]);
  el.hidden = true;
  el.textContent = "";
  if (field === "rack") $("rack").removeAttribute("aria-invalid");
  if (field === "cgp") $("cgp").removeAttribute("aria-invalid");
  if (field === "board" && board.errorSquare !== null) board.markError(null);
}

function showRequestError(error) {
  const field = ERROR_FIELDS[error.field] ? error.field : null;
  if (field) showError(field, error.message);
  else setStatus(`Error: ${error.message}`, { failed: true });
  if (field === "board" && error.square) board.markError(error.square);
  if (field === "cgp") $("cgp-box").open = true;
}

// ---- rules and lexicons ------------------------------------------------------------------------

// The tournament word list English speakers play where the browser's language says they are:
// NASPA's (TWL06 here) in the United States and Canada, Collins' (SOWPODS) everywhere else. The
// ruleset's own default (ENABLE, the command line's) is only a fallback: a new player's word check
// should accept QI and ZA. Once a lexicon is chosen the page remembers it.
const TOURNAMENT_LEXICONS = {
  english: (language) => (/^en-(us|ca)\b/i.test(language) ? "twl06" : "sowpods"),
};

/** The lexicon a new visitor gets for a ruleset: the tournament list for the browser's language
 * where there is one, else the ruleset's default. */
function preferredLexicon(ruleset) {
  const pick = TOURNAMENT_LEXICONS[ruleset.name];
  return pick ? pick(navigator.language || "") : ruleset.default_lexicon;
}

function lexiconsFor(ruleset) {
  const fitting = lexicons.filter((entry) => entry.rules.includes(ruleset.name));
  const preferred = preferredLexicon(ruleset);
  const rank = (entry) => (entry.name === preferred ? 0 : entry.name === ruleset.default_lexicon ? 1 : 2);
  return fitting.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

function describeBytes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} kB`;
}

function fillRulesSelect() {
  const select = $("rules-select");
  select.replaceChildren();
  for (const ruleset of rulesets.values()) {
    const option = document.createElement("option");
    option.value = ruleset.name;
    const none = lexiconsFor(ruleset).length === 0;
    option.textContent = `${ruleset.title} (${ruleset.rows}×${ruleset.cols})${none ? " — no lexicon built" : ""}`;
    select.append(option);
  }
}

function lexiconLabel(entry) {
  return `${entry.name} — ${entry.words.toLocaleString("en")} words (${describeBytes(entry.bytes)})`;
}

/** While the browser is offline, the lexicons of the site it has not stored say so in the list
 * (the player's own are in the browser); online again, the marks go. */
async function markOfflineLexicons() {
  const fitting = lexiconsFor(rules);
  const offline = navigator.onLine === false;
  const files = fitting.filter((entry) => !entry.own).map((entry) => `lexicons/${entry.name}.gaddag`);
  const held = offline ? await heldOffline(files) : new Set();
  for (const option of $("lexicon-select").options) {
    const entry = fitting.find((e) => e.name === option.value);
    if (!entry) continue;
    const missing = offline && !entry.own && !held.has(`lexicons/${entry.name}.gaddag`);
    option.textContent = lexiconLabel(entry) + (missing ? " · not on this device (offline)" : "");
  }
}
window.addEventListener("online", () => markOfflineLexicons());
window.addEventListener("offline", () => markOfflineLexicons());

function fillLexiconSelect() {
  const select = $("lexicon-select");
  select.replaceChildren();
  const fitting = lexiconsFor(rules);
  for (const entry of fitting) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = lexiconLabel(entry);
    select.append(option);
  }
  markOfflineLexicons();
  if (!fitting.length) {
    const option = document.createElement("option");
    option.value = "";
    option.textContent = "none built";
    select.append(option);
  }
  select.disabled = fitting.length === 0;
  const note = $("lexicon-note");
  if (fitting.length) {
    note.hidden = true;
  } else {
    const others = lexicons.map((entry) => entry.name).join(", ") || "none";
    note.innerHTML = "";
    note.append(
      `No lexicon for ${rules.title} is built here (built: ${others}), so this board can be edited but not solved. ` +
        "Build one from a word list with ",
      Object.assign(document.createElement("code"), {
        textContent: `python build_lexicon.py WORDS.txt -o lexicons/NAME.gaddag --rules ${rules.name}`,
      }),
      " and rebuild the site (scripts/build_site.py).",
    );
    note.hidden = false;
  }
}

function tablesFor(ruleset) {
  return leaveTables.filter((entry) => entry.rules === ruleset.name).sort((a, b) => a.name.localeCompare(b.name));
}

/** The Leaves choice: none, or each table for the current ruleset (the first is the default). */
function fillLeavesSelect() {
  const select = $("leaves-select");
  select.replaceChildren();
  const none = document.createElement("option");
  none.value = "";
  none.textContent = "none (rank by score)";
  select.append(none);
  const tables = tablesFor(rules);
  for (const entry of tables) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = `${entry.name} (${describeBytes(entry.bytes)})`;
    select.append(option);
  }
  select.disabled = tables.length === 0;
  const wanted = state.leaves[rules.name];
  const chosen = wanted === undefined ? defaultLeaves(tables) : tables.find((entry) => entry.name === wanted)?.name;
  select.value = chosen ?? "";
  $("leaves-help").textContent = tables.length
    ? "A leave table values the tiles a move keeps: equity = score + leave value, and the moves are ranked by it."
    : `No leave table for ${rules.title} is built here: moves are ranked by score.`;
}

/** Until the player chooses, the lexicon's own table (lexicons.json: its trained table, or the
 * one it shares), else the first for the ruleset. */
function defaultLeaves(tables) {
  // A table made for this lexicon and ruleset (enable-wwf), then the lexicon's own, then any.
  const own = lexicons.find((entry) => entry.name === lexicon)?.leaves;
  const preferred = [`${lexicon}-${rules.name}`, own];
  return preferred.map((name) => tables.find((entry) => entry.name === name)?.name).find(Boolean) ?? tables[0]?.name;
}

/** The leave table chosen (a name), or null. */
function chosenLeaves() {
  return $("leaves-select").value || null;
}

function preloadLeaves() {
  hideError("leaves");
  const name = chosenLeaves();
  if (!name) return;
  request("load_leaves", { leaves: name, rules: rules.name }).then(
    () => keepOffline(`lexicons/${name}.leaves`),
    (error) => {
      if (chosenLeaves() === name && !bootFailed) showError("leaves", error.message);
    },
  );
}

function chooseLexicon({ quiet = false } = {}) {
  const fitting = lexiconsFor(rules);
  const wanted = state.lexicon[rules.name];
  let chosen = fitting.find((entry) => entry.name === wanted)?.name;
  if (!chosen) {
    chosen = fitting[0]?.name ?? null;
    if (wanted && !quiet) {
      showError(
        "lexicon",
        `Lexicon '${wanted}' is not available here (built: ${lexicons.map((e) => e.name).join(", ") || "none"})` +
          (chosen ? `; using '${chosen}'.` : "."),
      );
    }
  }
  setLexicon(chosen);
}

function setLexicon(name) {
  lexicon = name;
  if (name) {
    state.lexicon[rules.name] = name;
    $("lexicon-select").value = name;
  }
  if (state.leaves[rules.name] === undefined && chosenLeaves() !== (defaultLeaves(tablesFor(rules)) ?? null)) {
    fillLeavesSelect(); // the lexicon's own table follows the lexicon until a table is chosen
    preloadLeaves();
  }
  saveState();
  positionChanged();
  loadLexicon();
}

function loadLexicon() {
  lexiconReady = null;
  if (!lexicon) {
    stopLoadingTimer();
    if (!bootFailed) setStatus(`No lexicon for ${rules.title}`);
    return;
  }
  const name = lexicon;
  const ruleset = rules.name;
  const asked = performance.now();
  if (solverReady) {
    stageMessage = `Loading lexicon ${name}…`;
    showLoading();
  }
  request("load", { lexicon: name, rules: ruleset })
    .then(({ result }) => {
      if (lexicon !== name || rules.name !== ruleset) return;
      lexiconReady = name;
      lastLoaded = { name, rules: ruleset };
      failedLexicons.clear();
      // a lexicon of the site is kept for offline use; the player's own lives in the browser
      // already, and its name is never sent to the site
      if (!lexicons.find((entry) => entry.name === name)?.own) keepOffline(`lexicons/${name}.gaddag`);
      stopLoadingTimer();
      const first = timings.ready === null;
      if (first) timings.ready = performance.now();
      document.body.dataset.ready = name;
      if (first) {
        enableOffline();
        // the moves that were on show before a reload come back (a solve takes milliseconds)
        if (state.solvedKey && keyOf(currentRequest()) === state.solvedKey) solve();
      }
      const words = `${result.words.toLocaleString("en")} words`;
      setStatus(
        first
          ? `Ready: ${name}, ${words} (solver loaded in ${(timings.ready / 1000).toFixed(1)} s)`
          : `Ready: ${name}, ${words} (loaded in ${Math.round(performance.now() - asked)} ms)`,
      );
    })
    .catch((error) => {
      if (lexicon !== name || bootFailed) return; // a failed boot has said why already
      stopLoadingTimer();
      const back = lastLoaded && lastLoaded.name !== name ? lastLoaded : null;
      if (back) {
        // the lexicon loaded before stays in use (and chosen, with its rules, so a later visit
        // does not ask for the one that failed): the selectors return to it, Solve goes on
        const otherRules = back.rules !== ruleset;
        if (otherRules) setRules(back.rules);
        else setLexicon(back.name);
        const title = otherRules ? ` with ${rules.title}` : "";
        showError("lexicon", `${error.message} Still using '${back.name}'${title}.`);
        return;
      }
      failedLexicons.add(name);
      showError("lexicon", error.message);
      setStatus(`Lexicon ${name} could not be loaded`, { failed: true });
      useStoredLexicon(name, error.message);
    });
}

/** Nothing loaded yet and the lexicon chosen cannot be had (say, offline and never stored):
 * another of these rules this device holds (the player's own, or one the site's caches keep)
 * is used instead, and the page says so. */
async function useStoredLexicon(failed, message) {
  const others = lexiconsFor(rules).filter((entry) => !failedLexicons.has(entry.name));
  const held = await heldOffline(others.filter((e) => !e.own).map((e) => `lexicons/${e.name}.gaddag`));
  const stored = others.find((e) => e.own || held.has(`lexicons/${e.name}.gaddag`));
  if (!stored || lexicon !== failed) return;
  setLexicon(stored.name);
  showError("lexicon", `${message} Using '${stored.name}', which this device holds.`);
}

function setRules(name, { initial = false } = {}) {
  if (rules && !initial) state.boards[rules.name] = board.rowsText();
  rules = rulesets.get(name) || rulesets.values().next().value;
  state.rules = rules.name;
  normalize = normalizer(rules);
  const textNormalize = normalize;
  normalize = (text) => [...String(text)].map((ch) => (ch === "." ? "." : textNormalize(ch) || ch.toUpperCase())).join("");
  board.setRules(rules, cellsFromRows(state.boards[rules.name], rules));
  board.markLast(state.lastMove?.rules === rules.name ? state.lastMove.squares : []);
  playCheck.setRules(rules);
  $("rules-select").value = rules.name;
  $("board").setAttribute(
    "aria-label",
    `${rules.title} board, ${rules.rows} rows by ${rules.cols} columns`,
  );
  // a ruleset with tiles of several letters says how to type one on the rack (CH is read as the
  // CH tile; [C][H] would be two)
  const several = rules.letters.find((letter) => [...letter].length > 1);
  $("rack-several").textContent = several ? `, ${several} or [${several}] for the ${several} tile` : "";
  fillLexiconSelect();
  fillLeavesSelect();
  shown = null;
  results.show(null);
  updateSummary();
  hideError("board");
  hideError("lexicon");
  hideError("cgp");
  chooseLexicon({ quiet: false });
  preloadLeaves();
  edits.reset();
}

// ---- the position ------------------------------------------------------------------------------

function currentRequest() {
  return playCheck.choices({
    lexicon,
    rules: rules.name,
    board: board.rowsText(),
    rack: $("rack").value,
    leaves: chosenLeaves(),
    exchanges: $("exchanges").checked,
  });
}

function keyOf(req) {
  return JSON.stringify([req.lexicon, req.rules, req.board, req.rack, req.leaves, req.exchanges, req.engine, req.direction]);
}

function positionChanged() {
  lookAhead?.positionChanged();
  playCheck.positionChanged();
  scheduleUnseen();
  scheduleLikely();
  boardCheck.schedule();
  playersPanel.update();
  markStale();
}

/** Grey the list (and say so) when it is not the moves of the position as it is now, unless
 * those are being found already (an option changed). */
function markStale() {
  if (!shown) return;
  const key = keyOf(currentRequest());
  const stale = key !== shown.key && key !== resolving;
  if (stale !== results.stale) {
    results.setStale(stale);
    if (stale) board.preview(null);
  }
  const note = $("results-note");
  if (stale) {
    note.textContent = "The position has changed since these moves were found: Solve again.";
    note.hidden = false;
  } else if (note.dataset.warnings) {
    note.textContent = note.dataset.warnings;
  } else {
    note.hidden = true;
  }
}

/** An option of the solve changed (the leave table, exchanges, the engine or its direction).
 * With the moves of the position on show, they are found again at once (a solve takes
 * milliseconds), the list staying as it is meanwhile; otherwise the list stays marked as
 * the position left it. */
function optionChanged() {
  if (shown && !results.stale && lexiconReady) {
    const key = keyOf(currentRequest());
    resolving = key;
    solve({ again: true }).finally(() => {
      if (resolving === key) resolving = null;
      markStale(); // a solve that failed leaves the list marked
    });
  }
  positionChanged();
}

// ---- the unseen tiles ---------------------------------------------------------------------------

let unseenTimer = 0;
let unseenSeq = 0;

/** Ask the worker for the unseen tiles of the position as it is now (soon, once per burst of
 * edits); the answer is drawn only if nothing changed meanwhile. */
function scheduleUnseen() {
  clearTimeout(unseenTimer);
  const seq = ++unseenSeq;
  unseenTimer = setTimeout(async () => {
    const req = { rules: rules.name, board: board.rowsText(), rack: $("rack").value };
    try {
      const { result } = await request("unseen", req);
      if (seq === unseenSeq) showUnseen(result);
    } catch (error) {
      if (seq === unseenSeq) showUnseen(null, error);
    }
  }, 60);
}

// ---- what the opponent likely kept (docs/inference.md) ---------------------------------------------

let likelyTimer = 0;
let likelySeq = 0;

/** Infer what the opponent kept with the last move written (soon, once per burst of typing); the
 * answer is drawn only if nothing changed meanwhile. */
function scheduleLikely() {
  clearTimeout(likelyTimer);
  const seq = ++likelySeq;
  const text = $("last-move").value.trim();
  if (!text) {
    showLikely(null);
    return;
  }
  likelyTimer = setTimeout(async () => {
    if (!lexiconReady) return;
    try {
      const { result } = await request("infer", { ...currentRequest(), last_move: text });
      if (seq === likelySeq) showLikely(result);
    } catch (error) {
      if (seq === likelySeq) showLikely(null, error);
    }
  }, 300);
}

function showLikely(likely, error = null) {
  const box = $("likely");
  const failed = $("likely-error");
  failed.hidden = !error;
  failed.textContent = error ? `The last move cannot be read: ${error.message}` : "";
  box.hidden = !likely;
  if (!likely) return;
  if (!likely.informative) {
    $("likely-leaves").textContent = `Nothing can be inferred from ${likely.move}: ${likely.reason}.`;
    $("likely-holds").textContent = "";
    $("likely-how").textContent = "";
    return;
  }
  const percent = (p) => `${(100 * p).toFixed(0)}%`;
  const leaves = likely.leaves.map((x) => `${x.tiles || "nothing"} ${percent(x.probability)}`).join(", ");
  const holds = Object.entries(likely.holds).map(([letter, p]) => `${letter === "?" ? "a blank" : letter} ${percent(p)}`);
  $("likely-leaves").textContent = `Likely kept: ${leaves}`;
  $("likely-holds").textContent = holds.length
    ? `Likely on their rack now: ${holds.join(", ")}.`
    : "No letter is more likely than not on their rack.";
  $("likely-how").textContent = likely.exhaustive
    ? `From ${likely.move}: every one of ${likely.racks.toLocaleString("en")} racks they could have held valued; Simulate draws their rack from this.`
    : `From ${likely.move}: ${likely.racks.toLocaleString("en")} of the racks they could have held sampled; Simulate draws their rack from this.`;
}

/** Draw the panel: a cell per letter (and ? for the blanks), the bag and the split. */
let unseenDrawn = ""; // the unseen tiles on show, as JSON: the same again is not redrawn

function showUnseen(unseen, error = null) {
  const panel = $("unseen");
  const grid = $("unseen-grid");
  const note = $("unseen-note");
  const drawn = unseen ? JSON.stringify([rules.name, unseen]) : "";
  if (drawn && drawn === unseenDrawn) return;
  unseenDrawn = drawn;
  if (!unseen) {
    note.textContent = error.field === "rack" ? `The rack is not counted: ${error.message}` : error.message;
    note.hidden = false;
    panel.dataset.state = "error";
    return;
  }
  note.hidden = true;
  const cells = [];
  for (const [letter, count] of Object.entries(unseen.counts)) {
    const cell = document.createElement("div");
    cell.className = count ? "u-cell" : "u-cell none";
    cell.setAttribute("role", "listitem");
    cell.dataset.letter = letter;
    cell.dataset.count = count;
    cell.setAttribute("aria-label", `${letter === "?" ? "blanks" : letter}: ${count}`);
    const name = document.createElement("span");
    name.className = "u-letter";
    name.textContent = letter;
    const number = document.createElement("span");
    number.className = "u-count";
    number.textContent = String(count);
    cell.append(name, number);
    cells.push(cell);
  }
  grid.replaceChildren(...cells);
  const minimum = unseen.exchange_minimum ?? rules.exchange_minimum;
  const summary = $("unseen-summary");
  summary.replaceChildren();
  const part = (label, value, key) => {
    const span = document.createElement("span");
    span.dataset.key = key;
    span.append(`${label} `, Object.assign(document.createElement("b"), { textContent: String(value) }));
    summary.append(span);
  };
  part("bag", unseen.bag, "bag");
  part("unseen", unseen.total, "total");
  part("vowels", unseen.vowels, "vowels");
  part("consonants", unseen.consonants, "consonants");
  part("blanks", unseen.blanks, "blanks");
  panel.dataset.state = "ready";
  panel.dataset.bag = String(unseen.bag);
  panel.classList.toggle("low-bag", unseen.bag < minimum);
  $("unseen").title = unseen.bag < minimum ? `Fewer than ${minimum} tiles in the bag: no exchanges` : "";
  const warnings = $("unseen-warnings");
  warnings.textContent = sentences(unseen.warnings || []);
  warnings.hidden = !warnings.textContent;
}

/** Warnings (the solver's are clauses: "the board and rack hold 3 Z tiles, but …") as one text
 * of sentences: each begun with a capital and ended with a full stop. */
function sentences(warnings) {
  return warnings
    .map((text) => String(text).trim())
    .filter(Boolean)
    .map((text) => `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`)
    .join(" ");
}

function updateSummary() {
  const summary = $("results-summary");
  if (!shown) {
    summary.textContent = "";
    return;
  }
  const count = shown.list.count;
  const showing = results.view.length;
  const what = showing === count ? `${count.toLocaleString("en")} moves` : `${showing.toLocaleString("en")} of ${count.toLocaleString("en")} moves`;
  const time = lastSolve ? ` · ${Math.round(lastSolve.ms)} ms${waitedText(lastSolve.waited_ms)}` : "";
  const table = shown.list.byEquity ? ` · leaves ${shown.request.leaves}` : "";
  const sort = SORTS[results.sortKey];
  // the order in words too ("highest first"), beside the column's small arrow (not on a phone,
  // where the summary has one line)
  const order = Object.assign(document.createElement("span"), {
    className: "summary-order",
    textContent: `, ${sort.order[results.descending ? 0 : 1]}`,
  });
  summary.replaceChildren(`${what} · by ${sort.label.toLowerCase()}`, order, `${table}${time}`);
  $("results-empty").hidden = count > 0;
  if (count === 0) $("results-empty").textContent = "No moves: this rack has no play on this board.";
}

/** A solve that waited for the solver to load says so, apart from its own time. */
function waitedText(ms) {
  return ms >= 50 ? ` (after waiting ${(ms / 1000).toFixed(1)} s for the solver to load)` : "";
}

const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Solve the position as it is; `again`: for a changed option (the page is not scrolled to the
 * list on a phone, where the options are under it). */
async function solve({ again = false } = {}) {
  hideError("rack");
  hideError("board");
  hideError("cgp");
  if (!lexicon) {
    showError("lexicon", `No lexicon is built for ${rules.title}: this ruleset cannot be solved here.`);
    return;
  }
  hideError("lexicon");
  const req = currentRequest();
  const seq = ++solveSeq;
  const started = performance.now();
  performance.mark("solve:start");
  const button = $("solve");
  button.setAttribute("aria-busy", "true");
  // the answer brings the unseen tiles: no separate request to queue in the worker before it
  clearTimeout(unseenTimer);
  // Nothing else changes on screen until the answer, unless it is slow: a change now would
  // make the browser draw a frame, and the answer would wait behind it.
  let busy = 0;
  if (lexiconReady) busy = setTimeout(() => setStatus("Solving…"), 150);
  else {
    // said on the button too, where the player is looking
    button.dataset.queued = "true";
    button.textContent = "Queued…";
    stageMessage = "Solving as soon as the solver has loaded…";
    showLoading();
  }
  const unqueue = () => {
    delete button.dataset.queued;
    button.textContent = "Solve";
  };
  let answer;
  try {
    answer = await request("solve", req);
    performance.mark("solve:answer");
  } catch (error) {
    clearTimeout(busy);
    if (seq === solveSeq) {
      $("solve").removeAttribute("aria-busy");
      unqueue();
      scheduleUnseen(); // the answer that would have brought them did not come
      if (bootFailed) return; // the status says why nothing can be solved
      showRequestError(error);
      if (lexiconReady) setStatus("Could not solve: see the message.");
    }
    return;
  }
  clearTimeout(busy);
  if (seq !== solveSeq) return;
  const { result, records } = answer;
  const list = new MoveList(records || new ArrayBuffer(0), result.count, rules.letters, result.rack, {
    valued: result.valued,
    byEquity: result.by_equity,
  });
  shown = { list, key: keyOf(req), request: req };
  state.solvedKey = shown.key;
  saveState();
  let sort = sorts[list.rankKey] || DEFAULT_SORTS[list.rankKey];
  if (!SORTS[sort.key] || (sort.key === "equity" && !list.byEquity)) sort = DEFAULT_SORTS.score;
  results.show(list, { key: sort.key, descending: Boolean(sort.descending) });
  if (seq === solveSeq && keyOf(currentRequest()) === shown.key) showUnseen(result.unseen);
  const noExchanges = req.exchanges && result.bag < result.exchange_minimum;
  const note = $("results-note");
  note.dataset.warnings = sentences([
    ...(result.warnings || []),
    ...(noExchanges ? [`No exchanges: the bag holds ${result.bag}, fewer than ${result.exchange_minimum}.`] : []),
  ]);
  note.textContent = note.dataset.warnings;
  note.hidden = !note.dataset.warnings;
  lastSolve = null;
  updateSummary();
  performance.mark("solve:rows");
  await nextPaint();
  performance.mark("solve:frame");
  // the time the solve took, not the time it waited for the solver to load
  const at = performance.now();
  const began = result.began_at === undefined ? started : result.began_at - performance.timeOrigin;
  const waited = Math.max(0, began - started);
  const ms = at - started - waited;
  if (seq !== solveSeq) return;
  lastSolve = { ms, count: result.count, worker_ms: result.worker_ms, python_ms: result.ms, seq, waited_ms: waited, at };
  button.removeAttribute("aria-busy");
  unqueue();
  if (!again) showUnder($("results-panel"), $("board-wrap"));
  $("results").dataset.solveSeq = String(seq);
  updateSummary();
  stopLoadingTimer();
  setStatus(
    `${result.count.toLocaleString("en")} moves in ${Math.round(ms)} ms ` +
      `(generation ${result.ms.generate.toFixed(1)} ms)${waitedText(waited)}`,
  );
}

function removeTiles(rackText, used) {
  const tokens = rackText.match(/\[[^\]]+\]|\S/gu) || [];
  const plain = tokens.map((t) => (t === "?" ? "?" : normalize(t.replace(/^\[|\]$/g, ""))));
  for (const tile of used) {
    const at = plain.indexOf(tile);
    if (at >= 0) {
      plain.splice(at, 1);
      tokens.splice(at, 1);
    }
  }
  return plain.map(written).join("");
}

function play(index) {
  if (!shown || results.stale) return;
  const list = shown.list;
  const rack = $("rack");
  const kind = list.kind[index];
  if (kind === PASS) {
    recordPlay(list, index, rack.value);
    setLastMove([]);
    playersPanel.update();
    edits.commit("play", "the pass");
    board.preview(null);
    setStatus("Passed: the board and the rack are as they were.");
    rack.focus();
    return;
  }
  const tiles = list.tiles(index);
  for (const [r, c] of tiles) {
    if (board.cells[board.index(r, c)]) {
      showError("board", `${list.coord(index)} ${list.word(index)} cannot be played: ${board.name(r, c)} is taken`);
      return;
    }
  }
  for (const [r, c, letter, blank] of tiles) board.cells[board.index(r, c)] = { letter, blank };
  recordPlay(list, index, rack.value);
  setLastMove(tiles.map(([r, c]) => [r, c]));
  rack.value = removeTiles(rack.value, list.spent(index));
  state.rack = rack.value;
  state.boards[rules.name] = board.rowsText();
  saveState();
  board.preview(null);
  hideError("cgp");
  positionChanged();
  edits.commit("play", kind === EXCHANGE ? "the exchange" : `the play ${list.coord(index)} ${list.word(index)}`);
  const equity = list.byEquity ? ` (equity ${points(list.equityPoints(index))})` : "";
  if (kind === EXCHANGE) {
    const put = list.exchanged(index).map(written).join("");
    setStatus(`Exchanged ${put}${equity}. Add the tiles drawn to the rack and solve again.`);
  } else {
    setStatus(
      `Played ${list.coord(index)} ${list.word(index)} for ${list.score[index]}${equity}. Refill the rack and solve again.`,
    );
  }
  rack.focus();
}

// ---- the game played here, and the replay of a recorded one --------------------------------------

/** The moves played on this page (Play), in order, as web_api.export_gcg takes them: kept since
 * the board was last cleared, a position imported or a recorded game opened. */
function recordPlay(list, index, rackBefore) {
  if (!state.game || state.game.rules !== rules.name) state.game = { rules: rules.name, events: [] };
  const kind = list.kindName(index);
  const event = { kind, rack: rackBefore };
  if (list.kind[index] === EXCHANGE) event.exchanged = list.exchanged(index).map(written).join("");
  else if (list.kind[index] !== PASS) {
    event.coord = list.coord(index);
    event.word = list
      .parts(index)
      .map((p) => (p.onBoard ? "." : written(p.blank ? p.letter.toLowerCase() : p.letter)))
      .join("");
    event.score = list.score[index];
  }
  state.game.events.push(event);
  saveState();
}

/** A new game here, from `start`: the two players' scores (those of an imported position). */
function resetGame(start = [0, 0]) {
  state.game = { rules: rules.name, events: [], start };
  setLastMove([]);
  saveState();
}

/** A turn of a recorded game on the board (the move shown as a preview) and its rack; with no
 * tiles, also the position before the review, put back by Close. */
function showReplayed(rows, rack, tiles) {
  board.setRows(rows);
  board.preview(tiles);
  $("rack").value = rack;
  state.rack = rack;
  state.boards[rules.name] = board.rowsText();
  saveState();
  hideError("board");
  hideError("rack");
  positionChanged();
  edits.commit("replay", "the game reviewed");
}

const replay = new ReplayPanel({
  request,
  context: () => ({ rules, lexicon, leaves: chosenLeaves() }),
  showPosition: showReplayed,
  position: () => ({ rows: board.rowsText(), rack: $("rack").value }),
  playedGame: () => ({ events: playedEvents(), players: playersPanel.names() }),
  onLoaded: () => resetGame(),
  canUseLexicon: (name) => lexiconsFor(rules).some((entry) => entry.name === name),
  findLexicon: (name) => lexiconsFor(rules).find((entry) => entry.name.toLowerCase() === name.trim().toLowerCase())?.name ?? null,
  useLexicon: (name) => {
    hideError("lexicon");
    setLexicon(name);
    replay.rerun();
  },
});

// ---- a game against the computer (versus.js) ------------------------------------------------------

const versus = new VersusPanel({
  request,
  context: () => ({ rules, lexicon, leaves: defaultLeaves(tablesFor(rules)) ?? null }),
  rulesData: (name) => rulesets.get(name),
  review: (gcg) => {
    $("replay-box").open = true;
    $("gcg-text").value = gcg;
    replay.openText(gcg);
    $("replay-box").scrollIntoView({ block: "start" });
  },
});

$("sim-workers").value = String(defaultWorkers());
$("last-move").addEventListener("input", scheduleLikely);
lookAhead = new LookAheadPanel({
  request,
  position: () => currentRequest(),
  preview: (tiles) => board.preview(tiles),
  helpers: new HelperPool(),
});

// ---- CGP ---------------------------------------------------------------------------------------

async function importCgp() {
  hideError("cgp");
  const text = $("cgp").value.trim();
  let answer;
  try {
    answer = await request("parse_cgp", { cgp: text, rules: rules.name });
  } catch (error) {
    showRequestError(error.field === "rules" ? error : Object.assign(error, { field: "cgp" }));
    return;
  }
  const { result } = answer;
  resetGame(result.scores);
  board.setRows(result.board);
  $("rack").value = result.rack;
  state.rack = result.rack;
  state.boards[rules.name] = board.rowsText();
  saveState();
  hideError("board");
  hideError("rack");
  let message = "Position imported.";
  if (result.lexicon) {
    const wanted = result.lexicon.toLowerCase();
    const found = lexiconsFor(rules).find(
      (entry) => entry.name.toLowerCase() === wanted || (entry.source_name || "").toLowerCase() === wanted,
    );
    if (found) {
      if (found.name !== lexicon) {
        setLexicon(found.name);
        message = `Position imported; lexicon ${found.name}.`;
      }
    } else {
      showError(
        "cgp",
        `The position names lexicon '${result.lexicon}', which is not available here ` +
          `(built: ${lexicons.map((e) => e.name).join(", ") || "none"}); kept ${lexicon || "none"}.`,
      );
    }
  }
  positionChanged();
  // set here too: the standing tells only a lead that changed, and the field may have been edited
  $("lookahead-lead").value = String(result.scores[0] - result.scores[1]);
  edits.commit("import", "the import");
  if (lexiconReady) setStatus(message);
}

async function exportCgp() {
  hideError("cgp");
  try {
    const { result } = await request("format_cgp", {
      board: board.rowsText(),
      rack: $("rack").value,
      rules: rules.name,
      lexicon: lexicon || "",
      scores: playersPanel.scoresToMove(),
    });
    const box = $("cgp");
    box.value = result.cgp;
    box.focus();
    box.select();
    try {
      await navigator.clipboard?.writeText(result.cgp);
      if (lexiconReady) setStatus("CGP exported and copied to the clipboard.");
    } catch {
      if (lexiconReady) setStatus("CGP exported.");
    }
  } catch (error) {
    showRequestError(error.field === "rack" ? error : Object.assign(error, { field: error.field === "board" ? "cgp" : error.field }));
  }
}

// ---- the players, the last move ------------------------------------------------------------------

/** The moves played here with the current rules. */
function playedEvents() {
  return state.game?.rules === rules.name ? state.game.events : [];
}

const playersPanel = new PlayersPanel({
  names: () => state.players || ["", ""],
  setNames: (names) => {
    state.players = names;
    saveState();
  },
  events: playedEvents,
  start: () => (state.game?.rules === rules.name && state.game.start) || [0, 0],
  leadChanged: (points) => {
    $("lookahead-lead").value = String(points);
  },
});

/** Highlight the tiles of the last move played ([] for none), kept with the position. */
function setLastMove(squares) {
  state.lastMove = { rules: rules.name, squares };
  board.markLast(squares);
}

// ---- the words on the board ----------------------------------------------------------------------

const boardCheck = new BoardCheck({
  request,
  board,
  note: $("board-words"),
  position: () => (rules && lexicon ? { lexicon, rules: rules.name, board: board.rowsText() } : null),
});

// ---- word tools ---------------------------------------------------------------------------------

new WordTools({ request, lexicon: () => ({ lexicon, rules: rules?.name }) });

// ---- undo --------------------------------------------------------------------------------------

const edits = new History({
  snapshot: () => ({
    rows: board.rowsText(),
    rack: $("rack").value,
    game: state.game ? structuredClone(state.game) : null, // a copy: plays push onto state.game
    last: state.lastMove?.squares ?? [],
  }),
  restore: (saved) => {
    board.setRows(saved.rows);
    board.preview(null);
    $("rack").value = saved.rack;
    state.rack = saved.rack;
    state.game = saved.game ?? undefined;
    setLastMove(saved.last);
    state.boards[rules.name] = board.rowsText();
    saveState();
    for (const field of ["board", "rack", "cgp"]) hideError(field);
    positionChanged();
  },
  onChange: (h) => {
    $("undo").disabled = !h.canUndo;
    $("redo").disabled = !h.canRedo;
  },
});

function toldUndone(what) {
  if (what && lexiconReady) setStatus(`Undone: ${what}.`);
}

function toldRedone(what) {
  if (what && lexiconReady) setStatus(`Redone: ${what}.`);
}

// ---- wiring ------------------------------------------------------------------------------------

function wire() {
  $("solve-form").addEventListener("submit", (event) => {
    event.preventDefault();
    solve();
  });
  $("rack").addEventListener("input", () => {
    state.rack = $("rack").value;
    saveState();
    hideError("rack");
    hideError("cgp");
    positionChanged();
    edits.commit("rack", "the edit of the rack");
  });
  $("rules-select").addEventListener("change", (event) => setRules(event.target.value));
  $("lexicon-select").addEventListener("change", (event) => {
    hideError("lexicon");
    setLexicon(event.target.value);
    replay.rerun();
  });
  $("leaves-select").addEventListener("change", (event) => {
    state.leaves[rules.name] = event.target.value;
    saveState();
    preloadLeaves();
    optionChanged();
    replay.rerun();
  });
  const exchanges = $("exchanges");
  exchanges.checked = Boolean(state.exchanges);
  exchanges.addEventListener("change", () => {
    state.exchanges = exchanges.checked;
    saveState();
    optionChanged();
  });
  $("dir-toggle").addEventListener("click", () => {
    board.toggleDirection();
    board.focus();
  });
  $("blank-toggle").addEventListener("click", (event) => {
    board.blankMode = !board.blankMode;
    event.currentTarget.setAttribute("aria-pressed", String(board.blankMode));
    board.focus();
  });
  $("clear-board").addEventListener("click", () => {
    resetGame();
    board.setRows([]);
    state.boards[rules.name] = board.rowsText();
    saveState();
    hideError("board");
    hideError("cgp");
    positionChanged();
    edits.commit("clear", "clearing the board"); // undone, the moves played come back too
  });
  $("undo").addEventListener("click", () => toldUndone(edits.undo()));
  $("redo").addEventListener("click", () => toldRedone(edits.redo()));
  undoKeys(edits, { positionFields: [$("board-input"), $("rack")], onUndo: toldUndone, onRedo: toldRedone });
  $("cgp-import").addEventListener("click", importCgp);
  $("cgp-export").addEventListener("click", exportCgp);
  let filterTimer = 0;
  const filter = $("filter");
  filter.value = state.filter || "";
  filter.addEventListener("input", () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => {
      state.filter = filter.value;
      saveState();
      results.setFilter(filter.value);
      updateSummary();
    }, 80);
  });
  window.addEventListener("resize", () => board.renderSelection());
  wireFilters();
}

/** The filters beyond the text box (filters.js): tiles used, score and length ranges. */
function wireFilters() {
  const fields = {
    uses: $("f-uses"),
    scoreMin: $("f-score-min"),
    scoreMax: $("f-score-max"),
    lengthMin: $("f-length-min"),
    lengthMax: $("f-length-max"),
  };
  const saved = { ...NO_FILTERS, ...(state.filters || {}) };
  for (const [key, input] of Object.entries(fields)) input.value = saved[key] ?? "";
  const apply = () => {
    const values = Object.fromEntries(Object.entries(fields).map(([key, input]) => [key, input.value]));
    state.filters = values;
    saveState();
    const { test, error, field } = moveFilter(values, normalizer(rules));
    const message = $("filters-error");
    for (const [key, input] of Object.entries(fields)) {
      if (key === field) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    message.hidden = !error;
    message.textContent = error || "";
    if (error) return;
    const active = Object.values(values).filter((value) => String(value).trim()).length;
    $("filters-active").textContent = active ? `(${active} set)` : "";
    results.setMoveTest(test);
    updateSummary();
  };
  let timer = 0;
  for (const input of Object.values(fields)) {
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(apply, 80);
    });
  }
  $("f-clear").addEventListener("click", () => {
    for (const input of Object.values(fields)) input.value = "";
    apply();
  });
  if (Object.values(saved).some((value) => String(value).trim())) $("more-filters").open = true;
  filtersReady = apply;
}

let filtersReady = () => {}; // applies the saved filters once the rules are known


// ---- the player's own lexicons and rulesets (own-lexicons.js, rules-editor.js) --------------------

let siteLexicons = []; // lexicons.json's, before the player's own join them
let defaultRules = null;

/** The rulesets and lexicons kept in this browser, joined to the site's. */
async function mergeOwn() {
  for (const [name, entry] of rulesets) if (entry.own) rulesets.delete(name);
  for (const record of await listOwn("rules")) {
    if (!rulesets.has(record.name)) rulesets.set(record.name, { ...record.data, own: true });
  }
  lexicons = mergeLexicons(siteLexicons, await ownLexiconEntries(), rulesets);
}

/** After a lexicon or ruleset was kept or removed: offer the lists again and switch to
 * `rulesName` (else stay) with `lexiconName` when given. */
async function ownChanged({ rules: rulesName = null, lexicon: lexiconName = null } = {}) {
  const before = rulesName && rulesets.get(rulesName);
  await mergeOwn();
  const target = rulesName ?? (rulesets.has(rules.name) ? rules.name : defaultRules);
  const after = rulesets.get(target);
  if (before && (before.rows !== after.rows || before.cols !== after.cols)) delete state.boards[target];
  if (lexiconName) state.lexicon[target] = lexiconName;
  fillRulesSelect();
  ownLexicons.fillRules();
  rulesEditor.fillBases();
  setRules(target);
}

const ownOptions = { request, rulesets: () => rulesets, currentRules: () => rules };
const ownLexicons = new OwnLexicons({
  ...ownOptions,
  worker,
  siteNames: () => siteLexicons.map((entry) => entry.name),
  onChange: ownChanged,
});
const rulesEditor = new RulesEditor({
  ...ownOptions,
  onSaved: (name) => ownChanged({ rules: name }),
  onRemoved: () => ownChanged({}),
});

/** The ruleset a new visitor starts with: the Scrabble of the browser's first language we have
 * (French Scrabble for fr-FR, Spanish for es-MX; Russian Scrabble rather than Эрудит for ru),
 * else the site's default. Once chosen, the page remembers the choice. */
function rulesForLanguage() {
  const shipped = [...rulesets.values()].filter((entry) => !entry.own);
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language || ""]) {
    const language = tag.split("-")[0].toLowerCase();
    const spoken = shipped.filter((entry) => entry.language === language);
    const pick =
      spoken.find((entry) => entry.name === defaultRules) ??
      spoken.find((entry) => / Scrabble$/.test(entry.title) && !entry.title.startsWith("Super")) ??
      spoken[0];
    if (pick) return pick.name;
  }
  return defaultRules;
}

/** The saved choices ask for the player's own ruleset or lexicon, which only the browser's store
 * (IndexedDB, asynchronous) can give. */
function savedChoiceIsOwn() {
  if (state.rules && !rulesets.has(state.rules)) return true;
  const name = state.lexicon?.[rulesets.has(state.rules) ? state.rules : rulesForLanguage()];
  return Boolean(name) && !siteLexicons.some((entry) => entry.name === name);
}

function drawLists() {
  fillRulesSelect();
  ownLexicons.fillRules();
  rulesEditor.fillBases();
  ownLexicons.renderList();
}

async function init() {
  wire();
  let data;
  try {
    // rules.json and lexicons.json, written into the page by scripts/build_site.py: no fetch, so
    // the board is drawn in the module's first task, before the first frame
    data = JSON.parse($("site-data")?.textContent.trim() || "null");
    if (!data) throw new Error("index.html holds no site data: build the site with scripts/build_site.py");
  } catch (error) {
    setStatus(`The page's data could not be loaded: ${error.message}`, { failed: true });
    return;
  }
  rulesets = new Map(data.rules.rules.map((entry) => [entry.name, entry]));
  siteLexicons = data.lexicons.lexicons;
  defaultRules = data.rules.default;
  leaveTables = data.lexicons.leaves || [];
  const own = mergeOwn();
  const ownFirst = savedChoiceIsOwn();
  if (ownFirst) await own; // else the site's lists draw the board now, the player's own join them below
  else lexicons = mergeLexicons(siteLexicons, [], rulesets);
  drawLists();
  $("rack").value = state.rack || "";
  results.setFilter(state.filter || "");
  const wanted = rulesets.has(state.rules) ? state.rules : rulesForLanguage();
  setRules(wanted, { initial: true });
  filtersReady();
  versus.restore();
  timings.interactive = performance.now();
  document.body.dataset.boardReady = "1";
  if (ownFirst) return;
  await own;
  if ([...rulesets.values()].some((entry) => entry.own) || lexicons.some((entry) => entry.own)) {
    drawLists();
    $("rules-select").value = rules.name;
    fillLexiconSelect();
    if (lexicon) $("lexicon-select").value = lexicon;
  }
}

// for the end-to-end tests and tests/web_figures.py
window.gaddag = {
  timings,
  request,
  get lastSolve() {
    return lastSolve;
  },
  shownMoves: (limit) => results.shownMoves(limit),
  shownCount: () => results.view.length,
  boardRows: () => board.rowsText(),
  replay: () => replay.review,
  lookAhead: () => lookAhead?.standing ?? null,
  replayStep: () => replay.step,
  versus: () => versus.state,
  versusPending: () => versus.pending(),
  offline: () => offlineReady(),
  bench: (positions, options = {}) =>
    request("bench", { lexicon: options.lexicon || lexicon, rules: rules.name, positions, min_ms: options.minMs ?? 20 }),
};

init();
