// The board: drawing (premium squares, coordinates, tiles, a previewed move) and the editor
// (click a square and type; arrows move; Space or a second click turns across/down;
// Shift+letter is a blank; Backspace and Delete erase; Enter asks for a solve). A word typed
// across tiles already on the board keeps them: a letter typed on a tile that holds it steps
// over it, and any other letter goes on the next empty square along (erase a tile to change it).
//
// Keys arrive through one text input laid over the selected square, so a phone's on-screen
// keyboard works too (there the Blank button stands in for Shift).

import { columnName } from "./moves.js";

const PREMIUMS = {
  d: { label: "DL", name: "double letter", cls: "dl" },
  t: { label: "TL", name: "triple letter", cls: "tl" },
  q: { label: "QL", name: "quadruple letter", cls: "ql" },
  D: { label: "DW", name: "double word", cls: "dw" },
  T: { label: "TW", name: "triple word", cls: "tw" },
  Q: { label: "QW", name: "quadruple word", cls: "qw" },
};

const SCRIPTS = ["Latin", "Cyrillic", "Greek", "Armenian", "Georgian", "Hebrew", "Arabic"].map((name) => [
  name,
  new RegExp(`^\\p{Script=${name}}$`, "u"),
]);

function scriptOf(char) {
  return SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? null;
}

/** "'A' is not a letter of Эрудит", and when the key is a letter of another script than the
 * ruleset's, which script is wanted (a Latin A looks like Cyrillic А): as the Python messages
 * say it (Alphabet.script_hint). */
export function notALetter(char, rules) {
  const shown = String(char).normalize("NFC").toUpperCase();
  const message = `'${shown}' is not a letter of ${rules.title}`;
  const theirs = [...shown].length === 1 ? scriptOf(shown) : null;
  const ours = new Set(rules.letters.map((letter) => ([...letter].length === 1 ? scriptOf(letter) : null)));
  if (!theirs || ours.size !== 1 || ours.has(theirs) || ours.has(null)) return message;
  const [script] = ours;
  return `${message} ('${shown}' is a ${theirs} letter; these letters are ${script}, ${rules.letters[0]} to ${rules.letters.at(-1)})`;
}

/** A letter as typed → the ruleset's spelling (upper case, NFC, folded), or null. */
export function normalizer(rules) {
  const letters = new Set(rules.letters);
  const fold = rules.fold || {};
  return (text) => {
    let letter = String(text).normalize("NFC").toUpperCase();
    if (fold[letter]) letter = fold[letter];
    return letters.has(letter) ? letter : null;
  };
}

export class BoardView {
  /**
   * @param {HTMLElement} grid the element the squares go in
   * @param {HTMLInputElement} input the text input that takes the keys
   * @param {object} hooks onChange(cells), onSolve(), onMessage(text), onDirection(dir),
   *   onBlankMode(on) (the Blank button's one tile is placed)
   */
  constructor(grid, input, hooks) {
    this.grid = grid;
    this.input = input;
    this.hooks = hooks;
    this.rules = null;
    this.cells = [];
    this.squares = [];
    this.sel = { r: 7, c: 7 };
    this.dir = "across";
    this.blankMode = false;
    this.previewTiles = null;
    this.typedLast = null; // {r, c, letter, blank, next}: the tile typed last, for C then H → CH
    this.errorSquare = null;
    this.wordSquares = new Set(); // squares of words the lexicon does not hold
    this.lastSquares = []; // [[r, c], ...]: the tiles of the last move played, highlighted
    this.editingAtPress = null; // was the board taking keys when the square was pressed?
    // A press on a square would take the focus from the input (and close a phone's keyboard)
    // before the click could see that the square was already being typed on.
    grid.addEventListener("pointerdown", (event) => {
      if (event.target.closest(".sq")) this.editingAtPress = document.activeElement === this.input;
    });
    grid.addEventListener("mousedown", (event) => {
      if (document.activeElement === this.input && event.target.closest(".sq")) event.preventDefault();
    });
    grid.addEventListener("click", (event) => this.onClick(event));
    input.addEventListener("keydown", (event) => this.onKeyDown(event));
    input.addEventListener("input", () => this.onInput());
    input.addEventListener("focus", () => this.grid.classList.add("editing"));
    input.addEventListener("blur", () => this.grid.classList.remove("editing"));
  }

  // ---- set up -----------------------------------------------------------------------------

  setRules(rules, cells) {
    this.rules = rules;
    this.normalize = normalizer(rules);
    this.values = new Map(rules.letters.map((letter, i) => [letter, rules.values[i]]));
    this.cells = cells || new Array(rules.rows * rules.cols).fill(null);
    this.sel = { r: rules.start[0], c: rules.start[1] };
    this.previewTiles = null;
    this.typedLast = null;
    this.errorSquare = null;
    this.lastSquares = [];
    this.wordSquares = new Set();
    this.build();
    this.renderAll();
  }

