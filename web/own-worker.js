// The worker's side of the player's own lexicons and rulesets (web/worker.js hands these
// requests here). Python builds and validates (gaddag_solver/web_api/); only what it accepted
// is stored (web/user-store.js), so a bad file never replaces anything kept.
//
// Page → worker:
//   build_lexicon {name, rules, file, data, token}  a word list's bytes (ArrayBuffer) → a .gaddag
//                 built, loaded, stored; progress goes out unasked as {type: "build_progress", request: token,
//                 phase: read | filtered | built | loaded | stored, ...facts, ms}
//   add_lexicon   {name, rules, data}        a .gaddag built elsewhere, validated, loaded, stored
//   remove_lexicon {name}                    forgotten by Python and the store
//   rules_json    {name}                     a ruleset as rules/*.json holds it (the editor's start)
//   check_rules   {rules | text}             validated as Rules.load does: {valid, field, message, rules}
//   save_rules    {rules}                    registered with Python and stored: web_api.rules_data + json
//   remove_rules  {name}                     dropped from the store

import { deleteOwn, getOwn, listOwn, putOwn } from "./user-store.js";

/** A stored lexicon's bytes for "NAME.gaddag", or null (then the site's file is fetched). */
export async function ownLexiconBytes(file) {
  if (!file.endsWith(".gaddag")) return null;
  const record = await getOwn("lexicons", file.slice(0, -".gaddag".length));
  return record ? new Uint8Array(record.bytes) : null;
}

/** Register every stored ruleset with Python (at boot); one that no longer validates is said
 * on the console and left out. */
export async function restoreOwnRules(python) {
  for (const record of await listOwn("rules")) {
    const { result } = python("set_rules", { rules: record.json });
    if (result.error) console.warn(`own ruleset ${record.name} left out: ${result.error}`);
  }
}

async function store(record) {
  try {
    await putOwn("lexicons", record);
    return { stored: true };
  } catch (error) {
    return { stored: false, store_error: String(error.message || error) };
  }
}

function failed(result) {
  throw Object.assign(new Error(result.error), { field: result.field });
}

/** Answer one of the requests above ({result}), or null when the type is not one of them. */
export async function handleOwn(message, { python, loads, fetches, wasmBytes }) {
  const { type } = message;
  const loaded = (name, info) => {
    fetches.delete(`${name}.gaddag`);
    loads.set(`${name}.gaddag`, Promise.resolve(info));
  };
  if (type === "build_lexicon") {
    const started = performance.now();
    const say = (text) => self.postMessage({ type: "build_progress", request: message.token, ...JSON.parse(text) });
    const { result, records } = python(
      "build_lexicon",
      { name: message.name, rules: message.rules, file: message.file },
      new Uint8Array(message.data),
      say,
    );
    if (result.error) failed(result);
    const { letters, built_for: builtFor } = result;
    loaded(message.name, result);
    result.wasm_bytes = wasmBytes(); // WebAssembly memory never shrinks: a second build reuses it
    const kept = await store({ name: message.name, letters, built_for: builtFor, info: result, bytes: records });
    result.ms.worker = performance.now() - started; // with storing
    say(JSON.stringify({ phase: "stored", ms: result.ms.worker, ...kept }));
    return { result: { ...result, ...kept } };
  }
  if (type === "add_lexicon") {
    const { result } = python("add_lexicon", { name: message.name, rules: message.rules }, new Uint8Array(message.data));
    if (result.error) failed(result);
    loaded(message.name, result);
    const kept = await store({
      name: message.name,
      letters: result.letters,
      built_for: result.built_for,
      info: { ...result, file: message.file },
      bytes: message.data,
    });
    return { result: { ...result, file: message.file, ...kept } };
  }
  if (type === "remove_lexicon") {
    await deleteOwn("lexicons", message.name);
    loads.delete(`${message.name}.gaddag`);
    fetches.delete(`${message.name}.gaddag`);
    return python("forget_lexicon", { name: message.name });
  }
  if (type === "rules_json" || type === "check_rules") {
    return python(type, message);
  }
  if (type === "save_rules") {
    const { result } = python("set_rules", { rules: message.rules });
    if (result.error) failed(result);
    const { json, ...data } = result;
    await putOwn("rules", { name: result.name, json, data });
    return { result };
  }
  if (type === "remove_rules") {
    await deleteOwn("rules", message.name);
    return { result: { name: message.name, removed: true } };
  }
  return null;
}
