// The player's own lexicons and rulesets, kept in the browser (IndexedDB), used by the page and
// by the solver's worker alike. The worker is the only writer (it builds and validates what is
// stored, so nothing unchecked is ever kept); the page reads the lists and a lexicon's bytes
// (to download it).
//
// Database "gaddag-solver-own", version 1:
//   lexicons  key name: {name, letters, built_for, info, bytes (ArrayBuffer, the .gaddag), saved}
//   rules     key name: {name, json (the ruleset as rules/*.json holds it), data (web_api.rules_data), saved}

const DB_NAME = "gaddag-solver-own";
const STORES = ["lexicons", "rules"];
let opened = null;

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function database() {
  if (!opened) {
    if (typeof indexedDB === "undefined") return Promise.reject(new Error("this browser keeps no IndexedDB"));
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      for (const name of STORES) {
        if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name, { keyPath: "name" });
      }
    };
    opened = promised(request);
    opened.catch(() => (opened = null));
  }
  return opened;
}

async function run(store, mode, action) {
  const db = await database();
  const transaction = db.transaction(store, mode);
  const done = new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("the browser refused to store it"));
  });
  const result = await promised(action(transaction.objectStore(store)));
  await done;
  return result;
}

/** Every record of a store ("lexicons" or "rules"); none when the browser keeps nothing. */
export async function listOwn(store) {
  try {
    return await run(store, "readonly", (s) => s.getAll());
  } catch {
    return [];
  }
}

/** One record by name, or undefined. */
export async function getOwn(store, name) {
  try {
    return await run(store, "readonly", (s) => s.get(name));
  } catch {
    return undefined;
  }
}

/** The lexicon records without their bytes (what the lists show). */
export async function ownLexiconEntries() {
  return (await listOwn("lexicons")).map(({ bytes, ...entry }) => ({ ...entry, size: bytes?.byteLength ?? 0 }));
}

export function putOwn(store, record) {
  return run(store, "readwrite", (s) => s.put({ ...record, saved: new Date().toISOString() }));
}

export function deleteOwn(store, name) {
  return run(store, "readwrite", (s) => s.delete(name));
}

/** The lexicon list the page offers: the site's lexicons, each with the rulesets the site lists
 * for it and the player's own rulesets spelled with its letters; then the player's own lexicons,
 * each listing every ruleset (shipped or own) spelled with its letters. `rulesets`: name -> rules data. */
export function mergeLexicons(siteLexicons, ownEntries, rulesets) {
  const lettersOf = (names) => rulesets.get(names.find((name) => rulesets.has(name)))?.letters;
  const fitting = (letters) =>
    letters ? [...rulesets.values()].filter((r) => r.letters.join("\u0000") === letters.join("\u0000")).map((r) => r.name) : [];
  // a site lexicon serves the rulesets the site lists for it (its language's) and the player's
  // own rulesets spelled with its letters
  const site = siteLexicons.map((entry) => {
    const own = fitting(lettersOf(entry.rules)).filter((name) => rulesets.get(name).own);
    return { ...entry, rules: [...new Set([...entry.rules, ...own])] };
  });
  const taken = new Set(site.map((entry) => entry.name));
  const own = ownEntries
    .filter((entry) => !taken.has(entry.name))
    .map((entry) => ({
      ...entry.info,
      name: entry.name,
      own: true,
      rules: fitting(entry.letters),
      bytes: entry.size,
    }));
  return [...site, ...own.sort((a, b) => a.name.localeCompare(b.name))];
}