  build() {
    const { rows, cols, layout, start, start_doubles: startDoubles } = this.rules;
    const grid = this.grid;
    grid.replaceChildren();
    grid.style.setProperty("--cols", cols);
    grid.style.setProperty("--rows", rows);
    grid.setAttribute("aria-rowcount", rows + 1);
    grid.setAttribute("aria-colcount", cols + 1);
    const head = document.createElement("div");
    head.className = "brow";
    head.setAttribute("role", "row");
    const corner = document.createElement("div");
    corner.className = "coord corner";
    corner.setAttribute("role", "columnheader");
    corner.setAttribute("aria-hidden", "true");
    head.append(corner);
    for (let c = 0; c < cols; c++) {
      const label = document.createElement("div");
      label.className = "coord col-label";
      label.setAttribute("role", "columnheader");
      label.textContent = columnName(c);
      head.append(label);
    }
    grid.append(head);
    this.squares = [];
    for (let r = 0; r < rows; r++) {
      const row = document.createElement("div");
      row.className = "brow";
      row.setAttribute("role", "row");
      const label = document.createElement("div");
      label.className = "coord row-label";
      label.setAttribute("role", "rowheader");
      label.textContent = String(r + 1);
      row.append(label);
      for (let c = 0; c < cols; c++) {
        const sq = document.createElement("div");
        sq.setAttribute("role", "gridcell");
        sq.dataset.r = r;
        sq.dataset.c = c;
        const isStart = r === start[0] && c === start[1];
        const premium = isStart && !startDoubles ? null : PREMIUMS[layout[r][c]];
        sq.className = `sq${premium ? ` ${premium.cls}` : ""}${isStart ? " start" : ""}`;
        sq.premium = premium;
        sq.isStart = isStart;
        row.append(sq);
        this.squares.push(sq);
      }
      grid.append(row);
    }
  }

  // ---- drawing ----------------------------------------------------------------------------

  index(r, c) {
    return r * this.rules.cols + c;
  }

  name(r, c) {
    return `${columnName(c)}${r + 1}`;
  }

  renderAll() {
    const preview = new Map();
    for (const [r, c, letter, blank] of this.previewTiles || []) preview.set(this.index(r, c), { letter, blank });
    for (let i = 0; i < this.squares.length; i++) this.renderSquare(i, preview.get(i));
    this.renderSelection();
  }

  renderSquare(i, previewTile) {
    const sq = this.squares[i];
    const cell = this.cells[i];
    const tile = cell || previewTile;
    sq.replaceChildren();
    sq.classList.toggle("tile", Boolean(tile));
    sq.classList.toggle("blank", Boolean(tile && tile.blank));
    sq.classList.toggle("preview", Boolean(!cell && previewTile));
    sq.classList.toggle("error-square", this.errorSquare === i);
    const unknown = Boolean(cell) && this.wordSquares.has(i);
    const last = Boolean(cell) && this.lastSquares.some(([r, c]) => this.index(r, c) === i);
    sq.classList.toggle("last-move", last);
    sq.classList.toggle("unknown-word", unknown);
    const r = Math.floor(i / this.rules.cols);
    const c = i % this.rules.cols;
    let description;
    if (tile) {
      const letter = document.createElement("span");
      letter.className = [...tile.letter].length > 1 ? "letter several" : "letter";
      letter.textContent = tile.blank ? tile.letter.toLowerCase() : tile.letter;
      sq.append(letter);
      const points = this.values.get(tile.letter) ?? 0;
      if (!tile.blank) {
        const value = document.createElement("span");
        value.className = "value";
        value.textContent = points;
        sq.append(" ", value); // read "Q 10", as the name says it (a flex box does not draw the space)
      }
      const worth = tile.blank ? "" : `, ${points} ${points === 1 ? "point" : "points"}`;
      description = `${tile.blank ? `blank as ${tile.letter}` : `letter ${tile.letter}`}${worth}${cell ? "" : ", preview"}`;
    } else {
      if (sq.premium || sq.isStart) {
        const label = document.createElement("span");
        label.className = "plabel";
        label.textContent = sq.isStart ? "★" : sq.premium.label;
        label.setAttribute("aria-hidden", "true"); // said in the square's name
        sq.append(label);
      }
      description = "empty";
    }
    const marked = this.errorSquare === i;
    sq.setAttribute("aria-label", this.squareName(r, c, sq, { description, last, unknown, marked, shown: !tile }));
  }

