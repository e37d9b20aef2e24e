// "Your own rules": a ruleset editor that starts from any ruleset (shipped or the player's own):
// board size, premium squares painted on the board, the start square, the letters with their
// values and counts, blanks, rack size, bonus, exchanges and the end of the game. Every change is
// validated by Python exactly as a rules file is (Rules.from_dict), and the message is shown at
// the field it names. Saved rulesets are kept in the browser (web/user-store.js) and offered with
// the shipped ones; Export writes the same JSON as pycore/gaddag_solver/rules/*.json (so the
// command line reads it with --rules FILE) and Import reads such a file back.

const $ = (id) => document.getElementById(id);
const MAX_SIDE = 21; // the largest board the editor offers (Super Scrabble's)
const PREMIUMS = {
  ".": "plain",
  d: "double letter",
  t: "triple letter",
  q: "quadruple letter",
  D: "double word",
  T: "triple word",
  Q: "quadruple word",
};
const NUMBERS = [
  "rows",
  "cols",
  "rack_size",
  "bingo_bonus",
  "exchange_minimum",
  "scoreless_turns",
  "going_out_bonus",
  "going_out_penalty",
  "blanks",
  "blank_value",
];
const TEXTS = ["name", "title", "language"];

/** A number input's value as JSON: a whole number, or the text as typed (Python names it). */
/**
 * A premium layout for a board of rows×cols scaled from `layout`: each square is measured by its
 * distance from the nearest edge, row and column, and takes the square of `layout`'s top-left
 * quarter at the same fraction of the way from the edge to the middle. So the result is
 * symmetric both ways, its corners are the old corners and its middle the old middle.
 */
export function scaledLayout(layout, rows, cols) {
  const fold = (i, n) => Math.min(i, n - 1 - i);
  const from = (i, n, old) => {
    const half = (n - 1) / 2;
    const oldHalf = (old - 1) / 2;
    const j = half > 0 ? Math.floor((fold(i, n) * oldHalf) / half + 0.5) : 0;
    return Math.min(j, Math.floor(oldHalf));
  };
  const oldRows = layout.length;
  const oldCols = layout[0]?.length ?? 0;
  const out = [];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < cols; c++) line += layout[from(r, rows, oldRows)]?.[from(c, cols, oldCols)] ?? ".";
    out.push(line);
  }
  return out;
}

