// Filters of the move list beyond the text box: tiles the move must use (a play that puts
// them all down: "Q", "?" for a blank, "SS" for both S), a range of scores and a range of word
// lengths. They are kept with the page's state, so a reload shows the same list.

import { PLAY } from "./moves.js";

/** No filter: every field empty. */
export const NO_FILTERS = Object.freeze({ uses: "", scoreMin: "", scoreMax: "", lengthMin: "", lengthMax: "" });

/** Rack-style text → tiles: letters (normalized), "?" for a blank, "[CH]" for a digraph. */
function tilesOf(text, normalize) {
  const tokens = String(text).match(/\[[^\]]+\]|\S/gu) || [];
  const tiles = [];
  for (const token of tokens) {
    if (token === "?") tiles.push("?");
    else {
      const letter = normalize(token.replace(/^\[|\]$/g, ""));
      if (!letter) return { error: `'${token}' is not a letter of these rules` };
      tiles.push(letter);
    }
  }
  return { tiles };
}

function bound(text, what) {
  const trimmed = String(text ?? "").trim();
  if (!trimmed) return { value: null };
  const value = Number(trimmed);
  if (!Number.isInteger(value) || value < 0) return { error: `${what} must be a whole number, not '${trimmed}'` };
  return { value };
}

/**
 * The test for `values` ({uses, scoreMin, scoreMax, lengthMin, lengthMax}, text as typed):
 * {test: (list, i) → bool} (test null: no filter), or {error} naming the field at fault.
 * `normalize` maps a letter as typed to the alphabet's spelling (or null).
 */
export function moveFilter(values, normalize) {
  const uses = tilesOf(values.uses || "", normalize);
  if (uses.error) return { error: `Uses: ${uses.error}`, field: "uses" };
  const limits = {};
  for (const [key, what] of [
    ["scoreMin", "the lowest score"],
    ["scoreMax", "the highest score"],
    ["lengthMin", "the shortest length"],
    ["lengthMax", "the longest length"],
  ]) {
    const parsed = bound(values[key], what);
    if (parsed.error) return { error: parsed.error, field: key };
    limits[key] = parsed.value;
  }
  const needed = uses.tiles;
  const { scoreMin, scoreMax, lengthMin, lengthMax } = limits;
  // a range given backwards would list nothing, silently: say so
  if (scoreMin !== null && scoreMax !== null && scoreMin > scoreMax) {
    return { error: `The scores from ${scoreMin} to ${scoreMax} are backwards: the lowest is above the highest.`, field: "scoreMax" };
  }
  if (lengthMin !== null && lengthMax !== null && lengthMin > lengthMax) {
    return { error: `The lengths from ${lengthMin} to ${lengthMax} are backwards: the shortest is above the longest.`, field: "lengthMax" };
  }
  const lengthSet = lengthMin !== null || lengthMax !== null;
  if (!needed.length && scoreMin === null && scoreMax === null && !lengthSet) return { test: null };
  const test = (list, i) => {
    const score = list.score[i];
    if (scoreMin !== null && score < scoreMin) return false;
    if (scoreMax !== null && score > scoreMax) return false;
    if (lengthSet || needed.length) {
      if (list.kind[i] !== PLAY) return false; // an exchange or the pass puts no word down
      const length = list.wordLength(i);
      if (lengthMin !== null && length < lengthMin) return false;
      if (lengthMax !== null && length > lengthMax) return false;
      if (needed.length) {
        const used = list.used(i);
        for (const tile of needed) {
          const at = used.indexOf(tile);
          if (at < 0) return false;
          used.splice(at, 1);
        }
      }
    }
    return true;
  };
  return { test };
}