  /** A square's accessible name: "H8, double word, letter Q, 10 points". The premium's printed
   * label (TW, DL…) is in it while it is on show, so a name read aloud and the square seen agree. */
  squareName(r, c, sq, { description, last, unknown, marked, shown }) {
    const premium = sq.premium && `${sq.premium.name}${shown && !sq.isStart ? ` ${sq.premium.label}` : ""}`;
    return [
      this.name(r, c),
      premium,
      sq.isStart ? "start" : null,
      description,
      last ? "last move" : null,
      unknown ? "in a word not in the lexicon" : null,
      marked ? "the square the error names" : null,
    ]
      .filter(Boolean)
      .join(", ");
  }

  renderSelection() {
    for (const sq of this.grid.querySelectorAll(".selected")) {
      sq.classList.remove("selected", "across", "down");
      sq.removeAttribute("aria-selected");
    }
    const sq = this.squares[this.index(this.sel.r, this.sel.c)];
    if (!sq) return;
    sq.classList.add("selected", this.dir);
    sq.setAttribute("aria-selected", "true");
    // lay the input over the selected square
    const input = this.input;
    const parent = input.offsetParent;
    if (parent) {
      const box = sq.getBoundingClientRect();
      const origin = parent.getBoundingClientRect();
      input.style.left = `${box.left - origin.left}px`;
      input.style.top = `${box.top - origin.top}px`;
      input.style.width = `${box.width}px`;
      input.style.height = `${box.height}px`;
    }
    const arrow = this.dir === "across" ? "typing across" : "typing down";
    input.setAttribute("aria-label", `Board square ${sq.getAttribute("aria-label")}; ${arrow}`);
  }

  /** Show a move's tiles on the board (null: none). */
  preview(tiles) {
    this.previewTiles = tiles;
    this.renderAll();
  }

  /** Mark a square named like "H8" (null: none). */
  markError(name) {
    this.errorSquare = null;
    const m = /^([A-Z]+)([0-9]+)$/.exec(name || "");
    if (m) {
      let c = 0;
      for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
      const r = Number(m[2]) - 1;
      c -= 1;
      if (r >= 0 && r < this.rules.rows && c >= 0 && c < this.rules.cols) this.errorSquare = this.index(r, c);
    }
    this.renderAll();
  }

  /** Highlight the tiles of the last move played: [[r, c], ...] (none: []). */
  markLast(squares) {
    this.lastSquares = (squares || []).map(([r, c]) => [r, c]);
    this.renderAll();
  }

  /** Mark the squares [[r, c], ...] of words the lexicon does not hold (none: []). */
  markWords(squares) {
    const marked = new Set(squares.map(([r, c]) => this.index(r, c)));
    const changed = [...marked].some((i) => !this.wordSquares.has(i)) || [...this.wordSquares].some((i) => !marked.has(i));
    this.wordSquares = marked;
    if (changed) this.renderAll();
  }

  /** The board as rows of text: "." empty, a letter, lower case for a blank. */
  rowsText() {
    const { rows, cols } = this.rules;
    const out = [];
    for (let r = 0; r < rows; r++) {
      let line = "";
      for (let c = 0; c < cols; c++) {
        const cell = this.cells[this.index(r, c)];
        if (!cell) line += ".";
        else {
          const text = cell.blank ? cell.letter.toLowerCase() : cell.letter;
          line += text.length > 1 ? `[${text}]` : text;
        }
      }
      out.push(line);
    }
    return out;
  }

  /** Set the board from rows of text (as rowsText writes them). */
  setRows(rows) {
    this.cells = cellsFromRows(rows, this.rules);
    this.errorSquare = null;
    this.renderAll();
  }

  // ---- editing ----------------------------------------------------------------------------

  focus() {
    this.input.focus({ preventScroll: true });
  }

  select(r, c) {
    const { rows, cols } = this.rules;
    this.sel = { r: Math.max(0, Math.min(rows - 1, r)), c: Math.max(0, Math.min(cols - 1, c)) };
    this.renderSelection();
  }

  setDirection(dir) {
    this.dir = dir;
    this.renderSelection();
    this.hooks.onDirection?.(dir);
  }

  toggleDirection() {
    this.setDirection(this.dir === "across" ? "down" : "across");
  }

  onClick(event) {
    const sq = event.target.closest(".sq");
    if (!sq) return;
    const r = Number(sq.dataset.r);
    const c = Number(sq.dataset.c);
    const editing = this.editingAtPress ?? document.activeElement === this.input;
    this.editingAtPress = null;
    const again = r === this.sel.r && c === this.sel.c && editing;
    if (again) this.toggleDirection();
    else this.select(r, c);
    this.focus();
  }

  step(back = false) {
    const d = back ? -1 : 1;
    const { r, c } = this.sel;
    if (this.dir === "across") this.select(r, c + d);
    else this.select(r + d, c);
  }