function numberOf(text) {
  const trimmed = String(text).trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The editor field a validation message belongs to: "layout[4]" → layout, "name, title" → name. */
export function fieldKey(field) {
  if (!field) return null;
  const head = field.split(/[[,\s:]/)[0];
  return head || null;
}

// The panel, drawn into #own-panels (index.html).
const PANEL = `
<details id="rules-editor" class="own">
  <summary>Your own rules</summary>
  <div class="own-form">
    <div class="field">
      <label for="re-base">Start from</label>
      <select id="re-base"></select>
    </div>
    <button id="re-start" type="button">Edit a copy</button>
    <label for="re-import" class="file-button">Import JSON…</label>
    <input id="re-import" class="visually-hidden" type="file" accept=".json,application/json">
    <button id="re-remove" type="button">Remove</button>
  </div>
  <p id="re-error" class="error" role="alert" hidden data-error-for=""></p>
  <form id="re-form" novalidate>
    <div id="re-fields" hidden>
      <p id="re-status" class="summary" aria-live="polite"></p>
      <div class="re-grid">
        <label for="re-name">Name</label><input id="re-name" type="text" spellcheck="false">
        <p class="error" data-error-for="name" hidden></p>
        <label for="re-title">Title</label><input id="re-title" type="text">
        <p class="error" data-error-for="title" hidden></p>
        <label for="re-language">Language</label><input id="re-language" type="text" size="6">
        <p class="error" data-error-for="language" hidden></p>
        <label for="re-rows">Rows</label><input id="re-rows" type="number" min="2" max="21">
        <p class="error" data-error-for="rows" hidden></p>
        <label for="re-cols">Columns</label><input id="re-cols" type="number" min="2" max="21">
        <p class="error" data-error-for="cols" hidden></p>
        <label for="re-start-row">Start row, column</label>
        <span><input id="re-start-row" type="number" min="1" max="21" aria-label="Start row (from 1)">
          <input id="re-start-col" type="number" min="1" max="21" aria-label="Start column (from 1)"></span>
        <p class="error" data-error-for="start" hidden></p>
        <label for="re-start_doubles">Start doubles the word</label><input id="re-start_doubles" type="checkbox">
        <p class="error" data-error-for="start_doubles" hidden></p>
        <label for="re-rack_size">Rack size</label><input id="re-rack_size" type="number" min="1">
        <p class="error" data-error-for="rack_size" hidden></p>
        <label for="re-bingo_bonus">Bonus for a full rack</label><input id="re-bingo_bonus" type="number" min="0">
        <p class="error" data-error-for="bingo_bonus" hidden></p>
        <label for="re-exchange_minimum">Exchange needs in the bag</label><input id="re-exchange_minimum" type="number" min="0">
        <p class="error" data-error-for="exchange_minimum" hidden></p>
        <label for="re-scoreless_turns">Scoreless turns ending the game</label><input id="re-scoreless_turns" type="number" min="1">
        <p class="error" data-error-for="scoreless_turns" hidden></p>
        <label for="re-going_out_bonus">Going out: bonus ×</label><input id="re-going_out_bonus" type="number" min="0">
        <p class="error" data-error-for="going_out_bonus" hidden></p>
        <label for="re-going_out_penalty">Going out: penalty ×</label><input id="re-going_out_penalty" type="number" min="0">
        <p class="error" data-error-for="going_out_penalty" hidden></p>
        <label for="re-blanks">Blanks</label><input id="re-blanks" type="number" min="0">
        <p class="error" data-error-for="blanks" hidden></p>
        <label for="re-blank_value">Blank scores</label><input id="re-blank_value" type="number" min="0">
        <p class="error" data-error-for="blank_value" hidden></p>
        <label for="re-vowels">Vowels</label><input id="re-vowels" type="text" spellcheck="false">
        <p class="error" data-error-for="vowels" hidden></p>
        <label for="re-fold">Read as (Ё=Е)</label><input id="re-fold" type="text" spellcheck="false">
        <p class="error" data-error-for="fold" hidden></p>
        <label for="re-default_lexicon">Default lexicon</label><input id="re-default_lexicon" type="text" spellcheck="false">
        <p class="error" data-error-for="default_lexicon" hidden></p>
      </div>
      <h3 class="own-heading">Premium squares</h3>
      <div id="re-palette" class="re-palette" role="group" aria-label="Paint with">
        <button type="button" data-tool="." aria-pressed="false">plain</button>
        <button type="button" data-tool="d" aria-pressed="false">DL</button>
        <button type="button" data-tool="t" aria-pressed="false">TL</button>
        <button type="button" data-tool="q" aria-pressed="false">QL</button>
        <button type="button" data-tool="D" aria-pressed="false">DW</button>
        <button type="button" data-tool="T" aria-pressed="true">TW</button>
        <button type="button" data-tool="Q" aria-pressed="false">QW</button>
        <button type="button" data-tool="start" aria-pressed="false">★ start</button>
      </div>
      <div id="re-board" class="re-board" role="group" aria-label="Premium squares: click or drag to paint"></div>
      <p class="error" data-error-for="layout" hidden></p>
      <h3 class="own-heading">Letters <span id="re-tiles" class="hint"></span></h3>
      <table class="re-letters">
        <thead><tr><th>Letter</th><th>Value</th><th>Count</th><th><span class="visually-hidden">Remove</span></th></tr></thead>
        <tbody id="re-letters"></tbody>
      </table>
      <button id="re-add-letter" type="button">Add a letter</button>
      <p class="error" data-error-for="letters" hidden></p>
      <div class="cgp-buttons">
        <button id="re-save" type="submit" class="primary">Save and use</button>
        <button id="re-export" type="button">Export JSON</button>
        <a id="re-download" class="file-button" hidden>Download</a>
      </div>
      <label for="re-json" class="visually-hidden">The ruleset as JSON</label>
      <textarea id="re-json" rows="6" spellcheck="false" readonly hidden></textarea>
    </div>
  </form>
</details>
`;

export class RulesEditor {
  /**
   * options: request(type, payload) → Promise; rulesets() → Map name → rules data;
   * currentRules() → rules data; onSaved(name) after a ruleset was saved (to switch to it),
   * onRemoved(name).
   */
  constructor(options) {
    this.options = options;
    $("own-panels").insertAdjacentHTML("beforeend", PANEL);
    this.rules = null; // the ruleset being edited, as JSON
    this.tool = "T";
    this.checkSeq = 0;
    this.checkTimer = 0;
    this.painting = false;
    $("re-start").addEventListener("click", () => this.startFrom($("re-base").value));
    $("re-form").addEventListener("input", (event) => this.onInput(event));
    $("re-form").addEventListener("change", (event) => this.onInput(event));
    $("re-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
    $("re-add-letter").addEventListener("click", () => {
      this.read();
      this.rules.letters.push(["", 1, 1]);
      this.renderLetters();
      this.scheduleCheck();
      $("re-letters").querySelector("tr:last-child input")?.focus();
    });
    $("re-letters").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-remove]");
      if (!button) return;
      this.read();
      this.rules.letters.splice(Number(button.dataset.remove), 1);
      this.renderLetters();
      this.scheduleCheck();
    });
    $("re-palette").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-tool]");
      if (!button) return;
      this.tool = button.dataset.tool;
      for (const other of $("re-palette").querySelectorAll("button")) {
        other.setAttribute("aria-pressed", String(other === button));
      }
    });
    const grid = $("re-board");
    grid.addEventListener("pointerdown", (event) => {
      const square = event.target.closest("[data-row]");
      if (!square) return;
      this.painting = this.tool !== "start";
      this.paint(square);
    });
    grid.addEventListener("pointerover", (event) => {
      const square = event.target.closest("[data-row]");
      if (square && this.painting && event.buttons === 1) this.paint(square);
    });
    grid.addEventListener("keydown", (event) => {
      const square = event.target.closest("[data-row]");
      if (square && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.paint(square);
      }
    });
    document.addEventListener("pointerup", () => (this.painting = false));
    $("re-export").addEventListener("click", () => this.exportJson());
    $("re-import").addEventListener("change", (event) => {
      const file = event.target.files?.[0];
      event.target.value = "";
      if (file) this.importFile(file);
    });
    $("re-remove").addEventListener("click", () => this.remove());
  }

  /** The "start from" choices: every ruleset, the page's current one chosen. */
  fillBases() {
    const select = $("re-base");
    const before = select.value || this.options.currentRules()?.name;
    select.replaceChildren();
    for (const ruleset of this.options.rulesets().values()) {
      const option = document.createElement("option");
      option.value = ruleset.name;
      option.textContent = `${ruleset.title}${ruleset.own ? " (yours)" : ""}`;
      select.append(option);
    }
    if (this.options.rulesets().has(before)) select.value = before;
  }

  async startFrom(name) {
    this.showMessage("", null);
    try {
      const { result } = await this.options.request("rules_json", { name });
      const rules = result.rules;
      const own = this.options.rulesets().get(name)?.own;
      if (!own) {
        rules.name = `${rules.name}-own`;
        rules.title = `${rules.title} (own)`;
      }
      this.load(rules);
    } catch (error) {
      this.showMessage(error.message, null);
    }
  }

  load(rules) {
    this.rules = structuredClone(rules);
    this.keepLayout();
    $("re-fields").hidden = false;
    $("rules-editor").dataset.editing = this.rules.name;
    this.render();
    this.scheduleCheck(0);
  }

  // ---- the form <-> the ruleset ------------------------------------------------------------

  render() {
    const r = this.rules;
    for (const key of TEXTS) $(`re-${key}`).value = r[key];
    for (const key of NUMBERS) $(`re-${key}`).value = String(r[key]);
    $("re-start-row").value = String(r.start[0] + 1);
    $("re-start-col").value = String(r.start[1] + 1);
    $("re-start_doubles").checked = Boolean(r.start_doubles);
    $("re-vowels").value = r.vowels.join(" ");
    $("re-fold").value = Object.entries(r.fold)
      .map(([from, to]) => `${from}=${to}`)
      .join(" ");
    $("re-default_lexicon").value = r.default_lexicon ?? "";
    this.renderLetters();
    this.renderBoard();
  }

  renderLetters() {
    const rows = this.rules.letters.map(([letter, value, count], index) => {
      const tr = document.createElement("tr");
      const cell = (kind, val, label) => {
        const td = document.createElement("td");
        const input = document.createElement("input");
        input.dataset.letter = String(index);
        input.dataset.part = kind;
        input.value = String(val);
        input.setAttribute("aria-label", `${label} of letter ${index + 1}`);
        if (kind === "letter") input.size = 3;
        else {
          input.inputMode = "numeric";
          input.size = 4;
        }
        td.append(input);
        return td;
      };
      const remove = document.createElement("td");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.remove = String(index);
      button.textContent = "✕";
      button.setAttribute("aria-label", `Remove letter ${letter || index + 1}`);
      remove.append(button);
      tr.append(cell("letter", letter, "Letter"), cell("value", value, "Value"), cell("count", count, "Count"), remove);
      return tr;
    });
    $("re-letters").replaceChildren(...rows);
    const tiles = this.rules.letters.reduce((sum, [, , count]) => sum + (Number(count) || 0), 0);
    $("re-tiles").textContent = `${this.rules.letters.length} letters, ${tiles} tiles + ${this.rules.blanks} blanks`;
  }

  renderBoard() {
    const r = this.rules;
    const grid = $("re-board");
    grid.style.setProperty("--cols", String(r.cols));
    const squares = [];
    for (let row = 0; row < r.rows; row++) {
      for (let col = 0; col < r.cols; col++) {
        const char = r.layout[row]?.[col] ?? ".";
        const square = document.createElement("button");
        square.type = "button";
        square.className = "re-square";
        square.dataset.row = String(row);
        square.dataset.col = String(col);
        square.dataset.premium = char;
        const start = row === r.start[0] && col === r.start[1];
        if (start) square.dataset.start = "1";
        square.textContent = start ? "★" : char === "." ? "" : char;
        square.setAttribute(
          "aria-label",
          `row ${row + 1}, column ${col + 1}: ${PREMIUMS[char] ?? `'${char}'`}${start ? ", start" : ""}`,
        );
        squares.push(square);
      }
    }
    grid.replaceChildren(...squares);
  }

  paint(square) {
    const row = Number(square.dataset.row);
    const col = Number(square.dataset.col);
    const r = this.rules;
    if (this.tool === "start") {
      r.start = [row, col];
      if (r.start_doubles) this.setSquare(row, col, "D");
    } else this.setSquare(row, col, this.tool);
    this.render();
    this.scheduleCheck();
  }

  setSquare(row, col, char) {
    const line = this.rules.layout[row];
    this.rules.layout[row] = line.slice(0, col) + char + line.slice(col + 1);
    this.keepLayout();
  }

  /** The layout as loaded or painted: what a resized board is scaled from (not from the
   * sizes typed on the way, such as the 1 of 11). */
  keepLayout() {
    this.source = { layout: [...this.rules.layout], rows: this.rules.layout.length, cols: this.rules.layout[0]?.length ?? 0 };
  }

  /** The form's values into this.rules (the layout is kept as painted, resized to rows×cols). */
  read() {
    const r = this.rules;
    for (const key of TEXTS) r[key] = $(`re-${key}`).value;
    for (const key of NUMBERS) r[key] = numberOf($(`re-${key}`).value);
    r.start = [numberOf($("re-start-row").value), numberOf($("re-start-col").value)].map((v) =>
      typeof v === "number" ? v - 1 : v,
    );
    r.start_doubles = $("re-start_doubles").checked;
    r.vowels = $("re-vowels").value.split(/[\s,]+/u).filter(Boolean);
    r.fold = Object.fromEntries(
      $("re-fold")
        .value.split(/[\s,]+/u)
        .filter(Boolean)
        .map((pair) => pair.split("=")),
    );
    const lexicon = $("re-default_lexicon").value.trim();
    r.default_lexicon = lexicon || null;
    for (const input of $("re-letters").querySelectorAll("input")) {
      const entry = r.letters[Number(input.dataset.letter)];
      if (input.dataset.part === "letter") entry[0] = input.value.trim();
      else entry[input.dataset.part === "value" ? 1 : 2] = numberOf(input.value);
    }
    const rows = Number.isInteger(r.rows) ? Math.max(0, Math.min(r.rows, MAX_SIDE)) : r.layout.length;
    const cols = Number.isInteger(r.cols) ? Math.max(0, Math.min(r.cols, MAX_SIDE)) : r.layout[0]?.length ?? 0;
    const layout = [];
    for (let row = 0; row < rows; row++) layout.push((r.layout[row] ?? "").slice(0, cols).padEnd(cols, "."));
    r.layout = layout;
    return r;
  }

  onInput(event) {
    if (!this.rules || event.target.closest("#re-base, #re-import")) return;
    const before = [this.rules.rows, this.rules.cols, this.rules.letters.length];
    this.read();
    const r = this.rules;
    const sized = [r.rows, r.cols].every((n) => Number.isInteger(n) && n >= 2 && n <= MAX_SIDE);
    if (sized && (before[0] !== r.rows || before[1] !== r.cols)) {
      // a board of another size gets the layout scaled from the one loaded or painted, symmetric,
      // with the start square in the middle (a crop kept the top-left corner, off centre)
      if (this.source?.rows && this.source?.cols) {
        r.layout = scaledLayout(this.source.layout, r.rows, r.cols);
        r.start = [Math.floor(r.rows / 2), Math.floor(r.cols / 2)];
        $("re-start-row").value = String(r.start[0] + 1);
        $("re-start-col").value = String(r.start[1] + 1);
      } else if (!(r.start[0] < r.rows && r.start[1] < r.cols)) r.start = [Math.floor(r.rows / 2), Math.floor(r.cols / 2)];
      this.renderBoard();
    } else if (event.target.id === "re-start-row" || event.target.id === "re-start-col") this.renderBoard();
    if (event.target.dataset.letter !== undefined) {
      const tiles = r.letters.reduce((sum, [, , count]) => sum + (Number(count) || 0), 0);
      $("re-tiles").textContent = `${r.letters.length} letters, ${tiles} tiles + ${r.blanks} blanks`;
    }
    this.scheduleCheck();
  }

  // ---- validation ----------------------------------------------------------------------------

  /** The JSON as it stands, with the editor's own limit (21×21) checked first. */
  current() {
    const r = this.read();
    for (const key of ["rows", "cols"]) {
      if (Number.isInteger(r[key]) && r[key] > MAX_SIDE) {
        return { problem: { valid: false, field: key, message: `${key}: at most ${MAX_SIDE} here, not ${r[key]}` } };
      }
    }
    return { rules: r };
  }

  scheduleCheck(delay = 150) {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), delay);
  }

  /** Validate with Python; show the message at its field. Resolves to the check's answer. */
  async check() {
    const seq = ++this.checkSeq;
    const { rules, problem } = this.current();
    let answer = problem;
    if (!answer) {
      try {
        ({ result: answer } = await this.options.request("check_rules", { rules }));
      } catch (error) {
        answer = { valid: false, field: null, message: error.message };
      }
    }
    if (seq === this.checkSeq) this.showCheck(answer);
    return answer;
  }

  showCheck(answer) {
    for (const el of $("rules-editor").querySelectorAll("[data-error-for]")) {
      el.hidden = true;
      el.textContent = "";
    }
    for (const el of $("rules-editor").querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    const status = $("re-status");
    status.dataset.valid = String(answer.valid);
    if (answer.valid) {
      status.textContent = `Valid: ${answer.rules.title}, ${answer.rules.rows}×${answer.rules.cols}.`;
      return;
    }
    status.textContent = "Not valid yet:";
    const key = fieldKey(answer.field);
    const place = (key && $("rules-editor").querySelector(`[data-error-for="${key}"]`)) || $("re-error");
    place.textContent = answer.message;
    place.hidden = false;
    const input = key && $(key === "start" ? "re-start-row" : `re-${key}`);
    if (input?.tagName === "INPUT") input.setAttribute("aria-invalid", "true");
  }

  showMessage(text, field) {
    this.showCheck(text ? { valid: false, field, message: text } : { valid: true, rules: this.rules ?? { title: "", rows: 0, cols: 0 } });
    if (!text) $("re-status").textContent = "";
  }

  // ---- save, export, import, remove ---------------------------------------------------------------

  async save() {
    if (!this.rules) return;
    const answer = await this.check();
    if (!answer.valid) return;
    try {
      const { result } = await this.options.request("save_rules", { rules: answer.rules });
      $("re-status").textContent = `Saved: ${result.title} is kept in this browser and chosen above.`;
      await this.options.onSaved(result.name);
      this.fillBases();
      $("re-base").value = result.name;
    } catch (error) {
      this.showMessage(error.message, null);
    }
  }

  async exportJson() {
    if (!this.rules) return;
    const answer = await this.check();
    if (!answer.valid) return;
    const box = $("re-json");
    box.value = answer.text;
    box.hidden = false;
    const link = $("re-download");
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([answer.text], { type: "application/json" }));
    link.download = `${answer.rules.name}.json`;
    link.textContent = `Download ${answer.rules.name}.json`;
    link.hidden = false;
  }

  async importFile(file) {
    $("rules-editor").open = true;
    const problem = (message) => this.showCheck({ valid: false, field: null, message });
    if (file.size > 1_000_000) return problem(`${file.name} is ${file.size} bytes: too big for a ruleset.`);
    const text = await file.text();
    let answer;
    try {
      ({ result: answer } = await this.options.request("check_rules", { text, file: file.name }));
    } catch (error) {
      return problem(error.message);
    }
    if (!answer.valid) return problem(answer.message); // the ruleset being edited stays as it was
    this.load(answer.rules);
  }

  async remove() {
    const name = $("re-base").value;
    if (!this.options.rulesets().get(name)?.own) {
      this.showMessage(`${name} is a shipped ruleset: only your own can be removed.`, null);
      return;
    }
    await this.options.request("remove_rules", { name });
    await this.options.onRemoved(name);
    this.fillBases();
    $("re-status").textContent = `Removed ${name}.`;
  }

}
