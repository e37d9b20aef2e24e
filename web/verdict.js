// The engine and direction choices for solving, and the check of a play: tiles the player places
// on the board, or a play written as "8D QUIXOTE", judged live by the worker (web_api.judge_play):
// legal or not and exactly why, the score word by word and tile by tile, with the bingo bonus.
//
// The page gives it two hosts (#engine-options in the solve form, #play-check after it) and
// three hooks: choices() for each solve request, positionChanged() when the board or the rack
// changes, and setRules() when the ruleset changes. Placed tiles are the difference between the
// board now and the board when "Check the tiles I place" was switched on.

import { cellsFromRows } from "./board.js";

const ENGINES = [
  ["gaddag", "GADDAG (Gordon)"],
  ["dawg", "DAWG (Appel & Jacobson)"],
];
const DIRECTIONS = [
  ["both", "Across & down"],
  ["across", "Across only"],
  ["down", "Down only"],
];

function element(tag, attributes = {}, text = "") {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
  if (text) el.textContent = text;
  return el;
}

function select(id, label, options, onChange) {
  const field = element("div", { class: "field" });
  field.append(element("label", { for: id }, label));
  const input = element("select", { id });
  for (const [value, text] of options) input.append(element("option", { value }, text));
  input.addEventListener("change", onChange);
  field.append(input);
  return [field, input];
}

export class PlayCheck {
  /**
   * @param {object} hooks request(type, payload) → Promise of {result}; position() → {lexicon,
   *   rules, board (rows), rack}; onChoice() when the engine or direction changes
   */
  constructor(engineHost, panel, hooks) {
    this.hooks = hooks;
    this.rules = null;
    this.base = null; // the board's rows when placing began
    this.seq = 0;
    const [engineField, engine] = select("engine-select", "Engine", ENGINES, () => hooks.onChoice());
    const [directionField, direction] = select("direction-select", "Plays", DIRECTIONS, () => hooks.onChoice());
    this.engine = engine;
    this.direction = direction;
    engineHost.append(engineField, directionField);

    panel.append(element("h2", { id: "play-check-heading" }, "Check a play"));
    const toggle = element("label", { class: "toggle", for: "place-tiles" });
    this.placing = element("input", { id: "place-tiles", type: "checkbox" });
    toggle.append(this.placing, " Check the tiles I place on the board");
    this.placing.addEventListener("change", () => {
      this.base = this.placing.checked ? this.hooks.position().board : null;
      this.update();
    });
    const written = element("label", { for: "play-text" }, "or write a play ");
    this.text = element("input", {
      id: "play-text",
      type: "text",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "e.g. 8D QUIXOTE (D8 for down)",
    });
    this.text.addEventListener("input", () => this.update());
    written.append(this.text);
    this.out = element("div", { id: "play-verdict", class: "verdict", "aria-live": "polite" });
    panel.append(toggle, " ", written, this.out);
  }

  /** A solve request with the engine and direction chosen; the DAWG engine ranks by score, so
   * the leave table and exchanges are set aside for it. */
  choices(request) {
    const engine = this.engine.value;
    const chosen = { ...request, engine, direction: this.direction.value };
    return engine === "dawg" ? { ...chosen, leaves: null, exchanges: false } : chosen;
  }

  setRules(rules) {
    this.rules = rules;
    this.placing.checked = false;
    this.base = null;
    this.update();
  }

  positionChanged() {
    if (this.base || this.text.value.trim()) this.update();
  }

  /** The tiles on the board now that were not there when placing began: [[row, col, letter, blank]]. */
  placedTiles(rows) {
    const { rules } = this;
    const before = cellsFromRows(this.base, rules);
    const now = cellsFromRows(rows, rules);
    const tiles = [];
    const changed = [];
    now.forEach((cell, i) => {
      const was = before[i];
      const row = Math.floor(i / rules.cols);
      const col = i % rules.cols;
      if (cell && !was) tiles.push([row, col, cell.letter, cell.blank]);
      else if (was && (!cell || cell.letter !== was.letter || cell.blank !== was.blank)) changed.push([row, col]);
    });
    return { tiles, changed };
  }

  async update() {
    const seq = ++this.seq;
    const position = this.hooks.position();
    const play = this.text.value.trim();
    let payload;
    if (play) {
      payload = { play, board: this.base || position.board };
    } else if (this.base && this.rules) {
      const { tiles, changed } = this.placedTiles(position.board);
      if (changed.length) {
        this.show({ message: "A tile that was on the board when placing began was changed or removed." });
        return;
      }
      if (!tiles.length) {
        this.show({ message: "Place tiles on the board: the verdict follows each one." });
        return;
      }
      payload = { tiles, board: this.base };
    } else {
      this.show(null);
      return;
    }
    if (!position.lexicon) {
      this.show({ message: "No lexicon is loaded for these rules." });
      return;
    }
    try {
      const { result } = await this.hooks.request("judge", {
        lexicon: position.lexicon,
        rules: position.rules,
        rack: position.rack,
        ...payload,
      });
      if (seq === this.seq) this.show({ verdict: result });
    } catch (error) {
      if (seq === this.seq) this.show({ message: error.message });
    }
  }

  show(what) {
    this.out.replaceChildren();
    if (!what) return;
    if (what.message) {
      this.out.append(element("p", { class: "help" }, what.message));
      return;
    }
    const v = what.verdict;
    const head = element("p", { class: v.legal ? "legal" : "illegal" });
    head.textContent = `${v.play}: ${v.legal ? "legal" : "not legal"}`;
    if (v.score !== null) head.textContent += ` — ${v.score} points${v.bingo ? ` (bingo +${v.bingo})` : ""}`;
    this.out.append(head);
    if (v.reasons.length) {
      const reasons = element("ul", { class: "reasons" });
      for (const reason of v.reasons) reasons.append(element("li", {}, reason));
      this.out.append(reasons);
    }
    if (v.words.length) {
      const words = element("table", { class: "breakdown", "aria-label": "Words formed" });
      for (const word of v.words) {
        const row = element("tr", word.in_lexicon ? {} : { class: "phony" });
        const letters = word.letters
          .map((x) => `${x.letter}${x.value}${x.letter_premium > 1 ? `×${x.letter_premium}` : ""}`)
          .join(" + ");
        row.append(
          element("td", {}, word.word),
          element("td", {}, word.coord),
          element("td", {}, `(${letters})${word.word_premium > 1 ? ` ×${word.word_premium}` : ""}`),
          element("td", {}, String(word.score)),
        );
        words.append(row);
      }
      this.out.append(words);
      const tiles = element("p", { class: "help" });
      tiles.textContent =
        "Tiles: " + v.tiles.map((t) => `${t.letter} on ${t.square} → ${t.points}`).join(", ");
      this.out.append(tiles);
    }
  }
}