  put(value) {
    const i = this.index(this.sel.r, this.sel.c);
    this.cells[i] = value;
    if (this.errorSquare === i) this.errorSquare = null;
    this.renderSquare(i);
    this.hooks.onChange(this.cells);
  }

  /** The next empty square from the selection along the typing direction, or null. */
  nextEmpty() {
    let { r, c } = this.sel;
    const { rows, cols } = this.rules;
    while (r < rows && c < cols) {
      if (!this.cells[this.index(r, c)]) return { r, c };
      if (this.dir === "across") c += 1;
      else r += 1;
    }
    return null;
  }

  /** Type one character: a letter places a tile and moves on; typed on a tile of the board, the
   * same letter steps over it and another goes on the next empty square. A letter that, with the
   * tile typed just before it, spells a tile of several letters makes that tile (Spanish C then H:
   * one CH tile, as the game's words are always spelled). */
  type(char, blank) {
    if (char === " ") {
      this.toggleDirection();
      return;
    }
    if (this.joinTyped(char)) return;
    const letter = this.normalize(char);
    if (!letter) {
      if (char.trim()) this.hooks.onMessage(notALetter(char, this.rules));
      return;
    }
    this.hooks.onMessage("");
    const here = this.cells[this.index(this.sel.r, this.sel.c)];
    if (here && here.letter === letter) {
      this.step();
      return;
    }
    if (here) {
      const free = this.nextEmpty();
      if (!free) {
        this.hooks.onMessage(`No empty square ${this.dir} from ${this.name(this.sel.r, this.sel.c)} for ${letter}`);
        return;
      }
      this.select(free.r, free.c);
    }
    const placed = { r: this.sel.r, c: this.sel.c, letter, blank: Boolean(blank) };
    this.put({ letter, blank: Boolean(blank) });
    if (this.blankMode && blank) {
      this.blankMode = false; // the Blank button makes one blank, as Shift does
      this.hooks.onBlankMode?.(false);
    }
    this.step();
    this.typedLast = { ...placed, next: { ...this.sel } };
  }

  /** The tile typed just before, if the selection has not moved since, turned into the tile its
   * letter and `char` spell together (C, H → CH); true when that happened. */
  joinTyped(char) {
    const last = this.typedLast;
    this.typedLast = null;
    if (!last || last.next.r !== this.sel.r || last.next.c !== this.sel.c) return false;
    const i = this.index(last.r, last.c);
    const cell = this.cells[i];
    const letter = this.normalize(last.letter + char);
    if (!cell || cell.letter !== last.letter || !letter || letter === last.letter) return false;
    this.cells[i] = { letter, blank: cell.blank };
    this.renderSquare(i);
    this.hooks.onChange(this.cells);
    this.typedLast = { ...last, letter };
    return true;
  }

  onKeyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const key = event.key;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[key]) {
      event.preventDefault();
      this.select(this.sel.r + moves[key][0], this.sel.c + moves[key][1]);
      return;
    }
    switch (key) {
      case " ":
      case "Spacebar":
        event.preventDefault();
        this.toggleDirection();
        return;
      case "Backspace": {
        event.preventDefault();
        if (!this.cells[this.index(this.sel.r, this.sel.c)]) this.step(true);
        this.put(null);
        return;
      }
      case "Delete":
        event.preventDefault();
        this.put(null);
        return;
      case "Enter":
        event.preventDefault();
        this.hooks.onSolve();
        return;
      case "Escape":
        this.input.blur();
        return;
      case "Home":
        event.preventDefault();
        this.select(this.sel.r, 0);
        return;
      case "End":
        event.preventDefault();
        this.select(this.sel.r, this.rules.cols - 1);
        return;
      default:
        break;
    }
    if ([...key].length === 1) {
      event.preventDefault();
      this.type(key, event.shiftKey || this.blankMode);
    }
    // anything else ("Unidentified" from on-screen keyboards, Tab…) goes its usual way;
    // typed text then arrives through the input event
  }

  onInput() {
    const text = this.input.value;
    this.input.value = "";
    for (const char of text) this.type(char, this.blankMode);
  }
}

/** Rows of text ("." empty, letters, lower case blanks, [CH]) → cells. */
export function cellsFromRows(rows, rules) {
  const normalize = normalizer(rules);
  const cells = new Array(rules.rows * rules.cols).fill(null);
  if (!Array.isArray(rows)) return cells;
  rows.slice(0, rules.rows).forEach((line, r) => {
    const tokens = String(line).match(/\[[^\]]+\]|./gu) || [];
    tokens.slice(0, rules.cols).forEach((token, c) => {
      const text = token.startsWith("[") ? token.slice(1, -1) : token;
      if (text === ".") return;
      const letter = normalize(text);
      if (!letter) return;
      const blank = text !== text.toUpperCase();
      cells[r * rules.cols + c] = { letter, blank };
    });
  });
  return cells;
}
